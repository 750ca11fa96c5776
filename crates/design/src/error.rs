//! What can go wrong while designing: every error names the place (1-based line
//! and column of the input file) and the construct.

use thiserror::Error;

/// Which input an error points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Model,
    Queries,
    Stats,
}

impl Source {
    pub fn label(self) -> &'static str {
        match self {
            Source::Model => "model",
            Source::Queries => "queries",
            Source::Stats => "stats",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DesignErrorKind {
    /// SQL the parser rejects.
    Syntax,
    /// Valid SQL outside the subset the designer understands.
    Unsupported,
    UnknownTable,
    UnknownColumn,
    /// A join whose condition follows no foreign key.
    NoForeignKeyPath,
    /// Annotations that contradict each other or cannot be read.
    Annotation,
    /// The statistics file does not fit the model.
    Stats,
    /// The model itself is unusable (no table, a table without primary key).
    Model,
}

impl DesignErrorKind {
    /// The diagnostic code: kebab-case, like the review's rule names.
    pub fn code(&self) -> &'static str {
        match self {
            DesignErrorKind::Syntax => "syntax",
            DesignErrorKind::Unsupported => "unsupported",
            DesignErrorKind::UnknownTable => "unknown-table",
            DesignErrorKind::UnknownColumn => "unknown-column",
            DesignErrorKind::NoForeignKeyPath => "no-foreign-key-path",
            DesignErrorKind::Annotation => "annotation",
            DesignErrorKind::Stats => "stats",
            DesignErrorKind::Model => "model",
        }
    }
}

/// One input error, with its place.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}:{line}:{column}: {message}", source_file.label())]
pub struct DesignError {
    pub kind: DesignErrorKind,
    pub source_file: Source,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The other problems found in the same run, when the run stops: every
    /// stop lists all problems of the file, not only the first.
    pub also: Vec<DesignError>,
}

impl DesignError {
    pub fn new(
        kind: DesignErrorKind,
        source_file: Source,
        (line, column): (usize, usize),
        message: impl Into<String>,
    ) -> Self {
        DesignError {
            kind,
            source_file,
            line,
            column,
            message: message.into(),
            also: Vec::new(),
        }
    }

    /// One error for a run that stops on several problems: the first, with the
    /// others in `also`.
    pub fn stop(errors: Vec<DesignError>) -> DesignError {
        let mut errors = errors.into_iter();
        let Some(mut first) = errors.next() else {
            return DesignError::new(
                DesignErrorKind::Model,
                Source::Model,
                (1, 1),
                "the model has no CREATE TABLE",
            );
        };
        first.also.extend(errors);
        first
    }
}
