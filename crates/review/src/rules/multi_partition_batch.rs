use std::collections::BTreeMap;

use cqlmodel_cql::ast::{
    Batch, BatchKind, BindMarker, InsertValues, Operator, RelationKind, Statement, StatementKind,
    Term, TermKind,
};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;

use super::query_facts::{first_line, statement_table};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::{Finding, Findings};
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds batches whose statements write more than one partition, and grades
    /// them by what the batch is for (from the access path: partitions, tables,
    /// statements):
    ///
    /// - a small LOGGED batch (at most `thresholds.logged_batch_partitions`
    ///   partitions, default 5) writing each of its tables once, i.e. keeping
    ///   the denormalized copies of one entity in step: the documented use, info;
    /// - a LOGGED batch used for bulk loading (three or more statements into the
    ///   same table, different partitions) or spanning more partitions than the
    ///   threshold: warning;
    /// - an UNLOGGED (or COUNTER) batch across partitions: warning.
    ///
    /// A batch whose statements all name the same partition key value of one
    /// keyspace is one mutation, whatever the tables: it is not reported. When a
    /// key is an anonymous `?` the partition count is unknown; the rule then
    /// decides by the number of statements and tables. A batch whose statements
    /// each name one partition of their table is across at most one partition
    /// per statement, and says so; otherwise the finding says it is a heuristic.
    ///
    /// ## Evidence
    /// The query list: the batches, their partition keys and literal values. With
    /// anonymous `?` keys the partition count is unknown and the finding says it
    /// is a heuristic.
    ///
    /// ## Why is this bad?
    /// A batch is not a bulk-loading tool. A LOGGED batch first writes the whole
    /// batch to the batchlog of two other nodes, then applies each mutation, then
    /// deletes the batchlog entry: three writes for one, all through a single
    /// coordinator that holds the batch until every partition's replicas answer.
    /// An UNLOGGED batch across partitions has no atomicity at all, and still
    /// makes one coordinator fan the writes out to every replica set, which is
    /// slower than the driver sending each write to its own replicas. Large
    /// batches trip `batch_size_warn_threshold` (5 KiB) and
    /// `batch_size_fail_threshold` (50 KiB), and Cassandra warns about unlogged
    /// batches over 10 partitions.
    ///
    /// ## Example
    /// ```cql
    /// BEGIN UNLOGGED BATCH
    ///     INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s1', '2025-06-01', 1, 0.5);
    ///     INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s2', '2025-06-01', 1, 0.7);
    ///     INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s3', '2025-06-01', 1, 0.1);
    /// APPLY BATCH;
    /// ```
    ///
    /// ## Use instead
    /// One batch per partition, or each write on its own, sent concurrently
    /// (`executeAsync`) by a token-aware driver that routes it to its replicas:
    /// ```cql
    /// INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s1', '2025-06-01', 1, 0.5);
    /// INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s2', '2025-06-01', 1, 0.7);
    /// INSERT INTO iot.readings (sensor_id, day, ts, v) VALUES ('s3', '2025-06-01', 1, 0.1);
    /// ```
    /// Keep LOGGED batches for what they are for: a handful of writes that must
    /// all happen, such as one entity's rows in its denormalized tables.
    ///
    /// ## References
    /// - Apache Cassandra documentation, "BATCH" (CQL reference, data manipulation)
    /// - Cassandra 5.0 `BatchStatement`: `unlogged_batch_across_partitions_warn_threshold`,
    ///   `batch_size_warn_threshold`, `batch_size_fail_threshold`
    /// - DataStax, "Batching inserts, updates and deletes"
    pub static MULTI_PARTITION_BATCH = {
        code: "CQL011",
        name: "multi-partition-batch",
        severity: Warning,
        summary: "A batch that writes several partitions",
        check: check,
    };
}

/// Statements into one table, on different partitions, from which a batch is
/// bulk loading. Two are still one entity's state kept in step (moving a row
/// between two partitions, a symmetric friendship).
const BULK_STATEMENTS: usize = 3;

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.logged_batch_partitions;
    for q in cx.queries {
        let StatementKind::Batch(batch) = &q.statement.kind else {
            continue;
        };
        if q.path.error.is_some() || q.path.partitions == Some(1) || batch.statements.is_empty() {
            continue;
        }
        let writes: Vec<BatchWrite<'_>> = batch
            .statements
            .iter()
            .map(|s| BatchWrite::new(cx, q, s))
            .collect();
        if one_mutation(&writes) {
            continue;
        }
        let shape = Shape::of(&writes, q.path.partitions);
        let finding = judge(cx, out, q, batch, &shape, threshold);
        out.push(finding);
    }
}

/// One statement of a batch: its table and, when every component is known, its partition key.
struct BatchWrite<'a> {
    statement: &'a Statement,
    table: Option<String>,
    key: Option<Vec<Term>>,
    /// It names one partition of its table (its key may be an anonymous `?`).
    one_partition: bool,
}

impl<'a> BatchWrite<'a> {
    fn new(cx: &Context<'_>, q: &Query, statement: &'a Statement) -> Self {
        let table = statement_table(q, statement);
        let schema_table = table
            .as_deref()
            .and_then(|t| t.split_once('.'))
            .and_then(|(ks, t)| cx.schema.table(ks, t));
        Self {
            statement,
            key: schema_table.and_then(|t| partition_key_of(t, statement)),
            one_partition: schema_table.is_some_and(|t| key_terms(t, statement).is_some()),
            table,
        }
    }

    fn keyspace(&self) -> Option<&str> {
        self.table
            .as_deref()
            .and_then(|t| t.split_once('.'))
            .map(|(ks, _)| ks)
    }
}

/// The partition key values a single-partition write names, when they are all
/// literals or named markers (an anonymous `?` or an IN makes it unknown).
fn partition_key_of(table: &Table, statement: &Statement) -> Option<Vec<Term>> {
    key_terms(table, statement).filter(|key| {
        !key.iter()
            .any(|v| matches!(v.kind, TermKind::BindMarker(BindMarker::Anonymous)))
    })
}

/// The term each partition key column is given by equality (or in an
/// INSERT's values): the write names one partition of its table, whether or
/// not the values are known. `None` for an IN, a JSON insert or a missing column.
fn key_terms(table: &Table, statement: &Statement) -> Option<Vec<Term>> {
    let mut key = Vec::new();
    for pk in table.partition_key() {
        let value = match &statement.kind {
            StatementKind::Insert(s) => match &s.values {
                InsertValues::Values { columns, values } => columns
                    .iter()
                    .position(|c| c.value == pk.name)
                    .and_then(|i| values.get(i))
                    .cloned(),
                InsertValues::Json { .. } => None,
            },
            StatementKind::Update(s) => eq_value(&s.where_clause, &pk.name),
            StatementKind::Delete(s) => eq_value(&s.where_clause, &pk.name),
            _ => None,
        }?;
        key.push(value);
    }
    Some(key)
}

fn eq_value(where_clause: &[cqlmodel_cql::ast::Relation], column: &str) -> Option<Term> {
    where_clause.iter().find_map(|r| match &r.kind {
        RelationKind::Column {
            column: c,
            op: Operator::Eq,
            value,
        } if c.value == column => Some(value.clone()),
        _ => None,
    })
}

/// Every statement names the same partition key value in the same keyspace:
/// Cassandra merges them into one mutation (tables of a keyspace share it).
fn one_mutation(writes: &[BatchWrite<'_>]) -> bool {
    let Some(first) = writes.first() else {
        return true;
    };
    let Some(key) = &first.key else { return false };
    writes.iter().all(|w| {
        w.key.as_ref() == Some(key) && w.keyspace().is_some() && w.keyspace() == first.keyspace()
    })
}

/// What the batch writes, as far as it is known.
struct Shape {
    statements: usize,
    /// Statements per table, in order of first appearance.
    per_table: Vec<(String, usize)>,
    /// The table most written when it is written more than once to different
    /// (or unknown) partitions: the mark of bulk loading.
    bulk: Option<(String, usize)>,
    /// Partitions written: the access path's count when known.
    partitions: Option<u64>,
    /// When the count is not known but every statement names one partition
    /// of its table: at most one partition per statement (fewer when two
    /// share a key value and a keyspace: one mutation).
    at_most: Option<u64>,
}

impl Shape {
    fn of(writes: &[BatchWrite<'_>], partitions: Option<u64>) -> Self {
        let mut per_table: Vec<(String, usize)> = Vec::new();
        let mut keys: BTreeMap<String, Vec<Option<&Vec<Term>>>> = BTreeMap::new();
        for w in writes {
            let name = w.table.clone().unwrap_or_else(|| "?".to_string());
            match per_table.iter_mut().find(|(t, _)| *t == name) {
                Some((_, n)) => *n += 1,
                None => per_table.push((name.clone(), 1)),
            }
            keys.entry(name).or_default().push(w.key.as_ref());
        }
        let bulk = per_table
            .iter()
            .filter(|(t, n)| {
                *n >= BULK_STATEMENTS
                    && keys.get(t).is_some_and(|ks| {
                        let known: Vec<&Vec<Term>> = ks.iter().filter_map(|k| *k).collect();
                        known.len() < ks.len()
                            || known.iter().skip(1).any(|k| Some(k) != known.first())
                    })
            })
            .max_by_key(|(_, n)| *n)
            .cloned();
        let at_most = (partitions.is_none() && writes.iter().all(|w| w.one_partition))
            .then_some(writes.len() as u64);
        Self {
            statements: writes.len(),
            per_table,
            bulk,
            partitions,
            at_most,
        }
    }

    fn tables(&self) -> String {
        self.per_table
            .iter()
            .map(|(t, _)| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn across(&self) -> String {
        match (self.partitions, self.at_most) {
            (Some(p), _) => format!("{p} partitions"),
            (None, Some(n)) => format!("at most {n} partitions (one per statement)"),
            (None, None) => "an unknown number of partitions".to_string(),
        }
    }
}

fn judge(
    cx: &Context<'_>,
    out: &Findings,
    q: &Query,
    batch: &Batch,
    shape: &Shape,
    threshold: u64,
) -> Finding {
    let kind = batch.kind;
    let word = match kind {
        BatchKind::Logged => "LOGGED",
        BatchKind::Unlogged => "UNLOGGED",
        BatchKind::Counter => "COUNTER",
    };
    let many = match shape.partitions {
        Some(p) => p > threshold,
        None => shape.statements as u64 > threshold,
    };
    let (severity, message, why) = match (&shape.bulk, kind) {
        (Some((table, n)), _) => (
            Severity::Warning,
            format!(
                "{word} batch used for bulk loading: {n} statements into `{table}` across {}",
                shape.across()
            ),
            bulk_why(kind),
        ),
        (None, BatchKind::Logged) if many => (
            Severity::Warning,
            format!(
                "LOGGED batch across {} (more than {threshold}) of {}",
                shape.across(),
                shape.tables()
            ),
            "the batchlog is written to two other nodes first, and one coordinator holds the whole batch until every partition's replicas answer".to_string(),
        ),
        (None, BatchKind::Logged) => (
            Severity::Info,
            format!(
                "small LOGGED batch across {} of {}: the documented use when it keeps one entity's copies in step",
                shape.across(),
                shape.tables()
            ),
            "it costs the batchlog: the batch is written to two other nodes before it is applied, so keep it this small".to_string(),
        ),
        (None, BatchKind::Unlogged | BatchKind::Counter) if shape.partitions.is_none() && !many => (
            Severity::Info,
            format!("{word} batch across {}: {} written once each", shape.across(), shape.tables()),
            "if the statements share one partition key value they are one mutation and this is fine; if not, the batch is neither atomic nor faster than separate writes".to_string(),
        ),
        (None, BatchKind::Unlogged | BatchKind::Counter) => (
            Severity::Warning,
            format!("{word} batch across {} of {}", shape.across(), shape.tables()),
            "an unlogged batch across partitions is not atomic, and one coordinator fans the writes out instead of the driver sending each to its replicas".to_string(),
        ),
    };
    let label = match shape.statements {
        1 => "batch of 1 statement".to_string(),
        n => format!("batch of {n} statements"),
    };
    let mut f = out
        .new_finding(message)
        .severity(severity)
        .at(
            q.file,
            first_line(cx, q.file, q.span()),
            q.span().start,
            label,
        )
        .query(q.name.clone())
        .note(why);
    if let Some((table, _)) = shape.per_table.first() {
        f = f.table(table.clone());
    }
    if kind == BatchKind::Counter {
        f = f.note("counter updates are not idempotent: a timed-out counter batch that is retried may count twice");
    }
    // A bulk-loading verdict rests on keys it cannot see (three `?` keys
    // may be one partition), so it stays a heuristic even with `at_most`.
    if shape.partitions.is_none() && (shape.at_most.is_none() || shape.bulk.is_some()) {
        f = f.note("heuristic: partition keys bound by anonymous `?` markers, so the partition count is unknown; judged by statement and table counts");
    }
    if severity == Severity::Info {
        return f;
    }
    f.fix(
        "split the batch: one batch per partition, or each write on its own, sent concurrently (executeAsync) by a token-aware driver",
        Some(split(batch, cx, q)),
    )
}

fn bulk_why(kind: BatchKind) -> String {
    match kind {
        BatchKind::Logged => "a logged batch of many partitions writes the batchlog first and waits on one coordinator for every replica set: slower than concurrent writes, and large batches hit `batch_size_fail_threshold`".to_string(),
        _ => "an unlogged batch of many partitions makes one coordinator fan every write out: slower than concurrent writes routed by a token-aware driver, and large batches hit `batch_size_fail_threshold`".to_string(),
    }
}

/// A partition of a keyspace: writes with the same one are one mutation.
type MutationKey = (Option<String>, Vec<Term>);

/// The batch rewritten as per-partition batches (statements whose key is known
/// and shared) and single statements.
fn split(batch: &Batch, cx: &Context<'_>, q: &Query) -> String {
    let mut groups: Vec<(Option<MutationKey>, Vec<&Statement>)> = Vec::new();
    for s in &batch.statements {
        let w = BatchWrite::new(cx, q, s);
        let id = w.key.clone().map(|k| (w.keyspace().map(str::to_string), k));
        match groups.iter_mut().find(|(g, _)| id.is_some() && *g == id) {
            Some((_, members)) => members.push(w.statement),
            None => groups.push((id, vec![w.statement])),
        }
    }
    let header = {
        let empty = Batch {
            kind: if batch.kind == BatchKind::Counter {
                BatchKind::Counter
            } else {
                BatchKind::Unlogged
            },
            using: batch.using.clone(),
            statements: Vec::new(),
        }
        .to_string();
        empty
            .strip_suffix(" APPLY BATCH")
            .unwrap_or(&empty)
            .to_string()
    };
    let mut cql = String::new();
    for (_, members) in groups {
        if members.len() == 1 && batch.using.is_empty() {
            if let Some(s) = members.first() {
                cql.push_str(&format!("{s};\n"));
            }
            continue;
        }
        cql.push_str(&header);
        cql.push('\n');
        for s in members {
            cql.push_str(&format!("    {s};\n"));
        }
        cql.push_str("APPLY BATCH;\n");
    }
    cql.trim_end().to_string()
}
