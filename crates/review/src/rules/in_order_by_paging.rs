use cqlmodel_cql::ast::{RelationKind, StatementKind};
use cqlmodel_diagnostics::Severity;

use super::partition_in::{is_partition_key, partition_in_span, per_partition};
use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::path_table;
use crate::finding::Findings;

/// Cassandra 5.0's message (`SelectStatement`, on execution with paging).
pub const MESSAGE: &str = "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query";

declare_rule! {
    /// ## What it does
    /// Finds reads that restrict the partition key with `IN` and ask for an
    /// `ORDER BY`: Cassandra prepares them, then refuses to run them with
    /// paging on, which every driver does by default.
    ///
    /// ## Evidence
    /// Certain: the query list's statements, read with Cassandra 5.0's rule
    /// (`SelectStatement`: a read that needs ordering after the query, because
    /// rows of several partitions must be merged, cannot be paged). A query
    /// annotated `@page 0` (paging off) is not reported. Without a query list
    /// the rule is silent.
    ///
    /// ## Why is this bad?
    /// The statement passes in cqlsh tests with few rows and fails in the
    /// application with `InvalidRequest`:
    /// "Cannot page queries with both ORDER BY and a IN restriction on the
    /// partition key; you must either remove the ORDER BY or the IN and sort
    /// client side, or disable paging for this query". Turning paging off makes
    /// the coordinator hold every row of every listed partition in memory.
    ///
    /// ## Example
    /// ```cql
    /// SELECT * FROM chat.messages WHERE room_id IN (?, ?, ?) ORDER BY sent_at DESC;
    /// ```
    ///
    /// ## Use instead
    /// One query per partition, each ordered by its clustering (concurrently,
    /// from the driver), merged in the application:
    /// ```cql
    /// SELECT * FROM chat.messages WHERE room_id = ? ORDER BY sent_at DESC;
    /// ```
    ///
    /// ## References
    /// - Cassandra 5.0 `SelectStatement` (execution with a page size), docs/research/select-restrictions.md R101
    pub static IN_ORDER_BY_PAGING = {
        code: "CQL023",
        name: "in-order-by-paging",
        severity: Error,
        summary: "IN on the partition key with ORDER BY: Cassandra refuses to page it",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for q in cx.queries {
        if q.path.error.is_some() || q.page_size == Some(0) {
            continue;
        }
        let StatementKind::Select(select) = &q.statement.kind else {
            continue;
        };
        if select.order_by.is_empty() {
            continue;
        }
        let Some(table) = path_table(cx.schema, &q.path) else {
            continue;
        };
        let partition_in = select.where_clause.iter().any(|r| {
            matches!(&r.kind, RelationKind::ColumnIn { column, negated: false, .. }
                if is_partition_key(table, &column.value))
        });
        if !partition_in {
            continue;
        }
        let span = partition_in_span(table, q).unwrap_or_else(|| q.span());
        let mut f = out
            .new_finding(MESSAGE)
            .severity(Severity::Error)
            .at(q.file, span.range(), q.span().start, "IN on the partition key")
            .table(table.qualified_name())
            .query(q.name.clone())
            .note(format!(
                "`{}` prepares, then fails on execution: rows of several partitions must be merged in ORDER BY order after the read, and such a read cannot be paged (drivers page by default, 5,000 rows a page)",
                q.name
            ))
            .note("`@page 0` on the query says the application turns paging off: then it runs, with every listed partition's rows held by the coordinator");
        f = match per_partition(table, q) {
            Some(cql) => f.fix(
                "one query per partition, each in clustering order, issued concurrently and merged in the application",
                Some(cql),
            ),
            None => f.help("drop the ORDER BY and sort client side, or read one partition per query"),
        };
        out.push(f);
    }
}
