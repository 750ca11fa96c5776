//! The partitions of one layout cut one way (an optional time bucket, salt) at
//! one age: partitions, and rows, cells and bytes per partition as mean and
//! percentiles, checked against the thresholds. Both the estimate of a table
//! as it is and the recommendation of a better cut size with this.

use serde::Serialize;

use crate::layout::{Flow, Layout, live_seconds};
use crate::model::Thresholds;
use crate::shape::ShareQuantiles;

/// Mean and percentiles across partitions (p50 is the median partition).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Quantiles {
    pub mean: f64,
    pub p50: f64,
    pub p75: f64,
    pub p95: f64,
    pub p98: f64,
    pub p99: f64,
    pub max: f64,
}

impl Quantiles {
    fn from_array(mean: f64, q: [f64; 6]) -> Self {
        let [p50, p75, p95, p98, p99, max] = q;
        Quantiles {
            mean,
            p50,
            p75,
            p95,
            p98,
            p99,
            max,
        }
    }

    pub fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Quantiles {
            mean: f(self.mean),
            p50: f(self.p50),
            p75: f(self.p75),
            p95: f(self.p95),
            p98: f(self.p98),
            p99: f(self.p99),
            max: f(self.max),
        }
    }

    /// `(label, value)` for the histogram rows: 50%, 75%, 95%, 98%, 99%, Max.
    pub fn rows(&self) -> [(&'static str, f64); 6] {
        [
            ("50%", self.p50),
            ("75%", self.p75),
            ("95%", self.p95),
            ("98%", self.p98),
            ("99%", self.p99),
            ("Max", self.max),
        ]
    }
}

/// A threshold a partition can exceed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Exceeded {
    #[serde(rename = "partition-bytes")]
    PartitionBytes,
    #[serde(rename = "partition-rows")]
    PartitionRows,
}

impl Exceeded {
    pub fn name(self) -> &'static str {
        match self {
            Exceeded::PartitionBytes => "partition-bytes",
            Exceeded::PartitionRows => "partition-rows",
        }
    }
}

/// Partition sizes of one layout at one age.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizes {
    pub partitions: f64,
    pub total_rows: f64,
    pub rows: Quantiles,
    pub cells: Quantiles,
    pub bytes: Quantiles,
}

impl Sizes {
    /// The thresholds the largest partition passes.
    pub fn exceeds(&self, t: &Thresholds) -> Vec<Exceeded> {
        let mut out = Vec::new();
        if self.bytes.max > t.partition_bytes {
            out.push(Exceeded::PartitionBytes);
        }
        if self.rows.max > t.partition_rows {
            out.push(Exceeded::PartitionRows);
        }
        out
    }

    /// True when p99 and max are both within the thresholds.
    pub fn fits(&self, t: &Thresholds) -> bool {
        self.rows.p99 <= t.partition_rows
            && self.rows.max <= t.partition_rows
            && self.bytes.p99 <= t.partition_bytes
            && self.bytes.max <= t.partition_bytes
    }
}

/// How a layout is cut into partitions: an optional time bucket and salt buckets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    pub bucket_seconds: Option<u64>,
    pub salt: f64,
}

/// Partition sizes of `layout` cut by `cut`, at `age` seconds (ignored for fixed tables).
pub fn sizes_at(layout: &Layout, shares: &ShareQuantiles, cut: Cut, age: u64) -> Sizes {
    let salt = cut.salt.max(1.0);
    let (total_rows, per_partition, partitions) = match layout.flow {
        Flow::Fixed { rows } => (rows, rows / salt, shares.slots * salt),
        Flow::Growth {
            rows_per_second,
            retention,
            ..
        } => {
            let live = live_seconds(age, retention);
            let total = rows_per_second * live;
            match cut.bucket_seconds {
                Some(w) => {
                    let w = w as f64;
                    let buckets = (live / w).ceil().max(1.0);
                    (
                        total,
                        rows_per_second * live.min(w) / salt,
                        shares.slots * buckets * salt,
                    )
                }
                None => (total, total / salt, shares.slots * salt),
            }
        }
    };
    let (partitions, rows) = if layout.one_row_per_partition {
        (total_rows, Quantiles::from_array(1.0, [1.0; 6]))
    } else {
        let partitions = partitions
            .min(total_rows)
            .max(if total_rows > 0.0 { 1.0 } else { 0.0 });
        let mean = if partitions > 0.0 {
            total_rows / partitions
        } else {
            0.0
        };
        // A partition that exists holds at least one row.
        let floor = if total_rows >= 1.0 { 1.0 } else { total_rows };
        let q = shares.shares.map(|s| (per_partition * s).max(floor));
        (partitions, Quantiles::from_array(mean, q))
    };
    Sizes {
        partitions,
        total_rows,
        cells: rows.map(|r| layout.cost.cells(r)),
        bytes: rows.map(|r| layout.cost.bytes(r)),
        rows,
    }
}

/// The cut the schema already has: its own time bucket, no salt.
pub fn current_cut(layout: &Layout) -> Cut {
    Cut {
        bucket_seconds: layout.bucket.as_ref().map(|(_, w)| *w),
        salt: 1.0,
    }
}
