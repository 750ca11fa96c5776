//! Findings (review and diagnose share the shape: rule, code, severity, file,
//! line, column, table, message, notes, help, fix) grouped by table, each with
//! its place, the source line it points at, and its fix.

use serde_json::Value;

use crate::Sources;
use crate::escape::anchor;
use crate::excerpt::caret_excerpt;
use crate::generic;
use crate::json::{list, number, text, text_or_empty, texts};
use crate::layout::{Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

/// The fields a finding block shows; any other shows under "Other fields".
const KNOWN: &[&str] = &[
    "rule",
    "code",
    "severity",
    "file",
    "line",
    "column",
    "end_line",
    "end_column",
    "label",
    "table",
    "query",
    "message",
    "notes",
    "help",
    "fix",
    "evidence",
];

/// Findings in groups of one table each, in order of first appearance.
pub fn by_table(findings: &[Value]) -> Vec<(&str, Vec<&Value>)> {
    let mut groups: Vec<(&str, Vec<&Value>)> = Vec::new();
    for f in findings {
        let table = text(f, "table").unwrap_or("(not about one table)");
        match groups.iter_mut().find(|(t, _)| *t == table) {
            Some((_, group)) => group.push(f),
            None => groups.push((table, vec![f])),
        }
    }
    groups
}

/// `n errors, n warnings, n infos`.
pub fn severity_counts(findings: &[&Value]) -> String {
    let count = |s: &str| {
        findings
            .iter()
            .filter(|f| text(f, "severity") == Some(s))
            .count()
    };
    format!(
        "{} errors, {} warnings, {} infos",
        count("error"),
        count("warning"),
        count("info")
    )
}

/// The section of findings grouped by table.
pub fn section(id: &str, title: &str, findings: &[Value], sources: &Sources) -> Section {
    let groups = by_table(findings);
    let open = groups.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    if groups.is_empty() {
        m.el("p", &[("class", "ok")], "No findings.");
    }
    let mut items = Vec::new();
    for (table, group) in &groups {
        let item = Item {
            id: anchor("findings", table),
            title: (*table).to_string(),
        };
        open_item(&mut m, &item, &severity_counts(group), open);
        for f in group {
            finding(&mut m, f, sources);
        }
        close_item(&mut m);
        items.push(item);
    }
    Section::new(id, title, m).with_items(items)
}

fn finding(m: &mut Markup, f: &Value, sources: &Sources) {
    let severity = text(f, "severity").unwrap_or("info");
    let class = format!("finding sev-{}", css_word(severity));
    m.open("div", &[("class", &class)]).raw("<p>");
    m.el(
        "span",
        &[("class", &format!("badge sev-{}", css_word(severity)))],
        severity,
    );
    if let Some(code) = text(f, "code") {
        m.el("span", &[("class", "badge")], code);
    }
    m.el("span", &[("class", "message")], text_or_empty(f, "message"))
        .raw("</p>");
    place(m, f, sources);
    m.list("notes", texts(f, "notes"));
    if let Some(help) = text(f, "help") {
        m.open("p", &[])
            .el("strong", &[], "help: ")
            .text(help)
            .close("p");
    }
    fix(m, f.get("fix"));
    evidence(m, f);
    generic::other_fields(m, f, KNOWN);
    m.close("div");
}

/// The figures a diagnose finding is about (`evidence`): the measured value
/// against its limit, with the node and source, as a table.
fn evidence(m: &mut Markup, f: &Value) {
    let rows = list(f, "evidence");
    if rows.is_empty() {
        return;
    }
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>measured</th><th>value</th><th>limit</th><th>node</th><th>source</th></tr></thead><tbody>");
    for e in rows {
        let unit = text(e, "unit").unwrap_or("");
        let shown = |key: &str| number(e, key).map_or("—".to_string(), |v| in_unit(v, unit));
        m.open("tr", &[])
            .el(
                "td",
                &[],
                &format!(
                    "{} {}",
                    text_or_empty(e, "measure"),
                    text_or_empty(e, "statistic")
                ),
            )
            .el("td", &[("class", "num")], &shown("value"))
            .el("td", &[("class", "num")], &shown("limit"))
            .el("td", &[], text(e, "node").unwrap_or("all nodes"))
            .el("td", &[], text_or_empty(e, "source"))
            .close("tr");
    }
    m.raw("</tbody></table></div>");
}

/// A figure in its unit, as the text output writes it.
fn in_unit(v: f64, unit: &str) -> String {
    match unit {
        "bytes" => super::units::format_bytes(v),
        "rows" => format!("{} rows", super::units::format_count(v)),
        "ms" => format!("{v:.1} ms"),
        "us" => format!("{:.1} ms", v / 1000.0),
        "ratio" => format!("{v:.1}×"),
        "share" => format!("{:.0}%", v * 100.0),
        _ => super::units::format_count(v),
    }
}

/// `file:line:column · query q · rule r`, and the source line when known.
fn place(m: &mut Markup, f: &Value, sources: &Sources) {
    let file = text(f, "file");
    let line = number(f, "line").map(|n| n as usize);
    let mut parts = Vec::new();
    if let Some(file) = file {
        let mut at = file.to_string();
        if let Some(line) = line {
            at.push_str(&format!(":{line}"));
            if let Some(column) = number(f, "column") {
                at.push_str(&format!(":{column}"));
            }
        }
        parts.push(at);
    }
    if let Some(query) = text(f, "query") {
        parts.push(format!("query {query}"));
    }
    if let Some(rule) = text(f, "rule") {
        parts.push(format!("rule {rule}"));
    }
    if !parts.is_empty() {
        m.el("p", &[("class", "where")], &parts.join(" · "));
    }
    let source = file.and_then(|file| sources.get(file));
    // The terminal's excerpt with its caret; the bare line when the finding
    // has a line but no column.
    if let Some(excerpt) = source.and_then(|s| caret_excerpt(f, s)) {
        m.pre("excerpt", &excerpt);
        return;
    }
    let excerpt = source
        .zip(line)
        .and_then(|(source, line)| source.lines().nth(line.checked_sub(1)?));
    if let (Some(excerpt), Some(line)) = (excerpt, line) {
        m.pre("excerpt", &format!("{line:>4} | {excerpt}"));
    }
}

/// A fix: review's is text (a description line, then CQL); diagnose's is
/// `{description, cql}`.
fn fix(m: &mut Markup, fix: Option<&Value>) {
    match fix {
        Some(Value::String(s)) => {
            let (first, rest) = s.split_once('\n').unwrap_or((s, ""));
            m.open("p", &[])
                .el("strong", &[], "fix: ")
                .text(first)
                .close("p");
            if !rest.is_empty() {
                m.pre("cql", rest);
            }
        }
        Some(v @ Value::Object(_)) => {
            m.open("p", &[]).el("strong", &[], "fix: ");
            m.text(text_or_empty(v, "description")).close("p");
            if let Some(cql) = text(v, "cql") {
                m.pre("cql", cql);
            }
            generic::other_fields(m, v, &["description", "cql"]);
        }
        _ => {}
    }
}

/// A severity as a class-name word (letters only).
fn css_word(s: &str) -> String {
    s.chars().filter(char::is_ascii_lowercase).collect()
}

/// Findings of the JSON: an array, or the `findings` of an object.
pub fn of(model: &Value) -> &[Value] {
    match model {
        Value::Array(items) => items,
        other => list(other, "findings"),
    }
}
