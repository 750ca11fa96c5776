//! `review`: the query list's shape (`workload`), then the findings grouped by
//! table, each with its place, the source excerpt with its caret, the notes
//! and the fix, then the input's own problems.

use serde_json::Value;

use super::findings;
use crate::Sources;
use crate::layout::{Document, Section};
use crate::markup::Markup;

pub fn document(model: &Value, sources: &Sources) -> Document {
    let all = findings::of(model);
    let refs: Vec<&Value> = all.iter().collect();
    let tables = findings::by_table(all).len();
    let mut sections: Vec<Section> = model
        .get("workload")
        .and_then(super::review_workload::section)
        .into_iter()
        .collect();
    sections.push(findings::section(
        "findings",
        "Findings by table",
        all,
        sources,
    ));
    let input = crate::json::list(model, "input");
    if !input.is_empty() {
        sections.push(findings::section(
            "input",
            "Problems in the input",
            input,
            sources,
        ));
    }
    if let Some(errors) = model.get("errors") {
        let mut m = Markup::new();
        crate::generic::value(&mut m, errors);
        sections.push(Section::new("errors", "Input errors", m));
    }
    Document {
        title: "cqlmodel review".into(),
        summary: format!(
            "{} findings on {tables} tables: {}",
            all.len(),
            findings::severity_counts(&refs)
        ),
        sections,
    }
}
