use cqlmodel_cql::ast::{
    Ident, Operator, Order, Relation, RelationKind, Select, Span, Statement, StatementKind,
};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{ColumnKind, Table};

use super::query_facts::{
    eq_columns, format_rate, marker, name_hints, single_statements, slice_columns, statement_table,
    thousands, time_clustering, uses_named_markers, write_load,
};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds tables used as queues: the query list deletes rows at the head of a
    /// partition (a DELETE that fixes the partition key and a clustering key or
    /// range) and reads the head of the same partition (a SELECT with LIMIT, in
    /// clustering order, with no lower bound on the clustering columns).
    ///
    /// Heuristic, to leave ordinary deletes alone: the table clusters by a
    /// time-ordered column (timestamp, timeuuid, date, or an integer named like a
    /// timestamp). It is a warning when the names say queue (`queue`, `job`,
    /// `task`, `pending`, `inbox`, `outbox`, `work`), when the delete removes a
    /// range from the head, or when the rates show the deletes keeping pace with
    /// the inserts (at least a tenth of their rate); deletes at under a tenth of
    /// the insert rate are housekeeping and not reported; without rates or names
    /// it is an info. A range deletion of the far end of the partition (trimming
    /// old rows of a newest-first timeline) is not a queue.
    ///
    /// ## Evidence
    /// The query list (deletes at the head, reads of the head, their `@rate`) and
    /// the names. Without a query list the rule is silent.
    ///
    /// ## Why is this bad?
    /// A delete writes a tombstone; it does not remove the row. Each head read
    /// starts at the head of the partition, where every consumed item still lies
    /// as a tombstone, and scans all of them before it finds a live row, until
    /// `gc_grace_seconds` (10 days by default) pass and compaction purges them.
    /// Reads get slower with every item consumed; past `tombstone_warn_threshold`
    /// (1,000) Cassandra warns and past `tombstone_failure_threshold` (100,000)
    /// it aborts the read.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE app.jobs (queue text, id timeuuid, payload text, PRIMARY KEY (queue, id));
    /// SELECT id, payload FROM app.jobs WHERE queue = ? LIMIT 10;
    /// DELETE FROM app.jobs WHERE queue = ? AND id = ?;
    /// ```
    ///
    /// ## Use instead
    /// Read from where the consumer stopped, so the scan starts after the
    /// tombstones; bucket the partition key by time so that consumers move on to
    /// fresh partitions; or use a queue (Kafka, Pulsar):
    /// ```cql
    /// SELECT id, payload FROM app.jobs WHERE queue = ? AND id > ? LIMIT 10;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Compaction: tombstones and gc_grace_seconds"
    /// - `cassandra.yaml`: `tombstone_warn_threshold`, `tombstone_failure_threshold`
    /// - DataStax, "Cassandra anti-patterns: queues and queue-like datasets"
    pub static QUEUE_PATTERN = {
        code: "CQL014",
        name: "queue-pattern",
        severity: Warning,
        summary: "A table used as a queue (delete the head, read the head)",
        check: check,
    };
}

/// Seconds: Cassandra's default `gc_grace_seconds` (10 days).
const DEFAULT_GC_GRACE: u64 = 864_000;

fn check(cx: &Context<'_>, out: &mut Findings) {
    for table in cx
        .tables()
        .filter(|t| !t.is_view() && t.clustering_len() > 0)
    {
        let Some(time_column) = time_clustering(table) else {
            continue;
        };
        let name = table.qualified_name();
        let reads: Vec<(&Query, &Select)> = cx
            .queries_on(table)
            .filter(|q| q.path.error.is_none() && !q.path.reversed)
            .filter_map(|q| match &q.statement.kind {
                StatementKind::Select(s) if reads_head(table, s) => Some((q, s)),
                _ => None,
            })
            .collect();
        let Some((read, select)) = reads.first() else {
            continue;
        };
        let order = first_order(table);
        for q in cx.queries_on(table).filter(|q| q.path.error.is_none()) {
            for stmt in single_statements(q) {
                let StatementKind::Delete(delete) = &stmt.kind else {
                    continue;
                };
                if statement_table(q, stmt).as_deref() != Some(name.as_str()) {
                    continue;
                }
                let Some(deletion) = deletes_head(table, &delete.where_clause, order) else {
                    continue;
                };
                let Some(evidence) = evidence(cx, &name, q, deletion) else {
                    continue;
                };
                let site = Site {
                    table,
                    time_column: time_column.name.as_str(),
                    delete: q,
                    stmt,
                    read,
                    select,
                };
                report(out, &site, &evidence);
            }
        }
    }
}

/// A single-partition read of the first rows in clustering order: the whole
/// partition key by `=`, a LIMIT, no slice on a clustering column, not one row.
fn reads_head(table: &Table, s: &Select) -> bool {
    if s.limit.is_none() && s.per_partition_limit.is_none() {
        return false;
    }
    let eq = eq_columns(&s.where_clause);
    let slices = slice_columns(&s.where_clause);
    table.partition_key().all(|c| eq.contains(&c.name.as_str()))
        && !table.clustering().all(|c| eq.contains(&c.name.as_str()))
        && !table
            .clustering()
            .any(|c| slices.contains(&c.name.as_str()))
}

/// How a delete removes rows of one partition.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deletion {
    /// Rows named by clustering key (the consumer acknowledging what it read).
    Rows,
    /// A range starting at the head of the partition (the consumer's position).
    HeadRange,
}

/// A delete inside one partition that removes rows by clustering key, or a
/// range at the head of the partition (the end a forward read starts from).
fn deletes_head(table: &Table, where_clause: &[Relation], order: Order) -> Option<Deletion> {
    let eq = eq_columns(where_clause);
    if !table.partition_key().all(|c| eq.contains(&c.name.as_str())) {
        return None;
    }
    if table.clustering().any(|c| eq.contains(&c.name.as_str())) {
        return Some(Deletion::Rows);
    }
    let first = table
        .clustering()
        .find(|c| !eq.contains(&c.name.as_str()))?;
    let at_head = where_clause.iter().any(|r| match &r.kind {
        RelationKind::Column { column, op, .. } if column.value == first.name && op.is_slice() => {
            // `<` removes the low end: the head of an ascending partition.
            let low_end = matches!(op, Operator::Lt | Operator::Lte);
            low_end == (order == Order::Asc)
        }
        _ => false,
    });
    at_head.then_some(Deletion::HeadRange)
}

fn first_order(table: &Table) -> Order {
    table
        .clustering()
        .find_map(|c| match c.kind {
            ColumnKind::Clustering(_, o) => Some(o),
            _ => None,
        })
        .unwrap_or(Order::Asc)
}

/// Why the table looks like a queue, and how sure the rule is.
struct Evidence {
    severity: Severity,
    why: String,
}

/// Words in a table's or a delete's name that say "queue".
const QUEUE_WORDS: &[&str] = &["queue", "job", "task", "pending", "inbox", "outbox", "work"];

/// Queue-like names, a range delete of the head, or deletes keeping pace with
/// the inserts make it a warning; deletes at under a tenth of the insert rate
/// are housekeeping (silent); without rates or names it is an info.
fn evidence(cx: &Context<'_>, table: &str, delete: &Query, deletion: Deletion) -> Option<Evidence> {
    let warning = |why: String| {
        Some(Evidence {
            severity: Severity::Warning,
            why,
        })
    };
    if name_hints(&[table, &delete.name], QUEUE_WORDS) {
        return warning(format!(
            "the names (`{table}`, `{}`) say queue",
            delete.name
        ));
    }
    let inserts: f64 = write_load(cx, table)
        .rated
        .iter()
        .filter(|(q, _)| {
            single_statements(q)
                .iter()
                .any(|s| matches!(s.kind, StatementKind::Insert(_)))
        })
        .map(|(_, r)| *r)
        .sum();
    if let Some(rate) = delete.rate.filter(|_| inserts > 0.0) {
        if rate < inserts / 10.0 {
            return None;
        }
        return warning(format!(
            "`{}` deletes at {} while the table is inserted into at {}: consumption, not housekeeping",
            delete.name,
            format_rate(rate),
            format_rate(inserts)
        ));
    }
    if deletion == Deletion::HeadRange {
        return warning(format!(
            "`{}` deletes a range from the head of the partition: the consumer's position",
            delete.name
        ));
    }
    Some(Evidence {
        severity: Severity::Info,
        why: format!(
            "heuristic: `{table}` clusters by time, is read from the head with a LIMIT and deleted by key; no @rate says how often (give the inserts and `{}` a @rate to weigh it)",
            delete.name
        ),
    })
}

/// Where the pattern was found.
struct Site<'a> {
    table: &'a Table,
    time_column: &'a str,
    delete: &'a Query,
    stmt: &'a Statement,
    read: &'a Query,
    select: &'a Select,
}

fn report(out: &mut Findings, site: &Site<'_>, evidence: &Evidence) {
    let Site {
        table,
        time_column,
        delete,
        stmt,
        read,
        select,
    } = *site;
    let name = table.qualified_name();
    let gc = table.options.gc_grace_seconds.unwrap_or(DEFAULT_GC_GRACE);
    let limit = select
        .limit
        .as_ref()
        .or(select.per_partition_limit.as_ref());
    let mut f = out
        .new_finding(format!(
            "`{name}` {} a queue: `{}` deletes rows at the head of a partition that `{}` reads from the head",
            if evidence.severity == Severity::Info { "may be used as" } else { "is used as" },
            delete.name,
            read.name
        ))
        .at(delete.file, stmt.span.range(), delete.span().start, "deletes the head of the partition")
        .table(name.clone())
        .query(delete.name.clone())
        .note(format!(
            "each delete leaves a tombstone at the head; every `{}` read{} scans them all before the first live row, until gc_grace_seconds ({} s) pass and compaction purges them (reads abort at 100,000 tombstones)",
            read.name,
            limit.map_or(String::new(), |l| format!(" (LIMIT {l})")),
            thousands(gc)
        ))
        .help(format!(
            "bucket the partition key by time (e.g. add an hour of `{time_column}` to it) so consumers move on to fresh partitions, or use a queue (Kafka, Pulsar)"
        ));
    f = f.severity(evidence.severity).note(evidence.why.clone());
    if let Some(rewritten) = bounded_read(table, select, &read.statement) {
        f = f.fix(
            "read from where the consumer stopped, so the scan starts after the tombstones",
            Some(rewritten),
        );
    }
    out.push(f);
}

/// The head read with a lower bound on the first clustering column it does not fix.
fn bounded_read(table: &Table, select: &Select, statement: &Statement) -> Option<String> {
    let eq = eq_columns(&select.where_clause);
    let column = table
        .clustering()
        .find(|c| !eq.contains(&c.name.as_str()))?;
    let op = match column.kind {
        ColumnKind::Clustering(_, Order::Desc) => Operator::Lt,
        _ => Operator::Gt,
    };
    let mut bounded = select.clone();
    bounded.where_clause.push(Relation {
        kind: RelationKind::Column {
            column: Ident::new(column.name.clone()),
            op,
            value: marker(
                uses_named_markers(statement),
                &format!("last_{}", column.name),
            ),
        },
        span: Span::default(),
    });
    let stmt = Statement {
        kind: StatementKind::Select(bounded),
        span: Span::default(),
    };
    Some(format!("{stmt};"))
}
