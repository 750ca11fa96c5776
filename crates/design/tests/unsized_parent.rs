//! A foreign key whose parent the statistics do not size (issue 10 §5): its
//! values are the size command's constant default, and the design says so
//! as a foreign key (which parent, what to give) in the foreign-key section
//! of report.md, in design.json and on the tables keyed by it, not as an
//! anonymous column that "nothing counts".

mod common;

use common::{decisions, design_fixture};
use cqlmodel_design::{json, report_md};

/// Posts grow and comments are a fixed count; users, whom both refer to,
/// have no statistics.
const STATS: &str = "[table.posts]\nrows_per_second = 5\n\n[table.comments]\nrows = 1000000\n";

const SENTENCE: &str = "`posts.author_id` refers to `users`, which the statistics do not size: 1k values assumed (give `rows` for `users` or `distinct` for the column)";

#[test]
fn the_table_keyed_by_the_reference_says_which_parent_is_not_sized() {
    let d = design_fixture("blog", Some(STATS), None);
    let said = decisions(&d, "posts_by_author");
    assert!(said.contains(&format!("sizing: {SENTENCE}")), "{said}");
    assert!(!said.contains("nothing else counts its values"), "{said}");
}

#[test]
fn the_foreign_key_section_lists_the_reference_with_its_assumed_count() {
    let d = design_fixture("blog", Some(STATS), None);
    let md = report_md(&d);
    let section = md
        .split("### Foreign keys over the horizon")
        .nth(1)
        .unwrap_or_else(|| panic!("no foreign-key section: {md}"));
    // 5/s over 3 years is 473M posts over 1,000 assumed authors.
    assert!(
        section.contains("| `posts.author_id` | `users` | unsized, 473k | 1k (—) | 3y |"),
        "{section}"
    );
    assert!(
        section.contains(&format!(
            "- {SENTENCE}, about 473k `posts` rows per value at 3y"
        )),
        "{section}"
    );
    // A child of fixed size is listed too, with no age.
    assert!(
        section.contains("| `comments.author_id` | `users` | unsized, 1k | 1k (—) | — |"),
        "{section}"
    );
    let j = json(&d);
    let growth = j["foreign_key_growth"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let posts = growth
        .iter()
        .find(|g| g["entity"] == "posts" && g["column"] == "author_id")
        .unwrap_or_else(|| panic!("{growth:?}"));
    assert_eq!(posts["per_parent"], "unsized");
    assert_eq!(posts["parent"], "users");
    assert_eq!(posts["distinct"], 1000.0);
    assert_eq!(posts["age"], 3 * 365 * 86_400);
}

#[test]
fn a_sized_parent_is_no_assumption() {
    let stats = format!("{STATS}\n[table.users]\nrows = 200000\n");
    let d = design_fixture("blog", Some(&stats), None);
    assert!(!report_md(&d).contains("which the statistics do not size"));
    assert!(!decisions(&d, "posts_by_author").contains("do not size"));
}
