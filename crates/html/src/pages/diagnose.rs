//! `diagnose`: what was read (nodes, histograms, status), the findings grouped
//! by table with their measured figures and the recommended change, and the
//! measured figures against the limits as charts (`diagnose_chart`), and the
//! problems met reading the files.

use serde_json::Value;

use super::findings;
use crate::Sources;
use crate::generic;
use crate::json::{list, scalar};
use crate::layout::{Document, Section};
use crate::markup::Markup;

pub fn document(model: &Value, sources: &Sources) -> Document {
    let all = findings::of(model);
    let refs: Vec<&Value> = all.iter().collect();
    let mut sections = Vec::new();
    if let Some(read) = model.get("read") {
        sections.push(read_section(read));
    }
    sections.push(findings::section(
        "findings",
        "Findings by table",
        all,
        sources,
    ));
    sections.extend(super::diagnose_chart::section(model));
    let problems = list(model, "problems");
    if !problems.is_empty() {
        let mut m = Markup::new();
        generic::value(&mut m, &Value::Array(problems.to_vec()));
        sections.push(Section::new("problems", "Problems reading the input", m));
    }
    let mut other = Markup::new();
    generic::other_fields(
        &mut other,
        model,
        &[
            "version", "read", "findings", "problems", "limits", "measured",
        ],
    );
    if !other.is_empty() {
        sections.push(Section::new("other", "Other fields", other));
    }
    Document {
        title: "cqlmodel diagnose".into(),
        summary: format!(
            "{} findings on {} tables: {}",
            all.len(),
            findings::by_table(all).len(),
            findings::severity_counts(&refs)
        ),
        sections,
    }
}

/// Each list of `read` (nodes, histograms, status…) as a table of its fields.
fn read_section(read: &Value) -> Section {
    let mut m = Markup::new();
    if let Some(map) = read.as_object() {
        for (key, value) in map {
            m.el("h3", &[], key);
            match value.as_array() {
                Some(rows) if !rows.is_empty() => rows_table(&mut m, rows),
                _ => {
                    m.open("p", &[]);
                    generic::value(&mut m, value);
                    m.close("p");
                }
            }
        }
    }
    Section::new("read", "What was read", m)
}

/// Rows of objects as an HTML table, one column per key of the first row.
pub fn rows_table(m: &mut Markup, rows: &[Value]) {
    // Names first (the JSON's keys come sorted), then the figures.
    const FIRST: [&str; 5] = ["node", "table", "dc", "rack", "format"];
    let mut keys: Vec<&String> = rows
        .first()
        .and_then(Value::as_object)
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    keys.sort_by_key(|k| {
        FIRST
            .iter()
            .position(|f| *f == k.as_str())
            .unwrap_or(FIRST.len())
    });
    if keys.is_empty() {
        generic::value(m, &Value::Array(rows.to_vec()));
        return;
    }
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr>");
    for k in &keys {
        m.el("th", &[], k);
    }
    m.raw("</tr></thead><tbody>");
    for row in rows {
        m.raw("<tr>");
        for k in &keys {
            let cell = row.get(k.as_str()).map_or_else(|| "—".into(), scalar);
            m.el("td", &[], &cell);
        }
        m.raw("</tr>");
    }
    m.raw("</tbody></table></div>");
}
