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

impl QueryError {
    /// An error about the statement as a whole (no narrower place to point at).
    pub fn whole(message: String) -> Self {
        QueryError {
            message,
            span: Span::default(),
        }
    }

    /// True when the statement names a keyspace, table or column that does not
    /// exist, or gives a literal of the wrong type: a mistake in the input, as
    /// opposed to a statement Cassandra refuses to serve.
    pub fn is_input_error(&self) -> bool {
        let m = self.message.as_str();
        m.starts_with("Undefined column name")
            || m.starts_with("keyspace ")
            || m.starts_with("table ")
            || m.starts_with("No keyspace has been specified")
            || (m.starts_with("Invalid ")
                && (m.contains(" constant (") || m.contains(" literal for ")))
    }
}
