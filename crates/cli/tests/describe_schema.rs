//! The DESCRIBE KEYSPACE / DESCRIBE SCHEMA outputs of Cassandra 4.0, 4.1 and 5.0
//! (fixtures of the cql crate and of tests/data/describe/<version>/) load into
//! a schema with no error: every table, type, index and view Cassandra printed
//! is one it accepted. A migrations folder applies in version order.

use std::path::PathBuf;

use cqlmodel_cli::schema_load::{LoadedSchema, load_schema, load_schema_in};
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
    for version in ["4.0", "4.1", "5.0"] {
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

fn script(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/cqlsh"
    ))
    .join(name)
}

/// Roles, users, grants, identities and triggers load as no-ops: one info
/// per kind of statement, with its count; the tables are there.
#[test]
fn access_statements_and_triggers_are_skipped_with_one_info_per_kind() {
    let loaded = load_without_errors(&script("access.cql"));
    assert!(
        loaded
            .schema
            .table("billing", "invoices_by_account")
            .is_some()
    );
    let infos: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "no-model-statement")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(infos.len(), 5, "{infos:#?}");
    assert!(
        infos[0].starts_with("`CREATE ROLE`: 2 statements read and skipped"),
        "{infos:#?}"
    );
    assert!(
        infos[1].starts_with("`GRANT`: 5 statements read and skipped"),
        "{infos:#?}"
    );
    assert!(infos[3].contains("CREATE TRIGGER"), "{infos:#?}");
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Info),
        "only infos"
    );
}

/// A script run with `cqlsh -k payments`: no keyspace in it. Without
/// `--keyspace` every statement is rejected; with it the tables are read
/// into `payments`, whose replication stays unknown (and is said to be).
#[test]
fn keyspace_flag_gives_the_script_its_keyspace() {
    let path = script("no-keyspace.cql");
    let mut sources = SourceMap::new();
    let without = load_schema(std::slice::from_ref(&path), &mut sources).expect("readable");
    assert!(
        without
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error),
        "no keyspace: errors expected"
    );
    let mut sources = SourceMap::new();
    let with = load_schema_in(std::slice::from_ref(&path), &mut sources, Some("payments"))
        .expect("readable");
    let errors: Vec<_> = with
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(with.schema.tables().count(), 2);
    assert!(with.schema.table("payments", "payment_by_id").is_some());
    let ks = with.schema.keyspaces.get("payments").expect("assumed");
    assert_eq!(ks.replication.min_replication_factor(), None);
    let info = with
        .diagnostics
        .iter()
        .find(|d| d.code == "assumed-keyspace")
        .expect("the assumption is stated");
    assert!(info.message.contains("its 2 tables"), "{}", info.message);
}

/// `--keyspace` naming a keyspace the files create changes nothing but the
/// session keyspace; naming one no table went into adds nothing.
#[test]
fn keyspace_flag_on_a_complete_schema_adds_nothing() {
    let path = script("setup.cql");
    let mut sources = SourceMap::new();
    let loaded = load_schema_in(std::slice::from_ref(&path), &mut sources, Some("ledger"))
        .expect("readable");
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.code != "assumed-keyspace")
    );
    let mut sources = SourceMap::new();
    let loaded =
        load_schema_in(std::slice::from_ref(&path), &mut sources, Some("other")).expect("readable");
    assert!(!loaded.schema.keyspaces.contains_key("other"));
}

/// `SOURCE 'f'` reads `f` relative to the file that names it, in place of
/// the line: the index after it sees the sourced table. A missing file is
/// one error at its SOURCE line; the rest of the script still applies.
#[test]
fn source_is_followed_relative_to_the_script() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/source"
    ));
    let mut sources = SourceMap::new();
    let loaded = load_schema(&[dir.join("main.cql")], &mut sources).expect("readable");
    let schema_errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.code != "source")
        .collect();
    assert!(schema_errors.is_empty(), "{schema_errors:#?}");
    let products = loaded
        .schema
        .table("catalog", "products_by_category")
        .expect("sourced table");
    assert_eq!(products.indexes.len(), 1, "the index after SOURCE applies");
    assert!(
        loaded
            .schema
            .table("catalog", "prices_by_product")
            .is_some()
    );
    let followed = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "source" && d.severity == Severity::Info)
        .count();
    assert_eq!(followed, 2);
    let missing: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "source" && d.severity == Severity::Error)
        .collect();
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert!(
        missing[0].message.contains("missing.cql"),
        "{}",
        missing[0].message
    );
    let rendered = render_human(&loaded.diagnostics, &sources, false);
    assert!(rendered.contains("main.cql:7:1"), "{rendered}");
}

/// A file that sources itself through another is read once: the cycle is an
/// error at the SOURCE that closes it, and both tables exist.
#[test]
fn a_source_cycle_is_reported_once_and_stops() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/source-cycle"
    ));
    let mut sources = SourceMap::new();
    let loaded = load_schema(&[dir.join("a.cql")], &mut sources).expect("readable");
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].message.contains("is a cycle"),
        "{}",
        errors[0].message
    );
    assert!(loaded.schema.table("loops", "a").is_some());
    assert!(loaded.schema.table("loops", "b").is_some());
}

fn compact_storage_dir(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/compact-storage"
    ))
    .join(name)
}

/// `ALTER TABLE … DROP COMPACT STORAGE` is refused as Cassandra 5.0 refuses
/// it by default (`drop_compact_storage_enabled: false`), with its message and
/// the way to say the cluster enables it; the table stays compact.
#[test]
fn drop_compact_storage_is_refused_by_default() {
    let dir = compact_storage_dir("refused");
    let mut sources = SourceMap::new();
    let loaded = load_schema(std::slice::from_ref(&dir), &mut sources).expect("readable");
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(
        errors[0].message,
        "DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use."
    );
    assert!(
        errors[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("-- @drop_compact_storage_enabled")),
        "{:?}",
        errors[0].help
    );
    let table = loaded
        .schema
        .table("legacy", "user_flags")
        .expect("the table stays");
    assert!(table.options.compact_storage);
}

/// The comment `-- @drop_compact_storage_enabled` says the cluster enables
/// it: the statement applies and the table is no longer compact.
#[test]
fn drop_compact_storage_applies_when_the_file_says_the_cluster_enables_it() {
    let dir = compact_storage_dir("enabled");
    let mut sources = SourceMap::new();
    let loaded = load_schema(std::slice::from_ref(&dir), &mut sources).expect("readable");
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.severity != Severity::Error),
        "{}",
        render_human(&loaded.diagnostics, &sources, false)
    );
    let table = loaded
        .schema
        .table("legacy", "user_flags")
        .expect("the table stays");
    assert!(!table.options.compact_storage);
}
