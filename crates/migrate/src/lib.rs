//! `cqlmodel migrate`: from the schema you have to the one you need.
//!
//! Two schemas built by `cqlmodel-schema` are compared object by object. Each
//! difference is applied in place when a statement does it (ADD, DROP, RENAME of
//! a key column, WITH, CREATE/DROP INDEX, ALTER TYPE ADD), refused with the
//! target's own message when the statement a user would try fails, and the
//! table is then rebuilt: a new table, dual writes, a backfill that keeps write
//! times, verification, a switch of reads, and the old table dropped after a
//! snapshot. The plan's schema statements are executed on OLD by the schema
//! crate (the dry run) and must give NEW.
//!
//! ```
//! use cqlmodel_migrate::{MigrateInput, Target, ChangeKind, plan, dry_run};
//!
//! let build = |cql: &str| cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(cql).statements).schema;
//! let ks = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";
//! let old = build(&format!("{ks} CREATE TABLE iot.temp (device_id text, ts timestamp, temp double,
//!     PRIMARY KEY (device_id, ts)) WITH CLUSTERING ORDER BY (ts DESC);"));
//! let new = build(&format!("{ks} CREATE TABLE iot.temp (device_id text, ts timestamp, temp double,
//!     humidity double, PRIMARY KEY (device_id, ts)) WITH CLUSTERING ORDER BY (ts DESC);"));
//!
//! let no_source = |_: &cqlmodel_schema::Origin| None;
//! let input = MigrateInput { old: &old, new: &new, target: Target::Cassandra,
//!                            queries: &[], stats: None, source: &no_source,
//!                            renames: &[] };
//! let p = plan(&input);
//! assert_eq!(p.changes[0].kind, ChangeKind::Alter);
//! assert_eq!(p.changes[0].statements[0].statements, ["ALTER TABLE iot.temp ADD humidity double;"]);
//! assert!(dry_run(&old, &new, &p).ok());
//! ```

pub mod backfill;
pub mod column_map;
pub mod cql_text;
pub mod dry_run;
pub mod dual_write;
pub mod files;
pub mod input;
pub mod model;
pub mod nested_types;
pub mod objects;
pub mod options;
pub mod plan;
pub mod rebuild;
pub mod rename;
pub mod runbook;
pub mod spark;
pub mod summary;
pub mod table_diff;
pub mod target;
pub mod today;
pub mod type_rebuild;
pub mod verify;
pub mod views;

pub use dry_run::{DryRun, compare, dry_run};
pub use dual_write::{AppRewrite, AppStatement};
pub use files::{Layout, OutputFile, output_files, output_files_with};
pub use model::{Change, ChangeKind, Item, ObjectKind, Phase, PhaseStatements, Target, Verdict};
pub use plan::{MigrateInput, Plan, SourceText, plan};
pub use rebuild::{ColumnMap, ColumnSource, Rebuild};
pub use rename::{ColumnRename, RenameError};
pub use runbook::RunbookHeader;
