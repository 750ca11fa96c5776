//! The review's one door to the statistics crate: the workload model a
//! statistics file gives (`Stats`, per-table and per-column figures), the size
//! estimate, and the unit formatting the findings print. Rules import from
//! here, never from `cqlmodel_stats` directly, so what the review depends on is
//! this list.

pub use cqlmodel_stats::shape::share_quantiles;
pub use cqlmodel_stats::sizes::type_bytes;
pub use cqlmodel_stats::units::{format_bytes, format_count, format_duration};
pub use cqlmodel_stats::{
    BucketUnit, ColumnStats, Cut, DEFAULT_QUERY_SPAN, Distribution, Flow, Layout, Quantiles,
    Recommendation, RecommendationKind, Retention, SizeEstimate, Sizes, Stats, TableStats,
    Thresholds, Volume, estimate_table, sizes_at, time_fanout,
};
