//! The semantic model of a CQL schema and Cassandra's rules for serving statements.
pub mod types;
