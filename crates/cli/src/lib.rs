//! The `cqlmodel` command line: argument handling lives in `main.rs`; each
//! command's work lives here so that tests and benchmarks can call it directly.

pub mod cluster_args;
pub mod design_cmd;
pub mod design_existing;
pub mod diagnose_args;
pub mod diagnose_cmd;
pub mod diagnose_live;
pub mod explain;
pub mod explain_out;
pub mod html_out;
pub mod input;
pub mod live_schema;
pub mod migrate_cmd;
pub mod outcome;
pub mod output;
pub mod progress;
pub mod review_cmd;
pub mod review_live;
pub mod ring_cmd;
pub mod rules_json;
pub mod schema_load;
pub mod script_source;
pub mod size;
pub mod size_live;
pub mod sniff;
pub mod system_keyspaces;
pub mod token;
