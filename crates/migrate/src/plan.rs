//! The plan: every object's change, in the order the phases run them.

use std::collections::BTreeMap;

use cqlmodel_schema::{Schema, Table};
use serde::Serialize;

use crate::cql_text::{create_index, create_table, create_view, drop_table, drop_view, qualified};
use crate::dual_write::{AppRewrite, AppStatement, RewriteCx};
use crate::model::{Change, ChangeKind, ObjectKind, Phase, Target};
use crate::objects::{keyspace_changes, type_changes};
use crate::rebuild::{Rebuild, map_columns, next_name};
use crate::table_diff::diff_table;
use crate::type_rebuild::TypeRebuild;
use crate::{backfill, type_rebuild, views};

pub use crate::input::{MigrateInput, SourceText};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub target: Target,
    pub changes: Vec<Change>,
    /// NEW's names the plan gives another name (`ks.t` → `ks.t_v2`): the old
    /// object keeps the name while the data moves.
    pub renamed: BTreeMap<String, String>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    pub fn flagged(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.flagged)
    }

    pub fn rebuilds(&self) -> impl Iterator<Item = &Rebuild> {
        self.changes.iter().filter_map(|c| c.rebuild.as_ref())
    }

    /// Every statement of a phase, in run order: creation follows the change
    /// order (keyspaces, types, tables, views), removal the reverse.
    pub fn phase(&self, phase: Phase) -> Vec<(&Change, &[String])> {
        let mut out: Vec<(&Change, &[String])> = self
            .changes
            .iter()
            .map(|c| (c, c.in_phase(phase)))
            .filter(|(_, s)| !s.is_empty())
            .collect();
        if phase == Phase::Drop {
            out.reverse();
        }
        out
    }
}

/// Plans the change from `input.old` to `input.new`.
pub fn plan(input: &MigrateInput<'_>) -> Plan {
    let mut changes = keyspace_changes(input.old, input.new);
    let (type_changes, type_rebuilds) = type_changes(input.old, input.new);
    changes.extend(type_changes);
    let mut renamed = BTreeMap::new();
    for r in &type_rebuilds {
        renamed.insert(
            format!("{}.{}", r.keyspace, r.name),
            format!("{}.{}", r.keyspace, r.plan_name()),
        );
    }
    let mut rebuilt_bases: Vec<(String, String)> = Vec::new();
    let mut recreated: Vec<String> = Vec::new();
    let mut table_changes = table_changes(
        input,
        &type_rebuilds,
        &mut renamed,
        &mut rebuilt_bases,
        &mut recreated,
    );
    changes.append(&mut table_changes);
    changes.extend(views::view_changes(
        input,
        &rebuilt_bases,
        &recreated,
        &mut renamed,
    ));
    Plan {
        target: input.target,
        changes,
        renamed,
    }
}

fn is_table(t: &&Table) -> bool {
    !t.is_view()
}

fn views_of<'a>(schema: &'a Schema, t: &Table) -> Vec<&'a Table> {
    t.views
        .iter()
        .filter_map(|v| schema.table(&t.keyspace, v))
        .collect()
}

fn table_changes(
    input: &MigrateInput<'_>,
    type_rebuilds: &[TypeRebuild],
    renamed: &mut BTreeMap<String, String>,
    rebuilt_bases: &mut Vec<(String, String)>,
    recreated: &mut Vec<String>,
) -> Vec<Change> {
    let (old, new) = (input.old, input.new);
    let mut out = Vec::new();
    let mut created: Vec<&Table> = Vec::new();
    // NEW's tables with their columns on the plan's new types (when they use one).
    let retyped: Vec<Table> = new
        .tables()
        .filter(is_table)
        .filter_map(|t| type_rebuild::retyped(t, type_rebuilds))
        .collect();
    for t in new.tables().filter(is_table) {
        let Some(o) = old.table(&t.keyspace, &t.name).filter(is_table) else {
            created.push(t);
            continue;
        };
        let declared = crate::rename::renames_of(input.renames, &o.keyspace, &o.name);
        let mut d = diff_table(o, t, input.target, &views_of(old, o), &declared);
        moves_onto_new_types(&mut d, o, type_rebuilds);
        let t = effective(&retyped, t);
        if d.is_empty() {
            continue;
        }
        if d.rebuild_reasons.is_empty() {
            out.push(alter_change(input, o, t, d, recreated));
        } else {
            let taken = |n: &str| {
                old.table(&t.keyspace, n).is_some() || new.table(&t.keyspace, n).is_some()
            };
            let plan_name = next_name(&t.name, &taken);
            renamed.insert(t.qualified_name(), format!("{}.{plan_name}", t.keyspace));
            rebuilt_bases.push((t.qualified_name(), plan_name.clone()));
            let reason = format!(
                "{} cannot change it in place: {}",
                input.target.name(),
                d.rebuild_reasons.join("; ")
            );
            let mut c = rebuild_change(input, o, t, &plan_name, reason, renamed);
            if !d.suspected_renames.is_empty() {
                // As written the rebuild does not copy the column: a decision.
                c.flagged = true;
                c.warnings.extend(d.rename_warnings);
            }
            c.items = d.items;
            out.push(c);
        }
    }
    let mut dropped: Vec<&Table> = old
        .tables()
        .filter(is_table)
        .filter(|o| new.keyspace(&o.keyspace).is_some())
        .filter(|o| new.table(&o.keyspace, &o.name).is_none())
        .collect();
    for t in created {
        let pair = dropped.iter().position(|o| replaces(o, t).is_some());
        match pair {
            Some(i) => {
                let o = dropped.remove(i);
                let why = replaces(o, t).unwrap_or_default();
                rebuilt_bases.push((t.qualified_name(), t.name.clone()));
                out.push(rebuild_change(
                    input,
                    o,
                    effective(&retyped, t),
                    &t.name,
                    why,
                    renamed,
                ));
            }
            None => out.push(create_change(effective(&retyped, t))),
        }
    }
    out.extend(dropped.into_iter().map(dropped_change));
    out
}

/// NEW's table as the plan creates it: on the plan's new types when it uses one.
fn effective<'a>(retyped: &'a [Table], t: &'a Table) -> &'a Table {
    retyped
        .iter()
        .find(|r| r.keyspace == t.keyspace && r.name == t.name)
        .unwrap_or(t)
}

/// Each column of OLD's table that uses a type the plan defines again: the
/// table cannot keep it, and moves onto the new type by a rebuild.
fn moves_onto_new_types(
    d: &mut crate::table_diff::TableDiff,
    old: &Table,
    type_rebuilds: &[TypeRebuild],
) {
    for (r, column) in type_rebuild::used_by(old, type_rebuilds) {
        let what = format!(
            "column {column} uses type {}, whose {}: the new table's {column} uses {} instead",
            qualified(&r.keyspace, &r.name),
            r.why,
            qualified(&r.keyspace, r.plan_name())
        );
        d.rebuild_reasons.push(what.clone());
        d.items.push(crate::model::Item {
            subject: Some(column),
            what,
            verdict: crate::model::Verdict::Forbidden,
            attempted: r.attempted.clone(),
            message: r.message.clone(),
        });
    }
}

/// A table that changes in place. Cassandra drops no column of a table with
/// views: NEW's views of the table (the ones that exist in phase 7; OLD's others
/// are dropped before) are dropped before the drop phase's statements and
/// created again after them.
fn alter_change(
    input: &MigrateInput<'_>,
    o: &Table,
    t: &Table,
    d: crate::table_diff::TableDiff,
    recreated: &mut Vec<String>,
) -> Change {
    let mut c = Change::new(
        o.qualified_name(),
        ObjectKind::Table,
        ChangeKind::Alter,
        format!(
            "{} applies in place: {}",
            if d.items.len() == 1 {
                "the change"
            } else {
                "every change"
            },
            subjects(&d.items)
        ),
    );
    if d.items
        .iter()
        .any(|i| i.verdict == crate::model::Verdict::Manual)
    {
        // A suspected rename: as written it loses the column's data.
        c.flagged = true;
        c.reason = format!(
            "applies in place as written ({}), but a column dropped and another added look like a rename: decide before phase 7",
            subjects(&d.items)
        );
    }
    for s in d.create {
        c.push(Phase::Create, s);
    }
    let recreate: Vec<&Table> = t
        .views
        .iter()
        .filter(|_| d.recreate_views)
        .filter_map(|v| input.new.table(&t.keyspace, v).filter(|x| x.is_view()))
        .collect();
    if d.recreate_views {
        for v in &t.views {
            c.push(Phase::Drop, drop_view(&o.keyspace, v));
        }
    }
    for s in d.drop {
        c.push(Phase::Drop, s);
    }
    c.items = d.items;
    c.warnings = d.warnings;
    c.warnings.extend(d.rename_warnings);
    for v in recreate {
        match create_view(v, (input.source)(&v.origin).as_deref(), &v.name, &t.name) {
            Some(s) => {
                c.push(Phase::Drop, s);
                recreated.push(v.qualified_name());
            }
            None => {
                c.flagged = true;
                c.warnings.push(format!(
                    "view {} must be created again after the drop, and its definition could not be read back: write it by hand",
                    v.name
                ));
            }
        }
    }
    c
}

/// A table NEW no longer has and no new table replaces: flagged.
fn dropped_change(o: &Table) -> Change {
    let mut c = Change::new(
        o.qualified_name(),
        ObjectKind::Table,
        ChangeKind::Drop,
        "NEW has no such table and no new table takes its rows (none holds its primary key columns)".into(),
    );
    c.flagged = true;
    c.warnings.push(format!(
        "data loss: every row of {} goes; confirm nothing reads it, and snapshot it first \
         (nodetool snapshot -t before-drop --table {} {})",
        o.qualified_name(),
        o.name,
        o.keyspace
    ));
    for v in &o.views {
        c.push(Phase::Drop, drop_view(&o.keyspace, v));
    }
    c.push(Phase::Drop, drop_table(&o.keyspace, &o.name));
    c
}

/// The columns, options and indexes the items are about, once each.
fn subjects(items: &[crate::model::Item]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for i in items {
        if let Some(s) = i.subject.as_deref()
            && !out.contains(&s)
        {
            out.push(s);
        }
    }
    out.join(", ")
}

/// Whether a table only NEW has takes the rows of one only OLD has: it holds all
/// the old primary-key columns (same types) and at least half the old columns.
fn replaces(old: &Table, new: &Table) -> Option<String> {
    if old.keyspace != new.keyspace {
        return None;
    }
    let keys_kept = old.columns.iter().filter(|c| c.is_primary_key()).all(|c| {
        new.column(&c.name)
            .is_some_and(|n| crate::type_rebuild::same_type(&n.ty, &c.ty))
    });
    let shared = old
        .columns
        .iter()
        .filter(|c| new.column(&c.name).is_some())
        .count();
    (keys_kept && shared * 2 >= old.columns.len()).then(|| {
        format!(
            "NEW drops {} and adds {}, which holds its primary-key columns and {shared} of its {} columns: \
             taken as its replacement, so its rows are moved, not lost",
            old.qualified_name(),
            new.qualified_name(),
            old.columns.len()
        )
    })
}

fn create_change(t: &Table) -> Change {
    let mut c = Change::new(
        t.qualified_name(),
        ObjectKind::Table,
        ChangeKind::Create,
        "a table only NEW has (it starts empty)".into(),
    );
    c.push(Phase::Create, create_table(t, &t.name));
    for i in &t.indexes {
        c.push(
            Phase::Create,
            create_index(&t.keyspace, &t.name, i, &i.name),
        );
    }
    c
}

/// The new table's indexes: index names are unique in a keyspace, and the old
/// table keeps its own until it goes, so a taken name gets a suffix.
fn rebuild_indexes(
    input: &MigrateInput<'_>,
    c: &mut Change,
    old: &Table,
    new: &Table,
    plan_name: &str,
    renamed: &mut BTreeMap<String, String>,
) {
    for i in &new.indexes {
        // Index names are unique in a keyspace, and the old table keeps its own until it goes.
        let taken = |n: &str| {
            input.old.keyspace(&old.keyspace).is_some_and(|k| {
                k.tables
                    .values()
                    .any(|t| t.indexes.iter().any(|x| x.name == n))
            })
        };
        let name = if taken(&i.name) {
            next_name(&i.name, &taken)
        } else {
            i.name.clone()
        };
        if name != i.name {
            renamed.insert(
                format!("{}.{}", new.keyspace, i.name),
                format!("{}.{name}", new.keyspace),
            );
        }
        c.push(
            Phase::Create,
            create_index(&new.keyspace, plan_name, i, &name),
        );
    }
}

/// The application's statements on the old table, rewritten for the new one:
/// its writes (to dual-write) and its reads (to switch), in the list's order.
fn app_rewrites(
    queries: &[AppStatement],
    cx: &RewriteCx<'_>,
) -> (Vec<AppRewrite>, Vec<AppRewrite>) {
    let touching: Vec<&AppStatement> = queries
        .iter()
        .filter(|q| cx.touches(&q.statement))
        .collect();
    let is_read = |q: &&&AppStatement| {
        matches!(
            q.statement.kind,
            cqlmodel_cql::ast::StatementKind::Select(_)
        )
    };
    let dual_writes: Vec<AppRewrite> = touching
        .iter()
        .filter(|q| !is_read(q))
        .map(|q| cx.rewrite(q))
        .collect();
    let reads: Vec<AppRewrite> = touching
        .iter()
        .filter(is_read)
        .map(|q| cx.rewrite(q))
        .collect();
    (dual_writes, reads)
}

/// A rebuild's warnings: a write with no derivable twin (which flags the change),
/// and a new table created under another name than NEW gives it.
fn warn_rebuild(
    c: &mut Change,
    old: &Table,
    new: &Table,
    plan_name: &str,
    dual_writes: &[AppRewrite],
) {
    for w in dual_writes {
        if let Some(why) = &w.underivable {
            c.flagged = true;
            c.warnings.push(format!(
                "write path {} has no derivable twin on {}: {why}. Write its dual write by hand before phase 2, \
                 or the new table misses its writes",
                w.name,
                qualified(&new.keyspace, plan_name)
            ));
        }
    }
    if plan_name != new.name {
        c.warnings.push(format!(
            "NEW calls the new table {}, but {} holds the data until the switch: the plan creates {}. \
             Rename it in NEW and in the application, so that NEW stays the truth",
            new.qualified_name(),
            old.qualified_name(),
            qualified(&new.keyspace, plan_name)
        ));
    }
}

fn rebuild_change(
    input: &MigrateInput<'_>,
    old: &Table,
    new: &Table,
    plan_name: &str,
    reason: String,
    renamed: &mut BTreeMap<String, String>,
) -> Change {
    let mut c = Change::new(
        old.qualified_name(),
        ObjectKind::Table,
        ChangeKind::Rebuild,
        reason,
    );
    c.push(Phase::Create, create_table(new, plan_name));
    rebuild_indexes(input, &mut c, old, new, plan_name, renamed);
    for v in &old.views {
        c.push(Phase::Drop, drop_view(&old.keyspace, v));
    }
    c.push(Phase::Drop, drop_table(&old.keyspace, &old.name));
    let declared = crate::rename::renames_of(input.renames, &old.keyspace, &old.name);
    let (columns, not_copied) = map_columns(old, new, &declared);
    let cx = RewriteCx {
        old_keyspace: &old.keyspace,
        old_name: &old.name,
        plan_name,
        name_in_new: &new.name,
        columns: &columns,
        new_schema: input.new,
    };
    let (dual_writes, reads) = app_rewrites(input.queries, &cx);
    let same_partition_key = old
        .partition_key()
        .map(|k| (&k.name, &k.ty))
        .eq(new.partition_key().map(|k| (&k.name, &k.ty)));
    warn_rebuild(&mut c, old, new, plan_name, &dual_writes);
    let backfill = backfill::plan_backfill(
        old,
        &new.keyspace,
        plan_name,
        &columns,
        input.stats,
        input.target,
    );
    // The application's statements for the new table, per phase, for tooling.
    for (phase, rewrites) in [
        (Phase::DualWrite, &dual_writes),
        (Phase::SwitchReads, &reads),
    ] {
        for w in rewrites.iter().filter_map(|w: &AppRewrite| w.new.clone()) {
            c.push(phase, w);
        }
    }
    c.rebuild = Some(Rebuild {
        old_table: old.qualified_name(),
        new_table: format!("{}.{plan_name}", new.keyspace),
        name_in_new: new.qualified_name(),
        columns,
        not_copied,
        same_partition_key,
        old_key: old.partition_key().map(|k| k.name.clone()).collect(),
        dual_writes,
        reads,
        backfill,
    });
    c
}
