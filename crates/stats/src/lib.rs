//! Workload statistics, partition sizing and partition-key sampling.
//!
//! A statistics file (TOML, see `docs/stats.md`) says how many rows each table
//! holds or how fast it grows, how long rows live, and how each column's values
//! are spread. From it and the schema, [`estimate_table`] computes partitions,
//! rows, cells and bytes per partition (the Cassandra docs' sizing formula), checks
//! them against the thresholds (100 MB, 100,000 rows), and recommends a time bucket
//! or salt when they are exceeded. [`KeySampler`] draws real partition keys from
//! the declared distributions and hashes them with Murmur3 for the ring analysis.
//! [`to_toml`] writes statistics back as a file that [`load_stats`] reads as the same.
//!
//! ```
//! use cqlmodel_stats::{estimate_table, load_stats, RecommendationKind, BucketUnit};
//!
//! let cql = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
//!            CREATE TABLE iot.temp_by_device (device_id text, ts timestamp, temp double,
//!                                             PRIMARY KEY (device_id, ts));";
//! let schema = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(cql).statements).schema;
//!
//! let stats = load_stats(r#"
//!     [table."iot.temp_by_device"]
//!     rows_per_second = 10000
//!     retention = "365d"
//!     [table."iot.temp_by_device".column.device_id]
//!     distinct = 10000
//!     distribution = "uniform"
//! "#, &schema).map_err(|e| format!("{e:?}"))?;
//!
//! let table = schema.table("iot", "temp_by_device").ok_or("no table")?;
//! let estimate = estimate_table(table, &stats.tables["iot.temp_by_device"], &stats.thresholds);
//! // One reading per second per device for a year: 31.5 M rows in every partition.
//! assert_eq!(estimate.sizes.rows.max, 31_536_000.0);
//! assert!(!estimate.exceeds.is_empty());
//! // A day bucket brings each partition to 86,400 rows.
//! let rec = estimate.recommendation.ok_or("no recommendation")?;
//! assert_eq!(rec.kind, RecommendationKind::TimeBucket(BucketUnit::Day));
//! assert_eq!(rec.sizes.rows.max, 86_400.0);
//! assert_eq!(rec.read_fanout, 2); // a 24 h range reads today's and yesterday's bucket
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod distribution;
mod error;
mod estimate;
mod layout;
mod load;
mod model;
mod partition_sizes;
mod recommend;
pub mod rng;
mod sample;
pub mod shape;
pub mod sizes;
pub mod units;
mod write;

pub use distribution::Distribution;
pub use error::{StatsError, StatsErrorKind};
pub use estimate::{GrowthPoint, SizeEstimate, age_label, estimate_all, estimate_table};
pub use layout::{
    DEFAULT_DISTINCT, DEFAULT_HORIZON, DEFAULT_QUERY_SPAN, DEFAULT_ROWS, Flow, KeyDim, Layout,
    RowCost,
};
pub use load::load_stats;
pub use model::{
    BucketUnit, ColumnStats, QueryStats, Retention, Stats, TableStats, Thresholds, Volume,
};
pub use partition_sizes::{Cut, Exceeded, Quantiles, Sizes, sizes_at};
pub use recommend::{Recommendation, RecommendationKind, time_fanout};
pub use sample::{KeySampler, SampleError, SampledPartition, TIME_ORIGIN, sample_partitions};
pub use write::to_toml;
