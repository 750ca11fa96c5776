//! Deriving the table that serves a query, the way a modeler would: the columns the
//! query restricts by `=` locate the partition, its ranges and its ORDER BY sort the
//! rows inside it, and the source table's key keeps the rows unique.
//!
//! The derivation is checked, not trusted: the rewritten query is analyzed against
//! the derived table with Cassandra's own restriction rules, and only a table that
//! serves it from one partition (or a bounded list of them) is returned.
//!
//! ```
//! use cqlmodel_review::derive_key::{DeriveOptions, derive_table};
//! use cqlmodel_schema::build_schema;
//!
//! let ddl = cqlmodel_cql::parse(
//!     "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
//!      CREATE TABLE iot.temp_by_device (device_id text, day date, ts timestamp, temp double,
//!          PRIMARY KEY ((device_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);",
//! );
//! let schema = build_schema(0, &ddl.statements).schema;
//! let table = schema.table("iot", "temp_by_device").unwrap();
//! let query = cqlmodel_cql::parse_statement("SELECT * FROM iot.temp_by_device WHERE day = ?").unwrap();
//! let cqlmodel_cql::ast::StatementKind::Select(select) = &query.kind else { unreachable!() };
//!
//! let derived = derive_table(&schema, table, select, &DeriveOptions::default()).unwrap();
//! assert_eq!(derived.name, "temp_by_day");
//! // `day` alone would be one hot partition per day: a salt bucket spreads it.
//! assert_eq!(derived.partition_key, ["day", "bucket"]);
//! assert_eq!(derived.clustering_names(), ["device_id", "ts"]);
//! assert!(derived.query_cql().contains("bucket IN (0, 1, 2, 3, 4, 5, 6, 7)"));
//! ```

mod columns;
mod derive;
mod model;
mod predicates;
mod print;
mod serving;
#[cfg(test)]
mod tests;

pub use columns::{
    LOW_CARDINALITY_MAX_DISTINCT, TimeKind, key_eligible, low_cardinality_reason, time_kind,
};
pub use derive::{complete_time_buckets, derive_table};
pub use model::{
    ColumnOrigin, DEFAULT_SALT_BUCKETS, DeriveError, DeriveOptions, DerivedColumn, DerivedTable,
};
pub use predicates::{Predicates, predicates};
pub use print::{TableSpec, create_table_cql, table_create_cql};
pub use serving::{PartitionKeyIndex, is_served, path_table, serving_table, serving_table_among};
