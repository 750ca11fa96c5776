//! The cost of each read for the typical key and for the hottest key (issue
//! 10 §5): one partition layout serves both, and a skewed distribution makes
//! them differ by orders of magnitude. The median partition (p50) stands for
//! the typical key, the largest (max) for the hottest.

use cqlmodel_stats::{Stats, estimate_table};
use serde::Serialize;

use super::derived::build_one;
use super::{SKEW_WARNING, trim_float};
use crate::derive::{KeyPart, TableDesign};
use crate::querylist::{Body, QuerySpec};
use crate::reads::QueryPlan;

/// What one execution of a read costs for one key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeySide {
    /// Rows in each partition the read touches.
    pub rows_per_partition: f64,
    /// Bytes in each partition the read touches.
    pub bytes_per_partition: f64,
    /// Partitions read per execution (a page).
    pub partitions: u64,
    /// Rows read per execution.
    pub rows_read: f64,
}

/// A read's cost for the typical and the hottest key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCost {
    pub query: String,
    pub table: String,
    pub typical: KeySide,
    pub hottest: KeySide,
    /// Largest partition over the median one.
    pub skew: f64,
    pub note: String,
}

/// The typical and hottest key's cost of every read served by a sized table.
pub(super) fn key_costs(
    keyspace: &str,
    tables: &[TableDesign],
    specs: &[QuerySpec],
    queries: &[QueryPlan],
    table_stats: &Stats,
    per_key: &[super::PerKeyPlan],
) -> Vec<KeyCost> {
    queries
        .iter()
        .filter_map(|q| {
            let t = tables.iter().find(|t| Some(&t.name) == q.table.as_ref())?;
            let spec = specs.iter().find_map(|s| match &s.body {
                Body::Select(sel) if s.name == q.name => Some((s, sel)),
                _ => None,
            })?;
            let cost = cost_of(keyspace, t, spec, q, table_stats)?;
            Some(match per_key.iter().find(|p| p.table == t.name) {
                // A built hybrid's range read: a cold key reads its one
                // partition, a hot key the fine buckets the range spans.
                Some(p) if p.built.is_some() && super::hybrid::ranged(q) => {
                    let bound = spec.1.limit.or(spec.0.page_size());
                    ranged_hybrid(cost, p, q, bound)
                }
                // A built hybrid's page read counts the widths read and the
                // walk in its own figures: still a page walk, not a range.
                Some(p) if q.statements == 1 || p.built.is_some() => walked(cost, p),
                _ => cost,
            })
        })
        .collect()
}

fn cost_of(
    keyspace: &str,
    t: &TableDesign,
    (q, spec): (&QuerySpec, &crate::select::SelectSpec),
    plan: &QueryPlan,
    table_stats: &Stats,
) -> Option<KeyCost> {
    let ts = table_stats.tables.get(&format!("{keyspace}.{}", t.name))?;
    let schema = build_one(keyspace, t)?;
    let table = schema.table(keyspace, &t.name)?;
    let sizes = estimate_table(table, ts, &table_stats.thresholds).sizes;
    let partitions = plan.partitions?;
    // A read of one row per partition (every key column bound, or a
    // counter) costs the same for every key: one row. Decided from the
    // read's shape: a low row estimate is a mean, which a skewed
    // distribution keeps low while the hottest key reads a page.
    let one_row = plan.one_row_per_partition;
    let bucket_walk = t
        .partition_key
        .iter()
        .any(|p| matches!(p, KeyPart::Bucket(..)))
        && plan.statements > 1;
    let bound = spec.limit.or(q.page_size());
    let page = bound.map(|size| Page {
        size,
        statements: per_statement_factor(plan, bucket_walk) as u64,
    });
    let cap = page.map(|p| p.rows());
    let side = |rows: f64, bytes: f64| {
        let rows = if one_row { 1.0 } else { rows.max(0.0) };
        // A bucket walk stops once the page is full: a key with few rows per
        // bucket walks more buckets for the same page.
        let parts = match bound {
            Some(b) if bucket_walk && rows > 0.0 => {
                partitions.min(((b as f64) / rows).ceil().max(1.0) as u64)
            }
            _ => partitions,
        };
        let read = (rows * parts as f64).min(cap.unwrap_or(f64::INFINITY));
        KeySide {
            rows_per_partition: rows.round(),
            bytes_per_partition: bytes.round(),
            partitions: parts,
            rows_read: read.round(),
        }
    };
    let typical = side(sizes.rows.p50, sizes.bytes.p50);
    let hottest = side(sizes.rows.max, sizes.bytes.max);
    let skew = if sizes.rows.p50 > 0.0 {
        sizes.rows.max / sizes.rows.p50
    } else {
        1.0
    };
    let note = note_for(&typical, &hottest, skew, one_row, page);
    Some(KeyCost {
        query: plan.name.clone(),
        table: t.name.clone(),
        typical,
        hottest,
        skew: (skew * 10.0).round() / 10.0,
        note,
    })
}

/// A read that walks its key's buckets one statement at a time (no range to
/// bound it): a page costs the statements the per-key analysis counted, the
/// typical key's many nearly empty buckets included.
fn walked(mut cost: KeyCost, p: &super::PerKeyPlan) -> KeyCost {
    let per_bucket = two_digits;
    cost.typical.rows_read = p.typical.rows.min(p.page as f64).round();
    cost.hottest.rows_read = p.hottest.rows.min(p.page as f64).round();
    if let Some(b) = &p.built {
        // The typical key's rows sit in its one partition; the widths
        // read is one statement more for every key.
        cost.typical.bytes_per_partition = cold_partition_bytes(&cost, p);
        cost.typical.rows_per_partition = per_bucket(p.typical.rows);
        cost.hottest.rows_per_partition = per_bucket(p.hottest.rows_per_bucket);
        cost.typical.partitions = b.typical_statements;
        cost.hottest.partitions = b.hottest_statements;
        cost.note = format!(
            "a width per key (built): a page reads `{}` and then {} partition(s) for the typical key (`{}`) and {} for the hottest (`{}`), against {} and {} with one `{}` width (see Per-key strategies)",
            b.widths_table,
            b.typical_statements - 1,
            b.coarse,
            b.hottest_statements - 1,
            b.fine,
            cqlmodel_stats::units::format_count(p.typical.statements_one_width as f64),
            p.hottest.statements_one_width,
            p.width
        );
        return cost;
    }
    cost.typical.rows_per_partition = per_bucket(p.typical.rows_per_bucket);
    cost.hottest.rows_per_partition = per_bucket(p.hottest.rows_per_bucket);
    cost.typical.partitions = p.typical.statements_one_width;
    cost.hottest.partitions = p.hottest.statements_one_width;
    cost.note = format!(
        "one `{}` width for every key: a page walks {} bucket(s) for the typical key and {} for the hottest (see Per-key strategies)",
        p.width,
        cqlmodel_stats::units::format_count(p.typical.statements_one_width as f64),
        p.hottest.statements_one_width
    );
    cost
}

/// A cold key's one partition under the hybrid holds all its rows: its
/// bytes are its rows at the bytes a row takes in the hottest key's fine
/// bucket (the table's sizes describe fine buckets).
fn cold_partition_bytes(cost: &KeyCost, p: &super::PerKeyPlan) -> f64 {
    if p.hottest.rows_per_bucket <= 0.0 {
        return cost.typical.bytes_per_partition;
    }
    let per_row = cost.hottest.bytes_per_partition / p.hottest.rows_per_bucket;
    (per_row * p.typical.rows).round()
}

/// Two significant digits below ten rows: a typical key's bucket (or
/// range) may hold a small fraction of a row.
fn two_digits(r: f64) -> f64 {
    if r >= 10.0 || r <= 0.0 {
        r.round()
    } else {
        let scale = 10f64.powi(1 - r.log10().floor() as i32);
        (r * scale).round() / scale
    }
}

/// A range read of a built hybrid: the typical (cold) key reads the widths
/// and the range's rows from its one partition; the hottest reads the
/// widths, then the fine buckets the range spans until the page (if any) is
/// full. `plan.statements` counts the widths read and the buckets spanned.
fn ranged_hybrid(
    mut cost: KeyCost,
    p: &super::PerKeyPlan,
    plan: &QueryPlan,
    bound: Option<u64>,
) -> KeyCost {
    let Some(b) = &p.built else { return cost };
    let spanned = plan.statements.saturating_sub(1).max(1);
    let page = bound.map_or(f64::INFINITY, |n| n as f64);
    let in_range = |per_bucket: f64| per_bucket * spanned as f64;
    cost.typical.partitions = b.typical_statements;
    cost.typical.bytes_per_partition = cold_partition_bytes(&cost, p);
    cost.typical.rows_per_partition = p.typical.rows.round();
    cost.typical.rows_read = two_digits(
        in_range(p.typical.rows_per_bucket)
            .min(p.typical.rows)
            .min(page),
    );
    let hot = p.hottest.rows_per_bucket;
    let walked = match bound {
        Some(n) if hot > 0.0 => spanned.min(((n as f64) / hot).ceil().max(1.0) as u64),
        _ => spanned,
    };
    cost.hottest.partitions = walked + 1;
    cost.hottest.rows_per_partition = hot.round();
    cost.hottest.rows_read = (hot * walked as f64).min(page).round();
    cost.note = format!(
        "a width per key (built), a range: a page reads `{}` and then {} partition for the typical key (`{}`: the range within all its rows) and {} of the {} `{}` bucket(s) the range spans for the hottest{} (see Per-key strategies)",
        b.widths_table,
        b.typical_statements.saturating_sub(1),
        b.coarse,
        walked,
        spanned,
        b.fine,
        if bound.is_some() {
            ", until the page is full"
        } else {
            ""
        }
    );
    cost
}

/// A LIMIT bounds each statement of a concurrent (salt, IN) read; a bucket
/// walk reads one LIMIT in all.
fn per_statement_factor(plan: &QueryPlan, bucket_walk: bool) -> f64 {
    if bucket_walk {
        1.0
    } else {
        plan.statements.max(1) as f64
    }
}

/// The LIMIT or page that caps a read, and how many statements it caps
/// (each statement of a salted or IN read reads up to a page).
#[derive(Clone, Copy)]
struct Page {
    size: u64,
    statements: u64,
}

impl Page {
    fn rows(self) -> f64 {
        self.size as f64 * self.statements as f64
    }

    fn text(self) -> String {
        if self.statements > 1 {
            format!(
                "a page of {} in each of its {} statements",
                self.size, self.statements
            )
        } else {
            format!("a page of {}", self.size)
        }
    }
}

fn note_for(
    typical: &KeySide,
    hottest: &KeySide,
    skew: f64,
    one_row: bool,
    page: Option<Page>,
) -> String {
    if one_row {
        return "one row per partition: every key costs the same".into();
    }
    if skew > SKEW_WARNING && typical.partitions > hottest.partitions {
        return format!(
            "the hottest key's partitions are {}× the typical key's and the width fits the hottest: the typical key walks {} partitions where the hottest reads {}; a per-key width (stored with the key) would serve both, and is not designed here",
            trim_float(skew.round()),
            typical.partitions,
            hottest.partitions
        );
    }
    // The page, not the partition, bounds what the hottest key reads, while
    // the typical key's partitions hold less than a page.
    if let Some(page) = page
        && skew > SKEW_WARNING
        && hottest.rows_read >= page.rows()
        && typical.rows_read < hottest.rows_read
    {
        return format!(
            "the hottest key's partitions are {}× the typical key's (rows per partition: {} against {}): {} bounds the read, so the hottest key reads a full page of {} rows where the typical key reads {}; one layout serves both",
            trim_float(skew.round()),
            trim_float(hottest.rows_per_partition),
            trim_float(typical.rows_per_partition),
            page.text(),
            trim_float(hottest.rows_read),
            trim_float(typical.rows_read)
        );
    }
    if skew > SKEW_WARNING && page.is_none() && hottest.rows_read > typical.rows_read * SKEW_WARNING
    {
        return format!(
            "the hottest key reads {} rows where the typical key reads {}: the read is not bounded by a page; bound it (LIMIT, a narrower range) or give the few hot keys their own table, which is not designed here",
            trim_float(hottest.rows_read),
            trim_float(typical.rows_read)
        );
    }
    if skew > SKEW_WARNING {
        return format!(
            "the hottest key's partitions are {}× the typical key's, but a page costs both about the same ({} against {} rows read, {} against {} partitions)",
            trim_float(skew.round()),
            trim_float(typical.rows_read),
            trim_float(hottest.rows_read),
            typical.partitions,
            hottest.partitions
        );
    }
    format!(
        "typical and hottest key differ by {}×: one layout serves both ({} against {} rows read)",
        trim_float((skew * 10.0).round() / 10.0),
        trim_float(typical.rows_read),
        trim_float(hottest.rows_read)
    )
}

/// report.md's section: the sizing horizon, then per read the typical and
/// hottest key's cost (empty without statistics).
pub fn key_costs_md(d: &super::Design) -> String {
    if d.entity_stats.is_none() {
        return String::new();
    }
    let mut s = format!(
        "\n## Cost per key: typical and hottest\n\nGrowth with no retention is sized at a horizon of {}: `--horizon` changes the default, an entity's `horizon` in the statistics wins for that entity. The typical key is the median partition (p50), the hottest the largest (max).\n\n",
        d.horizon.text()
    );
    s.push_str(&super::fk_growth::foreign_keys_md(&d.foreign_key_growth));
    s.push_str(&super::key_values::generated_keys_md(
        &d.model,
        &d.tables,
        d.entity_stats.as_ref(),
    ));
    if d.key_costs.is_empty() {
        s.push_str("No read is served by a sized table.\n");
        return s;
    }
    s.push_str("| query | table | typical: partitions, rows/partition, rows read | hottest: partitions, rows/partition, rows read | skew |\n|---|---|---|---|---|\n");
    for c in &d.key_costs {
        let side = |k: &KeySide| {
            format!(
                "{}, {}, {}",
                k.partitions,
                if k.rows_per_partition > 0.0 && k.rows_per_partition < 0.01 {
                    format!("{:.1e}", k.rows_per_partition)
                } else {
                    trim_float(k.rows_per_partition)
                },
                trim_float(k.rows_read)
            )
        };
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {}× |\n",
            c.query,
            c.table,
            side(&c.typical),
            side(&c.hottest),
            trim_float(c.skew)
        ));
    }
    s.push('\n');
    for c in &d.key_costs {
        s.push_str(&format!("- {}: {}\n", c.query, c.note));
    }
    s.push_str(&super::per_key::per_key_md(&d.per_key));
    s
}

/// design.json's `cost` of one read: `null` when not sized.
pub fn cost_json(d: &super::Design, query: &str) -> serde_json::Value {
    d.key_costs
        .iter()
        .find(|c| c.query == query)
        .map_or(serde_json::Value::Null, |c| {
            serde_json::to_value(c).unwrap_or(serde_json::Value::Null)
        })
}

/// design.json's `horizon`.
pub fn horizon_json(d: &super::Design) -> serde_json::Value {
    serde_json::json!({
        "seconds": d.horizon.seconds,
        "text": cqlmodel_stats::units::format_duration(d.horizon.seconds),
        "source": d.horizon.source,
    })
}
