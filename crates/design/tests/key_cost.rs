//! The cost per key (issue 10 §5) is decided from the read's shape: a read
//! returns one row per partition only when every clustering column is bound
//! by equality (or it reads a counter). A low row estimate is a mean, which a
//! skewed distribution keeps near one while the hottest key reads a page.

mod common;

use common::{design_fixture, fixture_in, json_query, query};
use cqlmodel_design::{json, report_md};

fn skewed_blog() -> cqlmodel_design::Design {
    design_fixture("blog", Some(&fixture_in("blog", "skew.toml")), None)
}

#[test]
fn a_page_read_whose_mean_is_one_row_still_costs_the_hottest_key_a_page() {
    let d = skewed_blog();
    // The estimate alone would call it a one-row read: the mean post has
    // about one comment.
    assert_eq!(query(&d, "comments_of_post").rows_read, Some(1.0));
    let j = json(&d);
    let cost = &json_query(&j, "comments_of_post")["cost"];
    assert_eq!(cost["typical"]["rows_read"], 1.0, "{cost}");
    assert!(
        cost["hottest"]["rows_per_partition"].as_f64() > Some(50_000.0),
        "{cost}"
    );
    // LIMIT 50 bounds what the hottest post's read returns.
    assert_eq!(cost["hottest"]["rows_read"], 50.0, "{cost}");
    let note = cost["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("a page of 50 bounds the read, so the hottest key reads a full page of 50 rows where the typical key reads 1"),
        "{note}"
    );
    let md = report_md(&d);
    assert!(
        md.contains(
            "| comments_of_post | `comments_by_post` | 1, 1, 1 | 1, 69480, 50 | 69479.5× |"
        ),
        "{md}"
    );
    assert!(
        !md.contains("- comments_of_post: one row per partition"),
        "{md}"
    );
}

#[test]
fn an_unbounded_read_of_a_skewed_key_says_the_hottest_reads_its_whole_partition() {
    let d = skewed_blog();
    let j = json(&d);
    let cost = &json_query(&j, "following")["cost"];
    assert_eq!(cost["typical"]["rows_read"], 1.0, "{cost}");
    assert_eq!(cost["hottest"]["rows_read"], 69480.0, "{cost}");
    let md = report_md(&d);
    assert!(
        md.contains("- following: the hottest key reads 69480 rows where the typical key reads 1: the read is not bounded by a page"),
        "{md}"
    );
}

#[test]
fn a_point_read_and_a_counter_read_still_cost_one_row_for_every_key() {
    let d = skewed_blog();
    let j = json(&d);
    for name in ["login", "favorites_count"] {
        let cost = &json_query(&j, name)["cost"];
        assert_eq!(
            cost["note"], "one row per partition: every key costs the same",
            "{name}: {cost}"
        );
        assert_eq!(cost["hottest"]["rows_read"], 1.0, "{name}: {cost}");
    }
}
