//! The `cqlmodel` command line: argument handling lives in `main.rs`; each
//! command's work lives here so that tests and benchmarks can call it directly.

pub mod annotations;
pub mod explain;
pub mod input;
pub mod schema_load;
pub mod token;
