//! The words of the built per-key hybrid: each part (the widths table, the
//! counter, the read before a write, the promotion, the read path) with
//! its reason and numbers, for the decisions, the write path and report.md.

use cqlmodel_stats::units::{format_count, format_duration};

use super::hybrid_build::HybridBuild;
use super::per_key::PerKeyPlan;
use crate::numbers::{rate_text, trim_float};

/// "the 68.3k keys over 100k rows at 3y (by the distribution; 80.2% of
/// the rows)", or the threshold alone when the distribution does not say.
fn hot_keys_text(p: &PerKeyPlan, live: &str) -> String {
    match (p.hot_keys, p.hot_share) {
        (Some(k), Some(share)) => format!(
            "the {} keys over {} rows at {live} (by the distribution; {}% of the rows)",
            format_count(k),
            format_count(p.threshold_rows),
            trim_float((share * 1000.0).round() / 10.0)
        ),
        _ => format!(
            "the keys over {} rows at {live} (the distribution does not say how many)",
            format_count(p.threshold_rows)
        ),
    }
}

/// What the design builds, as the table's decision and report.md say it.
pub(super) fn hybrid_text(p: &PerKeyPlan, b: &HybridBuild) -> String {
    let live = format_duration(p.live);
    format!(
        "a width per key: every key starts at width `{coarse}`, its rows in one partition (`{col}` = the period's `since`, epoch 0 for a key never promoted); {hot} are promoted to `{fine}` (`{col}` = the start of the row's `{fine}`). `{widths}` (key, `since` DESC, `width`) records the width a key uses from `since` on; a promotion is written with `since` = now + {cache}s, the time writers may cache a key's widths, so every writer has re-read them before the new width applies (this assumes the writers' clocks agree within those seconds, as Cassandra's last-write-wins already does; a writer whose clock runs ahead by more can write a row stamped after `since` under the old width it cached, where readers, walking by `since`, do not look). The write path reads the width in force at the row's time before it writes (`{writer}`, cached {cache}s), counts a cold key's rows in the counter table `{rows}`, and on one write in {check} of a cold key reads that count and promotes the key once it passes {threshold} rows (the partition limit: a cold key's one partition stays within it, about 1% over at most). A page reads `{widths}` first, then walks the key's periods newest first: the typical key ({typ_rows} rows) {typ} statement(s), the widths read and its one partition, against {typ_one} with one width; the hottest key ({hot_rows} rows) {hot_st}, the widths read and its newest `{fine}` buckets, against {hot_one}",
        coarse = b.coarse,
        col = b.bucket_column,
        hot = hot_keys_text(p, &live),
        fine = b.fine,
        widths = b.widths_table,
        rows = b.rows_table,
        cache = b.cache_seconds,
        writer = b.writer_read_cql,
        check = b.check_one_in,
        threshold = format_count(p.threshold_rows),
        typ_rows = format_count(p.typical.rows),
        typ = b.typical_statements,
        typ_one = format_count(p.typical.statements_one_width as f64),
        hot_rows = format_count(p.hottest.rows),
        hot_st = b.hottest_statements,
        hot_one = p.hottest.statements_one_width,
    )
}

/// The short form of what the design does, for `chosen`.
pub(super) fn chosen_text(p: &PerKeyPlan, b: &HybridBuild) -> String {
    format!(
        "a width per key, built: `{}` until a key passes {} rows, `{}` after, recorded in `{}`; a page costs the typical key {} statement(s) and the hottest {}",
        b.coarse,
        format_count(p.threshold_rows),
        b.fine,
        b.widths_table,
        b.typical_statements,
        b.hottest_statements
    )
}

/// The decisions of `<table>_widths` and `<table>_key_rows`.
pub(super) fn table_decisions(p: &PerKeyPlan, b: &HybridBuild) -> (Vec<String>, Vec<String>) {
    let widths = vec![
        format!(
            "bookkeeping of `{}`'s per-key widths: one row per promotion of a key (key, `since` DESC, `width`); a key without a row uses `{}` from epoch 0",
            p.table, b.coarse
        ),
        format!(
            "holds {}: a partition per promoted key, one or two rows each",
            p.hot_keys.map_or_else(
                || "a row per key over the threshold".to_string(),
                |k| format!("about {} rows by the distribution", format_count(k))
            )
        ),
        format!(
            "writers read it before writing `{}` (cached {}s: `since` <= the row's time, LIMIT 1), readers before every page (all of the key's rows, newest first)",
            p.table, b.cache_seconds
        ),
    ];
    let rows = vec![
        format!(
            "counts the rows of each cold key of `{}` (width `{}`): a counter, so it cannot share a table with regular columns",
            p.table, b.coarse
        ),
        format!(
            "read on one write in {} of a cold key; a key over {} rows is promoted in `{}`",
            b.check_one_in,
            format_count(p.threshold_rows),
            b.widths_table
        ),
    ];
    (widths, rows)
}

/// The read-first text of a statement writing the bucketed table.
pub(super) fn write_read_text(b: &HybridBuild) -> String {
    format!(
        "read the key's width in force at the row's time from `{}` (`{}`, cached {}s; no row: `{}` from epoch 0): `{}` = the start of the row's `{}` under `{}`, the period's `since` under `{}`",
        b.widths_table,
        b.writer_read_cql,
        b.cache_seconds,
        b.coarse,
        b.bucket_column,
        b.fine,
        b.fine,
        b.coarse
    )
}

/// The path's note: the per-key parts it runs, with their rates.
pub(super) fn path_note(p: &PerKeyPlan, b: &HybridBuild, rate: Option<f64>) -> String {
    let cold = rate.map(|r| r * (1.0 - p.hot_share.unwrap_or(0.0)));
    format!(
        "per-key widths of `{}`: the write reads the key's width first (cached {}s), a cold key's write also increments `{}` ({}) and on one in {} reads it ({}), promoting the key in `{}` past {} rows",
        p.table,
        b.cache_seconds,
        b.rows_table,
        cold.map_or_else(
            || "at the write rate of cold keys".to_string(),
            |c| format!("{} of this path's writes", rate_text(c))
        ),
        b.check_one_in,
        cold.map_or_else(
            || "rarely".to_string(),
            |c| rate_text(c / b.check_one_in as f64)
        ),
        b.widths_table,
        format_count(p.threshold_rows)
    )
}

pub(super) fn count_reason(p: &PerKeyPlan, rate: Option<f64>) -> String {
    let share = p.hot_share.map_or_else(
        || "every write until its key is promoted".to_string(),
        |s| {
            format!(
                "the writes of cold keys, {}% of the rows by the distribution",
                trim_float(((1.0 - s) * 1000.0).round() / 10.0)
            )
        },
    );
    let at = rate.map_or_else(String::new, |r| {
        format!(", {}", rate_text(r * (1.0 - p.hot_share.unwrap_or(0.0))))
    });
    format!(
        "counts the rows in a cold key's one partition, so that it is promoted before the partition passes {} rows: {share}{at}; outside any batch (a batch cannot mix counter and non-counter writes); a lost or doubled increment only moves the promotion by a row",
        format_count(p.threshold_rows)
    )
}

pub(super) fn promote_reason(p: &PerKeyPlan, b: &HybridBuild) -> String {
    format!(
        "bind the key, `since` = now + {}s (the widths cache: every writer re-reads the widths before the new width applies, so none writes the old partition after `since`); the key's rows before `since` stay in its `{}` partition, read after its `{}` buckets. Two writers promoting at once write two rows of the same width, which read as one period. Promotion runs at most once per hot key: {}",
        b.cache_seconds,
        b.coarse,
        b.fine,
        p.hot_keys.map_or_else(
            || "as many promotions as keys cross the threshold".to_string(),
            |k| format!("about {} promotions by the horizon", format_count(k))
        )
    )
}

/// The read's note for a query served by the bucketed table; `ranged`: a
/// range read, which walks the buckets its range spans in each period.
pub(super) fn read_note(p: &PerKeyPlan, b: &HybridBuild, ranged: bool) -> String {
    let walk = format!(
        "per-key widths: reads `{}` first (`{}`: the key's periods, newest first), then walks them newest first, one partition per statement: under `{}` the `{}` buckets",
        b.widths_table, b.reader_read_cql, b.fine, b.fine
    );
    if ranged {
        return format!(
            "{walk} the range spans within the period, under `{}` the one partition `{}` = `since` (epoch 0 for a key never promoted) when the range reaches the period; a cold key reads 2 statements (the widths and its one partition); the read's `statements` and `partitions` count the widths read and the range's buckets",
            b.coarse, b.bucket_column
        );
    }
    format!(
        "{walk} from the row's newest back to the period's `since`, under `{}` the one partition `{}` = `since` (epoch 0 for a key never promoted); a page costs the typical key {} statement(s), the hottest {} (with one `{}` width: {} and {}); the read's `statements` and `partitions` are the hottest key's {}, the widths read included",
        b.coarse,
        b.bucket_column,
        b.typical_statements,
        b.hottest_statements,
        p.width,
        format_count(p.typical.statements_one_width as f64),
        p.hottest.statements_one_width,
        b.hottest_statements
    )
}

/// The skew warning of a table the hybrid is built for: what the design
/// did about it, instead of the advice to do it.
pub(super) fn skew_warning_built(warning: &str, p: &PerKeyPlan, b: &HybridBuild) -> String {
    let head = warning
        .split_once(": ordinary keys then read")
        .map_or(warning, |(h, _)| h);
    format!(
        "{head}: one width would make ordinary keys read many nearly empty partitions, so the design builds a width per key: `{}` until a key passes {} rows, `{}` after, recorded in `{}` (see Per-key strategies)",
        b.coarse,
        format_count(p.threshold_rows),
        b.fine,
        b.widths_table
    )
}

/// What a statement repeated over a key's buckets walks under the hybrid.
pub(super) fn bucket_walk_text(b: &HybridBuild) -> String {
    format!(
        "; with per-key widths, the key's own periods from `{}` (`{}`): the `{}` partition of each `{}` period (`{}` = its `since`, epoch 0 first) and the `{}` buckets of each `{}` period from its `since` on",
        b.widths_table, b.reader_read_cql, b.coarse, b.coarse, b.bucket_column, b.fine, b.fine
    )
}
