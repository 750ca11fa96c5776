//! `cqlmodel design` through `design_cmd::run`: files written on success,
//! exit 2 and nothing written on bad input.

use std::path::{Path, PathBuf};

use cqlmodel_cli::design_cmd::run;

fn example(case: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/design")
        .join(case)
        .join(file)
}

#[test]
fn writes_schema_queries_report_and_diagrams() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = run(
        &example("iot", "model.sql"),
        Some(&example("iot", "queries.sql")),
        Some(&example("iot", "stats.toml")),
        &out,
        true,
        false,
    );
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    let tables = json["tables"].as_array().cloned().unwrap_or_default();
    assert!(
        tables
            .iter()
            .any(|t| t["partition_key"] == serde_json::json!(["device_id", "day"]))
    );
    for f in [
        "schema.cql",
        "queries.cql",
        "report.md",
        "diagrams/flow.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    for t in &tables {
        let name = t["name"].as_str().unwrap_or_default();
        assert!(
            out.join(format!("diagrams/{name}.svg")).is_file(),
            "{name}.svg missing"
        );
    }
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let queries = tmp.path().join("q.sql");
    std::fs::write(
        &queries,
        "-- @name q1\nSELECT nope FROM readings WHERE device_id = $1;\n",
    )
    .unwrap_or_default();
    let out = tmp.path().join("out");
    let (_, stderr, code) = run(
        &example("iot", "model.sql"),
        Some(&queries),
        None,
        &out,
        false,
        false,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown column `nope`"), "{stderr}");
    assert!(stderr.contains("q.sql:2:8"), "{stderr}");
    assert!(!out.exists());

    std::fs::write(
        &queries,
        "-- @name a @rate 5/s @rate 6/s\nSELECT ts FROM readings WHERE device_id = $1;\n",
    )
    .unwrap_or_default();
    let (_, stderr, code) = run(
        &example("iot", "model.sql"),
        Some(&queries),
        None,
        &out,
        false,
        false,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("contradictory annotations"), "{stderr}");

    std::fs::write(&queries, "SELECT r.ts FROM readings r JOIN sites s ON s.name = r.device_id WHERE r.device_id = $1;\n").unwrap_or_default();
    let (_, stderr, code) = run(
        &example("iot", "model.sql"),
        Some(&queries),
        None,
        &out,
        false,
        false,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("follows no foreign key"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn refuses_an_output_directory_holding_the_inputs() {
    let dir = example("iot", "model.sql");
    let parent = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    let (_, stderr, code) = run(&dir, None, None, &parent, false, false);
    assert_eq!(code, 2);
    assert!(stderr.contains("holds the input file"), "{stderr}");
}
