//! A column of both tables compared, a column added, a column dropped: each
//! in place, refused with the target's message, or a rebuild.

use cqlmodel_schema::types::CqlType;
use cqlmodel_schema::{Column, Table};

use super::delta::{Cx, TableDiff, is_key};
use super::renames::{declared_renames, suspect_renames};
use crate::cql_text::quote;
use crate::model::{Item, Target, Verdict};
use crate::target;
use crate::type_rebuild::same_type;

pub(super) fn diff_columns(d: &mut TableDiff, cx: &Cx<'_>, renames: &[(String, String)]) {
    let (old, new, name, target) = (cx.old, cx.new, cx.name, cx.target);
    let renamed_to = |n: &str| renames.iter().any(|(_, to)| to == n);
    let renamed_from = |n: &str| renames.iter().any(|(from, _)| from == n);
    let mut added: Vec<&Column> = Vec::new();
    let mut dropped: Vec<&Column> = Vec::new();
    for c in new.columns.iter().filter(|c| !is_key(c)) {
        match old.column(&c.name) {
            Some(o) if is_key(o) => {} // moved out of the key: the key diff says so
            Some(o) => compare_column(d, o, c, name, target),
            None if !renamed_to(&c.name) => added.push(c),
            None => {}
        }
    }
    for c in old.columns.iter().filter(|c| !is_key(c)) {
        if new.column(&c.name).is_none() && !renamed_from(&c.name) {
            dropped.push(c);
        }
    }
    if old.is_view() {
        // A view's columns follow its definition: the view diff handles them.
        return;
    }
    declared_renames(d, cx, &mut added, &mut dropped);
    for c in &added {
        add_column(d, old, c, name, target);
    }
    for c in &dropped {
        drop_column(d, cx, c);
    }
    suspect_renames(d, cx, &added, &dropped);
}

fn compare_column(d: &mut TableDiff, o: &Column, c: &Column, name: &str, target: Target) {
    if !same_type(&o.ty, &c.ty) {
        match target::alter_type(target, name, &quote(&c.name), o.kind, &o.ty, &c.ty) {
            Some(r) => d.refused(
                &c.name,
                format!("column {} changes type from {} to {}", c.name, o.ty, c.ty),
                Verdict::Forbidden,
                Some(r),
            ),
            None => {
                d.create.push(format!(
                    "ALTER TABLE {name} ALTER {} TYPE {};",
                    quote(&c.name),
                    c.ty
                ));
                d.in_place(
                    &c.name,
                    format!(
                        "column {} changes type from {} to {} (ScyllaDB reads the old values as the new type)",
                        c.name, o.ty, c.ty
                    ),
                );
            }
        }
    }
    if o.is_static() != c.is_static() {
        let r = target::readd_other_kind(name, &quote(&c.name), o.is_static(), &c.ty);
        let kind = |s: bool| if s { "static" } else { "regular" };
        d.refused(
            &c.name,
            format!(
                "column {} turns {} from {}: no statement changes a column's kind",
                c.name,
                kind(c.is_static()),
                kind(o.is_static())
            ),
            Verdict::NoSyntax,
            (target == Target::Cassandra).then_some(r),
        );
    }
    if o.masked != c.masked {
        d.create.push(if c.masked {
            format!(
                "ALTER TABLE {name} ALTER {} MASKED WITH DEFAULT;",
                quote(&c.name)
            )
        } else {
            format!("ALTER TABLE {name} ALTER {} DROP MASKED;", quote(&c.name))
        });
        d.in_place(
            &c.name,
            format!(
                "column {} {} (cqlmodel keeps no mask function: DEFAULT is written)",
                c.name,
                if c.masked { "masked" } else { "unmasked" }
            ),
        );
    }
}

fn add_column(d: &mut TableDiff, old: &Table, c: &Column, name: &str, target: Target) {
    if c.ty.is_counter() != old.is_counter_table() {
        let r = target::counter_mix(
            target,
            &old.keyspace,
            &old.name,
            &c.name,
            &c.ty,
            old.is_counter_table(),
        );
        d.refused(
            &c.name,
            format!(
                "column {} ({}) cannot join a {}counter table",
                c.name,
                c.ty,
                if old.is_counter_table() { "" } else { "non-" }
            ),
            Verdict::Forbidden,
            Some(r),
        );
        return;
    }
    d.create.push(format!(
        "ALTER TABLE {name} ADD {} {}{};",
        quote(&c.name),
        c.ty,
        if c.is_static() { " static" } else { "" }
    ));
    d.in_place(
        &c.name,
        format!(
            "add {}column {} {}: rows written before read it as null (no backfill, no default value)",
            if c.is_static() { "static " } else { "" },
            c.name,
            c.ty
        ),
    );
}

fn drop_column(d: &mut TableDiff, cx: &Cx<'_>, c: &Column) {
    let (old, name, target) = (cx.old, cx.name, cx.target);
    if let CqlType::Udt { def, frozen: false } = &c.ty {
        let r = target::drop_non_frozen_udt(name, &quote(&c.name), &def.name);
        d.refused(
            &c.name,
            format!("column {} (non-frozen {}) is dropped", c.name, def.name),
            Verdict::Forbidden,
            Some(r),
        );
        return;
    }
    let holding_view = cx
        .old_views
        .iter()
        .find(|v| v.column(&c.name).is_some())
        .map(|v| v.name.as_str());
    if let Some(r) = target::drop_with_views(
        target,
        &old.keyspace,
        &old.name,
        &c.name,
        // At the drop (phase 7) the table has NEW's views: those phase 1 created too.
        !old.views.is_empty() || !cx.new.views.is_empty(),
        holding_view,
    ) {
        // Drop, alter, recreate: the views go first and come back from NEW's
        // definitions after the drop (ScyllaDB: NEW's view no longer holds the
        // column, and the view changes of the plan run first).
        let how = match target {
            Target::Cassandra => {
                d.recreate_views = true;
                format!(
                    "the plan drops the views ({}) before the column and creates them again after; \
                     they rebuild from the table's rows, and reads of them see partial results meanwhile",
                    cx.new.views.join(", ")
                )
            }
            Target::Scylla => "the view that holds it is redefined or dropped (as NEW has it) before the column goes".into(),
        };
        d.items.push(Item {
            subject: Some(c.name.clone()),
            what: format!(
                "column {} is dropped from a table with materialized views: {how}",
                c.name
            ),
            verdict: Verdict::InPlace,
            attempted: Some(r.attempted),
            message: Some(r.message),
        });
    }
    let indexes: Vec<String> = old
        .indexes
        .iter()
        .filter(|i| i.column == c.name)
        .map(|i| i.name.clone())
        .collect();
    let mut what = format!(
        "drop column {} {}: its data is lost; system_schema.dropped_columns records \
         ({}, {}, {}) with the drop time, reads skip older cells and compaction purges them; \
         re-adding {} later with an incompatible type fails (Cannot re-add previously dropped column '{}' of type …)",
        c.name,
        c.ty,
        c.name,
        c.ty,
        if c.is_static() { "static" } else { "regular" },
        c.name,
        c.name
    );
    if !indexes.is_empty() {
        let r = target::drop_indexed(name, &c.name, indexes.clone());
        what.push_str(&format!(
            "; its indexes ({}) are dropped first, or Cassandra says: {}",
            indexes.join(", "),
            r.message
        ));
    }
    d.drop
        .push(format!("ALTER TABLE {name} DROP {};", quote(&c.name)));
    d.in_place(&c.name, what);
    d.warnings.push(format!(
        "data loss: dropping {}.{} deletes every value of {}; take a snapshot first \
         (nodetool snapshot -t before-drop-{} --table {} {})",
        old.name, c.name, c.name, c.name, old.name, old.keyspace
    ));
}
