//! design.json's sizing fields (`horizon`, `foreign_key_growth`, `per_key`,
//! `queries[].cost`) and write statements' `reads` get sections of their own,
//! never the generic "Other fields" fallback; a design.json without them
//! (an older run) still renders.

use cqlmodel_html::{Page, Sources, render};
use serde_json::Value;

fn fixture() -> Value {
    let text = include_str!("data/design-sizing.json");
    serde_json::from_str(text).expect("the fixture is JSON")
}

/// The `<section id=…>` of `html`, from its opening tag to its close.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").expect("closed") + start;
    &html[start..end]
}

/// The section as one line per tag, for a snapshot a reader can review.
fn lines(html: &str) -> String {
    html.replace("><", ">\n<")
}

#[test]
fn the_sizing_fields_are_not_other_fields() {
    let html = render(Page::Design, &fixture(), &Sources::new());
    assert!(!html.contains("id=\"other\""), "no Other fields section");
    for key in [
        "horizon",
        "foreign_key_growth",
        "per_key",
        "cost",
        "reads",
        "typical",
        "hottest",
    ] {
        assert!(
            !html.contains(&format!("<dt>{key}</dt>")),
            "{key} fell to a generic field list"
        );
    }
}

#[test]
fn the_sizing_section_shows_units_decisions_and_both_keys() {
    let html = render(Page::Design, &fixture(), &Sources::new());
    let sizing = section(&html, "sizing");
    // The horizon and where it came from.
    assert!(
        sizing.contains("<strong>2y</strong> (--horizon)"),
        "{sizing}"
    );
    // Counts and sizes with units; a tiny rows-per-bucket is not rounded to 0.
    assert!(sizing.contains(">7.98 MB<"), "{sizing}");
    assert!(sizing.contains(">7.88M (growing)<"), "{sizing}");
    assert!(sizing.contains(">1.3e-3<"), "{sizing}");
    // The decision text, escaped, and the hot keys with their share.
    assert!(
        sizing.contains("truck &lt;walks&gt; 731 buckets"),
        "{sizing}"
    );
    assert!(sizing.contains("35 keys over 100k rows (41% of the rows)"));
    insta::assert_snapshot!("design_sizing_section", lines(sizing));
}

#[test]
fn a_query_block_shows_its_cost_for_typical_and_hottest_key() {
    let html = render(Page::Design, &fixture(), &Sources::new());
    let queries = section(&html, "queries");
    let block = &queries[queries.find("id=\"query-recent_readings\"").expect("block")..];
    let block = &block[..block.find("</details>").expect("closed")];
    assert!(
        block.contains(
            "<dt>typical key (p50)</dt><dd>2 partition(s) × 1 row(s) (64 B each), 2 row(s) read</dd>"
        ),
        "{block}"
    );
    assert!(block.contains(
        "<dt>hottest key (max)</dt><dd>1 partition(s) × 125k row(s) (7.98 MB each), 50 row(s) read</dd>"
    ));
    assert!(block.contains("<dd>125k×: the hottest truck reads 25×"));
    // A read without a cost (null) shows no cost lines.
    let truck = &queries[queries.find("id=\"query-truck\"").expect("block")..];
    assert!(!truck[..truck.find("</details>").expect("closed")].contains("typical key"));
}

#[test]
fn a_write_statement_says_what_it_reads_first() {
    let html = render(Page::Design, &fixture(), &Sources::new());
    let writes = section(&html, "writes");
    let reads = &writes[writes.find("<p class=\"reads\">").expect("a reads line")..];
    let reads = &reads[..reads.find("</p>").expect("closed")];
    insta::assert_snapshot!("design_statement_reads", lines(reads));
    assert_eq!(writes.matches("<p class=\"reads\">").count(), 1);
}

#[test]
fn a_design_without_the_newer_fields_still_renders() {
    let mut model = fixture();
    let object = model.as_object_mut().expect("an object");
    for key in ["horizon", "foreign_key_growth", "per_key"] {
        object.remove(key);
    }
    for q in model["queries"].as_array_mut().expect("queries") {
        q.as_object_mut().expect("a query").remove("cost");
    }
    for p in model["write_paths"].as_array_mut().expect("paths") {
        for s in p["statements"].as_array_mut().expect("statements") {
            s.as_object_mut().expect("a statement").remove("reads");
        }
    }
    let html = render(Page::Design, &model, &Sources::new());
    assert!(!html.contains("id=\"sizing\""));
    assert!(!html.contains("class=\"reads\""));
    assert!(!html.contains("id=\"other\""));
    assert!(html.contains("id=\"write-move_truck\""));
}

#[test]
fn the_synthetic_design_shows_every_field_in_its_own_section() {
    let model = cqlmodel_html::sample::synthetic_design(60);
    let html = render(Page::Design, &model, &Sources::new());
    assert!(
        !html.contains("class=\"fields other\""),
        "a generic field list"
    );
    assert!(html.contains("id=\"sizing\""));
    // Six write paths of three statements each; one in three reads first.
    assert_eq!(html.matches("<p class=\"reads\">").count(), 6);
    assert!(html.contains("&lt;one layout serves both&gt;"));
}

/// A table's `purpose` (why a table that is not an ordinary one exists) is a
/// field in words, not a generic nested list.
#[test]
fn a_tables_purpose_is_a_field_in_words() {
    let mut design = fixture();
    let tables = design["tables"].as_array_mut().expect("tables");
    let first = tables.first_mut().expect("a table");
    first["purpose"] = serde_json::json!({"role": "hybrid_widths", "of": "plays_by_episode"});
    let html = render(Page::Design, &design, &Sources::new());
    assert!(
        html.contains("<dt>purpose</dt><dd>hybrid widths of plays_by_episode</dd>"),
        "{}",
        section(&html, "tables")
    );
    assert!(
        !html.contains("<dt>role</dt>"),
        "purpose fell to a generic field list"
    );
}

#[test]
fn every_foreign_key_kind_has_its_legend_line() {
    // `default` and `unsized` (a parent the statistics do not size, a child
    // of fixed size: no age) had no line in the legend, so a reader saw the
    // word with nothing saying what it assumes.
    let mut json = fixture();
    let extra: Value = serde_json::json!([
        {"entity": "stops", "column": "depot_id", "parent": "depots", "per_parent": "default",
         "given_distinct": null, "distinct": 5000.0, "children_per_parent": 25.2, "age": 63072000},
        {"entity": "drivers", "column": "region_id", "parent": "regions", "per_parent": "unsized",
         "given_distinct": null, "distinct": 1000.0, "children_per_parent": 3.0, "age": null}
    ]);
    let growth = json["foreign_key_growth"].as_array_mut().expect("a list");
    growth.extend(extra.as_array().expect("a list").iter().cloned());
    let html = render(Page::Design, &json, &Sources::new());
    let sizing = section(&html, "sizing");
    assert!(
        sizing.contains("<strong>default</strong>: as for given, but the statistics give no"),
        "{sizing}"
    );
    assert!(
        sizing.contains(
            "<strong>unsized</strong>: the statistics size neither the parent nor the column"
        ),
        "{sizing}"
    );
    // The fixed-size child has no age.
    assert!(sizing.contains(">3 (unsized)<"), "{sizing}");
    assert!(
        sizing.contains("<code>drivers.region_id</code>"),
        "{sizing}"
    );
}
