//! The DESCRIBE KEYSPACE / DESCRIBE SCHEMA outputs of Cassandra 4.0, 4.1 and 5.0
//! (fixtures of the cql crate and of tests/data/describe/<version>/) load into
//! a schema with no error: every table, type, index and view Cassandra printed
//! is one it accepted. A migrations folder applies in version order.

use std::path::PathBuf;

use cqlmodel_cli::schema_load::{LoadedSchema, load_schema};
use cqlmodel_diagnostics::{Severity, SourceMap, render_human};

/// Loads one file or folder and fails the test, with the rendered errors, if
/// the load reports any error.
fn load_without_errors(path: &std::path::Path) -> LoadedSchema {
    let mut sources = SourceMap::new();
    let loaded = load_schema(&[path.to_path_buf()], &mut sources).expect("readable input");
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .cloned()
        .collect();
    assert!(
        errors.is_empty(),
        "{}:\n{}",
        path.display(),
        render_human(&errors, &sources, false)
    );
    loaded
}

fn cql_files_in(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    files
}

#[test]
fn describe_outputs_build_without_errors() {
    let cql_fixtures = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cql/tests/data/describe"
    ));
    let mut files = cql_files_in(&cql_fixtures);
    // DESCRIBE KEYSPACE / DESCRIBE SCHEMA per Cassandra version (4.0, 5.0 …).
    let by_version = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/describe"));
    for version in ["4.0", "5.0"] {
        files.extend(cql_files_in(&by_version.join(version)));
    }
    assert!(
        files.len() >= 6,
        "expected the 4.0, 4.1 and 5.0 fixtures, found {files:?}"
    );
    for file in files {
        let loaded = load_without_errors(&file);
        assert!(
            loaded.schema.tables().count() >= 2,
            "{} has tables",
            file.display()
        );
    }
}

/// A migrations folder applies in version order: `V10__…` after `V2__…`
/// (a plain name sort would run V10 first, and its DROP of `last_login`,
/// added by V2, would fail).
#[test]
fn migration_scripts_apply_in_version_order() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/migrations"
    ));
    let loaded = load_without_errors(&dir);
    let order = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == "migration-order")
        .map(|d| d.message.clone())
        .expect("the order is reported");
    assert!(
        order.ends_with("V1__init.cql, V2__login_by_email.cql, V10__drop_display_name.cql"),
        "{order}"
    );
    let accounts = loaded.schema.table("auth", "accounts").expect("accounts");
    let mut names: Vec<&str> = accounts.columns.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["account_id", "created_at", "email"]);
    let sessions = loaded
        .schema
        .table("auth", "sessions_by_account")
        .expect("sessions");
    assert!(sessions.column("ip").is_some());
}

/// A script written for `cqlsh -f`: every shell command (with or without `;`,
/// `COPY … FROM` included) is skipped with an info, and the CQL between them
/// is applied (`USE` included).
#[test]
fn cqlsh_script_commands_are_skipped_and_the_cql_applies() {
    let file = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/cqlsh/setup.cql"
    ));
    let loaded = load_without_errors(&file);
    let skipped: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "cqlsh-command")
        .map(|d| d.message.split('`').nth(1).unwrap_or_default())
        .collect();
    assert_eq!(
        skipped,
        [
            "consistency",
            "serial",
            "paging",
            "expand",
            "tracing",
            "capture",
            "copy",
            "describe",
            "capture",
            "exit"
        ]
    );
    assert!(
        loaded
            .schema
            .table("ledger", "entries_by_account")
            .is_some()
    );
}
