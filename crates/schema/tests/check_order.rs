//! Rules whose outcome depends on the order in which Cassandra checks things,
//! and the builder's guarantees around rejected statements.

use cqlmodel_schema::access::analyze;
use cqlmodel_schema::{ErrorClass, SchemaBuild, SchemaBuilder, Settings, build_schema};

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (pk1 int, pk2 text, ck1 int, ck2 int, s int STATIC, v int, m map<text,int>, l list<int>, st set<int>, PRIMARY KEY ((pk1, pk2), ck1, ck2));
CREATE TABLE ks.c (k int PRIMARY KEY, hits counter);
";

fn build_with(settings: Settings, cql: &str) -> SchemaBuild {
    let parsed = cqlmodel_cql::parse(&format!("{SCHEMA}{cql}"));
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(0, &parsed.statements);
    builder.finish()
}

/// The messages of the errors of `cql` (run after the schema).
fn errors(cql: &str) -> Vec<String> {
    build_with(Settings::default(), cql)
        .errors
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn parser_errors_of_create_table_follow_the_written_order() {
    assert_eq!(
        errors("CREATE TABLE ks.x (a int PRIMARY KEY, PRIMARY KEY (a), a text);"),
        ["Multiple PRIMARY KEY specified for table 'ks.x' (exactly one required)"]
    );
    assert_eq!(
        errors("CREATE TABLE ks.x (a int PRIMARY KEY, a text, PRIMARY KEY (a));"),
        ["Duplicate column 'a' declaration for table 'ks.x'"]
    );
    assert_eq!(
        errors(
            "CREATE TABLE ks.x (a int, b int, PRIMARY KEY (a, b)) WITH comment = 'x' AND CLUSTERING ORDER BY (b DESC, b ASC) AND comment = 'y';"
        ),
        ["Duplicate column 'b' in CLUSTERING ORDER BY clause for table 'ks.x'"]
    );
    assert_eq!(
        errors(
            "CREATE TABLE ks.x (a int, b int, PRIMARY KEY (a, b)) WITH comment = 'x' AND comment = 'y' AND CLUSTERING ORDER BY (b DESC, b ASC);"
        ),
        ["Multiple definitions for property 'comment'"]
    );
}

#[test]
fn column_types_are_checked_in_the_byte_order_of_their_names() {
    // `a` sorts before `b` whatever the declaration order.
    assert_eq!(
        errors("CREATE TABLE ks.x (k int PRIMARY KEY, b set<counter>, a set<duration>);"),
        ["Durations are not allowed inside sets: set<duration>"]
    );
    // Upper case (quoted) names sort before lower case ones.
    assert_eq!(
        errors("CREATE TABLE ks.x (k int PRIMARY KEY, a set<counter>, \"Z\" set<duration>);"),
        ["Durations are not allowed inside sets: set<duration>"]
    );
}

#[test]
fn option_values_are_parsed_before_the_keyspace_is_looked_up() {
    assert_eq!(
        errors("CREATE TABLE nosuch.x (a int PRIMARY KEY) WITH gc_grace_seconds = 'x';"),
        ["Invalid integer value x for 'gc_grace_seconds'"]
    );
    // ... but the keyspace name itself (GEN-3) is checked before the keyspace exists.
    assert_eq!(
        errors("CREATE TABLE \"bad-ks\".x (a int PRIMARY KEY);"),
        [
            "Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \"bad-ks\")"
        ]
    );
}

#[test]
fn keyspace_names_are_limited_but_table_names_are_not() {
    let long = "k".repeat(49);
    assert_eq!(
        errors(&format!(
            "CREATE KEYSPACE {long} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};"
        )),
        [format!(
            "Keyspace name must not be more than 48 characters long (got 49 characters for \"{long}\")"
        )]
    );
    let table = "t".repeat(60);
    assert!(errors(&format!("CREATE TABLE ks.{table} (a int PRIMARY KEY);")).is_empty());
}

#[test]
fn classes_follow_the_exception_cassandra_throws() {
    let build = build_with(
        Settings::default(),
        "CREATE TABLE ks.x (a int PRIMARY KEY, b frozen<int>);
         CREATE TABLE ks.t (a int PRIMARY KEY);
         CREATE TABLE ks.y (a int PRIMARY KEY) WITH gc_grace_seconds = -1;
         CREATE TABLE ks.z (a int PRIMARY KEY, a int);",
    );
    let classes: Vec<ErrorClass> = build.errors.iter().map(|e| e.class()).collect();
    assert_eq!(
        classes,
        [
            ErrorClass::Syntax,
            ErrorClass::AlreadyExists,
            ErrorClass::Configuration,
            ErrorClass::Invalid
        ]
    );
    assert_eq!(ErrorClass::AlreadyExists.code(), 0x2400);
}

#[test]
fn a_rejected_statement_changes_nothing() {
    let build = build_with(
        Settings::default(),
        "ALTER TABLE ks.t ADD (a int, hits counter);
         CREATE INDEX ON ks.t (nosuch);",
    );
    assert_eq!(
        build.errors[0].to_string(),
        "ks.t: Cannot have a counter column (\"hits\") in a non counter table"
    );
    let t = build.schema.table("ks", "t").expect("table kept");
    assert!(
        t.column("a").is_none(),
        "the first column of a rejected ADD is not added"
    );
    assert!(t.indexes.is_empty());
}

#[test]
fn the_error_points_at_the_offending_part() {
    let source = format!("{SCHEMA}CREATE TABLE ks.x (a int, a text, PRIMARY KEY (a));");
    let parsed = cqlmodel_cql::parse(&source);
    let build = build_schema(3, &parsed.statements);
    let e = &build.errors[0];
    assert_eq!(e.file, 3);
    assert_eq!(source.get(e.span.range()), Some("a"));
    assert_eq!(
        Some(e.span.start as usize),
        source.find("a text"),
        "the second `a`"
    );
}

#[test]
fn views_are_modeled_only_when_enabled() {
    let view = "CREATE MATERIALIZED VIEW ks.mv AS SELECT pk1, pk2, ck1, ck2, v FROM ks.t WHERE pk1 IS NOT NULL AND pk2 IS NOT NULL AND ck1 IS NOT NULL AND ck2 IS NOT NULL PRIMARY KEY ((pk1, pk2), ck1, ck2);";
    let disabled = build_with(Settings::default(), view);
    assert!(disabled.schema.table("ks", "mv").is_none());
    assert!(disabled.warnings.is_empty());

    let enabled = build_with(
        Settings {
            materialized_views_enabled: true,
            ..Settings::default()
        },
        view,
    );
    assert!(enabled.errors.is_empty(), "{:?}", enabled.errors);
    let mv = enabled.schema.table("ks", "mv").expect("view");
    assert_eq!(mv.view.as_ref().map(|v| v.base_table.as_str()), Some("t"));
    assert_eq!(
        enabled.schema.table("ks", "t").map(|t| t.views.clone()),
        Some(vec!["mv".to_string()])
    );
    assert_eq!(enabled.warnings.len(), 1);
}

#[test]
fn sasi_indexes_need_their_setting_and_warn() {
    let sasi = "CREATE CUSTOM INDEX ON ks.t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex';";
    let enabled = build_with(
        Settings {
            sasi_indexes_enabled: true,
            ..Settings::default()
        },
        sasi,
    );
    assert!(enabled.errors.is_empty(), "{:?}", enabled.errors);
    assert_eq!(
        enabled
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>(),
        ["SASI indexes are experimental and are not recommended for production use."]
    );
}

#[test]
fn generated_index_names_skip_the_names_taken() {
    let build = build_with(
        Settings::default(),
        "CREATE INDEX ON ks.t (v) USING 'sai'; CREATE INDEX ON ks.t (v); CREATE INDEX t_m_idx ON ks.t (l); CREATE INDEX ON ks.t (keys(m));",
    );
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    let names: Vec<&str> = build
        .schema
        .table("ks", "t")
        .map(|t| t.indexes.iter().map(|i| i.name.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["t_v_idx", "t_v_idx_1", "t_m_idx", "t_m_idx_1"]);
}

#[test]
fn simple_strategy_without_a_factor_takes_the_default() {
    let build = build_with(
        Settings {
            default_keyspace_rf: 3,
            ..Settings::default()
        },
        "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy'};",
    );
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    assert_eq!(
        build
            .schema
            .keyspace("k2")
            .and_then(|k| k.replication.min_replication_factor()),
        Some(3)
    );
}

fn dml_error(cql: &str) -> Option<String> {
    let build = build_with(Settings::default(), "");
    let stmt = cqlmodel_cql::parse_statement(cql).expect("parses");
    analyze(&build.schema, &stmt, None).error.map(|e| e.message)
}

#[test]
fn batch_checks_run_in_cassandras_order() {
    // BAT-4 (a statement timestamp) is found before BAT-5 (counters).
    assert_eq!(
        dml_error(
            "BEGIN UNLOGGED BATCH USING TIMESTAMP 1 UPDATE ks.c USING TIMESTAMP 2 SET hits = hits + 1 WHERE k = 1; APPLY BATCH"
        )
        .as_deref(),
        Some("Timestamp must be set either on BATCH or individual statements")
    );
    // The batch checks come before each statement's own validate (DML-V3).
    assert_eq!(
        dml_error(
            "BEGIN BATCH UPDATE ks.c USING TTL 5 SET hits = hits + 1 WHERE k = 1; APPLY BATCH"
        )
        .as_deref(),
        Some("Cannot include a counter statement in a logged batch")
    );
    // Execution checks of a conditional batch: IN on the key first.
    assert_eq!(
        dml_error(
            "BEGIN BATCH UPDATE ks.t SET v = 1 WHERE pk1 IN (1, 2) AND pk2 = 'a' AND ck1 = 1 AND ck2 = 1 IF v = 1; APPLY BATCH"
        )
        .as_deref(),
        Some("Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)")
    );
}

#[test]
fn modification_checks_run_in_cassandras_order() {
    // IN on the partition key is reported before IN on the clustering key.
    assert_eq!(
        dml_error("UPDATE ks.t SET v = 1 WHERE pk1 IN (1, 2) AND pk2 = 'a' AND ck1 IN (1, 2) AND ck2 = 1 IF v = 1")
            .as_deref(),
        Some("IN on the partition key is not supported with conditional updates")
    );
    // A conditional DELETE says "deletions".
    assert_eq!(
        dml_error(
            "DELETE FROM ks.t WHERE pk1 = 1 AND pk2 = 'a' AND ck1 IN (1, 2) AND ck2 = 1 IF EXISTS"
        )
        .as_deref(),
        Some("IN on the clustering key columns is not supported with conditional deletions")
    );
    // A whole-row DELETE with a condition on a static column only touches the static row.
    assert_eq!(
        dml_error("DELETE FROM ks.t WHERE pk1 = 1 AND pk2 = 'a' AND ck1 = 1 AND ck2 = 1 IF s = 1")
            .as_deref(),
        Some(
            "Invalid restrictions on clustering columns since the DELETE statement modifies only static columns"
        )
    );
    // SET m[k] and SET m = {...} on one column: the parser refuses the pair.
    assert_eq!(
        dml_error(
            "UPDATE ks.t SET m['a'] = 1, m = {} WHERE pk1 = 1 AND pk2 = 'a' AND ck1 = 1 AND ck2 = 1"
        )
        .as_deref(),
        Some("Multiple incompatible setting of column m")
    );
}

#[test]
fn views_follow_their_base_table() {
    let build = build_with(
        Settings {
            materialized_views_enabled: true,
            ..Settings::default()
        },
        "CREATE MATERIALIZED VIEW ks.all AS SELECT * FROM ks.c WHERE k IS NOT NULL PRIMARY KEY (k);
         CREATE TABLE ks.r (k int, c int, v int, PRIMARY KEY (k, c));
         CREATE MATERIALIZED VIEW ks.everything AS SELECT * FROM ks.r WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (c, k);
         CREATE MATERIALIZED VIEW ks.some AS SELECT k, c FROM ks.r WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (c, k);
         ALTER TABLE ks.r ADD w int;
         ALTER TABLE ks.r RENAME c TO cc;",
    );
    let messages: Vec<String> = build.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        messages,
        ["Materialized views are not supported on counter tables"]
    );
    let names = |view: &str| -> Vec<String> {
        build
            .schema
            .table("ks", view)
            .map(|t| t.columns.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(names("everything"), ["cc", "k", "v", "w"]);
    assert_eq!(names("some"), ["cc", "k"]);
}
