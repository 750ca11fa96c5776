//! `diagnose`: the measured figures (`measured`, numbers) against the limits
//! the checks use (`limits`), per table, as log-scale bar charts with dashed
//! limit lines: partition size, cells per partition, SSTables per read and
//! read latency at each percentile of `nodetool tablehistograms`, and
//! tombstones per read from `nodetool tablestats`. One bar per node in each
//! group, a colour per node.

use std::collections::BTreeMap;

use serde_json::Value;

use super::units::{format_bytes, format_count};
use crate::chart::{Bar, Limit, Scale, bar_chart};
use crate::escape::anchor;
use crate::json::{list, number, text_or_empty};
use crate::layout::{Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

/// The histogram's percentiles drawn (min says nothing about a limit).
const PERCENTILES: [&str; 6] = ["p50", "p75", "p95", "p98", "p99", "max"];

/// One chart: where its numbers are, its title, its limits (JSON names in
/// `limits`, with their labels) and how its values read.
struct Metric {
    /// `histogram` or `tablestats`.
    source: &'static str,
    key: &'static str,
    /// The statistics drawn, in order.
    stats: &'static [&'static str],
    title: &'static str,
    limits: &'static [(&'static str, &'static str)],
    format: fn(f64) -> String,
}

const METRICS: [Metric; 6] = [
    Metric {
        source: "histogram",
        key: "partition_bytes",
        stats: &PERCENTILES,
        title: "Partition size",
        limits: &[("partition_bytes", "limit")],
        format: format_bytes,
    },
    Metric {
        source: "tablestats",
        key: "partition_bytes",
        stats: &["mean", "max"],
        title: "Partition size (tablestats)",
        limits: &[("partition_bytes", "limit")],
        format: format_bytes,
    },
    Metric {
        source: "histogram",
        key: "cell_count",
        stats: &PERCENTILES,
        title: "Cells per partition",
        limits: &[],
        format: format_count,
    },
    Metric {
        source: "histogram",
        key: "sstables_per_read",
        stats: &PERCENTILES,
        title: "SSTables per read",
        limits: &[("sstables_per_read_p99", "p99 limit")],
        format: format_count,
    },
    Metric {
        source: "histogram",
        key: "read_latency_us",
        stats: &PERCENTILES,
        title: "Read latency",
        limits: &[("read_latency_p99_us", "p99 limit")],
        format: format_micros,
    },
    Metric {
        source: "tablestats",
        key: "tombstones_per_read",
        stats: &["mean", "max"],
        title: "Tombstones per read",
        limits: &[
            ("tombstones_per_read_warn", "warn"),
            ("tombstones_per_read_fail", "fail"),
        ],
        format: format_count,
    },
];

/// The section, when the model has measured figures.
pub fn section(model: &Value) -> Option<Section> {
    let measured = list(model, "measured");
    if measured.is_empty() {
        return None;
    }
    let limits = model.get("limits").unwrap_or(&Value::Null);
    let mut tables: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for entry in measured {
        tables
            .entry(text_or_empty(entry, "table"))
            .or_default()
            .push(entry);
    }
    let open = tables.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    m.el(
        "p",
        &[],
        "What each node measured, at each percentile, against the limits the checks use: log scale, dashed lines the limits, bars over a limit in the warning colour.",
    );
    let mut items = Vec::new();
    for (table, nodes) in &tables {
        let item = Item {
            id: anchor("measured", table),
            title: (*table).to_string(),
        };
        let count = if nodes.len() == 1 {
            format!("node `{}`", text_or_empty(nodes[0], "node"))
        } else {
            format!("{} nodes", nodes.len())
        };
        open_item(&mut m, &item, &count, open);
        for metric in &METRICS {
            chart(&mut m, table, nodes, limits, metric);
        }
        close_item(&mut m);
        items.push(item);
    }
    Some(Section::new("measured", "Measured against the limits", m).with_items(items))
}

/// One metric's chart for a table: a group of bars per statistic, a bar per
/// node; nothing when no node measured it.
fn chart(m: &mut Markup, table: &str, nodes: &[&Value], limits: &Value, metric: &Metric) {
    fn of<'a>(node: &'a Value, metric: &Metric) -> Option<&'a Value> {
        node.get(metric.source)
            .and_then(|s| s.get(metric.key))
            .filter(|v| v.is_object())
    }
    // The nodes that measured this metric: the colours and the legend are
    // theirs. Three colours tell three nodes apart; with more, every bar is
    // labelled with its node instead.
    let nodes: Vec<&Value> = nodes
        .iter()
        .copied()
        .filter(|n| of(n, metric).is_some())
        .collect();
    if nodes.is_empty() {
        return;
    }
    let named_bars = nodes.len() > 3;
    let limit_lines: Vec<Limit> = metric
        .limits
        .iter()
        .filter_map(|(key, label)| {
            let value = number(limits, key)?;
            Some(Limit {
                value,
                label: format!("{label} {}", (metric.format)(value)),
            })
        })
        .collect();
    let lowest_limit = limit_lines.iter().map(|l| l.value).reduce(f64::min);
    let mut bars = Vec::new();
    for stat in metric.stats {
        let mut first = true;
        for (i, node) in nodes.iter().enumerate() {
            let Some(value) = of(node, metric).and_then(|v| number(v, stat)) else {
                continue;
            };
            let label = if named_bars {
                format!("{stat} {}", text_or_empty(node, "node"))
            } else if first {
                (*stat).to_string()
            } else {
                String::new()
            };
            bars.push(Bar {
                label,
                value,
                series: if named_bars {
                    1
                } else {
                    u8::try_from(i % 3 + 1).unwrap_or(1)
                },
                over: lowest_limit.is_some_and(|l| value > l),
            });
            first = false;
        }
    }
    if bars.is_empty() {
        return;
    }
    // A log scale has no zero: all-zero figures are said, not drawn at the
    // axis's first decade.
    if bars.iter().all(|b| b.value <= 0.0) {
        let stats = metric.stats.join(", ");
        m.el(
            "p",
            &[("class", "where")],
            &format!("{}: 0 ({stats}) on every node", metric.title),
        );
        return;
    }
    let caption = format!("{} (log scale), {table}", metric.title);
    m.open("figure", &[])
        .raw(&bar_chart(
            &caption,
            &bars,
            &limit_lines,
            Scale::Log,
            &metric.format,
        ))
        .open("figcaption", &[]);
    let what = if metric.limits.is_empty() {
        "no limit applies"
    } else {
        "dashed lines: the limits"
    };
    m.text(&format!("{}, log scale; {what}", metric.title));
    if nodes.len() > 1 && !named_bars {
        m.raw("<span class=\"legend\"> · ");
        for (i, node) in nodes.iter().enumerate() {
            m.raw(&format!("<span><i class=\"s{}\"></i>", i % 3 + 1))
                .text(text_or_empty(node, "node"))
                .raw("</span>");
        }
        m.raw("</span>");
    }
    m.close("figcaption").close("figure");
}

/// Microseconds as the histograms' text reads them: µs below a millisecond, else ms.
fn format_micros(us: f64) -> String {
    if us < 1_000.0 {
        format!("{} µs", (us * 10.0).round() / 10.0)
    } else {
        format!("{} ms", (us / 100.0).round() / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn model() -> Value {
        json!({
            "limits": {"partition_bytes": 100e6, "sstables_per_read_p99": 10.0,
                       "read_latency_p99_us": 50000.0, "tombstones_per_read_warn": 1000.0,
                       "tombstones_per_read_fail": 100000.0},
            "measured": [
                {"table": "iot.readings", "node": "n1", "tablestats": null,
                 "histogram": {"partition_bytes": {"p50": 2.0e7, "p99": 1.3e8, "max": 2.7e8},
                               "sstables_per_read": {"p99": 14.0}}},
                {"table": "iot.readings", "node": "n2", "histogram": null,
                 "tablestats": {"tombstones_per_read": {"mean": 2.0, "max": 5000.0}}},
            ]
        })
    }

    #[test]
    fn a_table_gets_a_chart_per_measured_metric_with_its_limits() {
        let section = section(&model()).expect("a section");
        let body = &section.body;
        assert_eq!(
            body.matches("<svg").count(),
            3,
            "size, sstables, tombstones"
        );
        assert!(body.contains("limit 100 MB"), "{body}");
        assert!(body.contains("p99 limit 10"));
        assert!(
            body.contains("warn 1k") || body.contains("warn 1,000"),
            "{body}"
        );
        assert!(body.contains("class=\"over\""), "130 MB is over 100 MB");
        assert!(body.contains("2 nodes"));
        assert!(
            !body.contains("class=\"legend\""),
            "each chart has one node's figures: no legend"
        );
    }

    #[test]
    fn the_legend_names_only_the_nodes_in_the_chart_and_four_nodes_label_their_bars() {
        let node = |name: &str, bytes: f64| {
            json!({"table": "a.b", "node": name, "histogram": null,
                   "tablestats": {"partition_bytes": {"mean": bytes, "max": bytes}}})
        };
        let histogram_only = json!({"table": "a.b", "node": "h", "tablestats": null,
            "histogram": {"cell_count": {"p50": 3.0}}});
        let three =
            json!({"limits": {}, "measured": [node("n1", 1e3), node("n2", 2e3), histogram_only]});
        let body = section(&three).expect("a section").body;
        let size_chart = &body[..body.find("Cells per partition").expect("the cells chart")];
        assert!(
            size_chart.contains("<i class=\"s2\"></i>n2"),
            "{size_chart}"
        );
        assert!(
            !size_chart.contains("</i>h<"),
            "h measured no size: {size_chart}"
        );

        let four = json!({"limits": {}, "measured": [
            node("n1", 1e3), node("n2", 2e3), node("n3", 3e3), node("n4", 4e3)]});
        let body = section(&four).expect("a section").body;
        assert!(body.contains(">max n4</text>"), "{body}");
        assert!(
            !body.contains("class=\"legend\""),
            "the bars say their node"
        );
    }

    #[test]
    fn all_zero_figures_are_said_not_drawn() {
        let model = json!({
            "limits": {"tombstones_per_read_warn": 1000.0},
            "measured": [{"table": "a.b", "node": "n1", "histogram": null,
                          "tablestats": {"tombstones_per_read": {"mean": 0.0, "max": 0.0}}}]
        });
        let body = section(&model).expect("a section").body;
        assert!(!body.contains("<svg"), "{body}");
        assert!(body.contains("Tombstones per read: 0 (mean, max) on every node"));
    }

    #[test]
    fn no_measured_figures_no_section() {
        assert!(section(&json!({"measured": []})).is_none());
        assert!(section(&json!({"findings": []})).is_none());
    }

    #[test]
    fn microseconds_read_as_the_histograms_do() {
        assert_eq!(format_micros(943.13), "943.1 µs");
        assert_eq!(format_micros(62_479.63), "62.5 ms");
    }
}
