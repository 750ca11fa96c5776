//! The workload's shape against an existing schema, in the style of the
//! design's fit verdict: the share of the query list (by `@rate`, else by
//! count) that reads one partition, the reads off the OLTP path by reason,
//! and the load of lightweight transactions and batches. Each line names the
//! threshold it is compared with (docs/verdict.md).

use cqlmodel_cql::ast::{Conditions, Statement, StatementKind};
use cqlmodel_schema::access::{AccessKind, StatementType};
use serde::Serialize;

use crate::config::Thresholds;
use crate::query::Query;

/// A share of the read rate above this off the OLTP path, or spread over more
/// partitions than `scatter_gather_partitions`, is called out.
pub const READ_SHARE_LIMIT: f64 = 0.1;
/// A share of the write rate above this running Paxos is called out.
pub const LWT_SHARE_LIMIT: f64 = 0.1;

/// Why a read is off the OLTP path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OffPath {
    /// No partition key: a scan of token ranges.
    FullScan,
    /// A secondary index queried across partitions.
    IndexAcrossPartitions,
    /// Rows read and discarded (`ALLOW FILTERING`).
    Filtering,
    /// Cassandra rejects it.
    Rejected,
}

impl OffPath {
    pub fn words(self) -> &'static str {
        match self {
            OffPath::FullScan => "full scan",
            OffPath::IndexAcrossPartitions => "secondary index across partitions",
            OffPath::Filtering => "filtering (ALLOW FILTERING)",
            OffPath::Rejected => "rejected by Cassandra",
        }
    }
}

/// Reads off path for one reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OffGroup {
    pub reason: OffPath,
    pub weight: f64,
    pub queries: Vec<String>,
}

/// The query list's shape. Weights are rates (per second) when every
/// statement has a `@rate`, else statement counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `rate` or `query_count`.
    pub basis: &'static str,
    pub reads: f64,
    pub single_partition: f64,
    /// 2 to `scatter_gather_partitions` partitions.
    pub few_partitions: f64,
    /// More partitions, or a number known only at run time.
    pub many_partitions: f64,
    pub many_queries: Vec<String>,
    pub off_path: Vec<OffGroup>,
    pub writes: f64,
    pub lwt: f64,
    pub lwt_queries: Vec<String>,
    pub batches: f64,
    /// Batches spanning more than one partition.
    pub multi_partition_batches: f64,
    pub batch_queries: Vec<String>,
    /// Statements per batch, weighted like the batches.
    pub statements_per_batch: f64,
}

fn share(part: f64, total: f64) -> f64 {
    if total > 0.0 { part / total } else { 0.0 }
}

/// The summary of a query list, `None` when it has no statement to weigh.
pub fn summarize(queries: &[Query], thresholds: &Thresholds) -> Option<Summary> {
    let weighed: Vec<&Query> = queries
        .iter()
        .filter(|q| q.is_read() || q.is_write())
        .collect();
    if weighed.is_empty() {
        return None;
    }
    let rated = weighed.iter().all(|q| q.rate.is_some());
    let weight = |q: &Query| if rated { q.rate.unwrap_or(0.0) } else { 1.0 };
    let mut s = Summary {
        basis: if rated { "rate" } else { "query_count" },
        reads: 0.0,
        single_partition: 0.0,
        few_partitions: 0.0,
        many_partitions: 0.0,
        many_queries: Vec::new(),
        off_path: Vec::new(),
        writes: 0.0,
        lwt: 0.0,
        lwt_queries: Vec::new(),
        batches: 0.0,
        multi_partition_batches: 0.0,
        batch_queries: Vec::new(),
        statements_per_batch: 0.0,
    };
    for q in weighed {
        let w = weight(q);
        if q.is_read() {
            add_read(&mut s, q, w, thresholds.scatter_gather_partitions);
        } else {
            add_write(&mut s, q, w);
        }
    }
    s.statements_per_batch = share(s.statements_per_batch, s.batches);
    s.off_path.sort_by_key(|g| g.reason);
    Some(s)
}

fn add_read(s: &mut Summary, q: &Query, w: f64, few: u64) {
    s.reads += w;
    let p = &q.path;
    let off = if p.error.is_some() || p.kind == AccessKind::Invalid {
        Some(OffPath::Rejected)
    } else if p.filtering || p.needs_allow_filtering {
        Some(OffPath::Filtering)
    } else if p.kind == AccessKind::RangeScan && p.index.is_some() {
        Some(OffPath::IndexAcrossPartitions)
    } else if p.kind == AccessKind::RangeScan {
        Some(OffPath::FullScan)
    } else {
        None
    };
    if let Some(reason) = off {
        match s.off_path.iter_mut().find(|g| g.reason == reason) {
            Some(g) => {
                g.weight += w;
                g.queries.push(q.name.clone());
            }
            None => s.off_path.push(OffGroup {
                reason,
                weight: w,
                queries: vec![q.name.clone()],
            }),
        }
        return;
    }
    match p.partitions {
        Some(1) if p.kind == AccessKind::SinglePartition => s.single_partition += w,
        Some(n) if n <= few => s.few_partitions += w,
        _ => {
            s.many_partitions += w;
            s.many_queries.push(q.name.clone());
        }
    }
}

fn add_write(s: &mut Summary, q: &Query, w: f64) {
    s.writes += w;
    let statements: Vec<&Statement> = match &q.statement.kind {
        StatementKind::Batch(b) => b.statements.iter().collect(),
        _ => vec![&q.statement],
    };
    let conditional = statements.iter().filter(|st| is_conditional(st)).count();
    if conditional > 0 {
        s.lwt += w;
        s.lwt_queries.push(q.name.clone());
    }
    if q.path.statement == StatementType::Batch {
        s.batches += w;
        s.statements_per_batch += w * statements.len() as f64;
        s.batch_queries.push(q.name.clone());
        if q.path.partitions.is_none_or(|n| n > 1) {
            s.multi_partition_batches += w;
        }
    }
}

fn is_conditional(st: &Statement) -> bool {
    match &st.kind {
        StatementKind::Insert(i) => i.if_not_exists,
        StatementKind::Update(u) => u.conditions.is_some(),
        StatementKind::Delete(d) => {
            matches!(d.conditions, Some(Conditions::IfExists | Conditions::If(_)))
        }
        _ => false,
    }
}

/// `96.3%`; a share that is not zero never prints as `0%`, nor one short of
/// all as `100%`.
fn pct(x: f64) -> String {
    let p = x * 100.0;
    if p > 0.0 && p < 0.1 {
        "<0.1%".into()
    } else if (99.95..100.0).contains(&p) {
        ">99.9%".into()
    } else {
        let r = (p * 10.0).round() / 10.0;
        if r.fract() == 0.0 {
            format!("{r:.0}%")
        } else {
            format!("{r:.1}%")
        }
    }
}

impl Summary {
    fn amount(&self, w: f64) -> String {
        if self.basis == "rate" {
            if w >= 1.0 || w == 0.0 {
                format!("{}/s", w.round())
            } else {
                format!("{w:.3}/s")
            }
        } else {
            let n = w.round();
            format!("{n} {}", if n == 1.0 { "query" } else { "queries" })
        }
    }

    /// The summary as text lines, each with the threshold it is compared with.
    pub fn lines(&self, few: u64) -> Vec<String> {
        let names = |v: &[String]| {
            v.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let verdict = |crossed: bool| if crossed { "crossed" } else { "within" };
        let mut out = vec![format!(
            "basis: {}",
            if self.basis == "rate" {
                "shares weigh each statement by its @rate"
            } else {
                "shares count statements: not every statement has a @rate"
            }
        )];
        if self.reads > 0.0 {
            let many = share(self.many_partitions, self.reads);
            out.push(format!(
                "reads {}: {} from one partition, {} from 2–{few}, {} from more{} [scatter-share {} of the read rate: {}]",
                self.amount(self.reads),
                pct(share(self.single_partition, self.reads)),
                pct(share(self.few_partitions, self.reads)),
                pct(many),
                if self.many_queries.is_empty() { String::new() } else { format!(" ({})", names(&self.many_queries)) },
                pct(READ_SHARE_LIMIT),
                verdict(many > READ_SHARE_LIMIT)
            ));
            // A fold from +0.0: an empty float `sum()` is -0.0, printed "-0%".
            let off: f64 = self.off_path.iter().fold(0.0, |sum, g| sum + g.weight);
            let detail: Vec<String> = self
                .off_path
                .iter()
                .map(|g| {
                    format!(
                        "{} {}: {}",
                        g.reason.words(),
                        pct(share(g.weight, self.reads)),
                        names(&g.queries)
                    )
                })
                .collect();
            out.push(format!(
                "off-path: {} of reads{} [off-path-share {} of the read rate: {}]",
                pct(share(off, self.reads)),
                if detail.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", detail.join("; "))
                },
                pct(READ_SHARE_LIMIT),
                verdict(share(off, self.reads) > READ_SHARE_LIMIT)
            ));
        }
        if self.writes > 0.0 {
            let lwt = share(self.lwt, self.writes);
            out.push(format!(
                "lwt: {} of {} of writes run Paxos{}: four round trips to a quorum each (about two with paxos_variant v2) [lwt-share {} of the write rate: {}]",
                pct(lwt),
                self.amount(self.writes),
                if self.lwt_queries.is_empty() { String::new() } else { format!(" ({})", names(&self.lwt_queries)) },
                pct(LWT_SHARE_LIMIT),
                verdict(lwt > LWT_SHARE_LIMIT)
            ));
            if self.batches == 0.0 {
                out.push("batches: none among the writes".into());
                return out;
            }
            out.push(format!(
                "batches: {} of writes are batches{}, {} of them over more than one partition, {} statements per batch",
                pct(share(self.batches, self.writes)),
                if self.batch_queries.is_empty() { String::new() } else { format!(" ({})", names(&self.batch_queries)) },
                pct(share(self.multi_partition_batches, self.batches)),
                (self.statements_per_batch * 10.0).round() / 10.0
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use cqlmodel_schema::build_schema;

    use super::*;
    use crate::load_queries;

    const SCHEMA: &str = "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
        CREATE TABLE shop.orders (user_id text, placed_at timestamp, order_id uuid, total int,
            PRIMARY KEY (user_id, placed_at, order_id));
        CREATE TABLE shop.users (user_id text PRIMARY KEY, email text);";

    fn summary_of(queries: &str) -> Option<Summary> {
        let schema = build_schema(0, &cqlmodel_cql::parse(SCHEMA).statements).schema;
        let parsed = cqlmodel_cql::parse(queries);
        let (q, _) = load_queries(&schema, 1, &parsed, Some("shop"), 1);
        summarize(&q, &Thresholds::default())
    }

    #[test]
    fn shares_weigh_reads_and_writes_by_rate() {
        let s = summary_of(
            "-- @name orders_of_user @rate 900/s
             SELECT * FROM orders WHERE user_id = ?;
             -- @name all_orders @rate 100/s
             SELECT * FROM orders;
             -- @name sign_up @rate 30/s
             INSERT INTO users (user_id, email) VALUES (?, ?) IF NOT EXISTS;
             -- @name place @rate 70/s
             BEGIN BATCH
               INSERT INTO orders (user_id, placed_at, order_id, total) VALUES (?, ?, ?, ?);
               UPDATE users SET email = ? WHERE user_id = ?;
             APPLY BATCH;",
        );
        let Some(s) = s else { panic!("a summary") };
        assert_eq!(s.basis, "rate");
        assert_eq!((s.reads, s.single_partition), (1000.0, 900.0));
        assert_eq!(
            s.off_path.first().map(|g| (g.reason, g.weight)),
            Some((OffPath::FullScan, 100.0))
        );
        assert_eq!((s.writes, s.lwt, s.batches), (100.0, 30.0, 70.0));
        assert_eq!(s.statements_per_batch, 2.0);
        let lines = s.lines(10).join("\n");
        assert!(
            lines.contains("reads 1000/s: 90% from one partition"),
            "{lines}"
        );
        assert!(lines.contains("off-path: 10% of reads — full scan 10%: `all_orders` [off-path-share 10% of the read rate: within]"), "{lines}");
        assert!(
            lines.contains("lwt: 30% of 100/s of writes run Paxos (`sign_up`)"),
            "{lines}"
        );
        assert!(
            lines.contains("[lwt-share 10% of the write rate: crossed]"),
            "{lines}"
        );
        assert!(lines.contains("batches: 70% of writes are batches (`place`), 100% of them over more than one partition, 2 statements per batch"), "{lines}");
    }

    #[test]
    fn without_rates_statements_are_counted() {
        let s = summary_of(
            "SELECT * FROM users WHERE user_id = ?; SELECT * FROM orders WHERE total > 3 ALLOW FILTERING;",
        );
        let Some(s) = s else { panic!("a summary") };
        assert_eq!(s.basis, "query_count");
        assert_eq!(
            s.off_path.first().map(|g| g.reason),
            Some(OffPath::Filtering)
        );
        assert!(
            s.lines(10)
                .iter()
                .any(|l| l.contains("off-path: 50% of reads"))
        );
    }

    #[test]
    fn an_empty_list_has_no_summary() {
        assert_eq!(summary_of(""), None);
    }
}
