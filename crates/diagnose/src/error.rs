//! What went wrong while reading an input: typed, with the line it happened at.
//! A problem never discards what was read before it.

use std::ops::Range;

/// A problem in a nodetool output, at `line` (1-based) of the file (byte `span`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseProblem {
    pub file: usize,
    pub line: usize,
    pub span: Range<usize>,
    pub kind: ProblemKind,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProblemKind {
    /// Nothing in the input looks like a nodetool output cqlmodel reads.
    #[error(
        "not a nodetool output cqlmodel reads (tablestats/cfstats text, -F json, -F yaml, or tablehistograms)"
    )]
    UnknownFormat,
    /// A line no format explains; reading resumes at the next recognizable line.
    #[error("unexpected line in {format} output: `{text}`; skipped to the next recognizable line")]
    UnexpectedLine { format: &'static str, text: String },
    /// The input ends inside a table's block or a histogram.
    #[error(
        "the {format} output ends here, inside {what}: the file looks truncated; what was read before is used"
    )]
    Truncated { format: &'static str, what: String },
    /// A JSON or YAML document that does not parse.
    #[error("{format} output does not parse: {message}")]
    Syntax {
        format: &'static str,
        message: String,
    },
    /// A number that does not read as one.
    #[error("`{label}`: `{value}` is not a number")]
    BadNumber { label: String, value: String },
    /// A histogram row with the wrong number of columns.
    #[error("histogram row has {found} values, the header names {expected} columns")]
    ColumnCount { expected: usize, found: usize },
}

impl ProblemKind {
    /// Truncation and unknown lines leave a usable partial result; these are the
    /// problems that say so.
    pub fn is_partial(&self) -> bool {
        !matches!(self, ProblemKind::UnknownFormat)
    }
}
