//! What to change when partitions exceed the thresholds: the coarsest time bucket,
//! or the fewest salt buckets, that keeps p99 and max under them, and the read
//! fan-out that costs.
//!
//! A growing table can take a time bucket (year, month, week, day, hour, minute,
//! coarsest first); any table can take salt. When both work, the one with the
//! smaller read fan-out wins (a tie goes to the time bucket, which keeps reads of
//! recent data on one partition).

use crate::layout::{Flow, Layout, live_seconds};
use crate::model::{BucketUnit, Thresholds};
use crate::partition_sizes::{Cut, Sizes, sizes_at};
use crate::shape::ShareQuantiles;
use crate::units::{format_bytes, format_duration};

/// The change a report recommends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecommendationKind {
    /// Add (or narrow) a time bucket in the partition key.
    TimeBucket(BucketUnit),
    /// Add a salt column (`hash(...) % buckets`) to the partition key.
    Salt(u32),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Recommendation {
    pub kind: RecommendationKind,
    /// Partitions a read of the key's range queries touches after the change: for a
    /// time bucket, a `query_span` range over buckets (a 24 h range over day buckets
    /// reads 2 partitions, over hour buckets 25); for salt, every salt bucket.
    pub read_fanout: u64,
    /// The query span the time-bucket fan-out assumes, in seconds.
    pub query_span: u64,
    /// Partition sizes after the change.
    pub sizes: Sizes,
    /// One sentence a person reads.
    pub summary: String,
}

/// Partitions a range of `span` seconds, at any alignment, can touch with buckets
/// `width` seconds wide: ⌊span/width⌋ + 1, plus one when the span is not a whole
/// number of buckets.
pub fn time_fanout(span: u64, width: u64) -> u64 {
    if width == 0 {
        return 1;
    }
    span / width + 1 + u64::from(!span.is_multiple_of(width))
}

/// The largest salt a recommendation proposes; beyond it the key needs redesign.
const MAX_SALT: u32 = 1 << 20;

pub fn recommend(
    layout: &Layout,
    shares: &ShareQuantiles,
    current: &Sizes,
    t: &Thresholds,
    age: u64,
    notes: &mut Vec<String>,
) -> Option<Recommendation> {
    if layout.one_row_per_partition || layout.cost.bytes(1.0) > t.partition_bytes {
        notes.push(format!(
            "no bucketing helps: a single row is {}, over the {} threshold",
            format_bytes(layout.cost.bytes(1.0)),
            format_bytes(t.partition_bytes)
        ));
        return None;
    }
    let span = layout.query_span;
    if layout.time_ordered && !layout.is_growing() {
        notes.push(
            "the clustering is time-ordered but the table has a fixed size: give `rows_per_second` (or a `time(RATE)` column) to size time buckets".into(),
        );
    }
    let time = time_bucket(layout, shares, t, age).map(|(unit, sizes)| Recommendation {
        kind: RecommendationKind::TimeBucket(unit),
        read_fanout: time_fanout(span, unit.seconds()),
        query_span: span,
        summary: format!(
            "add a `{}` bucket to the partition key: a {} range reads {} partitions",
            unit.name(),
            format_duration(span),
            time_fanout(span, unit.seconds())
        ),
        sizes,
    });
    let salt = salt_buckets(layout, shares, current, t, age).map(|(n, sizes)| Recommendation {
        kind: RecommendationKind::Salt(n),
        read_fanout: u64::from(n),
        query_span: span,
        summary: format!(
            "add a salt column (hash of a clustering column % {n}) to the partition key: reading a key reads {n} partitions"
        ),
        sizes,
    });
    let chosen = match (time, salt) {
        (Some(time), Some(salt)) if time.read_fanout <= salt.read_fanout => Some(time),
        (Some(_), Some(salt)) => Some(salt),
        (time, salt) => time.or(salt),
    };
    match chosen.as_ref().map(|r| r.kind) {
        Some(RecommendationKind::TimeBucket(_)) => notes.push(format!(
            "read fan-out counts the partitions a {} range reads{}",
            format_duration(span),
            if layout.query_span_given {
                ""
            } else {
                " (default query span: give `query_span` or a query `span`)"
            }
        )),
        Some(RecommendationKind::Salt(n)) => notes.push(format!(
            "read fan-out of salt: reading one key reads all {n} salt partitions"
        )),
        None => {}
    }
    chosen
}

/// The coarsest bucket, narrower than the current one, under which the table fits.
fn time_bucket(
    layout: &Layout,
    shares: &ShareQuantiles,
    t: &Thresholds,
    age: u64,
) -> Option<(BucketUnit, Sizes)> {
    let Flow::Growth { retention, .. } = layout.flow else {
        return None;
    };
    let current = layout.bucket.as_ref().map_or(u64::MAX, |(_, w)| *w);
    let live = live_seconds(age, retention);
    BucketUnit::COARSEST_FIRST
        .into_iter()
        .filter(|u| u.seconds() < current && (u.seconds() as f64) < live)
        .find_map(|unit| {
            let sizes = sizes_at(
                layout,
                shares,
                Cut {
                    bucket_seconds: Some(unit.seconds()),
                    salt: 1.0,
                },
                age,
            );
            sizes.fits(t).then_some((unit, sizes))
        })
}

/// The fewest salt buckets under which the table fits.
fn salt_buckets(
    layout: &Layout,
    shares: &ShareQuantiles,
    current: &Sizes,
    t: &Thresholds,
    age: u64,
) -> Option<(u32, Sizes)> {
    let fixed = layout.cost.bytes(0.0);
    let per_row = layout.cost.bytes_per_row();
    let by_rows = current.rows.max / t.partition_rows;
    let by_bytes = if per_row > 0.0 {
        current.rows.max * per_row / (t.partition_bytes - fixed)
    } else {
        0.0
    };
    let mut n = by_rows
        .max(by_bytes)
        .ceil()
        .max(2.0)
        .min(f64::from(MAX_SALT)) as u32;
    let cut = |n: u32| Cut {
        bucket_seconds: layout.bucket.as_ref().map(|(_, w)| *w),
        salt: f64::from(n),
    };
    // The estimate above is exact for the linear formula; the loop guards rounding.
    for _ in 0..4 {
        let sizes = sizes_at(layout, shares, cut(n), age);
        if sizes.fits(t) {
            return Some((n, sizes));
        }
        n = n.saturating_add(1).min(MAX_SALT);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::{DAY, HOUR, WEEK};

    #[test]
    fn fanout_of_a_day_range() {
        assert_eq!(time_fanout(DAY, DAY), 2);
        assert_eq!(time_fanout(DAY, HOUR), 25);
        assert_eq!(time_fanout(DAY, WEEK), 2);
        assert_eq!(time_fanout(DAY + HOUR, DAY), 3);
        assert_eq!(time_fanout(0, DAY), 1);
    }
}
