//! `cqlmodel diagnose --cluster`: what crates/cluster reads from a live cluster,
//! turned into what the diagnosis reads (per-node table estimates, the
//! deployed schema) and registered as a source so findings can point into the
//! rebuilt schema text.

use cqlmodel_cluster::{ClusterSnapshot, Distribution, TableEstimate, read_cluster};
use cqlmodel_diagnose::{
    HistogramRow, InputFormat, NodeStats, Origin, Percentile, TableHistogram, TableStats,
};
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_schema::Schema;

use crate::diagnose_args::DiagnoseArgs;
use crate::live_schema::build_live;

pub use crate::cluster_args::ClusterArgs;

pub struct Live {
    /// The deployed schema (when it builds).
    pub schema: Option<Schema>,
    /// What could not be read, as infos.
    pub notes: Vec<Diagnostic>,
}

/// Reads the cluster; appends one NodeStats per node that answered, and the
/// latency percentiles of the `system_views` tables as histograms.
pub fn read(
    args: &DiagnoseArgs,
    sources: &mut SourceMap,
    stats: &mut Vec<NodeStats>,
    histograms: &mut Vec<TableHistogram>,
) -> Result<Live, String> {
    let options = args.cluster.options();
    let snapshot = read_cluster(&options).map_err(|e| e.to_string())?;
    let file = sources.add(SourceFile::new(
        "<cluster schema>",
        snapshot.schema_cql.clone(),
    ));
    let mut notes: Vec<Diagnostic> = snapshot
        .notes
        .iter()
        .map(|n| Diagnostic::info("cluster", n.clone()).with_name("cluster-input"))
        .collect();
    if let Some(v) = &snapshot.release_version {
        notes.push(
            Diagnostic::info("cluster", format!("release_version {v}")).with_name("cluster-input"),
        );
    }
    let (schema, warnings) = build_live(&snapshot.schema_cql, file);
    notes.extend(warnings);
    notes.extend(unmeasured(&snapshot, histograms, &args.cluster.label()));
    stats.extend(node_stats(&snapshot, file));
    histograms.extend(latency_histograms(&snapshot, file));
    Ok(Live {
        schema: Some(schema),
        notes,
    })
}

/// One info per table read from the cluster whose partition-size percentiles no
/// saved `tablehistograms` gives: what a live read cannot measure is said, per
/// table, rather than left out.
fn unmeasured(
    snapshot: &ClusterSnapshot,
    histograms: &[TableHistogram],
    cluster: &str,
) -> Vec<Diagnostic> {
    let mut tables: Vec<(&str, &str)> = snapshot
        .nodes
        .iter()
        .flat_map(|n| &n.tables)
        .map(|t| (t.keyspace.as_str(), t.table.as_str()))
        .collect();
    tables.sort_unstable();
    tables.dedup();
    let has_sizes = |ks: &str, t: &str| {
        histograms.iter().any(|h| {
            h.keyspace == ks
                && h.table == t
                && h.rows.iter().any(|(_, r)| r.partition_bytes.is_some())
        })
    };
    tables
        .into_iter()
        .filter(|(ks, t)| !has_sizes(ks, t))
        .map(|(ks, t)| {
            let mut d = Diagnostic::info(
                "cluster",
                format!(
                    "{cluster}, table {ks}.{t}: partition size p50/p99 and rows per partition (DG002) not measured: the system tables give only the largest partition (system_views.max_partition_size) and the mean (system.table_estimates)"
                ),
            )
            .with_name("cluster-input")
            .with_help(format!(
                "give `nodetool tablehistograms {ks} {t}` output of each node as an input to check them"
            ));
            d.table = Some(format!("{ks}.{t}"));
            d
        })
        .collect()
}

fn node_stats(snapshot: &ClusterSnapshot, file: usize) -> Vec<NodeStats> {
    snapshot
        .nodes
        .iter()
        .map(|n| NodeStats {
            node: n.address.clone(),
            format: InputFormat::Cluster,
            tables: n
                .tables
                .iter()
                .map(|t| {
                    table_stats(
                        t,
                        table_origin(&snapshot.schema_cql, file, &t.keyspace, &t.table),
                    )
                })
                .collect(),
            origin: Origin {
                file,
                span: 0..0,
                line: 1,
            },
        })
        .collect()
}

/// What tablestats would say, from the system tables: estimates, the largest
/// partition, disk use, counts and the tombstones per read (its p50 standing
/// for tablestats' mean, its max for the maximum).
fn table_stats(t: &TableEstimate, origin: Origin) -> TableStats {
    let count = |d: &Option<Distribution>| d.and_then(|d| d.count);
    TableStats {
        keyspace: t.keyspace.clone(),
        table: t.table.clone(),
        partitions_estimate: t.partitions,
        partition_mean_bytes: t.mean_partition_bytes,
        partition_max_bytes: t.max_partition_bytes,
        space_used_live: t.disk_bytes,
        local_read_count: count(&t.read_latency_ms),
        local_write_count: count(&t.write_latency_ms),
        avg_tombstones_per_slice: t.tombstones_per_read.and_then(|d| d.p50),
        max_tombstones_per_slice: t.tombstones_per_read.and_then(|d| d.max),
        avg_live_cells_per_slice: t.rows_per_read.and_then(|d| d.p50),
        max_live_cells_per_slice: t.rows_per_read.and_then(|d| d.max),
        top_partitions_by_size: t.largest_partitions.clone(),
        top_partitions_by_tombstones: t.most_tombstones.clone(),
        origin,
        ..TableStats::default()
    }
}

/// The read/write latency percentiles (ms in the views, µs in histograms) of
/// the tables that were read at all.
fn latency_histograms(snapshot: &ClusterSnapshot, file: usize) -> Vec<TableHistogram> {
    let mut out = Vec::new();
    for n in &snapshot.nodes {
        for t in &n.tables {
            let (r, w) = (t.read_latency_ms, t.write_latency_ms);
            if r.and_then(|d| d.count).unwrap_or(0) == 0
                && w.and_then(|d| d.count).unwrap_or(0) == 0
            {
                continue;
            }
            let us = |d: Option<Distribution>, pick: fn(&Distribution) -> Option<f64>| {
                d.as_ref().and_then(pick).map(|ms| ms * 1000.0)
            };
            let row = |pick: fn(&Distribution) -> Option<f64>| HistogramRow {
                read_latency_us: us(r, pick),
                write_latency_us: us(w, pick),
                ..HistogramRow::default()
            };
            out.push(TableHistogram {
                node: n.address.clone(),
                keyspace: t.keyspace.clone(),
                table: t.table.clone(),
                rows: vec![
                    (Percentile::P50, row(|d| d.p50)),
                    (Percentile::P99, row(|d| d.p99)),
                    (Percentile::Max, row(|d| d.max)),
                ],
                origin: table_origin(&snapshot.schema_cql, file, &t.keyspace, &t.table),
            });
        }
    }
    out
}

/// The rebuilt `CREATE TABLE` line of a table, so findings point at it.
fn table_origin(ddl: &str, file: usize, keyspace: &str, table: &str) -> Origin {
    let mut start = 0;
    for (i, line) in ddl.lines().enumerate() {
        if line.starts_with("CREATE TABLE ") && line.contains(&format!("{keyspace}.{table} (")) {
            return Origin {
                file,
                span: start..start + line.len(),
                line: i + 1,
            };
        }
        start += line.len() + 1;
    }
    Origin {
        file,
        span: 0..0,
        line: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqlmodel_cluster::NodeReading;

    #[test]
    fn each_table_without_saved_histograms_is_said_unmeasured() {
        let snapshot = ClusterSnapshot {
            release_version: None,
            schema_cql: String::new(),
            nodes: ["a", "b"]
                .iter()
                .map(|n| NodeReading {
                    address: n.to_string(),
                    datacenter: None,
                    tables: vec![TableEstimate::new("ks", "t"), TableEstimate::new("ks", "u")],
                })
                .collect(),
            notes: Vec::new(),
        };
        let saved = TableHistogram {
            node: "a".to_string(),
            keyspace: "ks".to_string(),
            table: "u".to_string(),
            rows: vec![(
                Percentile::P99,
                HistogramRow {
                    partition_bytes: Some(1e6),
                    ..HistogramRow::default()
                },
            )],
            origin: Origin {
                file: 0,
                span: 0..0,
                line: 1,
            },
        };
        let notes = unmeasured(&snapshot, &[saved], "cluster a");
        assert_eq!(
            notes.len(),
            1,
            "one per table, not per node; u has histograms"
        );
        assert_eq!(notes[0].table.as_deref(), Some("ks.t"));
        assert!(notes[0].message.contains("(DG002) not measured"));
    }
}
