//! `cqlmodel size --cluster HOST [--table KS.T]`: partition sizes as the cluster
//! measured them, instead of sizes computed from assumed statistics. Every figure
//! says where it comes from: measured (`system.table_estimates`,
//! `system_views.max_partition_size`, `system_views.disk_usage`, summed or
//! maximized over the nodes that answered), assumed (rows per partition, from
//! the measured bytes and the schema's row size with assumed column sizes), or
//! not measured at all (percentiles: the system tables give a mean and a maximum).
//! With `--stats`, the statistics file's column sizes replace the assumed ones
//! in the row size (so in the rows per partition), its thresholds replace the
//! defaults, and its estimate stands in for a figure the cluster did not report;
//! a measured figure always wins, and each says where it came from.
//!
//! The JSON is an array of per-table objects with the fields of offline `size`
//! (`table`, `partitions`, `total_rows`, `bytes_per_partition`,
//! `rows_per_partition`, `thresholds`, `exceeds`, `assumptions`) plus `sources`,
//! `measured`, `row_bytes`, `not_measured` and `cluster`, so the HTML size page
//! renders it.
//!
//! Exit codes: 0 within the thresholds, 1 a table over one, 2 an input or
//! connection error.

use crate::output::Model;
use std::fmt::Write as _;

use cqlmodel_cluster::{ClusterSnapshot, read_cluster};
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap, render_human, render_json};
use cqlmodel_schema::{Schema, Table};
use cqlmodel_stats::units::{format_bytes, format_count};
use cqlmodel_stats::{Exceeded, Stats, TableStats, Thresholds, estimate_table};
use serde_json::{Value, json};

use std::path::PathBuf;

use crate::cluster_args::ClusterArgs;
use crate::schema_load::load_stats_file;

const MIB: f64 = 1_048_576.0;

/// Why the percentiles are missing, on every table.
pub const NO_PERCENTILES: &str = "p50/p95/p99 partition size: not measured (the system tables give only the mean and the maximum; `nodetool tablehistograms` gives percentiles, and `cqlmodel diagnose` reads its output)";

/// One table's figures summed over the nodes that reported it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measured {
    /// How many nodes reported the table at all.
    pub nodes: usize,
    /// Σ `partitions_count` over the nodes' primary ranges.
    pub partitions: Option<u64>,
    /// Mean partition size, weighted by each node's partitions.
    pub mean_bytes: Option<u64>,
    /// The largest `max_partition_size` of any node (whole mebibytes).
    pub max_bytes: Option<u64>,
    /// Σ `disk_usage` (whole mebibytes per node).
    pub disk_bytes: Option<u64>,
}

/// The figures of `keyspace.table` over every node of the snapshot.
pub fn measure(snapshot: &ClusterSnapshot, keyspace: &str, table: &str) -> Measured {
    let mut m = Measured::default();
    let mut weighted: u128 = 0;
    let mut weight: u128 = 0;
    for t in snapshot
        .nodes
        .iter()
        .flat_map(|n| &n.tables)
        .filter(|t| t.keyspace == keyspace && t.table == table)
    {
        m.nodes += 1;
        if let Some(p) = t.partitions {
            m.partitions = Some(m.partitions.unwrap_or(0).saturating_add(p));
            if let Some(mean) = t.mean_partition_bytes {
                weighted += u128::from(mean) * u128::from(p);
                weight += u128::from(p);
            }
        }
        if let Some(max) = t.max_partition_bytes {
            m.max_bytes = Some(m.max_bytes.map_or(max, |x| x.max(max)));
        }
        if let Some(d) = t.disk_bytes {
            m.disk_bytes = Some(m.disk_bytes.unwrap_or(0).saturating_add(d));
        }
    }
    m.mean_bytes = weighted
        .checked_div(weight)
        .and_then(|mean| u64::try_from(mean).ok());
    m
}

/// Where the row size came from: the schema's types at their default sizes, or
/// the statistics file's column sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowSize {
    Assumed,
    Stats,
}

impl RowSize {
    fn label(self) -> &'static str {
        match self {
            RowSize::Assumed => "assumed",
            RowSize::Stats => "stats",
        }
    }

    fn source(self) -> &'static str {
        match self {
            RowSize::Assumed => {
                "the schema's columns at assumed sizes (wrong when values are larger or smaller; --stats corrects it)"
            }
            RowSize::Stats => "the column sizes of the --stats file",
        }
    }
}

/// The statistics of `--stats`, when given.
pub struct Given<'s> {
    pub stats: &'s Stats,
}

/// The bytes of one row and of a partition without rows, by the formula of
/// `cqlmodel size`: with the statistics' column sizes when they describe the
/// table, else a text or blob of unknown length counts as its default size.
fn row_cost(table: &Table, given: Option<&Given>) -> (f64, f64, RowSize) {
    let described = given.and_then(|g| g.stats.table(&table.qualified_name()));
    let default = TableStats::default();
    let f = estimate_table(table, described.unwrap_or(&default), &Thresholds::default()).formula;
    let per_row = f.row_bytes + f.cells_per_row * f.cell_overhead;
    let fixed = f.partition_key_bytes + f.static_bytes + f.static_cells * f.cell_overhead;
    let origin = if described.is_some() {
        RowSize::Stats
    } else {
        RowSize::Assumed
    };
    (per_row, fixed, origin)
}

/// Rows in a partition of `bytes`: the formula solved for the row count.
fn rows_in(bytes: f64, table: &Table, given: Option<&Given>) -> Option<f64> {
    let (per_row, fixed, _) = row_cost(table, given);
    (per_row > 0.0).then(|| ((bytes - fixed) / per_row).max(0.0))
}

/// Where a figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Measured,
    Stats,
}

/// A figure and its origin; `None`: neither the cluster nor the statistics give it.
type Figure = Option<(f64, Origin)>;

/// The measured value, else the statistics' estimate.
fn measured_or(measured: Option<u64>, estimate: Option<f64>) -> Figure {
    measured
        .map(|v| (v as f64, Origin::Measured))
        .or_else(|| estimate.map(|v| (v, Origin::Stats)))
}

struct Row<'a> {
    table: &'a Table,
    measured: Measured,
    /// Partitions, mean and largest partition bytes: measured, or the statistics'.
    partitions: Figure,
    mean_bytes: Figure,
    max_bytes: Figure,
    row_bytes: f64,
    row_size: RowSize,
    mean_rows: Option<f64>,
    max_rows: Option<f64>,
    exceeds: Vec<Exceeded>,
}

fn row<'a>(
    snapshot: &ClusterSnapshot,
    table: &'a Table,
    limits: &Thresholds,
    given: Option<&Given>,
) -> Row<'a> {
    let measured = measure(snapshot, &table.keyspace, &table.name);
    let estimate = given.and_then(|g| {
        let ts = g.stats.table(&table.qualified_name())?;
        Some(estimate_table(table, ts, limits).sizes)
    });
    let partitions = measured_or(measured.partitions, estimate.as_ref().map(|e| e.partitions));
    let mean_bytes = measured_or(measured.mean_bytes, estimate.as_ref().map(|e| e.bytes.mean));
    let max_bytes = measured_or(measured.max_bytes, estimate.as_ref().map(|e| e.bytes.max));
    let (row_bytes, _, row_size) = row_cost(table, given);
    let mean_rows = mean_bytes.and_then(|(b, _)| rows_in(b, table, given));
    let max_rows = max_bytes.and_then(|(b, _)| rows_in(b, table, given));
    let mut exceeds = Vec::new();
    if max_bytes.is_some_and(|(b, _)| b > limits.partition_bytes) {
        exceeds.push(Exceeded::PartitionBytes);
    }
    if max_rows.is_some_and(|r| r > limits.partition_rows) {
        exceeds.push(Exceeded::PartitionRows);
    }
    Row {
        table,
        measured,
        partitions,
        mean_bytes,
        max_bytes,
        row_bytes,
        row_size,
        mean_rows,
        max_rows,
        exceeds,
    }
}

/// What `size --cluster` is asked.
#[derive(Debug, Clone, Default)]
pub struct SizeLiveArgs {
    pub cluster: ClusterArgs,
    /// Only this table (`ks.t`, or `t` when unambiguous).
    pub table: Option<String>,
    /// Statistics (docs/stats.md) correcting the assumed row size and thresholds.
    pub stats: Option<PathBuf>,
}

/// Runs `size --cluster` and returns (stdout, stderr, exit code).
pub fn run(args: &SizeLiveArgs, json_out: bool, color: bool) -> (String, String, u8) {
    run_once(args, json_out, color, &mut Model::unwanted())
}

/// [`run`], keeping the JSON document in `model` for `--html` (the cluster
/// is read once for both outputs).
pub fn run_once(
    args: &SizeLiveArgs,
    json_out: bool,
    color: bool,
    model: &mut Model,
) -> (String, String, u8) {
    let mut sources = SourceMap::new();
    let fail = |d: Vec<Diagnostic>, sources: &SourceMap| {
        if json_out {
            let v = json!({ "errors": render_json(&d, sources) });
            (pretty(&v), String::new(), 2)
        } else {
            (String::new(), render_human(&d, sources, color), 2)
        }
    };
    let snapshot = match read_cluster(&args.cluster.options()) {
        Ok(s) => s,
        Err(e) => return fail(vec![Diagnostic::error("input", e.to_string())], &sources),
    };
    let name = format!("{} (system_schema)", args.cluster.label());
    let file = sources.add(SourceFile::new(name, snapshot.schema_cql.clone()));
    let (schema, _) = crate::live_schema::build_live(&snapshot.schema_cql, file);
    let stats = match &args.stats {
        None => None,
        Some(path) => match load_stats_file(path, &schema, &mut sources) {
            Ok(s) => Some(s),
            Err(d) => return fail(d, &sources),
        },
    };
    let given = stats.as_ref().map(|stats| Given { stats });
    let tables = match selected(&schema, args.table.as_deref()) {
        Ok(t) => t,
        Err(m) => return fail(vec![Diagnostic::error("input", m)], &sources),
    };
    let limits = stats.as_ref().map(|s| s.thresholds).unwrap_or_default();
    let rows: Vec<Row> = tables
        .iter()
        .map(|t| row(&snapshot, t, &limits, given.as_ref()))
        .collect();
    let code = u8::from(rows.iter().any(|r| !r.exceeds.is_empty()));
    let out = model
        .document(json_out, || {
            document(&args.cluster, &snapshot, &rows, &limits)
        })
        .unwrap_or_else(|| text(&args.cluster, &snapshot, &rows, &limits));
    (out, String::new(), code)
}

fn selected<'a>(schema: &'a Schema, only: Option<&str>) -> Result<Vec<&'a Table>, String> {
    let tables: Vec<&Table> = schema.tables().filter(|t| t.view.is_none()).collect();
    match only {
        None if tables.is_empty() => {
            Err("the cluster holds no table outside the system keyspaces: nothing to size".into())
        }
        None => Ok(tables),
        Some(name) => {
            let qualified = crate::schema_load::resolve_table(name, schema)?;
            Ok(tables
                .into_iter()
                .filter(|t| t.qualified_name() == qualified)
                .collect())
        }
    }
}

fn bytes_or_dash(v: Figure) -> String {
    v.map_or_else(|| "—".to_string(), |(b, _)| format_bytes(b))
}

/// A figure the system views give in whole mebibytes: 0 means under one.
fn mib_or_dash(v: Option<u64>) -> String {
    match v {
        Some(0) => "< 1 MiB".to_string(),
        other => bytes_or_dash(other.map(|b| (b as f64, Origin::Measured))),
    }
}

const NOT_REPORTED: &str = "not reported (nothing flushed yet, or estimates older than the data: `nodetool flush`, `nodetool refreshsizeestimates`)";

impl Origin {
    fn label(self) -> &'static str {
        match self {
            Origin::Measured => "measured",
            Origin::Stats => "stats",
        }
    }
}

/// The source of a partition figure: the system table when measured, the
/// statistics' estimate otherwise.
fn source_of(figure: Figure, measured_source: &str) -> String {
    match figure {
        Some((_, Origin::Measured)) => measured_source.to_string(),
        Some((_, Origin::Stats)) => {
            "the --stats estimate (the cluster did not report it)".to_string()
        }
        None => NOT_REPORTED.to_string(),
    }
}

/// The system tables' mean and maximum sources.
const PARTITIONS_SOURCE: &str =
    "system.table_estimates (an estimate; Σ over the nodes' primary ranges)";
const MEAN_SOURCE: &str = "system.table_estimates mean_partition_size";
const MAX_SOURCE: &str = "system_views.max_partition_size (whole MiB; the largest of any node)";

fn text(
    cluster: &ClusterArgs,
    snapshot: &ClusterSnapshot,
    rows: &[Row],
    limits: &Thresholds,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} node{} answered{}\n",
        cluster.label(),
        snapshot.nodes.len(),
        if snapshot.nodes.len() == 1 { "" } else { "s" },
        snapshot
            .release_version
            .as_deref()
            .map(|v| format!(", release {v}"))
            .unwrap_or_default()
    );
    for r in rows {
        table_text(&mut out, r, limits);
    }
    let over = rows.iter().filter(|r| !r.exceeds.is_empty()).count();
    let _ = writeln!(
        out,
        "{} table{}: {} within the thresholds, {over} over",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        rows.len() - over
    );
    for n in &snapshot.notes {
        let _ = writeln!(out, "note: {}", cqlmodel_diagnostics::escape_line(n));
    }
    out
}

fn table_text(out: &mut String, r: &Row, limits: &Thresholds) {
    let verdict = if r.exceeds.is_empty() {
        "ok".to_string()
    } else {
        let names: Vec<&str> = r.exceeds.iter().map(|e| e.name()).collect();
        format!("EXCEEDS {}", names.join(", "))
    };
    let qualified = r.table.qualified_name();
    let name = cqlmodel_diagnostics::escape_line(&qualified);
    let _ = writeln!(out, "{name}  {verdict}");
    let line = |out: &mut String, kind: &str, what: &str, value: String, source: &str| {
        let _ = writeln!(out, "  {kind:<9} {what:<20} {value:>10}   {source}");
    };
    let kind = |f: Figure| f.map_or("measured", |(_, o)| o.label());
    let over = |over: bool| if over { "  over the limit" } else { "" };
    line(
        out,
        kind(r.partitions),
        "partitions",
        r.partitions
            .map_or_else(|| "—".into(), |(p, _)| format_count(p)),
        &source_of(r.partitions, PARTITIONS_SOURCE),
    );
    line(
        out,
        kind(r.mean_bytes),
        "mean partition size",
        bytes_or_dash(r.mean_bytes),
        &source_of(r.mean_bytes, MEAN_SOURCE),
    );
    let max_value = match r.max_bytes {
        Some((b, Origin::Measured)) if b < 1.0 => "< 1 MiB".to_string(),
        other => bytes_or_dash(other),
    };
    line(
        out,
        kind(r.max_bytes),
        "max partition size",
        max_value,
        &format!(
            "{} (limit {}){}",
            source_of(r.max_bytes, MAX_SOURCE),
            format_bytes(limits.partition_bytes),
            over(r.exceeds.contains(&Exceeded::PartitionBytes))
        ),
    );
    line(
        out,
        "measured",
        "disk used",
        mib_or_dash(r.measured.disk_bytes),
        "system_views.disk_usage (whole MiB per node, Σ over nodes)",
    );
    let rows_of = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |r| format_count(r.round()));
    // A measured maximum under one mebibyte is read as 0: its rows are bounded, not known.
    let max_rows = match r.max_bytes {
        Some((b, Origin::Measured)) if b < 1.0 => {
            rows_in(MIB, r.table, None).map(|n| format!("< {}", format_count(n.round())))
        }
        _ => None,
    }
    .unwrap_or_else(|| rows_of(r.max_rows));
    let by = r.row_size.label();
    line(
        out,
        by,
        "rows, mean partition",
        rows_of(r.mean_rows),
        &format!(
            "the mean ÷ {} a row ({})",
            format_bytes(r.row_bytes),
            r.row_size.source()
        ),
    );
    line(
        out,
        by,
        "rows, max partition",
        max_rows,
        &format!(
            "the max ÷ the row size (limit {} rows){}",
            format_count(limits.partition_rows),
            over(r.exceeds.contains(&Exceeded::PartitionRows))
        ),
    );
    let _ = writeln!(out, "  {NO_PERCENTILES}\n");
}

/// A figure as JSON: whole numbers as integers.
fn figure_json(f: Figure) -> Value {
    f.map_or(Value::Null, |(v, _)| json!(v.round() as u64))
}

/// One table in the shape of offline `size` (see the module comment).
fn table_json(r: &Row, limits: &Thresholds, cluster: &Value) -> Value {
    let m = &r.measured;
    let figure = |v: Option<u64>, source: &str| json!({ "value": v, "source": source });
    let rounded = |v: Option<f64>| v.map(|r| r.round() as u64);
    let total_rows = match (r.partitions, r.mean_rows) {
        (Some((p, _)), Some(rows)) => Some((p * rows).round() as u64),
        _ => None,
    };
    let origin = |f: Figure, measured: &str| {
        f.map(|(_, o)| match o {
            Origin::Measured => measured.to_string(),
            Origin::Stats => "stats".to_string(),
        })
    };
    let rows_source = format!(
        "{} partition bytes ÷ row_bytes ({})",
        r.max_bytes.map_or("no", |(_, o)| o.label()),
        r.row_size.label()
    );
    let assumptions = vec![
        format!("partitions: {}", source_of(r.partitions, PARTITIONS_SOURCE)),
        format!(
            "mean partition size: {}",
            source_of(r.mean_bytes, MEAN_SOURCE)
        ),
        format!("max partition size: {}", source_of(r.max_bytes, MAX_SOURCE)),
        format!(
            "rows per partition ({}): the partition bytes ÷ {} a row, {}",
            r.row_size.label(),
            format_bytes(r.row_bytes),
            r.row_size.source()
        ),
        NO_PERCENTILES.to_string(),
        format!(
            "thresholds: {} and {} rows per partition (max)",
            format_bytes(limits.partition_bytes),
            format_count(limits.partition_rows)
        ),
    ];
    json!({
        "table": r.table.qualified_name(),
        "partitions": figure_json(r.partitions),
        "total_rows": total_rows,
        "bytes_per_partition": { "mean": figure_json(r.mean_bytes), "max": figure_json(r.max_bytes) },
        "rows_per_partition": { "mean": rounded(r.mean_rows), "max": rounded(r.max_rows) },
        "thresholds": {
            "partition_bytes": limits.partition_bytes,
            "partition_rows": limits.partition_rows,
        },
        "exceeds": r.exceeds.iter().map(|e| e.name()).collect::<Vec<_>>(),
        "assumptions": assumptions,
        "sources": {
            "partitions": origin(r.partitions, "system.table_estimates"),
            "bytes_per_partition.mean": origin(r.mean_bytes, "system.table_estimates"),
            "bytes_per_partition.max": origin(r.max_bytes, "system_views.max_partition_size"),
            "rows_per_partition": rows_source,
        },
        "row_bytes": { "value": r.row_bytes.round() as u64, "source": r.row_size.label() },
        "measured": {
            "nodes_reporting": m.nodes,
            "partitions": figure(m.partitions, "system.table_estimates"),
            "mean_partition_bytes": figure(m.mean_bytes, "system.table_estimates"),
            "max_partition_bytes": figure(m.max_bytes, "system_views.max_partition_size"),
            "disk_bytes": figure(m.disk_bytes, "system_views.disk_usage"),
        },
        "not_measured": ["p50", "p95", "p99"],
        "cluster": cluster,
    })
}

/// The array of offline `size`, one object per table, each naming the cluster
/// it was read from (contact points, nodes, release and the reader's notes).
fn document(
    cluster: &ClusterArgs,
    snapshot: &ClusterSnapshot,
    rows: &[Row],
    limits: &Thresholds,
) -> Value {
    let read_from = json!({
        "contact_points": cluster.cluster,
        "release_version": snapshot.release_version,
        "nodes": snapshot.nodes.iter().map(|n| n.address.clone()).collect::<Vec<_>>(),
        "notes": snapshot.notes,
    });
    Value::Array(
        rows.iter()
            .map(|r| table_json(r, limits, &read_from))
            .collect(),
    )
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqlmodel_cluster::{NodeReading, TableEstimate};

    fn node(address: &str, partitions: u64, mean: u64, max_mib: u64) -> NodeReading {
        let mut t = TableEstimate::new("ks", "t");
        t.partitions = Some(partitions);
        t.mean_partition_bytes = Some(mean);
        t.max_partition_bytes = Some(max_mib << 20);
        t.disk_bytes = Some(3 << 20);
        NodeReading {
            address: address.to_string(),
            datacenter: None,
            tables: vec![t],
        }
    }

    #[test]
    fn nodes_sum_partitions_and_disk_weigh_means_and_keep_the_largest_max() {
        let snapshot = ClusterSnapshot {
            release_version: None,
            schema_cql: String::new(),
            nodes: vec![node("a", 30, 1_000, 1), node("b", 10, 5_000, 4)],
            notes: Vec::new(),
        };
        let m = measure(&snapshot, "ks", "t");
        assert_eq!(m.nodes, 2);
        assert_eq!(m.partitions, Some(40));
        assert_eq!(m.mean_bytes, Some(2_000));
        assert_eq!(m.max_bytes, Some(4 << 20));
        assert_eq!(m.disk_bytes, Some(6 << 20));
        assert_eq!(measure(&snapshot, "ks", "other"), Measured::default());
    }

    fn chunks_schema() -> Schema {
        let parsed = cqlmodel_cql::parse(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\
             CREATE TABLE ks.t (k int, c int, v blob, PRIMARY KEY (k, c));",
        );
        let mut builder = cqlmodel_schema::SchemaBuilder::new();
        builder.add_statements(0, &parsed.statements);
        builder.finish().schema
    }

    fn one_node(max_mib: u64) -> ClusterSnapshot {
        ClusterSnapshot {
            release_version: Some("5.0.9".to_string()),
            schema_cql: String::new(),
            nodes: vec![node("127.0.0.1", 21, 150_000, max_mib)],
            notes: vec!["a note of the reader".to_string()],
        }
    }

    fn cluster() -> ClusterArgs {
        ClusterArgs {
            cluster: vec!["127.0.0.1".to_string()],
            ..ClusterArgs::default()
        }
    }

    #[test]
    fn the_json_has_the_shape_of_offline_size_and_the_size_page_renders_it() {
        let schema = chunks_schema();
        let table = schema.table("ks", "t").expect("table");
        let limits = Thresholds::default();
        let snapshot = one_node(3);
        let rows = [row(&snapshot, table, &limits, None)];
        let doc = document(&cluster(), &snapshot, &rows, &limits);
        let t = &doc.as_array().expect("an array, as offline size")[0];
        assert_eq!(t["table"], "ks.t");
        assert_eq!(t["partitions"], 21);
        assert_eq!(t["bytes_per_partition"]["max"], 3 << 20);
        assert_eq!(t["bytes_per_partition"]["mean"], 150_000);
        assert!(
            t["rows_per_partition"]["max"]
                .as_u64()
                .is_some_and(|r| r > 1_000)
        );
        assert_eq!(
            t["sources"]["bytes_per_partition.max"],
            "system_views.max_partition_size"
        );
        assert_eq!(t["row_bytes"]["source"], "assumed");
        assert_eq!(t["exceeds"], json!([]));
        assert_eq!(t["cluster"]["release_version"], "5.0.9");
        let html = cqlmodel_html::render(
            cqlmodel_html::Page::Size,
            &doc,
            &cqlmodel_html::Sources::new(),
        );
        assert!(html.contains("1 tables, 0 over a threshold"), "{html}");
        assert!(html.contains("Partition size (log scale), ks.t"), "{html}");
        assert!(
            html.contains("Rows in a partition (log scale), ks.t"),
            "{html}"
        );
    }

    #[test]
    fn stats_correct_the_row_size_and_fill_what_the_cluster_did_not_report() {
        let schema = chunks_schema();
        let table = schema.table("ks", "t").expect("table");
        let stats = cqlmodel_stats::load_stats(
            "[thresholds]\npartition_rows = 1000\n\n[table.\"ks.t\"]\nrows = 5000\n\n\
             [table.\"ks.t\".column.k]\ndistinct = 50\n\n\
             [table.\"ks.t\".column.v]\navg_size = 1024\n",
            &schema,
        )
        .expect("stats");
        let given = Given { stats: &stats };
        let limits = stats.thresholds;
        let snapshot = one_node(3);
        let assumed = row(&snapshot, table, &limits, None);
        let corrected = row(&snapshot, table, &limits, Some(&given));
        assert_eq!(corrected.row_size, RowSize::Stats);
        assert!(
            corrected.row_bytes > 1024.0 && corrected.row_bytes > 5.0 * assumed.row_bytes,
            "{} vs {}",
            corrected.row_bytes,
            assumed.row_bytes
        );
        let (max_assumed, max_corrected) = (
            assumed.max_rows.expect("rows"),
            corrected.max_rows.expect("rows"),
        );
        assert!(
            max_corrected < max_assumed / 5.0,
            "{max_corrected} {max_assumed}"
        );
        // 3 MiB ÷ ≈1 KiB rows ≈ 3,000 rows: over the file's 1,000-row threshold.
        assert_eq!(corrected.exceeds, vec![Exceeded::PartitionRows]);
        assert_eq!(corrected.max_bytes.map(|(_, o)| o), Some(Origin::Measured));

        // Nothing flushed: the figures come from the statistics, and say so.
        let mut silent = one_node(3);
        silent.nodes[0].tables[0] = TableEstimate::new("ks", "t");
        let r = row(&silent, table, &limits, Some(&given));
        assert_eq!(r.partitions, Some((50.0, Origin::Stats)));
        let doc = document(&cluster(), &silent, &[r], &limits);
        assert_eq!(doc[0]["sources"]["partitions"], "stats");
        let text = text(
            &cluster(),
            &silent,
            &[row(&silent, table, &limits, Some(&given))],
            &limits,
        );
        assert!(
            text.contains("stats     partitions") && text.contains("the --stats estimate"),
            "{text}"
        );
        assert!(text.contains("stats     rows, max partition"), "{text}");
    }

    #[test]
    fn rows_follow_the_schema_row_size() {
        let parsed = cqlmodel_cql::parse(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\
             CREATE TABLE ks.t (k int, c int, v blob, PRIMARY KEY (k, c));",
        );
        let mut builder = cqlmodel_schema::SchemaBuilder::new();
        builder.add_statements(0, &parsed.statements);
        let schema = builder.finish().schema;
        let table = schema.table("ks", "t").expect("table");
        let small = rows_in(10_000.0, table, None).expect("rows");
        let large = rows_in(1_000_000.0, table, None).expect("rows");
        assert!(small > 0.0 && large > 90.0 * small, "{small} {large}");
    }
}
