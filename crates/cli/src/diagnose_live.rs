//! `cqlmodel diagnose --cluster`: what crates/cluster reads from a live cluster,
//! turned into what the diagnosis reads (per-node table estimates, the
//! deployed schema) and registered as a source so findings can point into the
//! rebuilt schema text.

use std::time::Duration;

use cqlmodel_cluster::{ClusterOptions, ClusterSnapshot, read_cluster};
use cqlmodel_diagnose::{InputFormat, NodeStats, Origin, TableStats};
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_schema::Schema;

use crate::diagnose_cmd::DiagnoseArgs;

pub struct Live {
    /// The deployed schema (when it builds).
    pub schema: Option<Schema>,
    /// What could not be read, as infos.
    pub notes: Vec<Diagnostic>,
}

/// Reads the cluster; appends one NodeStats per node that answered.
pub fn read(
    args: &DiagnoseArgs,
    sources: &mut SourceMap,
    stats: &mut Vec<NodeStats>,
) -> Result<Live, String> {
    let options = ClusterOptions {
        contact_points: args.cluster.clone(),
        username: args
            .username
            .clone()
            .or_else(|| std::env::var("CQLMODEL_USERNAME").ok()),
        password: args
            .password
            .clone()
            .or_else(|| std::env::var("CQLMODEL_PASSWORD").ok()),
        connect_timeout: Duration::from_secs(args.connect_timeout.max(1)),
    };
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
    let parsed = cqlmodel_cql::parse(&snapshot.schema_cql);
    let build = cqlmodel_schema::build_schema(file, &parsed.statements);
    for e in &build.errors {
        notes.push(
            Diagnostic::warning("cluster", format!("the rebuilt schema: {e}"))
                .with_name("cluster-input")
                .with_file(file),
        );
    }
    stats.extend(node_stats(&snapshot, file));
    Ok(Live {
        schema: Some(build.schema),
        notes,
    })
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
                .map(|t| TableStats {
                    keyspace: t.keyspace.clone(),
                    table: t.table.clone(),
                    partitions_estimate: Some(t.partitions),
                    partition_mean_bytes: Some(t.mean_partition_bytes),
                    partition_max_bytes: t.largest_partition.as_ref().map(|(_, b)| *b),
                    top_partitions_by_size: t.largest_partition.iter().cloned().collect(),
                    origin: table_origin(&snapshot.schema_cql, file, &t.keyspace, &t.table),
                    ..TableStats::default()
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
