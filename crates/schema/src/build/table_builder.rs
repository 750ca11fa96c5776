//! `CreateTableStatement.builder` and `TableMetadata.validate`: option ranges,
//! column types, the PRIMARY KEY, CLUSTERING ORDER, COMPACT STORAGE, counters,
//! and finally the table name.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{ColumnDef, Ident, Order, Span};

use super::Context;
use super::names::{is_valid_chars, maybe_quote};
use super::properties as props;
use super::table::{Key, RawTable};
use super::table_params::{self, Params, TABLE_PROPERTIES};
use super::udt::prepare;
use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::{Column, ColumnKind, Origin, Schema, Table};
use crate::resolve::RawType;
use crate::types::CqlType;

/// A column definition with its raw (written) type.
type RawColumn<'a> = (&'a ColumnDef, RawType);

pub(super) fn build_table(
    schema: &Schema,
    cx: &Context<'_>,
    raw: &RawTable<'_>,
    key: &Key<'_>,
    params: &Params,
    keyspace: &str,
) -> Result<Table, SchemaError> {
    let s = raw.stmt;
    let table = s.name.name.value.as_str();
    let properties = &s.options.properties;
    props::check_known(properties, TABLE_PROPERTIES).map_err(|e| cx.lift(e))?;
    table_params::validate(params).map_err(|e| cx.lift(e))?;

    // Cassandra prepares the columns in the byte order of their names (a TreeMap).
    let mut by_name: Vec<&RawColumn<'_>> = raw.columns.iter().collect();
    by_name.sort_by(|a, b| a.0.name.value.as_bytes().cmp(b.0.name.value.as_bytes()));
    let types = prepare_column_types(schema, cx, &by_name, keyspace)?;
    let in_key = check_primary_key(cx, raw, key, &types, table)?;
    check_clustering_order(cx, &raw.order, &key.clustering)?;

    // The columns that are not part of the PRIMARY KEY, in name order.
    let others: Vec<(&ColumnDef, &CqlType)> = by_name
        .iter()
        .filter(|(d, _)| !in_key.contains(&d.name.value.as_str()))
        .filter_map(|(d, _)| Some((*d, types.get(d.name.value.as_str())?)))
        .collect();
    check_non_key_columns(cx, raw, key, params, &others)?;

    if !is_valid_chars(table) {
        return Err(cx.err(
            SchemaErrorKind::InvalidTableName {
                keyspace: keyspace.to_string(),
                table: table.to_string(),
            },
            s.name.span,
        ));
    }

    Ok(Table {
        keyspace: keyspace.to_string(),
        name: table.to_string(),
        columns: model_columns(cx, raw, key, &types, &in_key),
        options: table_params::to_model(params, properties, s.options.compact_storage),
        indexes: Vec::new(),
        view: None,
        views: Vec::new(),
        origin: cx.origin,
    })
}

/// Prepares each column's type in the name order of `by_name`, then refuses a
/// non-frozen user type that holds a non-frozen collection (Cassandra checks this
/// only once every type is prepared).
fn prepare_column_types<'a>(
    schema: &Schema,
    cx: &Context<'_>,
    by_name: &[&'a RawColumn<'a>],
    keyspace: &str,
) -> Result<BTreeMap<&'a str, CqlType>, SchemaError> {
    let mut types: BTreeMap<&str, CqlType> = BTreeMap::new();
    for (def, raw_type) in by_name {
        types.insert(&def.name.value, prepare(cx, schema, raw_type, keyspace)?);
    }
    for (def, _) in by_name {
        if let Some(CqlType::Udt {
            def: udt,
            frozen: false,
        }) = types.get(def.name.value.as_str())
            && udt.fields.iter().any(|(_, t)| t.is_multi_cell())
        {
            return Err(cx.err(
                SchemaErrorKind::NonFrozenUdtWithNonFrozenCollection,
                def.data_type.span,
            ));
        }
    }
    Ok(types)
}

/// Checks each PRIMARY KEY column in key order (declared, not repeated, a valid
/// key type, not static) and returns their names.
fn check_primary_key<'k>(
    cx: &Context<'_>,
    raw: &RawTable<'_>,
    key: &Key<'k>,
    types: &BTreeMap<&str, CqlType>,
    table: &str,
) -> Result<Vec<&'k str>, SchemaError> {
    let is_static = |name: &str| {
        raw.columns
            .iter()
            .any(|(c, _)| c.is_static && c.name.value == name)
    };
    let mut in_key: Vec<&str> = Vec::new();
    for ident in key.partition.iter().chain(&key.clustering) {
        let name = ident.value.as_str();
        let Some(ty) = types.get(name) else {
            return Err(cx.err(
                SchemaErrorKind::UnknownPrimaryKeyColumn {
                    column: name.to_string(),
                    table: table.to_string(),
                },
                ident.span,
            ));
        };
        if in_key.contains(&name) {
            return Err(cx.err(
                SchemaErrorKind::DuplicatePrimaryKeyColumn {
                    column: name.to_string(),
                    table: table.to_string(),
                },
                ident.span,
            ));
        }
        in_key.push(name);
        check_key_type(cx, name, ty, ident.span)?;
        if is_static(name) {
            return Err(cx.err(
                SchemaErrorKind::StaticInPrimaryKey(name.to_string()),
                ident.span,
            ));
        }
    }
    Ok(in_key)
}

/// The checks on the columns outside the PRIMARY KEY (`others`, in name order):
/// COMPACT STORAGE, static columns without clustering, and counter tables.
fn check_non_key_columns(
    cx: &Context<'_>,
    raw: &RawTable<'_>,
    key: &Key<'_>,
    params: &Params,
    others: &[(&ColumnDef, &CqlType)],
) -> Result<(), SchemaError> {
    let s = raw.stmt;
    if s.options.compact_storage {
        check_compact(cx, s.name.span, others, !key.clustering.is_empty())?;
    } else if key.clustering.is_empty()
        && let Some((def, _)) = raw.columns.iter().find(|(c, _)| c.is_static)
    {
        return Err(cx.err(SchemaErrorKind::StaticWithoutClustering, def.span));
    }

    if raw.columns.iter().any(|(_, r)| r.is_counter()) {
        if let Some((def, _)) = others.iter().find(|(_, t)| !t.is_counter()) {
            return Err(cx.err(SchemaErrorKind::CounterMixed, def.span));
        }
        if params.default_time_to_live > 0 {
            return Err(cx.err(SchemaErrorKind::CounterWithTtl, s.name.span));
        }
    }
    Ok(())
}

/// The model's columns: partition key, then clustering (with its order), then
/// the other columns in declaration order.
fn model_columns(
    cx: &Context<'_>,
    raw: &RawTable<'_>,
    key: &Key<'_>,
    types: &BTreeMap<&str, CqlType>,
    in_key: &[&str],
) -> Vec<Column> {
    let column = |def: &ColumnDef, kind: ColumnKind| Column {
        name: def.name.value.clone(),
        ty: types
            .get(def.name.value.as_str())
            .cloned()
            .unwrap_or_else(|| CqlType::Custom(String::new())),
        kind,
        masked: def.mask.is_some(),
        origin: Origin {
            file: cx.file,
            span: def.span,
        },
    };
    let def_of = |ident: &Ident| {
        raw.columns
            .iter()
            .find(|(c, _)| c.name.value == ident.value)
            .map(|(c, _)| *c)
    };
    let mut columns = Vec::with_capacity(raw.columns.len());
    for (i, ident) in key.partition.iter().enumerate() {
        if let Some(def) = def_of(ident) {
            columns.push(column(def, ColumnKind::PartitionKey(i)));
        }
    }
    for (i, ident) in key.clustering.iter().enumerate() {
        let order = raw
            .order
            .iter()
            .find(|(c, _)| c.value == ident.value)
            .map_or(Order::Asc, |(_, o)| *o);
        if let Some(def) = def_of(ident) {
            columns.push(column(def, ColumnKind::Clustering(i, order)));
        }
    }
    for (def, _) in &raw.columns {
        if in_key.contains(&def.name.value.as_str()) {
            continue;
        }
        let kind = if def.is_static {
            ColumnKind::Static
        } else {
            ColumnKind::Regular
        };
        columns.push(column(def, kind));
    }
    columns
}

/// The checks of the builder on each PRIMARY KEY column's type (TBL-6 … TBL-8).
fn check_key_type(
    cx: &Context<'_>,
    name: &str,
    ty: &CqlType,
    span: Span,
) -> Result<(), SchemaError> {
    if ty.is_multi_cell() {
        let kind = match ty {
            // The prepared user type prints `maybeQuote("ks.u")`.
            CqlType::Udt { def, .. } => SchemaErrorKind::NonFrozenUdtInPrimaryKey {
                ty: maybe_quote(&format!("{}.{}", def.keyspace, def.name)),
                column: name.to_string(),
            },
            _ => SchemaErrorKind::NonFrozenCollectionInPrimaryKey {
                ty: ty.to_string(),
                column: name.to_string(),
            },
        };
        return Err(cx.err(kind, span));
    }
    if ty.is_counter() {
        return Err(cx.err(SchemaErrorKind::CounterInPrimaryKey(name.to_string()), span));
    }
    if ty.references_duration() {
        return Err(cx.err(
            SchemaErrorKind::DurationInPrimaryKey(name.to_string()),
            span,
        ));
    }
    Ok(())
}

/// TBL-10a, TBL-10b, TBL-10c.
fn check_clustering_order(
    cx: &Context<'_>,
    order: &[(&Ident, Order)],
    clustering: &[&Ident],
) -> Result<(), SchemaError> {
    let is_clustering = |c: &Ident| clustering.iter().any(|k| k.value == c.value);
    let strangers: Vec<String> = order
        .iter()
        .filter(|(c, _)| !is_clustering(c))
        .map(|(c, _)| c.value.clone())
        .collect();
    if !strangers.is_empty() {
        let span = order.first().map_or(Span::default(), |(c, _)| c.span);
        return Err(cx.err(
            SchemaErrorKind::ClusteringOrderNotClustering(strangers),
            span,
        ));
    }
    for ((id, _), expected) in order.iter().zip(clustering) {
        if id.value != expected.value {
            let kind = if order.iter().any(|(c, _)| c.value == expected.value) {
                SchemaErrorKind::ClusteringOrderWrongOrder {
                    expected: expected.value.clone(),
                    found: id.value.clone(),
                }
            } else {
                SchemaErrorKind::ClusteringOrderMissing(expected.value.clone())
            };
            return Err(cx.err(kind, id.span));
        }
    }
    Ok(())
}

/// `validateCompactTable`: TBL-C1 … TBL-C4 (TBL-C5 cannot be reached: C3 fires first).
fn check_compact(
    cx: &Context<'_>,
    span: Span,
    others: &[(&ColumnDef, &CqlType)],
    dense: bool,
) -> Result<(), SchemaError> {
    if let Some((def, _)) = others.iter().find(|(_, t)| t.is_multi_cell()) {
        return Err(cx.err(SchemaErrorKind::CompactMultiCell, def.span));
    }
    if let Some((def, _)) = others.iter().find(|(d, _)| d.is_static) {
        return Err(cx.err(SchemaErrorKind::CompactStatic, def.span));
    }
    if !dense && others.is_empty() {
        return Err(cx.err(SchemaErrorKind::CompactNoDefinition, span));
    }
    if dense && others.len() > 1 {
        let names = others.iter().map(|(d, _)| d.name.value.clone()).collect();
        return Err(cx.err(SchemaErrorKind::CompactTooManyColumns(names), span));
    }
    Ok(())
}
