//! Partition checks: size and rows against the limits (DG001, DG002) and skew
//! (DG003). These are about the key, so the first of them on a table carries
//! the key change (when the schema is known).

use cqlmodel_diagnostics::{Fix, Severity};
use cqlmodel_schema::Table;
use cqlmodel_stats::units::{format_bytes, format_count};

use super::context::Context;
use super::evidence::{Evidence, Finding, Unit};
use super::fix::{Measured, existing_bucket, key_text, propose, time_column};
use super::rules::{LARGE_PARTITION, PARTITION_SKEW, WIDE_PARTITION};
use super::view::TableView;
use crate::model::Percentile;

/// A size measure and where it was read.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reading<'a> {
    value: f64,
    node: &'a str,
    source: &'static str,
}

/// The partition measures of one table, worst node each.
#[derive(Debug, Clone, Copy, Default)]
struct Sizes<'a> {
    p50: Option<Reading<'a>>,
    p99: Option<Reading<'a>>,
    max: Option<Reading<'a>>,
    mean: Option<f64>,
    cells_p99: Option<Reading<'a>>,
    cells_max: Option<Reading<'a>>,
}

fn sizes<'a>(view: &TableView<'a>) -> Sizes<'a> {
    let hist = |p: Percentile, cells: bool| {
        view.histogram_max(p, |r| {
            if cells {
                r.cell_count
            } else {
                r.partition_bytes
            }
        })
        .map(|(value, node)| Reading {
            value,
            node,
            source: "tablehistograms",
        })
    };
    let source = if view.live {
        "system_views.max_partition_size"
    } else {
        "tablestats"
    };
    let stats_max = view
        .stats_max(|t| t.partition_max_bytes.map(|b| b as f64))
        .map(|(value, node)| Reading {
            value,
            node,
            source,
        });
    let max = match (hist(Percentile::Max, false), stats_max) {
        (Some(a), Some(b)) => Some(if b.value > a.value { b } else { a }),
        (a, b) => a.or(b),
    };
    Sizes {
        p50: hist(Percentile::P50, false),
        p99: hist(Percentile::P99, false),
        max,
        mean: view.stats_mean(|t| t.partition_mean_bytes.map(|b| b as f64)),
        cells_p99: hist(Percentile::P99, true),
        cells_max: hist(Percentile::Max, true),
    }
}

/// Regular and static cells per row: what turns a cell count into rows.
fn cells_per_row(table: Option<&Table>) -> Option<f64> {
    let t = table?;
    let n = t.columns.iter().filter(|c| !c.is_primary_key()).count();
    Some(n.max(1) as f64)
}

fn describe(r: &Reading<'_>, bytes: bool) -> String {
    let v = if bytes {
        format_bytes(r.value)
    } else {
        format_count(r.value)
    };
    format!("{v} ({}, {})", r.node, r.source)
}

pub fn check<'a>(view: &TableView<'a>, cx: &Context<'_>) -> Vec<Finding> {
    let s = sizes(view);
    let table = cx.table(view);
    let limit = cx.thresholds.partition_bytes;
    let limit_rows = cx.thresholds.partition_rows;
    let per_row = cells_per_row(table);
    let mut out = Vec::new();

    fn over(r: Option<Reading<'_>>, lim: f64) -> Option<Reading<'_>> {
        r.filter(|r| r.value > lim)
    }
    if let Some((sev, r, which)) = over(s.p99, limit)
        .map(|r| (Severity::Error, r, "p99"))
        .or_else(|| over(s.max, limit).map(|r| (Severity::Warning, r, "largest")))
    {
        let msg = format!(
            "{which} partition of {} is {}, over the {} limit",
            view.qualified_name(),
            describe(&r, true),
            format_bytes(limit)
        );
        let figure = Evidence::new("partition_bytes", statistic(which), r.value, Unit::Bytes)
            .limit(limit)
            .on(r.node)
            .from(r.source);
        out.push(
            Finding::from(
                cx.finding(&LARGE_PARTITION, sev, view, msg)
                    .with_note(size_note(view, &s)),
            )
            .with(figure),
        );
    }

    let divisor = per_row.unwrap_or(1.0);
    let rows = |r: Option<Reading<'a>>| {
        r.map(|r| Reading {
            value: r.value / divisor,
            ..r
        })
    };
    if let Some((sev, r, which)) = over(rows(s.cells_p99), limit_rows)
        .map(|r| (Severity::Error, r, "p99"))
        .or_else(|| over(rows(s.cells_max), limit_rows).map(|r| (Severity::Warning, r, "largest")))
    {
        // Without the schema a cell is counted as a row: an upper bound, so no error.
        let sev = if per_row.is_none() {
            Severity::Warning
        } else {
            sev
        };
        let msg = format!(
            "{which} partition of {} holds ≈{} rows ({}, {}), over the {} limit",
            view.qualified_name(),
            format_count(r.value),
            r.node,
            r.source,
            format_count(limit_rows)
        );
        let note = match per_row {
            Some(n) => {
                format!("rows = cell count / {n} non-key columns (the cell count is per partition)")
            }
            None => "without --schema each cell counts as a row: an upper bound".to_string(),
        };
        let figure = Evidence::new("partition_rows", statistic(which), r.value, Unit::Rows)
            .limit(limit_rows)
            .on(r.node)
            .from(r.source);
        out.push(
            Finding::from(cx.finding(&WIDE_PARTITION, sev, view, msg).with_note(note)).with(figure),
        );
    }

    if let Some((msg, figure)) = skew(view, &s, limit) {
        out.push(
            Finding::from(
                cx.finding(&PARTITION_SKEW, Severity::Warning, view, msg)
                    .with_note(size_note(view, &s))
                    .with_note(top_note(view)),
            )
            .with(figure),
        );
    }
    attach_key_change(&mut out, view, cx, &s, per_row);
    out
}

/// Where the mean and the top partitions were read: tablestats, or on a live
/// cluster the system tables that stand in for it.
fn mean_source(view: &TableView<'_>) -> &'static str {
    if view.live {
        "system.table_estimates, mean of nodes"
    } else {
        "tablestats, mean of nodes"
    }
}

/// The largest partition ≥ 10× the typical one (histogram max / p50, else
/// tablestats max / mean), when it is large enough to matter (≥ a tenth of the limit).
/// The largest ÷ typical partition size at which a table is called skewed.
const SKEW_RATIO: f64 = 10.0;

fn skew(view: &TableView<'_>, s: &Sizes<'_>, limit: f64) -> Option<(String, Evidence)> {
    let max = s.max?;
    if max.value < limit / 10.0 {
        return None;
    }
    let (typical, what, statistic) = match (s.p50, s.mean) {
        (Some(p50), _) if p50.value > 0.0 => (p50.value, "the median (p50)", "max/p50"),
        (_, Some(mean)) if mean > 0.0 => (mean, "the mean", "max/mean"),
        _ => return None,
    };
    let ratio = max.value / typical;
    (ratio >= SKEW_RATIO).then(|| {
        let msg = format!(
            "the largest partition of {} ({}) is {ratio:.0}× {what} ({}): a few key values hold far more rows than the rest",
            view.qualified_name(),
            describe(&max, true),
            format_bytes(typical)
        );
        let figure = Evidence::new("partition_skew", statistic, ratio, Unit::Ratio)
            .limit(SKEW_RATIO)
            .on(max.node)
            .from(format!("largest {} ÷ {what} {}", format_bytes(max.value), format_bytes(typical)));
        (msg, figure)
    })
}

/// `p99` or `max`, from the words of the message.
fn statistic(which: &str) -> &'static str {
    if which == "p99" { "p99" } else { "max" }
}

fn size_note(view: &TableView<'_>, s: &Sizes<'_>) -> String {
    let mut parts = Vec::new();
    for (label, r) in [("p50", s.p50), ("p99", s.p99), ("max", s.max)] {
        if let Some(r) = r {
            parts.push(format!("{label} {}", describe(&r, true)));
        }
    }
    if let Some(mean) = s.mean {
        parts.push(format!(
            "mean {} ({})",
            format_bytes(mean),
            mean_source(view)
        ));
    }
    format!("partition sizes: {}", parts.join(", "))
}

fn top_note(view: &TableView<'_>) -> String {
    let top: Vec<String> = view
        .nodes
        .iter()
        .flat_map(|(n, t)| {
            t.top_partitions_by_size
                .iter()
                .take(3)
                .map(move |(k, b)| format!("{k} {} on {n}", format_bytes(*b as f64)))
        })
        .take(5)
        .collect();
    if top.is_empty() {
        String::new()
    } else {
        let source = if view.live {
            "system.top_partitions"
        } else {
            "tablestats top partitions"
        };
        format!("largest partitions ({source}): {}", top.join(", "))
    }
}

/// The first key finding gets the key's reason and the change.
fn attach_key_change(
    out: &mut [Finding],
    view: &TableView<'_>,
    cx: &Context<'_>,
    s: &Sizes<'_>,
    per_row: Option<f64>,
) {
    let Some(first) = out.first_mut().map(|f| &mut f.diagnostic) else {
        return;
    };
    let Some(table) = cx.table(view) else {
        first.help = Some(format!(
            "give --schema to see {}'s key, the reason in terms of it, and the changed CREATE TABLE",
            view.qualified_name()
        ));
        return;
    };
    first.notes.push(format!("key: {}", key_text(table)));
    first.notes.extend(reasons(table, view, s));
    let bytes = [s.p99, s.max]
        .into_iter()
        .flatten()
        .map(|r| r.value)
        .find(|v| *v > cx.thresholds.partition_bytes)
        .or(s.max.map(|r| r.value))
        .unwrap_or(0.0);
    let rows = [s.cells_p99, s.cells_max]
        .into_iter()
        .flatten()
        .map(|r| r.value / per_row.unwrap_or(1.0))
        .find(|v| *v > cx.thresholds.partition_rows)
        .unwrap_or(0.0);
    // Skew alone (nothing over the limits): the change aims at the skew floor
    // (a tenth of the limit), the size under which DG003 does not fire, so
    // that the hot key's partitions end up ordinary, not merely legal.
    let skew_only = bytes <= cx.thresholds.partition_bytes && rows == 0.0;
    let limit_bytes = if skew_only {
        cx.thresholds.partition_bytes / 10.0
    } else {
        cx.thresholds.partition_bytes
    };
    let m = Measured {
        bytes,
        rows,
        limit_bytes,
        limit_rows: cx.thresholds.partition_rows,
    };
    let change = propose(table, cx.schema_or_empty(), &m, cx.data_age);
    if skew_only {
        first.notes.push(format!(
            "the largest partition is under the {} limit: the change is sized to bring it to half of {} (the size under which a partition is not called skewed)",
            format_bytes(cx.thresholds.partition_bytes),
            format_bytes(limit_bytes)
        ));
    }
    first.notes.extend(change.notes.iter().cloned());
    match &change.validation {
        Ok(()) => first
            .notes
            .push("the new CREATE TABLE parses and Cassandra's rules accept it".to_string()),
        Err(e) => first
            .notes
            .push(format!("the new CREATE TABLE is not valid as written: {e}")),
    }
    first.help = Some(
        "create the table of the fix below, then move the data to it with `cqlmodel migrate` (old schema → new schema)"
            .to_string(),
    );
    first.fix = Some(Fix::new(change.summary.clone()).with_replacement(change.cql.clone()));
}

/// Why the key makes these partitions, in terms of its columns.
fn reasons(table: &Table, view: &TableView<'_>, s: &Sizes<'_>) -> Vec<String> {
    let pk: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
    let pk = pk.join(", ");
    let mut out = Vec::new();
    match (time_column(table), existing_bucket(table)) {
        (Some(t), None) => out.push(format!(
            "reason: time series without a bucket: every `{}` row of one ({pk}) lands in one partition, which grows for as long as rows arrive",
            t.name
        )),
        (Some(t), Some((b, _))) => out.push(format!(
            "reason: the `{b}` bucket is too wide for the rate of `{}` rows per ({pk})",
            t.name
        )),
        _ => {}
    }
    let partitions = view.stats_max(|t| t.partitions_estimate.map(|p| p as f64));
    if let Some((p, node)) = partitions
        && p < 10_000.0
    {
        out.push(format!(
            "reason: the partition key ({pk}) has few values: ≈{} partitions on {node} (tablestats estimate)",
            format_count(p)
        ));
    }
    if let (Some(max), Some(p50)) = (s.max, s.p50)
        && p50.value > 0.0
        && max.value / p50.value >= 10.0
    {
        out.push(format!(
            "reason: a few ({pk}) values hold far more rows than the rest (max {:.0}× the median)",
            max.value / p50.value
        ));
    }
    out
}
