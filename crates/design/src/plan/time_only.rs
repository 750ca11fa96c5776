//! Tables read by time alone (issue 10 §5): a range on a time column with no
//! entity key. Every write of the entity lands in the current bucket, so the
//! bucket is the coarsest whose rows fit the partition limits, and a salt
//! joins it only when one bucket's rows or write rate need it. The decision
//! states the rows per bucket, the write rate and the statements a page runs.

use cqlmodel_stats::units::{format_bytes, format_count};
use cqlmodel_stats::{
    BucketUnit, Retention, SizeEstimate, Stats, TableStats, Volume, estimate_table,
};

use super::derived::{build_one, derived_stats};
use super::limits::SALT_CAP;
use crate::derive::{KeyPart, TableDesign, rebuild_key_columns};
use crate::numbers::{rate_text, trim_float};
use crate::relational::Model;

/// The writes per second the design lets one partition take. Every write of
/// a partition goes to the same replicas: above about a thousand a second
/// (a few MB/s of small rows) those nodes carry the table's whole write load
/// while the rest of the cluster idles, so the bucket is salted.
pub const PARTITION_WRITE_RATE: f64 = 1_000.0;

/// Rows a page reads when the query gives no LIMIT and no `@page`.
const DEFAULT_PAGE: u64 = 5_000;

/// The partition key is time buckets only (no entity key).
pub(super) fn is_time_only(t: &TableDesign) -> bool {
    t.partition_key
        .iter()
        .any(|p| matches!(p, KeyPart::Bucket(..)))
        && t.partition_key
            .iter()
            .all(|p| matches!(p, KeyPart::Bucket(..) | KeyPart::Salt(_)))
}

/// The unit, salt and rows per bucket a time-only table was given.
struct Layout {
    unit: BucketUnit,
    salt: u32,
    estimate: SizeEstimate,
}

/// The table with `unit` buckets and `salt` buckets (1: none), its columns rebuilt.
fn shaped(model: &Model, t: &TableDesign, unit: BucketUnit, salt: u32) -> TableDesign {
    let mut s = t.clone();
    for p in &mut s.partition_key {
        if let KeyPart::Bucket(_, u) = p {
            *u = unit.name().to_string();
        }
    }
    s.partition_key.retain(|p| !matches!(p, KeyPart::Salt(_)));
    if salt > 1 {
        s.partition_key.push(KeyPart::Salt(salt));
    }
    rebuild_key_columns(model, &mut s);
    s
}

fn estimate(model: &Model, keyspace: &str, t: &TableDesign, stats: &Stats) -> Option<SizeEstimate> {
    let schema = build_one(keyspace, t)?;
    let table = schema.table(keyspace, &t.name)?;
    Some(estimate_table(
        table,
        &derived_stats(model, t, stats),
        &stats.thresholds,
    ))
}

/// The coarsest bucket whose partitions fit, else minute buckets with the
/// fewest salt buckets that fit (capped); `None` when nothing can be estimated.
fn fitting(model: &Model, keyspace: &str, t: &TableDesign, stats: &Stats) -> Option<Layout> {
    for unit in BucketUnit::COARSEST_FIRST {
        let e = estimate(model, keyspace, &shaped(model, t, unit, 1), stats)?;
        if e.exceeds.is_empty() {
            return Some(Layout {
                unit,
                salt: 1,
                estimate: e,
            });
        }
    }
    let unit = BucketUnit::Minute;
    let salted = |salt| estimate(model, keyspace, &shaped(model, t, unit, salt), stats);
    let salt = super::salt_search::fewest_salt(SALT_CAP, |salt| {
        salted(salt).is_some_and(|e| e.exceeds.is_empty())
    })
    .unwrap_or(SALT_CAP);
    Some(Layout {
        unit,
        salt,
        estimate: salted(salt)?,
    })
}

fn live_seconds(ts: &TableStats, default_horizon: u64) -> u64 {
    let horizon = ts.horizon.unwrap_or(default_horizon);
    match ts.retention {
        Retention::Seconds(s) => s.min(horizon),
        _ => horizon,
    }
}

/// Buckets a page of `page` newest rows walks when a bucket holds
/// `rows_per_bucket`: as many as it takes to fill the page, and one more
/// because the newest bucket has only just begun.
pub(crate) fn page_buckets(page: u64, rows_per_bucket: f64) -> u64 {
    let full = (page as f64 / rows_per_bucket.max(1.0)).ceil() as u64;
    full.max(1) + 1
}

/// Sizes a time-only table of a growing entity; `false` when the table is not
/// one (or its entity does not grow): the ordinary sizing applies.
pub(super) fn size_time_only(
    model: &Model,
    keyspace: &str,
    stats: &Stats,
    t: &mut TableDesign,
    page: Option<u64>,
    at: &str,
    warnings: &mut Vec<String>,
) -> bool {
    if !is_time_only(t) {
        return false;
    }
    let ts = derived_stats(model, t, stats);
    let rows_per_second = match ts.volume {
        Volume::Growth { rows_per_second } => rows_per_second,
        Volume::Fixed { rows } => {
            return size_fixed(model, keyspace, stats, t, rows, page, warnings);
        }
        Volume::Unspecified => return false,
    };
    let Some(mut layout) = fitting(model, keyspace, t, stats) else {
        return false;
    };
    let for_rows = layout.salt;
    let for_writes = (rows_per_second / PARTITION_WRITE_RATE).ceil().max(1.0) as u32;
    if for_writes > layout.salt {
        let salt = for_writes.min(SALT_CAP);
        if let Some(e) = estimate(model, keyspace, &shaped(model, t, layout.unit, salt), stats) {
            layout = Layout {
                salt,
                estimate: e,
                ..layout
            };
        }
    }
    let old_unit = t.partition_key.iter().find_map(|p| match p {
        KeyPart::Bucket(_, u) => Some(u.clone()),
        _ => None,
    });
    let renamed =
        old_unit.and_then(|u| t.name.strip_suffix(&format!("_by_{u}")).map(str::to_string));
    *t = TableDesign {
        name: t.name.clone(),
        ..shaped(model, t, layout.unit, layout.salt)
    };
    if let Some(stem) = renamed {
        t.name = format!("{stem}_by_{}", layout.unit.name());
    }
    let width = layout
        .unit
        .seconds()
        .min(live_seconds(&ts, super::limits::DEFAULT_HORIZON));
    let per_bucket = rows_per_second * width as f64;
    let page = page.unwrap_or(DEFAULT_PAGE);
    let buckets = page_buckets(page, per_bucket);
    let over = if layout.estimate.exceeds.is_empty() {
        "within the partition limits".to_string()
    } else {
        let names: Vec<&str> = layout.estimate.exceeds.iter().map(|e| e.name()).collect();
        warnings.push(format!(
            "{}: even `minute` buckets with salt {} leave partitions over {}: the entity is written too fast to read by time alone; read it by a key, or stream it to an analytical store",
            t.name,
            layout.salt,
            names.join(", ")
        ));
        format!("still over {}", names.join(", "))
    };
    let salt_text = salt_reason(rows_per_second, for_rows, for_writes, layout.salt, t);
    t.decisions.push(format!(
        "sizing: read by time alone, every write lands in the current bucket: {} `{}` bucket holds {} rows/s × {} s = {} rows, {} per partition{at} ({over}), the coarsest that fits; {salt_text}; a page of {page} newest rows reads {} (one more because the newest bucket has only just begun) × {} salt partition(s): at most {} statements, the salts of a bucket concurrently",
        if layout.unit == BucketUnit::Hour { "an" } else { "a" },
        layout.unit.name(),
        trim_float(rows_per_second),
        width,
        format_count(per_bucket),
        format_bytes(layout.estimate.sizes.bytes.max),
        if buckets == 2 { "1 bucket".to_string() } else { format!("{} buckets", buckets - 1) },
        layout.salt,
        buckets * u64::from(layout.salt)
    ));
    true
}

/// A time-only table of an entity with a fixed number of rows: nothing
/// lands in a "current" bucket, so the question is whether every row fits
/// one partition. It does: one constant partition (`bucket` = 0), said
/// with its rows and bytes. It does not: the statistics do not say how the
/// rows spread over time, so the coarsest bucket whose partitions fit if the
/// rows spread evenly over the retention (else the horizon) is taken, and
/// the assumption is said.
fn size_fixed(
    model: &Model,
    keyspace: &str,
    stats: &Stats,
    t: &mut TableDesign,
    rows: f64,
    page: Option<u64>,
    warnings: &mut Vec<String>,
) -> bool {
    let mut whole = t.clone();
    whole.partition_key = vec![KeyPart::Whole];
    rebuild_key_columns(model, &mut whole);
    let Some(one) = estimate(model, keyspace, &whole, stats) else {
        return false;
    };
    let page = page.unwrap_or(DEFAULT_PAGE);
    if one.exceeds.is_empty() {
        *t = TableDesign {
            name: t.name.clone(),
            ..whole
        };
        t.decisions.push(format!(
            "sizing: read by time alone, but `{}` holds a fixed {} rows (the statistics' `rows`): one partition suffices, {} rows, {} (within the partition limits), a constant `bucket` = 0 instead of a time bucket; a page of {page} reads 1 partition, 1 statement",
            t.entity,
            format_count(rows),
            format_count(one.sizes.rows.max),
            format_bytes(one.sizes.bytes.max)
        ));
        return true;
    }
    let ts = derived_stats(model, t, stats);
    let span = live_seconds(&ts, super::limits::DEFAULT_HORIZON).max(1);
    let over: Vec<&str> = one.exceeds.iter().map(|e| e.name()).collect();
    let unit = BucketUnit::COARSEST_FIRST
        .into_iter()
        .find(|u| {
            rows * (u.seconds().min(span) as f64) / span as f64 <= stats.thresholds.partition_rows
        })
        .unwrap_or(BucketUnit::Minute);
    *t = TableDesign {
        name: t.name.clone(),
        ..shaped(model, t, unit, 1)
    };
    let per_bucket = rows * (unit.seconds().min(span) as f64) / span as f64;
    let buckets = page_buckets(page, per_bucket);
    t.decisions.push(format!(
        "sizing: read by time alone; `{}` holds a fixed {} rows (the statistics' `rows`), {} in one partition: over {}; the statistics do not say how the rows spread over time, so, assuming them spread evenly over {}, a `{}` bucket holds about {} rows; a page of {page} reads about {} bucket(s) (give `rows_per_second` and `retention` if the rows arrive over time)",
        t.entity,
        format_count(rows),
        format_bytes(one.sizes.bytes.max),
        over.join(", "),
        cqlmodel_stats::units::format_duration(span),
        unit.name(),
        format_count(per_bucket),
        buckets
    ));
    warnings.push(format!(
        "{}: read by time alone over a fixed {} rows that do not fit one partition; the `{}` bucket assumes the rows spread evenly over time, which the statistics do not say",
        t.name,
        format_count(rows),
        unit.name()
    ));
    true
}

/// Why the time-only table has the salt it has, with both needs' numbers.
fn salt_reason(rate: f64, for_rows: u32, for_writes: u32, salt: u32, t: &TableDesign) -> String {
    let limit = rate_text(PARTITION_WRITE_RATE);
    if salt <= 1 {
        return format!(
            "no salt: {} writes are within the {limit} one partition takes",
            rate_text(rate)
        );
    }
    let spread = t
        .clustering
        .last()
        .and_then(|(p, _)| t.column_for(p))
        .map_or_else(|| "a row's key".to_string(), |c| format!("`{}`", c.name));
    let mut why = Vec::new();
    if for_rows > 1 {
        why.push(format!("one bucket's rows need {for_rows}"));
    }
    if for_writes > 1 {
        why.push(format!(
            "{} writes over the {limit} one partition takes need {for_writes}",
            rate_text(rate)
        ));
    }
    let capped = if for_writes.max(for_rows) > salt {
        format!(" (capped at {SALT_CAP})")
    } else {
        String::new()
    };
    format!(
        "salt {salt} (hash of {spread} % {salt}) joins the bucket: {}{capped}",
        why.join("; ")
    )
}

/// The buckets a paged read of a time-only table walks: a page fills from the
/// newest buckets and stops, so a range spanning many buckets reads only the
/// few a page needs. `None` when the table is not time-only, the entity does
/// not grow, or the read has no page bound.
pub(super) fn walked_buckets(
    t: &TableDesign,
    ts: Option<&TableStats>,
    page: Option<u64>,
    width: u64,
) -> Option<u64> {
    if !is_time_only(t) {
        return None;
    }
    let Volume::Growth { rows_per_second } = ts?.volume else {
        return None;
    };
    Some(page_buckets(page?, rows_per_second * width as f64))
}
