//! The one way out for every command's output. Writing must never panic
//! (`print!` does, on a closed pipe or a full disk):
//!
//! - a closed pipe (`cqlmodel review | head -1`) means the reader has what it
//!   wants: stop quietly with exit 0, as ripgrep does;
//! - any other write error (`>/dev/full`) is reported on stderr, naming the
//!   operation, and the exit code is 2: the output is incomplete.
//!
//! Errors writing to stderr itself are ignored: there is nowhere left to say them.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// `--quiet`: nothing on stdout, and stderr only for errors (exit 2).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Sets `--quiet` for the rest of the run.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Writes a command's stdout and stderr text and returns the exit code to use:
/// `code`, or 0 for a closed pipe, or 2 when stdout could not be written.
pub fn emit(stdout: &str, stderr: &str, code: u8) -> u8 {
    // Quiet runs still say why they failed (JSON errors go to stdout).
    if quiet() && code != 2 {
        return code;
    }
    let written = write_stdout(stdout.as_bytes());
    write_stderr(stderr);
    match written {
        Ok(()) => code,
        Err(e) => stdout_failed(&e),
    }
}

/// [`emit`] for a command whose stdout is written piece by piece by `write`
/// (a report of 100,000 findings is not held whole in memory): the same exit
/// codes and the same `--quiet` rule, stderr after stdout. A write error
/// stops `write` (a closed pipe: the reader has what it wants).
pub fn emit_streamed(
    stderr: &str,
    code: u8,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> u8 {
    if quiet() && code != 2 {
        return code;
    }
    emit_streaming(|out| Streamed {
        written: write(out),
        stderr: stderr.to_string(),
        code,
    })
}

/// What a command that streams its stdout ([`emit_streaming`]) hands back
/// once it is written.
pub struct Streamed {
    /// The first error writing stdout, if any.
    pub written: io::Result<()>,
    pub stderr: String,
    pub code: u8,
}

impl Streamed {
    /// A run that stopped on an input error before writing anything: the
    /// message on stderr, exit 2.
    pub fn failed(stderr: String) -> Self {
        Streamed {
            written: Ok(()),
            stderr,
            code: 2,
        }
    }
}

/// [`emit_streamed`] for a command that knows its exit code only once its
/// stdout is written (`explain` decides it from all its statements): with
/// `--quiet`, stdout is held in memory until the code says whether it is
/// printed.
pub fn emit_streaming(write: impl FnOnce(&mut dyn Write) -> Streamed) -> u8 {
    if quiet() {
        let mut held = Vec::new();
        let run = write(&mut held);
        return emit(&String::from_utf8_lossy(&held), &run.stderr, run.code);
    }
    // Pieces are small (one finding each): buffered, they go out in large writes.
    let mut out = io::BufWriter::with_capacity(STREAM_BUFFER, io::stdout().lock());
    let run = write(&mut out);
    let written = run.written.and_then(|()| out.flush());
    write_stderr(&run.stderr);
    match written {
        Ok(()) => run.code,
        Err(e) => stdout_failed(&e),
    }
}

/// Bytes of stdout held before a write, in [`emit_streaming`].
const STREAM_BUFFER: usize = 64 << 10;

/// Writes `bytes` to stdout and flushes.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// Writes to stderr, ignoring failure.
pub fn write_stderr(text: &str) {
    if !text.is_empty() {
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
}

/// The exit code after stdout failed with `e`: 0 for a closed pipe (quietly),
/// else 2 with a message.
pub fn stdout_failed(e: &io::Error) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        0
    } else {
        write_stderr(&format!("error: cannot write to standard output: {e}\n"));
        2
    }
}

/// The JSON model a command's run hands to the HTML page (`--html`, `--format
/// html`): the command computes its result once and renders it for stdout and,
/// when the page is wanted, into this model, the very document `--format json`
/// prints. Only a run that got as far as a result fills it: an input error
/// (exit 2) leaves it empty, and then there is no page.
#[derive(Debug, Default)]
pub struct Model {
    wanted: bool,
    value: Option<serde_json::Value>,
    /// The text of the files the run read, by name, for the page's source
    /// excerpts: the page shows what the run read (stdin included).
    sources: std::collections::BTreeMap<String, String>,
}

impl Model {
    /// A slot that asks for the model.
    pub fn wanted() -> Self {
        Model {
            wanted: true,
            ..Model::default()
        }
    }

    /// A slot that does not (no page): filling it costs nothing.
    pub fn unwanted() -> Self {
        Model::default()
    }

    /// Whether the page wants the model.
    pub fn is_wanted(&self) -> bool {
        self.wanted
    }

    /// Builds the JSON document when stdout is JSON (`json`) or the page wants
    /// it; keeps it for the page, and returns it pretty-printed for stdout when
    /// `json`. The document is built once for both.
    pub fn document(
        &mut self,
        json: bool,
        build: impl FnOnce() -> serde_json::Value,
    ) -> Option<String> {
        if !json && !self.wanted {
            return None;
        }
        let value = build();
        let text = json.then(|| serde_json::to_string_pretty(&value).unwrap_or_default() + "\n");
        if self.wanted {
            self.value = Some(value);
        }
        text
    }

    /// Keeps the text of the files the run read, when the page is wanted.
    pub fn keep_sources(&mut self, sources: &cqlmodel_diagnostics::SourceMap) {
        if self.wanted {
            for file in sources.iter() {
                self.sources.insert(file.name.clone(), file.text.clone());
            }
        }
    }

    /// The files kept by [`Model::keep_sources`].
    pub fn sources(&mut self) -> std::collections::BTreeMap<String, String> {
        std::mem::take(&mut self.sources)
    }

    /// The model, when the run produced one.
    pub fn take(self) -> Option<serde_json::Value> {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::Model;

    #[test]
    fn the_document_is_built_only_when_stdout_or_the_page_needs_it() {
        let mut built = 0;
        let mut unwanted = Model::unwanted();
        assert_eq!(
            unwanted.document(false, || {
                built += 1;
                serde_json::json!({})
            }),
            None
        );
        assert_eq!(built, 0);
        assert_eq!(unwanted.take(), None);

        let mut page = Model::wanted();
        let stdout = page.document(true, || {
            built += 1;
            serde_json::json!({"a": 1})
        });
        assert_eq!(built, 1, "one build serves stdout and the page");
        assert_eq!(stdout.as_deref(), Some("{\n  \"a\": 1\n}\n"));
        assert_eq!(page.take(), Some(serde_json::json!({"a": 1})));

        let mut page_only = Model::wanted();
        assert_eq!(page_only.document(false, || serde_json::json!([])), None);
        assert_eq!(page_only.take(), Some(serde_json::json!([])));
    }
}
