//! The only cqlmodel crate that talks to a cluster. It reads, never writes:
//! every statement it sends is a `SELECT` of a system table (see [`QUERIES`]).
//! The async runtime stays inside: [`read_cluster`] is a blocking call with a
//! bounded connect time.
//!
//! What it reads: the deployed schema from `system_schema` (rebuilt as CQL DDL
//! text, which the caller parses like a schema file), and per node (each query
//! is sent to one node, as these tables are node-local) the partition count and
//! mean partition size of each table from `system.size_estimates`, and where
//! the node has it, the largest partitions from ScyllaDB's
//! `system.large_partitions`.
//!
//! Not tested against a running node in this repository's tests: only the
//! unreachable-cluster path is.

mod error;
mod read;
mod schema;

use std::time::Duration;

pub use error::ClusterError;
pub use read::read_cluster;

/// Every statement this crate sends: all reads of system tables.
pub const QUERIES: [&str; 7] = [
    "SELECT keyspace_name, replication FROM system_schema.keyspaces",
    "SELECT keyspace_name, type_name, field_names, field_types FROM system_schema.types",
    "SELECT keyspace_name, table_name, default_time_to_live, gc_grace_seconds FROM system_schema.tables",
    "SELECT keyspace_name, table_name, column_name, clustering_order, kind, position, type FROM system_schema.columns",
    "SELECT keyspace_name, table_name, partitions_count, mean_partition_size FROM system.size_estimates",
    "SELECT keyspace_name, table_name, partition_size, partition_key FROM system.large_partitions",
    "SELECT release_version FROM system.local",
];

/// How to reach the cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// `host` or `host:port` (default port 9042).
    pub contact_points: Vec<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The longest wait for the first connection.
    pub connect_timeout: Duration,
}

/// One table's numbers as one node estimates them.
#[derive(Debug, Clone, PartialEq)]
pub struct TableEstimate {
    pub keyspace: String,
    pub table: String,
    /// Sum of `partitions_count` over the node's primary ranges.
    pub partitions: u64,
    /// `mean_partition_size` averaged over the ranges, weighted by their partitions.
    pub mean_partition_bytes: u64,
    /// The largest partition the node recorded (ScyllaDB's `system.large_partitions`).
    pub largest_partition: Option<(String, u64)>,
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
    /// The deployed schema as CQL DDL (CREATE KEYSPACE, TYPE, TABLE).
    pub schema_cql: String,
    pub nodes: Vec<NodeReading>,
    /// What could not be read, and why (a table absent on this version, a node that did not answer).
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
    }

    #[test]
    fn the_default_port_is_added_only_when_missing() {
        assert_eq!(with_default_port("10.0.0.1"), "10.0.0.1:9042");
        assert_eq!(with_default_port("10.0.0.1:19042"), "10.0.0.1:19042");
        assert_eq!(with_default_port("[::1]:9042"), "[::1]:9042");
        assert_eq!(with_default_port("db.example"), "db.example:9042");
    }
}
