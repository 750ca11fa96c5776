//! The only cqlmodel crate that talks to a cluster. It reads, never writes:
//! every statement it sends is a `SELECT` of a system table (see [`QUERIES`]).
//! The async runtime stays inside: [`read_cluster`] is a blocking call with a
//! bounded connect time.
//!
//! What it reads: the deployed schema from `system_schema` (keyspaces, types,
//! tables with all their options, columns with clustering order, indexes, views),
//! rebuilt as CQL DDL text which the caller parses like a schema file; and per
//! node (each of these queries is sent to that node alone, as the tables are
//! node-local; with a datacenter, only that datacenter's nodes) the estimates of
//! `system.table_estimates` (`size_estimates` before 4.0), the metrics of the
//! `system_views` tables, `system.top_partitions` (4.1+), and ScyllaDB's
//! `system.large_partitions` / `large_rows` / `large_cells`.
//!
//! Tested against a Cassandra 5.0 node by crates/livetest (`tests/diagnose.rs`);
//! the ScyllaDB tables have not been read from a real ScyllaDB node.

mod error;
mod node_tables;
mod query;
mod read;
mod schema;
mod table_options;

use std::path::PathBuf;
use std::time::Duration;

pub use error::ClusterError;
pub use node_tables::PER_NODE;
pub use read::read_cluster;

/// The statements that read the deployed schema, through any node.
pub const SCHEMA_QUERIES: [&str; 8] = [
    schema::KEYSPACES,
    schema::TYPES,
    schema::TABLES,
    table_options::TABLE_OPTIONS,
    schema::COLUMNS,
    schema::INDEXES,
    schema::VIEWS,
    "SELECT release_version FROM system.local",
];

/// Every statement this crate sends: the schema's, then each node's.
pub const QUERIES: [&str; 20] = [
    SCHEMA_QUERIES[0],
    SCHEMA_QUERIES[1],
    SCHEMA_QUERIES[2],
    SCHEMA_QUERIES[3],
    SCHEMA_QUERIES[4],
    SCHEMA_QUERIES[5],
    SCHEMA_QUERIES[6],
    SCHEMA_QUERIES[7],
    PER_NODE[0],
    PER_NODE[1],
    PER_NODE[2],
    PER_NODE[3],
    PER_NODE[4],
    PER_NODE[5],
    PER_NODE[6],
    PER_NODE[7],
    PER_NODE[8],
    PER_NODE[9],
    PER_NODE[10],
    PER_NODE[11],
];

/// How to reach the cluster.
#[derive(Debug, Clone, Default)]
pub struct ClusterOptions {
    /// `host` or `host:port` (default port 9042).
    pub contact_points: Vec<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The longest wait for the first connection.
    pub connect_timeout: Duration,
    /// Connect with TLS (`--ssl`).
    pub ssl: bool,
    /// The CA certificate (PEM) that signed the nodes' certificates; with TLS and
    /// no CA file, the system's trust store is used.
    pub ca_file: Option<PathBuf>,
    /// The client certificate (PEM) a node with `require_client_auth: true`
    /// asks for; given with [`ClusterOptions::client_key`].
    pub client_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM, unencrypted).
    pub client_key: Option<PathBuf>,
    /// The local datacenter: requests go to its nodes, and only its nodes' tables are read.
    pub datacenter: Option<String>,
}

/// A distribution as the `system_views` metric tables give it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Distribution {
    pub count: Option<u64>,
    pub p50: Option<f64>,
    pub p99: Option<f64>,
    pub max: Option<f64>,
}

/// One table's numbers as one node knows them; `None` when the node did not say.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableEstimate {
    pub keyspace: String,
    pub table: String,
    /// Sum of `partitions_count` over the node's primary ranges.
    pub partitions: Option<u64>,
    /// `mean_partition_size` averaged over the ranges, weighted by their partitions.
    pub mean_partition_bytes: Option<u64>,
    /// `system_views.max_partition_size` (whole mebibytes), or ScyllaDB's largest recorded partition.
    pub max_partition_bytes: Option<u64>,
    /// `system_views.disk_usage` (whole mebibytes).
    pub disk_bytes: Option<u64>,
    pub tombstones_per_read: Option<Distribution>,
    pub rows_per_read: Option<Distribution>,
    pub read_latency_ms: Option<Distribution>,
    pub write_latency_ms: Option<Distribution>,
    /// Largest partitions (key as the node prints it, bytes): `system.top_partitions`
    /// (`SIZES`) or ScyllaDB's `system.large_partitions`, largest first.
    pub largest_partitions: Vec<(String, u64)>,
    /// `system.top_partitions` (`TOMBSTONES`): key, tombstone count.
    pub most_tombstones: Vec<(String, u64)>,
    /// ScyllaDB's `system.large_rows` / `large_cells`: partition key, bytes.
    pub large_rows: Vec<(String, u64)>,
    pub large_cells: Vec<(String, u64)>,
}

impl TableEstimate {
    pub fn new(keyspace: &str, table: &str) -> Self {
        TableEstimate {
            keyspace: keyspace.to_string(),
            table: table.to_string(),
            ..TableEstimate::default()
        }
    }
}

/// What one node answered.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeReading {
    pub address: String,
    pub datacenter: Option<String>,
    pub tables: Vec<TableEstimate>,
}

/// Everything read from the cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterSnapshot {
    pub release_version: Option<String>,
    /// The deployed schema as CQL DDL (CREATE KEYSPACE, TYPE, TABLE, INDEX, MATERIALIZED VIEW).
    pub schema_cql: String,
    pub nodes: Vec<NodeReading>,
    /// What was read and what could not be (a table absent on this version, a node
    /// that did not answer, a node of another datacenter).
    pub notes: Vec<String>,
}

/// `host:9042` when no port is given.
pub fn with_default_port(point: &str) -> String {
    let has_port = match point.rsplit_once(':') {
        // `[::1]:9042`, or an IPv4/host with a port; a bare IPv6 has several colons.
        Some((host, port)) => {
            port.parse::<u16>().is_ok() && (!host.contains(':') || host.ends_with(']'))
        }
        None => false,
    };
    if has_port {
        point.to_string()
    } else {
        format!("{point}:9042")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_is_a_select() {
        assert!(QUERIES.iter().all(|q| q.starts_with("SELECT ")));
        assert!(QUERIES.iter().all(|q| !q.contains(';')));
    }

    #[test]
    fn the_default_port_is_added_only_when_missing() {
        assert_eq!(with_default_port("10.0.0.1"), "10.0.0.1:9042");
        assert_eq!(with_default_port("10.0.0.1:19042"), "10.0.0.1:19042");
        assert_eq!(with_default_port("[::1]:9042"), "[::1]:9042");
        assert_eq!(with_default_port("db.example"), "db.example:9042");
    }
}
