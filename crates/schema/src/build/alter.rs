//! ALTER TABLE, in the order of `AlterTableStatement`: the parser (OPT-2, TYP-1),
//! `validate` (option values), GEN-3, the table (ALT-0, ALT-0b), then the checks
//! of each kind of change, and `TableMetadata.validate` (ALT-6).

use cqlmodel_cql::ast::{AlterTable, AlterTableAction, ColumnDef, Ident, Property};

use super::names::{maybe_quote, table_display};
use super::properties as props;
use super::table_params::{self, TABLE_PROPERTIES};
use super::udt::{prepare, raw_types};
use super::{Context, StepResult};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::{Column, ColumnKind, Origin, Schema, Table};
use crate::types::CqlType;

pub(super) fn alter_table(schema: &mut Schema, cx: &Context<'_>, s: &AlterTable) -> StepResult {
    let added_raws = match &s.action {
        AlterTableAction::With(opts) => {
            props::check_duplicates(&opts.properties).map_err(|e| cx.lift(e))?;
            Vec::new()
        }
        AlterTableAction::Add { columns, .. } => {
            raw_types(cx, columns.iter().map(|c| &c.data_type))?
        }
        _ => Vec::new(),
    };
    let ks_name = cx.keyspace_of(&s.name)?;
    let new_params = match &s.action {
        AlterTableAction::With(opts) => {
            Some(table_params::build(&opts.properties).map_err(|e| cx.lift(e))?)
        }
        _ => None,
    };
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let table_name = &s.name.name.value;
    let Some(table) = schema
        .keyspaces
        .get(&ks_name)
        .and_then(|k| k.tables.get(table_name))
    else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(
            SchemaErrorKind::UnknownTable {
                keyspace: ks_name,
                table: table_name.clone(),
            },
            s.name.span,
        ));
    };
    if table.is_view() {
        return Err(cx.err(SchemaErrorKind::AlterTableOnView, s.name.span));
    }
    if let AlterTableAction::Add {
        if_not_exists,
        columns,
    } = &s.action
    {
        let mut new_columns: Vec<Column> = Vec::with_capacity(columns.len());
        for (def, raw) in columns.iter().zip(&added_raws) {
            let ty = prepare(cx, schema, raw, &ks_name)?;
            if let Some(column) = new_column(cx, table, &new_columns, def, ty, *if_not_exists)? {
                new_columns.push(column);
            }
        }
        check_counters(cx, table, &new_columns)?;
        add_columns(schema, &ks_name, table_name, new_columns);
        return Ok(());
    }
    let (altered, renamed) = apply_change(cx, s, table, new_params.as_ref())?;
    let added = added_regular_columns(table, &altered);
    store_altered(schema, &ks_name, table_name, altered, &renamed, &added);
    Ok(())
}

/// Applies every kind of change but ADD to a copy of `table`; returns the copy
/// and the column renames (old name, new name) in written order.
fn apply_change(
    cx: &Context<'_>,
    s: &AlterTable,
    table: &Table,
    new_params: Option<&table_params::Params>,
) -> Result<(Table, Vec<(String, String)>), SchemaError> {
    let table_name = &s.name.name.value;
    let mut altered = table.clone();
    let mut renamed: Vec<(String, String)> = Vec::new();
    match &s.action {
        AlterTableAction::AlterColumnType { column, .. } => {
            return Err(cx.err(SchemaErrorKind::AlterColumnType, column.span));
        }
        AlterTableAction::Mask {
            if_exists,
            column,
            mask,
        } => match altered.columns.iter_mut().find(|c| c.name == column.value) {
            Some(c) => c.masked = mask.is_some(),
            None if *if_exists => {}
            None => {
                return Err(cx.err(
                    SchemaErrorKind::MaskUnknownColumn {
                        column: column.value.clone(),
                        table: table_name.clone(),
                    },
                    column.span,
                ));
            }
        },
        AlterTableAction::Add { .. } => {}
        AlterTableAction::Drop {
            if_exists, columns, ..
        } => {
            // Divergence: Cassandra keeps the dropped names in a HashSet (and the
            // renames below in a HashMap); cqlmodel checks them in written order.
            for ident in columns {
                drop_column(cx, table, &mut altered, ident, *if_exists)?;
            }
        }
        AlterTableAction::Rename { renames, .. } => {
            for (from, to) in renames {
                check_rename(cx, table, from, to)?;
                if let Some(c) = altered.columns.iter_mut().find(|c| c.name == from.value) {
                    c.name = to.value.clone();
                }
                renamed.push((from.value.clone(), to.value.clone()));
            }
        }
        AlterTableAction::DropCompactStorage => {
            if !cx.settings.drop_compact_storage_enabled {
                return Err(cx.err(SchemaErrorKind::DropCompactStorageDisabled, s.name.span));
            }
            if !altered.options.compact_storage {
                return Err(cx.err(SchemaErrorKind::DropCompactStorageNotCompact, s.name.span));
            }
            altered.options.compact_storage = false;
        }
        AlterTableAction::With(opts) => {
            if let Some(params) = new_params {
                alter_options(cx, table, &mut altered, &opts.properties, params)?;
            }
        }
    }
    Ok((altered, renamed))
}

/// The regular columns `altered` has and `table` had not, for the views that
/// select `*`. Only when there are views to follow, and through a set: a table
/// with thousands of columns must not cost a scan per column per ALTER.
fn added_regular_columns(table: &Table, altered: &Table) -> Vec<Column> {
    if altered.views.is_empty() {
        return Vec::new();
    }
    let before: std::collections::HashSet<&str> =
        table.columns.iter().map(|c| c.name.as_str()).collect();
    altered
        .columns
        .iter()
        .filter(|c| c.kind == ColumnKind::Regular && !before.contains(c.name.as_str()))
        .cloned()
        .collect()
}

/// Stores the altered table. Its views follow their base: renamed key columns,
/// and the new regular columns of a view that selects `*` (`AddColumns.addColumn`).
fn store_altered(
    schema: &mut Schema,
    ks_name: &str,
    table_name: &str,
    altered: Table,
    renamed: &[(String, String)],
    added: &[Column],
) {
    if let Some(ks) = schema.keyspaces.get_mut(ks_name) {
        for view in &altered.views {
            if let Some(v) = ks.tables.get_mut(view) {
                for c in &mut v.columns {
                    if let Some((_, to)) = renamed.iter().find(|(from, _)| *from == c.name) {
                        c.name = to.clone();
                    }
                }
                if v.view.as_ref().is_some_and(|i| i.include_all_columns) {
                    v.columns.extend(added.iter().cloned());
                }
            }
        }
        ks.tables.insert(table_name.to_string(), altered);
    }
}

/// `AddColumns.addColumn`: ALT-2, ALT-3, ALT-4 (the type is prepared before).
/// Checked against the table and the columns this statement adds before it,
/// without copying the table: 10,000 ALTERs of a wide table stay linear.
/// `None` when the column exists and IF NOT EXISTS skips it.
/// Divergence: the model keeps no history of dropped columns, so re-adding one
/// with another type or kind (ALT-5) is accepted.
fn new_column(
    cx: &Context<'_>,
    table: &Table,
    pending: &[Column],
    def: &ColumnDef,
    ty: CqlType,
    if_not_exists: bool,
) -> Result<Option<Column>, SchemaError> {
    let name = &def.name.value;
    if table.column(name).is_some() || pending.iter().any(|c| c.name == *name) {
        if if_not_exists {
            return Ok(None);
        }
        return Err(cx.err(SchemaErrorKind::ColumnExists(name.clone()), def.name.span));
    }
    if table.options.compact_storage {
        return Err(cx.err(SchemaErrorKind::AddToCompactTable, def.span));
    }
    if def.is_static && table.clustering_len() == 0 {
        return Err(cx.err(SchemaErrorKind::StaticWithoutClustering, def.span));
    }
    Ok(Some(Column {
        name: name.clone(),
        ty,
        kind: if def.is_static {
            ColumnKind::Static
        } else {
            ColumnKind::Regular
        },
        masked: def.mask.is_some(),
        origin: Origin {
            file: cx.file,
            span: def.span,
        },
    }))
}

/// Appends validated columns to the table, and their regular ones to each of
/// its views that selects `*` (`AddColumns.addColumn`).
fn add_columns(schema: &mut Schema, keyspace: &str, table: &str, columns: Vec<Column>) {
    let Some(ks) = schema.keyspaces.get_mut(keyspace) else {
        return;
    };
    let views = ks
        .tables
        .get(table)
        .map(|t| t.views.clone())
        .unwrap_or_default();
    for view in &views {
        if let Some(v) = ks.tables.get_mut(view)
            && v.view.as_ref().is_some_and(|i| i.include_all_columns)
        {
            let regular = columns.iter().filter(|c| c.kind == ColumnKind::Regular);
            v.columns.extend(regular.cloned());
        }
    }
    if let Some(t) = ks.tables.get_mut(table) {
        t.columns.extend(columns);
    }
}

/// `TableMetadata.validate` after ADD: a counter table takes only counters (ALT-6).
fn check_counters(cx: &Context<'_>, before: &Table, added: &[Column]) -> Result<(), SchemaError> {
    let counter_table = before.is_counter_table();
    for column in added {
        let span = column.origin.span;
        let (keyspace, table, col) = (
            before.keyspace.clone(),
            before.name.clone(),
            column.name.clone(),
        );
        if counter_table && !column.ty.is_counter() {
            return Err(cx.err(
                SchemaErrorKind::NonCounterInCounterTable {
                    keyspace,
                    table,
                    column: col,
                },
                span,
            ));
        }
        if !counter_table && column.ty.is_counter() {
            return Err(cx.err(
                SchemaErrorKind::CounterInNonCounterTable {
                    keyspace,
                    table,
                    column: col,
                },
                span,
            ));
        }
    }
    Ok(())
}

/// `DropColumns.dropColumn`: ALT-7 … ALT-11.
fn drop_column(
    cx: &Context<'_>,
    table: &Table,
    altered: &mut Table,
    ident: &Ident,
    if_exists: bool,
) -> Result<(), SchemaError> {
    let name = &ident.value;
    let err = |kind| Err(cx.err(kind, ident.span));
    let Some(column) = table.column(name) else {
        if if_exists {
            return Ok(());
        }
        return err(SchemaErrorKind::DropUnknownColumn {
            column: name.clone(),
            table: table_display(&table.keyspace, &table.name),
        });
    };
    if column.is_primary_key() {
        return err(SchemaErrorKind::DropPrimaryKeyColumn(name.clone()));
    }
    if let CqlType::Udt { def, frozen: false } = &column.ty {
        return err(SchemaErrorKind::DropNonFrozenUdtColumn {
            column: name.clone(),
            ty: maybe_quote(&def.name),
        });
    }
    let indexes = dependent_indexes(table, name);
    if !indexes.is_empty() {
        return err(SchemaErrorKind::DropIndexedColumn {
            column: name.clone(),
            indexes,
        });
    }
    if !table.views.is_empty() {
        return err(SchemaErrorKind::DropColumnWithViews {
            column: name.clone(),
            table: table.name.clone(),
        });
    }
    altered.columns.retain(|c| c.name != *name);
    Ok(())
}

/// `RenameColumns.renameColumn`: ALT-12 (IF EXISTS does not help) … ALT-15.
fn check_rename(
    cx: &Context<'_>,
    table: &Table,
    from: &Ident,
    to: &Ident,
) -> Result<(), SchemaError> {
    let Some(column) = table.column(&from.value) else {
        return Err(cx.err(
            SchemaErrorKind::UnknownColumn {
                column: maybe_quote(&from.value),
                table: table_display(&table.keyspace, &table.name),
            },
            from.span,
        ));
    };
    if !column.is_primary_key() {
        return Err(cx.err(
            SchemaErrorKind::RenameNonPrimaryKey(from.value.clone()),
            from.span,
        ));
    }
    if table.column(&to.value).is_some() {
        return Err(cx.err(
            SchemaErrorKind::RenameToExisting {
                from: from.value.clone(),
                to: to.value.clone(),
                table: table_display(&table.keyspace, &table.name),
            },
            to.span,
        ));
    }
    let indexes = dependent_indexes(table, &from.value);
    if !indexes.is_empty() {
        return Err(cx.err(
            SchemaErrorKind::RenameIndexedColumn {
                column: from.value.clone(),
                indexes,
            },
            from.span,
        ));
    }
    Ok(())
}

fn dependent_indexes(table: &Table, column: &str) -> Vec<String> {
    table
        .indexes
        .iter()
        .filter(|i| i.column == column)
        .map(|i| i.name.clone())
        .collect()
}

/// `AlterOptions.apply`: OPT-1 and OPT-8 on the new properties, OPT-11, ALT-16, ALT-17.
fn alter_options(
    cx: &Context<'_>,
    table: &Table,
    altered: &mut Table,
    properties: &[Property],
    new: &table_params::Params,
) -> Result<(), SchemaError> {
    props::check_known(properties, TABLE_PROPERTIES).map_err(|e| cx.lift(e))?;
    table_params::validate(new).map_err(|e| cx.lift(e))?;
    if new.has_id {
        let span = props::find(properties, "id").map_or(cx.origin.span, |p| p.span);
        return Err(cx.err(SchemaErrorKind::AlterTableId, span));
    }
    let merged = table_params::merge(&table.options, properties);
    let params = table_params::build(&merged).map_err(|e| cx.lift(e))?;
    if table.is_counter_table() && params.default_time_to_live > 0 {
        return Err(cx.err(SchemaErrorKind::CounterWithTtl, cx.origin.span));
    }
    if !table.views.is_empty() && params.gc_grace_seconds == 0 {
        return Err(cx.err(SchemaErrorKind::ViewBaseGcGraceZero, cx.origin.span));
    }
    altered.options = table_params::to_model(&params, &merged, table.options.compact_storage);
    Ok(())
}
