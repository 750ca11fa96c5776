use crate::stats::share_quantiles;
use crate::stats::{Cut, Distribution, Flow, Layout, Retention, TableStats, Volume, sizes_at};
use crate::stats::{format_bytes, format_count};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::access::AccessKind;
use cqlmodel_schema::{Column, Table};

use super::bucketing::{bucketed_table, choose_bucket};
use super::column_roles::{
    bounds_partition, identifies_an_entity, is_time_type, low_cardinality_by_heuristic,
    named_like_salt, named_like_time, names_a_person, names_an_emitter, orders_in_time,
    time_clustering,
};
use super::key_facts::{QueryIndex, about, column_site, partition_key_text, sets_ttl};
use super::query_facts::{single_statements, statement_table, write_load};
use crate::context::{Context, stats_thresholds};
use crate::declare_rule;
use crate::finding::Findings;
use crate::table_hints::ttl_hint;

declare_rule! {
    /// ## What it does
    /// Finds tables whose partitions grow for ever:
    ///
    /// - rows clustered by time (the **first** clustering column a `timestamp`,
    ///   `timeuuid` or `date`, or named like `ts`, `time`, `created_at`) under a
    ///   partition key with no time bucket or partition number (no `date` column,
    ///   no column named like `day`, `month`, `hour`, `bucket`, `partition`,
    ///   `timebucket`), with no `default_time_to_live`, no TTL hint, no `USING
    ///   TTL` on every write of the query list, and no DELETE of whole rows;
    /// - or, when a statistics file describes the table, a table that keeps growing
    ///   (`rows_per_second`, unbounded retention) while its number of partitions stays
    ///   fixed, so that every partition gains rows for ever.
    ///
    /// Without statistics the finding is a heuristic and says so. A key naming a
    /// source that emits continuously (a device, a sensor, a host, a metric) or
    /// naming no entity at all is a warning; a partition keyed by a person
    /// (`user_id`), by one entity's id (`workflow_id`, a `uuid`), listing
    /// entities by a time-based id (`id timeuuid`), or salted (`shard`), grows at
    /// the pace of that entity's life: info, worded as a question. With
    /// statistics the numbers decide: a partition that reaches the limits within
    /// 10 years is a warning, a slower one info.
    ///
    /// A table bounded by a TTL is not unbounded, whatever its size: whether it is
    /// *large* is `large-partition`'s question.
    ///
    /// ## Evidence
    /// - Statistics (`rows_per_second`, `retention`, key cardinalities) decide
    ///   when the table has them.
    /// - Without them, the schema: the **first** clustering column must order rows
    ///   in time (a time in a later position orders rows within a prefix, not the
    ///   partition); a time bucket or partition number in the key (`day`, `month`,
    ///   `bucket`, `partition`, `partition_nr`, `timebucket`) or a
    ///   `default_time_to_live` bounds it.
    /// - The query list: `USING TTL` on every write bounds it; a DELETE of whole
    ///   rows means rows are consumed (the tombstones are `queue-pattern`'s
    ///   question).
    /// - A TTL the code sets per write that the schema cannot show: `-- @ttl 30d`
    ///   in the comment right above the CREATE TABLE, or `[tables."ks.t"] ttl =
    ///   "30d"` in `cqlmodel.toml`.
    /// - The severity follows the names: a warning for a stream (a device, a host,
    ///   a metric, or a key that names no entity); info, worded as a question, for
    ///   a person, an entity's own id (a workflow, a run), a time-based id as the
    ///   clustering column (a list of entities), or a salted key.
    ///
    /// ## Why is this bad?
    /// A partition lives on the same replicas for ever and is compacted, repaired
    /// and read as a unit. A device writing one reading a second puts 86,400 rows a
    /// day and 31.5 million rows a year into its partition: past ~100 MB or 100,000
    /// rows, reads slow down, compaction and repair stream the whole partition, and
    /// nothing ever splits it. The primary key cannot be altered afterwards: the
    /// fix is a new table and a migration.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (
    ///     device_id text,
    ///     ts        timestamp,
    ///     temp      double,
    ///     PRIMARY KEY (device_id, ts)
    /// ) WITH CLUSTERING ORDER BY (ts DESC);
    /// ```
    ///
    /// ## Use instead
    /// A time bucket in the partition key (a day unless the statistics recommend
    /// another width), or a TTL that ends every row:
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (
    ///     device_id text,
    ///     day       date,       -- bucket: date of ts
    ///     ts        timestamp,
    ///     temp      double,
    ///     PRIMARY KEY ((device_id, day), ts)
    /// ) WITH CLUSTERING ORDER BY (ts DESC);
    /// ```
    /// Every query must then name the bucket, and a range that spans buckets reads
    /// one partition per bucket (a 24 h range over day buckets reads 2).
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Evaluating and Refining Data Models"
    ///   (partition size limits, bucketing)
    /// - DataStax, "Data modeling: time series pattern" (time buckets)
    /// - `docs/stats.md` (sizing and the bucket recommendation)
    pub static UNBOUNDED_PARTITION = {
        code: "CQL007",
        name: "unbounded-partition",
        severity: Warning,
        summary: "A partition that grows without bound (time-ordered rows, no time bucket, no TTL)",
        check: check,
    };
}

/// Growth slower than this reaches the partition limits only after the schema has
/// likely been redesigned anyway: reported as info.
const SLOW_GROWTH_SECONDS: f64 = 10.0 * 365.0 * 86_400.0;

/// Why a table's partitions grow for ever.
struct Growth<'t> {
    time_column: Option<&'t Column>,
    severity: Severity,
    message: String,
    notes: Vec<String>,
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let index = &cx.index;
    for table in cx.tables().filter(|t| !t.is_view()) {
        let Some(growth) = assess(cx, index, table) else {
            continue;
        };
        report(cx, index, table, growth, out);
    }
}

fn assess<'t>(cx: &Context<'_>, index: &QueryIndex<'_>, table: &'t Table) -> Option<Growth<'t>> {
    if table.clustering_len() == 0 {
        return None;
    }
    if let Some(stats) = cx.table_stats(table) {
        let layout = Layout::build(table, stats);
        if layout.bucket.is_some() {
            return None;
        }
        match layout.flow {
            Flow::Growth {
                retention: Some(_), ..
            } => return None,
            Flow::Growth {
                retention: None,
                rows_per_second,
                ..
            } => return from_stats(cx, table, stats, &layout, rows_per_second),
            Flow::Fixed { .. } => {
                // A fixed-size table does not grow; a table the statistics describe
                // without saying how it grows falls back to the schema's evidence.
                if !matches!(stats.volume, Volume::Unspecified)
                    || matches!(stats.retention, Retention::Seconds(_))
                {
                    return None;
                }
            }
        }
    }
    heuristic(cx, index, table)
}

fn from_stats<'t>(
    cx: &Context<'_>,
    table: &'t Table,
    stats: &TableStats,
    layout: &Layout,
    rows_per_second: f64,
) -> Option<Growth<'t>> {
    const YEAR: u64 = 365 * 86_400;
    let dims: Vec<_> = layout
        .dims
        .iter()
        .map(|d| (d.distribution, d.distinct))
        .collect();
    let shares = share_quantiles(&dims);
    let cut = Cut {
        bucket_seconds: None,
        salt: 1.0,
    };
    let one = sizes_at(layout, &shares, cut, YEAR);
    let two = sizes_at(layout, &shares, cut, 2 * YEAR);
    // A time value in the partition key multiplies partitions instead of growing them.
    if two.rows.max <= one.rows.max * 1.000_001 {
        return None;
    }
    let per_second = (two.rows.max - one.rows.max) / YEAR as f64;
    let t = stats_thresholds(cx.config);
    let to_rows = t.partition_rows / per_second;
    let per_row = layout.cost.bytes_per_row();
    let to_bytes = if per_row > 0.0 {
        (t.partition_bytes - layout.cost.bytes(0.0)).max(0.0) / (per_second * per_row)
    } else {
        f64::INFINITY
    };
    let (limit, when) = if to_rows <= to_bytes {
        (format!("{} rows", format_count(t.partition_rows)), to_rows)
    } else {
        (format_bytes(t.partition_bytes), to_bytes)
    };
    let severity = if when > SLOW_GROWTH_SECONDS {
        Severity::Info
    } else {
        Severity::Warning
    };
    let time_column = time_clustering(table).or_else(|| {
        table.clustering().find(|c| {
            stats
                .column(&c.name)
                .and_then(|s| s.distribution)
                .is_some_and(|d| matches!(d, Distribution::Time { .. }))
        })
    });
    Some(Growth {
        time_column,
        severity,
        message: format!(
            "partitions of `{}` grow without bound: the largest gains {} and nothing expires them",
            table.qualified_name(),
            growth_rate(per_second)
        ),
        notes: vec![format!(
            "statistics: {} rows/s into {} partitions with unbounded retention: the largest partition passes {limit} after {}",
            format_count(rows_per_second),
            format_count(one.partitions),
            about(when)
        )],
    })
}

/// Rows gained per day, or per year when a day's gain rounds to nothing
/// (a slow partition still grows without bound).
fn growth_rate(per_second: f64) -> String {
    let per_day = per_second * 86_400.0;
    if per_day >= 1.0 {
        format!("{} rows a day", format_count(per_day))
    } else {
        format!(
            "{} rows a year",
            format_count(per_second * 365.0 * 86_400.0)
        )
    }
}

fn heuristic<'t>(cx: &Context<'_>, index: &QueryIndex<'_>, table: &'t Table) -> Option<Growth<'t>> {
    // Only the first clustering column orders a partition's rows: a time in
    // sixth place orders rows within a prefix, not the partition.
    let time_column = table.clustering().next().filter(|c| orders_in_time(c))?;
    if table
        .partition_key()
        .any(|c| is_time_type(&c.ty) || bounds_partition(c))
    {
        return None;
    }
    if table.options.default_time_to_live.is_some_and(|t| t > 0) {
        return None;
    }
    if ttl_hint(cx.config, cx.sources, table).is_some() {
        return None;
    }
    let name = table.qualified_name();
    let writes = index.writes_to(&name);
    if !writes.is_empty() && writes.iter().all(|(_, stmt)| sets_ttl(stmt)) {
        return None;
    }
    // Rows the application deletes once handled do not accumulate: whether the
    // deletes leave tombstones in the reads' way is `queue-pattern`'s question.
    let deleted = cx.queries_on(table).any(|q| {
        q.path.error.is_none()
            && single_statements(q).into_iter().any(|stmt| {
                deletes_rows(stmt) && statement_table(q, stmt).as_deref() == Some(name.as_str())
            })
    });
    if deleted {
        return None;
    }
    let key = partition_key_text(table);
    let mut notes = vec![format!(
        "heuristic (no statistics for this table): `{}` ({}), the first clustering column, orders rows in time; no partition-key column is a time bucket or partition number, and no TTL ends a row",
        time_column.name, time_column.ty
    )];
    let (severity, reason) = growth_pace(cx, table, time_column);
    notes.push(reason);
    if severity == Severity::Warning {
        notes.push(if cx.config.deployed {
            format!(
                "unless rows expire: a TTL the application sets on each write does not show in the schema; give it as `[tables.\"{name}\"] ttl = \"30d\"` in a cqlmodel.toml passed with --config (the schema was read from the cluster, so there is no CREATE TABLE to annotate)"
            )
        } else {
            format!(
                "unless rows expire: a TTL the application sets on each write does not show in the schema; give it as `-- @ttl 30d` above the CREATE TABLE or `[tables.\"{name}\"] ttl = \"30d\"` in cqlmodel.toml"
            )
        });
    }
    Some(Growth {
        time_column: Some(time_column),
        severity,
        message: format!(
            "partitions of `{name}` grow without bound: rows are clustered by time (`{}`) under a partition key without a time bucket (`{key}`)",
            time_column.name
        ),
        notes,
    })
}

/// How fast one partition grows, judged from names: a warning for a stream (a
/// device, a host, a metric, or a key that names no entity), info for a list
/// that grows at the pace of one entity's life (a person, a workflow, a run).
fn growth_pace(cx: &Context<'_>, table: &Table, time_column: &Column) -> (Severity, String) {
    let key = partition_key_text(table);
    let rate_evidence = "a statistics file with `rows_per_second` sizes it";
    if table.partition_key().any(names_an_emitter) {
        return (
            Severity::Warning,
            format!(
                "`{key}` names a source that emits continuously: at one row a second a partition holds 86,400 rows after a day and 31.5 M after a year; {rate_evidence}"
            ),
        );
    }
    if table.partition_key().any(names_a_person) {
        return (
            Severity::Info,
            format!(
                "`{key}` names a person: the partition grows at the pace of one person's activity (a question, not a finding); {rate_evidence}"
            ),
        );
    }
    if identifies_an_entity(time_column)
        && !named_like_time(&time_column.name)
        && !table.partition_key().any(low_cardinality_by_heuristic)
    {
        if let Some(stream) = stream_rate(cx, table) {
            return (Severity::Warning, stream);
        }
        return (
            Severity::Info,
            format!(
                "`{}` identifies the rows (a time-based id): the partition lists the entities of `{key}`, which grows as fast as they are created (a question, not a finding); {rate_evidence}",
                time_column.name
            ),
        );
    }
    if table.partition_key().all(identifies_an_entity) {
        if let Some(stream) = stream_rate(cx, table) {
            return (Severity::Warning, stream);
        }
        return (
            Severity::Info,
            format!(
                "`{key}` identifies one entity: its rows grow with that entity's life, which usually ends (a question, not a finding); {rate_evidence}"
            ),
        );
    }
    if table.partition_key().any(named_like_salt) {
        return (
            Severity::Info,
            format!(
                "`{key}` has a salt or shard: it divides each key's growth, it does not bound it (a question, not a finding); {rate_evidence}"
            ),
        );
    }
    (
        Severity::Warning,
        format!(
            "at one row a second a partition holds 86,400 rows after a day and 31.5 M after a year; {rate_evidence}"
        ),
    )
}

/// The query list writes the table as a stream: at `high_rate_per_second` or
/// more in total, one entity's partition passes `partition_rows` within a year
/// unless the writes spread over more entities than the note says.
fn stream_rate(cx: &Context<'_>, table: &Table) -> Option<String> {
    let rate = write_load(cx, &table.qualified_name()).rate;
    if rate < cx.config.thresholds.high_rate_per_second {
        return None;
    }
    let year = 365.0 * 86_400.0;
    let rows = cx.config.thresholds.partition_rows as f64;
    Some(format!(
        "the query list writes it {rate}/s: unless more than {} keys share those writes evenly, a partition passes {} rows within a year (a statistics file with `distinct` and `rows_per_second` decides)",
        format_count(rate * year / rows),
        format_count(rows)
    ))
}

/// A DELETE of whole rows (no column list).
fn deletes_rows(stmt: &cqlmodel_cql::ast::Statement) -> bool {
    matches!(&stmt.kind, cqlmodel_cql::ast::StatementKind::Delete(d) if d.columns.is_empty())
}

fn report(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
    growth: Growth<'_>,
    out: &mut Findings,
) {
    let name = table.qualified_name();
    let (file, span, start, label) = match growth.time_column {
        Some(c) => {
            let (f, s, st) = column_site(table, c);
            (f, s, st, "rows ordered by time accumulate in one partition")
        }
        None => match table.partition_key().next() {
            Some(c) => {
                let (f, s, st) = column_site(table, c);
                (
                    f,
                    s,
                    st,
                    "every row of a key lands in one partition, for ever",
                )
            }
            None => (
                table.origin.file,
                table.origin.span.range(),
                table.origin.span.start,
                "grows for ever",
            ),
        },
    };
    let choice = choose_bucket(cx, table);
    let (sketch, bucket) = bucketed_table(
        table,
        choice.unit,
        growth.time_column.map(|c| c.name.as_str()),
        None,
    );
    let mut f = out
        .new_finding(growth.message)
        .severity(growth.severity)
        .at(file, span, start, label)
        .table(name.clone());
    for n in growth.notes {
        f = f.note(n);
    }
    f = f.note(
        "a partition is stored, compacted and repaired as a unit: past ~100 MB or 100,000 rows reads slow down and compaction and repair stream the whole partition",
    );
    f = f.note(match &choice.sizes {
        Some(sizes) => format!(
            "{}: the largest partition then holds {} rows, {}",
            choice.basis,
            format_count(sizes.rows.max),
            format_bytes(sizes.bytes.max)
        ),
        None => choice.basis.clone(),
    });
    let mut changes = format!(
        "every query must now name `{bucket}`: {}",
        choice.fanout_text()
    );
    let readers: Vec<&str> = index
        .reads_of(&name)
        .iter()
        .filter(|q| {
            matches!(
                q.path.kind,
                AccessKind::SinglePartition | AccessKind::MultiPartition
            )
        })
        .map(|q| q.name.as_str())
        .collect();
    let writers: Vec<&str> = index
        .writes_to(&name)
        .iter()
        .map(|(q, _)| q.name.as_str())
        .collect();
    if !readers.is_empty() {
        changes.push_str(&format!(
            "; reads to change: {}",
            crate::listing::capped(&dedup(&readers))
        ));
    }
    if !writers.is_empty() {
        changes.push_str(&format!(
            "; writes to change: {}",
            crate::listing::capped(&dedup(&writers))
        ));
    }
    f = f.help(changes);
    f = f.fix(
        format!(
            "add a `{}` bucket to the partition key (a new table: a primary key cannot be altered; dual-write, backfill, then switch reads), or set a default_time_to_live if old rows may expire",
            choice.unit.name()
        ),
        Some(sketch.cql()),
    );
    out.push(f);
}

fn dedup<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(n) {
            out.push(n);
        }
    }
    out
}
