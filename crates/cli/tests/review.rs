//! `cqlmodel review` as users see it: the example project, the seeds' acceptance,
//! configuration, suppressions, cqlsh commands, SARIF that GitHub accepts.

use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use serde_json::Value;

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.env("NO_COLOR", "1");
    cmd
}

const SHOP: [&str; 7] = [
    "review",
    "examples/shop/schema.cql",
    "--queries",
    "examples/shop/queries.cql",
    "--stats",
    "examples/shop/stats.toml",
    "--config=examples/shop/cqlmodel.toml",
];

#[test]
fn shop_example_text() {
    assert_cmd_snapshot!(cqlmodel().args(SHOP));
}

#[test]
fn shop_example_json() {
    assert_cmd_snapshot!(cqlmodel().args(SHOP).args(["--format", "json"]));
}

#[test]
fn shop_example_sarif_validates_against_the_sarif_schema() {
    let out = cqlmodel()
        .args(SHOP)
        .args(["--format", "sarif"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let sarif: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let schema: Value = serde_json::from_str(include_str!(
        "../../diagnostics/tests/data/sarif-schema-2.1.0.json"
    ))
    .expect("schema");
    for draft in [jsonschema::Draft::Draft4, jsonschema::Draft::Draft7] {
        let validator = jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(true)
            .build(&schema)
            .expect("schema compiles");
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{draft:?}: {errors:?}");
    }
    let results = sarif["runs"][0]["results"].as_array().map_or(0, Vec::len);
    assert!(results >= 10, "expected the shop's findings, got {results}");
    // Every result points into a file with a line, as code scanning requires.
    for r in sarif["runs"][0]["results"].as_array().into_iter().flatten() {
        assert!(
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .is_some(),
            "{r}"
        );
    }
}

/// The seeds' recommended tables with their queries: no warning, no error.
#[test]
fn seeds_recommended_designs_pass_the_review() {
    for area in ["keys", "ops", "query-rules"] {
        let dir = "crates/review/tests/data/seeds";
        let queries = if area == "keys" {
            format!("{dir}/{area}-recommended.queries.cql")
        } else {
            format!("{dir}/{area}-recommended-queries.cql")
        };
        let out = cqlmodel()
            .args([
                "review",
                &format!("{dir}/{area}-recommended.cql"),
                "--queries",
                &queries,
            ])
            .args(["--format", "json", "--fail-on", "warning"])
            .output()
            .expect("runs");
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        // With a query list the findings sit beside the query list's summary.
        let findings = &json["findings"];
        assert!(findings.is_array(), "{area}: {json}");
        let serious: Vec<&Value> = findings
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["severity"] != "info")
            .collect();
        assert!(serious.is_empty(), "{area}: {serious:#?}");
        assert_eq!(out.status.code(), Some(0), "{area}");
        // feed_by_user draws at most an info.
        for f in findings["findings"].as_array().into_iter().flatten() {
            if f["table"]
                .as_str()
                .is_some_and(|t| t.ends_with("feed_by_user"))
            {
                assert_eq!(f["severity"], "info", "{f}");
            }
        }
    }
}

#[test]
fn suppressions_silence_rules_and_unused_ones_are_reported() {
    assert_cmd_snapshot!(cqlmodel().args([
        "review",
        "crates/cli/tests/data/review/suppress.cql",
        "--queries",
        "crates/cli/tests/data/review/suppress-queries.cql",
    ]));
}

#[test]
fn config_turns_rules_off_and_changes_severity() {
    assert_cmd_snapshot!(cqlmodel().args([
        "review",
        "crates/cli/tests/data/review/suppress.cql",
        "--queries",
        "crates/cli/tests/data/review/suppress-queries.cql",
        "--config",
        "crates/cli/tests/data/review/config.toml",
        "--format",
        "json",
    ]));
}

#[test]
fn unknown_rule_in_config_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args([
        "review",
        "crates/cli/tests/data/review/suppress.cql",
        "--config",
        "crates/cli/tests/data/review/bad-config.toml",
    ]));
}

#[test]
fn cqlsh_commands_in_a_schema_file_are_skipped_with_an_info() {
    assert_cmd_snapshot!(cqlmodel().args(["review", "crates/cli/tests/data/review/cqlsh.cql"]));
}

#[test]
fn dse_pseudo_columns_are_skipped_with_an_info() {
    assert_cmd_snapshot!(cqlmodel().args([
        "review",
        "crates/cli/tests/data/review/cqlsh.cql",
        "--queries",
        "crates/cli/tests/data/review/dse-queries.cql",
    ]));
}

#[test]
fn fail_on_sets_the_exit_code() {
    let run = |fail_on: &str| {
        cqlmodel()
            .args([
                "review",
                "crates/cli/tests/data/review/suppress.cql",
                "--queries",
            ])
            .arg("crates/cli/tests/data/review/suppress-queries.cql")
            .args(["--fail-on", fail_on])
            .output()
            .expect("runs")
            .status
            .code()
    };
    assert_eq!(run("error"), Some(0));
    assert_eq!(run("warning"), Some(1));
}

#[test]
fn rules_list_and_one_rule_page() {
    assert_cmd_snapshot!(cqlmodel().args(["rules"]));
    assert_cmd_snapshot!(cqlmodel().args(["rules", "hot-partition"]));
}

/// A broken CREATE TABLE is reported at its line and column; the tables around
/// it are still reviewed, and the JSON document keeps its one shape.
#[test]
fn a_broken_table_is_reported_and_the_others_are_still_reviewed() {
    let out = cqlmodel()
        .args([
            "review",
            "crates/cli/tests/data/review/one-broken-table.cql",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["exit_code"], 2);
    let places: Vec<(String, u64, u64)> = doc["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            ("syntax".to_string(), 8, 82),
            ("schema".to_string(), 12, 72)
        ],
        "{doc:#}"
    );
    let reviewed: Vec<&str> = doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["table"].as_str())
        .collect();
    assert!(reviewed.contains(&"shop.events_by_day"), "{doc:#}");
    // The text output names the places too.
    let text = cqlmodel()
        .args([
            "review",
            "crates/cli/tests/data/review/one-broken-table.cql",
        ])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert!(stderr.contains("one-broken-table.cql:8:82"), "{stderr}");
    assert!(stderr.contains("one-broken-table.cql:12:72"), "{stderr}");
    assert!(String::from_utf8_lossy(&text.stdout).contains("── shop.events_by_day ──"));
}

/// The JSON document has the same keys with and without input diagnostics, and
/// on an input error that stops the run.
#[test]
fn json_has_one_shape_whatever_happens() {
    let runs: [&[&str]; 3] = [
        &["review", "examples/shop/schema.cql", "--format", "json"],
        &[
            "review",
            "crates/cli/tests/data/review/cqlsh.cql",
            "--format",
            "json",
        ],
        &[
            "review",
            "crates/cli/tests/data/review/suppress.cql",
            "--config",
            "crates/cli/tests/data/review/bad-config.toml",
            "--format",
            "json",
        ],
    ];
    for args in runs {
        let out = cqlmodel().args(args).output().expect("runs");
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let keys: Vec<&str> = doc
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "exit_code",
                "findings",
                "input",
                "statements",
                "summary",
                "version",
                "workload"
            ],
            "{args:?}"
        );
        assert_eq!(
            doc["exit_code"].as_u64(),
            out.status.code().map(|c| c as u64)
        );
        assert!(doc["input"].is_array() && doc["findings"].is_array());
    }
}

/// Each statement's consistency levels are in the JSON document, with where
/// they came from (`@cl`/`@serial` or a cqlsh line), and on each finding about
/// the statement; the rule reports the levels Cassandra rejects.
#[test]
fn json_carries_each_statements_consistency_levels() {
    let out = cqlmodel()
        .args([
            "review",
            "crates/cli/tests/data/scripts/consistency/schema.cql",
            "--queries",
            "crates/cli/tests/data/scripts/consistency/queries.cql",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let statements = doc["statements"].as_array().cloned().unwrap_or_default();
    let by_name = |name: &str| {
        statements
            .iter()
            .find(|s| s["query"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name}: {statements:?}"))
    };
    let touch = by_name("touch_session");
    assert_eq!(touch["consistency"]["level"], "LOCAL_SERIAL");
    assert_eq!(touch["consistency"]["from"], "cqlsh");
    assert_eq!(touch["serial_consistency"]["level"], "LOCAL_SERIAL");
    let open = by_name("open_session");
    assert_eq!(open["consistency"]["level"], "LOCAL_QUORUM");
    assert_eq!(open["consistency"]["from"], "annotation");
    assert_eq!(open["serial_consistency"]["level"], "LOCAL_SERIAL");
    assert_eq!(open["serial_consistency"]["from"], "cqlsh");
    assert_eq!(by_name("session_of")["consistency"], Value::Null);

    let findings = doc["findings"].as_array().cloned().unwrap_or_default();
    let rejected = findings
        .iter()
        .find(|f| f["rule"] == "wrong-consistency-level")
        .expect("the plain write at LOCAL_SERIAL is reported");
    assert_eq!(rejected["query"], "touch_session");
    assert_eq!(rejected["severity"], "error");
    assert_eq!(
        rejected["message"],
        "You must use conditional updates for serializable writes"
    );
    assert_eq!(rejected["consistency"]["level"], "LOCAL_SERIAL");
    assert!(
        findings
            .iter()
            .filter(|f| f["rule"] == "wrong-consistency-level")
            .all(|f| f["query"] == "touch_session"),
        "{findings:?}"
    );
}
