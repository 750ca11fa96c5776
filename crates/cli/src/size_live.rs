//! `cqlmodel size --cluster HOST [--table KS.T]`: partition sizes as the cluster
//! measured them, instead of sizes computed from assumed statistics. Every figure
//! says where it comes from: measured (`system.table_estimates`,
//! `system_views.max_partition_size`, `system_views.disk_usage`, summed or
//! maximized over the nodes that answered), assumed (rows per partition, from
//! the measured bytes and the schema's row size with assumed column sizes), or
//! not measured at all (percentiles: the system tables give a mean and a maximum).
//!
//! Exit codes: 0 within the thresholds, 1 a table over one, 2 an input or
//! connection error.

use crate::output::Model;
use std::fmt::Write as _;

use cqlmodel_cluster::{ClusterSnapshot, read_cluster};
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap, render_human, render_json};
use cqlmodel_schema::{Schema, Table};
use cqlmodel_stats::units::{format_bytes, format_count};
use cqlmodel_stats::{TableStats, Thresholds, estimate_table};
use serde_json::{Value, json};

use crate::cluster_args::ClusterArgs;

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

/// The bytes of one row with assumed column sizes (the formula of `cqlmodel
/// size` without statistics: a text or blob of unknown length counts as its
/// default size), and the bytes of a partition without rows.
fn row_cost(table: &Table) -> (f64, f64) {
    let f = estimate_table(table, &TableStats::default(), &Thresholds::default()).formula;
    let per_row = f.row_bytes + f.cells_per_row * f.cell_overhead;
    let fixed = f.partition_key_bytes + f.static_bytes + f.static_cells * f.cell_overhead;
    (per_row, fixed)
}

/// Rows in a partition of `bytes`: the formula solved for the row count.
fn rows_in(bytes: f64, table: &Table) -> Option<f64> {
    let (per_row, fixed) = row_cost(table);
    (per_row > 0.0).then(|| ((bytes - fixed) / per_row).max(0.0))
}

struct Row<'a> {
    table: &'a Table,
    measured: Measured,
    mean_rows: Option<f64>,
    max_rows: Option<f64>,
    exceeds: Vec<&'static str>,
}

fn row<'a>(snapshot: &ClusterSnapshot, table: &'a Table, limits: &Thresholds) -> Row<'a> {
    let measured = measure(snapshot, &table.keyspace, &table.name);
    let mean_rows = measured.mean_bytes.and_then(|b| rows_in(b as f64, table));
    let max_rows = measured.max_bytes.and_then(|b| rows_in(b as f64, table));
    let mut exceeds = Vec::new();
    if measured
        .max_bytes
        .is_some_and(|b| b as f64 > limits.partition_bytes)
    {
        exceeds.push("bytes");
    }
    if max_rows.is_some_and(|r| r > limits.partition_rows) {
        exceeds.push("rows");
    }
    Row {
        table,
        measured,
        mean_rows,
        max_rows,
        exceeds,
    }
}

/// Runs `size --cluster` and returns (stdout, stderr, exit code).
pub fn run(
    cluster: &ClusterArgs,
    only: Option<&str>,
    json_out: bool,
    color: bool,
) -> (String, String, u8) {
    run_once(cluster, only, json_out, color, &mut Model::unwanted())
}

/// [`run`], keeping the JSON document in `model` for `--html` (the cluster
/// is read once for both outputs).
pub fn run_once(
    cluster: &ClusterArgs,
    only: Option<&str>,
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
    let snapshot = match read_cluster(&cluster.options()) {
        Ok(s) => s,
        Err(e) => return fail(vec![Diagnostic::error("input", e.to_string())], &sources),
    };
    let name = format!("{} (system_schema)", cluster.label());
    let file = sources.add(SourceFile::new(name, snapshot.schema_cql.clone()));
    let (schema, _) = crate::diagnose_live::build_live(&snapshot.schema_cql, file);
    let tables = match selected(&schema, only) {
        Ok(t) => t,
        Err(m) => return fail(vec![Diagnostic::error("input", m)], &sources),
    };
    let limits = Thresholds::default();
    let rows: Vec<Row> = tables.iter().map(|t| row(&snapshot, t, &limits)).collect();
    let code = u8::from(rows.iter().any(|r| !r.exceeds.is_empty()));
    let out = model
        .document(json_out, || document(cluster, &snapshot, &rows, &limits))
        .unwrap_or_else(|| text(cluster, &snapshot, &rows, &limits));
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

fn bytes_or_dash(v: Option<u64>) -> String {
    v.map_or_else(|| "—".to_string(), |b| format_bytes(b as f64))
}

/// A figure the system views give in whole mebibytes: 0 means under one.
fn mib_or_dash(v: Option<u64>) -> String {
    match v {
        Some(0) => "< 1 MiB".to_string(),
        other => bytes_or_dash(other),
    }
}

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
        let verdict = if r.exceeds.is_empty() {
            "ok".to_string()
        } else {
            format!("EXCEEDS {}", r.exceeds.join(", "))
        };
        let m = &r.measured;
        let qualified = r.table.qualified_name();
        let name = cqlmodel_diagnostics::escape_line(&qualified);
        let _ = writeln!(out, "{name}  {verdict}");
        let not_reported = "not reported (nothing flushed yet, or estimates older than the data: `nodetool flush`, `nodetool refreshsizeestimates`)";
        let line = |out: &mut String, kind: &str, what: &str, value: String, source: &str| {
            let _ = writeln!(out, "  {kind:<9} {what:<20} {value:>10}   {source}");
        };
        line(
            &mut out,
            "measured",
            "partitions",
            m.partitions
                .map_or_else(|| "—".into(), |p| format_count(p as f64)),
            if m.partitions.is_some() {
                "system.table_estimates (an estimate; Σ over the nodes' primary ranges)"
            } else {
                not_reported
            },
        );
        line(
            &mut out,
            "measured",
            "mean partition size",
            bytes_or_dash(m.mean_bytes),
            if m.mean_bytes.is_some() {
                "system.table_estimates mean_partition_size"
            } else {
                not_reported
            },
        );
        let over = |over: bool| if over { "  over the limit" } else { "" };
        line(
            &mut out,
            "measured",
            "max partition size",
            mib_or_dash(m.max_bytes),
            &if m.max_bytes.is_some() {
                format!(
                    "system_views.max_partition_size (whole MiB; limit {}){}",
                    format_bytes(limits.partition_bytes),
                    over(r.exceeds.contains(&"bytes"))
                )
            } else {
                not_reported.to_string()
            },
        );
        line(
            &mut out,
            "measured",
            "disk used",
            mib_or_dash(m.disk_bytes),
            "system_views.disk_usage (whole MiB per node, Σ over nodes)",
        );
        let rows_of =
            |v: Option<f64>| v.map_or_else(|| "—".to_string(), |r| format_count(r.round()));
        // A maximum under one mebibyte is read as 0: its rows are bounded, not known.
        let max_rows = match m.max_bytes {
            Some(0) => rows_in(MIB, r.table).map(|n| format!("< {}", format_count(n.round()))),
            _ => None,
        }
        .unwrap_or_else(|| rows_of(r.max_rows));
        line(
            &mut out,
            "assumed",
            "rows, mean partition",
            rows_of(r.mean_rows),
            &format!(
                "the measured mean ÷ {} a row (the schema's columns at assumed sizes: wrong when values are larger or smaller)",
                format_bytes(row_cost(r.table).0)
            ),
        );
        line(
            &mut out,
            "assumed",
            "rows, max partition",
            max_rows,
            &format!(
                "the measured max ÷ the schema's row size (limit {} rows){}",
                format_count(limits.partition_rows),
                over(r.exceeds.contains(&"rows"))
            ),
        );
        let _ = writeln!(out, "  {NO_PERCENTILES}\n");
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

fn document(
    cluster: &ClusterArgs,
    snapshot: &ClusterSnapshot,
    rows: &[Row],
    limits: &Thresholds,
) -> Value {
    let tables: Vec<Value> = rows
        .iter()
        .map(|r| {
            let m = &r.measured;
            let figure = |v: Option<u64>, source: &str| json!({ "value": v, "source": source });
            let assumed = |v: Option<f64>| v.map(|r| r.round() as u64);
            json!({
                "table": r.table.qualified_name(),
                "nodes_reporting": m.nodes,
                "measured": {
                    "partitions": figure(m.partitions, "system.table_estimates"),
                    "mean_partition_bytes": figure(m.mean_bytes, "system.table_estimates"),
                    "max_partition_bytes": figure(m.max_bytes, "system_views.max_partition_size"),
                    "disk_bytes": figure(m.disk_bytes, "system_views.disk_usage"),
                },
                "assumed": {
                    "rows_per_mean_partition": assumed(r.mean_rows),
                    "rows_per_max_partition": assumed(r.max_rows),
                    "row_bytes": row_cost(r.table).0.round() as u64,
                    "source": "measured bytes ÷ row_bytes, the schema's row size with assumed column sizes",
                },
                "not_measured": ["p50", "p95", "p99"],
                "exceeds": r.exceeds,
            })
        })
        .collect();
    json!({
        "cluster": cluster.cluster,
        "release_version": snapshot.release_version,
        "nodes": snapshot.nodes.iter().map(|n| n.address.clone()).collect::<Vec<_>>(),
        "thresholds": {
            "partition_bytes": limits.partition_bytes,
            "partition_rows": limits.partition_rows,
        },
        "tables": tables,
        "notes": snapshot.notes,
    })
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
        let small = rows_in(10_000.0, table).expect("rows");
        let large = rows_in(1_000_000.0, table).expect("rows");
        assert!(small > 0.0 && large > 90.0 * small, "{small} {large}");
    }
}
