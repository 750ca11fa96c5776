//! Read-path checks: tombstones per read (DG005) against Cassandra's
//! `tombstone_warn_threshold` (1,000) and `tombstone_failure_threshold`
//! (100,000), SSTables per read (DG006) and local read latency (DG007).

use cqlmodel_diagnostics::Severity;
use cqlmodel_stats::units::format_count;

use super::context::Context;
use super::evidence::{Evidence, Finding, Unit};
use super::fix::{key_text, time_column};
use super::rules::{READ_LATENCY, SSTABLES_PER_READ, TOMBSTONES_PER_READ};
use super::view::TableView;
use crate::model::Percentile;

pub const TOMBSTONE_WARN: f64 = 1_000.0;
pub const TOMBSTONE_FAIL: f64 = 100_000.0;
/// p99 SSTables per read at which a read merges too many files.
pub const SSTABLES_WARN: f64 = 10.0;
/// Mean local read latency (ms), and p99 (µs), worth a look.
pub const READ_MEAN_MS_WARN: f64 = 10.0;
pub const READ_P99_US_WARN: f64 = 50_000.0;

pub fn check(view: &TableView<'_>, cx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(tombstones(view, cx));
    out.extend(sstables(view, cx));
    out.extend(latency(view, cx));
    out
}

fn tombstones(view: &TableView<'_>, cx: &Context<'_>) -> Option<Finding> {
    // The maximum per slice; where an output's maximum is not to be trusted, the mean.
    let (max, node) = view.stats_max(|t| {
        t.max_tombstones_per_slice.or_else(|| {
            t.avg_tombstones_per_slice
                .filter(|_| t.max_tombstones_doubtful)
        })
    })?;
    let severity = if max >= TOMBSTONE_FAIL {
        Severity::Error
    } else if max >= TOMBSTONE_WARN {
        Severity::Warning
    } else {
        return None;
    };
    let figure = Evidence::new("tombstones_per_read", "max", max, Unit::Count)
        .limit(if severity == Severity::Error {
            TOMBSTONE_FAIL
        } else {
            TOMBSTONE_WARN
        })
        .on(node)
        .from(if view.live {
            "system_views.tombstones_per_read"
        } else {
            "tablestats Maximum tombstones per slice"
        });
    let (threshold, consequence) = if severity == Severity::Error {
        ("tombstone_failure_threshold (100,000)", "such reads fail")
    } else {
        (
            "tombstone_warn_threshold (1,000)",
            "each such read logs a warning and slows down",
        )
    };
    let mut d = cx.finding(
        &TOMBSTONES_PER_READ,
        severity,
        view,
        format!(
            "reads of {} scan up to {} tombstones per slice on {node}, over {threshold}: {consequence}",
            view.qualified_name(),
            format_count(max)
        ),
    );
    if view.nodes.iter().any(|(_, t)| t.max_tombstones_doubtful) {
        d = d.with_note("the output's tombstone maximum equals its live-cells maximum (ScyllaDB's nodetool prints the latter under the tombstone key in JSON/YAML): the mean is used instead".to_string());
    }
    if let Some(avg) = view.stats_mean(|t| t.avg_tombstones_per_slice) {
        d = d.with_note(format!(
            "mean tombstones per slice: {} (tablestats, last five minutes)",
            format_count(avg)
        ));
    }
    let top: Vec<String> = view
        .nodes
        .iter()
        .flat_map(|(n, t)| {
            t.top_partitions_by_tombstones
                .iter()
                .take(3)
                .map(move |(k, c)| format!("{k} ({} on {n})", format_count(*c as f64)))
        })
        .take(5)
        .collect();
    if !top.is_empty() {
        d = d.with_note(format!(
            "partitions with the most tombstones: {}",
            top.join(", ")
        ));
    }
    let help = match cx.table(view) {
        Some(t) => {
            let gc = t.options.gc_grace_seconds.unwrap_or(864_000);
            let pk: Vec<&str> = t.partition_key().map(|c| c.name.as_str()).collect();
            let mut h = format!(
                "key: {}; rows deleted (or expired) inside a ({}) partition are read past by every slice until gc_grace_seconds ({gc}s) passes and compaction purges them",
                key_text(t),
                pk.join(", ")
            );
            if time_column(t).is_some() {
                h.push_str("; expire by time instead: TTL on writes with TimeWindowCompactionStrategy and a time bucket in the key, so whole SSTables drop");
            } else {
                h.push_str("; delete whole partitions instead of rows (key the table by the unit you delete), or read only the live range");
            }
            h
        }
        None => "give --schema to see the key the deletes land in".to_string(),
    };
    Some(Finding::from(d.with_help(help)).with(figure))
}

fn sstables(view: &TableView<'_>, cx: &Context<'_>) -> Option<Finding> {
    let (p99, node) = view.histogram_max(Percentile::P99, |r| r.sstables)?;
    if p99 < SSTABLES_WARN {
        return None;
    }
    let d = cx.finding(
        &SSTABLES_PER_READ,
        Severity::Warning,
        view,
        format!(
            "p99 read of {} merges {p99:.0} SSTables on {node} (tablehistograms)",
            view.qualified_name()
        ),
    );
    let help = match cx.table(view).map(time_column) {
        Some(Some(t)) => format!(
            "one partition's rows are spread over SSTables written at different times: a time series keyed without a bucket on `{}` keeps adding to old partitions; bucket the key by time and use TimeWindowCompactionStrategy",
            t.name
        ),
        Some(None) => "partitions are updated over a long time: LeveledCompactionStrategy bounds SSTables per read; check compaction is keeping up (`nodetool compactionstats`)".to_string(),
        None => "give --schema to relate this to the table's key and compaction".to_string(),
    };
    let figure = Evidence::new("sstables_per_read", "p99", p99, Unit::Count)
        .limit(SSTABLES_WARN)
        .on(node)
        .from("tablehistograms");
    Some(Finding::from(d.with_help(help)).with(figure))
}

fn latency(view: &TableView<'_>, cx: &Context<'_>) -> Option<Finding> {
    let p99 = view
        .histogram_max(Percentile::P99, |r| r.read_latency_us)
        .filter(|(v, _)| *v >= READ_P99_US_WARN);
    let mean = view
        .stats_max(|t| t.local_read_latency_ms)
        .filter(|(v, _)| *v >= READ_MEAN_MS_WARN);
    if p99.is_none() && mean.is_none() {
        return None;
    }
    let mut parts = Vec::new();
    let mut figures = Vec::new();
    if let Some((v, n)) = p99 {
        parts.push(format!("p99 {:.1} ms on {n} (tablehistograms)", v / 1000.0));
        figures.push(
            Evidence::new("read_latency", "p99", v, Unit::Microseconds)
                .limit(READ_P99_US_WARN)
                .on(n)
                .from("tablehistograms"),
        );
    }
    if let Some((v, n)) = mean {
        parts.push(format!("mean {v:.1} ms on {n} (tablestats)"));
        figures.push(
            Evidence::new("read_latency", "mean", v, Unit::Milliseconds)
                .limit(READ_MEAN_MS_WARN)
                .on(n)
                .from("tablestats"),
        );
    }
    let d = cx.finding(
            &READ_LATENCY,
            Severity::Warning,
            view,
            format!("local reads of {} are slow: {}", view.qualified_name(), parts.join(", ")),
        )
        .with_note("local latency is the replica's own time (no network, no coordinator): large partitions, tombstones and SSTables per read are the usual model-side causes; see the other findings on this table".to_string());
    Some(Finding {
        diagnostic: d,
        evidence: figures,
    })
}
