//! `cqlmodel design` through `design_cmd::run`: files written on success,
//! exit 2 and nothing written on bad input. The binary's error output is
//! snapshot-tested: every kind of design error is a diagnostic like the other
//! commands' (file:line:column, excerpt, caret; `{"errors": [...]}` in JSON).

use std::path::{Path, PathBuf};
use std::process::Command;

use cqlmodel_cli::design_cmd::run;
use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

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
    // A statement the designer cannot translate costs only itself: the rest
    // of the design is written and the run is a partial result (exit 1).
    assert_eq!(code, 1);
    assert!(stderr.contains("unknown column `nope`"), "{stderr}");
    assert!(stderr.contains("q.sql:2:8"), "{stderr}");
    assert!(out.join("report.md").is_file());
    std::fs::remove_dir_all(&out).unwrap_or_default();

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
    assert_eq!(code, 1);
    assert!(stderr.contains("follows no foreign key"), "{stderr}");
    assert!(out.join("report.md").is_file());
}

#[test]
fn refuses_an_output_directory_holding_the_inputs() {
    let dir = example("iot", "model.sql");
    let parent = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    let (_, stderr, code) = run(&dir, None, None, &parent, false, false);
    assert_eq!(code, 2);
    assert!(stderr.contains("holds the input file"), "{stderr}");

    let (stdout, stderr, code) = run(&dir, None, None, &parent, true, false);
    assert_eq!(code, 2);
    assert_eq!(stderr, "");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    assert_eq!(json["errors"][0]["code"], "output", "{stdout}");
    assert_eq!(json["errors"][0]["severity"], "error", "{stdout}");
}

/// A small model: sites, their devices, the devices' readings. A column name
/// with a non-ASCII letter lets the queries put multi-byte characters before an
/// error on the same line.
const MODEL: &str = "\
CREATE TABLE sites (
    site_id uuid PRIMARY KEY,
    name text NOT NULL
);

CREATE TABLE devices (
    device_id text PRIMARY KEY,
    site_id uuid NOT NULL REFERENCES sites (site_id)
);

CREATE TABLE readings (
    device_id text NOT NULL REFERENCES devices (device_id),
    ts timestamptz NOT NULL,
    température double precision,
    PRIMARY KEY (device_id, ts)
);
";

/// The keyspace is named after the temporary directory: the review's findings
/// in the summary name it, so the snapshots see it as `ks_TMP`.
fn ks_filter() -> insta::internals::SettingsBindDropGuard {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"ks_[_a-z0-9]+", "ks_TMP");
    settings.bind_to_scope()
}

/// A directory holding the input files, and `cqlmodel design` run inside it
/// with relative paths, so that the snapshots name `queries.sql:2:8`.
struct Inputs {
    dir: tempfile::TempDir,
    names: Vec<String>,
}

impl Inputs {
    fn new(files: &[(&str, &[u8])]) -> Self {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap_or_else(|e| panic!("{e}"));
        }
        let names = files.iter().map(|(n, _)| (*n).to_string()).collect();
        Inputs { dir, names }
    }

    fn with_queries(queries: &str) -> Self {
        Inputs::new(&[
            ("model.sql", MODEL.as_bytes()),
            ("queries.sql", queries.as_bytes()),
        ])
    }

    fn design(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
        cmd.current_dir(self.dir.path());
        cmd.env("NO_COLOR", "1");
        cmd.arg("design").args(args).args(["--out", "out"]);
        cmd
    }

    /// The directory holds the inputs and nothing else: no DIR, no staging directory.
    fn assert_nothing_written(&self) {
        let mut found: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap_or_else(|e| panic!("{e}"))
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
            .collect();
        found.sort();
        let mut expected = self.names.clone();
        expected.sort();
        assert_eq!(found, expected, "design wrote files on an input error");
    }
}

#[test]
fn model_syntax_error() {
    let inputs = Inputs::new(&[(
        "model.sql",
        b"CREATE TABLE sites (\n    site_id uuid PRIMARY KEY,\n    name text NOT NULL,,\n);\n",
    )]);
    assert_cmd_snapshot!(inputs.design(&["model.sql"]));
    assert_cmd_snapshot!(
        "model_syntax_error_json",
        inputs.design(&["model.sql", "--format", "json"])
    );
    inputs.assert_nothing_written();
}

#[test]
fn model_table_without_primary_key() {
    let inputs = Inputs::new(&[(
        "model.sql",
        b"-- the log has no key\nCREATE TABLE log (line text, at timestamptz);\n",
    )]);
    // Keyed by a generated timeuuid, with a note (issue 20: key-less tables).
    assert_cmd_snapshot!(inputs.design(&["model.sql"]));
    let schema = std::fs::read_to_string(inputs.dir.path().join("out/schema.cql"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(schema.contains("row_id timeuuid"), "{schema}");
}

#[test]
fn queries_unsupported_construct() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "-- @name by_site\nSELECT ts FROM readings\n WHERE device_id NOT IN (SELECT device_id FROM devices WHERE site_id = $1);\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

#[test]
fn queries_semi_join_is_designed_with_a_rewrite_note() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "-- @name by_site\nSELECT ts FROM readings\n WHERE device_id IN (SELECT device_id FROM devices WHERE site_id = ?);\n",
    );
    let out = inputs
        .design(&["model.sql", "--queries", "queries.sql"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error["), "{stderr}");
    insta::assert_snapshot!(stderr);
}

#[test]
fn queries_error_after_a_rewritten_placeholder_points_at_the_written_text() {
    let _ks = ks_filter();
    // `%(site)s` reads as `$1`: the error's caret must stay under `nope`.
    let inputs = Inputs::with_queries(
        "-- @name q1\nSELECT ts FROM readings WHERE device_id = %(site)s AND nope = ?;\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
}

#[test]
fn queries_unknown_table() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries("-- @name q\nSELECT ts FROM sensors WHERE device_id = $1;\n");
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

#[test]
fn queries_unknown_column() {
    let _ks = ks_filter();
    let inputs =
        Inputs::with_queries("-- @name q1\nSELECT nope FROM readings WHERE device_id = $1;\n");
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The design JSON names the keyspace after the temporary directory.
    insta::with_settings!({filters => vec![(r"ks_[_a-z0-9]+", "ks_TMP")]}, {
        assert_cmd_snapshot!(
        "queries_unknown_column_json",
        inputs.design(&["model.sql", "--queries", "queries.sql", "--format", "json"])
    );
    });
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

#[test]
fn queries_join_with_no_foreign_key_path() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "SELECT r.ts\n  FROM readings r\n  JOIN sites s ON s.name = r.device_id\n WHERE r.device_id = $1;\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

#[test]
fn queries_contradictory_annotations() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "-- @name a @rate 5/s @rate 6/s\nSELECT ts FROM readings WHERE device_id = $1;\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    inputs.assert_nothing_written();
}

#[test]
fn stats_bad_value() {
    let inputs = Inputs::new(&[
        ("model.sql", MODEL.as_bytes()),
        ("stats.toml", b"[table.readings]\nrows = -3\n"),
    ]);
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--stats", "stats.toml"]));
    assert_cmd_snapshot!(
        "stats_bad_value_json",
        inputs.design(&["model.sql", "--stats", "stats.toml", "--format", "json"])
    );
    inputs.assert_nothing_written();
}

/// Columns count characters: `é` (2 bytes) and `😀` (4 bytes) before the error
/// must not push the caret to the right.
#[test]
fn multi_byte_characters_before_the_error_column() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "-- @name q\n/* 😀 */ SELECT température, nope FROM readings WHERE device_id = $1;\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The design JSON names the keyspace after the temporary directory.
    insta::with_settings!({filters => vec![(r"ks_[_a-z0-9]+", "ks_TMP")]}, {
        assert_cmd_snapshot!(
        "multi_byte_characters_before_the_error_column_json",
        inputs.design(&["model.sql", "--queries", "queries.sql", "--format", "json"])
    );
    });
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

/// sqlparser's own positions (a syntax error) count characters too.
#[test]
fn multi_byte_characters_before_a_syntax_error() {
    let _ks = ks_filter();
    let inputs = Inputs::with_queries(
        "-- @name q\nSELECT température,, ts FROM readings WHERE device_id = $1; -- ✓\n",
    );
    assert_cmd_snapshot!(inputs.design(&["model.sql", "--queries", "queries.sql"]));
    // The rest of the design is written (exit 1).
    assert!(inputs.dir.path().join("out/report.md").is_file());
}

#[test]
fn unreadable_inputs_are_reported_like_the_other_commands() {
    let inputs = Inputs::new(&[
        ("model.sql", MODEL.as_bytes()),
        ("empty.sql", b"  \n"),
        ("latin1.toml", b"[table.readings]\nrows = 1 # caf\xe9\n"),
    ]);
    assert_cmd_snapshot!(
        "missing_file",
        inputs.design(&["model.sql", "--queries", "missing.sql"])
    );
    assert_cmd_snapshot!(
        "missing_file_json",
        inputs.design(&["model.sql", "--queries", "missing.sql", "--format", "json"])
    );
    assert_cmd_snapshot!(
        "empty_file",
        inputs.design(&["model.sql", "--queries", "empty.sql"])
    );
    assert_cmd_snapshot!(
        "non_utf8_file",
        inputs.design(&["model.sql", "--stats", "latin1.toml"])
    );
    inputs.assert_nothing_written();
}

/// The issue's acceptance test, as a user runs it: every example's design
/// passes `cqlmodel review DIR/schema.cql --queries DIR/queries.cql --stats
/// DIR/stats.toml` with no error (exit 0), and `cqlmodel size` reads the same
/// statistics.
#[test]
fn every_example_design_passes_the_review_with_its_translated_statistics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/design");
    let mut cases: Vec<String> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().join("model.sql").is_file())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    cases.sort();
    assert!(cases.len() >= 5, "examples missing: {cases:?}");
    let bin = env!("CARGO_BIN_EXE_cqlmodel");
    for case in cases {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let out = tmp.path().join(&case);
        let (_, stderr, code) = run(
            &example(&case, "model.sql"),
            Some(&example(&case, "queries.sql")),
            Some(&example(&case, "stats.toml")),
            &out,
            false,
            false,
        );
        assert_eq!(code, 0, "{case}: {stderr}");
        assert!(
            out.join("stats.toml").is_file(),
            "{case}: stats.toml missing"
        );
        let review = std::process::Command::new(bin)
            .arg("review")
            .arg(out.join("schema.cql"))
            .arg("--queries")
            .arg(out.join("queries.cql"))
            .arg("--stats")
            .arg(out.join("stats.toml"))
            .arg("--format")
            .arg("json")
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stdout = String::from_utf8_lossy(&review.stdout);
        assert_eq!(
            review.status.code(),
            Some(0),
            "{case}: review failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&review.stderr)
        );
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
        // With a query list the findings sit beside the query list's summary.
        let findings = &json["findings"];
        assert!(findings.is_array(), "{case}: {stdout}");
        let errors: Vec<&serde_json::Value> = findings
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{case}: {errors:?}");
        let size = std::process::Command::new(bin)
            .arg("size")
            .arg(out.join("schema.cql"))
            .arg("--stats")
            .arg(out.join("stats.toml"))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            matches!(size.status.code(), Some(0 | 1)),
            "{case}: size failed: {}",
            String::from_utf8_lossy(&size.stderr)
        );
    }
}
