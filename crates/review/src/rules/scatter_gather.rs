use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::access::{AccessKind, StatementType};

use super::partition_in::{partition_in_span, per_partition};
use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::path_table;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds reads (and `UPDATE`/`DELETE`) whose `IN` on the partition key names more
    /// partitions than `thresholds.scatter_gather_partitions` (default 10), and any
    /// multi-partition read on a high-rate query (`@rate` at or above
    /// `thresholds.high_rate_per_second`, default 1000/s).
    ///
    /// `IN ?` with a bound list has a partition count known only at run time: it is
    /// info, or a warning on a high-rate query, never an error. Batches are left to
    /// `multi-partition-batch`.
    ///
    /// The threshold: Cassandra 5.0's own guardrails, `partition_keys_in_select`
    /// (partition keys one SELECT names, the cartesian product of the IN lists
    /// on the key's columns) and `in_select_cartesian_product`, ship disabled
    /// (-1 in `Config`, commented out in cassandra.yaml), so the default of 10
    /// is ours: from about ten partitions the request waits on the slowest of
    /// ten reads, and its latency is the single read's p99 or worse. When the
    /// cluster sets the guardrail, give its values as
    /// `thresholds.partition_keys_in_select_warn_threshold` and
    /// `..._fail_threshold`: a SELECT over the fail threshold is an error and
    /// over the warn threshold a warning, with Cassandra's messages.
    ///
    /// ## Evidence
    /// The query list: IN lists with their literal sizes, and `@rate` for the hot
    /// path. `IN ?` has a size known only at run time (info, or a warning at a high
    /// rate). Give `@rate` to the queries to have the hot path judged.
    ///
    /// ## Why is this bad?
    /// One coordinator receives the whole `IN` list, sends one read per partition
    /// (each to its own replicas), holds every partial result in memory and answers
    /// only when the slowest partition has: the request's latency is the worst of N,
    /// a single timeout fails all of it, and the coordinator, not the driver, carries
    /// the fan-out. A token-aware driver routes a single-partition read straight to a
    /// replica; an `IN` read has no single routing key and lands on any coordinator.
    ///
    /// ## Example
    /// ```cql
    /// -- @name orders_last_month
    /// SELECT * FROM shop.orders_daily WHERE user_id = ? AND day IN
    ///     ('2024-08-01', '2024-08-02', ..., '2024-08-31');
    /// ```
    ///
    /// ## Use instead
    /// One read per partition, issued concurrently from the driver (token-aware, each
    /// straight to a replica), merged in the application; or a model in which one
    /// partition holds the result:
    /// ```cql
    /// SELECT * FROM shop.orders_daily WHERE user_id = ? AND day = ?;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "SELECT: the IN relation"
    /// - DataStax Java driver manual, "Load balancing: token-aware routing" and "Asynchronous programming"
    pub static SCATTER_GATHER = {
        code: "CQL004",
        name: "scatter-gather",
        severity: Warning,
        summary: "IN over many partitions, or a multi-partition read on a high-rate path",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.scatter_gather_partitions;
    let high_rate = cx.config.thresholds.high_rate_per_second;
    for q in cx.queries {
        if q.path.error.is_some()
            || q.path.kind != AccessKind::MultiPartition
            || !matches!(
                q.path.statement,
                StatementType::Select | StatementType::Update | StatementType::Delete
            )
        {
            continue;
        }
        let Some(table) = path_table(cx.schema, &q.path) else {
            continue;
        };
        let hot = q.rate.filter(|r| *r >= high_rate);
        let verb = if q.path.statement == StatementType::Select {
            "reads"
        } else {
            "writes"
        };
        let guardrail = (q.path.statement == StatementType::Select)
            .then(|| guardrail(cx, &table.name, q.path.partitions))
            .flatten();
        let (severity, message) = match (q.path.partitions, hot) {
            _ if let Some(g) = &guardrail => g.clone(),
            (Some(n), _) if n > threshold => (
                Severity::Warning,
                format!(
                    "`{}` {verb} {n} partitions in one request (IN on the partition key)",
                    q.name
                ),
            ),
            (Some(n), Some(rate)) => (
                Severity::Warning,
                format!(
                    "`{}` {verb} {n} partitions per request at {}",
                    q.name,
                    rate_text(rate)
                ),
            ),
            (None, Some(rate)) => (
                Severity::Warning,
                format!(
                    "`{}` {verb} a bound list of partitions (IN ?) per request at {}",
                    q.name,
                    rate_text(rate)
                ),
            ),
            (None, None) => (
                Severity::Info,
                format!(
                    "`{}` {verb} a bound list of partitions (IN ?): how many is known only at run time",
                    q.name
                ),
            ),
            (Some(_), None) => continue,
        };
        let span = partition_in_span(table, q).unwrap_or_else(|| q.span());
        let mut f = out
            .new_finding(message)
            .severity(severity)
            .at(q.file, span.range(), q.span().start, "one request, many partitions")
            .table(table.qualified_name())
            .query(q.name.clone())
            .note(format!(
                "the coordinator {verb} every listed partition, waits for the slowest, and fails the whole \
                 request if one times out"
            ));
        if severity == Severity::Info {
            f = f.note(format!(
                "it is a warning when the list can exceed {threshold} partitions (thresholds.scatter_gather_partitions) \
                 or the query runs at {}",
                rate_text(high_rate)
            ));
        }
        f = match per_partition(table, q) {
            Some(cql) => f.fix(
                "issue one request per partition, concurrently from the driver (token-aware: each goes straight \
                 to a replica), or remodel so that one partition holds the result",
                Some(cql),
            ),
            None => f.help("issue one request per partition concurrently from the driver, or remodel so one partition holds the result"),
        };
        out.push(f);
    }
}

/// Cassandra's `partition_keys_in_select` guardrail (`Guardrails` in 5.0), when
/// the configuration gives the cluster's thresholds: its own messages.
fn guardrail(cx: &Context<'_>, table: &str, partitions: Option<u64>) -> Option<(Severity, String)> {
    let n = partitions?;
    let t = &cx.config.thresholds;
    if let Some(fail) = t.partition_keys_in_select_fail_threshold.filter(|f| n > *f) {
        return Some((
            Severity::Error,
            format!(
                "Aborting query with partition keys in IN clause on table {table}, number of partition keys {n} exceeds fail threshold of {fail}."
            ),
        ));
    }
    let warn = t
        .partition_keys_in_select_warn_threshold
        .filter(|w| n > *w)?;
    Some((
        Severity::Warning,
        format!(
            "Query with partition keys in IN clause on table {table}, with number of partition keys {n} exceeds warning threshold of {warn}."
        ),
    ))
}

pub(crate) fn rate_text(rate: f64) -> String {
    if rate >= 1.0 && rate.fract() == 0.0 {
        format!("{rate:.0}/s")
    } else if rate >= 1.0 {
        format!("{rate:.1}/s")
    } else {
        format!("{:.1}/min", rate * 60.0)
    }
}
