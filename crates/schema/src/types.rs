//! Resolved CQL types: what a column's declared type means once user-defined
//! types are looked up and aliases (`varchar` = `text`) are folded.

use std::fmt;
use std::sync::Arc;

pub use cqlmodel_cql::ast::NativeType;

/// A resolved CQL type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CqlType {
    /// A native type; `Varchar` never appears here (it is folded into `Text`).
    Native(NativeType),
    List {
        element: Box<CqlType>,
        frozen: bool,
    },
    Set {
        element: Box<CqlType>,
        frozen: bool,
    },
    Map {
        key: Box<CqlType>,
        value: Box<CqlType>,
        frozen: bool,
    },
    /// Tuples are always frozen.
    Tuple(Vec<CqlType>),
    Udt {
        def: Arc<UdtDef>,
        frozen: bool,
    },
    Vector {
        element: Box<CqlType>,
        dimension: u32,
    },
    /// A custom type given by Java class name.
    Custom(String),
}

/// A user-defined type's definition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UdtDef {
    pub keyspace: String,
    pub name: String,
    pub fields: Vec<(String, CqlType)>,
}

impl CqlType {
    pub fn native(t: NativeType) -> Self {
        match t {
            NativeType::Varchar => CqlType::Native(NativeType::Text),
            other => CqlType::Native(other),
        }
    }

    /// True for a collection or UDT whose cells are stored (and updated) separately.
    pub fn is_multi_cell(&self) -> bool {
        match self {
            CqlType::List { frozen, .. }
            | CqlType::Set { frozen, .. }
            | CqlType::Map { frozen, .. }
            | CqlType::Udt { frozen, .. } => !frozen,
            _ => false,
        }
    }

    pub fn is_collection(&self) -> bool {
        matches!(
            self,
            CqlType::List { .. } | CqlType::Set { .. } | CqlType::Map { .. }
        )
    }

    pub fn is_counter(&self) -> bool {
        matches!(self, CqlType::Native(NativeType::Counter))
    }

    /// Whether the type contains `duration` at any depth (`AbstractType.referencesDuration`).
    pub fn references_duration(&self) -> bool {
        match self {
            CqlType::Native(n) => *n == NativeType::Duration,
            CqlType::List { element, .. }
            | CqlType::Set { element, .. }
            | CqlType::Vector { element, .. } => element.references_duration(),
            CqlType::Map { key, value, .. } => {
                key.references_duration() || value.references_duration()
            }
            CqlType::Tuple(items) => items.iter().any(CqlType::references_duration),
            CqlType::Udt { def, .. } => def.fields.iter().any(|(_, t)| t.references_duration()),
            CqlType::Custom(_) => false,
        }
    }

    /// The same type with its outermost level frozen.
    pub fn frozen(self) -> Self {
        match self {
            CqlType::List { element, .. } => CqlType::List {
                element,
                frozen: true,
            },
            CqlType::Set { element, .. } => CqlType::Set {
                element,
                frozen: true,
            },
            CqlType::Map { key, value, .. } => CqlType::Map {
                key,
                value,
                frozen: true,
            },
            CqlType::Udt { def, .. } => CqlType::Udt { def, frozen: true },
            other => other,
        }
    }
}

const MARSHAL: &str = "org.apache.cassandra.db.marshal.";

impl CqlType {
    /// `AbstractType.toString()`: the marshal class form Cassandra prints in a few
    /// messages (materialized view keys), e.g.
    /// `org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.Int32Type)`.
    pub fn marshal_class(&self) -> String {
        let joined = |types: &mut dyn Iterator<Item = &CqlType>| {
            types
                .map(CqlType::marshal_class)
                .collect::<Vec<_>>()
                .join(",")
        };
        let wrap = |frozen: bool, inner: String| {
            if frozen {
                format!("{MARSHAL}FrozenType({inner})")
            } else {
                inner
            }
        };
        match self {
            CqlType::Native(n) => format!("{MARSHAL}{}", native_marshal(*n)),
            CqlType::List { element, frozen } => wrap(
                *frozen,
                format!("{MARSHAL}ListType({})", element.marshal_class()),
            ),
            CqlType::Set { element, frozen } => wrap(
                *frozen,
                format!("{MARSHAL}SetType({})", element.marshal_class()),
            ),
            CqlType::Map { key, value, frozen } => wrap(
                *frozen,
                format!(
                    "{MARSHAL}MapType({})",
                    joined(&mut [key.as_ref(), value.as_ref()].into_iter())
                ),
            ),
            CqlType::Tuple(items) => format!("{MARSHAL}TupleType({})", joined(&mut items.iter())),
            CqlType::Udt { def, frozen } => {
                let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
                let fields: Vec<String> = def
                    .fields
                    .iter()
                    .map(|(n, t)| format!("{}:{}", hex(n), t.marshal_class()))
                    .collect();
                let mut params = vec![def.keyspace.clone(), hex(&def.name)];
                params.extend(fields);
                wrap(*frozen, format!("{MARSHAL}UserType({})", params.join(",")))
            }
            CqlType::Vector { element, dimension } => {
                format!(
                    "{MARSHAL}VectorType({},{dimension})",
                    element.marshal_class()
                )
            }
            CqlType::Custom(class) => class.clone(),
        }
    }
}

fn native_marshal(n: NativeType) -> &'static str {
    match n {
        NativeType::Ascii => "AsciiType",
        NativeType::Bigint => "LongType",
        NativeType::Blob => "BytesType",
        NativeType::Boolean => "BooleanType",
        NativeType::Counter => "CounterColumnType",
        NativeType::Date => "SimpleDateType",
        NativeType::Decimal => "DecimalType",
        NativeType::Double => "DoubleType",
        NativeType::Duration => "DurationType",
        NativeType::Float => "FloatType",
        NativeType::Inet => "InetAddressType",
        NativeType::Int => "Int32Type",
        NativeType::Smallint => "ShortType",
        NativeType::Text | NativeType::Varchar => "UTF8Type",
        NativeType::Time => "TimeType",
        NativeType::Timestamp => "TimestampType",
        NativeType::Timeuuid => "TimeUUIDType",
        NativeType::Tinyint => "ByteType",
        NativeType::Uuid => "UUIDType",
        NativeType::Varint => "IntegerType",
    }
}

/// Prints the type as `DESCRIBE` would: `frozen<list<int>>`, `map<text, int>`.
impl fmt::Display for CqlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn frozen_wrap(
            f: &mut fmt::Formatter<'_>,
            frozen: bool,
            inner: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
        ) -> fmt::Result {
            if frozen {
                f.write_str("frozen<")?;
                inner(f)?;
                f.write_str(">")
            } else {
                inner(f)
            }
        }
        match self {
            CqlType::Native(t) => f.write_str(t.name()),
            CqlType::List { element, frozen } => {
                frozen_wrap(f, *frozen, |f| write!(f, "list<{element}>"))
            }
            CqlType::Set { element, frozen } => {
                frozen_wrap(f, *frozen, |f| write!(f, "set<{element}>"))
            }
            CqlType::Map { key, value, frozen } => {
                frozen_wrap(f, *frozen, |f| write!(f, "map<{key}, {value}>"))
            }
            CqlType::Tuple(items) => {
                f.write_str("tuple<")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(">")
            }
            CqlType::Udt { def, frozen } => frozen_wrap(f, *frozen, |f| f.write_str(&def.name)),
            CqlType::Vector { element, dimension } => write!(f, "vector<{element}, {dimension}>"),
            CqlType::Custom(class) => write!(f, "'{class}'"),
        }
    }
}
