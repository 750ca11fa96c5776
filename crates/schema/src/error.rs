//! Schema errors, worded as Cassandra 5.0 words them (`CreateTableStatement`,
//! `CQL3Type`, `CreateIndexStatement`, `TableParams`, ...). The messages are
//! compared character for character with Cassandra's in `tests/ddl_cases.rs`.

use cqlmodel_cql::ast::Span;

mod kind;

pub use kind::SchemaErrorKind;

/// A statement of a schema file that Cassandra would reject.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct SchemaError {
    pub kind: SchemaErrorKind,
    /// The file index the caller gave the statement.
    pub file: usize,
    /// The offending part of the statement (a column, a type, or the statement itself).
    pub span: Span,
}

impl SchemaError {
    /// The class of exception Cassandra throws, which sets the protocol error code.
    pub fn class(&self) -> ErrorClass {
        self.kind.class()
    }
}

/// The exception class of a rejection, which decides the protocol error code
/// (and the label cqlsh prints).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// `SyntaxException` (0x2000): the parser, or a property value that does not parse.
    Syntax,
    /// `InvalidRequestException` (0x2200).
    Invalid,
    /// `ConfigurationException` (0x2300).
    Configuration,
    /// `AlreadyExistsException` (0x2400).
    AlreadyExists,
}

impl ErrorClass {
    /// The protocol error code.
    pub fn code(self) -> u16 {
        match self {
            ErrorClass::Syntax => 0x2000,
            ErrorClass::Invalid => 0x2200,
            ErrorClass::Configuration => 0x2300,
            ErrorClass::AlreadyExists => 0x2400,
        }
    }
}

impl SchemaErrorKind {
    pub fn at(self, file: usize, span: Span) -> SchemaError {
        SchemaError {
            kind: self,
            file,
            span,
        }
    }
}

/// A client warning Cassandra sends with a successful schema change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaWarning {
    pub kind: SchemaWarningKind,
    pub file: usize,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaWarningKind {
    /// `View.USAGE_WARNING`, sent for every CREATE MATERIALIZED VIEW.
    #[error("Materialized views are experimental and are not recommended for production use.")]
    MaterializedViewsExperimental,
    /// `SASIIndex.USAGE_WARNING`, sent for every CREATE CUSTOM INDEX ... USING SASI.
    #[error("SASI indexes are experimental and are not recommended for production use.")]
    SasiExperimental,
    /// An option an older Cassandra accepted and 5.0 rejects, dropped because the
    /// schema file describes an existing table (`Settings::removed_options_accepted`).
    #[error(
        "`{table}`: {options} removed in Cassandra {removed_in} (5.0 rejects the CREATE TABLE); the table is reviewed without it. Instead: {instead}"
    )]
    RemovedOption {
        table: String,
        /// The option names, quoted and comma-separated.
        options: String,
        removed_in: &'static str,
        instead: &'static str,
    },
}

impl std::fmt::Display for SchemaWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind.fmt(f)
    }
}
