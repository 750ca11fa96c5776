//! The semantic model of a CQL schema and Cassandra's rules for serving statements.
//!
//! ```
//! use cqlmodel_schema::{Settings, build_schema, build_schema_with};
//!
//! let ddl = cqlmodel_cql::parse(
//!     "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
//!      CREATE TABLE ks.t (k int PRIMARY KEY, v int);
//!      CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t
//!        WHERE v IS NOT NULL AND k IS NOT NULL PRIMARY KEY (v, k);",
//! );
//! // Cassandra 5.0 disables materialized views by default.
//! let build = build_schema(0, &ddl.statements);
//! assert_eq!(
//!     build.errors[0].to_string(),
//!     "Materialized views are disabled. Enable in cassandra.yaml to use."
//! );
//!
//! // With `materialized_views_enabled: true` the view is modeled, with a warning.
//! let settings = Settings { materialized_views_enabled: true, ..Settings::default() };
//! let build = build_schema_with(settings, 0, &ddl.statements);
//! assert!(build.errors.is_empty());
//! assert!(build.schema.table("ks", "by_v").is_some_and(|v| v.is_view()));
//! assert_eq!(build.warnings.len(), 1);
//! ```
pub mod access;
pub mod build;
pub mod error;
pub mod model;
pub mod resolve;
pub mod system_keyspaces;
pub mod types;

pub use build::{
    ASSUMED_REPLICATION, SchemaBuild, SchemaBuilder, Settings, build_schema, build_schema_with,
};
pub use error::{ErrorClass, SchemaError, SchemaErrorKind, SchemaWarning, SchemaWarningKind};
pub use model::*;
pub use system_keyspaces::{SYSTEM_KEYSPACES, is_system_keyspace};
