//! Per-key strategies (issue 10 §5): when the bucket width that fits the
//! hottest key leaves the typical key walking thousands of nearly empty
//! buckets, one width cannot serve both. This stage measures the trade-off
//! from the statistics (the threshold a key needs the width above, how many
//! keys cross it, each kind of key's statements per page) and states the
//! hybrid that would serve both; `hybrid` builds it (the widths table, the
//! read before each write, the counter and the promotion, the read path)
//! where it is sound, and the plan says why where it is not.

use cqlmodel_stats::distribution::harmonic;
use cqlmodel_stats::units::{format_count, format_duration};
use cqlmodel_stats::{BucketUnit, Distribution, Sizes, Stats, TableStats, Volume};
use serde::Serialize;

use crate::derive::{KeyPart, TableDesign};
use crate::numbers::trim_float;

/// One kind of key (typical, hottest) under one width and under its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyWidth {
    /// The key's rows at the sizing age.
    pub rows: f64,
    /// The key's rows in one bucket of the table's one width.
    pub rows_per_bucket: f64,
    /// Statements a page of this key runs with the table's one width.
    pub statements_one_width: u64,
    /// The width this key alone needs (`none`: one partition holds it).
    pub own_width: String,
    /// Statements a page runs with its own width.
    pub statements_own_width: u64,
}

/// The trade-off of one bucketed table whose keys differ by orders of magnitude.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerKeyPlan {
    pub table: String,
    /// The width every key uses: the hottest key's.
    pub width: String,
    /// The rows per page the reads ask for.
    pub page: u64,
    /// A key with more rows than this (at the sizing age) needs the width.
    pub threshold_rows: f64,
    /// How many keys exceed the threshold, and their share of the rows, when
    /// the distribution says (zipf over a known number of keys).
    pub hot_keys: Option<f64>,
    pub hot_share: Option<f64>,
    pub typical: KeyWidth,
    pub hottest: KeyWidth,
    /// The age (seconds) the keys' rows are counted at.
    pub live: u64,
    /// What one width for every key costs.
    pub one_width: String,
    /// What the design does, and the hybrid that serves both (built or not).
    pub chosen: String,
    pub hybrid: String,
    /// The hybrid's tables, statements and numbers, when built.
    pub built: Option<super::hybrid_build::HybridBuild>,
    /// Why the hybrid is not built, when it is not.
    pub not_built: Option<String>,
}

/// What the per-key analysis reads about one bucketed table.
pub(super) struct Bucketed<'a> {
    pub table: &'a TableDesign,
    pub unit: BucketUnit,
    /// Sizes before bucketing: one partition per key.
    pub unbucketed: &'a Sizes,
    pub stats: &'a TableStats,
    pub all: &'a Stats,
    pub live: u64,
    pub page: Option<u64>,
}

/// Statements a newest-first page of `page` rows runs over buckets of
/// `width` seconds for a key of `rows` rows spread over `live` seconds: the
/// buckets it takes to fill the page, and one more because the newest bucket
/// has only just begun, never more than the buckets the key's rows span.
fn statements(rows: f64, width: u64, live: u64, page: u64) -> u64 {
    let buckets_live = (live as f64 / width as f64).ceil().max(1.0);
    let per_bucket = rows * (width.min(live) as f64) / live.max(1) as f64;
    let needed = if per_bucket > 0.0 {
        (page as f64 / per_bucket).ceil() + 1.0
    } else {
        buckets_live
    };
    needed.min(buckets_live).max(1.0) as u64
}

/// The coarsest width under which a key of `rows` rows fits `threshold`.
fn own_width(rows: f64, threshold: f64, live: u64, page: u64) -> (String, u64) {
    if rows <= threshold {
        return ("none".into(), 1);
    }
    for unit in BucketUnit::COARSEST_FIRST {
        let w = unit.seconds();
        if rows * (w.min(live) as f64) / live.max(1) as f64 <= threshold {
            return (unit.name().into(), statements(rows, w, live, page));
        }
    }
    let w = BucketUnit::Minute.seconds();
    ("minute".into(), statements(rows, w, live, page))
}

/// The table's rows at the sizing age.
fn table_rows(ts: &TableStats, live: u64) -> Option<f64> {
    match ts.volume {
        Volume::Fixed { rows } => Some(rows),
        Volume::Growth { rows_per_second } => Some(rows_per_second * live as f64),
        Volume::Unspecified => None,
    }
}

/// Keys over `threshold` rows and their share of the rows, for a partition
/// key of one zipf column over a known number of values.
fn hot_keys(b: &Bucketed<'_>, threshold: f64) -> Option<(f64, f64)> {
    let keys: Vec<&str> = b
        .table
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(_) => b.table.column_for(p).map(|c| c.name.as_str()),
            _ => None,
        })
        .collect();
    let [key] = keys.as_slice() else { return None };
    let cs = b.stats.columns.get(*key)?;
    let (Some(Distribution::Zipf { exponent }), Some(n)) = (cs.distribution, cs.distinct) else {
        return None;
    };
    let rows = table_rows(b.stats, b.live)?;
    let h = harmonic(n, exponent);
    let k = (rows / (h * threshold)).powf(1.0 / exponent).floor().min(n);
    if k < 1.0 {
        return Some((0.0, 0.0));
    }
    Some((k, harmonic(k, exponent) / h))
}

/// The trade-off of a table whose one width serves the hottest key, when
/// the typical key then walks many buckets per page; `None` when one width
/// serves both (a page costs both about the same).
pub(super) fn per_key_plan(b: &Bucketed<'_>) -> Option<PerKeyPlan> {
    let page = b.page.unwrap_or(100);
    let (typical_rows, hottest_rows) = (b.unbucketed.rows.p50, b.unbucketed.rows.max);
    let bytes_per_row = if b.unbucketed.rows.max > 0.0 {
        b.unbucketed.bytes.max / b.unbucketed.rows.max
    } else {
        return None;
    };
    let thresholds = b.all.thresholds;
    let threshold = thresholds
        .partition_rows
        .min(thresholds.partition_bytes / bytes_per_row.max(1.0));
    let w = b.unit.seconds();
    let side = |rows: f64| {
        let (own, own_statements) = own_width(rows, threshold, b.live, page);
        KeyWidth {
            rows,
            rows_per_bucket: rows * (w.min(b.live) as f64) / b.live.max(1) as f64,
            statements_one_width: statements(rows, w, b.live, page),
            own_width: own,
            statements_own_width: own_statements,
        }
    };
    let (typical, hottest) = (side(typical_rows), side(hottest_rows));
    if typical.statements_one_width <= 2 * typical.statements_own_width.max(2) {
        return None;
    }
    let hot = hot_keys(b, threshold);
    Some(PerKeyPlan {
        table: b.table.name.clone(),
        width: b.unit.name().into(),
        page,
        threshold_rows: threshold.floor(),
        hot_keys: hot.map(|(k, _)| k),
        hot_share: hot.map(|(_, s)| (s * 1000.0).round() / 1000.0),
        live: b.live,
        one_width: chosen_text(b, &typical, &hottest, page),
        chosen: chosen_text(b, &typical, &hottest, page),
        hybrid: hybrid_text(b, threshold, hot, &typical, &hottest),
        built: None,
        not_built: None,
        typical,
        hottest,
    })
}

fn chosen_text(b: &Bucketed<'_>, typical: &KeyWidth, hottest: &KeyWidth, page: u64) -> String {
    format!(
        "one width for every key, the hottest key's `{}`: a page of {page} costs the hottest key ({} rows at {}) {} statement(s), and the typical key ({} rows) {} statements, one nearly empty bucket after another",
        b.unit.name(),
        format_count(hottest.rows),
        format_duration(b.live),
        hottest.statements_one_width,
        format_count(typical.rows),
        format_count(typical.statements_one_width as f64)
    )
}

fn hybrid_text(
    b: &Bucketed<'_>,
    threshold: f64,
    hot: Option<(f64, f64)>,
    typical: &KeyWidth,
    hottest: &KeyWidth,
) -> String {
    let who = match hot {
        Some((k, share)) => format!(
            "the {} keys over {} rows at {} (by the distribution; {}% of the rows)",
            format_count(k),
            format_count(threshold.floor()),
            format_duration(b.live),
            trim_float((share * 1000.0).round() / 10.0)
        ),
        None => format!(
            "the keys over {} rows at {} (the distribution does not say how many)",
            format_count(threshold.floor()),
            format_duration(b.live)
        ),
    };
    format!(
        "a width per key: {who} take the bucket width their own rows need (`{}` for the hottest: {} statement(s) a page), every other key one partition (width `{}` for the typical key: {} statement(s) a page). The writer finds a key's width in a small table `{}_widths` (key → width, since; one row per hot key, cached, read before each write of an uncached key): a key without a row writes the constant bucket; a key that crosses the threshold gets a row with `since` = now, and a reader walks its `{}` buckets back to `since`, then its one older partition",
        hottest.own_width,
        hottest.statements_own_width,
        typical.own_width,
        typical.statements_own_width,
        b.table.name,
        b.unit.name()
    )
}

/// report.md's "Per-key strategies" section (empty when no table needs one).
pub fn per_key_md(plans: &[PerKeyPlan]) -> String {
    use crate::safe_names::md_code;
    if plans.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\n### Per-key strategies\n\nWhere the width that fits the hottest key makes the typical key walk many buckets, the two kinds of key differ by orders of magnitude: statements per page with one width for every key, with each key's own width, and with the per-key widths the design builds (the widths read included).\n\n| table | width | page | typical key: rows, statements (one width → own width) | hottest key: rows, statements (one width → own width) | keys over the threshold | per-key widths: typical, hottest |\n|---|---|---|---|---|---|---|\n",
    );
    for p in plans {
        let side = |k: &KeyWidth| {
            format!(
                "{}, {} → {} (`{}`)",
                format_count(k.rows),
                format_count(k.statements_one_width as f64),
                k.statements_own_width,
                k.own_width
            )
        };
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            md_code(&p.table),
            p.width,
            p.page,
            side(&p.typical),
            side(&p.hottest),
            p.hot_keys.map_or_else(
                || format!("— (over {})", format_count(p.threshold_rows)),
                |k| format!(
                    "{} (over {})",
                    format_count(k),
                    format_count(p.threshold_rows)
                )
            ),
            p.built.as_ref().map_or_else(
                || "not built".to_string(),
                |b| format!("{}, {}", b.typical_statements, b.hottest_statements)
            )
        ));
    }
    s.push('\n');
    for p in plans {
        match &p.built {
            Some(b) => {
                s.push_str(&format!(
                    "- {}: the design builds {}. With one width instead: {}.\n",
                    md_code(&p.table),
                    p.hybrid,
                    p.one_width
                ));
                let check = format!(
                    "the check, on one write in {} of a cold key",
                    b.check_one_in
                );
                for (what, cql) in [
                    ("before a write, the width in force", &b.writer_read_cql),
                    ("a cold key's count", &b.count_cql),
                    (check.as_str(), &b.check_cql),
                    ("the promotion", &b.promote_cql),
                    ("before a page, the key's periods", &b.reader_read_cql),
                ] {
                    s.push_str(&format!("  - {what}: `{cql}`\n"));
                }
            }
            None => s.push_str(&format!(
                "- {}: the design chooses {}. The alternative: {}.\n",
                md_code(&p.table),
                p.chosen,
                p.hybrid
            )),
        }
    }
    s
}
