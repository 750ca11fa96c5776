//! Cluster-wide checks: one node holding or serving much more of a table than
//! the others (DG004), and the tables that take most of the traffic (DG008).

use cqlmodel_diagnostics::Severity;
use cqlmodel_stats::units::{format_bytes, format_count};

use super::context::Context;
use super::evidence::{Evidence, Finding, Unit};
use super::rules::{HOT_TABLE, NODE_IMBALANCE};
use super::view::TableView;
use crate::model::TableStats;

/// max / mean over nodes at which a table is imbalanced.
pub const IMBALANCE_RATIO: f64 = 1.5;
/// Share of all user-table reads or writes that makes a table hot.
pub const HOT_SHARE: f64 = 0.5;

type Measure = (&'static str, fn(&TableStats) -> Option<u64>, f64);

const MEASURES: [Measure; 3] = [
    ("data (Space used (live))", |t| t.space_used_live, 1e6),
    ("reads (Local read count)", |t| t.local_read_count, 1000.0),
    (
        "writes (Local write count)",
        |t| t.local_write_count,
        1000.0,
    ),
];

pub fn imbalance(view: &TableView<'_>, cx: &Context<'_>) -> Option<Finding> {
    if view.nodes.len() < 2 {
        return None;
    }
    let mut parts = Vec::new();
    let mut figures = Vec::new();
    let mut worst: Option<(&str, f64)> = None;
    for (what, field, floor) in MEASURES {
        let values: Vec<(&str, f64)> = view
            .nodes
            .iter()
            .filter_map(|(n, t)| Some((*n, field(t)? as f64)))
            .collect();
        if values.len() < 2 {
            continue;
        }
        let total: f64 = values.iter().map(|(_, v)| v).sum();
        let mean = total / values.len() as f64;
        let Some((node, max)) = values.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)) else {
            continue;
        };
        if total < floor || mean <= 0.0 || max / mean < IMBALANCE_RATIO {
            continue;
        }
        let shown = |v: f64| {
            if what.starts_with("data") {
                format_bytes(v)
            } else {
                format_count(v)
            }
        };
        parts.push(format!(
            "{what}: {node} has {} = {:.1}× the mean of {} nodes ({})",
            shown(max),
            max / mean,
            values.len(),
            shown(mean)
        ));
        figures.push(
            Evidence::new("node_imbalance", "max/mean", max / mean, Unit::Ratio)
                .limit(IMBALANCE_RATIO)
                .on(node)
                .from(format!("tablestats {what}, {} nodes", values.len())),
        );
        if worst.is_none_or(|(_, r)| max / mean > r) {
            worst = Some((node, max / mean));
        }
    }
    let (node, ratio) = worst?;
    let mut d = cx.finding(
        &NODE_IMBALANCE,
        Severity::Warning,
        view,
        format!(
            "{} is imbalanced: {node} carries {ratio:.1}× the mean of the nodes",
            view.qualified_name()
        ),
    );
    for p in parts {
        d = d.with_note(p);
    }
    let help = match &cx.ownership {
        Some(o) if o.even => format!(
            "token ownership is even (nodetool status: {}): a few partition-key values hold or receive most of the table, and their replicas are the loaded nodes; spread them with a salt or a finer key",
            o.summary
        ),
        Some(o) => format!(
            "token ownership is uneven too (nodetool status: {}; see DG009): part of the imbalance is the ring's, the rest the keys'",
            o.summary
        ),
        None => "give `nodetool status` output too: if token ownership is even, a few partition-key values hold or receive most of the table (their replicas are the loaded nodes); spread them with a salt or a finer key".to_string(),
    };
    Some(Finding {
        diagnostic: d.with_help(help),
        evidence: figures,
    })
}

/// Tables taking at least half of all user-table reads or writes.
pub fn hot_tables(views: &[TableView<'_>], cx: &Context<'_>) -> Vec<Finding> {
    if views.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (what, field) in [
        (
            "reads",
            (|t: &TableStats| t.local_read_count) as fn(&TableStats) -> Option<u64>,
        ),
        ("writes", |t: &TableStats| t.local_write_count),
    ] {
        let per_table: Vec<u64> = views.iter().map(|v| v.stats_sum(field)).collect();
        let total: u64 = per_table.iter().fold(0, |a, b| a.saturating_add(*b));
        if total < 10_000 {
            continue;
        }
        for (view, n) in views.iter().zip(&per_table) {
            let share = *n as f64 / total as f64;
            if share >= HOT_SHARE {
                let measure = if what == "reads" {
                    "read_share"
                } else {
                    "write_share"
                };
                let figure = Evidence::new(measure, "sum", share, Unit::Share)
                    .limit(HOT_SHARE)
                    .from(format!(
                        "local {what}: {n} of {total}, summed over the nodes"
                    ));
                out.push(
                    Finding::from(cx.finding(
                        &HOT_TABLE,
                        Severity::Info,
                        view,
                        format!(
                            "{} takes {:.0}% of all local {what} ({} of {}, summed over the nodes)",
                            view.qualified_name(),
                            share * 100.0,
                            format_count(*n as f64),
                            format_count(total as f64)
                        ),
                    ))
                    .with(figure),
                );
            }
        }
    }
    out
}
