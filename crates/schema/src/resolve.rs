//! Resolution of written types (`DataType`) to [`CqlType`], with the checks of
//! Cassandra's `CQL3Type.Raw`: `frozen<>` is first pushed down the type tree
//! (`Raw.freeze`), then each level is checked and prepared (`Raw.prepare`).
//! Messages print the type the way `CQL3Type.Raw.toString` does, which is
//! neither the written text nor the resolved type: frozen levels show
//! `frozen<...>` and user types keep the keyspace only when one was written.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use cqlmodel_cql::ast::{DataType, DataTypeKind, NativeType, Span};

use crate::error::SchemaErrorKind;
use crate::types::{CqlType, UdtDef};

/// Looks up user-defined types by keyspace and name.
pub trait TypeLookup {
    fn udt(&self, keyspace: &str, name: &str) -> Option<Arc<UdtDef>>;
}

impl TypeLookup for BTreeMap<String, BTreeMap<String, Arc<UdtDef>>> {
    fn udt(&self, keyspace: &str, name: &str) -> Option<Arc<UdtDef>> {
        self.get(keyspace)?.get(name).cloned()
    }
}

type Res<T> = Result<T, (SchemaErrorKind, Span)>;

/// Resolves a written type in the context of `keyspace` (the statement's keyspace).
pub fn resolve_type(ty: &DataType, keyspace: &str, types: &dyn TypeLookup) -> Res<CqlType> {
    RawType::from_written(ty)?.prepare(keyspace, types)
}

/// A written type with `frozen<>` pushed down, as `CQL3Type.Raw` holds it.
#[derive(Debug, Clone)]
pub(crate) struct RawType {
    kind: RawKind,
    frozen: bool,
    span: Span,
}

#[derive(Debug, Clone)]
enum RawKind {
    Native(NativeType),
    Custom(String),
    List(Box<RawType>),
    Set(Box<RawType>),
    Map(Box<RawType>, Box<RawType>),
    Tuple(Vec<RawType>),
    Udt {
        keyspace: Option<String>,
        name: String,
    },
    Vector(Box<RawType>, u32),
}

impl RawType {
    /// Builds the raw type; `frozen<>` around a native type fails here, as it
    /// does in Cassandra's parser (TYP-1, a syntax error).
    pub(crate) fn from_written(ty: &DataType) -> Res<RawType> {
        let kind = match &ty.kind {
            DataTypeKind::Native(n) => RawKind::Native(*n),
            DataTypeKind::Custom(c) => RawKind::Custom(c.clone()),
            DataTypeKind::List(e) => RawKind::List(Box::new(Self::from_written(e)?)),
            DataTypeKind::Set(e) => RawKind::Set(Box::new(Self::from_written(e)?)),
            DataTypeKind::Map(k, v) => RawKind::Map(
                Box::new(Self::from_written(k)?),
                Box::new(Self::from_written(v)?),
            ),
            DataTypeKind::Tuple(items) => RawKind::Tuple(
                items
                    .iter()
                    .map(Self::from_written)
                    .collect::<Res<Vec<_>>>()?,
            ),
            DataTypeKind::Udt(name) => RawKind::Udt {
                keyspace: name.keyspace.as_ref().map(|k| k.value.clone()),
                name: name.name.value.clone(),
            },
            DataTypeKind::Vector(e, n) => RawKind::Vector(Box::new(Self::from_written(e)?), *n),
            DataTypeKind::Frozen(inner) => return Self::from_written(inner)?.freeze(),
        };
        // Tuples and vectors are frozen whatever is written.
        let frozen = matches!(kind, RawKind::Tuple(_) | RawKind::Vector(..));
        Ok(RawType {
            kind,
            frozen,
            span: ty.span,
        })
    }

    /// `Raw.freeze`: freezes this level and everything below it.
    fn freeze(mut self) -> Res<RawType> {
        match &mut self.kind {
            RawKind::Native(_) => {
                return Err((
                    SchemaErrorKind::FrozenNotAllowed(self.to_string()),
                    self.span,
                ));
            }
            RawKind::List(e) | RawKind::Set(e) => e.freeze_if_supported(),
            RawKind::Map(k, v) => {
                k.freeze_if_supported();
                v.freeze_if_supported();
            }
            RawKind::Tuple(items) => items.iter_mut().for_each(RawType::freeze_if_supported),
            RawKind::Custom(_) | RawKind::Udt { .. } | RawKind::Vector(..) => {}
        }
        self.frozen = true;
        Ok(self)
    }

    fn freeze_if_supported(&mut self) {
        if self.supports_freezing()
            && let Ok(frozen) = self.clone().freeze()
        {
            *self = frozen;
        }
    }

    fn supports_freezing(&self) -> bool {
        !matches!(self.kind, RawKind::Native(_))
    }

    pub(crate) fn is_counter(&self) -> bool {
        matches!(self.kind, RawKind::Native(NativeType::Counter))
    }

    fn is_duration(&self) -> bool {
        matches!(self.kind, RawKind::Native(NativeType::Duration))
    }

    /// A user type written without `frozen<>` (UDT-4).
    pub(crate) fn is_non_frozen_udt(&self) -> bool {
        matches!(self.kind, RawKind::Udt { .. }) && !self.frozen
    }

    /// `RawCollection.throwNestedNonFrozenError`: a multi-cell element of a
    /// non-frozen collection.
    fn nested_error(&self, outer: &RawType) -> Option<SchemaErrorKind> {
        if outer.frozen || !self.supports_freezing() || self.frozen {
            return None;
        }
        Some(match self.kind {
            RawKind::List(_) | RawKind::Set(_) | RawKind::Map(..) => {
                SchemaErrorKind::NestedNonFrozenCollection(outer.to_string())
            }
            _ => SchemaErrorKind::NestedNonFrozenUdt(outer.to_string()),
        })
    }

    /// `Raw.prepare`: resolves the type in the statement's keyspace.
    pub(crate) fn prepare(&self, keyspace: &str, types: &dyn TypeLookup) -> Res<CqlType> {
        let err = |kind: SchemaErrorKind| Err((kind, self.span));
        match &self.kind {
            RawKind::Native(n) => Ok(CqlType::native(*n)),
            RawKind::Custom(c) => Ok(CqlType::Custom(c.clone())),
            RawKind::List(v) | RawKind::Set(v) => {
                let is_set = matches!(self.kind, RawKind::Set(_));
                if let Some(e) = v.nested_error(self) {
                    return err(e);
                }
                if v.is_counter() {
                    return err(SchemaErrorKind::CounterInCollection(self.to_string()));
                }
                if v.is_duration() && is_set {
                    return err(SchemaErrorKind::DurationInSet(self.to_string()));
                }
                let element = Box::new(v.prepare(keyspace, types)?);
                Ok(if is_set {
                    CqlType::Set {
                        element,
                        frozen: self.frozen,
                    }
                } else {
                    CqlType::List {
                        element,
                        frozen: self.frozen,
                    }
                })
            }
            RawKind::Map(k, v) => {
                if let Some(e) = v.nested_error(self) {
                    return err(e);
                }
                if v.is_counter() || k.is_counter() {
                    return err(SchemaErrorKind::CounterInCollection(self.to_string()));
                }
                if k.is_duration() {
                    return err(SchemaErrorKind::DurationMapKey(self.to_string()));
                }
                if let Some(e) = k.nested_error(self) {
                    return err(e);
                }
                let value = Box::new(v.prepare(keyspace, types)?);
                let key = Box::new(k.prepare(keyspace, types)?);
                Ok(CqlType::Map {
                    key,
                    value,
                    frozen: self.frozen,
                })
            }
            RawKind::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    if item.is_counter() {
                        return Err((SchemaErrorKind::CounterInTuple, item.span));
                    }
                    out.push(item.prepare(keyspace, types)?);
                }
                Ok(CqlType::Tuple(out))
            }
            RawKind::Udt {
                keyspace: written,
                name,
            } => {
                if let Some(k) = written
                    && k != keyspace
                {
                    return err(SchemaErrorKind::CrossKeyspaceType {
                        statement_keyspace: keyspace.to_string(),
                        type_keyspace: k.clone(),
                    });
                }
                match types.udt(keyspace, name) {
                    Some(def) => Ok(CqlType::Udt {
                        def,
                        frozen: self.frozen,
                    }),
                    None => err(SchemaErrorKind::UnknownType(format!("{keyspace}.{name}"))),
                }
            }
            RawKind::Vector(e, dimension) => {
                let element = Box::new(e.prepare(keyspace, types)?);
                if *dimension == 0 {
                    return err(SchemaErrorKind::VectorDimension(0));
                }
                Ok(CqlType::Vector {
                    element,
                    dimension: *dimension,
                })
            }
        }
    }
}

/// `CQL3Type.Raw.toString`.
impl fmt::Display for RawType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let frozen_open = |f: &mut fmt::Formatter<'_>| {
            if self.frozen {
                f.write_str("frozen<")
            } else {
                Ok(())
            }
        };
        let frozen_close = |f: &mut fmt::Formatter<'_>| {
            if self.frozen {
                f.write_str(">")
            } else {
                Ok(())
            }
        };
        match &self.kind {
            RawKind::Native(n) => f.write_str(n.name()),
            RawKind::Custom(c) => write!(f, "\"{c}\""),
            RawKind::List(e) => {
                frozen_open(f)?;
                write!(f, "list<{e}>")?;
                frozen_close(f)
            }
            RawKind::Set(e) => {
                frozen_open(f)?;
                write!(f, "set<{e}>")?;
                frozen_close(f)
            }
            RawKind::Map(k, v) => {
                frozen_open(f)?;
                write!(f, "map<{k}, {v}>")?;
                frozen_close(f)
            }
            RawKind::Tuple(items) => {
                f.write_str("tuple<")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(">")
            }
            RawKind::Udt { keyspace, name } => {
                frozen_open(f)?;
                match keyspace {
                    Some(k) => write!(f, "{k}.{name}")?,
                    None => f.write_str(name)?,
                }
                frozen_close(f)
            }
            RawKind::Vector(e, n) => write!(f, "vector<{e}, {n}>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(text: &str) -> Result<CqlType, String> {
        let ty = cqlmodel_cql::parse_data_type(text).map_err(|e| e.to_string())?;
        let none: BTreeMap<String, BTreeMap<String, Arc<UdtDef>>> = BTreeMap::new();
        resolve_type(&ty, "ks", &none).map_err(|(k, _)| k.to_string())
    }

    /// The rejection of a type, or what it was accepted as.
    fn error(text: &str) -> String {
        match resolve(text) {
            Err(e) => e,
            Ok(t) => format!("accepted as {t}"),
        }
    }

    #[test]
    fn frozen_pushes_down_and_prints_in_messages() {
        assert_eq!(
            error("frozen<map<text, list<counter>>>"),
            "Counters are not allowed inside collections: frozen<list<counter>>"
        );
        assert_eq!(
            resolve("list<frozen<set<int>>>").map(|t| t.to_string()),
            Ok("list<frozen<set<int>>>".to_string())
        );
    }

    #[test]
    fn nested_checks_run_before_the_inner_type_is_looked_up() {
        // The element is a non-frozen user type: TYP-3 wins over "Unknown type".
        assert_eq!(
            error("list<nosuch>"),
            "Non-frozen UDTs are not allowed inside collections: list<nosuch>"
        );
        assert_eq!(error("list<frozen<nosuch>>"), "Unknown type ks.nosuch");
    }

    #[test]
    fn map_checks_follow_cassandras_order() {
        // The value is checked before the key.
        assert_eq!(
            error("map<list<int>, list<int>>"),
            "Non-frozen collections are not allowed inside collections: map<list<int>, list<int>>"
        );
        assert_eq!(
            error("map<duration, set<int>>"),
            "Non-frozen collections are not allowed inside collections: map<duration, set<int>>"
        );
        assert_eq!(
            error("map<list<int>, counter>"),
            "Counters are not allowed inside collections: map<list<int>, counter>"
        );
    }

    #[test]
    fn tuples_and_vectors_are_frozen() {
        assert!(resolve("list<tuple<int, text>>").is_ok());
        assert!(resolve("set<vector<float, 3>>").is_ok());
        assert_eq!(
            error("frozen<varchar>"),
            "frozen<> is only allowed on collections, tuples, and user-defined types (got varchar)"
        );
    }
}
