//! `ON DELETE CASCADE` / `ON DELETE SET NULL`: PostgreSQL removed (or
//! detached) the children when their parent went. Cassandra has no foreign
//! keys: the parent's delete path deletes (or updates) the children's rows in
//! every table holding them, once per child row, with the bound stated.

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::{Stats, Volume};

use super::path::Context;
use super::statements::plan_table;
use super::{Step, WriteStatement};
use crate::derive::{KeyPart, TableDesign, TableKind};
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::{Entity, OnDelete};

/// Cascades deeper than this are stated, not planned (a cycle of
/// self-references would never end).
const MAX_DEPTH: usize = 3;

/// The statements a delete of `m.entity` owes to the children declared
/// `ON DELETE CASCADE` / `SET NULL`, with the notes that state their bound.
pub(super) fn cascades(
    ctx: &Context<'_>,
    m: &MutationSpec,
    already: &[WriteStatement],
    notes: &mut Vec<String>,
) -> Vec<WriteStatement> {
    let mut out = Vec::new();
    if m.kind != MutationKind::Delete {
        return out;
    }
    let mut parents = vec![(m.entity.clone(), 0usize)];
    let mut visited = vec![m.entity.clone()];
    while let Some((parent, depth)) = parents.pop() {
        for &child in ctx.children.get(parent.as_str()).into_iter().flatten() {
            for fk in child.foreign_keys.iter().filter(|f| f.table == parent) {
                let Some(action) = fk.on_delete else { continue };
                if visited.contains(&child.name) {
                    notes.push(format!(
                        "ON DELETE {} on `{}.{}` refers back to `{}` (a tree of rows): the rows below the deleted one are not planned here; delete the subtree by a job that walks it",
                        action_word(action),
                        child.name,
                        fk.columns.join(", "),
                        parent
                    ));
                    continue;
                }
                if depth >= MAX_DEPTH {
                    notes.push(format!(
                        "ON DELETE {} of `{}` is more than {MAX_DEPTH} levels below `{}`: not planned here, delete those rows by a job",
                        action_word(action),
                        child.name,
                        m.entity
                    ));
                    continue;
                }
                let child_m = child_mutation(child, &fk.columns, action);
                let source = children_table(ctx.tables, child, &fk.columns);
                let bound = bound(ctx.stats, child, &fk.columns);
                let touched = ctx.mentions.get(&child.name).map_or(&[][..], Vec::as_slice);
                let (mut n, mut whole, mut expiring) = (0, Vec::new(), Vec::new());
                for t in touched.iter().filter_map(|i| ctx.tables.get(*i)) {
                    if already.iter().chain(&out).any(|s| s.table == t.name)
                        || matches!(t.kind, TableKind::View { .. })
                    {
                        continue;
                    }
                    // A table whose rows expire bounds the leftovers by its
                    // TTL: no per-row tombstones for rows that go anyway.
                    if let (OnDelete::Cascade, Some(ttl)) = (action, t.ttl) {
                        expiring.push(format!(
                            "`{}` ({})",
                            t.name,
                            cqlmodel_stats::units::format_duration(ttl)
                        ));
                        continue;
                    }
                    if action == OnDelete::Cascade
                        && let Some(st) =
                            partition_delete(ctx.keyspace, t, child, &fk.columns, &parent)
                    {
                        let mut st = st;
                        if depth > 0 {
                            // The parent is itself a cascaded child: one
                            // partition per such row.
                            st.repeat = Some(format!(
                                "once per `{parent}` row the cascade from `{}` deletes",
                                m.entity
                            ));
                            st.reads_first =
                                Some(format!("the `{parent}` keys the cascade deleted"));
                        }
                        whole.push(format!("`{}`", st.table));
                        out.push(st);
                        continue;
                    }
                    for mut st in plan_table(ctx.model, ctx.keyspace, t, &child_m, ctx.stats)
                        .statements
                        .into_iter()
                        .filter(|s| !s.counter || action == OnDelete::Cascade)
                    {
                        repeat_per_child(&mut st, &parent, child, action, source, &bound);
                        if action == OnDelete::SetNull {
                            bind_null(&mut st, t, child, &fk.columns);
                        }
                        out.push(st);
                        n += 1;
                    }
                }
                let mut note = cascade_note(&parent, child, &fk.columns, action, source, &bound, n);
                if !whole.is_empty() {
                    note.push_str(&format!(
                        "; {} hold{} them as one partition per `{parent}`: one partition delete each",
                        whole.join(", "),
                        if whole.len() == 1 { "s" } else { "" }
                    ));
                }
                if n == 0 && whole.is_empty() && expiring.is_empty() {
                    note.push_str("; no designed table holds those rows: nothing to delete");
                }
                if !expiring.is_empty() {
                    note.push_str(&format!(
                        "; {} expire{} by TTL: the children's rows there are left to expire (no per-row deletes, bounded by the TTL); reads that must not show them check the `{parent}` row",
                        expiring.join(", "),
                        if expiring.len() == 1 { "s" } else { "" }
                    ));
                }
                notes.push(note);
                if action == OnDelete::Cascade {
                    visited.push(child.name.clone());
                    parents.push((child.name.clone(), depth + 1));
                }
            }
        }
    }
    out
}

fn action_word(a: OnDelete) -> &'static str {
    match a {
        OnDelete::Cascade => "CASCADE",
        OnDelete::SetNull => "SET NULL",
    }
}

/// The child's own delete by primary key, or the update that nulls its
/// reference.
fn child_mutation(child: &Entity, fk: &[String], action: OnDelete) -> MutationSpec {
    match action {
        OnDelete::Cascade => MutationSpec {
            kind: MutationKind::Delete,
            entity: child.name.clone(),
            key: child.primary_key.clone(),
            ..MutationSpec::default()
        },
        OnDelete::SetNull => MutationSpec {
            kind: MutationKind::Update,
            entity: child.name.clone(),
            columns: fk.to_vec(),
            key: child.primary_key.clone(),
            ..MutationSpec::default()
        },
    }
}

/// A designed table of the child's rows partitioned by the reference: where
/// the path finds the children's keys.
fn children_table<'t>(tables: &'t [TableDesign], child: &Entity, fk: &[String]) -> Option<&'t str> {
    tables
        .iter()
        .find(|t| {
            t.grain == [child.name.clone()]
                && t.kind == TableKind::Table
                && t.partition_key.len() == fk.len()
                && t.partition_key.iter().all(|p| {
                    matches!(p, KeyPart::Attr(a) if a.entity == child.name && fk.contains(&a.column))
                })
        })
        .map(|t| t.name.as_str())
}

/// `SET NULL` writes null, not a value the application would have to bind.
fn bind_null(st: &mut WriteStatement, t: &TableDesign, child: &Entity, fk: &[String]) {
    for c in fk {
        let Some(col) = t.column_of(&crate::select::ColRef {
            entity: child.name.clone(),
            column: c.clone(),
        }) else {
            continue;
        };
        let q = quote_ident(&col.name);
        st.cql = st
            .cql
            .replace(&format!("SET {q} = ?"), &format!("SET {q} = null"))
            .replace(&format!(", {q} = ?"), &format!(", {q} = null"));
    }
}

/// A table partitioned by the reference holds the deleted parent's children
/// in one partition: one partition delete removes them all (one tombstone).
fn partition_delete(
    keyspace: &str,
    t: &TableDesign,
    child: &Entity,
    fk: &[String],
    parent: &str,
) -> Option<WriteStatement> {
    if t.partition_key.len() != fk.len() {
        return None;
    }
    let mut names = Vec::new();
    for p in &t.partition_key {
        let KeyPart::Attr(a) = p else { return None };
        if a.entity != child.name || !fk.contains(&a.column) {
            return None;
        }
        names.push(format!("{} = ?", quote_ident(&t.column_for(p)?.name)));
    }
    Some(WriteStatement {
        table: t.name.clone(),
        cql: format!(
            "DELETE FROM {}.{} WHERE {}",
            quote_ident(keyspace),
            quote_ident(&t.name),
            names.join(" AND ")
        ),
        repeat: None,
        reads_first: None,
        counter: t.kind == TableKind::Counter,
        lwt: false,
        hybrid: false,
        only_when: None,
        step: Step::Plain,
        mechanism: String::new(),
        reason: format!(
            "ON DELETE CASCADE: the deleted `{parent}`'s `{}` rows are this table's partition: one partition delete (one tombstone), however many rows",
            child.name
        ),
    })
}

/// Children per parent: the statistics' rows over the reference's distinct values.
fn bound(stats: Option<&Stats>, child: &Entity, fk: &[String]) -> Option<f64> {
    let es = stats?.tables.get(&crate::plan::entity_key(&child.name))?;
    let Volume::Fixed { rows } = es.volume else {
        return None;
    };
    let distinct = es.column(fk.first()?)?.distinct?;
    Some(rows / distinct.max(1.0))
}

fn repeat_per_child(
    st: &mut WriteStatement,
    parent: &str,
    child: &Entity,
    action: OnDelete,
    source: Option<&str>,
    bound: &Option<f64>,
) {
    let rows = bound.map_or(
        "the parent's children (no statistics: unbounded as far as the design knows)".to_string(),
        |b| {
            format!(
                "about {} rows per `{parent}` (statistics)",
                crate::plan::trim_float(b.round())
            )
        },
    );
    st.repeat = Some(format!(
        "once per `{}` row of the deleted `{parent}` (ON DELETE {}): {rows}",
        child.name,
        action_word(action)
    ));
    st.reads_first = Some(match source {
        Some(t) => format!(
            "the `{}` keys, from `{t}` by the deleted `{parent}`'s key",
            child.name
        ),
        None => format!(
            "the `{}` keys: no designed table finds them by the `{parent}` reference; carry them with the parent or add a table of `{}` by its reference",
            child.name, child.name
        ),
    });
    st.step = Step::Plain;
}

fn cascade_note(
    parent: &str,
    child: &Entity,
    fk: &[String],
    action: OnDelete,
    source: Option<&str>,
    bound: &Option<f64>,
    statements: usize,
) -> String {
    let what = match action {
        OnDelete::Cascade => "deleted its rows",
        OnDelete::SetNull => "set their reference to null",
    };
    let rows = bound.map_or("no statistics bound the count: give the child's statistics, or expire the rows with a TTL if they may outlive the parent".to_string(), |b| {
        format!("bound: about {} rows per `{parent}`", crate::plan::trim_float(b.round()))
    });
    let found = source.map_or("no table lists them by the reference".to_string(), |t| {
        format!("found in `{t}`")
    });
    let null_key = if action == OnDelete::SetNull {
        "; a table keyed by the reference cannot hold a null key: the row leaves it (deleted, not re-inserted)"
    } else {
        ""
    };
    let per_row = if statements == 0 {
        String::new()
    } else {
        format!("; the path runs {statements} statement(s) per child row ({found}; {rows})")
    };
    format!(
        "ON DELETE {} on `{}.{}`: PostgreSQL {what} when the `{parent}` went{per_row}{null_key}",
        action_word(action),
        child.name,
        fk.join(", ")
    )
}
