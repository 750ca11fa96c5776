//! Fixtures of the query-path rules (`unserved-query`, `scatter-gather`,
//! `full-scan`, `olap-query`, `clustering-order-mismatch`, `unused-table`): each
//! rule alone on `tests/fixtures/<rule>/{positive,negative}.cql` and their query
//! lists, snapshotted as `cqlmodel review` prints them.

mod query_rules_common;

use cqlmodel_diagnostics::Severity;
use query_rules_common::{Reviewed, fixture, read, review_files, review_with, tests_dir};

/// The rules of this file.
const QUERY_RULES: [&str; 6] = [
    "unserved-query",
    "scatter-gather",
    "full-scan",
    "olap-query",
    "clustering-order-mismatch",
    "unused-table",
];

fn positive(rule: &str) -> query_rules_common::Reviewed {
    let reviewed = fixture(rule, "positive");
    assert!(
        !reviewed.diagnostics.is_empty(),
        "{rule}: the positive fixture finds nothing"
    );
    assert!(
        reviewed
            .diagnostics
            .iter()
            .all(|d| d.name.as_deref() == Some(rule)),
        "{rule}: {:?}",
        reviewed.summary()
    );
    reviewed
}

fn negative(rule: &str) {
    let reviewed = fixture(rule, "negative");
    assert!(
        reviewed.diagnostics.is_empty(),
        "{rule}: negative fixture:\n{}",
        reviewed.render()
    );
    insta::assert_snapshot!(format!("{rule}-negative"), reviewed.render());
}

/// The positive fixture's schema alone, with no query list.
fn without_queries(rule: &str) -> usize {
    let path = query_rules_common::tests_dir()
        .join("fixtures")
        .join(rule)
        .join("positive.cql");
    let schema = std::fs::read_to_string(&path).expect("fixture");
    review_with(("positive.cql", &schema), None, &[rule])
        .diagnostics
        .len()
}

#[test]
fn unserved_query_positive() {
    let r = positive("unserved-query");
    assert!(r.has("unserved-query", "all_devices_today", Severity::Error));
    assert!(r.has("unserved-query", "order_lookup", Severity::Error));
    insta::assert_snapshot!("unserved-query-positive", r.render());
}

#[test]
fn unserved_query_negative() {
    negative("unserved-query");
}

#[test]
fn unserved_query_is_silent_without_a_query_list() {
    assert_eq!(without_queries("unserved-query"), 0);
}

#[test]
fn scatter_gather_positive() {
    let r = positive("scatter-gather");
    assert!(r.has("scatter-gather", "orders_two_weeks", Severity::Warning));
    // `IN ?`: an unknown count is info, a warning only at a high rate, never an error.
    assert!(r.has("scatter-gather", "orders_by_ids", Severity::Info));
    assert!(r.has("scatter-gather", "cart_lookup", Severity::Warning));
    assert!(r.has("scatter-gather", "orders_two_days", Severity::Warning));
    assert!(r.diagnostics.iter().all(|d| d.severity != Severity::Error));
    insta::assert_snapshot!("scatter-gather-positive", r.render());
}

#[test]
fn scatter_gather_negative() {
    negative("scatter-gather");
}

#[test]
fn full_scan_positive() {
    let r = positive("full-scan");
    assert!(r.has("full-scan", "all_readings", Severity::Error));
    assert!(r.has("full-scan", "devices_of_owner", Severity::Error));
    assert!(r.has("full-scan", "any_ten_devices", Severity::Warning));
    assert!(r.has("full-scan", "nightly_export", Severity::Info));
    assert!(r.has("full-scan", "weekly_report", Severity::Error));
    insta::assert_snapshot!("full-scan-positive", r.render());
}

#[test]
fn full_scan_negative() {
    negative("full-scan");
}

#[test]
fn olap_query_positive() {
    let r = positive("olap-query");
    assert!(r.has("olap-query", "order_count", Severity::Warning));
    assert!(r.has("olap-query", "orders_per_day_last_week", Severity::Info));
    assert!(r.has("olap-query", "largest_order_ever", Severity::Info));
    insta::assert_snapshot!("olap-query-positive", r.render());
}

#[test]
fn olap_query_negative() {
    negative("olap-query");
}

#[test]
fn clustering_order_mismatch_positive() {
    let r = positive("clustering-order-mismatch");
    assert!(r.has("clustering-order-mismatch", "home_feed", Severity::Info));
    assert!(r.has("clustering-order-mismatch", "first_actions", Severity::Info));
    insta::assert_snapshot!("clustering-order-mismatch-positive", r.render());
}

#[test]
fn clustering_order_mismatch_negative() {
    negative("clustering-order-mismatch");
}

#[test]
fn unused_table_positive() {
    let r = positive("unused-table");
    assert_eq!(r.diagnostics.len(), 2, "{}", r.render());
    assert!(r.diagnostics.iter().all(|d| d.severity == Severity::Info));
    insta::assert_snapshot!("unused-table-positive", r.render());
}

#[test]
fn unused_table_negative() {
    negative("unused-table");
}

#[test]
fn unused_table_is_silent_without_a_query_list() {
    assert_eq!(without_queries("unused-table"), 0);
}

/// The seeds' tables (`tests/data/seeds/query-rules-*.cql`) and a query list, reviewed with the rules of this file.
fn seeds(schemas: &[&str], queries: &str) -> Reviewed {
    let dir = tests_dir().join("data").join("seeds");
    let texts: Vec<(String, String)> = schemas
        .iter()
        .map(|f| (format!("seeds/{f}"), read(&dir.join(f))))
        .collect();
    let schema_refs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let query_text = read(&dir.join(queries));
    let query_name = format!("seeds/{queries}");
    review_files(&schema_refs, Some((&query_name, &query_text)), &QUERY_RULES)
}

#[test]
fn seeds_recommended_tables_draw_no_warning_or_error() {
    let r = seeds(
        &["query-rules-recommended.cql"],
        "query-rules-recommended-queries.cql",
    );
    let loud: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity > Severity::Info)
        .collect();
    assert!(loud.is_empty(), "{}", r.render());
    insta::assert_snapshot!("seeds-recommended", r.render());
}

#[test]
fn seeds_bad_variants_draw_their_findings() {
    let mut r = seeds(
        &["query-rules-recommended.cql", "query-rules-bad.cql"],
        "query-rules-bad-queries.cql",
    );
    let expected = [
        ("full-scan", "devices_over_threshold", Severity::Error),
        ("unserved-query", "devices_over_threshold", Severity::Error),
        ("full-scan", "threshold_scan_job", Severity::Info),
        ("full-scan", "hot_sensors", Severity::Error),
        ("unserved-query", "orders_of_the_day", Severity::Error),
        (
            "unserved-query",
            "activity_of_everyone_today",
            Severity::Error,
        ),
        ("unserved-query", "sensor_without_date", Severity::Error),
        ("full-scan", "user_by_email", Severity::Error),
        ("unserved-query", "user_by_email", Severity::Error),
        ("olap-query", "revenue_per_user_day", Severity::Warning),
        ("full-scan", "revenue_per_user_day", Severity::Error),
        (
            "scatter-gather",
            "orders_of_user_all_salts",
            Severity::Warning,
        ),
        ("scatter-gather", "orders_last_week_hot", Severity::Warning),
        (
            "clustering-order-mismatch",
            "home_timeline_asc",
            Severity::Info,
        ),
    ];
    for (rule, query, severity) in expected {
        assert!(
            r.has(rule, query, severity),
            "missing {rule} {severity:?} on {query}:\n{}",
            r.render()
        );
    }
    let unused: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.name.as_deref() == Some("unused-table"))
        .filter_map(|d| d.table.clone())
        .collect();
    assert!(
        unused.contains(&"seeds.orders_by_status".to_string()),
        "{unused:?}"
    );
    // The recommended tables this list does not read are unused here by design:
    // keep the snapshot to the bad variants.
    r.diagnostics
        .retain(|d| d.name.as_deref() != Some("unused-table") || d.file != Some(0));
    insta::assert_snapshot!("seeds-bad-variants", r.render());
}
