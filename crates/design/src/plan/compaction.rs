//! The compaction strategy and default TTL of each table, from its entity's
//! retention and the rates of the queries and mutations that touch it.

use cqlmodel_stats::{Retention, Stats, Volume};

use super::{entity_key, trim_float};
use crate::derive::{KeyPart, TableDesign};
use crate::querylist::{Body, QuerySpec};
use crate::relational::Model;

/// TWCS for append-only time series with a TTL, LCS for read-heavy or
/// update-heavy tables, STCS otherwise.
pub(super) fn choose_compaction(
    model: &Model,
    specs: &[QuerySpec],
    stats: Option<&Stats>,
    tables: &mut [TableDesign],
) {
    for t in tables.iter_mut() {
        let retention = stats
            .and_then(|s| s.tables.get(&entity_key(&t.entity)))
            .map(|s| s.retention);
        t.ttl = match retention {
            // Cassandra refuses default_time_to_live on a counter table.
            Some(Retention::Seconds(_)) if t.kind == crate::derive::TableKind::Counter => {
                t.decisions.push(format!(
                    "no default_time_to_live: a counter cannot expire; the count includes `{}` rows older than their retention unless a job decrements it",
                    t.entity
                ));
                None
            }
            Some(Retention::Seconds(s)) => Some(s),
            // A TTL that replaces a retention job (`records`), else none.
            _ => t.ttl,
        };
        let mutations: Vec<&crate::querylist::MutationSpec> = specs
            .iter()
            .filter_map(|q| match &q.body {
                Body::Mutation(m) if m.entity == t.entity || t.grain.contains(&m.entity) => Some(m),
                _ => None,
            })
            .collect();
        let rate_of = |kind: crate::querylist::MutationKind| -> f64 {
            specs
                .iter()
                .filter_map(|q| match &q.body {
                    Body::Mutation(m)
                        if (m.entity == t.entity || t.grain.contains(&m.entity))
                            && m.kind == kind =>
                    {
                        Some(q.rate.unwrap_or(0.0))
                    }
                    _ => None,
                })
                .sum()
        };
        let inserts = rate_of(crate::querylist::MutationKind::Insert);
        let updates = rate_of(crate::querylist::MutationKind::Update)
            + rate_of(crate::querylist::MutationKind::Delete);
        let reads: f64 = specs
            .iter()
            .filter(|q| t.queries.contains(&q.name))
            .filter_map(|q| q.rate)
            .sum();
        // Append-only: nothing but inserts, or (with rates) updates and deletes
        // under 1% of the inserts, e.g. a rare erasure request: TWCS copes with
        // those, and the TTL expires the rest.
        let append_only = !mutations.is_empty()
            && (mutations
                .iter()
                .all(|m| m.kind == crate::querylist::MutationKind::Insert)
                || (inserts > 0.0 && updates <= 0.01 * inserts));
        let time_clustered = time_clustered(model, t);
        let growing = stats
            .and_then(|s| s.tables.get(&entity_key(&t.entity)))
            .is_some_and(|s| matches!(s.volume, Volume::Growth { .. }));
        let (class, reason) = decide(
            t.ttl.is_some(),
            append_only && time_clustered,
            reads,
            inserts,
            updates,
            growing,
        );
        t.compaction = class.into();
        t.compaction_reason = reason;
        if let Some(ttl) = t.ttl {
            t.decisions.push(format!(
                "default_time_to_live {ttl} s from the retention of `{}`",
                t.entity
            ));
        }
    }
}

fn time_clustered(model: &Model, t: &TableDesign) -> bool {
    t.clustering.first().is_some_and(|(p, _)| {
        matches!(p, KeyPart::Attr(c) if crate::derive::attr_type(model, c).is_some_and(|ty| crate::pgtypes::is_time(&ty)))
    })
}

/// The rule itself: TWCS for append-only time series with a TTL, LCS for
/// read-heavy or update-heavy tables, STCS otherwise.
fn decide(
    ttl: bool,
    append_only_series: bool,
    reads: f64,
    inserts: f64,
    updates: f64,
    growing: bool,
) -> (&'static str, String) {
    if ttl && append_only_series {
        (
            "TimeWindowCompactionStrategy",
            "append-only time series with a TTL: whole SSTables expire by time window".to_string(),
        )
    } else if reads > 0.0 && reads >= inserts + updates {
        (
            "LeveledCompactionStrategy",
            format!(
                "read-heavy ({}/s reads vs {}/s writes): LCS bounds the SSTables a read touches",
                trim_float(reads),
                trim_float(inserts + updates)
            ),
        )
    } else if updates > 0.0 && updates >= inserts {
        (
            "LeveledCompactionStrategy",
            format!(
                "update-heavy ({}/s updates and deletes vs {}/s inserts): LCS keeps a row's versions together",
                trim_float(updates),
                trim_float(inserts)
            ),
        )
    } else if growing || inserts > 0.0 {
        (
            "SizeTieredCompactionStrategy",
            format!(
                "write-heavy ({}/s rows written vs {}/s reads): STCS, the cheapest to write",
                trim_float(inserts + updates),
                trim_float(reads)
            ),
        )
    } else {
        (
            "SizeTieredCompactionStrategy",
            "no read- or update-heavy signal: STCS, the default".to_string(),
        )
    }
}

/// The rates a table really receives are those of its write paths: a
/// timeline row per follower per post (fan-out), not the posts' rate. With
/// the paths known, each table's compaction is decided again on them.
pub(super) fn refine_compaction(
    model: &Model,
    specs: &[QuerySpec],
    paths: &[crate::writes::WritePath],
    tables: &mut [TableDesign],
) {
    for t in tables.iter_mut() {
        if matches!(t.kind, crate::derive::TableKind::View { .. }) {
            continue;
        }
        let (mut inserts, mut updates) = (0.0, 0.0);
        let mut any = false;
        for w in paths {
            let Some(rate) = w.rate else { continue };
            for st in w.statements.iter().filter(|s| s.table == t.name) {
                let rows = if st.repeat.is_some() {
                    w.write_amplification.unwrap_or(1.0)
                } else {
                    1.0
                };
                any = true;
                if w.kind == crate::querylist::MutationKind::Insert && !st.cql.starts_with("DELETE")
                {
                    inserts += rate * rows;
                } else {
                    updates += rate * rows;
                }
            }
        }
        if !any {
            continue;
        }
        let reads: f64 = specs
            .iter()
            .filter(|q| t.queries.contains(&q.name))
            .filter_map(|q| q.rate)
            .sum();
        let append_only = updates <= 0.01 * inserts && inserts > 0.0;
        let (class, reason) = decide(
            t.ttl.is_some(),
            append_only && time_clustered(model, t),
            reads,
            inserts,
            updates,
            false,
        );
        t.compaction = class.into();
        t.compaction_reason = reason;
    }
}
