//! Fixtures of the key and size rules, `tests/fixtures/<rule>/*.cql`: `bad-*` must
//! produce a warning or error of that rule, `info-*` findings that are all info,
//! `good-*` no warning or error (an info is allowed). A fixture may come with a
//! query list (`<name>.queries.cql`) and a statistics file (`<name>.stats.toml`).
//! The rendered output of each is an insta snapshot.

mod common_keys;

use common_keys::{KEY_RULES, data_dir, read, review_with, sibling};

fn fixtures_of(rule: &str) -> Vec<std::path::PathBuf> {
    let dir = data_dir().join("fixtures").join(rule);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".cql") && !n.ends_with(".queries.cql"))
        })
        .collect();
    files.sort();
    files
}

fn run_fixtures(rule: &str) {
    let files = fixtures_of(rule);
    let mut bad = 0;
    let mut good = 0;
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".cql"))
            .unwrap_or_default()
            .to_string();
        let schema = read(&path);
        let queries = sibling(&path, ".queries.cql");
        let stats = sibling(&path, ".stats.toml");
        let reviewed = review_with(&schema, queries.as_deref(), stats.as_deref(), &[rule]);
        assert!(
            reviewed
                .diagnostics
                .iter()
                .all(|d| d.name.as_deref() == Some(rule)),
            "{rule}/{name}: findings of other rules:\n{}",
            reviewed.text
        );
        if name.starts_with("bad-") {
            bad += 1;
            assert!(
                !reviewed.serious().is_empty(),
                "{rule}/{name}: expected a warning or error, got:\n{}",
                reviewed.text
            );
        } else if name.starts_with("info-") {
            bad += 1;
            assert!(
                !reviewed.diagnostics.is_empty() && reviewed.serious().is_empty(),
                "{rule}/{name}: expected info findings only, got:\n{}",
                reviewed.text
            );
        } else if name.starts_with("good-") {
            good += 1;
            assert!(
                reviewed.serious().is_empty(),
                "{rule}/{name}: expected no warning or error, got:\n{}",
                reviewed.text
            );
        } else {
            panic!("{rule}/{name}: fixture names start with `bad-`, `info-` or `good-`");
        }
        insta::assert_snapshot!(format!("{rule}__{name}"), reviewed.text);
    }
    assert!(
        bad > 0 && good > 0,
        "{rule}: needs positive (bad-*, info-*) and negative (good-*) fixtures"
    );
}

#[test]
fn unbounded_partition() {
    run_fixtures("unbounded-partition");
}

#[test]
fn secondary_index_misuse() {
    run_fixtures("secondary-index-misuse");
}

#[test]
fn large_partition() {
    run_fixtures("large-partition");
}

#[test]
fn hot_partition() {
    run_fixtures("hot-partition");
}

#[test]
fn large_value() {
    run_fixtures("large-value");
}

#[test]
fn mutable_primary_key() {
    run_fixtures("mutable-primary-key");
}

#[test]
fn every_rule_of_the_area_is_registered_and_has_fixtures() {
    for name in KEY_RULES {
        assert!(
            cqlmodel_review::find_rule(name).is_some(),
            "{name} is not registered"
        );
        assert!(
            data_dir().join("fixtures").join(name).is_dir(),
            "{name} has no fixtures"
        );
    }
}
