//! CREATE / ALTER / DROP MATERIALIZED VIEW, with `CreateViewStatement`'s checks.

use std::collections::BTreeSet;

use cqlmodel_cql::ast::{
    AlterMaterializedView, CreateMaterializedView, DropObject, Ident, Order, RelationKind, Selection,
    SelectorKind,
};

use super::table::{check_clustering_order, table_options};
use super::{Context, StepResult};
use crate::error::SchemaErrorKind;
use crate::model::{Column, ColumnKind, Origin, Schema, Table, ViewInfo};

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateMaterializedView) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    let invalid = |msg: String, span| cx.err(SchemaErrorKind::InvalidView(msg), span);
    let view_name = s.name.name.value.clone();
    let base_ks = cx.keyspace_of(&s.base_table)?;
    if base_ks != ks_name {
        return Err(invalid(
            "Cannot create a materialized view on a table in a different keyspace".into(),
            s.base_table.span,
        ));
    }
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    if ks.tables.contains_key(&view_name) {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(
            SchemaErrorKind::TableExists {
                keyspace: ks_name,
                table: view_name,
            },
            s.name.span,
        ));
    }
    let base_name = &s.base_table.name.value;
    let Some(base) = ks.tables.get(base_name) else {
        return Err(cx.err(
            SchemaErrorKind::UnknownTable {
                keyspace: ks_name.clone(),
                table: base_name.clone(),
            },
            s.base_table.span,
        ));
    };
    if base.is_view() {
        return Err(invalid(
            "Materialized views cannot be created against other materialized views".into(),
            s.base_table.span,
        ));
    }
    if base.is_counter_table() {
        return Err(invalid(
            "Materialized views are not supported on counter tables".into(),
            s.base_table.span,
        ));
    }

    // The selected columns (all of them for `*`).
    let (selected, include_all): (Vec<&Ident>, bool) = match &s.selection {
        Selection::Wildcard(_) => (Vec::new(), true),
        Selection::Selectors(sels) => {
            let mut cols = Vec::new();
            for sel in sels {
                match &sel.kind {
                    SelectorKind::Column(c) if sel.alias.is_none() => cols.push(c),
                    _ if sel.alias.is_some() => {
                        return Err(invalid("Cannot use alias when defining a materialized view".into(), sel.span));
                    }
                    _ => {
                        return Err(invalid(
                            "Can only select columns by name when defining a materialized view".into(),
                            sel.span,
                        ));
                    }
                }
            }
            (cols, false)
        }
    };
    for c in &selected {
        let Some(col) = base.column(&c.value) else {
            return Err(cx.err(
                SchemaErrorKind::UnknownColumn {
                    column: c.value.clone(),
                    table: base_name.clone(),
                },
                c.span,
            ));
        };
        if col.is_static() {
            return Err(invalid(
                format!("Cannot use static columns in materialized views (got {})", c.value),
                c.span,
            ));
        }
    }

    let pk = &s.primary_key;
    let view_key: Vec<&Ident> = pk.partition_key.iter().chain(pk.clustering.iter()).collect();
    let mut non_pk_in_key = Vec::new();
    for ident in &view_key {
        let Some(col) = base.column(&ident.value) else {
            return Err(cx.err(
                SchemaErrorKind::UnknownColumn {
                    column: ident.value.clone(),
                    table: base_name.clone(),
                },
                ident.span,
            ));
        };
        if col.is_static() {
            return Err(invalid(
                format!("Cannot use Static column '{}' in PRIMARY KEY of materialized view", ident.value),
                ident.span,
            ));
        }
        if !col.is_primary_key() {
            non_pk_in_key.push(ident.value.clone());
        }
    }
    if non_pk_in_key.len() > 1 {
        return Err(invalid(
            format!(
                "Cannot include more than one non-primary key column in materialized view primary key (got {})",
                non_pk_in_key.join(", ")
            ),
            pk.span,
        ));
    }
    let in_key: BTreeSet<&str> = view_key.iter().map(|i| i.value.as_str()).collect();
    let missing: Vec<&str> = base
        .columns
        .iter()
        .filter(|c| c.is_primary_key() && !in_key.contains(c.name.as_str()))
        .map(|c| c.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(invalid(
            format!(
                "Cannot create materialized view {view_name} without primary key columns from base {base_name} ({})",
                missing.join(",")
            ),
            pk.span,
        ));
    }
    let not_null: BTreeSet<&str> = s
        .where_clause
        .iter()
        .filter_map(|r| match &r.kind {
            RelationKind::IsNotNull { column } => Some(column.value.as_str()),
            _ => None,
        })
        .collect();
    let unrestricted: Vec<&str> = view_key
        .iter()
        .map(|i| i.value.as_str())
        .filter(|n| !not_null.contains(n))
        .collect();
    // Restricting a column by `=` also excludes nulls; only columns with no relation at all are missing.
    let restricted_otherwise = |n: &str| {
        s.where_clause.iter().any(|r| match &r.kind {
            RelationKind::Column { column, .. } | RelationKind::ColumnIn { column, .. } => column.value == n,
            _ => false,
        })
    };
    let unrestricted: Vec<&str> = unrestricted.into_iter().filter(|n| !restricted_otherwise(n)).collect();
    if !unrestricted.is_empty() {
        return Err(invalid(
            format!(
                "Primary key columns {} must be restricted with 'IS NOT NULL' or otherwise",
                unrestricted.join(", ")
            ),
            pk.span,
        ));
    }

    let order: Vec<(&Ident, Order)> = s
        .options
        .clustering_order
        .iter()
        .map(|c| (&c.column, c.order))
        .collect();
    let clustering: Vec<&Ident> = pk.clustering.iter().collect();
    check_clustering_order(cx, &order, &clustering)?;
    let options = table_options(cx, &s.options)?;

    let mut columns = Vec::new();
    let base_col = |n: &str| base.column(n);
    for (i, ident) in pk.partition_key.iter().enumerate() {
        if let Some(c) = base_col(&ident.value) {
            columns.push(Column {
                kind: ColumnKind::PartitionKey(i),
                origin: Origin { file: cx.file, span: ident.span },
                ..c.clone()
            });
        }
    }
    for (i, ident) in pk.clustering.iter().enumerate() {
        if let Some(c) = base_col(&ident.value) {
            let ord = order
                .iter()
                .find(|(o, _)| o.value == ident.value)
                .map_or(Order::Asc, |(_, o)| *o);
            columns.push(Column {
                kind: ColumnKind::Clustering(i, ord),
                origin: Origin { file: cx.file, span: ident.span },
                ..c.clone()
            });
        }
    }
    for c in &base.columns {
        let wanted = include_all || selected.iter().any(|s| s.value == c.name);
        if wanted && !in_key.contains(c.name.as_str()) && !c.is_static() {
            columns.push(Column {
                kind: ColumnKind::Regular,
                ..c.clone()
            });
        }
    }
    let view = Table {
        keyspace: ks_name.clone(),
        name: view_name.clone(),
        columns,
        options,
        indexes: Vec::new(),
        view: Some(ViewInfo {
            base_table: base_name.clone(),
            include_all_columns: include_all,
        }),
        views: Vec::new(),
        origin: cx.origin,
    };
    let base_name = base_name.clone();
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        if let Some(b) = ks.tables.get_mut(&base_name) {
            b.views.push(view_name.clone());
        }
        ks.tables.insert(view_name, view);
    }
    Ok(())
}

pub(super) fn alter(schema: &mut Schema, cx: &Context<'_>, s: &AlterMaterializedView) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    let options = table_options(cx, &s.options)?;
    match schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|k| k.tables.get_mut(&s.name.name.value))
        .filter(|t| t.is_view())
    {
        Some(view) => {
            view.options.raw.extend(options.raw);
            if options.default_time_to_live.is_some() {
                return Err(cx.err(
                    SchemaErrorKind::InvalidView(
                        "Cannot set or alter default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table.".into(),
                    ),
                    s.name.span,
                ));
            }
            if options.compaction.is_some() {
                view.options.compaction = options.compaction;
            }
            if options.gc_grace_seconds.is_some() {
                view.options.gc_grace_seconds = options.gc_grace_seconds;
            }
            Ok(())
        }
        None if s.if_exists => Ok(()),
        None => Err(cx.err(
            SchemaErrorKind::InvalidView(format!(
                "Materialized view '{}.{}' doesn't exist",
                ks_name, s.name.name.value
            )),
            s.name.span,
        )),
    }
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    let name = &s.name.name.value;
    let Some(ks) = schema.keyspaces.get_mut(&ks_name) else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    match ks.tables.get(name).and_then(|t| t.view.clone()) {
        Some(info) => {
            ks.tables.remove(name);
            if let Some(base) = ks.tables.get_mut(&info.base_table) {
                base.views.retain(|v| v != name);
            }
            Ok(())
        }
        None if s.if_exists => Ok(()),
        None => Err(cx.err(
            SchemaErrorKind::InvalidView(format!("Materialized view '{ks_name}.{name}' doesn't exist")),
            s.name.span,
        )),
    }
}
