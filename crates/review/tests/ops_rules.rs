//! Fixtures of the operational rules: `tests/fixtures/<rule>/<case>/` holds a
//! `schema.cql` and optionally a `queries.cql`. The case name starts with the
//! highest severity the rule must report on it (`error-`, `warning-`, `info-`)
//! or `ok-` when it must report nothing; the rendered output is snapshotted.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test -p cqlmodel-review --test ops_rules`
//! (or `cargo insta review`).

mod common_ops;

use std::path::PathBuf;

use common_ops::{OPS_RULES, review_dir};
use cqlmodel_diagnostics::Severity;

fn expected(case: &str) -> Option<Severity> {
    let prefix = case.split('-').next().unwrap_or_default();
    match prefix {
        "ok" => None,
        "info" => Some(Severity::Info),
        "warning" => Some(Severity::Warning),
        "error" => Some(Severity::Error),
        other => panic!(
            "fixture `{case}`: name must start with ok-, info-, warning- or error-, not `{other}`"
        ),
    }
}

fn run_rule(rule: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rule);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(
        cases.iter().any(|c| c
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("ok-"))),
        "{rule}: no negative (ok-) fixture"
    );
    assert!(
        cases.iter().any(|c| !c
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("ok-"))),
        "{rule}: no positive fixture"
    );
    for dir in cases {
        let case = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let outcome = review_dir(&dir, &format!("tests/fixtures/{rule}/{case}"), &[rule]);
        assert!(
            outcome
                .findings
                .iter()
                .all(|d| d.name.as_deref() == Some(rule)),
            "{rule}/{case}: findings of other rules"
        );
        assert_eq!(
            outcome.max_severity(),
            expected(&case),
            "{rule}/{case}: highest severity\n{}",
            outcome.rendered
        );
        insta::assert_snapshot!(format!("{rule}__{case}"), outcome.rendered);
    }
}

#[test]
fn constant_partition_key() {
    run_rule("constant-partition-key");
}

#[test]
fn materialized_view_write_heavy() {
    run_rule("materialized-view-write-heavy");
}

#[test]
fn multi_partition_batch() {
    run_rule("multi-partition-batch");
}

#[test]
fn queue_pattern() {
    run_rule("queue-pattern");
}

#[test]
fn compaction_mismatch() {
    run_rule("compaction-mismatch");
}

#[test]
fn replication_risk() {
    run_rule("replication-risk");
}

#[test]
fn wrong_consistency_level() {
    run_rule("wrong-consistency-level");
}

#[test]
fn lwt_hot_path() {
    run_rule("lwt-hot-path");
}

#[test]
fn read_before_write() {
    run_rule("read-before-write");
}

#[test]
fn every_operational_rule_has_fixtures() {
    for rule in OPS_RULES {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rule);
        assert!(dir.is_dir(), "{rule}: no fixtures in {}", dir.display());
    }
}

/// Every fixture's queries against every other fixture's schema: statements on
/// unknown tables, rejected statements and foreign keyspaces must not trip any
/// operational rule (no panic, and every finding points into a file).
#[test]
fn rules_survive_queries_against_the_wrong_schema() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs = Vec::new();
    for rule in OPS_RULES {
        if let Ok(entries) = std::fs::read_dir(root.join(rule)) {
            dirs.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    dirs.sort();
    let schemas: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("schema.cql")).ok())
        .collect();
    let queries: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("queries.cql")).ok())
        .collect();
    for schema in &schemas {
        for q in &queries {
            let outcome =
                common_ops::review_texts("schema.cql", schema, Some(("queries.cql", q)), OPS_RULES);
            assert!(
                outcome
                    .findings
                    .iter()
                    .all(|d| d.file.is_some() && d.primary.is_some())
            );
        }
    }
}
