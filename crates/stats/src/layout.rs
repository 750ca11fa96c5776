//! A table's sizing model, built from its schema and its statistics with every
//! missing number filled by a documented default (and noted as an assumption).

use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{Column, ColumnKind, Table};

use crate::distribution::Distribution;
use crate::model::{BucketUnit, ColumnStats, Retention, TableStats, Volume};
use crate::sizes::{ColumnSize, SizeSource, column_size};
use crate::units::{YEAR, format_bytes, format_count, format_duration, format_rate};

/// Rows of a table that gives neither `rows` nor a growth rate.
pub const DEFAULT_ROWS: f64 = 1_000_000.0;
/// Distinct values of a partition-key column that gives no `distinct`.
pub const DEFAULT_DISTINCT: f64 = 1_000.0;
/// The age a growing table without retention is sized at.
pub const DEFAULT_HORIZON: u64 = YEAR;
/// The time range a range query reads, for bucket fan-out, when no query says.
pub const DEFAULT_QUERY_SPAN: u64 = 86_400;

/// How rows arrive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Flow {
    Fixed {
        rows: f64,
    },
    Growth {
        rows_per_second: f64,
        /// Seconds of rows kept (retention), `None` for ever.
        retention: Option<u64>,
        /// The age the table is sized at (retention, or the horizon).
        age: u64,
    },
}

/// One partition-key column other than a time bucket.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyDim {
    pub column: String,
    pub distribution: Distribution,
    pub distinct: f64,
}

/// The terms of the Cassandra docs' size formula that do not depend on the row count:
/// `St = pk_bytes + static_bytes + Nr × row_bytes + (Nr × cells_per_row + static_cells) × t_avg`.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct RowCost {
    /// Σ sizeOf(partition key columns).
    pub partition_key_bytes: f64,
    /// Σ sizeOf(static columns).
    pub static_bytes: f64,
    /// Σ sizeOf(regular columns) + Σ sizeOf(clustering columns): bytes per row.
    pub row_bytes: f64,
    /// Nc − Npk − Ns: cells per row (collections count their elements).
    pub cells_per_row: f64,
    /// Ns: static cells per partition.
    pub static_cells: f64,
    /// t_avg: per-cell metadata bytes.
    pub cell_overhead: f64,
}

impl RowCost {
    /// Nv = Nr (Nc − Npk − Ns) + Ns.
    pub fn cells(&self, rows: f64) -> f64 {
        rows * self.cells_per_row + self.static_cells
    }

    /// St for a partition of `rows` rows.
    pub fn bytes(&self, rows: f64) -> f64 {
        self.partition_key_bytes
            + self.static_bytes
            + rows * self.row_bytes
            + self.cells(rows) * self.cell_overhead
    }

    /// Bytes each additional row adds.
    pub fn bytes_per_row(&self) -> f64 {
        self.row_bytes + self.cells_per_row * self.cell_overhead
    }
}

/// A table's sizing model.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub table: String,
    pub flow: Flow,
    /// Partition-key columns that are not time buckets.
    pub dims: Vec<KeyDim>,
    /// The time bucket of the partition key (growing tables only), in seconds.
    pub bucket: Option<(String, u64)>,
    /// A table without clustering columns holds one row per partition.
    pub one_row_per_partition: bool,
    /// A clustering column is a time (temporal type or time-based distribution).
    pub time_ordered: bool,
    pub cost: RowCost,
    /// Time range of range queries, for bucket fan-out.
    pub query_span: u64,
    /// True when the statistics gave the span (else the default).
    pub query_span_given: bool,
    pub assumptions: Vec<String>,
}

fn type_cardinality(ty: &CqlType) -> Option<f64> {
    match ty {
        CqlType::Native(NativeType::Boolean) => Some(2.0),
        CqlType::Native(NativeType::Tinyint) => Some(256.0),
        CqlType::Native(NativeType::Smallint) => Some(65_536.0),
        _ => None,
    }
}

fn is_temporal(ty: &CqlType) -> bool {
    matches!(
        ty,
        CqlType::Native(
            NativeType::Timestamp | NativeType::Timeuuid | NativeType::Date | NativeType::Time
        )
    )
}

/// True when the table's clustering columns put rows in time order (a temporal type
/// or a time-based distribution).
pub fn has_time_ordered_clustering(table: &Table, stats: &TableStats) -> bool {
    table.clustering().any(|c| {
        is_temporal(&c.ty)
            || stats
                .column(&c.name)
                .and_then(|s| s.distribution)
                .is_some_and(|d| d.is_time())
    })
}

impl Layout {
    pub fn build(table: &Table, stats: &TableStats) -> Layout {
        let mut notes = Vec::new();
        let one_row_per_partition = table.clustering_len() == 0;
        let retention = retention_of(table, stats, &mut notes);
        let age = retention.unwrap_or_else(|| stats.horizon.unwrap_or(DEFAULT_HORIZON));
        let rates = TimeRates::of(table, stats);
        let growing = matches!(stats.volume, Volume::Growth { .. })
            || (matches!(stats.volume, Volume::Unspecified)
                && (rates.clustering.is_some() || rates.key.is_some()));
        let (bucket, dims) = key_dims(table, stats, growing, age, &mut notes);
        let flow = flow_of(stats, &rates, &dims, retention, age, &mut notes);
        if let Flow::Growth {
            retention: None,
            age,
            ..
        } = flow
        {
            let why = if stats.horizon.is_some() {
                "`horizon`"
            } else {
                "default horizon"
            };
            notes.push(format!("sized after {} ({why})", format_duration(age)));
        }
        if let Some((col, w)) = &bucket {
            notes.push(format!(
                "time bucket `{col}`: one partition per {} per key",
                format_duration(*w)
            ));
        }

        let cost = row_cost(table, stats, &mut notes);
        if let Some(rate) = stats.request_rate {
            notes.push(format!(
                "{} requests/s (the queries naming the table)",
                format_count(rate)
            ));
        }
        let query_span = stats.query_span.unwrap_or(DEFAULT_QUERY_SPAN);
        Layout {
            table: table.qualified_name(),
            flow,
            dims,
            bucket,
            one_row_per_partition,
            time_ordered: has_time_ordered_clustering(table, stats),
            cost,
            query_span,
            query_span_given: stats.query_span.is_some(),
            assumptions: notes,
        }
    }

    /// Total rows at `age` seconds (fixed tables: always the same).
    pub fn total_rows_at(&self, age: u64) -> f64 {
        match self.flow {
            Flow::Fixed { rows } => rows,
            Flow::Growth {
                rows_per_second,
                retention,
                ..
            } => rows_per_second * live_seconds(age, retention),
        }
    }

    pub fn is_growing(&self) -> bool {
        matches!(self.flow, Flow::Growth { .. })
    }
}

/// How long rows live: the stats' `retention`, else the table's
/// `default_time_to_live`; `None` when they are never deleted.
fn retention_of(table: &Table, stats: &TableStats, notes: &mut Vec<String>) -> Option<u64> {
    match stats.retention {
        Retention::Seconds(s) => {
            notes.push(format!("retention {}", format_duration(s)));
            Some(s)
        }
        Retention::Unbounded => {
            notes.push("retention unbounded (rows are never deleted)".into());
            None
        }
        Retention::TableDefault => match table.options.default_time_to_live.filter(|t| *t > 0) {
            Some(ttl) => {
                notes.push(format!(
                    "retention {} (the table's default_time_to_live; expired cells are assumed compacted away)",
                    format_duration(ttl)
                ));
                Some(ttl)
            }
            None => {
                notes.push(
                    "retention unbounded (no `retention` and no default_time_to_live)".into(),
                );
                None
            }
        },
    }
}

/// The rates of the time-distributed columns: a clustering column (rows per
/// partition per second) and a partition-key column that is not a bucket.
struct TimeRates {
    clustering: Option<(String, f64)>,
    key: Option<(String, f64)>,
}

impl TimeRates {
    fn of(table: &Table, stats: &TableStats) -> TimeRates {
        let col_stats = |c: &Column| stats.column(&c.name).cloned().unwrap_or_default();
        let clustering = table
            .clustering()
            .find_map(|c| match col_stats(c).distribution {
                Some(Distribution::Time { per_second }) => Some((c.name.clone(), per_second)),
                _ => None,
            });
        let key = table.partition_key().find_map(|c| {
            let s = col_stats(c);
            match (s.distribution, s.bucket) {
                (Some(Distribution::Time { per_second }), None) => {
                    Some((c.name.clone(), per_second))
                }
                _ => None,
            }
        });
        TimeRates { clustering, key }
    }
}

/// Which partition-key column is the time bucket (the first declared one, on a
/// growing table), and the dimensions of the others.
fn key_dims(
    table: &Table,
    stats: &TableStats,
    growing: bool,
    age: u64,
    notes: &mut Vec<String>,
) -> (Option<(String, u64)>, Vec<KeyDim>) {
    let col_stats = |c: &Column| stats.column(&c.name).cloned().unwrap_or_default();
    let one_row_per_partition = table.clustering_len() == 0;
    let pk: Vec<&Column> = table.partition_key().collect();
    let mut bucket = None;
    let mut dims = Vec::new();
    for c in &pk {
        let s = col_stats(c);
        let declared_bucket = s.bucket.or_else(|| {
            (growing
                && c.ty == CqlType::Native(NativeType::Date)
                && s.distinct.is_none()
                && s.distribution.is_none())
            .then(|| {
                notes.push(format!(
                    "`{}` (date) taken as a day bucket of the partition key",
                    c.name
                ));
                BucketUnit::Day
            })
        });
        if growing
            && let Some(unit) = declared_bucket
            && bucket.is_none()
        {
            bucket = Some((c.name.clone(), unit.seconds()));
            continue;
        }
        let single_key = one_row_per_partition && pk.len() == 1;
        dims.push(key_dim(c, &s, growing, age, single_key, stats, notes));
    }

    (bucket, dims)
}

/// The row count: explicit, or derived from a time-based column.
fn flow_of(
    stats: &TableStats,
    rates: &TimeRates,
    dims: &[KeyDim],
    retention: Option<u64>,
    age: u64,
    notes: &mut Vec<String>,
) -> Flow {
    match stats.volume {
        Volume::Fixed { rows } => {
            notes.push(format!("{} rows (fixed size)", format_count(rows)));
            Flow::Fixed { rows }
        }
        Volume::Growth { rows_per_second } => {
            notes.push(format!("{} rows/s (growth)", format_count(rows_per_second)));
            Flow::Growth {
                rows_per_second,
                retention,
                age,
            }
        }
        Volume::Unspecified => match (&rates.clustering, &rates.key) {
            (Some((col, rate)), _) => {
                let per_key: f64 = dims.iter().map(|d| d.distinct).product();
                let rows_per_second = rate * per_key;
                notes.push(format!(
                    "{} rows/s derived: `{col}` at {} per partition × {} partition keys",
                    format_count(rows_per_second),
                    format_rate(*rate),
                    format_count(per_key)
                ));
                Flow::Growth {
                    rows_per_second,
                    retention,
                    age,
                }
            }
            (None, Some((col, rate))) => {
                notes.push(format!(
                    "{} rows/s derived from `{col}` (time({}))",
                    format_count(*rate),
                    format_rate(*rate)
                ));
                Flow::Growth {
                    rows_per_second: *rate,
                    retention,
                    age,
                }
            }
            (None, None) => {
                notes.push(format!(
                    "{} rows (default: give `rows` or `rows_per_second`)",
                    format_count(DEFAULT_ROWS)
                ));
                Flow::Fixed { rows: DEFAULT_ROWS }
            }
        },
    }
}

/// Seconds of rows alive at `age`: the age, capped by the retention.
pub fn live_seconds(age: u64, retention: Option<u64>) -> f64 {
    retention.map_or(age, |r| age.min(r)) as f64
}

fn key_dim(
    c: &Column,
    s: &ColumnStats,
    growing: bool,
    age: u64,
    single_key: bool,
    stats: &TableStats,
    notes: &mut Vec<String>,
) -> KeyDim {
    let distribution = s.distribution.unwrap_or(Distribution::Uniform);
    let fixed_rows = match stats.volume {
        Volume::Fixed { rows } => Some(rows),
        _ => None,
    };
    let distinct = match (s.distinct, distribution) {
        (Some(d), _) => d,
        (None, Distribution::Time { per_second }) if growing => {
            let d = per_second * age as f64;
            notes.push(format!(
                "`{}`: {} distinct values ({} for {})",
                c.name,
                format_count(d),
                format_rate(per_second),
                format_duration(age)
            ));
            d
        }
        (None, _) if single_key && type_cardinality(&c.ty).is_none() => {
            let rows = match stats.volume {
                Volume::Fixed { rows } => rows,
                Volume::Growth { rows_per_second } => rows_per_second * age as f64,
                Volume::Unspecified => DEFAULT_ROWS,
            };
            notes.push(format!(
                "`{}`: {} distinct values (one partition per row: no clustering columns)",
                c.name,
                format_count(rows)
            ));
            rows
        }
        (None, _) => {
            let d = type_cardinality(&c.ty)
                .unwrap_or(DEFAULT_DISTINCT)
                .min(fixed_rows.unwrap_or(f64::INFINITY))
                .max(1.0);
            let why = if type_cardinality(&c.ty).is_some() {
                format!("every value of {}", c.ty)
            } else {
                "default: give `distinct`".to_string()
            };
            notes.push(format!(
                "`{}`: {} distinct values ({why})",
                c.name,
                format_count(d)
            ));
            d
        }
    };
    if s.distinct.is_some() {
        notes.push(format!(
            "`{}`: {} distinct values, {distribution}",
            c.name,
            format_count(distinct)
        ));
    } else if s.distribution.is_none() {
        notes.push(format!("`{}`: uniform (default distribution)", c.name));
    }
    KeyDim {
        column: c.name.clone(),
        distribution,
        distinct: distinct.max(1.0),
    }
}

fn row_cost(table: &Table, stats: &TableStats, notes: &mut Vec<String>) -> RowCost {
    let mut cost = RowCost {
        cell_overhead: crate::sizes::CELL_OVERHEAD_BYTES,
        ..RowCost::default()
    };
    let mut described = Vec::new();
    for c in &table.columns {
        let size: ColumnSize = column_size(c, stats.column(&c.name));
        match c.kind {
            ColumnKind::PartitionKey(_) => cost.partition_key_bytes += size.bytes,
            ColumnKind::Clustering(..) => cost.row_bytes += size.bytes,
            ColumnKind::Static => {
                cost.static_bytes += size.bytes;
                cost.static_cells += size.cells;
            }
            ColumnKind::Regular => {
                cost.row_bytes += size.bytes;
                cost.cells_per_row += size.cells;
            }
        }
        let tag = match size.source {
            SizeSource::Type => String::new(),
            SizeSource::Declared => " declared".into(),
            SizeSource::Default => " default".into(),
        };
        let cells = if size.cells != 1.0 {
            format!(" in {} cells", format_count(size.cells))
        } else {
            String::new()
        };
        described.push(format!(
            "{} {}{cells}{tag}",
            c.name,
            format_bytes(size.bytes)
        ));
    }
    notes.push(format!("value sizes: {}", described.join(", ")));
    notes.push(format!(
        "per-cell overhead t_avg = {} bytes; sizes are per replica, before compression",
        cost.cell_overhead
    ));
    cost
}
