//! Reads saved `nodetool` outputs and finds the tables whose key needs a change.
//!
//! Pure: no I/O. The parsers take text and return what they read, with every
//! problem located by line; the analysis takes what was read (and the schema,
//! when there is one) and returns findings with their numbers and the fix.
//!
//! ```
//! use cqlmodel_diagnose::parse_input;
//!
//! let text = "Total number of tables: 1\n----------------\nKeyspace : iot\n\
//!     \tRead Count: 10\n\t\tTable: readings\n\t\tSSTable count: 4\n\
//!     \t\tCompacted partition maximum bytes: 268650950\n\
//!     \t\tCompacted partition mean bytes: 1331\n\n----------------\n";
//! let parsed = parse_input(0, "node1", text);
//! assert!(parsed.problems.is_empty());
//! let t = &parsed.stats[0].tables[0];
//! assert_eq!(t.qualified_name(), "iot.readings");
//! assert_eq!(t.partition_max_bytes, Some(268_650_950));
//! ```

pub mod analyze;
mod cursor;
pub mod error;
mod fields;
mod histograms;
mod locate;
pub mod measured;
pub mod model;
mod node_header;
mod number;
mod parse;
mod ring;
mod status;
mod tablestats_text;
mod tablestats_tree;
mod yaml;

pub use analyze::rules::{DiagRule, RULES};
pub use analyze::{DiagnoseInput, Evidence, Finding, Unit, diagnose, diagnose_findings};
pub use error::{ParseProblem, ProblemKind};
pub use model::{
    HistogramRow, InputFormat, NodeStats, NodeStatus, Origin, Percentile, TableHistogram,
    TableStats,
};
pub use parse::{Parsed, parse_input};
