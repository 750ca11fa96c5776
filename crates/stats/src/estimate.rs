//! Partition size estimation: partitions, rows, cells and bytes per partition
//! (mean and percentiles), growth over time, thresholds and the recommendation.

use cqlmodel_schema::{Schema, Table};

use crate::layout::{Flow, Layout, RowCost};
use crate::model::{Stats, TableStats, Thresholds};
use crate::partition_sizes::{Cut, Exceeded, Sizes, current_cut, sizes_at};
use crate::recommend::{Recommendation, recommend};
use crate::shape::{ShareQuantiles, share_quantiles};
use crate::units::{DAY, YEAR, format_bytes, format_count, format_duration};

/// The size of a table's partitions at one point of its growth.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthPoint {
    pub age_seconds: u64,
    pub sizes: Sizes,
    pub exceeds: Vec<Exceeded>,
}

/// Everything `cqlmodel size` reports for one table.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeEstimate {
    pub table: String,
    /// The age the table is sized at (growing tables), in seconds.
    pub sized_at: Option<u64>,
    pub sizes: Sizes,
    pub formula: RowCost,
    pub thresholds: Thresholds,
    pub exceeds: Vec<Exceeded>,
    /// Sizes after a day, 30 days, a year and at the retention (growing tables only).
    pub growth: Vec<GrowthPoint>,
    pub recommendation: Option<Recommendation>,
    pub assumptions: Vec<String>,
}

/// Estimates one table.
pub fn estimate_table(table: &Table, stats: &TableStats, thresholds: &Thresholds) -> SizeEstimate {
    let layout = Layout::build(table, stats);
    let columns: Vec<_> = layout
        .dims
        .iter()
        .map(|d| (d.distribution, d.distinct))
        .collect();
    let shares = share_quantiles(&columns);
    let cut = current_cut(&layout);
    let (sized_at, age) = match layout.flow {
        Flow::Growth { age, .. } => (Some(age), age),
        Flow::Fixed { .. } => (None, 0),
    };
    let sizes = sizes_at(&layout, &shares, cut, age);
    let exceeds = sizes.exceeds(thresholds);
    let growth = growth_points(&layout, &shares, cut, thresholds);
    let mut assumptions = layout.assumptions.clone();
    let recommendation = if exceeds.is_empty() {
        None
    } else {
        recommend(&layout, &shares, &sizes, thresholds, age, &mut assumptions)
    };
    assumptions.push(format!(
        "thresholds: {} and {} rows per partition (p99 and max)",
        format_bytes(thresholds.partition_bytes),
        format_count(thresholds.partition_rows)
    ));
    SizeEstimate {
        table: layout.table.clone(),
        sized_at,
        sizes,
        formula: layout.cost,
        thresholds: *thresholds,
        exceeds,
        growth,
        recommendation,
        assumptions,
    }
}

/// Sizes after a day, 30 days and a year (those before the retention), and at the
/// retention or sizing age.
fn growth_points(
    layout: &Layout,
    shares: &ShareQuantiles,
    cut: Cut,
    t: &Thresholds,
) -> Vec<GrowthPoint> {
    let Flow::Growth { retention, age, .. } = layout.flow else {
        return Vec::new();
    };
    let end = retention.unwrap_or(age.max(YEAR));
    let mut ages: Vec<u64> = [DAY, 30 * DAY, YEAR]
        .into_iter()
        .filter(|a| *a < end)
        .collect();
    ages.push(end);
    if retention.is_none() && age > end {
        ages.push(age);
    }
    ages.into_iter()
        .map(|a| {
            let sizes = sizes_at(layout, shares, cut, a);
            GrowthPoint {
                age_seconds: a,
                exceeds: sizes.exceeds(t),
                sizes,
            }
        })
        .collect()
}

/// Estimates every table the statistics describe (all tables of the schema when
/// the statistics name none), in name order.
pub fn estimate_all(schema: &Schema, stats: &Stats) -> Vec<SizeEstimate> {
    let default = TableStats::default();
    if stats.tables.is_empty() {
        return schema
            .tables()
            .map(|t| estimate_table(t, &default, &stats.thresholds))
            .collect();
    }
    stats
        .tables
        .iter()
        .filter_map(|(name, ts)| {
            let (ks, t) = name.split_once('.')?;
            let table = schema.table(ks, t)?;
            Some(estimate_table(table, ts, &stats.thresholds))
        })
        .collect()
}

/// `"1d"`, `"30d"`, `"1y"`: the label of a growth point.
pub fn age_label(seconds: u64) -> String {
    format_duration(seconds)
}
