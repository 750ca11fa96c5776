//! `cqlmodel design … --existing CURRENT`: the migration from the deployed
//! schema to the design is written next to it (`migration.md`, `migration/`),
//! listed in the manifest, restricted to the design's keyspace; a bad CURRENT
//! is an input error (file:line:column, exit 2) and nothing is written.

use std::path::{Path, PathBuf};

use cqlmodel_cli::design_cmd::{DesignFiles, run_with};
use cqlmodel_cli::design_existing::MigrationOptions;
use cqlmodel_design::WriteOptions;

fn example(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/design/iot")
        .join(file)
}

fn data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/design_existing")
        .join(file)
}

fn design(existing: &Path, out: &Path, json: bool) -> (String, String, u8) {
    design_with(existing, out, json, &MigrationOptions::default())
}

fn design_with(
    existing: &Path,
    out: &Path,
    json: bool,
    migration: &MigrationOptions,
) -> (String, String, u8) {
    let (model, queries) = (example("model.sql"), example("queries.sql"));
    let files = DesignFiles {
        model: &model,
        queries: Some(&queries),
        stats: None,
        existing: Some(existing),
        horizon: None,
        migration,
    };
    run_with(&files, out, WriteOptions::default(), json, false)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn an_added_column_is_an_alter_and_a_changed_clustering_order_a_rebuild() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = design(&data("current.cql"), &out, false);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "current.cql: 4 changes (1 alter, 1 rebuild, 2 create, 0 drop), 0 need a decision → migration.md"
        ),
        "{stdout}"
    );
    let alter = read(&out.join("migration/cql/1-create/001_alter_iot_device_by_id.cql"));
    assert!(
        alter.contains("ALTER TABLE iot.device_by_id ADD timezone text;"),
        "{alter}"
    );
    let rebuild = read(&out.join("migration/cql/1-create/002_rebuild_iot_readings_by_device.cql"));
    assert!(
        rebuild.contains("CREATE TABLE IF NOT EXISTS iot.readings_by_device_v2")
            && rebuild.contains("WITH CLUSTERING ORDER BY (ts DESC)"),
        "{rebuild}"
    );
    let runbook = read(&out.join("migration.md"));
    assert!(
        runbook.contains("| `iot.readings_by_device` | rebuild |"),
        "{runbook}"
    );
    assert!(
        runbook.contains("## Phase 3"),
        "the rebuild has its backfill phase"
    );
    assert!(
        out.join("migration/backfill/iot.readings_by_device.cdm.properties")
            .is_file()
    );
    // The other keyspace of the deployed schema is not the design's: no drop.
    assert!(!runbook.contains("billing"), "{runbook}");
    assert!(
        stdout.contains(
            "  left alone: keyspace(s) billing of the existing schema (the design is keyspace iot)"
        ),
        "{stdout}"
    );
}

#[test]
fn the_migration_files_are_in_the_manifest_and_replaced_by_the_next_run() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (_, stderr, code) = design(&data("current.cql"), &out, false);
    assert_eq!(code, 0, "{stderr}");
    let manifest = read(&out.join(".cqlmodel-manifest"));
    for f in [
        "migration.md",
        "migration/cql/1-create/001_alter_iot_device_by_id.cql",
        "migration/cql/7-drop/005_rebuild_iot_readings_by_device.cql",
        "schema.cql",
    ] {
        assert!(
            manifest.lines().any(|l| l == f),
            "{f} not listed:\n{manifest}"
        );
    }
    // The same design against its own schema: nothing to migrate, and the
    // previous run's migration files are removed (they are ours, listed).
    let same = tmp.path().join("same.cql");
    std::fs::write(&same, read(&out.join("schema.cql"))).unwrap_or_else(|e| panic!("{e}"));
    let (stdout, stderr, code) = design(&same, &out, false);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("nothing to do"), "{stdout}");
    assert!(!out.join("migration.md").exists());
    assert!(!out.join("migration").exists(), "no empty directories left");
    assert!(out.join("schema.cql").is_file());
}

#[test]
fn the_json_document_carries_the_migration_summary_and_files() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = design(&data("current.cql"), &out, true);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    let m = &json["migration"];
    assert_eq!(m["needs_attention"], false);
    let files: Vec<&str> = m["files"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str()).collect())
        .unwrap_or_default();
    assert!(files.contains(&"migration.md"), "{files:?}");
    assert!(
        m["summary"]
            .as_str()
            .is_some_and(|s| s.contains("1 rebuild")),
        "{m}"
    );
}

#[test]
fn a_bad_existing_schema_is_an_input_error_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = design(&data("broken.cql"), &out, false);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains("broken.cql:6:5") && stderr.contains("^^^^"),
        "file:line:column and a caret: {stderr}"
    );
    assert!(!out.exists(), "nothing written");
}

#[test]
fn an_output_directory_holding_the_existing_schema_is_refused() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap_or_else(|e| panic!("{e}"));
    let current = out.join("current.cql");
    std::fs::copy(data("current.cql"), &current).unwrap_or_else(|e| panic!("{e}"));
    let (_, stderr, code) = design(&current, &out, false);
    assert_eq!(code, 2);
    assert!(stderr.contains("error:"), "{stderr}");
    assert!(!out.join("schema.cql").exists());
}

#[test]
fn a_change_that_needs_a_decision_makes_the_design_a_partial_result() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    // Deployed with `model_name` where the design has `model` (and with the
    // timezone, so that only that pair differs): a drop and an add of the same
    // type, which may be a rename (flagged, exit 1).
    let current = tmp.path().join("current.cql");
    let text = read(&data("current.cql")).replace(
        "    model            text,",
        "    model_name       text,\n    timezone         text,",
    );
    std::fs::write(&current, text).unwrap_or_else(|e| panic!("{e}"));
    let (stdout, stderr, code) = design(&current, &out, false);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("1 need a decision"), "{stdout}");
    let runbook = read(&out.join("migration.md"));
    assert!(
        runbook.contains("Cannot rename non PRIMARY KEY column model_name"),
        "{runbook}"
    );
}

#[test]
fn a_suspected_rename_needs_a_decision_with_the_flag_to_declare_it() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = design(&data("current_tz.cql"), &out, false);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("1 need a decision"), "{stdout}");
    let runbook = read(&out.join("migration.md"));
    assert!(
        runbook.contains("--rename iot.device_by_id.tz=timezone"),
        "{runbook}"
    );
}

#[test]
fn migrate_options_apply_and_the_designs_writes_are_the_dual_writes() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let options = MigrationOptions {
        renames: vec!["iot.device_by_id.tz=timezone".into()],
        target: cqlmodel_migrate::Target::Scylla,
        layout: cqlmodel_migrate::Layout::Cqlmigrate,
    };
    let (stdout, stderr, code) = design_with(&data("current_tz.cql"), &out, false, &options);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("0 need a decision"), "{stdout}");
    let runbook = read(&out.join("migration.md"));
    assert!(
        runbook.starts_with("# Migration runbook (ScyllaDB)"),
        "{runbook}"
    );
    assert!(
        runbook.contains(
            "Generated by `cqlmodel design --existing`. Schema scripts are in `migration/cql/`"
        ),
        "{runbook}"
    );
    assert!(
        runbook.contains("(`migration/backfill/iot.readings_by_device.dsbulk.sh`)"),
        "{runbook}"
    );
    assert!(
        runbook.contains("| `iot.device_by_id` | rebuild |"),
        "the declared rename rebuilds: {runbook}"
    );
    // The design's write path on the rebuilt table is its dual write.
    assert!(
        runbook.contains("INSERT INTO iot.readings_by_device_v2 ("),
        "{runbook}"
    );
    // Beside each twin, the statement that writes the old table today: the design's write
    // read back through the plan's mapping (timezone is tz there).
    assert!(
        runbook.contains(
            "  - today: `INSERT INTO iot.device_by_id (device_id, model, firmware_version, installed_at, name, tz, site_id) VALUES (?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS;`"
        ),
        "{runbook}"
    );
    assert!(
        runbook.contains("  - today: `DELETE FROM iot.readings_by_device WHERE device_id = ?;`"),
        "{runbook}"
    );
    assert!(!runbook.contains("today: unchanged"), "{runbook}");
    // Its condition is the old table's to decide: the new one is incomplete until the backfill ends.
    assert!(
        runbook.contains(
            "also: `UPDATE iot.device_by_id_v2 SET firmware_version = ? WHERE device_id = ?;`"
        ),
        "{runbook}"
    );
    let scripts: Vec<String> = std::fs::read_dir(out.join("migration/cql/1-create"))
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        scripts.iter().all(|n| n.starts_with("1970-01-01-00:")),
        "cqlmigrate names: {scripts:?}"
    );
}

#[test]
fn a_rename_that_does_not_fit_is_an_input_error_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    let options = MigrationOptions {
        renames: vec!["iot.device_by_id.nope=timezone".into()],
        ..MigrationOptions::default()
    };
    let (stdout, stderr, code) = design_with(&data("current_tz.cql"), &out, false, &options);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("OLD's iot.device_by_id has no column nope"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing written");
}
