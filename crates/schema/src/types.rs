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
    List { element: Box<CqlType>, frozen: bool },
    Set { element: Box<CqlType>, frozen: bool },
    Map {
        key: Box<CqlType>,
        value: Box<CqlType>,
        frozen: bool,
    },
    /// Tuples are always frozen.
    Tuple(Vec<CqlType>),
    Udt { def: Arc<UdtDef>, frozen: bool },
    Vector { element: Box<CqlType>, dimension: u32 },
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
