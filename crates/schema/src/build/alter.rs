//! ALTER TABLE, with `AlterTableStatement`'s checks.

use cqlmodel_cql::ast::{AlterTable, AlterTableAction};

use super::table::table_options;
use super::udt::SchemaTypes;
use super::{Context, StepResult};
use crate::error::SchemaErrorKind;
use crate::model::{Column, ColumnKind, Origin, Schema};
use crate::resolve::resolve_type;

pub(super) fn alter_table(schema: &mut Schema, cx: &Context<'_>, s: &AlterTable) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    let table_name = &s.name.name.value;
    let invalid = |msg: String, span| cx.err(SchemaErrorKind::InvalidAlter(msg), span);
    let Some(table) = schema.keyspaces.get(&ks_name).and_then(|k| k.tables.get(table_name)) else {
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
        return Err(invalid(
            "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead".into(),
            s.name.span,
        ));
    }
    let mut table = table.clone();
    match &s.action {
        AlterTableAction::Add {
            if_not_exists,
            columns,
        } => {
            for def in columns {
                let name = &def.name.value;
                if table.column(name).is_some() {
                    if *if_not_exists {
                        continue;
                    }
                    return Err(invalid(format!("Column with name '{name}' already exists"), def.name.span));
                }
                let ty = resolve_type(&def.data_type, &ks_name, &SchemaTypes(schema))
                    .map_err(|(k, sp)| cx.err(k, sp))?;
                if def.is_static && table.clustering_len() == 0 {
                    return Err(invalid(
                        "Static columns are only useful (and thus allowed) if the table has at least one clustering column".into(),
                        def.span,
                    ));
                }
                if ty.is_counter() != table.is_counter_table() {
                    let msg = if ty.is_counter() {
                        format!("Cannot add a counter column ({name}) in a non counter column family")
                    } else {
                        format!("Cannot add a non counter column ({name}) in a counter column family")
                    };
                    return Err(invalid(msg, def.span));
                }
                table.columns.push(Column {
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
                });
            }
        }
        AlterTableAction::Drop {
            if_exists,
            columns,
            ..
        } => {
            for ident in columns {
                let name = &ident.value;
                match table.column(name) {
                    None if *if_exists => {}
                    None => {
                        return Err(invalid(
                            format!("Column {name} was not found in table {table_name}"),
                            ident.span,
                        ));
                    }
                    Some(c) if c.is_primary_key() => {
                        return Err(invalid(
                            format!("Cannot drop PRIMARY KEY column {name}"),
                            ident.span,
                        ));
                    }
                    Some(_) => {
                        if table.indexes.iter().any(|i| i.column == *name) {
                            return Err(invalid(
                                format!("Cannot drop column {name} because it has dependent secondary indexes"),
                                ident.span,
                            ));
                        }
                        if !table.views.is_empty() {
                            return Err(invalid(
                                format!("Cannot drop column {name} on base table {table_name} with materialized views"),
                                ident.span,
                            ));
                        }
                        table.columns.retain(|c| c.name != *name);
                    }
                }
            }
        }
        AlterTableAction::Rename { if_exists, renames } => {
            for (from, to) in renames {
                let Some(pos) = table.columns.iter().position(|c| c.name == from.value) else {
                    if *if_exists {
                        continue;
                    }
                    return Err(invalid(
                        format!("Column {} was not found in table {table_name}", from.value),
                        from.span,
                    ));
                };
                if table.column(&to.value).is_some() {
                    return Err(invalid(
                        format!(
                            "Cannot rename column {} to {} in table '{table_name}'; another column with that name already exists",
                            from.value, to.value
                        ),
                        to.span,
                    ));
                }
                if let Some(col) = table.columns.get_mut(pos) {
                    if !col.is_primary_key() {
                        return Err(invalid(
                            format!(
                                "Cannot rename non PRIMARY KEY column {}",
                                from.value
                            ),
                            from.span,
                        ));
                    }
                    col.name = to.value.clone();
                }
            }
        }
        AlterTableAction::AlterColumnType { column, .. } => {
            return Err(invalid(
                "Altering column types is no longer supported".into(),
                column.span,
            ));
        }
        AlterTableAction::Mask { if_exists, column, mask } => match table.columns.iter_mut().find(|c| c.name == column.value) {
            Some(c) => c.masked = mask.is_some(),
            None if *if_exists => {}
            None => {
                return Err(invalid(
                    format!("Column with name '{}' doesn't exist on table '{table_name}'", column.value),
                    column.span,
                ));
            }
        },
        AlterTableAction::With(opts) => {
            let decoded = table_options(cx, opts)?;
            if decoded.default_time_to_live.is_some_and(|t| t > 0) && table.is_counter_table() {
                return Err(cx.err(SchemaErrorKind::CounterWithTtl, s.name.span));
            }
            if decoded.default_time_to_live.is_some() {
                table.options.default_time_to_live = decoded.default_time_to_live;
            }
            if decoded.gc_grace_seconds.is_some() {
                table.options.gc_grace_seconds = decoded.gc_grace_seconds;
            }
            if decoded.compaction.is_some() {
                table.options.compaction = decoded.compaction;
            }
            if decoded.comment.is_some() {
                table.options.comment = decoded.comment;
            }
            table.options.raw.extend(decoded.raw);
        }
    }
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        ks.tables.insert(table_name.clone(), table);
    }
    Ok(())
}
