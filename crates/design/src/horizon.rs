//! The age at which growth that nothing removes is sized: one horizon for
//! the whole design, read by the sizing stage (every table's partitions) and
//! by the write paths (a cascade's children per parent, the buckets a delete
//! or a change reaches). A leaf, so that both read it without importing
//! each other.

use cqlmodel_stats::{Retention, TableStats, Volume};
use serde::Serialize;

/// The growth horizon when nothing bounds a table: several years, so that a
/// table that fits in year one does not silently pass the limits later.
pub const DEFAULT_HORIZON: u64 = 3 * 365 * 86_400;

/// The horizon a design was sized at, and where it came from.
#[derive(Debug, Clone, Serialize)]
pub struct Horizon {
    pub seconds: u64,
    /// `default`, or `--horizon` (given by the caller).
    pub source: &'static str,
}

impl Horizon {
    /// `--horizon` when the caller gave one, else [`DEFAULT_HORIZON`].
    pub(crate) fn of(given: Option<u64>) -> Self {
        match given {
            Some(seconds) => Self {
                seconds,
                source: "--horizon",
            },
            None => Self {
                seconds: DEFAULT_HORIZON,
                source: "default",
            },
        }
    }

    /// `3y (default)`, as the decisions and the report name it.
    pub fn text(&self) -> String {
        format!(
            "{} ({})",
            cqlmodel_stats::units::format_duration(self.seconds),
            self.source
        )
    }

    /// How old an entity's rows can get, and why: its retention; else, when
    /// it grows, the statistics' own `horizon` or this one. `None` when
    /// nothing bounds the age (a fixed volume with neither).
    pub(crate) fn age_of(&self, ts: &TableStats) -> Option<(u64, String)> {
        let design = || format!("no retention: the design's horizon, {}", self.source);
        match (ts.retention, ts.horizon) {
            (Retention::Seconds(s), _) => Some((s, "retention".into())),
            (_, Some(h)) if h == self.seconds => Some((h, design())),
            (_, Some(h)) => Some((h, "no retention: the statistics' `horizon`".into())),
            _ if matches!(ts.volume, Volume::Growth { .. }) => Some((self.seconds, design())),
            _ => None,
        }
    }
}
