//! The dry run: the plan's schema statements executed on OLD by the schema
//! crate (Cassandra 5.0's rules), phase by phase, and the result compared with
//! NEW. A statement the schema crate rejects, or a difference left at the end,
//! is a defect of the plan and is reported as such.

use std::collections::{BTreeMap, BTreeSet};

use std::sync::Arc;

use cqlmodel_cql::ast::{AlterTableAction, Statement, StatementKind};
use cqlmodel_schema::resolve::resolve_type;
use cqlmodel_schema::types::UdtDef;
use cqlmodel_schema::{ColumnKind, Schema, SchemaBuilder, SchemaErrorKind, Settings, Table};
use serde::Serialize;

use crate::model::{Phase, Target};
use crate::options;
use crate::plan::Plan;
use crate::type_rebuild::rename_word;

#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct DryRun {
    /// Schema statements executed.
    pub statements: usize,
    /// Statements the schema crate rejected, with Cassandra's message.
    pub rejected: Vec<String>,
    /// What still differs from NEW afterwards.
    pub differences: Vec<String>,
    /// Statements applied with ScyllaDB's rules, which the schema crate does not model.
    pub scylla_rules: usize,
}

impl DryRun {
    pub fn ok(&self) -> bool {
        self.rejected.is_empty() && self.differences.is_empty()
    }
}

/// The file index the plan's statements are given in the schema builder.
const PLAN_FILE: usize = usize::MAX;

pub fn dry_run(old: &Schema, new: &Schema, plan: &Plan) -> DryRun {
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_schema_and_settings(old.clone(), settings);
    let mut out = DryRun::default();
    let scylla = plan.target == Target::Scylla;
    for phase in [Phase::Create, Phase::Drop] {
        for (_, statements) in plan.phase(phase) {
            for text in statements {
                let parsed = cqlmodel_cql::parse(text);
                if let Some(e) = parsed.errors.first() {
                    out.rejected.push(format!("{text}\n  does not parse: {e}"));
                    continue;
                }
                let before = builder.errors().len();
                builder.add_statements(PLAN_FILE, &parsed.statements);
                out.statements += parsed.statements.len();
                let Some(e) = builder.errors().get(before).cloned() else {
                    continue;
                };
                // The schema crate models Cassandra; the two changes ScyllaDB accepts
                // where Cassandra does not are applied here with ScyllaDB's rules.
                let scylla_only = matches!(
                    e.kind,
                    SchemaErrorKind::AlterColumnType | SchemaErrorKind::DropColumnWithViews { .. }
                );
                if scylla && scylla_only {
                    let mut schema = builder.finish().schema;
                    let applied = parsed
                        .statements
                        .iter()
                        .all(|st| apply_scylla(&mut schema, st));
                    builder = SchemaBuilder::with_schema_and_settings(schema, settings);
                    if applied {
                        out.scylla_rules += 1;
                        continue;
                    }
                }
                out.rejected
                    .push(format!("{text}\n  Cassandra rejects it: {e}"));
            }
        }
    }
    out.differences = compare(builder.schema(), new, &plan.renamed);
    out
}

/// `ALTER TABLE … ALTER c TYPE t` and `ALTER TABLE … DROP c` as ScyllaDB applies
/// them (the plan only writes them when ScyllaDB's checks pass).
fn apply_scylla(schema: &mut Schema, st: &Statement) -> bool {
    let StatementKind::AlterTable(a) = &st.kind else {
        return false;
    };
    let Some(ks) = a.name.keyspace.as_ref().map(|k| k.value.clone()) else {
        return false;
    };
    let types: BTreeMap<String, BTreeMap<String, Arc<UdtDef>>> = schema
        .keyspaces
        .iter()
        .map(|(n, k)| (n.clone(), k.types.clone()))
        .collect();
    let Some(table) = schema
        .keyspaces
        .get_mut(&ks)
        .and_then(|k| k.tables.get_mut(&a.name.name.value))
    else {
        return false;
    };
    match &a.action {
        AlterTableAction::AlterColumnType { column, data_type } => {
            let Ok(ty) = resolve_type(data_type, &ks, &types) else {
                return false;
            };
            match table.columns.iter_mut().find(|c| c.name == column.value) {
                Some(c) => {
                    c.ty = ty;
                    true
                }
                None => false,
            }
        }
        AlterTableAction::Drop { columns, .. } => {
            table
                .columns
                .retain(|c| !columns.iter().any(|d| d.value == c.name));
            true
        }
        _ => false,
    }
}

/// The differences between `actual` and `expected`, reading `expected`'s names
/// through `renamed` (`ks.t` → `ks.t_v2`).
pub fn compare(
    actual: &Schema,
    expected: &Schema,
    renamed: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    let names = |s: &Schema| s.keyspaces.keys().cloned().collect::<BTreeSet<_>>();
    if names(actual) != names(expected) {
        out.push(format!(
            "keyspaces: {:?} instead of {:?}",
            names(actual),
            names(expected)
        ));
    }
    for (name, ek) in &expected.keyspaces {
        let Some(ak) = actual.keyspaces.get(name) else {
            continue;
        };
        if ak.replication != ek.replication || ak.durable_writes != ek.durable_writes {
            out.push(format!("keyspace {name}: replication differs"));
        }
        let map = |n: &str| {
            let q = format!("{name}.{n}");
            renamed
                .get(&q)
                .and_then(|r| r.split_once('.').map(|(_, t)| t.to_string()))
                .unwrap_or_else(|| n.to_string())
        };
        // NEW's types the plan defines under another name: NEW's text read through them.
        let type_names: Vec<(String, String)> = ek
            .types
            .keys()
            .filter(|t| map(t) != **t)
            .map(|t| (t.clone(), map(t)))
            .collect();
        let retyped = |text: String| {
            type_names
                .iter()
                .fold(text, |s, (from, to)| rename_word(&s, from, to))
        };
        let fields = |t: &cqlmodel_schema::types::UdtDef, rename: bool| {
            t.fields
                .iter()
                .map(|(n, ty)| {
                    let ty = ty.to_string();
                    format!("{n} {}", if rename { retyped(ty) } else { ty })
                })
                .collect::<Vec<_>>()
        };
        let expected_types: BTreeSet<String> = ek.types.keys().map(|t| map(t)).collect();
        for (tn, et) in &ek.types {
            match ak.types.get(&map(tn)) {
                None => out.push(format!("type {name}.{} is missing", map(tn))),
                Some(at) if fields(at, false) != fields(et, true) => {
                    out.push(format!("type {name}.{}: fields differ", map(tn)))
                }
                Some(_) => {}
            }
        }
        for tn in ak.types.keys().filter(|t| !expected_types.contains(*t)) {
            out.push(format!("type {name}.{tn} should not exist"));
        }
        let expected_tables: BTreeSet<String> = ek.tables.keys().map(|t| map(t)).collect();
        for (tn, et) in &ek.tables {
            match ak.tables.get(&map(tn)) {
                None => out.push(format!("table {name}.{} is missing", map(tn))),
                Some(at) => out.extend(compare_table(at, et, &map, &retyped)),
            }
        }
        for tn in ak.tables.keys().filter(|t| !expected_tables.contains(*t)) {
            out.push(format!("table {name}.{tn} should not exist"));
        }
    }
    out
}

/// Each column as `name type role`, its type's text read through `retyped` (only
/// the type: a column may share its name with a type).
fn column_shape(t: &Table, retyped: &dyn Fn(String) -> String) -> Vec<String> {
    let mut keys: Vec<(usize, String)> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    for c in &t.columns {
        let masked = if c.masked { " masked" } else { "" };
        let ty = retyped(c.ty.to_string());
        match c.kind {
            ColumnKind::PartitionKey(i) => keys.push((i, format!("{} {ty} partition", c.name))),
            ColumnKind::Clustering(i, o) => keys.push((
                1000 + i,
                format!("{} {ty} clustering {}", c.name, o.keyword()),
            )),
            ColumnKind::Static => rest.push(format!("{} {ty} static{masked}", c.name)),
            ColumnKind::Regular => rest.push(format!("{} {ty}{masked}", c.name)),
        }
    }
    keys.sort();
    rest.sort();
    keys.into_iter().map(|(_, s)| s).chain(rest).collect()
}

fn compare_table(
    actual: &Table,
    expected: &Table,
    map: &dyn Fn(&str) -> String,
    retyped: &dyn Fn(String) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    let name = actual.qualified_name();
    let expected_shape = column_shape(expected, retyped);
    let actual_shape = column_shape(actual, &|s| s);
    if actual_shape != expected_shape {
        out.push(format!(
            "table {name}: columns [{}] instead of [{}]",
            actual_shape.join(", "),
            expected_shape.join(", ")
        ));
    }
    if options::canonical(actual) != options::canonical(expected) {
        out.push(format!(
            "table {name}: options {:?} instead of {:?}",
            options::canonical(actual),
            options::canonical(expected)
        ));
    }
    let indexes = |t: &Table, rename: bool| {
        t.indexes
            .iter()
            .map(|i| {
                let n = if rename { map(&i.name) } else { i.name.clone() };
                format!(
                    "{n} on {} {:?} {:?} {:?}",
                    i.column, i.target, i.implementation, i.options
                )
            })
            .collect::<BTreeSet<_>>()
    };
    if indexes(actual, false) != indexes(expected, true) {
        out.push(format!(
            "table {name}: indexes {:?} instead of {:?}",
            indexes(actual, false),
            indexes(expected, true)
        ));
    }
    out
}
