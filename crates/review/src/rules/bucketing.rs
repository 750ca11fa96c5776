//! The bucketed key a fix proposes: which time bucket (the sizing's recommendation
//! when statistics describe the table, else a day), what it costs reads, and the
//! rewritten CREATE TABLE.

use crate::stats::format_duration;
use crate::stats::share_quantiles;
use crate::stats::{
    BucketUnit, Cut, DEFAULT_QUERY_SPAN, Flow, Layout, RecommendationKind, Sizes, sizes_at,
    time_fanout,
};
use cqlmodel_schema::Table;

use super::column_roles::bucket_column;
use super::table_cql::TableSketch;
use crate::context::{Context, stats_thresholds};

/// A time bucket to add to a partition key.
#[derive(Debug, Clone)]
pub struct BucketChoice {
    pub unit: BucketUnit,
    /// Partitions a range of `query_span` reads once the key is bucketed.
    pub read_fanout: u64,
    pub query_span: u64,
    /// Partition sizes under the bucket, when statistics allowed sizing them.
    pub sizes: Option<Sizes>,
    /// Why this bucket: the sizing's recommendation, or the default.
    pub basis: String,
}

impl BucketChoice {
    fn default_day() -> Self {
        BucketChoice {
            unit: BucketUnit::Day,
            read_fanout: time_fanout(DEFAULT_QUERY_SPAN, BucketUnit::Day.seconds()),
            query_span: DEFAULT_QUERY_SPAN,
            sizes: None,
            basis: "bucket width `day`: the default (a statistics file with `rows_per_second` sizes it)"
                .into(),
        }
    }

    /// "a 24-hour range reads 2 partitions".
    pub fn fanout_text(&self) -> String {
        format!(
            "a {} range reads {} partition{}",
            span_text(self.query_span),
            self.read_fanout,
            if self.read_fanout == 1 { "" } else { "s" }
        )
    }
}

/// `24-hour`, `7-day`, `90-minute`: a range length as an adjective.
pub fn span_text(seconds: u64) -> String {
    if seconds >= 2 * 86_400 && seconds.is_multiple_of(86_400) {
        format!("{}-day", seconds / 86_400)
    } else if seconds >= 3600 && seconds.is_multiple_of(3600) {
        format!("{}-hour", seconds / 3600)
    } else if seconds.is_multiple_of(60) {
        format!("{}-minute", seconds / 60)
    } else {
        format!("{seconds}-second")
    }
}

/// The coarsest bucket that keeps the table's partitions under the thresholds: the
/// sizing's own recommendation when it made one, else the coarsest unit that fits
/// at the sizing age, else a day.
pub fn choose_bucket(cx: &Context<'_>, table: &Table) -> BucketChoice {
    if let Some(rec) = cx.estimate(table).and_then(|e| e.recommendation.as_ref())
        && let RecommendationKind::TimeBucket(unit) = rec.kind
    {
        return BucketChoice {
            unit,
            read_fanout: rec.read_fanout,
            query_span: rec.query_span,
            sizes: Some(rec.sizes.clone()),
            basis: format!(
                "bucket width `{}`: the sizing's recommendation, the coarsest that keeps p99 and max partitions within the limits",
                unit.name()
            ),
        };
    }
    let Some(table_stats) = cx.table_stats(table) else {
        return BucketChoice::default_day();
    };
    let layout = Layout::build(table, table_stats);
    let Flow::Growth { age, .. } = layout.flow else {
        return BucketChoice::default_day();
    };
    let dims: Vec<_> = layout
        .dims
        .iter()
        .map(|d| (d.distribution, d.distinct))
        .collect();
    let shares = share_quantiles(&dims);
    let current = layout.bucket.as_ref().map_or(u64::MAX, |(_, w)| *w);
    let thresholds = stats_thresholds(cx.config);
    for unit in BucketUnit::COARSEST_FIRST {
        if unit.seconds() >= current {
            continue;
        }
        let cut = Cut {
            bucket_seconds: Some(unit.seconds()),
            salt: 1.0,
        };
        let sizes = sizes_at(&layout, &shares, cut, age);
        if sizes.fits(&thresholds) {
            return BucketChoice {
                unit,
                read_fanout: time_fanout(layout.query_span, unit.seconds()),
                query_span: layout.query_span,
                sizes: Some(sizes),
                basis: format!(
                    "bucket width `{}`: the coarsest under which the statistics keep partitions within the limits after {}",
                    unit.name(),
                    format_duration(age)
                ),
            };
        }
    }
    BucketChoice::default_day()
}

/// `table` with a bucket column for `unit` in its partition key. `time_column` is
/// the column the bucket is computed from (`None`: the write time); `replaces` is
/// the table's current, wider bucket column, which the new one takes the place of.
/// Returns the sketch and the bucket column's name.
pub fn bucketed_table(
    table: &Table,
    unit: BucketUnit,
    time_column: Option<&str>,
    replaces: Option<&str>,
) -> (TableSketch, String) {
    let mut sketch = TableSketch::of(table);
    let at = replaces.and_then(|old| {
        let at = sketch.partition_key.iter().position(|n| n == old)?;
        sketch.partition_key.remove(at);
        sketch.columns.retain(|c| c.name != old);
        Some(at)
    });
    let source = time_column.unwrap_or("the write time");
    let (base, ty, how) = bucket_column(unit, source);
    let name = sketch.fresh_column_name(base);
    sketch.add_column(&name, ty, Some(format!("bucket: {how}")));
    match at {
        Some(at) => sketch.partition_key.insert(at, name.clone()),
        None => sketch.partition_key.push(name.clone()),
    }
    (sketch, name)
}

/// `table` with a salt column (`hash(source) % buckets`) added to its partition key.
/// Returns the sketch and the salt column's name.
/// Salt buckets when no statistics size them.
pub const DEFAULT_SALT_BUCKETS: u32 = 16;

pub fn salted_table(table: &Table, buckets: u32, source: Option<&str>) -> (TableSketch, String) {
    let mut sketch = TableSketch::of(table);
    let name = sketch.fresh_column_name("bucket");
    let how = match source {
        Some(col) => format!(
            "salt: hash({col}) % {buckets}, 0..{}",
            buckets.saturating_sub(1)
        ),
        None => format!("salt: a random 0..{} per row", buckets.saturating_sub(1)),
    };
    sketch.add_column(&name, "int", Some(how));
    sketch.partition_key.push(name.clone());
    (sketch, name)
}
