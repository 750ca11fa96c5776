//! Schema errors, worded as Cassandra words them where it has a message
//! (`CreateTableStatement`, `CQL3Type`, `CreateIndexStatement`, ...).

use cqlmodel_cql::ast::Span;

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

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchemaErrorKind {
    #[error("No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename")]
    NoKeyspace,
    #[error("Keyspace '{0}' doesn't exist")]
    UnknownKeyspace(String),
    #[error("Cannot add existing keyspace \"{0}\"")]
    KeyspaceExists(String),
    #[error("Cannot add already existing table \"{table}\" to keyspace \"{keyspace}\"")]
    TableExists { keyspace: String, table: String },
    #[error("Table '{keyspace}.{table}' doesn't exist")]
    UnknownTable { keyspace: String, table: String },
    #[error("A user type with name '{0}' already exists")]
    TypeExists(String),
    #[error("Unknown type {0}")]
    UnknownType(String),
    #[error("Duplicate field name {field} in type {ty}")]
    DuplicateField { field: String, ty: String },
    #[error("Cannot create user type {0} referencing itself")]
    RecursiveType(String),
    #[error("Duplicate column '{column}' declaration for table '{table}'")]
    DuplicateColumn { column: String, table: String },
    #[error("No PRIMARY KEY specifed for table '{0}' (exactly one required)")]
    NoPrimaryKey(String),
    #[error("Multiple PRIMARY KEYs specified (exactly one required)")]
    MultiplePrimaryKeys,
    #[error("Unknown column '{column}' referenced in PRIMARY KEY for table '{table}'")]
    UnknownPrimaryKeyColumn { column: String, table: String },
    #[error("Duplicate column '{column}' in PRIMARY KEY clause for table '{table}'")]
    DuplicatePrimaryKeyColumn { column: String, table: String },
    #[error("Invalid non-frozen collection type {ty} for PRIMARY KEY column '{column}'")]
    NonFrozenCollectionInPrimaryKey { ty: String, column: String },
    #[error("Invalid non-frozen user-defined type {ty} for PRIMARY KEY column '{column}'")]
    NonFrozenUdtInPrimaryKey { ty: String, column: String },
    #[error("counter type is not supported for PRIMARY KEY column '{0}'")]
    CounterInPrimaryKey(String),
    #[error("duration type is not supported for PRIMARY KEY column '{0}'")]
    DurationInPrimaryKey(String),
    #[error("Static column '{0}' cannot be part of the PRIMARY KEY")]
    StaticInPrimaryKey(String),
    #[error("Static columns are only useful (and thus allowed) if the table has at least one clustering column")]
    StaticWithoutClustering,
    #[error("Only clustering columns can be defined in CLUSTERING ORDER directive")]
    ClusteringOrderNotClustering,
    #[error("The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns ({expected} must appear before {found})")]
    ClusteringOrderWrongOrder { expected: String, found: String },
    #[error("Missing CLUSTERING ORDER for column {0}")]
    ClusteringOrderMissing(String),
    #[error("Cannot mix counter and non counter columns in the same table")]
    CounterMixed,
    #[error("Cannot set default_time_to_live on a table with counters")]
    CounterWithTtl,
    #[error("COMPACT STORAGE tables are not allowed starting with version 4.0")]
    CompactStorage,
    #[error("Non-frozen collections are not allowed inside collections: {0}")]
    NestedNonFrozenCollection(String),
    #[error("Non-frozen UDTs are not allowed inside collections: {0}")]
    NestedNonFrozenUdt(String),
    #[error("Counters are not allowed inside collections: {0}")]
    CounterInCollection(String),
    #[error("counters are not allowed inside tuples")]
    CounterInTuple,
    #[error("frozen<> is only allowed on collections, tuples, and user-defined types (got {0})")]
    FrozenNotAllowed(String),
    #[error("Non-frozen UDTs with nested non-frozen collections are not supported")]
    NonFrozenUdtWithNonFrozenCollection,
    #[error("A user type cannot contain counters")]
    CounterInUdt,
    #[error("vectors may only have positive dimensions; given {0}")]
    VectorDimension(i64),
    #[error("Unknown property '{0}'")]
    UnknownProperty(String),
    #[error("Multiple definition for property '{0}'")]
    DuplicateProperty(String),
    #[error("{0}")]
    InvalidProperty(String),
    #[error("Undefined column name {column} in table {table}")]
    UnknownColumn { column: String, table: String },
    #[error("Index {0} already exists")]
    IndexExists(String),
    #[error("{0}")]
    InvalidIndex(String),
    #[error("{0}")]
    InvalidView(String),
    #[error("{0}")]
    InvalidAlter(String),
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
