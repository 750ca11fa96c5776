//! Diagnostics for every cqlmodel command, and the renderers that show them to
//! people (rustc-style text) and machines (JSON, SARIF 2.1.0).
//!
//! ```
//! use cqlmodel_diagnostics::{render_human, render_json, Diagnostic, SourceFile, SourceMap};
//!
//! let mut sources = SourceMap::new();
//! let file = sources.add(SourceFile::new(
//!     "queries.cql",
//!     "SELECT * FROM ks.t WHERE v = 1 ALLOW FILTERING;\n",
//! ));
//! let diags = vec![
//!     Diagnostic::warning("CQL001", "query uses ALLOW FILTERING")
//!         .with_name("allow-filtering")
//!         .with_file(file)
//!         .with_primary(31..46, "scans every partition")
//!         .with_help("query by the partition key, or add a table keyed by `v`"),
//! ];
//!
//! let text = render_human(&diags, &sources, false);
//! assert!(text.starts_with("warning[CQL001]: query uses ALLOW FILTERING\n --> queries.cql:1:32"));
//!
//! let json = render_json(&diags, &sources);
//! assert_eq!(json[0]["column"], 32);
//! ```
//!
//! Spans are byte offsets that may be wrong in any way (past the end, inside a
//! character, reversed): renderers clamp them and never panic. Positions are
//! 1-based, columns count characters (`'\r'` excluded), and the end of a span is
//! exclusive.

mod diagnostic;
mod render;
mod source;

mod escape;
pub use diagnostic::{Diagnostic, Fix, Label, ParseSeverityError, RuleMeta, Severity};
pub use escape::{escape_controls, escape_line};
pub use render::{render_human, render_json, render_sarif, write_human};
pub use source::{SourceFile, SourceMap};
