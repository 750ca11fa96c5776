//! `size`: per table, the partition-size and rows-per-partition distributions
//! on a log scale against the thresholds (and after the recommended change,
//! when there is one), the growth over the horizon, the formula and the
//! assumptions.

use serde_json::Value;

use super::units::{format_bytes, format_count};
use crate::chart::{Bar, Limit, Scale, bar_chart};
use crate::escape::anchor;
use crate::generic;
use crate::json::{list, number, number_text, text_or_empty, texts};
use crate::layout::{Document, Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

const PERCENTILES: [(&str, &str); 7] = [
    ("p50", "50%"),
    ("p75", "75%"),
    ("p95", "95%"),
    ("p98", "98%"),
    ("p99", "99%"),
    ("max", "max"),
    ("mean", "mean"),
];

const KNOWN: &[&str] = &[
    "table",
    "exceeds",
    "sized_at",
    "partitions",
    "total_rows",
    "bytes_per_partition",
    "rows_per_partition",
    "cells_per_partition",
    "formula",
    "growth",
    "recommendation",
    "assumptions",
    "thresholds",
];

pub fn document(model: &Value) -> Document {
    let estimates = model.as_array().map_or(&[][..], Vec::as_slice);
    let open = estimates.len() <= OPEN_ITEMS_UP_TO;
    let over = estimates
        .iter()
        .filter(|e| !list(e, "exceeds").is_empty())
        .count();
    let mut m = Markup::new();
    let mut items = Vec::new();
    for e in estimates {
        let name = text_or_empty(e, "table");
        let item = Item {
            id: anchor("table", name),
            title: name.to_string(),
        };
        let exceeds = texts(e, "exceeds");
        let badge = if exceeds.is_empty() {
            "within the thresholds".to_string()
        } else {
            format!("EXCEEDS {}", exceeds.join(", "))
        };
        open_item(&mut m, &item, &badge, open);
        table(&mut m, e);
        close_item(&mut m);
        items.push(item);
    }
    Document {
        title: "cqlmodel size".into(),
        summary: format!(
            "{} tables, {over} over a threshold (partition sizes per replica, before compression)",
            estimates.len()
        ),
        sections: vec![Section::new("tables", "Partition sizes by table", m).with_items(items)],
    }
}

fn table(m: &mut Markup, e: &Value) {
    m.raw("<dl class=\"fields\">")
        .field("sized after", text_or_empty(e, "sized_at"))
        .field("partitions", &count_at(e, "partitions"))
        .field("rows", &count_at(e, "total_rows"))
        .raw("</dl>");
    let thresholds = e.get("thresholds").unwrap_or(&Value::Null);
    let recommendation = e.get("recommendation").filter(|r| !r.is_null());
    distribution(
        m,
        e,
        recommendation,
        "bytes_per_partition",
        "Partition size",
        number(thresholds, "partition_bytes"),
        &|v| format_bytes(v),
    );
    distribution(
        m,
        e,
        recommendation,
        "rows_per_partition",
        "Rows in a partition",
        number(thresholds, "partition_rows"),
        &|v| format_count(v),
    );
    growth(m, e, number(thresholds, "partition_bytes"));
    if let Some(r) = recommendation {
        m.el("h3", &[], "Recommendation");
        m.el("p", &[], text_or_empty(r, "summary"));
        generic::other_fields(
            m,
            r,
            &["summary", "bytes_per_partition", "rows_per_partition"],
        );
    }
    if let Some(formula) = e.get("formula") {
        m.el("h3", &[], "Formula inputs");
        generic::value(m, formula);
    }
    let assumptions = texts(e, "assumptions");
    if !assumptions.is_empty() {
        m.el("h3", &[], "Assumptions");
        m.list("notes", assumptions);
    }
    generic::other_fields(m, e, KNOWN);
}

fn count_at(v: &Value, key: &str) -> String {
    number(v, key).map_or_else(|| number_text(v, key), format_count)
}

/// One chart of the percentiles of `key`, log scale, with the limit line; the
/// recommended change's figures as a second series.
fn distribution(
    m: &mut Markup,
    e: &Value,
    recommendation: Option<&Value>,
    key: &str,
    title: &str,
    limit: Option<f64>,
    format: &dyn Fn(f64) -> String,
) {
    let Some(now) = e.get(key) else {
        return;
    };
    let after = recommendation.and_then(|r| r.get(key));
    let mut bars = Vec::new();
    for (field, label) in PERCENTILES {
        let Some(value) = number(now, field) else {
            continue;
        };
        let over = limit.is_some_and(|l| value > l);
        bars.push(Bar {
            label: label.into(),
            value,
            series: 1,
            over,
        });
        if let Some(v) = after.and_then(|a| number(a, field)) {
            bars.push(Bar {
                label: String::new(),
                value: v,
                series: 2,
                over: false,
            });
        }
    }
    let limits: Vec<Limit> = limit
        .map(|l| Limit {
            value: l,
            label: format!("limit {}", format(l)),
        })
        .into_iter()
        .collect();
    let caption = format!("{title} (log scale), {}", text_or_empty(e, "table"));
    m.open("figure", &[])
        .raw(&bar_chart(&caption, &bars, &limits, Scale::Log, format))
        .open("figcaption", &[]);
    m.text(&format!(
        "{title} at each percentile, log scale; dashed line: the limit"
    ));
    if after.is_some() {
        m.raw("<span class=\"legend\"> · <span><i class=\"s1\"></i>now</span><span><i class=\"s2\"></i>after the recommendation</span></span>");
    }
    m.close("figcaption").close("figure");
}

/// The growth steps: the largest partition at each horizon, and a table.
fn growth(m: &mut Markup, e: &Value, limit: Option<f64>) {
    let steps = list(e, "growth");
    if steps.is_empty() {
        return;
    }
    m.el("h3", &[], "Growth");
    let bars: Vec<Bar> = steps
        .iter()
        .filter_map(|s| {
            let value = number(s.get("bytes_per_partition")?, "max")?;
            Some(Bar {
                label: format!("after {}", text_or_empty(s, "after")),
                value,
                series: 3,
                over: !list(s, "exceeds").is_empty(),
            })
        })
        .collect();
    let limits: Vec<Limit> = limit
        .map(|l| Limit {
            value: l,
            label: format!("limit {}", format_bytes(l)),
        })
        .into_iter()
        .collect();
    m.open("figure", &[])
        .raw(&bar_chart(
            "largest partition over time (log scale)",
            &bars,
            &limits,
            Scale::Log,
            &|v| format_bytes(v),
        ))
        .el(
            "figcaption",
            &[],
            "Largest partition at each horizon, log scale",
        )
        .close("figure");
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>after</th><th>partitions</th><th>rows (max)</th><th>size (max)</th><th>over</th></tr></thead><tbody>");
    for s in steps {
        let max = |key: &str| s.get(key).and_then(|q| number(q, "max"));
        m.raw("<tr>")
            .el("td", &[], text_or_empty(s, "after"))
            .el("td", &[("class", "num")], &count_at(s, "partitions"))
            .el(
                "td",
                &[("class", "num")],
                &max("rows_per_partition").map_or("—".into(), format_count),
            )
            .el(
                "td",
                &[("class", "num")],
                &max("bytes_per_partition").map_or("—".into(), format_bytes),
            )
            .el("td", &[], &texts(s, "exceeds").join(", "))
            .raw("</tr>");
    }
    m.raw("</tbody></table></div>");
}
