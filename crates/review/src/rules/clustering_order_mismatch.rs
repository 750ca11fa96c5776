use cqlmodel_cql::ast::{Order, StatementKind};
use cqlmodel_schema::{ColumnKind, Table};

use super::scatter_gather::rate_text;
use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::{TimeKind, table_create_cql, time_kind};
use crate::finding::{Finding, Findings};
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds tables whose hottest read (the highest `@rate`, or the only read of the
    /// table) reads the partition against its clustering order: newest-first
    /// (`ORDER BY ts DESC`) on a table clustered `ts ASC`, or oldest-first on one
    /// clustered `DESC`, typically with a `LIMIT` that wants the rows at the far end.
    ///
    /// ## Evidence
    /// The query list: the hottest read of a table (`@rate`), its ORDER BY and
    /// LIMIT. Without a query list the rule is silent.
    ///
    /// ## Why is this bad?
    /// Rows are stored in clustering order, and Cassandra reads a partition backwards
    /// by buffering: in the default (BIG) SSTable format each index block (the whole
    /// partition when it is small enough to have no row index) is deserialized forward
    /// into memory, then returned in reverse.
    /// A newest-first `LIMIT 20` on an ascending table reads from the start of each
    /// block it touches, not from the 20 rows it returns. It works, and it is info,
    /// not a warning: on the hottest path the table should store rows in the order
    /// that path reads them.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE social.feed_by_user (user_id uuid, ts timestamp, post_id uuid,
    ///     PRIMARY KEY (user_id, ts, post_id));
    /// -- @name home_feed @rate 5000/s
    /// SELECT * FROM social.feed_by_user WHERE user_id = ? ORDER BY ts DESC LIMIT 20;
    /// ```
    ///
    /// ## Use instead
    /// Cluster in the order the hottest read wants (a new table: the clustering order
    /// cannot be altered), and drop the `ORDER BY`:
    /// ```cql
    /// CREATE TABLE social.feed_by_user (user_id uuid, ts timestamp, post_id uuid,
    ///     PRIMARY KEY (user_id, ts, post_id)) WITH CLUSTERING ORDER BY (ts DESC, post_id DESC);
    /// ```
    ///
    /// ## References
    /// - Cassandra `SSTableReversedIterator` (reverse reads buffer each index block)
    /// - DataStax CQL reference, "Using clustering order"
    pub static CLUSTERING_ORDER_MISMATCH = {
        code: "CQL016",
        name: "clustering-order-mismatch",
        severity: Info,
        summary: "The hottest read of a table reads against its clustering order",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for table in cx.tables() {
        if table.clustering_len() == 0 {
            continue;
        }
        let name = table.qualified_name();
        let reads: Vec<&Query> = cx
            .queries_on_name(&name)
            .filter(|q| {
                q.is_read()
                    && q.path.error.is_none()
                    && q.path.table.as_deref() == Some(name.as_str())
            })
            .collect();
        let Some(hottest) = hottest(&reads) else {
            continue;
        };
        if !hottest.path.reversed {
            continue;
        }
        let StatementKind::Select(select) = &hottest.statement.kind else {
            continue;
        };
        let Some((ordered, asked)) = select
            .order_by
            .first()
            .map(|o| (o.column.value.as_str(), o.order))
        else {
            continue;
        };
        let declared = table
            .column(ordered)
            .and_then(|c| match c.kind {
                ColumnKind::Clustering(_, o) => Some(o),
                _ => None,
            })
            .unwrap_or(Order::Asc);
        let direction = match (table.column(ordered).and_then(time_kind), asked) {
            (Some(TimeKind::Instant | TimeKind::Bucket), Order::Desc) => "newest-first".to_string(),
            (Some(_), Order::Asc) => "oldest-first".to_string(),
            (None, _) => format!("`{ordered}` {}", asked.keyword()),
        };
        let rate = hottest.rate.map_or_else(
            || "its only read".to_string(),
            |r| format!("its hottest read, {}", rate_text(r)),
        );
        let limit = hottest.path.limit.map_or_else(String::new, |l| {
            format!(" (LIMIT {l}: the rows at the far end)")
        });
        let span = select
            .order_by
            .first()
            .map_or_else(|| hottest.span(), |o| o.span)
            .range();
        let mut f = out
            .new_finding(format!(
                "`{name}` clusters `{ordered}` {} but `{}` ({rate}) reads it {direction}{limit}",
                declared.keyword(),
                hottest.name
            ))
            .at(hottest.file, span, hottest.span().start, "reads against the clustering order")
            .table(name.clone())
            .query(hottest.name.clone())
            .note(
                "a reversed read buffers each index block (or the whole small partition) in memory and returns it \
                 backwards: it reads from the wrong end of every block it touches",
            );
        f = with_other_reads(f, &reads, hottest);
        let flipped = flipped_order(table);
        f = if table.is_view() {
            f.help(format!(
                "recreate the view with `CLUSTERING ORDER BY ({})`",
                order_list(&flipped)
            ))
        } else {
            f.fix(
                "store the rows in the order the hottest read wants: a new table (the clustering order cannot be \
                 altered), written alongside the old one, backfilled, then cut over",
                Some(table_create_cql(table, &flipped)),
            )
        };
        out.push(f);
    }
}

/// What flipping the order does to the table's other reads: those with an ORDER
/// BY would read in reverse, those without would see the rows in the new order.
fn with_other_reads(mut f: Finding, reads: &[&Query], hottest: &Query) -> Finding {
    let others = |ordered: bool| {
        reads
            .iter()
            .filter(|q| q.name != hottest.name && !q.path.reversed)
            .filter(|q| matches!(&q.statement.kind, StatementKind::Select(s) if s.order_by.is_empty() != ordered))
            .map(|q| format!("`{}`", q.name))
            .collect::<Vec<_>>()
    };
    let (reversed_after, reordered_after) = (others(true), others(false));
    if !reversed_after.is_empty() {
        f = f.note(format!(
            "after the change {} would read in reverse instead",
            crate::listing::capped(&reversed_after)
        ));
    }
    if !reordered_after.is_empty() {
        f = f.note(format!(
            "after the change {} (no ORDER BY) would return rows in the new order: add the ORDER BY it relies on",
            crate::listing::capped(&reordered_after)
        ));
    }
    f
}

/// The read with the highest `@rate`; without rates, the only read.
fn hottest<'q>(reads: &[&'q Query]) -> Option<&'q Query> {
    if let [only] = reads {
        return Some(only);
    }
    reads
        .iter()
        .filter(|q| q.rate.is_some())
        .fold(None::<&Query>, |best, q| match best {
            Some(b) if b.rate >= q.rate => Some(b),
            _ => Some(q),
        })
}

fn flipped_order(table: &Table) -> Vec<(String, Order)> {
    table
        .clustering()
        .map(|c| {
            let order = match c.kind {
                ColumnKind::Clustering(_, Order::Desc) => Order::Asc,
                _ => Order::Desc,
            };
            (c.name.clone(), order)
        })
        .collect()
}

fn order_list(orders: &[(String, Order)]) -> String {
    orders
        .iter()
        .map(|(c, o)| format!("{c} {}", o.keyword()))
        .collect::<Vec<_>>()
        .join(", ")
}
