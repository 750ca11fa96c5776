//! Why a term could not be turned into the bytes Cassandra would store.

use cqlmodel_cql::ast::Span;

/// A term that cannot be serialized for its type, with the source span of the
/// offending (sub)term.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ValueError {
    pub kind: ValueErrorKind,
    pub span: Span,
}

impl ValueError {
    pub(crate) fn new(kind: ValueErrorKind, span: Span) -> Self {
        Self { kind, span }
    }
}

/// What went wrong; the `Display` text reads like Cassandra's own messages where one exists.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueErrorKind {
    /// The literal has the right kind but its text does not parse as a value of the type.
    #[error("invalid literal for {ty}: '{text}'{}", reason_suffix(reason))]
    InvalidLiteral {
        ty: String,
        text: String,
        reason: Option<String>,
    },
    /// A well-formed number outside the type's range.
    #[error("value {value} out of range for {ty}")]
    OutOfRange { ty: String, value: String },
    /// A literal of a kind the type never accepts (Cassandra: "Invalid ... constant").
    #[error("{found} literal is not valid for type {expected}")]
    TypeMismatch { expected: String, found: String },
    #[error("timeuuid must be a version 1 UUID, found version {found}")]
    NotTimeUuid { found: u8 },
    #[error("cannot serialize a bind marker")]
    BindMarker,
    #[error("cannot serialize a function call: {name}(...) is evaluated by the server")]
    FunctionCall { name: String },
    #[error("cannot serialize {what}: it is not evaluated here")]
    Unevaluated { what: String },
    #[error("'{text}' is evaluated at execution time; no fixed value to serialize")]
    NowLiteral { text: String },
    #[error("null is not a value here")]
    Null,
    #[error("null is not supported inside collections")]
    NullInCollection,
    #[error("null is not supported inside vectors")]
    NullInVector,
    #[error("invalid tuple literal for {ty}: too many elements (expected {expected}, got {found})")]
    TooManyTupleElements {
        ty: String,
        expected: usize,
        found: usize,
    },
    #[error("invalid vector literal for {ty}: expected {expected} elements, got {found}")]
    VectorDimension {
        ty: String,
        expected: u32,
        found: usize,
    },
    #[error("unknown field '{field}' in value of user-defined type {udt}")]
    UnknownField { udt: String, field: String },
    #[error("field '{field}' given twice in value of user-defined type {udt}")]
    DuplicateField { udt: String, field: String },
    #[error("type hint ({hint}) does not match type {expected}")]
    TypeHintMismatch { hint: String, expected: String },
    #[error("values of type {ty} cannot be serialized: {reason}")]
    UnsupportedType { ty: String, reason: String },
    #[error("{ty} value has {len} bytes; a {ty} inside a vector must have exactly {expected}")]
    FixedLengthMismatch {
        ty: String,
        len: usize,
        expected: usize,
    },
    #[error("value is too large to serialize ({len} bytes)")]
    TooLarge { len: usize },
}

fn reason_suffix(reason: &Option<String>) -> String {
    match reason {
        Some(r) => format!(" ({r})"),
        None => String::new(),
    }
}
