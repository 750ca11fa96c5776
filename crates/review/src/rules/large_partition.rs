use crate::stats::{Layout, Quantiles, Recommendation, RecommendationKind, SizeEstimate};
use crate::stats::{format_bytes, format_count, format_duration};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;

use super::bucketing::{bucketed_table, salted_table, span_text};
use super::column_roles::time_clustering;
use super::key_facts::{bytes_text, column_site};
use crate::context::{Context, stats_thresholds};
use crate::declare_rule;
use crate::finding::{Finding, Findings};

declare_rule! {
    /// ## What it does
    /// Estimates every table the statistics file describes (rows, growth,
    /// retention, key cardinalities and distributions, value sizes; see
    /// `docs/stats.md`) and reports those whose p99 or largest partition exceeds
    /// the thresholds: `partition_bytes` (default 100 MiB) or `partition_rows`
    /// (default 100,000) of `cqlmodel.toml`'s `[thresholds]`. A partition more
    /// than 10 times over a limit is an error.
    ///
    /// Without statistics the rule is silent: sizes cannot be guessed from a schema.
    /// (A partition that grows for ever is `unbounded-partition`'s finding, with or
    /// without statistics.)
    ///
    /// ## Evidence
    /// Statistics only (`docs/stats.md`): without them the rule is silent, since
    /// sizes cannot be guessed from a schema.
    ///
    /// ## Why is this bad?
    /// Cassandra reads, compacts, repairs and streams a partition as a unit. Large
    /// partitions make reads slow (the partition index must be walked), put heap
    /// pressure on compaction and repair, and keep one replica set busy while the
    /// rest of the cluster idles. Cassandra's own large-partition warning defaults
    /// to 100 MiB (`compaction_large_partition_warning_threshold` up to 4.1; the
    /// `partition_size_warn_threshold` guardrail in 5.0). A skewed key (Zipf: a few
    /// customers with most of the orders) makes the largest partition many times
    /// the mean.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (device_id text, ts timestamp, temp double,
    ///     PRIMARY KEY (device_id, ts));
    /// -- stats: rows_per_second = 10000, retention = "365d", device_id distinct = 10000
    /// -- → 31.5 M rows in every partition after a year
    /// ```
    ///
    /// ## Use instead
    /// What the sizing recommends: the coarsest time bucket that keeps p99 and max
    /// under the limits (a growing table), else the fewest salt buckets, with the
    /// read fan-out it costs:
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (device_id text, day date, ts timestamp, temp double,
    ///     PRIMARY KEY ((device_id, day), ts));
    /// -- 86,400 rows per partition; a 24-hour range reads 2 partitions
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Evaluating and Refining Data Models"
    ///   (the partition size formula and the 100 MB / 100,000-row guidance)
    /// - `cassandra.yaml`: `compaction_large_partition_warning_threshold` (4.1),
    ///   `partition_size_warn_threshold` (5.0 guardrails)
    /// - `docs/stats.md` (the estimate, its assumptions and the recommendation)
    pub static LARGE_PARTITION = {
        code: "CQL008",
        name: "large-partition",
        severity: Warning,
        summary: "Estimated partitions over 100 MiB or 100,000 rows (from statistics)",
        check: check,
    };
}

/// Over this many times a limit the table is an error, not a warning.
const ERROR_FACTOR: f64 = 10.0;

fn check(cx: &Context<'_>, out: &mut Findings) {
    let t = stats_thresholds(cx.config);
    for table in cx.tables().filter(|t| !t.is_view()) {
        let Some(estimate) = cx.estimate(table) else {
            continue;
        };
        let sizes = &estimate.sizes;
        let over_rows = sizes.rows.p99 > t.partition_rows || sizes.rows.max > t.partition_rows;
        let over_bytes = sizes.bytes.p99 > t.partition_bytes || sizes.bytes.max > t.partition_bytes;
        if !over_rows && !over_bytes {
            continue;
        }
        let severity = if sizes.rows.max > ERROR_FACTOR * t.partition_rows
            || sizes.bytes.max > ERROR_FACTOR * t.partition_bytes
        {
            Severity::Error
        } else {
            Severity::Warning
        };
        report(cx, table, estimate, severity, over_rows, over_bytes, out);
    }
}

fn spread(q: &Quantiles, fmt: fn(f64) -> String) -> String {
    format!(
        "mean {}, p99 {}, max {}",
        fmt(q.mean),
        fmt(q.p99),
        fmt(q.max)
    )
}

fn report(
    cx: &Context<'_>,
    table: &Table,
    estimate: &SizeEstimate,
    severity: Severity,
    over_rows: bool,
    over_bytes: bool,
    out: &mut Findings,
) {
    let sizes = &estimate.sizes;
    let limits = &cx.config.thresholds;
    let mut over = Vec::new();
    if over_rows {
        over.push(format!(
            "{} rows",
            format_count(limits.partition_rows as f64)
        ));
    }
    if over_bytes {
        over.push(bytes_text(limits.partition_bytes));
    }
    let age = estimate
        .sized_at
        .map(|a| format!(" after {}", format_duration(a)))
        .unwrap_or_default();
    let message = format!(
        "partitions of `{}` are too large{age}: the largest holds {} rows, {} (over {})",
        table.qualified_name(),
        format_count(sizes.rows.max),
        format_bytes(sizes.bytes.max),
        over.join(" and ")
    );
    let (file, span, start) = match table.partition_key().next() {
        Some(c) => column_site(table, c),
        None => (
            table.origin.file,
            table.origin.span.range(),
            table.origin.span.start,
        ),
    };
    let f = out
        .new_finding(message)
        .severity(severity)
        .at(file, span, start, "every row of a key shares one partition")
        .table(table.qualified_name())
        .note(format!(
            "statistics: {} partitions; rows per partition {}; bytes per partition {}",
            format_count(sizes.partitions),
            spread(&sizes.rows, format_count),
            spread(&sizes.bytes, format_bytes)
        ))
        .note(format!("assumptions: {}", estimate.assumptions.join("; ")));
    let f = match &estimate.recommendation {
        Some(rec) => with_recommendation(cx, table, rec, f),
        None => f.help(
            "no bucket or salt brings it under the limits: a single row is too large (see `large-value`), or the key needs redesign",
        ),
    };
    out.push(f);
}

/// The sizing's recommendation as the finding's help and fix: the bucketed or
/// salted table, and what reading it then costs.
fn with_recommendation(
    cx: &Context<'_>,
    table: &Table,
    rec: &Recommendation,
    f: Finding,
) -> Finding {
    let after = format!(
        "after it the largest partition holds {} rows, {}",
        format_count(rec.sizes.rows.max),
        format_bytes(rec.sizes.bytes.max)
    );
    match rec.kind {
        RecommendationKind::TimeBucket(unit) => {
            let current = cx
                .table_stats(table)
                .map(|s| Layout::build(table, s))
                .and_then(|l| l.bucket.map(|(name, _)| name));
            let (sketch, bucket) = bucketed_table(
                table,
                unit,
                time_clustering(table).map(|c| c.name.as_str()),
                current.as_deref(),
            );
            f.help(format!(
                "every query must now name `{bucket}`: a {} range reads {} partitions; {after}",
                span_text(rec.query_span),
                rec.read_fanout
            ))
            .fix(
                format!(
                    "bucket the partition key by {} (the sizing's recommendation; a new table and a migration)",
                    unit.name()
                ),
                Some(sketch.cql()),
            )
        }
        RecommendationKind::Salt(n) => {
            let source = table.clustering().next().map(|c| c.name.as_str());
            let (sketch, salt) = salted_table(table, n, source);
            f.help(format!(
                "reading one key now reads all {n} `{salt}` partitions (`{salt} IN (0, ..., {})`, or {n} concurrent reads); {after}",
                n.saturating_sub(1)
            ))
            .fix(
                format!(
                    "salt the partition key with {n} buckets (the sizing's recommendation; a new table and a migration)"
                ),
                Some(sketch.cql()),
            )
        }
    }
}
