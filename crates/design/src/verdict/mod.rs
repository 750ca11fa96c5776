//! Should this workload be on Cassandra at all? The fit verdict at the top of
//! every design: `fits`, `fits with companions` (a search index or an
//! analytical store fed by CDC, for named queries), `stay relational` (whole,
//! or in part: per entity), with the numbers behind it and the threshold each
//! line is compared with.
//!
//! Stages, each a file with its own types: [`input`] (the facts the designer
//! already knows) → [`evidence`] (shares and rates) → [`decide`] (per entity,
//! then the workload) → [`render`]. [`thresholds`] is the leaf they share.

pub mod decide;
pub mod evidence;
mod format;
pub mod input;
pub mod render;
pub mod thresholds;

pub use decide::{Companion, CompanionKind, EntityVerdict, Fit, Line, Verdict};
pub use input::VerdictInput;
pub use render::{JSON_VERSION, verdict_json, verdict_md, verdict_text};

use crate::plan::Design;

/// The fit verdict of a design.
pub fn verdict(d: &Design) -> Verdict {
    verdict_of(&VerdictInput::from_design(d))
}

/// The fit verdict of facts gathered elsewhere.
pub fn verdict_of(input: &VerdictInput) -> Verdict {
    decide::decide(evidence::gather(input))
}
