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
