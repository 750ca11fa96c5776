//! The keyspaces Cassandra, ScyllaDB and DSE create and manage themselves:
//! never the user's model, wherever a schema or a cluster's statistics show
//! them (a `DESCRIBE FULL SCHEMA`, `nodetool tablestats`, a live cluster).

/// Every system keyspace of Apache Cassandra 4.0–5.0 (and the 5.1 cluster
/// metadata keyspace) and of ScyllaDB.
pub const SYSTEM_KEYSPACES: &[&str] = &[
    "system",
    "system_schema",
    "system_auth",
    "system_distributed",
    "system_distributed_everywhere",
    "system_traces",
    "system_views",
    "system_virtual_schema",
    "system_cluster_metadata",
    "system_replicated_keys",
    "system_cluster",
];

/// True for a keyspace listed in [`SYSTEM_KEYSPACES`].
pub fn is_system_keyspace(name: &str) -> bool {
    SYSTEM_KEYSPACES.contains(&name)
}
