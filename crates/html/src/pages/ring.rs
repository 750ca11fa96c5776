//! `ring`: the topology, token ownership per node with the table's data and
//! request shares (a chart and a table), the imbalance, the hottest partitions
//! and the assumptions.

use serde_json::Value;

use super::diagnose::rows_table;
use super::units::percent;
use crate::chart::{Bar, Scale, bar_chart};
use crate::generic;
use crate::json::{list, number, number_text, text, text_or_empty, texts};
use crate::layout::{Document, Section};
use crate::markup::Markup;

/// The per-node measures drawn, with their series colour.
const MEASURES: [(&str, &str, u8); 3] = [
    ("effective_ownership", "effective ownership", 1),
    ("data_share", "data share", 2),
    ("request_share", "request share", 3),
];

const KNOWN: &[&str] = &[
    "topology",
    "table",
    "samples",
    "nodes",
    "imbalance",
    "hottest_partitions",
    "hottest_exact",
    "assumptions",
];

pub fn document(model: &Value) -> Document {
    let nodes = list(model, "nodes");
    let mut sections = vec![overview(model), nodes_section(nodes)];
    let hottest = list(model, "hottest_partitions");
    if !hottest.is_empty() {
        let mut m = Markup::new();
        if model.get("hottest_exact").and_then(Value::as_bool) == Some(false) {
            m.el(
                "p",
                &[],
                "Shares of the hottest partitions are estimates (hottest_exact: false).",
            );
        }
        rows_table(&mut m, hottest);
        sections.push(Section::new("hottest", "Hottest partitions", m));
    }
    let assumptions = texts(model, "assumptions");
    if !assumptions.is_empty() {
        let mut m = Markup::new();
        m.list("notes", assumptions);
        sections.push(Section::new("assumptions", "Assumptions", m));
    }
    let mut other = Markup::new();
    generic::other_fields(&mut other, model, KNOWN);
    if !other.is_empty() {
        sections.push(Section::new("other", "Other fields", other));
    }
    let topology = model.get("topology").unwrap_or(&Value::Null);
    Document {
        title: match text(model, "table") {
            Some(t) => format!("cqlmodel ring: {t}"),
            None => "cqlmodel ring".into(),
        },
        summary: format!(
            "{} nodes, {} tokens; {}",
            number_text(topology, "nodes"),
            number_text(topology, "tokens"),
            text_or_empty(topology, "replication")
        ),
        sections,
    }
}

fn overview(model: &Value) -> Section {
    let mut m = Markup::new();
    m.raw("<dl class=\"fields\">");
    if let Some(topology) = model.get("topology").and_then(Value::as_object) {
        for (key, value) in topology {
            m.el("dt", &[], key).raw("<dd>");
            generic::value(&mut m, value);
            m.raw("</dd>");
        }
    }
    if let Some(table) = text(model, "table") {
        m.field("table", table);
        m.field("sampled keys", &number_text(model, "samples"));
    }
    m.raw("</dl>");
    if let Some(imbalance) = model.get("imbalance") {
        m.el("h3", &[], "Imbalance (busiest node / mean)");
        m.raw("<dl class=\"fields\">");
        for key in ["ownership", "data", "requests"] {
            m.field(key, &number_text(imbalance, key));
        }
        m.raw("</dl>");
        generic::other_fields(&mut m, imbalance, &["ownership", "data", "requests"]);
    }
    Section::new("overview", "Ring", m)
}

fn nodes_section(nodes: &[Value]) -> Section {
    let present: Vec<(&str, &str, u8)> = MEASURES
        .into_iter()
        .filter(|(key, _, _)| nodes.iter().any(|n| number(n, key).is_some()))
        .collect();
    let mut bars = Vec::new();
    for n in nodes {
        for (i, (key, _, series)) in present.iter().enumerate() {
            bars.push(Bar {
                label: if i == 0 {
                    text_or_empty(n, "node").to_string()
                } else {
                    String::new()
                },
                value: number(n, key).unwrap_or(f64::NAN),
                series: *series,
                over: false,
            });
        }
    }
    let mut m = Markup::new();
    m.open("figure", &[])
        .raw(&bar_chart(
            "share per node, percent",
            &bars,
            &[],
            Scale::Linear,
            &percent,
        ))
        .open("figcaption", &[])
        .text("Per node, percent: ")
        .raw("<span class=\"legend\">");
    for (_, label, series) in &present {
        m.open("span", &[])
            .raw(&format!("<i class=\"s{series}\"></i>"))
            .text(label)
            .close("span");
    }
    m.raw("</span>").close("figcaption").close("figure");
    rows_table(&mut m, nodes);
    Section::new("nodes", "Ownership and shares per node", m)
}
