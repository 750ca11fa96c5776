//! What one mutation writes into one table: the hand-off from a table's
//! planner (statements.rs) to the steps that shape its statements (fan-out,
//! key moves) and to the path. A leaf, so those steps need not import the
//! planner that calls them.

use super::WriteStatement;

/// What one mutation writes into one table.
#[derive(Default)]
pub(super) struct Planned {
    pub(super) statements: Vec<WriteStatement>,
    /// Rows written into this table per mutation (mean), for a fan-out.
    pub(super) amplification: Option<f64>,
    /// (table, largest fan-out) when statistics give it.
    pub(super) tail: Option<(String, f64)>,
    /// An update that rewrites copies of a parent's attributes in child rows.
    pub(super) copies_fan_out: bool,
    pub(super) note: Option<String>,
}
