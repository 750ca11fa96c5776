//! Problems in a statistics file, each with the byte span it points at.

use std::ops::Range;

/// One problem in a statistics file. `span` is a byte range of the file's text;
/// the CLI turns it into file:line:column.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct StatsError {
    pub kind: StatsErrorKind,
    pub span: Range<usize>,
}

impl StatsError {
    pub fn new(kind: StatsErrorKind, span: Range<usize>) -> Self {
        Self { kind, span }
    }

    /// A short label for the span in rendered diagnostics.
    pub fn label(&self) -> &'static str {
        match &self.kind {
            StatsErrorKind::Toml { .. } => "here",
            StatsErrorKind::UnknownKey { .. } => "unknown field",
            StatsErrorKind::UnknownTable { .. } => "no such table",
            StatsErrorKind::AmbiguousTable { .. } => "ambiguous table name",
            StatsErrorKind::UnknownColumn { .. } => "no such column",
            StatsErrorKind::WrongType { .. } => "wrong type",
            StatsErrorKind::OutOfRange { .. } => "out of range",
            StatsErrorKind::BadValue { .. } => "cannot read this value",
            StatsErrorKind::Inconsistent { .. } => "inconsistent with the rest of the file",
            StatsErrorKind::Conflict { .. } => "conflicting fields",
            StatsErrorKind::DuplicateTable { .. } => "table given twice",
            StatsErrorKind::Misplaced { .. } => "not allowed here",
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsErrorKind {
    #[error("invalid TOML: {message}")]
    Toml { message: String },
    #[error("unknown field `{key}` in {section} (expected one of: {})", expected.join(", "))]
    UnknownKey {
        section: String,
        key: String,
        expected: &'static [&'static str],
    },
    #[error("unknown table `{name}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownTable {
        name: String,
        suggestion: Option<String>,
    },
    #[error("table name `{name}` is ambiguous: qualify it with its keyspace ({})", candidates.join(", "))]
    AmbiguousTable {
        name: String,
        candidates: Vec<String>,
    },
    #[error("table `{table}` has no column `{column}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownColumn {
        table: String,
        column: String,
        suggestion: Option<String>,
    },
    #[error("`{field}` must be {expected}, found {found}")]
    WrongType {
        field: String,
        expected: &'static str,
        found: &'static str,
    },
    #[error("`{field}` must be {requirement}, found {value}")]
    OutOfRange {
        field: String,
        value: String,
        requirement: &'static str,
    },
    #[error("`{field}`: {message}")]
    BadValue { field: String, message: String },
    #[error("{message}")]
    Inconsistent { message: String },
    #[error("`{first}` and `{second}` cannot both be given: {why}")]
    Conflict {
        first: String,
        second: String,
        why: &'static str,
    },
    #[error("table `{name}` is described twice (as `{first}` and `{second}`)")]
    DuplicateTable {
        name: String,
        first: String,
        second: String,
    },
    #[error("`{field}` {why}")]
    Misplaced { field: String, why: String },
}
