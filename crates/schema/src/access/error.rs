use cqlmodel_cql::ast::Span;
use serde::Serialize;

/// Cassandra's rejection of a statement: its message, verbatim, and the part of
/// the statement it is about (the relation, column or clause).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct QueryError {
    pub message: String,
    #[serde(skip)]
    pub span: Span,
}
