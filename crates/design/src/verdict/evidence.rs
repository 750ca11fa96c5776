//! The numbers: how the read rate splits by partitions touched and by why a
//! read is off path, how the write rate splits by kind, Paxos load, rows per
//! logical write, transactions, volume. For the workload and per entity.

use std::collections::HashMap;

use serde::Serialize;

use super::input::{EntityVolume, OffReason, Read, Served, Transaction, VerdictInput, Write};
use crate::querylist::MutationKind;

/// What a share is a share of: the rates of the query list when every
/// statement has one, else the number of statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    Rate,
    QueryCount,
}

/// Off-path reads for one reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OffGroup {
    pub reason: OffReason,
    pub weight: f64,
    pub queries: Vec<String>,
}

/// The reads, weighted by rate (or counted).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ReadMix {
    pub total: f64,
    pub one_partition: f64,
    pub few_partitions: f64,
    pub many_partitions: f64,
    pub many_queries: Vec<String>,
    pub off_path: Vec<OffGroup>,
}

impl ReadMix {
    pub fn off_total(&self) -> f64 {
        self.off_path.iter().map(|g| g.weight).sum()
    }

    /// Off-path reads a relational or analytical engine must answer: all but
    /// the scans of tables small enough to cache.
    pub fn off_needing_engine(&self) -> f64 {
        self.off_path
            .iter()
            .filter(|g| g.reason != OffReason::SmallTableScan)
            .map(|g| g.weight)
            .sum()
    }

    /// `part` as a share of all reads (0 when there are none).
    pub fn share(&self, part: f64) -> f64 {
        if self.total > 0.0 {
            part / self.total
        } else {
            0.0
        }
    }

    fn add(&mut self, r: &Read, weight: f64) {
        self.total += weight;
        match r.served {
            Served::OnePartition => self.one_partition += weight,
            Served::Few(_) => self.few_partitions += weight,
            Served::Many(_) => {
                self.many_partitions += weight;
                self.many_queries.push(r.name.clone());
            }
            Served::Off(reason) => {
                match self.off_path.iter_mut().find(|g| g.reason == reason) {
                    Some(g) => {
                        g.weight += weight;
                        g.queries.push(r.name.clone());
                    }
                    None => self.off_path.push(OffGroup {
                        reason,
                        weight,
                        queries: vec![r.name.clone()],
                    }),
                }
                self.off_path.sort_by_key(|g| g.reason);
            }
        }
    }
}

/// The writes, weighted by rate (or counted).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WriteMix {
    pub total: f64,
    pub inserts: f64,
    pub updates: f64,
    pub deletes: f64,
    /// Lightweight transactions, weighted like the writes.
    pub lwt: f64,
    pub lwt_queries: Vec<String>,
    /// Rows written, weighted like the writes.
    pub rows: f64,
    /// Statements counted at the share of writes they run on (see
    /// [`Write::weighted`]), each once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weighted: Vec<(String, f64)>,
}

impl WriteMix {
    pub fn share(&self, part: f64) -> f64 {
        if self.total > 0.0 {
            part / self.total
        } else {
            0.0
        }
    }

    /// Rows written per logical write.
    pub fn rows_per_write(&self) -> f64 {
        self.share(self.rows)
    }

    fn add(&mut self, w: &Write, weight: f64) {
        self.total += weight;
        match w.kind {
            MutationKind::Insert => self.inserts += weight,
            MutationKind::Update => self.updates += weight,
            MutationKind::Delete => self.deletes += weight,
        }
        self.rows += weight * w.rows;
        for (what, share) in &w.weighted {
            if !self.weighted.iter().any(|(seen, _)| seen == what) {
                self.weighted.push((what.clone(), *share));
            }
        }
        if w.lwt > 0 {
            self.lwt += weight * w.lwt as f64;
            self.lwt_queries.push(w.name.clone());
        }
    }
}

/// One entity's share of the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityEvidence {
    pub entity: String,
    pub reads: ReadMix,
    pub writes: WriteMix,
    /// Mean Paxos rounds per second on one of its partitions (rates known).
    pub lwt_per_partition: Option<f64>,
    /// The transactions that write more than one row of it (or of it and
    /// another entity).
    pub transactions: Vec<Transaction>,
    pub volume: EntityVolume,
}

/// Everything the decision reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub basis: Basis,
    pub reads: ReadMix,
    pub writes: WriteMix,
    pub entities: Vec<EntityEvidence>,
    /// Rows held and rows added per second, over the entities the statistics size.
    pub rows_held: Option<f64>,
    pub rows_per_second: Option<f64>,
    /// The transactions that write more than one row.
    pub transactions: Vec<Transaction>,
}

pub fn gather(input: &VerdictInput) -> Evidence {
    let rated = input.reads.iter().all(|r| r.rate.is_some())
        && input.writes.iter().all(|w| w.rate.is_some())
        && (!input.reads.is_empty() || !input.writes.is_empty());
    let basis = if rated {
        Basis::Rate
    } else {
        Basis::QueryCount
    };
    let weight = |rate: Option<f64>| match basis {
        Basis::Rate => rate.unwrap_or(0.0),
        Basis::QueryCount => 1.0,
    };
    let mut reads = ReadMix::default();
    for r in &input.reads {
        reads.add(r, weight(r.rate));
    }
    let mut writes = WriteMix::default();
    for w in &input.writes {
        writes.add(w, weight(w.rate));
    }
    // Each entity's statements, grouped once (a design of thousands of
    // entities stays linear).
    let mut by_entity: HashMap<&str, (Vec<&Read>, Vec<&Write>)> = HashMap::new();
    for r in &input.reads {
        by_entity.entry(r.entity.as_str()).or_default().0.push(r);
    }
    for w in &input.writes {
        by_entity.entry(w.entity.as_str()).or_default().1.push(w);
    }
    let transactions: Vec<Transaction> = input
        .transactions
        .iter()
        .filter(|t| t.rows_written as f64 > super::thresholds::TRANSACTION_ROWS.value)
        .cloned()
        .collect();
    let entities = input
        .volumes
        .iter()
        .filter_map(|v| entity_evidence(&by_entity, v, &transactions, basis, &weight))
        .collect();
    let sized: Vec<&EntityVolume> = input.volumes.iter().filter(|v| v.rows.is_some()).collect();
    Evidence {
        basis,
        reads,
        writes,
        entities,
        rows_held: (!sized.is_empty()).then(|| sized.iter().filter_map(|v| v.rows).sum()),
        rows_per_second: (!sized.is_empty())
            .then(|| sized.iter().filter_map(|v| v.rows_per_second).sum()),
        transactions,
    }
}

/// `None` for an entity the query list neither reads nor writes.
fn entity_evidence(
    by_entity: &HashMap<&str, (Vec<&Read>, Vec<&Write>)>,
    volume: &EntityVolume,
    transactions: &[Transaction],
    basis: Basis,
    weight: &dyn Fn(Option<f64>) -> f64,
) -> Option<EntityEvidence> {
    let entity = &volume.entity;
    let (own_reads, own_writes) = by_entity
        .get(entity.as_str())
        .map_or((&[][..], &[][..]), |(r, w)| (r.as_slice(), w.as_slice()));
    let mut reads = ReadMix::default();
    for r in own_reads {
        reads.add(r, weight(r.rate));
    }
    let mut writes = WriteMix::default();
    for w in own_writes {
        writes.add(w, weight(w.rate));
    }
    let transactions: Vec<Transaction> = transactions
        .iter()
        .filter(|t| t.entities.contains(entity))
        .cloned()
        .collect();
    if reads.total == 0.0 && writes.total == 0.0 && transactions.is_empty() {
        return None;
    }
    // Paxos per partition: the entity's LWT rate spread over its rows (each
    // row its own partition in the row of record that carries the condition).
    let lwt_per_partition = match (basis, volume.rows) {
        (Basis::Rate, Some(rows)) if writes.lwt > 0.0 && rows >= 1.0 => Some(writes.lwt / rows),
        _ => None,
    };
    Some(EntityEvidence {
        entity: entity.clone(),
        reads,
        writes,
        lwt_per_partition,
        transactions,
        volume: volume.clone(),
    })
}
