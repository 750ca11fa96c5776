use cqlmodel_cql::ast::Order;
use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{ColumnKind, Table};

use super::query_facts::{format_rate, name_site, stats_growth, write_load};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Reports every materialized view, and weighs it against how fast its base
    /// table is written: the sum of the `@rate` of the query list's INSERT,
    /// UPDATE, DELETE and batch statements on the base table (a batch counts
    /// each of its statements on it), else the `rows_per_second` the statistics
    /// file gives the base table.
    ///
    /// - base written faster than `thresholds.view_write_rate_per_second`
    ///   (default 300/s): warning;
    /// - faster than ten times the threshold (e.g. 50,000/s): error;
    /// - any other view (a slow base, or writes without `@rate`): info.
    ///
    /// ## Evidence
    /// The base table's write rate: the query list's `@rate`, else the statistics
    /// file's `rows_per_second`. Without either, every view is info.
    ///
    /// ## Why is this bad?
    /// Every write to the base table also writes the view. The base replica first
    /// reads the existing base row (a read-before-write, under a lock on the
    /// partition) to find the view rows to delete and insert, then sends the view
    /// mutation to its paired view replica. The write path of the base table
    /// becomes a read plus two writes, and the view lags the base under load.
    /// Nothing detects or repairs a view that diverged from its base: the only
    /// remedy is to drop and rebuild it.
    ///
    /// Materialized views have been experimental since 3.11.2, are disabled by
    /// default since 4.0 (`enable_materialized_views: false`), and Cassandra 5.0
    /// keeps them off (`materialized_views_enabled: false`).
    ///
    /// ## Example
    /// ```cql
    /// -- @rate 50000/s on INSERT INTO iot.temp_by_device ...
    /// CREATE MATERIALIZED VIEW iot.temp_by_day AS
    ///     SELECT * FROM iot.temp_by_device
    ///     WHERE day IS NOT NULL AND device_id IS NOT NULL AND ts IS NOT NULL
    ///     PRIMARY KEY (day, device_id, ts);
    /// ```
    ///
    /// ## Use instead
    /// A table the application writes itself, next to the base table: the same
    /// primary key as the view. Write both with a retry (or replay from a queue)
    /// when the keys differ; when the view keeps the base's partition key, one
    /// LOGGED batch of the two writes is a single mutation, atomic and without
    /// the batchlog. The fix names it `<view>_v2`: a table cannot take the view's
    /// name while the view exists (Cassandra refuses it, and 5.0.9 even keeps the
    /// half-made table and then fails to restart), and the view stays until the
    /// readers have moved to the table.
    /// ```cql
    /// CREATE TABLE iot.temp_by_day_v2 (day date, device_id text, ts timestamp, temp double,
    ///     PRIMARY KEY (day, device_id, ts));
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Materialized Views" (CQL reference)
    /// - CASSANDRA-13959: materialized views marked experimental
    /// - `cassandra.yaml`: `materialized_views_enabled` (5.0), `enable_materialized_views` (4.0)
    pub static MATERIALIZED_VIEW_WRITE_HEAVY = {
        code: "CQL010",
        name: "materialized-view-write-heavy",
        severity: Warning,
        summary: "A materialized view, weighed against its base table's write rate",
        check: check,
    };
}

/// How many times the threshold makes a write-heavy view an error.
const ERROR_FACTOR: f64 = 10.0;

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.view_write_rate_per_second;
    for view in cx.tables().filter(|t| t.is_view()) {
        let Some(info) = &view.view else { continue };
        let Some(base) = cx.schema.table(&view.keyspace, &info.base_table) else {
            continue;
        };
        let base_name = base.qualified_name();
        let view_name = view.qualified_name();
        let load = write_load(cx, &base_name);
        let from_stats = stats_growth(cx, base);
        let rate = base_write_rate(load.rate, from_stats);
        let written = if load.rate > 0.0 {
            load.describe()
        } else {
            format!(
                "{} new rows (statistics file, rows_per_second)",
                format_rate(from_stats.unwrap_or_default())
            )
        };
        let severity = match rate {
            Some(r) if r > threshold * ERROR_FACTOR => Severity::Error,
            Some(r) if r > threshold => Severity::Warning,
            _ => Severity::Info,
        };
        let message = match rate {
            Some(r) if severity != Severity::Info => format!(
                "materialized view `{view_name}` on `{base_name}`, which is written {} (threshold {})",
                format_rate(r),
                format_rate(threshold)
            ),
            _ => format!(
                "materialized view `{view_name}`: experimental, disabled by default since 4.0 (`materialized_views_enabled: false` in 5.0)"
            ),
        };
        let label = if severity == Severity::Info {
            "materialized view"
        } else {
            "view of a write-heavy table"
        };
        let mut f = out
            .new_finding(message)
            .severity(severity)
            .at(view.origin.file, name_site(cx, view.origin), view.origin.span.start, label)
            .table(view_name.clone())
            .note(format!(
                "every write to `{base_name}` also writes the view: the replica reads the base row first (a read-before-write under a partition lock), and nothing repairs a view that diverges from its base"
            ));
        if let Some((heaviest, _)) = load.rated.first() {
            f = f.query(heaviest.name.clone());
        }
        f = match (rate, severity) {
            (Some(_), Severity::Info) => f.note(format!(
                "writes to `{base_name}`: {written}, under the {} threshold",
                format_rate(threshold)
            )),
            (Some(_), _) => f
                .note(format!("writes to `{base_name}`: {written}"))
                .note("materialized views are experimental: disabled by default since 4.0, `materialized_views_enabled: false` in 5.0"),
            (None, _) if !cx.has_queries => f.note(format!(
                "heuristic: no query list or statistics, so the write rate of `{base_name}` is unknown; give the queries with `@rate` to weigh the view against {}",
                format_rate(threshold)
            )),
            (None, _) => f.note(format!(
                "heuristic: no write to `{base_name}` has a `@rate`; annotate them to weigh the view against {}",
                format_rate(threshold)
            )),
        };
        let same_partition = same_partition_key(view, base);
        let how = if same_partition {
            format!(
                "write it with `{base_name}` in one LOGGED BATCH: both rows share the partition key, so the batch is a single mutation, atomic and without the batchlog"
            )
        } else {
            format!(
                "write it next to `{base_name}` from the application, with a retry (or a replay from a queue) when one write fails"
            )
        };
        let table_name = replacement_name(&view.name);
        f = f.fix(
            format!(
                "replace the view by a table the application maintains, `{}.{table_name}` (it cannot take the view's name while the view exists, and the view must stay until readers have moved): {how}. Backfill it, switch reads, then drop the view",
                view.keyspace
            ),
            Some(create_table_for(view, &table_name)),
        );
        out.push(f);
    }
}

/// The base table's write rate: the query list's `@rate`s when any is given,
/// else the rate the statistics file gives for the table.
fn base_write_rate(from_queries: f64, from_stats: Option<f64>) -> Option<f64> {
    if from_queries > 0.0 {
        Some(from_queries)
    } else {
        from_stats
    }
}

fn same_partition_key(view: &Table, base: &Table) -> bool {
    let names = |t: &Table| {
        t.partition_key()
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    names(view) == names(base)
}

/// The replacement table's name: the view's with `_v2`, cut to Cassandra's
/// 48-character limit. A table named like an existing view is refused, and
/// Cassandra 5.0.9 even keeps it half-created (it fails registering the
/// table's metrics under the view's name and then cannot restart), so the
/// fix must never reuse the view's name.
fn replacement_name(view: &str) -> String {
    const SUFFIX: &str = "_v2";
    const MAX: usize = 48;
    let keep: String = view.chars().take(MAX - SUFFIX.len()).collect();
    format!("{keep}{SUFFIX}")
}

/// `CREATE TABLE name` with the view's columns, primary key and clustering order.
fn create_table_for(view: &Table, name: &str) -> String {
    let mut cql = format!(
        "CREATE TABLE {}.{} (\n",
        quote_ident(&view.keyspace),
        quote_ident(name)
    );
    for c in &view.columns {
        let stat = if c.is_static() { " static" } else { "" };
        cql.push_str(&format!("    {} {}{stat},\n", quote_ident(&c.name), c.ty));
    }
    let pk: Vec<String> = view.partition_key().map(|c| quote_ident(&c.name)).collect();
    let partition = if pk.len() == 1 {
        pk.join("")
    } else {
        format!("({})", pk.join(", "))
    };
    let clustering: Vec<String> = view.clustering().map(|c| quote_ident(&c.name)).collect();
    let key = std::iter::once(partition)
        .chain(clustering)
        .collect::<Vec<_>>()
        .join(", ");
    cql.push_str(&format!("    PRIMARY KEY ({key})\n)"));
    let orders: Vec<(String, Order)> = view
        .clustering()
        .filter_map(|c| match c.kind {
            ColumnKind::Clustering(_, o) => Some((quote_ident(&c.name), o)),
            _ => None,
        })
        .collect();
    if orders.iter().any(|(_, o)| *o == Order::Desc) {
        let list: Vec<String> = orders
            .iter()
            .map(|(n, o)| format!("{n} {}", o.keyword()))
            .collect();
        cql.push_str(&format!(" WITH CLUSTERING ORDER BY ({})", list.join(", ")));
    }
    cql.push(';');
    cql
}

#[cfg(test)]
mod tests {
    use super::replacement_name;

    #[test]
    fn the_replacement_table_never_takes_the_view_name_and_fits_the_limit() {
        assert_eq!(replacement_name("temp_by_day"), "temp_by_day_v2");
        let long = "v".repeat(48);
        let name = replacement_name(&long);
        assert_ne!(name, long);
        assert_eq!(name.chars().count(), 48);
        assert!(name.ends_with("_v2"));
    }
}
