//! Statics under a bucket or a salt (issue 10 §2). A static column lives once
//! per partition; once sizing splits one key's rows over time buckets or salt
//! buckets, the value would have to be written to every bucket: an unbounded
//! number for time buckets (a new bucket starts empty, its static null), N
//! statements per change for a salt. The design keeps such a value once, in
//! the owning entity's own table, and the reads fetch it from there: one write
//! per change, one more partition per read.

use cqlmodel_stats::Stats;

use super::derived::derived_stats;
use crate::derive::{KeyPart, Role, TableDesign, TableKind, candidate_names};
use crate::querylist::QuerySpec;
use crate::reads::QueryPlan;
use crate::relational::Model;
use crate::select::ColRef;

/// Statics taken out of a split table: where each now lives.
#[derive(Debug, Clone)]
pub(super) struct MovedStatics {
    pub table: String,
    /// The attribute and the table that now holds it (by the entity's key).
    pub moved: Vec<(ColRef, String)>,
}

/// Takes the static columns out of every bucketed or salted table, makes sure
/// the owning entity's own table holds them, and renames a table that was
/// named after the parent whose statics it no longer holds.
pub(super) fn move_statics(
    model: &Model,
    keyspace: &str,
    specs: &[QuerySpec],
    stats: &Stats,
    tables: &mut Vec<TableDesign>,
    table_stats: &mut Stats,
    warnings: &mut [String],
) -> Vec<MovedStatics> {
    let mut out = Vec::new();
    for i in 0..tables.len() {
        let Some(t) = tables.get_mut(i) else { continue };
        let Some(split) = split_by(t) else { continue };
        let statics: Vec<ColRef> = t
            .columns
            .iter()
            .filter(|c| c.role == Role::Static)
            .filter_map(|c| match &c.part {
                KeyPart::Attr(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        if statics.is_empty() {
            continue;
        }
        t.columns.retain(|c| c.role != Role::Static);
        let old_name = t.name.clone();
        let named_by_query = specs
            .iter()
            .any(|q| q.table.as_deref() == Some(old_name.as_str()));
        if !named_by_query {
            rename(tables, i);
        }
        let mut moved = Vec::new();
        for a in &statics {
            let holder = holder_of(model, keyspace, stats, a, tables, table_stats);
            moved.push((a.clone(), holder.unwrap_or_default()));
        }
        let Some(t) = tables.get_mut(i) else { continue };
        // Sizing's warnings named the table before it was renamed.
        let (old, new) = (format!("{old_name}: "), format!("{}: ", t.name));
        for w in warnings.iter_mut().filter(|w| w.starts_with(&old)) {
            *w = w.replacen(&old, &new, 1);
        }
        let names: Vec<String> = moved
            .iter()
            .map(|(a, h)| format!("`{}` in `{h}`", a.column))
            .collect();
        t.decisions.push(format!(
            "statics under {split}: the static value would live once per bucket, and every change would be written to every bucket ({}); kept once in the owning entity's table instead: {} (write fan-out: 1 statement per change; each read of this table reads that one partition too)",
            fan_out_of(t),
            names.join(", ")
        ));
        let stats_key = format!("{keyspace}.{old_name}");
        table_stats.tables.remove(&stats_key);
        table_stats.tables.insert(
            format!("{keyspace}.{}", t.name),
            derived_stats(model, t, stats),
        );
        out.push(MovedStatics {
            table: t.name.clone(),
            moved,
        });
    }
    out
}

/// The bucket or salt that splits one key's rows, in words.
fn split_by(t: &TableDesign) -> Option<String> {
    if t.kind != TableKind::Table {
        return None;
    }
    t.partition_key.iter().find_map(|p| match p {
        KeyPart::Bucket(src, unit) => Some(format!("a `{unit}` bucket of `{}`", src.column)),
        KeyPart::Salt(n) => Some(format!("salt {n}")),
        _ => None,
    })
}

fn fan_out_of(t: &TableDesign) -> String {
    t.partition_key
        .iter()
        .find_map(|p| match p {
            KeyPart::Bucket(_, unit) => Some(format!(
                "one per `{unit}` bucket ever written, unbounded without retention"
            )),
            KeyPart::Salt(n) => Some(format!("{n} statements per change")),
            _ => None,
        })
        .unwrap_or_default()
}

/// The first free name the table's key gives it now that no parent row is
/// part of its partitions.
fn rename(tables: &mut [TableDesign], i: usize) {
    let Some(t) = tables.get(i) else { return };
    let taken = |n: &String| {
        tables
            .iter()
            .enumerate()
            .any(|(j, x)| j != i && x.name == *n)
    };
    // Named by the key the reads bind: the bucket or salt sizing added is no
    // part of the name (as before sizing).
    let mut unsplit = t.clone();
    unsplit
        .partition_key
        .retain(|p| !matches!(p, KeyPart::Bucket(..) | KeyPart::Salt(_)));
    let Some(free) = candidate_names(&unsplit).into_iter().find(|n| !taken(n)) else {
        return;
    };
    if let Some(t) = tables.get_mut(i) {
        t.name = free;
    }
}

/// The table holding the entity's row by its primary key with the attribute:
/// an existing one, else the entity's own table made (or widened) for it.
fn holder_of(
    model: &Model,
    keyspace: &str,
    stats: &Stats,
    a: &ColRef,
    tables: &mut Vec<TableDesign>,
    table_stats: &mut Stats,
) -> Option<String> {
    let e = model.entity(&a.entity)?;
    let holds = |t: &TableDesign| {
        t.kind == TableKind::Table
            && split_by(t).is_none()
            && t.rows_by_primary_key(e)
            && t.column_of(a).is_some()
    };
    if let Some(t) = tables.iter().find(|t| holds(t)) {
        return Some(t.name.clone());
    }
    let why = format!("its `{}` is no static of a bucketed table", a.column);
    if let Some(i) = crate::lookups::ensure_lookup(model, &a.entity, tables, &why)
        && let Some(t) = tables.get(i)
    {
        table_stats.tables.insert(
            format!("{keyspace}.{}", t.name),
            derived_stats(model, t, stats),
        );
    }
    tables.iter().find(|t| holds(t)).map(|t| t.name.clone())
}

/// Each read of a table whose statics moved, and that reads them, notes the
/// second read and counts its partition.
pub(super) fn note_reads(moved: &[MovedStatics], specs: &[QuerySpec], queries: &mut [QueryPlan]) {
    for m in moved {
        for q in queries
            .iter_mut()
            .filter(|q| q.table.as_deref() == Some(m.table.as_str()))
        {
            let Some(spec) = specs.iter().find_map(|s| match &s.body {
                crate::querylist::Body::Select(sel) if s.name == q.name => Some(sel),
                _ => None,
            }) else {
                continue;
            };
            let mut counted: Vec<&String> = Vec::new();
            for (a, holder) in &m.moved {
                if !spec.projection.contains(a) {
                    continue;
                }
                q.notes.push(format!(
                    "`{}` is read from `{holder}` by the `{}` key: it is kept once there, not in every bucket of `{}`",
                    a.column, a.entity, m.table
                ));
                if !counted.contains(&holder) {
                    counted.push(holder);
                    q.partitions = q.partitions.map(|p| p.saturating_add(1));
                }
            }
        }
    }
}
