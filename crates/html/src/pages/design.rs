//! `design`: the access patterns (the query → table flow and each query), every
//! table as a Chebotko diagram with the queries it serves, every write path as
//! a sequence of statements (batch, lightweight transaction, counter, what
//! happens when it fails), and where each column of each entity lives.

use serde_json::Value;

use super::design_sizing::{SIZING_KEYS, query_cost, sizing_section};
use super::design_verdict::{diagnostics_section, review_section, verdict_section};
use super::design_writes::write_paths_section;
use crate::escape::anchor;
use crate::generic;
use crate::json::{list, number_text, text, text_or_empty, texts};
use crate::layout::{Document, Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;
use cqlmodel_design::chebotko::{self, DiagramColumn, Role, TableDiagram};

const KNOWN: &[&str] = &[
    "keyspace",
    "tables",
    "queries",
    "write_paths",
    "placements",
    "warnings",
    "errors",
    "notes",
    "verdict",
    "review",
];

pub fn document(model: &Value) -> Document {
    let tables = list(model, "tables");
    let queries = list(model, "queries");
    let writes = list(model, "write_paths");
    let served = queries
        .iter()
        .filter(|q| text(q, "table").is_some())
        .count();
    let mut sections = vec![access_patterns(queries)];
    sections.extend(sizing_section(model));
    sections.extend([
        tables_section(tables),
        write_paths_section(writes),
        placements_section(list(model, "placements")),
    ]);
    let warnings = texts(model, "warnings");
    if !warnings.is_empty() {
        let mut m = Markup::new();
        m.list("notes", warnings);
        sections.insert(0, Section::new("warnings", "Warnings", m));
    }
    if model.get("review").is_some() {
        sections.insert(0, review_section(list(model, "review")));
    }
    let errors = list(model, "errors");
    if !errors.is_empty() {
        sections.insert(
            0,
            diagnostics_section("errors", "Statements not designed", errors),
        );
    }
    if let Some(verdict) = model.get("verdict").and_then(verdict_section) {
        sections.insert(0, verdict);
    }
    let notes = list(model, "notes");
    if !notes.is_empty() {
        sections.push(diagnostics_section(
            "notes",
            "Input notes (skipped or mapped)",
            notes,
        ));
    }
    let mut other = Markup::new();
    let known: Vec<&str> = KNOWN.iter().chain(SIZING_KEYS).copied().collect();
    generic::other_fields(&mut other, model, &known);
    if !other.is_empty() {
        sections.push(Section::new("other", "Other fields", other));
    }
    Document {
        title: format!("cqlmodel design: {}", text_or_empty(model, "keyspace")),
        summary: format!(
            "{} tables, {served} of {} queries served, {} write paths, {} warnings",
            tables.len(),
            queries.len(),
            writes.len(),
            list(model, "warnings").len()
        ),
        sections,
    }
}

fn access_patterns(queries: &[Value]) -> Section {
    let flows: Vec<(String, String)> = queries
        .iter()
        .filter_map(|q| Some((text(q, "name")?.to_string(), text(q, "table")?.to_string())))
        .collect();
    let open = queries.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    if !flows.is_empty() {
        let item = Item {
            id: "flow".into(),
            title: "Query → table flow".into(),
        };
        open_item(&mut m, &item, &format!("{} arrows", flows.len()), open);
        m.open("figure", &[("class", "diagram")])
            .raw(&chebotko::render_flow_svg(&flows))
            .el("figcaption", &[], "Each query and the table that serves it")
            .close("figure");
        close_item(&mut m);
    }
    let mut items = Vec::new();
    for q in queries {
        let name = text_or_empty(q, "name");
        let item = Item {
            id: anchor("query", name),
            title: name.to_string(),
        };
        let target = match text(q, "table") {
            Some(t) => format!("→ {t}"),
            None => "off the OLTP path".to_string(),
        };
        open_item(&mut m, &item, &target, open);
        query(&mut m, q);
        close_item(&mut m);
        items.push(item);
    }
    Section::new("queries", "Access patterns", m).with_items(items)
}

fn query(m: &mut Markup, q: &Value) {
    if let Some(cql) = text(q, "cql") {
        m.pre("cql", cql);
    }
    m.raw("<dl class=\"fields\">");
    if let Some(t) = text(q, "table") {
        m.el("dt", &[], "table")
            .open("dd", &[])
            .el("a", &[("href", &format!("#{}", anchor("table", t)))], t)
            .close("dd");
    }
    m.field("partitions", &number_text(q, "partitions"))
        .field("rows read", &number_text(q, "rows_read"))
        .field("statements", &number_text(q, "statements"))
        .raw("</dl>");
    m.list("notes", texts(q, "notes"));
    if let Some(off) = q.get("off_path").filter(|o| !o.is_null()) {
        m.el("h3", &[], "Off the OLTP path");
        generic::value(m, off);
    }
    if let Some(cost) = q.get("cost") {
        query_cost(m, cost);
    }
    generic::other_fields(
        m,
        q,
        &[
            "name",
            "cql",
            "table",
            "partitions",
            "rows_read",
            "statements",
            "notes",
            "off_path",
            "cost",
        ],
    );
}

fn tables_section(tables: &[Value]) -> Section {
    let open = tables.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    let mut items = Vec::new();
    for t in tables {
        let name = text_or_empty(t, "name");
        let item = Item {
            id: anchor("table", name),
            title: name.to_string(),
        };
        let serves = texts(t, "queries");
        let count = match serves.len() {
            0 => "serves no query".to_string(),
            1 => "serves 1 query".to_string(),
            n => format!("serves {n} queries"),
        };
        open_item(&mut m, &item, &count, open);
        table(&mut m, t);
        close_item(&mut m);
        items.push(item);
    }
    Section::new("tables", "Tables (Chebotko diagrams)", m).with_items(items)
}

fn table(m: &mut Markup, t: &Value) {
    m.open("figure", &[("class", "diagram")])
        .raw(&chebotko::render_svg(&diagram(t)))
        .el(
            "figcaption",
            &[],
            "K partition key · C↑/C↓ clustering column, ascending/descending · S static",
        )
        .close("figure");
    let serves = texts(t, "queries");
    if !serves.is_empty() {
        m.open("p", &[]).text("Serves: ");
        for (i, q) in serves.iter().enumerate() {
            if i > 0 {
                m.text(", ");
            }
            m.el("a", &[("href", &format!("#{}", anchor("query", q)))], q);
        }
        m.close("p");
    }
    m.raw("<dl class=\"fields\">")
        .field("kind", text_or_empty(t, "kind"));
    // Only a table that is not an ordinary one says why it exists.
    if let Some(purpose) = purpose_text(t) {
        m.field("purpose", &purpose);
    }
    m.field("entity", text_or_empty(t, "entity"))
        .field("grain", &texts(t, "grain").join(" × "))
        .field("compaction", text_or_empty(t, "compaction"))
        .field(
            "default_time_to_live",
            &number_text(t, "default_time_to_live"),
        )
        .raw("</dl>");
    generic::other_fields(
        m,
        t,
        &[
            "name",
            "kind",
            "entity",
            "grain",
            "columns",
            "partition_key",
            "clustering",
            "static",
            "queries",
            "compaction",
            "default_time_to_live",
            "purpose",
        ],
    );
}

/// `purpose` (`{"role": "hybrid_widths", "of": "t"}`) in words: "hybrid
/// widths of t".
fn purpose_text(t: &Value) -> Option<String> {
    let p = t.get("purpose")?;
    let role = text(p, "role")?.replace('_', " ");
    Some(match text(p, "of") {
        Some(of) => format!("{role} of {of}"),
        None => role,
    })
}

/// The diagram of a table from its JSON: key roles from `partition_key`,
/// `clustering` (with order) and `static`, columns in the JSON's order.
fn diagram(t: &Value) -> TableDiagram {
    let partition = texts(t, "partition_key");
    let statics = texts(t, "static");
    let clustering = list(t, "clustering");
    let role = |name: &str| {
        if partition.contains(&name) {
            return Role::PartitionKey;
        }
        if let Some(c) = clustering.iter().find(|c| text(c, "column") == Some(name)) {
            return match text(c, "order") {
                Some("DESC") => Role::ClusteringDesc,
                _ => Role::ClusteringAsc,
            };
        }
        if statics.contains(&name) {
            Role::Static
        } else {
            Role::Regular
        }
    };
    TableDiagram {
        name: text_or_empty(t, "name").to_string(),
        columns: list(t, "columns")
            .iter()
            .map(|c| {
                let name = text_or_empty(c, "name");
                DiagramColumn {
                    name: name.to_string(),
                    cql_type: text_or_empty(c, "type").to_string(),
                    role: role(name),
                }
            })
            .collect(),
        queries: texts(t, "queries").into_iter().map(String::from).collect(),
    }
}

fn placements_section(placements: &[Value]) -> Section {
    let mut m = Markup::new();
    for p in placements {
        m.el("h3", &[], text_or_empty(p, "entity"));
        m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>column</th><th>stored in</th></tr></thead><tbody>");
        for c in list(p, "columns") {
            m.raw("<tr>")
                .el("td", &[], text_or_empty(c, "column"))
                .el("td", &[], &texts(c, "stored_in").join(", "))
                .raw("</tr>");
        }
        m.raw("</tbody></table></div>");
        generic::other_fields(&mut m, p, &["entity", "columns"]);
    }
    if placements.is_empty() {
        m.el("p", &[], "No placements in the design.");
    }
    Section::new("placements", "Where each column lives", m)
}
