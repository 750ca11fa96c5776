//! `ON DELETE CASCADE` / `ON DELETE SET NULL`: PostgreSQL removed (or
//! detached) the children when their parent went. Cassandra has no foreign
//! keys: the parent's delete path deletes (or updates) the children's rows in
//! every table holding them, once per child row, with the bound stated.

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::units::format_count;
use cqlmodel_stats::{Distribution, Stats, TableStats, Volume, distribution::zipf_top_share};

use super::context::Context;
use super::statements::plan_table;
use super::{ReadSource, Step, WriteStatement};
use crate::derive::{TableDesign, TableKind};
use crate::horizon::Horizon;
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
    // Each parent with its depth and where the cascade found its keys (none
    // for the deleted row itself: the mutation binds them).
    let mut parents: Vec<(String, usize, Option<ReadSource>)> = vec![(m.entity.clone(), 0, None)];
    let mut visited = vec![m.entity.clone()];
    while let Some((parent, depth, found)) = parents.pop() {
        for &child in ctx.children.get(parent.as_str()).into_iter().flatten() {
            for fk in child.foreign_keys.iter().filter(|f| f.table == parent) {
                let Some(action) = fk.on_delete else { continue };
                let cycle = visited.contains(&child.name);
                if let Some(note) = not_planned(cycle, depth, child, fk, &parent, &m.entity) {
                    notes.push(note);
                    continue;
                }
                let child_m = child_mutation(child, &fk.columns, action);
                let source = children_table(ctx.tables, child, &fk.columns);
                let spread = source.and_then(|s| {
                    ctx.named(s).find_map(|t| {
                        super::cascade_buckets::keyed_by_reference(t, child, &fk.columns)
                    })
                });
                let bound = bound((ctx.stats, ctx.horizon), child, &fk.columns, &parent);
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
                        && let Some(st) = partition_delete(ctx, t, child, &fk.columns, &parent)
                    {
                        let mut st = st;
                        if source == Some(t.name.as_str()) {
                            // The other tables' deletes read the children's
                            // keys from these partitions: they go last.
                            st.step = Step::Sweep;
                        }
                        if depth > 0 {
                            below_first_level(&mut st, &parent, &m.entity, found.as_ref());
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
                        repeat_per_child(&mut st, &parent, child, action, (source, spread), &bound);
                        st.reads = vec![children_read(child, &fk.columns, source)];
                        if action == OnDelete::SetNull {
                            bind_null(&mut st, t, child, &fk.columns);
                        }
                        out.push(st);
                        n += 1;
                    }
                }
                let mut note = cascade_note(&parent, child, &fk.columns, action, source, &bound, n);
                note.push_str(&where_else(&parent, &whole, &expiring, n));
                notes.push(note);
                if action == OnDelete::Cascade {
                    visited.push(child.name.clone());
                    parents.push((
                        child.name.clone(),
                        depth + 1,
                        Some(children_read(child, &fk.columns, source)),
                    ));
                }
            }
        }
    }
    out
}

/// Why a cascade is stated and not planned: a reference back up the tree, or
/// more than [`MAX_DEPTH`] levels below the deleted row.
fn not_planned(
    cycle: bool,
    depth: usize,
    child: &Entity,
    fk: &crate::relational::ForeignKey,
    parent: &str,
    root: &str,
) -> Option<String> {
    let action = action_word(fk.on_delete?);
    if cycle {
        return Some(format!(
            "ON DELETE {action} on `{}.{}` refers back to `{parent}` (a tree of rows): the rows below the deleted one are not planned here; delete the subtree by a job that walks it",
            child.name,
            fk.columns.join(", "),
        ));
    }
    (depth >= MAX_DEPTH).then(|| {
        format!(
            "ON DELETE {action} of `{}` is more than {MAX_DEPTH} levels below `{root}`: not planned here, delete those rows by a job",
            child.name
        )
    })
}

/// A partition delete under a parent that is itself a cascaded child: once
/// per such row, its keys those the cascade read one level up.
fn below_first_level(
    st: &mut WriteStatement,
    parent: &str,
    root: &str,
    found: Option<&ReadSource>,
) {
    st.repeat = Some(format!(
        "once per `{parent}` row the cascade from `{root}` deletes{}",
        st.repeat
            .as_deref()
            .map(|r| format!(", and for each {r}"))
            .unwrap_or_default()
    ));
    st.reads_first = Some(format!(
        "the `{parent}` keys the cascade deleted{}",
        st.reads_first
            .as_deref()
            .map(|r| format!("; {r}"))
            .unwrap_or_default()
    ));
    st.reads.splice(0..0, found.cloned());
}

/// The rest of a cascade's note: the tables it empties by partition, the
/// tables left to expire, or that nothing holds the rows.
fn where_else(parent: &str, whole: &[String], expiring: &[String], per_row: usize) -> String {
    let mut note = String::new();
    if !whole.is_empty() {
        note.push_str(&format!(
            "; {} hold{} them as one partition per `{parent}`: one partition delete each",
            whole.join(", "),
            if whole.len() == 1 { "s" } else { "" }
        ));
    }
    if per_row == 0 && whole.is_empty() && expiring.is_empty() {
        note.push_str("; no designed table holds those rows: nothing to delete");
    }
    if !expiring.is_empty() {
        note.push_str(&format!(
            "; {} expire{} by TTL: the children's rows there are left to expire (no per-row deletes, bounded by the TTL); reads that must not show them check the `{parent}` row",
            expiring.join(", "),
            if expiring.len() == 1 { "s" } else { "" }
        ));
    }
    note
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
            // A materialized view serves the read as well (Cassandra keeps it).
            t.grain == [child.name.clone()]
                && matches!(t.kind, TableKind::Table | TableKind::View { .. })
                && super::cascade_buckets::keyed_by_reference(t, child, fk).is_some()
        })
        .map(|t| t.name.as_str())
}

/// The read of the children's keys by their reference to the deleted parent:
/// from `source` when a designed table lists them, else from no table.
fn children_read(child: &Entity, fk: &[String], source: Option<&str>) -> ReadSource {
    match source {
        Some(t) => ReadSource::from_table(&child.name, t, fk),
        None => ReadSource::by(&child.name, fk),
    }
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
/// in one partition per salt value and time bucket: one partition delete per
/// such partition removes them all (one tombstone each), however many rows.
fn partition_delete(
    ctx: &Context<'_>,
    t: &TableDesign,
    child: &Entity,
    fk: &[String],
    parent: &str,
) -> Option<WriteStatement> {
    let spread = super::cascade_buckets::keyed_by_reference(t, child, fk)?;
    let names: Vec<String> = t
        .partition_key
        .iter()
        .map(|p| Some(format!("{} = ?", quote_ident(&t.column_for(p)?.name))))
        .collect::<Option<_>>()?;
    let reach = super::cascade_buckets::reach(ctx, parent, child, spread);
    let (reads_first, reads) = match reach.reads_first {
        Some((text, read)) => (Some(text), vec![read]),
        None => (None, Vec::new()),
    };
    let spread_words = match (spread.bucket, spread.salt) {
        (Some((_, unit)), _) => format!("partition per `{unit}` bucket"),
        (None, Some(_)) => "partition per salt value".to_string(),
        (None, None) => "partition".to_string(),
    };
    Some(WriteStatement {
        table: t.name.clone(),
        cql: format!(
            "DELETE FROM {}.{} WHERE {}",
            quote_ident(ctx.keyspace),
            quote_ident(&t.name),
            names.join(" AND ")
        ),
        repeat: reach.repeat,
        reads_first,
        reads,
        counter: t.kind == TableKind::Counter,
        lwt: false,
        hybrid: false,
        only_when: None,
        step: Step::Plain,
        new_row: false,
        mechanism: String::new(),
        reason: format!(
            "ON DELETE CASCADE: the deleted `{parent}`'s `{}` rows are this table's {spread_words}: one partition delete (one tombstone) each, however many rows",
            child.name
        ),
    })
}

/// Children per parent, from the statistics: the typical parent's and the
/// hottest parent's (under the reference's distribution), and what they rest on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bound {
    pub typical: f64,
    pub hottest: f64,
    pub basis: String,
}

impl Bound {
    /// "at most 1,200 rows per `videos` (stats: …; about 3 for the typical one)".
    fn words(&self, parent: &str) -> String {
        format!(
            "at most {} rows per `{parent}` (stats: {}; about {} for the typical one)",
            format_count(self.hottest.ceil()),
            self.basis,
            format_count(self.typical.round().max(1.0))
        )
    }
}

/// The child's rows (fixed, or grown over its retention or the design's
/// horizon) over the reference's distinct values (given, else the parent's
/// rows), and the hottest value's share under its distribution.
pub(crate) fn bound(
    (stats, horizon): (Option<&Stats>, &Horizon),
    child: &Entity,
    fk: &[String],
    parent: &str,
) -> Option<Bound> {
    let stats = stats?;
    let es = stats
        .tables
        .get(&crate::stats_keys::entity_key(&child.name))?;
    let (rows, volume) = rows_of(es, horizon)?;
    let column = es.column(fk.first()?);
    let (distinct, whence) = match column.and_then(|c| c.distinct) {
        Some(d) => (
            d,
            format!("{} distinct `{}`", format_count(d), fk.join(", ")),
        ),
        None => {
            let p = stats.tables.get(&crate::stats_keys::entity_key(parent))?;
            let (d, _) = rows_of(p, horizon)?;
            (
                d,
                format!(
                    "one `{}` per `{parent}` row, {}",
                    fk.join(", "),
                    format_count(d)
                ),
            )
        }
    };
    let distinct = distinct.max(1.0);
    let typical = rows / distinct;
    let (hottest, shape) = match column.and_then(|c| c.distribution) {
        Some(Distribution::Zipf { exponent }) => (
            rows * zipf_top_share(distinct, exponent),
            format!(", zipf({exponent})"),
        ),
        _ => (typical, String::new()),
    };
    Some(Bound {
        typical,
        hottest: hottest.max(typical),
        basis: format!("{volume}; {whence}{shape}"),
    })
}

/// A table's rows as the statistics give them, and how they were counted:
/// growth over its retention, else the design's one horizon (the age every
/// table is sized at).
fn rows_of(es: &TableStats, horizon: &Horizon) -> Option<(f64, String)> {
    match es.volume {
        Volume::Fixed { rows } => Some((rows, format!("{} rows", format_count(rows)))),
        Volume::Growth { rows_per_second } => {
            let (age, why) = horizon.age_of(es)?;
            Some((
                rows_per_second * age as f64,
                format!(
                    "{}/s over {} ({why})",
                    crate::numbers::trim_float(rows_per_second),
                    cqlmodel_stats::units::format_duration(age)
                ),
            ))
        }
        Volume::Unspecified => None,
    }
}

fn repeat_per_child(
    st: &mut WriteStatement,
    parent: &str,
    child: &Entity,
    action: OnDelete,
    (source, spread): (Option<&str>, Option<super::cascade_buckets::Spread<'_>>),
    bound: &Option<Bound>,
) {
    let rows = bound.as_ref().map_or(
        "the parent's children (no statistics: unbounded as far as the design knows)".to_string(),
        |b| b.words(parent),
    );
    st.repeat = Some(format!(
        "once per `{}` row of the deleted `{parent}` (ON DELETE {}): {rows}",
        child.name,
        action_word(action)
    ));
    st.reads_first = Some(match source {
        Some(t) => format!(
            "the `{}` keys, from `{t}` by the deleted `{parent}`'s key{}",
            child.name,
            match spread.and_then(|s| s.bucket) {
                Some((_, unit)) => format!(
                    ", `{unit}` bucket by `{unit}` bucket over the range its partition deletes reach, before they run"
                ),
                None => String::new(),
            }
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
    bound: &Option<Bound>,
    statements: usize,
) -> String {
    let what = match action {
        OnDelete::Cascade => "deleted its rows",
        OnDelete::SetNull => "set their reference to null",
    };
    let rows = bound.as_ref().map_or("no statistics bound the count: give the child's statistics, or expire the rows with a TTL if they may outlive the parent".to_string(), |b| {
        format!("bound: {}", b.words(parent))
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
