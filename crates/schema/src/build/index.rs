//! CREATE / DROP INDEX, in the order of `CreateIndexStatement.apply`: options
//! (IDX-A*), SASI (IDX-1), keyspace, table, name (IDX-2…IDX-4), the table's kind
//! (IDX-5, IDX-6), targets (IDX-7…IDX-10), `validateIndexTarget` (IDX-13…IDX-20),
//! duplicates (IDX-21), then the SAI checks of `StorageAttachedIndex.validateOptions`.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{CreateIndex, DropObject, IndexTargetKind, Span};

use super::names::{maybe_quote, table_display};
use super::properties as props;
use super::{Context, StepResult, WarnResult};
use crate::error::{SchemaError, SchemaErrorKind, SchemaWarningKind};
use crate::model::{Column, ColumnKind, Index, IndexImpl, IndexTarget, Schema, Table};
use crate::types::{CqlType, NativeType};

/// `IndexAttributes`: the only property of CREATE INDEX.
const INDEX_PROPERTIES: &[&str] = &["options"];
/// Options Cassandra sets itself (`IndexTarget.CUSTOM_INDEX_OPTION_NAME`, `TARGET_OPTION_NAME`).
const RESERVED_OPTIONS: &[&str] = &["class_name", "target"];

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateIndex) -> WarnResult {
    props::check_duplicates(&s.options).map_err(|e| cx.lift(e))?;
    let ks_name = cx.keyspace_of(&s.table)?;
    let implementation = implementation(s.using.as_deref());
    // `Raw.prepare`: USING without CUSTOM makes the index custom, except for the default class.
    let custom = s.custom || (s.using.is_some() && implementation != IndexImpl::Legacy);
    cx.check_keyspace_name(&ks_name, s.table.span)?;

    let options = index_options(cx, s, custom, &implementation)?;

    let table_name = &s.table.name.value;
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.table.span));
    };
    let Some(table) = ks.tables.get(table_name) else {
        return Err(cx.err(
            SchemaErrorKind::IndexTableMissing(table_name.clone()),
            s.table.span,
        ));
    };
    let taken = |name: &str| {
        ks.tables
            .values()
            .flat_map(|t| &t.indexes)
            .any(|i| i.name == name)
    };
    if let Some(name) = &s.name
        && taken(&name.value)
    {
        if s.if_not_exists {
            return Ok(None);
        }
        return Err(cx.err(SchemaErrorKind::IndexExists(name.value.clone()), name.span));
    }
    if table.is_counter_table() {
        return Err(cx.err(SchemaErrorKind::IndexOnCounterTable, s.table.span));
    }
    if table.is_view() {
        return Err(cx.err(SchemaErrorKind::IndexOnView, s.table.span));
    }

    let targets = index_targets(cx, s, table, custom)?;

    // Divergence: an index on several columns (custom only) is modeled by its first target.
    let Some((column, target, _, _)) = targets.first() else {
        return Ok(None);
    };
    let name = match &s.name {
        Some(n) => n.value.clone(),
        None => available_name(table_name, targets.len(), &column.name, taken),
    };
    if let Some(existing) = table.indexes.iter().find(|i| {
        i.implementation == implementation
            && i.column == column.name
            && i.target == *target
            && i.options == options
    }) {
        if s.if_not_exists {
            return Ok(None);
        }
        return Err(cx.err(
            SchemaErrorKind::IndexDuplicate {
                name,
                existing: existing.name.clone(),
            },
            cx.origin.span,
        ));
    }
    if implementation == IndexImpl::Sai {
        validate_sai(cx, table, column, *target)?;
    }
    let index = Index {
        name,
        column: column.name.clone(),
        target: *target,
        implementation: implementation.clone(),
        options,
        origin: cx.origin,
    };
    if let Some(t) = schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|k| k.tables.get_mut(table_name))
    {
        t.indexes.push(index);
    }
    Ok((implementation == IndexImpl::Sasi).then_some(SchemaWarningKind::SasiExperimental))
}

/// The options of CREATE INDEX (IDX-A*): known properties, `options` only with
/// CUSTOM, no option Cassandra reserves, then whether SASI is enabled (IDX-1).
fn index_options(
    cx: &Context<'_>,
    s: &CreateIndex,
    custom: bool,
    implementation: &IndexImpl,
) -> Result<BTreeMap<String, String>, SchemaError> {
    props::check_known(&s.options, INDEX_PROPERTIES).map_err(|e| cx.lift(e))?;
    let options = props::map_property(&s.options, "options")
        .map_err(|e| cx.lift(e))?
        .map(|(m, _)| m);
    if !custom && options.is_some() {
        return Err(cx.err(SchemaErrorKind::IndexOptionsWithoutCustom, cx.origin.span));
    }
    let options = options.unwrap_or_default();
    if let Some(reserved) = RESERVED_OPTIONS.iter().find(|o| options.contains_key(**o)) {
        return Err(cx.err(
            SchemaErrorKind::ReservedIndexOption((*reserved).to_string()),
            cx.origin.span,
        ));
    }
    if *implementation == IndexImpl::Sasi && !cx.settings.sasi_indexes_enabled {
        return Err(cx.err(SchemaErrorKind::SasiDisabled, cx.origin.span));
    }
    Ok(options)
}

/// One index target: the column, the kind of target, its word for messages, and
/// where it is written.
type Target<'t> = (&'t Column, IndexTarget, &'static str, Span);

/// The targets (IDX-7 … IDX-10), then `validateIndexTarget` on each (IDX-13 … IDX-20).
fn index_targets<'t>(
    cx: &Context<'_>,
    s: &CreateIndex,
    table: &'t Table,
    custom: bool,
) -> Result<Vec<Target<'t>>, SchemaError> {
    let mut targets: Vec<Target<'t>> = Vec::new();
    for t in &s.targets {
        let Some(column) = table.column(&t.column.value) else {
            return Err(cx.err(
                SchemaErrorKind::UnknownColumn {
                    column: maybe_quote(&t.column.value),
                    table: table_display(&table.keyspace, &table.name),
                },
                t.column.span,
            ));
        };
        let (target, word) = target_kind(t.kind, &column.ty);
        targets.push((column, target, word, t.span));
    }
    if targets.is_empty() && !custom {
        return Err(cx.err(SchemaErrorKind::IndexWithoutTarget, cx.origin.span));
    }
    if targets.len() > 1 {
        if !custom {
            return Err(cx.err(SchemaErrorKind::IndexMultipleTargets, cx.origin.span));
        }
        for (i, (column, _, _, span)) in targets.iter().enumerate() {
            if targets.iter().take(i).any(|(c, ..)| c.name == column.name) {
                return Err(cx.err(
                    SchemaErrorKind::IndexDuplicateTarget(column.name.clone()),
                    *span,
                ));
            }
        }
    }
    for (column, target, word, span) in &targets {
        validate_target(cx, table, column, *target, word, *span)?;
    }
    Ok(targets)
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let name = &s.name.name.value;
    let removed = schema.keyspaces.get_mut(&ks_name).is_some_and(|ks| {
        ks.tables.values_mut().any(|t| {
            let before = t.indexes.len();
            t.indexes.retain(|i| i.name != *name);
            t.indexes.len() != before
        })
    });
    if !removed && !s.if_exists {
        return Err(cx.err(
            SchemaErrorKind::UnknownIndex {
                keyspace: ks_name,
                name: name.clone(),
            },
            s.name.span,
        ));
    }
    Ok(())
}

/// The index class named by `USING` (5.0's `default_secondary_index` when absent).
/// `CREATE CUSTOM INDEX` without `USING` gets the default class too, and is
/// modeled as a legacy index (what Cassandra then does was not traced).
fn implementation(using: Option<&str>) -> IndexImpl {
    match using {
        None => IndexImpl::Legacy,
        Some(u) if u.eq_ignore_ascii_case("legacy_local_table") => IndexImpl::Legacy,
        Some(u) if u.eq_ignore_ascii_case("sai") || u.ends_with("StorageAttachedIndex") => {
            IndexImpl::Sai
        }
        Some(u) if u.ends_with("SASIIndex") => IndexImpl::Sasi,
        Some(u) => IndexImpl::Custom(u.to_string()),
    }
}

/// `IndexTarget.Raw.prepare`: a bare column of a collection type indexes its values.
/// The word is `IndexTarget.Type.toString`, used in messages.
fn target_kind(kind: IndexTargetKind, ty: &CqlType) -> (IndexTarget, &'static str) {
    match kind {
        IndexTargetKind::Simple if ty.is_collection() => (IndexTarget::Values, "values"),
        IndexTargetKind::Simple => (IndexTarget::Values, "simple"),
        IndexTargetKind::Values => (IndexTarget::Values, "values"),
        IndexTargetKind::Keys => (IndexTarget::Keys, "keys"),
        IndexTargetKind::Entries => (IndexTarget::Entries, "entries"),
        IndexTargetKind::Full => (IndexTarget::Full, "full"),
    }
}

/// `CreateIndexStatement.validateIndexTarget`: IDX-13 … IDX-20 in order.
fn validate_target(
    cx: &Context<'_>,
    table: &Table,
    column: &Column,
    target: IndexTarget,
    word: &'static str,
    span: Span,
) -> Result<(), SchemaError> {
    let err = |kind: SchemaErrorKind| Err(cx.err(kind, span));
    let ty = &column.ty;
    if ty.references_duration() {
        return err(SchemaErrorKind::IndexOnDuration(match ty {
            CqlType::List { .. } | CqlType::Set { .. } | CqlType::Map { .. } => {
                "collections containing durations"
            }
            CqlType::Tuple(_) => "tuples containing durations",
            CqlType::Udt { .. } => "UDTs containing durations",
            _ => "duration columns",
        }));
    }
    if table.options.compact_storage {
        if column.is_primary_key() {
            return err(SchemaErrorKind::IndexOnCompactPrimaryKey);
        }
        if table.clustering_len() > 0 && column.kind == ColumnKind::Regular {
            return err(SchemaErrorKind::IndexOnCompactValue);
        }
    }
    if matches!(column.kind, ColumnKind::PartitionKey(_)) && table.partition_key_len() == 1 {
        return err(SchemaErrorKind::IndexOnOnlyPartitionKey(
            column.name.clone(),
        ));
    }
    let frozen_collection = ty.is_collection() && !ty.is_multi_cell();
    let simple = word == "simple";
    if frozen_collection && target != IndexTarget::Full {
        return err(SchemaErrorKind::IndexFrozenNotFull {
            target: word,
            column: column.name.clone(),
        });
    }
    if !frozen_collection && target == IndexTarget::Full {
        return err(SchemaErrorKind::IndexFullNotFrozen);
    }
    if !ty.is_collection() && !simple {
        return err(SchemaErrorKind::IndexNonCollection {
            target: word,
            column: column.name.clone(),
        });
    }
    let multi_cell_map = matches!(ty, CqlType::Map { frozen: false, .. });
    if !multi_cell_map && matches!(target, IndexTarget::Keys | IndexTarget::Entries) {
        return err(SchemaErrorKind::IndexNonMap {
            target: word,
            column: column.name.clone(),
        });
    }
    if matches!(ty, CqlType::Udt { frozen: false, .. }) {
        return err(SchemaErrorKind::IndexNonFrozenUdt(column.name.clone()));
    }
    Ok(())
}

/// `generateIndexName` + `findAvailableIndexName`: `t_col_idx`, then `t_col_idx_1`, ...
fn available_name(
    table: &str,
    targets: usize,
    column: &str,
    taken: impl Fn(&str) -> bool,
) -> String {
    let word = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    };
    let base = if targets == 1 {
        format!("{}_{}_idx", word(table), word(column))
    } else {
        format!("{}_idx", word(table))
    };
    if !taken(&base) {
        return base;
    }
    (1..)
        .map(|i| format!("{base}_{i}"))
        .find(|n| !taken(n))
        .unwrap_or(base)
}

/// `StorageAttachedIndex.validateOptions`: IDX-S1, IDX-S3, IDX-S2.
fn validate_sai(
    cx: &Context<'_>,
    table: &Table,
    column: &Column,
    target: IndexTarget,
) -> Result<(), SchemaError> {
    let same = table
        .indexes
        .iter()
        .filter(|i| {
            i.implementation == IndexImpl::Sai && i.column == column.name && i.target == target
        })
        .count();
    if same > 0 {
        return Err(cx.err(
            SchemaErrorKind::SaiSameColumn(column.name.clone()),
            cx.origin.span,
        ));
    }
    let cell_types: Vec<&CqlType> = match (&column.ty, target) {
        (CqlType::List { element, .. } | CqlType::Set { element, .. }, IndexTarget::Values) => {
            vec![element]
        }
        (CqlType::Map { value, .. }, IndexTarget::Values) => vec![value],
        (CqlType::Map { key, .. }, IndexTarget::Keys) => vec![key],
        (CqlType::Map { key, value, .. }, IndexTarget::Entries) => vec![key, value],
        (ty, _) => vec![ty],
    };
    for ty in cell_types {
        if let CqlType::Vector { element, .. } = ty {
            if **element != CqlType::Native(NativeType::Float) {
                return Err(cx.err(SchemaErrorKind::SaiVectorNotFloat, cx.origin.span));
            }
            continue;
        }
        if !sai_supports(ty) {
            return Err(cx.err(
                SchemaErrorKind::SaiUnsupportedType(ty.to_string()),
                cx.origin.span,
            ));
        }
    }
    Ok(())
}

/// `StorageAttachedIndex.SUPPORTED_TYPES`, plus any frozen type.
fn sai_supports(ty: &CqlType) -> bool {
    use NativeType as N;
    match ty {
        CqlType::Native(n) => matches!(
            n,
            N::Ascii
                | N::Bigint
                | N::Date
                | N::Double
                | N::Float
                | N::Int
                | N::Smallint
                | N::Text
                | N::Varchar
                | N::Time
                | N::Timestamp
                | N::Timeuuid
                | N::Tinyint
                | N::Uuid
                | N::Inet
                | N::Varint
                | N::Decimal
                | N::Boolean
        ),
        CqlType::Tuple(_) => true,
        other => {
            (other.is_collection() || matches!(other, CqlType::Udt { .. }))
                && !other.is_multi_cell()
        }
    }
}
