//! The verdict's own input: what the designer already knows about each read,
//! each write, each transaction and each entity's volume, reduced to the facts
//! the fit verdict weighs. Built from a [`Design`]; tests may build it by hand.

use std::collections::HashMap;

use cqlmodel_stats::{Retention, Stats, Volume};
use serde::Serialize;

use crate::plan::{Design, PerKeyPlan, entity_key};
use crate::querylist::{Body, MutationKind, QuerySpec};
use crate::reads::QueryPlan;
use crate::select::SelectSpec;
use crate::writes::{Step, WritePath};

use super::thresholds::{CACHEABLE_ROWS, FEW_PARTITIONS, GROWTH_HORIZON_SECONDS};

/// Why a read stays off the OLTP path, by what it needs that no key gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OffReason {
    /// A text match no key serves (`LIKE`, `ILIKE`, `~`, `@@`): a search index's job.
    TextSearch,
    /// A filter no key serves (`OR`, `<>`, a function of a column, ranges on two attributes).
    AdHocFilter,
    /// An aggregate with no equality to key it (`GROUP BY` over everything).
    AggregateWithoutKey,
    /// A join over entities with no key to denormalize it by.
    JoinAtReadTime,
    /// No equality: every partition would be read.
    FullScan,
    /// A full scan of a table small enough to cache whole (see
    /// [`CACHEABLE_ROWS`](super::thresholds::CACHEABLE_ROWS)).
    SmallTableScan,
    /// Keyed, but declared `@path analytics|admin|migration`.
    Declared,
}

impl OffReason {
    pub fn words(self) -> &'static str {
        match self {
            OffReason::TextSearch => "ad-hoc filter (text search)",
            OffReason::AdHocFilter => "ad-hoc filter",
            OffReason::AggregateWithoutKey => "aggregate without key",
            OffReason::JoinAtReadTime => "join at read time",
            OffReason::FullScan => "full scan",
            OffReason::SmallTableScan => "full scan of a small table",
            OffReason::Declared => "declared off the OLTP path",
        }
    }
}

/// How many partitions a read touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "partitions")]
pub enum Served {
    OnePartition,
    /// 2 to [`FEW_PARTITIONS`] partitions.
    Few(u64),
    /// More than [`FEW_PARTITIONS`], or a number known only at run time.
    Many(Option<u64>),
    Off(OffReason),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Read {
    pub name: String,
    /// The entity whose rows it returns.
    pub entity: String,
    pub rate: Option<f64>,
    pub served: Served,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Write {
    pub name: String,
    pub entity: String,
    pub kind: MutationKind,
    pub rate: Option<f64>,
    /// Rows written per execution: one per table statement, the mean fan-out
    /// for a statement repeated per related row.
    pub rows: f64,
    /// Lightweight transactions (Paxos) per execution.
    pub lwt: usize,
    /// PostgreSQL read the row before changing it (`n = n + 1`, `AND x = $2`).
    pub reads_row: bool,
    /// Statements run on a share of the executions only (the per-key
    /// hybrid's counter and promotion), counted in `rows` at that share:
    /// what each is and its share.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weighted: Vec<(String, f64)>,
}

/// A `BEGIN … COMMIT` group of the query list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transaction {
    pub name: String,
    pub rate: Option<f64>,
    /// The entities its writes change, in order of first write.
    pub entities: Vec<String>,
    /// Rows it writes (one per mutation statement: each names its row).
    pub rows_written: usize,
    /// It reads or checks what it writes (a SELECT, a condition or an
    /// increment inside): it needs isolation, not only atomicity.
    pub needs_isolation: bool,
}

/// How much data an entity holds, from the statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityVolume {
    pub entity: String,
    /// Rows held now (fixed tables) or at retention / the sizing horizon.
    pub rows: Option<f64>,
    /// Rows added per second, for a growing table.
    pub rows_per_second: Option<f64>,
}

/// Everything the verdict weighs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct VerdictInput {
    pub reads: Vec<Read>,
    pub writes: Vec<Write>,
    pub transactions: Vec<Transaction>,
    pub volumes: Vec<EntityVolume>,
}

impl VerdictInput {
    pub fn from_design(d: &Design) -> Self {
        // By name: a design of thousands of tables and statements stays linear.
        let specs: HashMap<&str, &QuerySpec> =
            d.specs.iter().map(|s| (s.name.as_str(), s)).collect();
        let spec = |name: &str| specs.get(name).copied();
        let tables: HashMap<&str, &str> = d
            .tables
            .iter()
            .map(|t| (t.name.as_str(), t.entity.as_str()))
            .collect();
        let volumes: Vec<EntityVolume> = d
            .model
            .entities
            .iter()
            .map(|e| volume_of(&e.name, d.entity_stats.as_ref()))
            .collect();
        let rows: HashMap<&str, Option<f64>> = volumes
            .iter()
            .map(|v| (v.entity.as_str(), v.rows))
            .collect();
        let reads = d
            .queries
            .iter()
            .map(|q| read_of(q, &tables, spec(&q.name), &rows))
            .collect();
        let writes = d
            .write_paths
            .iter()
            .map(|w| write_of(w, spec(&w.name), &d.per_key))
            .collect();
        let transactions = d
            .transactions
            .iter()
            .map(|t| transaction_of(t, &specs))
            .collect();
        VerdictInput {
            reads,
            writes,
            transactions,
            volumes,
        }
    }
}

fn read_of(
    q: &QueryPlan,
    tables: &HashMap<&str, &str>,
    spec: Option<&QuerySpec>,
    rows: &HashMap<&str, Option<f64>>,
) -> Read {
    let select = spec.and_then(|s| match &s.body {
        Body::Select(sel) => Some(sel),
        Body::Mutation(_) => None,
    });
    let table_entity = q
        .table
        .as_deref()
        .and_then(|t| tables.get(t))
        .map(|e| e.to_string());
    let entity = table_entity
        .or_else(|| select.and_then(|s| s.entities.first().cloned()))
        .unwrap_or_default();
    let served = if q.off_path.is_some() {
        let rows = rows.get(entity.as_str()).copied().flatten();
        Served::Off(match select.map_or(OffReason::Declared, off_reason) {
            OffReason::FullScan if rows.is_some_and(|r| r <= CACHEABLE_ROWS.value) => {
                OffReason::SmallTableScan
            }
            other => other,
        })
    } else {
        match q.partitions {
            Some(1) => Served::OnePartition,
            Some(n) if n <= FEW_PARTITIONS => Served::Few(n),
            other => Served::Many(other),
        }
    };
    Read {
        name: q.name.clone(),
        entity,
        rate: q.rate,
        served,
    }
}

/// The first thing the read needs that no key gives: an aggregate over
/// everything is an analytical question whatever it filters; then the
/// filter, the join, the scan.
fn off_reason(s: &SelectSpec) -> OffReason {
    let text_match = |f: &String| {
        let f = f.to_ascii_uppercase();
        ["LIKE", "~", "@@", "SIMILAR TO"]
            .iter()
            .any(|op| f.contains(op))
    };
    if s.equalities.is_empty() && (!s.aggregates.is_empty() || !s.group_by.is_empty()) {
        OffReason::AggregateWithoutKey
    } else if s.ad_hoc.iter().any(text_match) {
        OffReason::TextSearch
    } else if !s.ad_hoc.is_empty() || s.ranges.len() > 1 {
        OffReason::AdHocFilter
    } else if s.equalities.is_empty() && s.entities.len() > 1 {
        OffReason::JoinAtReadTime
    } else if s.equalities.is_empty() {
        OffReason::FullScan
    } else {
        OffReason::Declared
    }
}

fn write_of(w: &WritePath, spec: Option<&QuerySpec>, per_key: &[PerKeyPlan]) -> Write {
    let repeated = w.statements.iter().filter(|s| s.repeat.is_some()).count();
    let fan_out = w.write_amplification.unwrap_or(repeated as f64);
    // A repeated statement's rows: the path's fan-out spread over them.
    let per_repeat = fan_out / repeated.max(1) as f64;
    let mut rows = 0.0;
    let mut weighted = Vec::new();
    for st in &w.statements {
        let each = if st.repeat.is_some() { per_repeat } else { 1.0 };
        match crate::plan::bookkeeping_share(per_key, st) {
            Some((share, what)) => {
                rows += each * share;
                weighted.push((what, share));
            }
            None => rows += each,
        }
    }
    let lwt = w
        .statements
        .iter()
        .filter(|s| s.lwt || !matches!(s.step, Step::Plain | Step::Increment | Step::Sweep))
        .count();
    let reads_row = spec.is_some_and(|s| match &s.body {
        Body::Mutation(m) => !m.conditions.is_empty() || !m.increments.is_empty(),
        Body::Select(_) => false,
    });
    Write {
        name: w.name.clone(),
        entity: w.entity.clone(),
        kind: w.kind,
        rate: w.rate,
        rows,
        lwt,
        reads_row,
        weighted,
    }
}

fn transaction_of(
    t: &crate::querylist::Transaction,
    specs: &HashMap<&str, &QuerySpec>,
) -> Transaction {
    let mut entities: Vec<String> = Vec::new();
    let mut rows_written = 0;
    let mut needs_isolation = false;
    let mut rate = t.rate;
    for spec in t.members.iter().filter_map(|n| specs.get(n.as_str())) {
        match &spec.body {
            Body::Select(_) => needs_isolation = true,
            Body::Mutation(m) => {
                rows_written += 1;
                needs_isolation |= !m.conditions.is_empty() || !m.increments.is_empty();
                if !entities.contains(&m.entity) {
                    entities.push(m.entity.clone());
                }
            }
        }
        // Without a rate of its own, the transaction runs as often as its
        // busiest statement.
        if t.rate.is_none() {
            rate = match (rate, spec.rate) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
        }
    }
    Transaction {
        name: t.name.clone(),
        rate,
        entities,
        rows_written,
        needs_isolation,
    }
}

fn volume_of(entity: &str, stats: Option<&Stats>) -> EntityVolume {
    let ts = stats.and_then(|s| s.tables.get(&entity_key(entity)));
    let (rows, rows_per_second) = match ts.map(|t| (t.volume, t.retention, t.horizon)) {
        Some((Volume::Fixed { rows }, _, _)) => (Some(rows), None),
        Some((Volume::Growth { rows_per_second }, retention, horizon)) => {
            let age = match retention {
                Retention::Seconds(s) => s,
                Retention::TableDefault | Retention::Unbounded => {
                    horizon.unwrap_or(GROWTH_HORIZON_SECONDS)
                }
            };
            (Some(rows_per_second * age as f64), Some(rows_per_second))
        }
        _ => (None, None),
    };
    EntityVolume {
        entity: entity.to_string(),
        rows,
        rows_per_second,
    }
}
