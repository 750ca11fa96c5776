//! The semantic model of a CQL schema and Cassandra's rules for serving statements.
pub mod access;
pub mod build;
pub mod error;
pub mod model;
pub mod resolve;
pub mod types;

pub use build::{SchemaBuild, SchemaBuilder, build_schema};
pub use error::{SchemaError, SchemaErrorKind};
pub use model::*;
