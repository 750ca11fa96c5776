//! Resolution of written types (`DataType`) to [`CqlType`], with the checks
//! Cassandra's `CQL3Type.Raw.prepare` makes.

use std::collections::BTreeMap;
use std::sync::Arc;

use cqlmodel_cql::ast::{DataType, DataTypeKind, NativeType};

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

/// Resolves a written type in the context of `keyspace`.
pub fn resolve_type(
    ty: &DataType,
    keyspace: &str,
    types: &dyn TypeLookup,
) -> Result<CqlType, (SchemaErrorKind, cqlmodel_cql::ast::Span)> {
    Resolver { keyspace, types }.resolve(ty, false, false)
}

struct Resolver<'a> {
    keyspace: &'a str,
    types: &'a dyn TypeLookup,
}

type Res = Result<CqlType, (SchemaErrorKind, cqlmodel_cql::ast::Span)>;

impl Resolver<'_> {
    /// `frozen`: inside `frozen<>` (everything nested is frozen too).
    /// `in_collection`: an element of a collection (non-frozen nesting is refused).
    fn resolve(&self, ty: &DataType, frozen: bool, in_collection: bool) -> Res {
        let span = ty.span;
        let resolved = match &ty.kind {
            DataTypeKind::Native(n) => CqlType::native(*n),
            DataTypeKind::Frozen(inner) => {
                let allowed = matches!(
                    inner.kind,
                    DataTypeKind::List(_)
                        | DataTypeKind::Set(_)
                        | DataTypeKind::Map(..)
                        | DataTypeKind::Tuple(_)
                        | DataTypeKind::Udt(_)
                        | DataTypeKind::Frozen(_)
                );
                if !allowed {
                    return Err((
                        SchemaErrorKind::FrozenNotAllowed(written(inner)),
                        span,
                    ));
                }
                return self.resolve(inner, true, in_collection).map(CqlType::frozen);
            }
            DataTypeKind::List(e) => CqlType::List {
                element: Box::new(self.element(e, frozen)?),
                frozen,
            },
            DataTypeKind::Set(e) => CqlType::Set {
                element: Box::new(self.element(e, frozen)?),
                frozen,
            },
            DataTypeKind::Map(k, v) => CqlType::Map {
                key: Box::new(self.element(k, frozen)?),
                value: Box::new(self.element(v, frozen)?),
                frozen,
            },
            DataTypeKind::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    // Tuple components are always frozen.
                    let t = self.resolve(item, true, false)?;
                    if t.is_counter() {
                        return Err((SchemaErrorKind::CounterInTuple, item.span));
                    }
                    out.push(t);
                }
                CqlType::Tuple(out)
            }
            DataTypeKind::Udt(name) => {
                let ks = name
                    .keyspace
                    .as_ref()
                    .map_or(self.keyspace, |k| k.value.as_str());
                let Some(def) = self.types.udt(ks, &name.name.value) else {
                    let shown = match &name.keyspace {
                        Some(k) => format!("{}.{}", k.value, name.name.value),
                        None => name.name.value.clone(),
                    };
                    return Err((SchemaErrorKind::UnknownType(shown), span));
                };
                CqlType::Udt { def, frozen }
            }
            DataTypeKind::Vector(e, dim) => {
                if *dim == 0 {
                    return Err((SchemaErrorKind::VectorDimension(0), span));
                }
                CqlType::Vector {
                    element: Box::new(self.resolve(e, true, false)?),
                    dimension: *dim,
                }
            }
            DataTypeKind::Custom(class) => CqlType::Custom(class.clone()),
        };
        let _ = in_collection;
        Ok(resolved)
    }

    /// A collection element: must be frozen if it is itself a collection or UDT
    /// (unless the enclosing collection is frozen, which freezes it), and no counters.
    fn element(&self, ty: &DataType, outer_frozen: bool) -> Res {
        let t = self.resolve(ty, outer_frozen, true)?;
        if t.is_counter() {
            return Err((SchemaErrorKind::CounterInCollection(written(ty)), ty.span));
        }
        if t.is_multi_cell() {
            let kind = if t.is_collection() {
                SchemaErrorKind::NestedNonFrozenCollection(written(ty))
            } else {
                SchemaErrorKind::NestedNonFrozenUdt(written(ty))
            };
            return Err((kind, ty.span));
        }
        Ok(t)
    }
}

/// The type as written, in the form Cassandra prints in messages.
fn written(ty: &DataType) -> String {
    match &ty.kind {
        DataTypeKind::Native(NativeType::Varchar) => "text".to_string(),
        DataTypeKind::Native(n) => n.name().to_string(),
        DataTypeKind::List(e) => format!("list<{}>", written(e)),
        DataTypeKind::Set(e) => format!("set<{}>", written(e)),
        DataTypeKind::Map(k, v) => format!("map<{}, {}>", written(k), written(v)),
        DataTypeKind::Tuple(items) => format!(
            "tuple<{}>",
            items.iter().map(written).collect::<Vec<_>>().join(", ")
        ),
        DataTypeKind::Frozen(inner) => format!("frozen<{}>", written(inner)),
        DataTypeKind::Vector(e, n) => format!("vector<{}, {}>", written(e), n),
        DataTypeKind::Udt(name) => match &name.keyspace {
            Some(k) => format!("{}.{}", k.value, name.name.value),
            None => name.name.value.clone(),
        },
        DataTypeKind::Custom(c) => format!("'{c}'"),
    }
}
