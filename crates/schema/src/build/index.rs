//! CREATE / DROP INDEX, with `CreateIndexStatement`'s target checks.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{CreateIndex, DropObject, IndexTargetKind};

use super::{Context, StepResult, options};
use crate::error::SchemaErrorKind;
use crate::model::{ColumnKind, Index, IndexImpl, IndexTarget, Schema};
use crate::types::CqlType;

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateIndex) -> StepResult {
    let ks_name = cx.keyspace_of(&s.table)?;
    let table_name = &s.table.name.value;
    let invalid = |msg: String, span| cx.err(SchemaErrorKind::InvalidIndex(msg), span);
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.table.span));
    };
    let Some(table) = ks.tables.get(table_name) else {
        return Err(cx.err(
            SchemaErrorKind::UnknownTable {
                keyspace: ks_name,
                table: table_name.clone(),
            },
            s.table.span,
        ));
    };
    if table.is_view() {
        return Err(invalid("Secondary indexes are not supported on materialized views".into(), s.table.span));
    }
    if table.is_counter_table() {
        return Err(invalid("Secondary indexes are not supported on counter tables".into(), s.table.span));
    }
    let implementation = match s.using.as_deref() {
        None => IndexImpl::Legacy,
        Some(u) if u.eq_ignore_ascii_case("sai") || u.ends_with("StorageAttachedIndex") => IndexImpl::Sai,
        Some(u) if u.eq_ignore_ascii_case("legacy_local_table") => IndexImpl::Legacy,
        Some(u) if u.ends_with("SASIIndex") => IndexImpl::Sasi,
        Some(u) => IndexImpl::Custom(u.to_string()),
    };
    if s.targets.len() > 1 && !s.custom && implementation == IndexImpl::Legacy {
        return Err(invalid("Only CUSTOM indexes support multiple columns".into(), cx.origin.span));
    }
    let Some(target) = s.targets.first() else {
        return Err(invalid("Only CUSTOM indexes can be created without specifying a target column".into(), cx.origin.span));
    };
    let col_name = &target.column.value;
    let Some(column) = table.column(col_name) else {
        return Err(invalid(format!("Column '{col_name}' doesn't exist"), target.column.span));
    };
    if matches!(column.ty, CqlType::Native(cqlmodel_cql::ast::NativeType::Duration)) {
        return Err(invalid("Secondary indexes are not supported on duration columns".into(), target.span));
    }
    if matches!(column.kind, ColumnKind::PartitionKey(_)) && table.partition_key_len() == 1 {
        return Err(invalid(
            format!("Cannot create secondary index on the only partition key column {col_name}"),
            target.span,
        ));
    }
    let frozen_collection = column.ty.is_collection() && !column.ty.is_multi_cell();
    let is_map = matches!(column.ty, CqlType::Map { .. });
    let kind = match target.kind {
        IndexTargetKind::Simple => {
            if frozen_collection {
                return Err(invalid(
                    format!(
                        "Cannot create values() index on frozen column {col_name}. Frozen collections are immutable and must be fully indexed by using the 'full({col_name})' modifier"
                    ),
                    target.span,
                ));
            }
            if column.ty.is_multi_cell() && !column.ty.is_collection() {
                return Err(invalid(
                    format!("Cannot create index on non-frozen UDT column {col_name}"),
                    target.span,
                ));
            }
            IndexTarget::Values
        }
        IndexTargetKind::Full => {
            if !frozen_collection {
                return Err(invalid(
                    "full() indexes can only be created on frozen collections".into(),
                    target.span,
                ));
            }
            IndexTarget::Full
        }
        k @ (IndexTargetKind::Keys | IndexTargetKind::Values | IndexTargetKind::Entries) => {
            let what = match k {
                IndexTargetKind::Keys => "keys",
                IndexTargetKind::Entries => "entries",
                _ => "values",
            };
            if frozen_collection {
                return Err(invalid(
                    format!(
                        "Cannot create {what}() index on frozen column {col_name}. Frozen collections are immutable and must be fully indexed by using the 'full({col_name})' modifier"
                    ),
                    target.span,
                ));
            }
            if !column.ty.is_collection() {
                return Err(invalid(
                    format!("Cannot create {what}() index on {col_name}. Non-collection columns only support simple indexes"),
                    target.span,
                ));
            }
            if !is_map && k != IndexTargetKind::Values {
                return Err(invalid(
                    format!("Cannot create index on {what} of column {col_name} with non-map type"),
                    target.span,
                ));
            }
            match k {
                IndexTargetKind::Keys => IndexTarget::Keys,
                IndexTargetKind::Entries => IndexTarget::Entries,
                _ => IndexTarget::Values,
            }
        }
    };
    let name = s
        .name
        .as_ref()
        .map_or_else(|| format!("{table_name}_{col_name}_idx"), |n| n.value.clone());
    let name_taken = ks.tables.values().flat_map(|t| &t.indexes).any(|i| i.name == name);
    if name_taken {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::IndexExists(name), s.name.as_ref().map_or(cx.origin.span, |n| n.span)));
    }
    if let Some(dup) = table
        .indexes
        .iter()
        .find(|i| i.column == *col_name && i.target == kind && i.implementation == implementation)
    {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(invalid(format!("Index {name} is a duplicate of existing index {}", dup.name), cx.origin.span));
    }
    let index_options: BTreeMap<String, String> = s
        .options
        .iter()
        .filter_map(|p| Some((p.name.value.clone(), options::constant(&p.value)?)))
        .chain(
            options::find(&s.options, "options")
                .and_then(|p| options::map(&p.value))
                .into_iter()
                .flatten(),
        )
        .collect();
    let index = Index {
        name,
        column: col_name.clone(),
        target: kind,
        implementation,
        options: index_options,
        origin: cx.origin,
    };
    if let Some(t) = schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|k| k.tables.get_mut(table_name))
    {
        t.indexes.push(index);
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
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
            SchemaErrorKind::InvalidIndex(format!("Index '{ks_name}.{name}' doesn't exist")),
            s.name.span,
        ));
    }
    Ok(())
}
