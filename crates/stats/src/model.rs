//! Workload statistics once read and checked against the schema.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::distribution::Distribution;

/// Everything a statistics file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// By keyspace-qualified table name (`iot.temp_by_device`).
    pub tables: BTreeMap<String, TableStats>,
    pub queries: BTreeMap<String, QueryStats>,
    pub thresholds: Thresholds,
}

impl Stats {
    pub fn table(&self, qualified: &str) -> Option<&TableStats> {
        self.tables.get(qualified)
    }
}

/// The partition limits a report checks against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Bytes per partition (default 100 MB = 10^8 bytes).
    pub partition_bytes: f64,
    /// Rows per partition (default 100,000).
    pub partition_rows: f64,
}

impl Thresholds {
    pub const DEFAULT_BYTES: f64 = 100e6;
    pub const DEFAULT_ROWS: f64 = 100_000.0;
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            partition_bytes: Self::DEFAULT_BYTES,
            partition_rows: Self::DEFAULT_ROWS,
        }
    }
}

/// How many rows a table holds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Volume {
    /// Not given: derived from a time-based column's rate if there is one, else the
    /// documented default.
    #[default]
    Unspecified,
    /// A table of fixed size (`rows`).
    Fixed { rows: f64 },
    /// A table that grows (`rows_per_second`, or `rows_per_day` / 86,400).
    Growth { rows_per_second: f64 },
}

/// How long rows live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Retention {
    /// Not given: the table's `default_time_to_live` if set, else unbounded.
    #[default]
    TableDefault,
    /// Rows expire (TTL) or are deleted after this many seconds.
    Seconds(u64),
    /// Rows are kept for ever (`retention = "unbounded"`).
    Unbounded,
}

/// What the statistics file says about one table.
#[derive(Debug, Clone, Default)]
pub struct TableStats {
    pub volume: Volume,
    pub retention: Retention,
    /// The age at which a growing table without retention is sized (default 365 days).
    pub horizon: Option<u64>,
    /// The time range (seconds) the table's range queries read, for bucket fan-out
    /// (`query_span`, or the largest `span` of a query naming this table; default 24 h).
    pub query_span: Option<u64>,
    /// Requests per second to this table: the sum of `rate_per_second` of the queries
    /// that name it (`table = "…"`); `None` when no query names it.
    pub request_rate: Option<f64>,
    /// By column name.
    pub columns: BTreeMap<String, ColumnStats>,
    /// Where the table's section starts in the statistics file (byte offsets).
    /// Not compared by `==`.
    pub span: Option<Range<usize>>,
}

/// Equal when they say the same thing: `span` records where the section was
/// written, not what it says, so a table read back from a rewritten file (see
/// [`to_toml`](crate::to_toml)) equals the original.
impl PartialEq for TableStats {
    fn eq(&self, other: &Self) -> bool {
        // Destructured so that a new field cannot be left out by accident.
        let TableStats {
            volume,
            retention,
            horizon,
            query_span,
            request_rate,
            columns,
            span: _,
        } = self;
        *volume == other.volume
            && *retention == other.retention
            && *horizon == other.horizon
            && *query_span == other.query_span
            && *request_rate == other.request_rate
            && *columns == other.columns
    }
}

impl TableStats {
    pub fn column(&self, name: &str) -> Option<&ColumnStats> {
        self.columns.get(name)
    }
}

/// A time bucket width: the unit a partition-key column truncates time to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BucketUnit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

impl BucketUnit {
    /// Coarsest first: the order recommendations try them in.
    pub const COARSEST_FIRST: [BucketUnit; 6] = [
        BucketUnit::Year,
        BucketUnit::Month,
        BucketUnit::Week,
        BucketUnit::Day,
        BucketUnit::Hour,
        BucketUnit::Minute,
    ];

    /// The bucket's width in seconds. A month is 31 days (the longest month decides
    /// the largest partition), a year 365 days.
    pub fn seconds(self) -> u64 {
        use crate::units::{DAY, HOUR, MINUTE, WEEK, YEAR};
        match self {
            BucketUnit::Minute => MINUTE,
            BucketUnit::Hour => HOUR,
            BucketUnit::Day => DAY,
            BucketUnit::Week => WEEK,
            BucketUnit::Month => 31 * DAY,
            BucketUnit::Year => YEAR,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BucketUnit::Minute => "minute",
            BucketUnit::Hour => "hour",
            BucketUnit::Day => "day",
            BucketUnit::Week => "week",
            BucketUnit::Month => "month",
            BucketUnit::Year => "year",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "minute" | "min" | "m" => BucketUnit::Minute,
            "hour" | "h" => BucketUnit::Hour,
            "day" | "d" => BucketUnit::Day,
            "week" | "w" => BucketUnit::Week,
            "month" => BucketUnit::Month,
            "year" | "y" => BucketUnit::Year,
            _ => return None,
        })
    }
}

/// What the statistics file says about one column. Every field is optional; the
/// estimator fills what is missing with the defaults of `docs/stats.md`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnStats {
    /// Distinct values (cardinality).
    pub distinct: Option<f64>,
    pub distribution: Option<Distribution>,
    /// Average serialized size in bytes (variable-length types; overrides the type's size).
    pub avg_size: Option<f64>,
    pub p99_size: Option<f64>,
    pub max_size: Option<f64>,
    /// Collections: average and largest element count, and bytes per element.
    pub avg_elements: Option<f64>,
    pub max_elements: Option<f64>,
    pub element_size: Option<f64>,
    /// The column holds time truncated to this unit (a time bucket of the partition key).
    pub bucket: Option<BucketUnit>,
}

/// What the statistics file says about one named query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryStats {
    pub rate_per_second: Option<f64>,
    /// Keyspace-qualified table the query reads, if given.
    pub table: Option<String>,
    /// The time range the query reads, in seconds, if given.
    pub span: Option<u64>,
}
