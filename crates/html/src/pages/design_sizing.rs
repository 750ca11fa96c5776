//! `design`: what each read costs at the sizing horizon — the horizon itself,
//! the foreign keys' children per parent at that age, each read's cost for the
//! typical key (median partition) and the hottest (largest), and the tables
//! where one bucket width cannot serve both (per-key strategies), with the
//! design's decision and the alternative it did not build.

use serde_json::Value;

use super::units::{format_bytes, format_count};
use crate::escape::anchor;
use crate::json::{list, number, number_text, text, text_or_empty};
use crate::layout::{Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

/// The top-level keys of design.json this section shows.
pub const SIZING_KEYS: &[&str] = &["horizon", "foreign_key_growth", "per_key"];

/// The section, or `None` when design.json carries none of its fields (a
/// design.json from before they existed).
pub fn sizing_section(model: &Value) -> Option<Section> {
    let costs: Vec<&Value> = list(model, "queries")
        .iter()
        .filter_map(|q| q.get("cost").filter(|c| c.is_object()))
        .collect();
    let known = SIZING_KEYS.iter().any(|k| model.get(*k).is_some());
    if !known && costs.is_empty() {
        return None;
    }
    let mut m = Markup::new();
    horizon_line(&mut m, model.get("horizon"));
    foreign_keys(&mut m, list(model, "foreign_key_growth"));
    cost_table(&mut m, &costs);
    per_key(&mut m, list(model, "per_key"));
    Some(Section::new(
        "sizing",
        "Cost per key: typical and hottest",
        m,
    ))
}

fn horizon_line(m: &mut Markup, horizon: Option<&Value>) {
    let Some(h) = horizon.filter(|h| h.is_object()) else {
        return;
    };
    m.open("p", &[])
        .text("Growth with no retention is sized at a horizon of ")
        .el("strong", &[], text_or_empty(h, "text"))
        .text(&format!(" ({})", text_or_empty(h, "source")))
        .text(". The typical key is the median partition (p50), the hottest the largest (max).")
        .close("p");
}

/// What each `per_parent` value means, as the report explains it: said once
/// above the table rather than in every row.
const PER_PARENT_MEANINGS: &[(&str, &str)] = &[
    (
        "constant",
        "the parent grows too: its distinct values grow with the parent's rows, and the children per parent stay the ratio of the two growth rates (a `distinct` in the statistics is one moment's count and is not kept fixed)",
    ),
    (
        "growing",
        "the parent does not grow: each parent's children grow with the age",
    ),
    (
        "given",
        "a reference to the entity itself, or one side expires: the statistics' count is kept",
    ),
    (
        "default",
        "as for given, but the statistics give no `distinct` for the column: every parent row is assumed to have children (the parent's rows at its horizon)",
    ),
    (
        "unsized",
        "the statistics size neither the parent nor the column: the size command's default count is assumed (give `rows` for the parent or `distinct` for the column)",
    ),
];

fn foreign_keys(m: &mut Markup, growth: &[Value]) {
    if growth.is_empty() {
        return;
    }
    m.el("h3", &[], "Foreign keys over the horizon");
    m.open("ul", &[("class", "notes")]);
    // The legend names only the kinds the table shows.
    let shown = |kind: &str| growth.iter().any(|g| text(g, "per_parent") == Some(kind));
    for (kind, meaning) in PER_PARENT_MEANINGS.iter().filter(|(k, _)| shown(k)) {
        m.open("li", &[])
            .el("strong", &[], kind)
            .text(": ")
            .prose(meaning)
            .close("li");
    }
    m.close("ul");
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>foreign key</th><th>parent</th><th>children per parent</th><th>distinct values</th><th>given in the statistics</th><th>at age</th></tr></thead><tbody>");
    for g in growth {
        let kind = text_or_empty(g, "per_parent");
        m.raw("<tr><td class=\"name\">")
            .code(&format!(
                "{}.{}",
                text_or_empty(g, "entity"),
                text_or_empty(g, "column")
            ))
            .raw("</td><td class=\"name\">")
            .code(text_or_empty(g, "parent"))
            .raw("</td>");
        num_cell(
            m,
            &format!("{} ({kind})", count_text(g, "children_per_parent")),
        );
        num_cell(m, &count_text(g, "distinct"));
        num_cell(m, &count_text(g, "given_distinct"));
        num_cell(m, &age_text(g));
        m.raw("</tr>");
    }
    m.raw("</tbody></table></div>");
}

fn cost_table(m: &mut Markup, costs: &[&Value]) {
    m.el("h3", &[], "Cost of each read per key");
    if costs.is_empty() {
        m.el("p", &[], "No read is served by a sized table.");
        return;
    }
    // A long table starts closed, as a section's many blocks do: the page
    // opens fast and find-in-page still searches it.
    let block = Item {
        id: "cost-per-read".into(),
        title: "Typical and hottest key of every read".into(),
    };
    let count = match costs.len() {
        1 => "1 read".to_string(),
        n => format!("{n} reads"),
    };
    open_item(m, &block, &count, costs.len() <= OPEN_ITEMS_UP_TO);
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th rowspan=\"2\">query</th><th rowspan=\"2\">table</th><th colspan=\"4\">typical key</th><th colspan=\"4\">hottest key</th><th rowspan=\"2\">skew (max / p50)</th></tr><tr>");
    for _ in 0..2 {
        m.raw("<th>partitions</th><th>rows / partition</th><th>size / partition</th><th>rows read</th>");
    }
    m.raw("</tr></thead><tbody>");
    for c in costs {
        let query = text_or_empty(c, "query");
        let table = text_or_empty(c, "table");
        m.raw("<tr><td class=\"name\">")
            .el(
                "a",
                &[("href", &format!("#{}", anchor("query", query)))],
                query,
            )
            .raw("</td><td class=\"name\">")
            .el(
                "a",
                &[("href", &format!("#{}", anchor("table", table)))],
                table,
            )
            .raw("</td>");
        for side in ["typical", "hottest"] {
            key_side_cells(m, c.get(side).unwrap_or(&Value::Null));
        }
        num_cell(m, &format!("{}×", count_text(c, "skew")));
        m.raw("</tr>");
    }
    m.raw("</tbody></table></div>");
    m.open("ul", &[("class", "notes")]);
    for c in costs {
        m.open("li", &[])
            .el("strong", &[], text_or_empty(c, "query"))
            .text(": ")
            .prose(text_or_empty(c, "note"))
            .close("li");
    }
    m.close("ul");
    close_item(m);
}

fn key_side_cells(m: &mut Markup, side: &Value) {
    num_cell(m, &count_text(side, "partitions"));
    num_cell(m, &count_text(side, "rows_per_partition"));
    num_cell(
        m,
        &number(side, "bytes_per_partition").map_or_else(|| "—".into(), format_bytes),
    );
    num_cell(m, &count_text(side, "rows_read"));
}

/// One read's cost inside its access-pattern block: a line each for the
/// typical and the hottest key, and the note that compares them. Lines, not
/// a table: a design of hundreds of reads has one block per read, and the
/// section's table already sets them side by side.
pub fn query_cost(m: &mut Markup, cost: &Value) {
    if !cost.is_object() {
        return;
    }
    m.raw("<dl class=\"fields\">");
    for (side, label) in [
        ("typical", "typical key (p50)"),
        ("hottest", "hottest key (max)"),
    ] {
        m.field(
            label,
            &key_side_line(cost.get(side).unwrap_or(&Value::Null)),
        );
    }
    m.el("dt", &[], "skew")
        .open("dd", &[])
        .text(&format!("{}×: ", count_text(cost, "skew")))
        .prose(text_or_empty(cost, "note"))
        .close("dd")
        .raw("</dl>");
}

/// `3 partition(s) × 40 row(s) (9.6 KB each), 100 row(s) read`.
fn key_side_line(side: &Value) -> String {
    format!(
        "{} partition(s) × {} row(s) ({} each), {} row(s) read",
        count_text(side, "partitions"),
        count_text(side, "rows_per_partition"),
        number(side, "bytes_per_partition").map_or_else(|| "—".into(), format_bytes),
        count_text(side, "rows_read")
    )
}

fn per_key(m: &mut Markup, plans: &[Value]) {
    if plans.is_empty() {
        return;
    }
    m.el("h3", &[], "Per-key strategies");
    m.el("p", &[], "Where the bucket width that fits the hottest key makes the typical key walk many buckets: statements a page runs with the one width the design uses, and with each key's own width.");
    m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>table</th><th>width</th><th>page (rows)</th><th>key</th><th>rows</th><th>rows / bucket</th><th>statements a page, one width</th><th>own width</th><th>statements a page, own width</th></tr></thead><tbody>");
    for p in plans {
        for side in ["typical", "hottest"] {
            per_key_row(m, p, side);
        }
    }
    m.raw("</tbody></table></div>");
    for p in plans {
        per_key_decision(m, p);
    }
}

fn per_key_row(m: &mut Markup, p: &Value, side: &str) {
    let k = p.get(side).unwrap_or(&Value::Null);
    let table = text_or_empty(p, "table");
    m.raw("<tr><td class=\"name\">")
        .el(
            "a",
            &[("href", &format!("#{}", anchor("table", table)))],
            table,
        )
        .raw("</td><td>")
        .code(text_or_empty(p, "width"))
        .raw("</td>");
    num_cell(m, &number_text(p, "page"));
    m.el("td", &[], side);
    num_cell(m, &count_text(k, "rows"));
    num_cell(m, &count_text(k, "rows_per_bucket"));
    num_cell(m, &count_text(k, "statements_one_width"));
    m.raw("<td>")
        .code(text_or_empty(k, "own_width"))
        .raw("</td>");
    num_cell(m, &count_text(k, "statements_own_width"));
    m.raw("</tr>");
}

/// The decision and the alternative of one table, with the keys over the
/// threshold when the distribution says how many.
fn per_key_decision(m: &mut Markup, p: &Value) {
    m.open("h4", &[])
        .code(text_or_empty(p, "table"))
        .close("h4");
    let hot = match (number(p, "hot_keys"), number(p, "hot_share")) {
        (Some(keys), Some(share)) => format!(
            "{} keys over {} rows ({} of the rows)",
            format_count(keys),
            count_text(p, "threshold_rows"),
            super::units::percent(share * 100.0)
        ),
        _ => format!(
            "keys over {} rows (the distribution does not say how many)",
            count_text(p, "threshold_rows")
        ),
    };
    m.raw("<dl class=\"fields\">").field("hot keys", &hot);
    for (key, label) in [
        ("chosen", "the design chooses"),
        ("hybrid", "the alternative"),
    ] {
        m.el("dt", &[], label)
            .open("dd", &[])
            .prose(text_or_empty(p, key))
            .close("dd");
    }
    m.raw("</dl>");
}

/// A right-aligned number cell.
fn num_cell(m: &mut Markup, value: &str) {
    m.el("td", &[("class", "num")], value);
}

/// A count with three significant digits; a fraction under 0.01 (rows per
/// bucket of a cold key) in scientific notation rather than rounded to 0.
fn count_text(v: &Value, key: &str) -> String {
    match number(v, key) {
        Some(n) if n > 0.0 && n < 0.01 => format!("{n:.1e}"),
        Some(n) => format_count(n),
        None => "—".into(),
    }
}

/// The age a foreign key is sized at, as a duration (`3y`).
fn age_text(g: &Value) -> String {
    g.get("age")
        .and_then(Value::as_u64)
        .map_or_else(|| "—".into(), cqlmodel_stats::units::format_duration)
}
