//! `cqlmodel diagnose` as users see it: saved nodetool outputs in, findings with
//! the key change out; stdin; several nodes; SARIF; bad inputs and exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use serde_json::Value;

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.env("NO_COLOR", "1");
    cmd
}

const C50: [&str; 5] = [
    "diagnose",
    "tests/data/nodetool/cassandra-5.0-written/tablestats.txt",
    "tests/data/nodetool/cassandra-5.0-written/tablehistograms.txt",
    "--schema",
    "crates/diagnose/tests/data/schema.cql",
];

#[test]
fn cassandra_5_text_names_tables_problems_and_fixes() {
    assert_cmd_snapshot!(cqlmodel().args(C50));
}

#[test]
fn json_carries_the_fix_cql_and_what_was_read() {
    let out = cqlmodel()
        .args(C50)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["read"]["nodes"][0]["node"], "node");
    assert_eq!(v["read"]["nodes"][0]["tables"], 3);
    let first = &v["findings"][0];
    assert_eq!(first["code"], "DG001");
    assert_eq!(first["table"], "iot.readings");
    assert_eq!(first["line"], 50);
    let cql = first["fix"]["cql"].as_str().expect("CQL");
    assert!(cql.contains("PRIMARY KEY ((device_id, day), ts)"), "{cql}");
    // The finding's own numbers: the p99 it measured, on which node, against which limit.
    let e = &first["evidence"][0];
    assert_eq!(e["measure"], "partition_bytes");
    assert_eq!(e["statistic"], "p99");
    assert_eq!(e["unit"], "bytes");
    assert_eq!(e["node"], "node");
    assert_eq!(e["limit"], v["limits"]["partition_bytes"]);
    assert!(e["value"].as_f64().is_some_and(|b| b > 100e6), "{e}");
}

#[test]
fn sarif_validates_against_the_sarif_schema() {
    let out = cqlmodel()
        .args(C50)
        .args(["--format", "sarif"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let sarif: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let schema: Value = serde_json::from_str(include_str!(
        "../../diagnostics/tests/data/sarif-schema-2.1.0.json"
    ))
    .expect("schema");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .build(&schema)
        .expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let large = results
        .iter()
        .find(|r| r["ruleId"] == "DG001")
        .expect("DG001");
    assert!(
        large
            .to_string()
            .contains("measured: partition_bytes p99 = 130 MB on node"),
        "SARIF shows the finding's figure: {large}"
    );
}

#[test]
fn stdin_json_of_scylla_is_read() {
    let mut child = cqlmodel()
        .args(["--format", "json", "diagnose", "-", "--fail-on", "warning"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/nodetool/scylla-6.2/tablestats.json"
    ))
    .expect("fixture");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&text)
        .expect("writes");
    let out = child.wait_with_output().expect("waits");
    // Without histograms the largest partition is a warning; --fail-on warning fails.
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["read"]["nodes"][0]["node"], "stdin");
    assert_eq!(v["read"]["nodes"][0]["format"], "tablestats JSON");
    assert_eq!(v["findings"][0]["code"], "DG001");
}

#[test]
fn three_nodes_in_one_file_show_the_heavy_node() {
    let out = cqlmodel()
        .args(["diagnose", "crates/diagnose/tests/data/three_nodes.txt"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("read tablestats text of node `node-a.txt`: 3 tables"),
        "{text}"
    );
    assert!(
        text.contains("warning[DG004]: iot.readings is imbalanced: node-c.txt carries 1.8× the mean of the nodes"),
        "{text}"
    );
}

#[test]
fn a_truncated_file_is_reported_with_its_line_and_used() {
    assert_cmd_snapshot!(cqlmodel().args(["diagnose", "crates/diagnose/tests/data/truncated.txt"]));
}

#[test]
fn a_file_that_is_no_nodetool_output_is_an_input_error() {
    let out = cqlmodel()
        .args(["diagnose", "crates/diagnose/tests/data/schema.cql"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[input]: not a nodetool output"), "{err}");
    assert!(err.contains("schema.cql:1:1"), "{err}");
}

#[test]
fn fail_on_sets_the_exit_code() {
    let clean = |fail_on: &str| {
        cqlmodel()
            .args([
                "diagnose",
                "tests/data/nodetool/cassandra-5.0-written/tablestats.txt",
                "--fail-on",
                fail_on,
            ])
            .output()
            .expect("runs")
            .status
            .code()
    };
    // Warnings only (no histograms: the largest partition is over, not p99).
    assert_eq!(clean("error"), Some(0));
    assert_eq!(clean("warning"), Some(1));
}

#[test]
fn a_bad_data_age_is_a_usage_error() {
    let out = cqlmodel()
        .args(C50)
        .args(["--data-age", "soon"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: --data-age"));
}

#[test]
fn nodetool_status_adds_ownership() {
    let out = cqlmodel()
        .args([
            "diagnose",
            "crates/diagnose/tests/data/three_nodes.txt",
            "tests/data/nodetool/cassandra-5.0-written/status.txt",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("read status: 10.0.0.1 (dc1, UN), 10.0.0.2 (dc1, UN), 10.0.0.3 (dc1, UN)"),
        "{text}"
    );
    assert!(
        text.contains("warning[DG009]: token ownership in dc1 is uneven"),
        "{text}"
    );
    assert!(text.contains("token ownership is uneven too"), "{text}");
}

#[test]
fn an_unreachable_cluster_fails_within_the_connect_timeout() {
    let start = std::time::Instant::now();
    let out = cqlmodel()
        .args([
            "diagnose",
            "--cluster",
            "127.0.0.1:1",
            "--connect-timeout",
            "2",
        ])
        .output()
        .expect("runs");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("127.0.0.1:1"), "{err}");
}

#[test]
fn inputs_or_a_cluster_are_required() {
    let out = cqlmodel().args(["diagnose"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
}
