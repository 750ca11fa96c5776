//! The design's write paths: each mutation as a numbered sequence of
//! statements with its mechanism (logged batch, lightweight transaction,
//! counter, queue), the condition it waits for, and what happens on failure.

use serde_json::Value;

use crate::escape::anchor;
use crate::generic;
use crate::json::{flag, list, number_text, text, text_or_empty, texts};
use crate::layout::{Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

const PATH_FIELDS: &[&str] = &[
    "name",
    "kind",
    "entity",
    "rate",
    "consistency",
    "inferred",
    "write_amplification",
    "notes",
    "not_atomic",
    "statements",
];

const STATEMENT_FIELDS: &[&str] = &[
    "table",
    "cql",
    "mechanism",
    "lwt",
    "counter",
    "hybrid",
    "reason",
    "reads_first",
    "reads",
    "only_when",
    "repeat",
];

pub fn write_paths_section(paths: &[Value]) -> Section {
    let open = paths.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    let mut items = Vec::new();
    for p in paths {
        let name = text_or_empty(p, "name");
        let item = Item {
            id: anchor("write", name),
            title: name.to_string(),
        };
        let count = format!(
            "{} on {} · {} statement(s)",
            text_or_empty(p, "kind"),
            text_or_empty(p, "entity"),
            list(p, "statements").len()
        );
        open_item(&mut m, &item, &count, open);
        write_path(&mut m, p);
        close_item(&mut m);
        items.push(item);
    }
    if paths.is_empty() {
        m.el("p", &[], "No write paths in the design.");
    }
    Section::new("writes", "Write paths", m).with_items(items)
}

fn write_path(m: &mut Markup, p: &Value) {
    m.raw("<dl class=\"fields\">")
        .field("rate", &format!("{}/s", number_text(p, "rate")))
        .field("consistency", text_or_empty(p, "consistency"))
        .field(
            "write amplification",
            &number_text(p, "write_amplification"),
        )
        .field("inferred", if flag(p, "inferred") { "yes" } else { "no" })
        .raw("</dl>");
    m.list("notes", texts(p, "notes"));
    m.raw("<ol class=\"timeline\">");
    for s in list(p, "statements") {
        statement(m, s);
    }
    m.raw("</ol>");
    if let Some(not_atomic) = text(p, "not_atomic") {
        m.open("p", &[])
            .el("strong", &[], "On failure: ")
            .text(not_atomic)
            .close("p");
    }
    generic::other_fields(m, p, PATH_FIELDS);
}

fn statement(m: &mut Markup, s: &Value) {
    m.raw("<li><p>");
    m.el("span", &[("class", "phase")], text_or_empty(s, "table"))
        .text(" ");
    if let Some(mechanism) = text(s, "mechanism") {
        m.el("span", &[("class", "badge")], mechanism);
    }
    for (key, label) in [
        ("lwt", "lightweight transaction"),
        ("counter", "counter"),
        ("hybrid", "hybrid fan-out"),
    ] {
        if flag(s, key) {
            m.el("span", &[("class", "badge sev-warning")], label);
        }
    }
    m.raw("</p>");
    if let Some(cql) = text(s, "cql") {
        m.pre("cql", cql);
    }
    m.raw("<dl class=\"fields\">");
    for (key, label) in [
        ("reason", "why"),
        ("reads_first", "reads first"),
        ("only_when", "only when"),
        ("repeat", "repeated"),
    ] {
        if let Some(value) = text(s, key) {
            m.field(label, value);
        }
    }
    m.raw("</dl>");
    reads_line(m, list(s, "reads"));
    generic::other_fields(m, s, STATEMENT_FIELDS);
    m.raw("</li>");
}

/// The reads a statement makes before it writes, as data (`reads`: whose
/// rows, from which designed table, by which key): one line, with a link to
/// each table, and a warning badge for a read no designed table serves.
/// design.json without `reads` (older runs) shows nothing here.
fn reads_line(m: &mut Markup, reads: &[Value]) {
    if reads.is_empty() {
        return;
    }
    m.open("p", &[("class", "reads")])
        .el("strong", &[], "Reads first: ");
    for (i, r) in reads.iter().enumerate() {
        if i > 0 {
            m.text("; ");
        }
        m.code(text_or_empty(r, "entity"))
            .text(&format!(" by ({}) ", texts(r, "key").join(", ")));
        match text(r, "table") {
            Some(t) => {
                m.text("from ")
                    .el("a", &[("href", &format!("#{}", anchor("table", t)))], t);
            }
            None => {
                m.el(
                    "span",
                    &[("class", "badge sev-warning")],
                    "no designed table serves this read",
                );
            }
        }
    }
    m.close("p");
}
