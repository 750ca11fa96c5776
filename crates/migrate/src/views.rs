//! Materialized views: created, redefined (dropped and created again: the view
//! is rebuilt from its base table), options altered, dropped. A view on a
//! rebuilt table is created on the new table.

use std::collections::BTreeMap;

use cqlmodel_schema::Table;

use crate::cql_text::{create_view, drop_view};
use crate::input::MigrateInput;
use crate::model::{Change, ChangeKind, ObjectKind, Phase};
use crate::rebuild::next_name;
use crate::table_diff::diff_table;

/// The defining statement, printed back without spans or spacing differences.
fn definition(input: &MigrateInput<'_>, v: &Table) -> Option<String> {
    let text = (input.source)(&v.origin)?;
    cqlmodel_cql::parse_statement(&text)
        .ok()
        .map(|s| s.to_string())
}

fn base_of(v: &Table) -> &str {
    v.view.as_ref().map_or("", |i| i.base_table.as_str())
}

/// `rebuilt` holds, for each rebuilt table, NEW's qualified name and the plan's table name.
pub fn view_changes(
    input: &MigrateInput<'_>,
    rebuilt: &[(String, String)],
    recreated: &[String],
    renamed: &mut BTreeMap<String, String>,
) -> Vec<Change> {
    let (old, new) = (input.old, input.new);
    let mut out = Vec::new();
    for v in new.tables().filter(|t| t.is_view()) {
        let base_qualified = format!("{}.{}", v.keyspace, base_of(v));
        let rebuilt_base = rebuilt.iter().find(|(n, _)| *n == base_qualified);
        let old_view = old.table(&v.keyspace, &v.name).filter(|t| t.is_view());
        if let Some((_, plan_base)) = rebuilt_base {
            let taken = |n: &str| {
                old.table(&v.keyspace, n).is_some() || new.table(&v.keyspace, n).is_some()
            };
            let name = if old_view.is_some() {
                next_name(&v.name, &taken)
            } else {
                v.name.clone()
            };
            if name != v.name {
                renamed.insert(v.qualified_name(), format!("{}.{name}", v.keyspace));
            }
            out.push(create(
                input,
                v,
                &name,
                plan_base,
                format!("its base table {base_qualified} is rebuilt: the view is created on the new table and builds from its rows"),
            ));
            continue;
        }
        match old_view {
            None => out.push(create(
                input,
                v,
                &v.name,
                base_of(v),
                "a view only NEW has: it builds from its base table's rows".into(),
            )),
            // Its base table's column drop creates it again from NEW's definition.
            Some(_) if recreated.contains(&v.qualified_name()) => {}
            Some(o) if base_of(o) != base_of(v) || definition(input, o) != definition(input, v) => {
                out.push(redefine(input, v));
            }
            Some(o) => out.extend(options_change(input, o, v)),
        }
    }
    out.extend(dropped_views(input, rebuilt));
    out
}

/// A view whose definition changes: no statement alters it, so it is dropped
/// and created again.
fn redefine(input: &MigrateInput<'_>, v: &Table) -> Change {
    let mut c = create(
        input,
        v,
        &v.name,
        base_of(v),
        "the view's definition changes: no statement alters it; it is dropped and created \
         again, and rebuilds from its base table (reads of it see partial results meanwhile)"
            .into(),
    );
    c.kind = ChangeKind::Alter;
    c.statements.clear();
    c.push(Phase::Create, drop_view(&v.keyspace, &v.name));
    if let Some(s) = create_view(v, (input.source)(&v.origin).as_deref(), &v.name, base_of(v)) {
        c.push(Phase::Create, s);
    }
    c
}

/// The options a view `o` changes to become `v`; `None` when none change.
fn options_change(input: &MigrateInput<'_>, o: &Table, v: &Table) -> Option<Change> {
    let d = diff_table(o, v, input.target, &[], &[]);
    if d.create.is_empty() {
        return None;
    }
    let mut c = Change::new(
        v.qualified_name(),
        ObjectKind::View,
        ChangeKind::Alter,
        "view options change".into(),
    );
    for s in d.create {
        c.push(Phase::Create, s);
    }
    c.items = d.items;
    c.warnings = d.warnings;
    Some(c)
}

/// The views NEW no longer defines, on a base table it keeps as it is (a view
/// of a dropped or rebuilt table goes with it).
fn dropped_views(input: &MigrateInput<'_>, rebuilt: &[(String, String)]) -> Vec<Change> {
    let (old, new) = (input.old, input.new);
    let mut out = Vec::new();
    for o in old.tables().filter(|t| t.is_view()) {
        let base_gone = new.table(&o.keyspace, base_of(o)).is_none()
            || rebuilt
                .iter()
                .any(|(n, _)| *n == format!("{}.{}", o.keyspace, base_of(o)));
        if new.table(&o.keyspace, &o.name).is_none()
            && !base_gone
            && new.keyspace(&o.keyspace).is_some()
        {
            let mut c = Change::new(
                o.qualified_name(),
                ObjectKind::View,
                ChangeKind::Drop,
                "NEW no longer defines the view (its rows are derived: the base table keeps the data)".into(),
            );
            c.push(Phase::Drop, drop_view(&o.keyspace, &o.name));
            out.push(c);
        }
    }
    out
}

fn create(input: &MigrateInput<'_>, v: &Table, name: &str, base: &str, reason: String) -> Change {
    let mut c = Change::new(
        v.qualified_name(),
        ObjectKind::View,
        ChangeKind::Create,
        reason,
    );
    match create_view(v, (input.source)(&v.origin).as_deref(), name, base) {
        Some(s) => c.push(Phase::Create, s),
        None => {
            c.flagged = true;
            c.warnings.push(
                "the view's defining statement could not be read back: write its CREATE MATERIALIZED VIEW by hand"
                    .into(),
            );
        }
    }
    c.warnings.push(
        "materialized views are experimental in Cassandra 5.0 and disabled by default \
         (materialized_views_enabled: false in cassandra.yaml)"
            .into(),
    );
    c
}
