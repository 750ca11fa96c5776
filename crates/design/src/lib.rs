//! `cqlmodel design`: from a relational model (PostgreSQL DDL) and its SQL
//! queries to a Cassandra schema, the CQL of every query, write paths and a
//! report, by the four steps of query-driven modeling.
//!
//! ```
//! use cqlmodel_design::{DesignInput, design};
//!
//! let model = "CREATE TABLE readings (device_id text, ts timestamptz, temp float8,
//!              PRIMARY KEY (device_id, ts));";
//! let queries = "-- @name last_day @rate 200/s
//!                SELECT ts, temp FROM readings WHERE device_id = $1 AND ts > $2 ORDER BY ts DESC;";
//! let d = design(&DesignInput { keyspace: "iot", model_sql: model, queries_sql: Some(queries), stats_toml: None })?;
//! assert_eq!(d.tables[0].name, "readings_by_device");
//! assert_eq!(
//!     d.queries[0].cql.as_deref(),
//!     Some("SELECT ts, temp FROM iot.readings_by_device WHERE device_id = ? AND ts > ?")
//! );
//! # Ok::<(), cqlmodel_design::DesignError>(())
//! ```

pub mod ann;
pub mod chebotko;
pub mod claim_owners;
pub mod derive;
pub mod duration_keys;
pub mod error;
pub mod fan_out_lookups;
pub mod horizon;
mod identifiers;
pub mod input_notes;
mod listed_values;
mod listing;
pub mod lookups;
pub mod meaning;
mod mutation_subquery;
pub mod mutations;
pub mod numbers;
pub mod output;
pub mod pgchecks;
pub mod pgdump;
pub mod pgread;
pub mod pgshape;
pub mod pgskip;
pub mod pgtypes;
pub mod placements;
pub mod plan;
pub mod querylist;
pub mod read_first;
pub mod reads;
pub mod records;
pub mod relational;
pub mod report;
pub mod safe_names;
pub mod schema_out;
pub mod select;
pub mod select_inline;
pub mod select_items;
pub mod select_spec;
pub mod self_review;
pub mod split;
pub mod sql_limits;
pub mod sql_normalize;
pub mod sql_scope;
pub mod stats_keys;
pub mod tables_by_entity;
pub mod verdict;
pub mod views;
pub mod writes;

pub use error::{DesignError, DesignErrorKind, Source};
pub use output::{OutputError, WriteOptions, files, write_design, write_design_with};
pub use plan::{DEFAULT_HORIZON, Design, DesignInput, DesignOptions, design, design_with};
pub use report::{json, report_md};
