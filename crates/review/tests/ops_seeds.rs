//! The seeds' recommended tables, with their queries, raise no warning or error
//! from the operational rules; their bad variants raise the expected findings.
//! Data: `tests/data/seeds/ops-*.cql` (from `../shared/seeds/`).

mod common_ops;

use common_ops::{OPS_RULES, review_texts};
use cqlmodel_diagnostics::Severity;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/seeds");

fn review_seed(schema: &str, queries: &str) -> common_ops::Outcome {
    let read = |name: &str| {
        std::fs::read_to_string(format!("{DIR}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let schema_name = format!("tests/data/seeds/{schema}");
    let queries_name = format!("tests/data/seeds/{queries}");
    review_texts(
        &schema_name,
        &read(schema),
        Some((queries_name.as_str(), read(queries).as_str())),
        OPS_RULES,
    )
}

#[test]
fn recommended_tables_raise_no_warning_or_error() {
    let outcome = review_seed("ops-recommended.cql", "ops-recommended-queries.cql");
    assert!(
        outcome
            .findings
            .iter()
            .all(|d| d.severity == Severity::Info),
        "{}",
        outcome.rendered
    );
    // The small LOGGED batch of one order's two copies is the documented use: info.
    let batches = outcome.of("multi-partition-batch");
    assert_eq!(batches.len(), 1, "{}", outcome.rendered);
    insta::assert_snapshot!(outcome.rendered);
}

#[test]
fn bad_variants_raise_the_expected_findings() {
    let outcome = review_seed("ops-bad.cql", "ops-bad-queries.cql");
    let expect = |rule: &str, severity: Severity, table: Option<&str>| {
        assert!(
            outcome
                .of(rule)
                .iter()
                .any(|d| d.severity == severity && d.table.as_deref() == table),
            "expected {rule} {severity:?} on {table:?}\n{}",
            outcome.rendered
        );
    };
    // A view on a table written at 50,000/s: more than ten times the 300/s threshold.
    expect(
        "materialized-view-write-heavy",
        Severity::Error,
        Some("seeds_bad.temp_by_device_daily"),
    );
    // Seed 000's TWCS without a TTL, and seed 001's table with a TTL on size-tiered compaction.
    expect(
        "compaction-mismatch",
        Severity::Warning,
        Some("seeds_bad.temp_by_device"),
    );
    expect(
        "compaction-mismatch",
        Severity::Warning,
        Some("seeds_bad.sensor_readings"),
    );
    // Loading readings of three sensors in one batch.
    expect(
        "multi-partition-batch",
        Severity::Warning,
        Some("seeds_bad.sensor_readings"),
    );
    // SimpleStrategy with one replica.
    expect("replication-risk", Severity::Warning, None);
    insta::assert_snapshot!(outcome.rendered);
}
