//! `cqlmodel migrate` as users see it: the seeds' two changes (a column added;
//! a clustering order changed), JSON for tooling, bad input, nothing to do, a
//! dropped table, and the output directory written atomically and never over an input.

use std::path::Path;
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use serde_json::Value;

const DATA: &str = "crates/migrate/tests/data";

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.env("NO_COLOR", "1");
    cmd.env("SOURCE_DATE_EPOCH", "1796288700");
    cmd
}

fn pair(case: &str) -> [String; 3] {
    [
        "migrate".into(),
        format!("{DATA}/{case}/old.cql"),
        format!("{DATA}/{case}/new.cql"),
    ]
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn adding_humidity_is_one_alter() {
    assert_cmd_snapshot!(cqlmodel().args(pair("add_column")));
}

#[test]
fn a_new_clustering_order_is_a_rebuild() {
    assert_cmd_snapshot!(cqlmodel().args(pair("clustering_order")));
}

#[test]
fn a_day_bucket_with_queries_and_stats() {
    assert_cmd_snapshot!(cqlmodel().args(pair("day_bucket")).args([
        "--queries",
        &format!("{DATA}/day_bucket/queries.cql"),
        "--stats",
        &format!("{DATA}/day_bucket/stats.toml"),
    ]));
}

#[test]
fn json_lists_changes_with_kind_reason_and_statements_per_phase() {
    let out = cqlmodel()
        .args(pair("drop_column"))
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let change = &v["changes"][0];
    assert_eq!(change["table"], "iot.devices");
    assert_eq!(change["kind"], "alter");
    assert_eq!(change["statements"][0]["phase"], "drop");
    assert_eq!(
        change["statements"][0]["statements"][1],
        "ALTER TABLE iot.devices DROP firmware;"
    );
    assert_eq!(v["dry_run"]["differences"], Value::Array(vec![]));
}

#[test]
fn bad_input_points_into_the_file_and_plans_nothing() {
    assert_cmd_snapshot!(cqlmodel().args(pair("bad_syntax")));
    let out = cqlmodel().args(pair("bad_new")).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad_new/new.cql:3:55"), "{stderr}");
    assert!(stderr.contains("Cannot mix counter and non counter columns in the same table"));
    assert!(out.stdout.is_empty());
}

#[test]
fn identical_schemas_are_nothing_to_do() {
    let out = cqlmodel().args(pair("identical")).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "nothing to do: OLD and NEW define the same schema\n"
    );
}

#[test]
fn a_dropped_table_without_replacement_is_flagged() {
    let out = cqlmodel()
        .args(pair("dropped_table"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("drop iot.legacy_alerts  [needs a decision]"),
        "{stdout}"
    );
}

#[test]
fn scylla_target_alters_a_compatible_type_in_place() {
    let out = cqlmodel()
        .args(pair("type_change"))
        .args(["--target", "scylla"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ALTER TABLE iot.devices ALTER serial TYPE text;"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_output_directory_is_written_whole_and_replaced_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("plan");
    let run = |layout: &str| {
        cqlmodel()
            .args(pair("clustering_order"))
            .args(["--layout", layout, "--out"])
            .arg(&out)
            .output()
            .expect("runs")
    };
    assert_eq!(run("numbered").status.code(), Some(0));
    let create = out.join("cql/1-create/001_rebuild_iot_temp_by_device.cql");
    let text = std::fs::read_to_string(&create).expect("phase 1 script");
    assert!(text.contains("CREATE TABLE IF NOT EXISTS iot.temp_by_device_v2"));
    assert!(
        out.join("cql/7-drop/002_rebuild_iot_temp_by_device.cql")
            .is_file()
    );
    assert!(out.join("runbook.md").is_file());
    assert!(out.join("verify/iot.temp_by_device.cql").is_file());
    // A second run replaces the directory: the numbered files are gone.
    assert_eq!(run("cqlmigrate").status.code(), Some(0));
    assert!(!create.exists());
    assert!(
        out.join("cql/1-create/2026-12-03-09:06-rebuild-iot-temp-by-device.cql")
            .is_file()
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers, [std::ffi::OsString::from("plan")]);
}

#[test]
fn the_output_directory_never_holds_an_input() {
    let out = cqlmodel()
        .args(pair("add_column"))
        .args(["--out", &format!("{DATA}/add_column")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("lies inside, the input"), "{stderr}");
    assert!(root().join(DATA).join("add_column/old.cql").is_file());
    assert!(!root().join(DATA).join("add_column/runbook.md").exists());

    // Nor inside an input directory.
    let input_dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        root().join(DATA).join("add_column/old.cql"),
        input_dir.path().join("schema.cql"),
    )
    .expect("copy");
    let out = cqlmodel()
        .arg("migrate")
        .arg(input_dir.path())
        .arg(format!("{DATA}/add_column/new.cql"))
        .arg("--out")
        .arg(input_dir.path().join("plan"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("lies inside, the input"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!input_dir.path().join("plan").exists());

    // A directory that is not a previous plan is left alone.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
    let out = cqlmodel()
        .args(pair("add_column"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(dir.path().join("notes.txt").is_file());
}

#[test]
fn old_from_an_unreachable_cluster_fails_within_the_connect_timeout() {
    let start = std::time::Instant::now();
    let out = cqlmodel()
        .args([
            "migrate",
            "--cluster",
            "127.0.0.1:1",
            "--connect-timeout",
            "2",
            &format!("{DATA}/add_column/new.cql"),
        ])
        .output()
        .expect("ran");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("127.0.0.1:1"), "{stderr}");
    assert!(stderr.contains("nothing planned"), "{stderr}");
}

#[test]
fn with_a_cluster_only_new_is_given() {
    let out = cqlmodel()
        .args(["migrate", "--cluster", "127.0.0.1:1"])
        .args(&pair("add_column")[1..])
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("give only NEW"), "{stderr}");
    let out = cqlmodel()
        .args(["migrate", &format!("{DATA}/add_column/old.cql")])
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give OLD and NEW"));
}

#[test]
fn a_declared_regular_rename_is_a_rebuild() {
    assert_cmd_snapshot!(
        cqlmodel()
            .args(pair("rename_declared"))
            .args(["--rename", "shop.customers.mail=email"])
    );
}

#[test]
fn an_undeclared_regular_rename_needs_a_decision() {
    let out = cqlmodel()
        .args(pair("rename_declared"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "flagged: exit 1");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("--rename shop.customers.mail=email"),
        "{stdout}"
    );
}

#[test]
fn a_rename_that_does_not_fit_the_schemas_is_a_usage_error() {
    let out = cqlmodel()
        .args(pair("rename_declared"))
        .args(["--rename", "shop.customers.nope=email"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "--rename shop.customers.nope=email: OLD's shop.customers has no column nope"
        ),
        "{stderr}"
    );
}

#[test]
fn a_rename_among_several_changes_needs_a_decision() {
    assert_cmd_snapshot!(cqlmodel().args(pair("rename_among_changes")));
}

#[test]
fn a_rename_among_several_changes_declared_exits_0() {
    let out = cqlmodel()
        .args(pair("rename_among_changes"))
        .args(["--rename", "fleet.vehicles.model=model_name"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("0 need a decision"), "{stdout}");
}

#[test]
fn a_udt_field_type_change_rebuilds_the_tables_using_the_type() {
    assert_cmd_snapshot!(cqlmodel().args(pair("udt_field_type")));
}
