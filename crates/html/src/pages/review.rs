//! `review`: the findings grouped by table, each with its place, the source
//! line, the notes and the fix.

use serde_json::Value;

use super::findings;
use crate::Sources;
use crate::layout::{Document, Section};
use crate::markup::Markup;

pub fn document(model: &Value, sources: &Sources) -> Document {
    let all = findings::of(model);
    let refs: Vec<&Value> = all.iter().collect();
    let tables = findings::by_table(all).len();
    let mut sections = vec![findings::section(
        "findings",
        "Findings by table",
        all,
        sources,
    )];
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
