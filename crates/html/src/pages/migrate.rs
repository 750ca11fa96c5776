//! `migrate`: the plan's phases as a timeline (what each change does in each
//! phase: schema statements, dual writes, backfill, switched reads), then each
//! change with its reason, and the dry run.

use serde_json::Value;

use super::units::{format_bytes, format_count};
use crate::escape::anchor;
use crate::generic;
use crate::json::{flag, list, number, text, text_or_empty, texts};
use crate::layout::{Document, Item, OPEN_ITEMS_UP_TO, Section, close_item, open_item};
use crate::markup::Markup;

/// The phases of a plan, in order, as the JSON names them.
const PHASES: [&str; 7] = [
    "create",
    "dual-write",
    "backfill",
    "verify",
    "switch-reads",
    "stop-old-writes",
    "drop",
];

const CHANGE_FIELDS: &[&str] = &[
    "kind",
    "object",
    "object_kind",
    "table",
    "reason",
    "flagged",
    "items",
    "statements",
    "rebuild",
    "warnings",
];

pub fn document(model: &Value) -> Document {
    let changes = list(model, "changes");
    let count = |kind: &str| {
        changes
            .iter()
            .filter(|c| text(c, "kind") == Some(kind))
            .count()
    };
    let flagged = changes.iter().filter(|c| flag(c, "flagged")).count();
    let mut sections = vec![timeline(changes), changes_section(changes)];
    if let Some(dry_run) = model.get("dry_run") {
        let mut m = Markup::new();
        generic::value(&mut m, dry_run);
        sections.push(Section::new("dry-run", "Dry run (OLD + plan = NEW?)", m));
    }
    let mut other = Markup::new();
    generic::other_fields(&mut other, model, &["changes", "dry_run"]);
    if !other.is_empty() {
        sections.push(Section::new("other", "Other fields", other));
    }
    Document {
        title: "cqlmodel migrate".into(),
        summary: format!(
            "{} change(s): {} alter, {} rebuild, {} create, {} drop; {flagged} need a decision",
            changes.len(),
            count("alter"),
            count("rebuild"),
            count("create"),
            count("drop")
        ),
        sections,
    }
}

fn timeline(changes: &[Value]) -> Section {
    let mut m = Markup::new();
    m.raw("<ol class=\"timeline\">");
    for (number, phase) in PHASES.iter().enumerate() {
        let mut body = Markup::new();
        for c in changes {
            phase_of_change(&mut body, c, phase);
        }
        let class = if body.is_empty() { "idle" } else { "busy" };
        m.open("li", &[("class", class)]).el(
            "span",
            &[("class", "phase")],
            &format!("phase {} {phase}", number + 1),
        );
        if body.is_empty() {
            m.text(": nothing in this plan");
        } else {
            m.raw(&body.into_string());
        }
        m.close("li");
    }
    m.raw("</ol>");
    Section::new("phases", "Phases", m)
}

/// What `change` does in `phase`; nothing when it has no part in it.
fn phase_of_change(m: &mut Markup, change: &Value, phase: &str) {
    let object = text_or_empty(change, "object");
    let statements: Vec<&str> = list(change, "statements")
        .iter()
        .filter(|s| text(s, "phase") == Some(phase))
        .flat_map(|s| texts(s, "statements"))
        .collect();
    let rebuild = change.get("rebuild").filter(|r| !r.is_null());
    let steps: &[Value] = match (phase, rebuild) {
        ("dual-write", Some(r)) => list(r, "dual_writes"),
        ("switch-reads", Some(r)) => list(r, "reads"),
        _ => &[],
    };
    let backfill = rebuild
        .and_then(|r| r.get("backfill"))
        .filter(|b| phase == "backfill" && !b.is_null());
    if statements.is_empty() && steps.is_empty() && backfill.is_none() {
        return;
    }
    m.open("p", &[])
        .el(
            "a",
            &[("href", &format!("#{}", anchor("change", object)))],
            object,
        )
        .close("p");
    if steps.is_empty() && !statements.is_empty() {
        m.pre("cql", &statements.join("\n"));
    }
    for step in steps {
        m.open("p", &[])
            .el("strong", &[], text_or_empty(step, "name"))
            .text(&format!(
                " ({}): {}",
                text(step, "consistency").unwrap_or("no consistency given"),
                text_or_empty(step, "served")
            ))
            .close("p");
        if let Some(new) = text(step, "new") {
            m.pre("cql", new);
        }
        m.list("notes", texts(step, "notes"));
    }
    if let Some(b) = backfill {
        backfill_step(m, b);
    }
}

fn backfill_step(m: &mut Markup, b: &Value) {
    if let Some(sizing) = b.get("sizing").filter(|s| !s.is_null()) {
        let rows = number(sizing, "rows").map_or("—".into(), format_count);
        let bytes = number(sizing, "bytes").map_or("—".into(), format_bytes);
        let hours = number(sizing, "hours").map_or("—".into(), |h| format!("{h} h"));
        let rate = number(sizing, "rows_per_second").map_or("—".into(), format_count);
        m.el(
            "p",
            &[],
            &format!("{rows} rows, {bytes}, {hours} at {rate} rows/s"),
        );
    }
    m.list("notes", texts(b, "transformation"));
    m.list("notes", texts(b, "caveats"));
    if let Some(why) = text(b, "cdm_why") {
        m.open("p", &[])
            .el("strong", &[], "cassandra-data-migrator: ")
            .text(why)
            .close("p");
    }
    for (key, label) in [
        ("dsbulk", "DSBulk"),
        ("cdm_properties", "cassandra-data-migrator properties"),
    ] {
        if let Some(script) = text(b, key) {
            m.open("details", &[]).el("summary", &[], label);
            m.pre("script", script).close("details");
        }
    }
}

fn changes_section(changes: &[Value]) -> Section {
    let open = changes.len() <= OPEN_ITEMS_UP_TO;
    let mut m = Markup::new();
    let mut items = Vec::new();
    for c in changes {
        let object = text_or_empty(c, "object");
        let item = Item {
            id: anchor("change", object),
            title: format!("{} {object}", text_or_empty(c, "kind")),
        };
        let note = if flag(c, "flagged") {
            "needs a decision"
        } else {
            ""
        };
        open_item(&mut m, &item, note, open);
        m.open("p", &[])
            .el("strong", &[], "why: ")
            .text(text_or_empty(c, "reason"))
            .close("p");
        m.list("notes", texts(c, "warnings"));
        let items_list = list(c, "items");
        if !items_list.is_empty() {
            generic::value(&mut m, &Value::Array(items_list.to_vec()));
        }
        if let Some(r) = c.get("rebuild").filter(|r| !r.is_null()) {
            rebuild(&mut m, r);
        }
        generic::other_fields(&mut m, c, CHANGE_FIELDS);
        close_item(&mut m);
        items.push(item);
    }
    if changes.is_empty() {
        m.el(
            "p",
            &[("class", "ok")],
            "OLD and NEW are the same schema: nothing to do.",
        );
    }
    Section::new("changes", "Changes", m).with_items(items)
}

fn rebuild(m: &mut Markup, r: &Value) {
    m.el(
        "p",
        &[],
        &format!(
            "{} → {}",
            text_or_empty(r, "old_table"),
            text_or_empty(r, "new_table")
        ),
    );
    let columns = list(r, "columns");
    if !columns.is_empty() {
        m.raw("<div class=\"scroll\"><table class=\"data\"><thead><tr><th>column</th><th>type</th><th>key</th><th>source</th></tr></thead><tbody>");
        for c in columns {
            let source = c.get("source").unwrap_or(&Value::Null);
            let from = match text(source, "expr") {
                Some(expr) => format!("{} ({expr})", text_or_empty(source, "kind")),
                None => text_or_empty(source, "kind").to_string(),
            };
            m.raw("<tr>")
                .el("td", &[], text_or_empty(c, "column"))
                .el("td", &[], text_or_empty(c, "ty"))
                .el("td", &[], if flag(c, "key") { "key" } else { "" })
                .el("td", &[], &from)
                .raw("</tr>");
        }
        m.raw("</tbody></table></div>");
    }
    generic::other_fields(
        m,
        r,
        &[
            "old_table",
            "new_table",
            "columns",
            "dual_writes",
            "reads",
            "backfill",
        ],
    );
}
