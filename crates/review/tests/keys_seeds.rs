//! Acceptance on the seeds (`../shared/seeds`, copied to `tests/data/seeds/keys-*`):
//! their recommended tables pass the key and size rules (feed_by_user at most an
//! info), seed 000's temp_by_device warns with the bucketed fix, and the bad
//! variants produce the expected findings.

mod common_keys;

use common_keys::{KEY_RULES, data_dir, read, review_with};

fn seed(name: &str) -> (String, String) {
    let dir = data_dir().join("data").join("seeds");
    (
        read(&dir.join(format!("{name}.cql"))),
        read(&dir.join(format!("{name}.queries.cql"))),
    )
}

#[test]
fn recommended_tables_raise_no_warning() {
    let (schema, queries) = seed("keys-recommended");
    let reviewed = review_with(&schema, Some(&queries), None, KEY_RULES);
    assert!(reviewed.serious().is_empty(), "{}", reviewed.text);
    for d in &reviewed.diagnostics {
        assert_eq!(
            d.table.as_deref(),
            Some("seeds.feed_by_user"),
            "only feed_by_user may get an info:\n{}",
            reviewed.text
        );
    }
    insta::assert_snapshot!(reviewed.text);
}

#[test]
fn seed_000_temp_by_device_warns_with_the_bucketed_fix() {
    let (schema, queries) = seed("keys-temp-by-device");
    let reviewed = review_with(&schema, Some(&queries), None, KEY_RULES);
    let serious = reviewed.serious();
    assert_eq!(serious.len(), 1, "{}", reviewed.text);
    let d = serious[0];
    assert_eq!(d.name.as_deref(), Some("unbounded-partition"));
    assert_eq!(d.table.as_deref(), Some("iot.temp_by_device"));
    let fix = d
        .fix
        .as_ref()
        .and_then(|f| f.replacement.as_deref())
        .unwrap_or_default();
    assert!(fix.contains("PRIMARY KEY ((device_id, day), ts)"), "{fix}");
    assert!(
        fix.contains("'TimeWindowCompactionStrategy'"),
        "the rewrite keeps the options: {fix}"
    );
    insta::assert_snapshot!(reviewed.text);
}

#[test]
fn bad_variants_produce_the_expected_findings() {
    let (schema, queries) = seed("keys-bad-variants");
    let reviewed = review_with(&schema, Some(&queries), None, KEY_RULES);
    let has = |rule: &str, table: &str| {
        reviewed
            .serious()
            .iter()
            .any(|d| d.name.as_deref() == Some(rule) && d.table.as_deref() == Some(table))
    };
    assert!(
        has("unbounded-partition", "bad.sensor_readings"),
        "{}",
        reviewed.text
    );
    assert!(
        has("hot-partition", "bad.orders_by_day"),
        "{}",
        reviewed.text
    );
    assert!(
        has("secondary-index-misuse", "bad.users"),
        "{}",
        reviewed.text
    );
    let index_query = reviewed.serious().iter().any(|d| {
        d.name.as_deref() == Some("secondary-index-misuse")
            && d.query.as_deref() == Some("user_by_email")
    });
    assert!(
        index_query,
        "the query through the index is reported:\n{}",
        reviewed.text
    );
    insta::assert_snapshot!(reviewed.text);
}
