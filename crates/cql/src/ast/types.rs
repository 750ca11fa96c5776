use super::{QualifiedName, Span};

/// A CQL data type as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataType {
    pub kind: DataTypeKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DataTypeKind {
    Native(NativeType),
    List(Box<DataType>),
    Set(Box<DataType>),
    Map(Box<DataType>, Box<DataType>),
    Tuple(Vec<DataType>),
    /// `frozen<T>`.
    Frozen(Box<DataType>),
    /// `vector<T, n>` (Cassandra 5.0).
    Vector(Box<DataType>, u32),
    /// A user-defined type reference, possibly keyspace-qualified.
    Udt(QualifiedName),
    /// A custom type given as a Java class name string: `'org.apache...Type'`.
    Custom(String),
}

/// Cassandra's native types. `varchar` is kept apart from `text` so that
/// printing preserves what was written; the schema layer treats them as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NativeType {
    Ascii,
    Bigint,
    Blob,
    Boolean,
    Counter,
    Date,
    Decimal,
    Double,
    Duration,
    Float,
    Inet,
    Int,
    Smallint,
    Text,
    Time,
    Timestamp,
    Timeuuid,
    Tinyint,
    Uuid,
    Varchar,
    Varint,
}

impl NativeType {
    pub const ALL: [NativeType; 21] = [
        NativeType::Ascii,
        NativeType::Bigint,
        NativeType::Blob,
        NativeType::Boolean,
        NativeType::Counter,
        NativeType::Date,
        NativeType::Decimal,
        NativeType::Double,
        NativeType::Duration,
        NativeType::Float,
        NativeType::Inet,
        NativeType::Int,
        NativeType::Smallint,
        NativeType::Text,
        NativeType::Time,
        NativeType::Timestamp,
        NativeType::Timeuuid,
        NativeType::Tinyint,
        NativeType::Uuid,
        NativeType::Varchar,
        NativeType::Varint,
    ];

    /// The CQL keyword, lower-case.
    pub fn name(self) -> &'static str {
        match self {
            NativeType::Ascii => "ascii",
            NativeType::Bigint => "bigint",
            NativeType::Blob => "blob",
            NativeType::Boolean => "boolean",
            NativeType::Counter => "counter",
            NativeType::Date => "date",
            NativeType::Decimal => "decimal",
            NativeType::Double => "double",
            NativeType::Duration => "duration",
            NativeType::Float => "float",
            NativeType::Inet => "inet",
            NativeType::Int => "int",
            NativeType::Smallint => "smallint",
            NativeType::Text => "text",
            NativeType::Time => "time",
            NativeType::Timestamp => "timestamp",
            NativeType::Timeuuid => "timeuuid",
            NativeType::Tinyint => "tinyint",
            NativeType::Uuid => "uuid",
            NativeType::Varchar => "varchar",
            NativeType::Varint => "varint",
        }
    }

    /// Case-insensitive lookup of a native type keyword.
    pub fn from_name(name: &str) -> Option<NativeType> {
        NativeType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}
