//! The compaction strategy and default TTL of each table, from its entity's
//! retention and the rates of the queries and mutations that touch it.

use std::collections::HashMap;

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
    let index = SpecIndex::new(specs);
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
        let touching = index.touching(t);
        let mutations: Vec<&crate::querylist::MutationSpec> = touching
            .iter()
            .filter_map(|&i| match specs.get(i).map(|q| &q.body) {
                Some(Body::Mutation(m)) => Some(m),
                _ => None,
            })
            .collect();
        let rate_of = |kind: crate::querylist::MutationKind| -> f64 {
            touching
                .iter()
                .filter_map(|&i| specs.get(i))
                .filter_map(|q| match &q.body {
                    Body::Mutation(m) if m.kind == kind => Some(q.rate.unwrap_or(0.0)),
                    _ => None,
                })
                .sum()
        };
        let inserts = rate_of(crate::querylist::MutationKind::Insert);
        let updates = rate_of(crate::querylist::MutationKind::Update)
            + rate_of(crate::querylist::MutationKind::Delete);
        let reads: f64 = index
            .reading(t)
            .iter()
            .filter_map(|&i| specs.get(i))
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

/// The specs by name and the mutations by entity, as positions in the list:
/// per table, the specs it is read or written by are looked up, not found by
/// a scan of every spec (the sums below then add them in list order, as the
/// scan did).
struct SpecIndex<'s> {
    by_name: HashMap<&'s str, Vec<usize>>,
    mutations_by_entity: HashMap<&'s str, Vec<usize>>,
}

impl<'s> SpecIndex<'s> {
    fn new(specs: &'s [QuerySpec]) -> Self {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut mutations_by_entity: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, q) in specs.iter().enumerate() {
            by_name.entry(q.name.as_str()).or_default().push(i);
            if let Body::Mutation(m) = &q.body {
                mutations_by_entity
                    .entry(m.entity.as_str())
                    .or_default()
                    .push(i);
            }
        }
        SpecIndex {
            by_name,
            mutations_by_entity,
        }
    }

    /// The mutations of the table's entity or of an entity of its grain.
    fn touching(&self, t: &TableDesign) -> Vec<usize> {
        let mut out: Vec<usize> = std::iter::once(&t.entity)
            .chain(&t.grain)
            .filter_map(|e| self.mutations_by_entity.get(e.as_str()))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The specs named by the table's queries.
    fn reading(&self, t: &TableDesign) -> Vec<usize> {
        let mut out: Vec<usize> = t
            .queries
            .iter()
            .filter_map(|q| self.by_name.get(q.as_str()))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
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
    let index = SpecIndex::new(specs);
    // Each table's statements of the paths with a rate, in path order.
    let mut written: HashMap<
        &str,
        Vec<(
            &crate::writes::WritePath,
            f64,
            &crate::writes::WriteStatement,
        )>,
    > = HashMap::new();
    for w in paths {
        let Some(rate) = w.rate else { continue };
        for st in &w.statements {
            written
                .entry(st.table.as_str())
                .or_default()
                .push((w, rate, st));
        }
    }
    for t in tables.iter_mut() {
        if matches!(t.kind, crate::derive::TableKind::View { .. }) {
            continue;
        }
        let (mut inserts, mut updates) = (0.0, 0.0);
        let mut any = false;
        if let Some(statements) = written.get(t.name.as_str()) {
            for &(w, rate, st) in statements {
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
        let reads: f64 = index
            .reading(t)
            .iter()
            .filter_map(|&i| specs.get(i))
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
