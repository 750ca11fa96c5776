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
    // A top-level field this page does not lay out yet still shows.
    let mut other = Markup::new();
    crate::generic::other_fields(
        &mut other,
        model,
        &[
            "version",
            "exit_code",
            "summary",
            "workload",
            "input",
            "findings",
            "errors",
        ],
    );
    if !other.is_empty() {
        sections.push(Section::new("other", "Other fields", other));
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::document;
    use crate::Sources;

    #[test]
    fn a_new_top_level_field_shows_and_the_known_ones_are_laid_out() {
        let model = json!({"version": 1, "exit_code": 0, "summary": {"errors": 0},
            "workload": null, "input": [], "findings": [], "baseline": "b-17"});
        let d = document(&model, &Sources::new());
        let other = d.sections.iter().find(|s| s.id == "other").expect("other");
        assert!(other.body.contains("baseline") && other.body.contains("b-17"));
        assert!(!other.body.contains("exit_code"));
    }
}
