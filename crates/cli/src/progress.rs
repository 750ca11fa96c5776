//! A progress indicator on stderr for long runs (a large design, ring
//! sampling, a large review). It draws only when stderr is a terminal and
//! `--quiet` was not given: pipes, files, CI logs and tests see nothing, and
//! stdout is never touched.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner or a counted bar; cleared from the terminal when dropped.
pub struct Progress {
    bar: ProgressBar,
}

/// Whether to draw: a terminal to draw on, and no `--quiet`.
pub fn draws(quiet: bool, stderr_is_terminal: bool) -> bool {
    !quiet && stderr_is_terminal
}

fn target() -> ProgressDrawTarget {
    if draws(crate::output::quiet(), std::io::stderr().is_terminal()) {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

impl Progress {
    /// A spinner with what is being done (`designing 1,200 tables`).
    pub fn spinner(message: impl Into<String>) -> Self {
        let bar = ProgressBar::with_draw_target(None, target());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(message.into());
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        Progress { bar }
    }

    /// A bar counting `total` steps (`sampling keys 120,000/1,000,000`).
    pub fn counted(total: u64, message: impl Into<String>) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), target());
        bar.set_style(
            ProgressStyle::with_template("{msg} {wide_bar} {human_pos}/{human_len} ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(message.into());
        Progress { bar }
    }

    pub fn inc(&self, steps: u64) {
        self.bar.inc(steps);
    }

    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Whether anything is drawn.
    pub fn is_hidden(&self) -> bool {
        self.bar.is_hidden()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_only_on_a_terminal_without_quiet() {
        assert!(draws(false, true));
        assert!(!draws(true, true), "--quiet draws nothing");
        assert!(!draws(false, false), "a pipe or a file gets nothing");
        assert!(!draws(true, false));
    }
}
