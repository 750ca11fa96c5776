use cqlmodel_cql::ast::{
    Operator, Order, RelationKind, Select, Selection, Selector, SelectorKind, StatementKind,
};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;
use cqlmodel_schema::access::AccessKind;
use cqlmodel_schema::types::{CqlType, NativeType};

use super::query_path::query_path;
use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::{TableSpec, create_table_cql, path_table};
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds reads that aggregate (`count`, `min`, `max`, `sum`, `avg`) or `GROUP BY`
    /// across partitions: over a token-range scan, or over an `IN` list of partitions.
    /// An aggregate inside one partition is what Cassandra does well and is not
    /// reported.
    ///
    /// Severity: a warning across the ring or over more partitions than
    /// `thresholds.scatter_gather_partitions`; info over a short known list of
    /// partitions, or on a query annotated `@path admin|analytics|migration`.
    ///
    /// ## Evidence
    /// The query list and its access paths; `@path admin|analytics|migration`
    /// turns a finding into info.
    ///
    /// ## Why is this bad?
    /// Cassandra computes an aggregate on the coordinator, page by page, after reading
    /// every row it covers: `SELECT count(*) FROM t` reads the whole table through one
    /// node on every call, and usually times out once the table is large. There is no
    /// pre-aggregation, no parallel plan and no index that helps: the storage engine
    /// is built for known-key reads, not for analytical scans.
    ///
    /// ## Example
    /// ```cql
    /// -- @name orders_per_user
    /// SELECT user_id, count(*) FROM shop.orders_by_user GROUP BY user_id;
    /// ```
    ///
    /// ## Use instead
    /// Stream the writes to an analytical store (CDC into ClickHouse, BigQuery, a
    /// lakehouse) or run the aggregate in Spark; or maintain the figure on write in a
    /// counter (or summary) table and read it by key:
    /// ```cql
    /// CREATE TABLE shop.orders_counts_by_user (user_id text, row_count counter, PRIMARY KEY (user_id));
    /// UPDATE shop.orders_counts_by_user SET row_count = row_count + 1 WHERE user_id = ?;
    /// SELECT row_count FROM shop.orders_counts_by_user WHERE user_id = ?;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "SELECT: aggregate functions" and "GROUP BY"
    /// - Apache Cassandra documentation, "Change Data Capture"
    pub static OLAP_QUERY = {
        code: "CQL012",
        name: "olap-query",
        severity: Warning,
        summary: "An aggregate or GROUP BY across partitions",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.scatter_gather_partitions;
    for q in cx.queries {
        let StatementKind::Select(select) = &q.statement.kind else {
            continue;
        };
        let summarizes = aggregates(select) || !select.group_by.is_empty();
        if q.path.error.is_some() || !summarizes {
            continue;
        }
        let Some(table) = path_table(cx.schema, &q.path) else {
            continue;
        };
        let offline = query_path(q).is_ok_and(|p| p.is_offline());
        let (severity, scope) = match (q.path.kind, q.path.partitions) {
            (AccessKind::RangeScan, _) => (
                Severity::Warning,
                "across every partition (a token-range scan)".to_string(),
            ),
            (AccessKind::MultiPartition, Some(n)) if n <= threshold => {
                (Severity::Info, format!("across {n} partitions"))
            }
            (AccessKind::MultiPartition, Some(n)) => {
                (Severity::Warning, format!("across {n} partitions"))
            }
            (AccessKind::MultiPartition, None) => (
                Severity::Warning,
                "across a bound list of partitions (IN ?)".to_string(),
            ),
            _ => continue,
        };
        let severity = if offline { Severity::Info } else { severity };
        let what = if select.group_by.is_empty() {
            "aggregates"
        } else {
            "groups and aggregates"
        };
        let mut f = out
            .new_finding(format!("`{}` {what} {scope} of `{}`", q.name, table.qualified_name()))
            .severity(severity)
            .at(q.file, q.span().range(), q.span().start, "aggregate across partitions")
            .table(table.qualified_name())
            .query(q.name.clone())
            .note(
                "the coordinator reads every row the aggregate covers, page by page, on every call: it is an \
                 analytical scan on the transactional path",
            );
        f = match counter_table(table, select) {
            Some(cql) => f
                .note("counter updates are not idempotent: a retried increment may count twice")
                .fix(
                    "maintain the count on write in a counter table and read it by key (or stream the writes \
                     to an analytical store with CDC)",
                    Some(cql),
                ),
            None => f.help(
                "compute it off the OLTP path (CDC into an analytical store, Spark), or maintain it on write in a \
                 summary table read by key",
            ),
        };
        out.push(f);
    }
}

fn aggregates(select: &Select) -> bool {
    match &select.selection {
        Selection::Wildcard(_) => false,
        Selection::Selectors(s) => s.iter().any(is_aggregate),
    }
}

fn is_aggregate(s: &Selector) -> bool {
    match &s.kind {
        SelectorKind::CountStar => true,
        SelectorKind::Function { name, args } => {
            matches!(
                name.name.value.to_ascii_lowercase().as_str(),
                "count" | "min" | "max" | "sum" | "avg"
            ) || args.iter().any(is_aggregate)
        }
        SelectorKind::Cast { selector, .. }
        | SelectorKind::TypeHint { selector, .. }
        | SelectorKind::Field { selector, .. }
        | SelectorKind::Element { selector, .. } => is_aggregate(selector),
        _ => false,
    }
}

/// Only counting selectors (and plain columns): what a counter can maintain.
fn counts_only(select: &Select) -> bool {
    let Selection::Selectors(selectors) = &select.selection else {
        return false;
    };
    selectors.iter().all(|s| match &s.kind {
        SelectorKind::CountStar | SelectorKind::Column(_) => true,
        SelectorKind::Function { name, .. } => name.name.value.eq_ignore_ascii_case("count"),
        _ => false,
    })
}

/// A counter table keyed by the query's `=` columns (partition) and its IN and
/// GROUP BY columns (clustering), with its write and its read; `None` when the
/// query restricts nothing by `=` (a count of everything has no key to read by).
fn counter_table(table: &Table, select: &Select) -> Option<String> {
    if !counts_only(select) {
        return None;
    }
    let mut partition: Vec<String> = Vec::new();
    let mut clustering: Vec<String> = Vec::new();
    for r in &select.where_clause {
        match &r.kind {
            RelationKind::Column {
                column,
                op: Operator::Eq,
                ..
            } if !partition.contains(&column.value) => partition.push(column.value.clone()),
            RelationKind::ColumnIn {
                column,
                negated: false,
                ..
            } if !clustering.contains(&column.value) => clustering.push(column.value.clone()),
            _ => {}
        }
    }
    for g in &select.group_by {
        if !partition.contains(&g.value) && !clustering.contains(&g.value) {
            clustering.push(g.value.clone());
        }
    }
    if partition.is_empty() {
        return None;
    }
    let mut columns = Vec::new();
    for name in partition.iter().chain(&clustering) {
        let column = table.column(name)?;
        if column.ty.is_multi_cell() || column.ty.is_counter() {
            return None;
        }
        columns.push((name.clone(), column.ty.to_string(), false));
    }
    let count_column = if table.column("row_count").is_some() {
        "row_count_total"
    } else {
        "row_count"
    };
    columns.push((
        count_column.to_string(),
        CqlType::native(NativeType::Counter).to_string(),
        false,
    ));
    let entity = table.name.split("_by_").next().unwrap_or(&table.name);
    let by: Vec<&str> = partition
        .iter()
        .map(|p| p.strip_suffix("_id").filter(|s| !s.is_empty()).unwrap_or(p))
        .collect();
    let name = format!("{entity}_counts_by_{}", by.join("_and_"));
    let ordered: Vec<(String, Order)> =
        clustering.iter().map(|c| (c.clone(), Order::Asc)).collect();
    let create = create_table_cql(&TableSpec {
        keyspace: &table.keyspace,
        name: &name,
        columns,
        partition_key: &partition,
        clustering: &ordered,
        options: Vec::new(),
        explicit_order: false,
    });
    let ident = |n: &str| cqlmodel_cql::ast::Ident::new(n).to_string();
    let key: Vec<String> = partition
        .iter()
        .chain(&clustering)
        .map(|c| format!("{} = ?", ident(c)))
        .collect();
    let qualified = format!("{}.{}", ident(&table.keyspace), ident(&name));
    let count = ident(count_column);
    let update = format!(
        "-- on every insert into {}:\nUPDATE {qualified} SET {count} = {count} + 1 WHERE {};",
        table.qualified_name(),
        key.join(" AND ")
    );
    let mut read_key: Vec<String> = partition
        .iter()
        .map(|c| format!("{} = ?", ident(c)))
        .collect();
    read_key.extend(
        clustering
            .iter()
            .filter(|c| select.where_clause.iter().any(|r| matches!(&r.kind, RelationKind::ColumnIn { column, .. } if &column.value == *c)))
            .map(|c| format!("{} IN ?", ident(c))),
    );
    let mut selected: Vec<String> = clustering.iter().map(|c| ident(c)).collect();
    selected.push(count.clone());
    let read = format!(
        "SELECT {} FROM {qualified} WHERE {};",
        selected.join(", "),
        read_key.join(" AND ")
    );
    Some(format!("{create}\n{update}\n{read}"))
}
