//! `design`: the sections that open the page — the fit verdict with its
//! evidence lines, the design's own review, and the input notes and errors —
//! each drawn from the same keys of design.json the text summary prints.

use serde_json::Value;

use crate::json::{list, text, text_or_empty};
use crate::layout::Section;
use crate::markup::Markup;

/// The fit verdict: the headline, each evidence line with the threshold it
/// crossed or stayed within, the companions, and the per-entity verdicts.
pub fn verdict_section(verdict: &Value) -> Option<Section> {
    let fit = text(verdict, "fit")?;
    let mut m = Markup::new();
    m.open("p", &[("class", "verdict")])
        .el("strong", &[], fit)
        .text(": ")
        .text(text_or_empty(verdict, "summary"))
        .close("p");
    evidence_lines(&mut m, list(verdict, "lines"));
    let companions: Vec<String> = list(verdict, "companions").iter().map(one_line).collect();
    if !companions.is_empty() {
        m.el("h3", &[], "Companions");
        m.list("notes", companions.iter().map(String::as_str));
    }
    for entity in list(verdict, "entities") {
        m.open("h3", &[])
            .text("entity ")
            .code(text_or_empty(entity, "entity"))
            .text(": ")
            .text(text_or_empty(entity, "fit"))
            .close("h3");
        evidence_lines(&mut m, list(entity, "lines"));
    }
    Some(Section::new("verdict", "Fit verdict", m))
}

fn evidence_lines(m: &mut Markup, lines: &[Value]) {
    if lines.is_empty() {
        return;
    }
    m.open("ul", &[("class", "notes")]);
    for line in lines {
        m.open("li", &[]);
        if let Some(topic) = text(line, "topic") {
            m.el("strong", &[], topic).text(": ");
        }
        m.text(text_or_empty(line, "text"));
        if let Some(threshold) = text(line, "threshold") {
            let crossed = line["crossed"].as_bool().unwrap_or(false);
            let (class, word) = if crossed {
                ("sev-warning", "crossed")
            } else {
                ("ok", "within")
            };
            m.text(" [")
                .code(threshold)
                .text(&format!(" {}: ", text_or_empty(line, "limit")))
                .el("span", &[("class", class)], word)
                .text("]");
        }
        m.close("li");
    }
    m.close("ul");
}

/// A companion or any small object as one readable line.
fn one_line(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: {s}"),
                other => format!("{k}: {other}"),
            })
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// The design's review of its own schema and queries.
pub fn review_section(findings: &[Value]) -> Section {
    let mut m = Markup::new();
    if findings.is_empty() {
        m.el(
            "p",
            &[("class", "ok")],
            "No finding: the review accepts the design as written.",
        );
    }
    item_list(&mut m, findings);
    Section::new("own-review", "The design's own review", m)
}

/// Rendered diagnostics (errors or notes) as one line each with their place.
pub fn diagnostics_section(id: &str, title: &str, items: &[Value]) -> Section {
    let mut m = Markup::new();
    item_list(&mut m, items);
    Section::new(id, title, m)
}

/// One line per finding or diagnostic: severity, code, rule, message, and the
/// place when the item has one (review findings name a table instead).
fn item_list(m: &mut Markup, items: &[Value]) {
    if items.is_empty() {
        return;
    }
    m.open("ul", &[("class", "notes")]);
    for d in items {
        let severity = text_or_empty(d, "severity");
        m.open("li", &[])
            .el("span", &[("class", &format!("sev-{severity}"))], severity)
            .text(" ");
        if let Some(code) = text(d, "code") {
            m.code(code).text(" ");
        }
        if let Some(rule) = text(d, "rule") {
            m.text(rule).text(": ");
        }
        m.text(text_or_empty(d, "message"));
        if let Some(file) = text(d, "file") {
            let line = d["line"]
                .as_u64()
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            m.text(" (").code(&format!("{file}{line}")).text(")");
        }
        m.close("li");
    }
    m.close("ul");
}
