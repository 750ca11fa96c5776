//! What a command hands back to main: the text for stdout and stderr and the
//! exit code, and the output formats the finding commands share. A leaf:
//! every command module uses it, it uses none.

/// The formats of the commands that report findings (review, diagnose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewFormat {
    Text,
    Json,
    Sarif,
}

/// The outcome: what to print on stdout and stderr, and the exit code.
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}
