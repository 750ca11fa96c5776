//! Every kind of change on a schema pair of `tests/data/<case>/{old,new}.cql`:
//! what the plan decides, the statements it writes, and the dry run (the plan's
//! schema statements applied to OLD give NEW).

use std::path::PathBuf;

use cqlmodel_migrate::{
    AppStatement, ChangeKind, ColumnRename, MigrateInput, Phase, Plan, Target, Verdict, dry_run,
    plan,
};
use cqlmodel_schema::{Origin, Schema, SchemaBuilder, Settings};

struct Case {
    old: Schema,
    new: Schema,
    texts: Vec<String>,
    queries: Vec<AppStatement>,
    stats: Option<cqlmodel_stats::Stats>,
    /// `renames.txt`: the case's `--rename` flags, one a line.
    renames: Vec<ColumnRename>,
}

fn data(case: &str, file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(case)
        .join(file)
}

fn build(text: &str, file: usize) -> Schema {
    let settings = Settings {
        materialized_views_enabled: true,
        ..Settings::default()
    };
    let mut b = SchemaBuilder::with_settings(settings);
    b.add_statements(file, &cqlmodel_cql::parse(text).statements);
    let built = b.finish();
    assert!(built.errors.is_empty(), "{:?}", built.errors);
    built.schema
}

fn load(case: &str) -> Case {
    let read = |f: &str| std::fs::read_to_string(data(case, f)).unwrap_or_default();
    let texts = vec![read("old.cql"), read("new.cql")];
    let old = build(&texts[0], 0);
    let new = build(&texts[1], 1);
    let queries = cqlmodel_cql::parse(&read("queries.cql"))
        .statements
        .into_iter()
        .enumerate()
        .map(|(i, statement)| AppStatement {
            name: format!("Q{}", i + 1),
            statement,
            consistency: None,
            rate: None,
        })
        .collect();
    let stats_text = read("stats.toml");
    let stats = (!stats_text.is_empty())
        .then(|| cqlmodel_stats::load_stats(&stats_text, &old).ok())
        .flatten();
    Case {
        old,
        new,
        texts,
        queries,
        stats,
        renames: read("renames.txt")
            .lines()
            .filter_map(|l| l.parse().ok())
            .collect(),
    }
}

fn run_on(case: &Case, target: Target) -> Plan {
    let source = |o: &Origin| {
        case.texts
            .get(o.file)
            .and_then(|t| t.get(o.span.range()))
            .map(str::to_string)
    };
    let input = MigrateInput {
        old: &case.old,
        new: &case.new,
        target,
        queries: &case.queries,
        stats: case.stats.as_ref(),
        source: &source,
        renames: &case.renames,
    };
    let p = plan(&input);
    let dry = dry_run(&case.old, &case.new, &p);
    assert!(dry.ok(), "dry run of {target:?}: {dry:#?}\nplan: {p:#?}");
    p
}

fn run(case: &str) -> Plan {
    run_on(&load(case), Target::Cassandra)
}

fn statements(p: &Plan, phase: Phase) -> Vec<String> {
    p.phase(phase)
        .into_iter()
        .flat_map(|(_, s)| s.iter().cloned())
        .collect()
}

#[test]
fn adding_a_column_is_one_alter() {
    let p = run("add_column");
    assert_eq!(p.changes.len(), 1);
    assert_eq!(p.changes[0].kind, ChangeKind::Alter);
    assert_eq!(
        statements(&p, Phase::Create),
        ["ALTER TABLE iot.temp_by_device ADD humidity double;"]
    );
    assert!(statements(&p, Phase::Drop).is_empty());
}

#[test]
fn a_new_clustering_order_is_a_rebuild_under_a_new_name() {
    let p = run("clustering_order");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    assert!(
        c.reason
            .contains("(ts timestamp DESC) to (ts timestamp ASC)"),
        "{}",
        c.reason
    );
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert_eq!(r.new_table, "iot.temp_by_device_v2");
    assert!(r.same_partition_key);
    assert_eq!(
        p.renamed.get("iot.temp_by_device").map(String::as_str),
        Some("iot.temp_by_device_v2")
    );
    let create = statements(&p, Phase::Create);
    assert!(create[0].starts_with("CREATE TABLE IF NOT EXISTS iot.temp_by_device_v2"));
    assert!(
        !create[0].contains("CLUSTERING ORDER"),
        "ASC is the default: {}",
        create[0]
    );
    assert_eq!(
        statements(&p, Phase::Drop),
        ["DROP TABLE IF EXISTS iot.temp_by_device;"]
    );
    let verify = cqlmodel_migrate::verify::verify_script(r, 4);
    assert_eq!(verify.matches("SELECT count(*)").count(), 8, "{verify}");
}

#[test]
fn a_day_bucket_is_computed_in_dual_writes_reads_and_backfill() {
    let p = run("day_bucket");
    assert_eq!(p.changes.len(), 1, "{p:#?}");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    assert!(
        c.reason.contains("taken as its replacement"),
        "{}",
        c.reason
    );
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert_eq!(r.new_table, "iot.temp_by_device_day");
    assert!(!r.same_partition_key);
    assert_eq!(
        r.dual_writes[0].new.as_deref(),
        Some(
            "INSERT INTO iot.temp_by_device_day (device_id, day, ts, temp) VALUES (?, todate((timestamp) ?), ?, ?);"
        )
    );
    assert_eq!(
        r.dual_writes[0].served.as_deref(),
        Some("single-partition, 1 partition")
    );
    assert_eq!(
        r.dual_writes[1].new.as_deref(),
        Some(
            "UPDATE iot.temp_by_device_day SET temp = ? WHERE device_id = ? AND ts = ? AND day = todate((timestamp) ?);"
        )
    );
    // Cassandra refuses a bare todate(?) as ambiguous (timestamp or timeuuid): the
    // marker carries ts's type (checked on the node by crates/livetest/tests/migrate.rs).
    // A range on ts does not fix the day: the application binds the days.
    assert!(
        r.reads[0]
            .notes
            .iter()
            .any(|n| n.contains("binds every day")),
        "{:?}",
        r.reads[0]
    );
    assert_eq!(r.reads.len(), 2);
    // Per phase, for tooling: the writes of phase 2 and the reads of phase 5.
    assert_eq!(statements(&p, Phase::DualWrite).len(), 2);
    assert_eq!(statements(&p, Phase::SwitchReads).len(), 2);
    assert!(!r.backfill.cdm_usable);
    assert!(r.backfill.dsbulk.contains("VALUES (:device_id, todate(:ts), :ts, :temp) USING TIMESTAMP :temp_wt AND TTL :temp_ttl"), "{}", r.backfill.dsbulk);
    let sizing = r.backfill.sizing.as_ref().expect("sized from stats");
    // 2,000 rows/s kept 90 days.
    assert_eq!(sizing.rows, 2_000.0 * 90.0 * 86_400.0);
    assert!((sizing.hours - sizing.rows / 20_000.0 / 3_600.0).abs() < 1e-9);
}

#[test]
fn a_dropped_column_loses_data_and_its_index_goes_first() {
    let p = run("drop_column");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Alter);
    assert_eq!(
        statements(&p, Phase::Drop),
        [
            "DROP INDEX IF EXISTS iot.devices_by_firmware;",
            "ALTER TABLE iot.devices DROP firmware;"
        ]
    );
    assert!(c.warnings.iter().any(|w| w.starts_with("data loss")));
    assert!(
        c.items
            .iter()
            .any(|i| i.what.contains("system_schema.dropped_columns"))
    );
}

#[test]
fn a_primary_key_column_is_renamed_in_place() {
    let p = run("rename_key");
    assert_eq!(p.changes[0].kind, ChangeKind::Alter);
    assert_eq!(
        statements(&p, Phase::Create),
        ["ALTER TABLE iot.devices RENAME id TO device_id;"]
    );
}

#[test]
fn a_renamed_key_column_with_an_index_drops_and_recreates_it() {
    let p = run("rename_key_indexed");
    assert_eq!(
        statements(&p, Phase::Create),
        [
            "DROP INDEX IF EXISTS iot.readings_by_ts;",
            "ALTER TABLE iot.readings RENAME ts TO read_at;",
            "CREATE INDEX IF NOT EXISTS readings_by_ts ON iot.readings (read_at);"
        ]
    );
    let item = &p.changes[0].items[0];
    assert_eq!(
        item.message.as_deref(),
        Some("Can't rename column ts because it has dependent secondary indexes (readings_by_ts)")
    );
}

#[test]
fn table_options_are_one_alter_with_their_caveats() {
    let p = run("table_options");
    let create = statements(&p, Phase::Create);
    assert_eq!(create.len(), 1);
    assert!(
        create[0].starts_with("ALTER TABLE iot.temp_by_device WITH compaction = {"),
        "{}",
        create[0]
    );
    assert!(create[0].contains("default_time_to_live = 2592000"));
    assert!(create[0].contains("gc_grace_seconds = 86400"));
    let w = &p.changes[0].warnings;
    assert!(
        w.iter()
            .any(|w| w.contains("rows already written keep their TTL"))
    );
    assert!(w.iter().any(|w| w.contains("repair")));
}

#[test]
fn a_type_change_is_refused_by_cassandra_and_accepted_by_scylla() {
    let p = run("type_change");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    let item = c
        .items
        .iter()
        .find(|i| i.verdict == Verdict::Forbidden)
        .expect("refused");
    assert_eq!(
        item.attempted.as_deref(),
        Some("ALTER TABLE iot.devices ALTER serial TYPE text;")
    );
    assert_eq!(
        item.message.as_deref(),
        Some("Altering column types is no longer supported")
    );
    let scylla = run_on(&load("type_change"), Target::Scylla);
    assert_eq!(scylla.changes[0].kind, ChangeKind::Alter);
    assert_eq!(
        statements(&scylla, Phase::Create),
        ["ALTER TABLE iot.devices ALTER serial TYPE text;"]
    );
}

#[test]
fn a_column_turning_static_is_a_rebuild() {
    let p = run("static_column");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    let item = c
        .items
        .iter()
        .find(|i| i.message.is_some())
        .expect("refusal");
    assert_eq!(
        item.message.as_deref(),
        Some(
            "Cannot re-add previously dropped column 'model' of kind STATIC, incompatible with previous kind REGULAR"
        )
    );
}

#[test]
fn a_counter_cannot_join_a_regular_table() {
    let p = run("counter_column");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    assert!(c.items.iter().any(|i| i.message.as_deref()
        == Some(
            "iot.device_stats: Cannot have a counter column (\"readings\") in a non counter table"
        )));
    let scylla = run_on(&load("counter_column"), Target::Scylla);
    assert!(scylla.changes[0].items.iter().any(|i| i.message.as_deref()
        == Some("Cannot add a counter column (readings) in a non counter column family")));
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert!(
        r.backfill
            .caveats
            .iter()
            .all(|c| !c.contains("Counter table")),
        "the old table has no counters"
    );
}

#[test]
fn counters_are_added_once_not_copied_with_timestamps() {
    let p = run("counter_rebuild");
    let r = p.changes[0].rebuild.as_ref().expect("a rebuild");
    assert!(r.backfill.counters);
    assert!(r.backfill.dsbulk.contains(
        "UPDATE iot.readings_count_by_day SET readings = readings + :readings WHERE device_id = :device_id AND day = :day"
    ));
    assert!(!r.backfill.dsbulk.contains("USING TIMESTAMP"));
    assert!(
        r.backfill
            .caveats
            .iter()
            .any(|c| c.starts_with("Counter table"))
    );
}

#[test]
fn a_type_gains_a_field_in_place() {
    let p = run("udt_field");
    assert_eq!(p.changes[0].kind, ChangeKind::Alter);
    assert_eq!(
        statements(&p, Phase::Create),
        ["ALTER TYPE iot.address ADD postcode text;"]
    );
}

#[test]
fn a_field_type_change_of_a_nested_type_rebuilds_each_type_on_the_path_and_every_table() {
    let p = run("nested_udt_field_type");
    let kinds: Vec<(&str, ChangeKind, bool)> = p
        .changes
        .iter()
        .map(|c| (c.object.as_str(), c.kind, c.flagged))
        .collect();
    assert_eq!(
        kinds,
        [
            ("iot.address", ChangeKind::Rebuild, false),
            ("iot.site", ChangeKind::Rebuild, false),
            ("iot.deliveries", ChangeKind::Rebuild, false),
            ("iot.sites", ChangeKind::Rebuild, false),
        ],
        "sensors uses neither type"
    );
    let create = statements(&p, Phase::Create);
    // The inner type first: site_v2 names address_v2.
    assert_eq!(
        &create[..2],
        [
            "CREATE TYPE IF NOT EXISTS iot.address_v2 (\n    street text,\n    zip int\n);",
            "CREATE TYPE IF NOT EXISTS iot.site_v2 (\n    name text,\n    location frozen<address_v2>\n);",
        ]
    );
    assert!(
        create.iter().any(
            |s| s.starts_with("CREATE TABLE IF NOT EXISTS iot.sites_v2 (")
                && s.contains("site frozen<site_v2>,")
        ),
        "{create:#?}"
    );
    assert!(
        create.iter().any(
            |s| s.starts_with("CREATE TABLE IF NOT EXISTS iot.deliveries_v2 (")
                && s.contains("drop_point frozen<address_v2>,")
        ),
        "{create:#?}"
    );
    // Tables first, then the outer type, then the inner one (Cassandra refuses to drop
    // a type another type still uses).
    let drop = statements(&p, Phase::Drop);
    assert_eq!(
        &drop[drop.len() - 2..],
        [
            "DROP TYPE IF EXISTS iot.site;",
            "DROP TYPE IF EXISTS iot.address;"
        ]
    );
    // The table using the outer type names it, not the inner one; the refusal is the
    // inner type's ALTER, with Cassandra's message.
    let sites = &p.changes[3];
    assert_eq!(sites.items.len(), 1, "{:#?}", sites.items);
    assert!(
        sites.items[0].what.contains("iot.site_v2"),
        "{}",
        sites.items[0].what
    );
    assert_eq!(
        sites.items[0].attempted.as_deref(),
        Some("ALTER TYPE iot.address ALTER zip TYPE int;")
    );
    assert_eq!(
        sites.items[0].message.as_deref(),
        Some("Altering field types is no longer supported")
    );
    assert_eq!(
        p.renamed.get("iot.site").map(String::as_str),
        Some("iot.site_v2")
    );
    let d = dry_run(
        &load("nested_udt_field_type").old,
        &load("nested_udt_field_type").new,
        &p,
    );
    assert!(d.ok(), "{:?}", d.differences);
}

#[test]
fn a_column_named_like_a_renamed_type_keeps_its_name_in_the_dry_run() {
    // sites.site is of type site: only the type's name reads as site_v2.
    let case = load("nested_udt_field_type");
    let p = run_on(&case, Target::Cassandra);
    let d = dry_run(&case.old, &case.new, &p);
    assert_eq!(d.differences, Vec::<String>::new());
}

#[test]
fn a_field_type_change_rebuilds_every_table_using_the_type() {
    let p = run("udt_field_type");
    let kinds: Vec<(&str, ChangeKind, bool)> = p
        .changes
        .iter()
        .map(|c| (c.object.as_str(), c.kind, c.flagged))
        .collect();
    assert_eq!(
        kinds,
        [
            ("shop.address", ChangeKind::Rebuild, false),
            ("shop.customers", ChangeKind::Rebuild, false),
            ("shop.orders", ChangeKind::Rebuild, false),
        ],
        "products does not use the type"
    );
    let ty = &p.changes[0];
    assert_eq!(
        ty.items[0].attempted.as_deref(),
        Some("ALTER TYPE shop.address ALTER zip TYPE int;")
    );
    assert_eq!(
        ty.items[0].message.as_deref(),
        Some("Altering field types is no longer supported")
    );
    assert_eq!(
        p.renamed.get("shop.address").map(String::as_str),
        Some("shop.address_v2")
    );
    let create = statements(&p, Phase::Create);
    assert_eq!(
        create[0],
        "CREATE TYPE IF NOT EXISTS shop.address_v2 (\n    street text,\n    city text,\n    zip int\n);"
    );
    assert!(
        create.iter().any(
            |s| s.starts_with("CREATE TABLE IF NOT EXISTS shop.customers_v2 (")
                && s.contains("billing frozen<address_v2>,")
                && s.contains("shipping map<text, frozen<address_v2>>,")
        ),
        "{create:#?}"
    );
    // The old type goes last, after the tables that use it.
    let drop = statements(&p, Phase::Drop);
    assert_eq!(
        drop.last().map(String::as_str),
        Some("DROP TYPE IF EXISTS shop.address;")
    );
    let orders = &p.changes[2];
    let item = &orders.items[0];
    assert_eq!(item.subject.as_deref(), Some("deliver_to"));
    assert_eq!(item.verdict, Verdict::Forbidden);
    let r = orders.rebuild.as_ref().expect("a rebuild");
    assert_eq!(r.new_table, "shop.orders_v2");
    assert!(
        r.backfill
            .caveats
            .iter()
            .any(|c| c.starts_with("deliver_to move onto another user type")),
        "{:?}",
        r.backfill.caveats
    );
    assert_eq!(
        r.dual_writes[0].new.as_deref(),
        Some(
            "INSERT INTO shop.orders_v2 (customer_id, order_id, total, deliver_to) VALUES (?, ?, ?, ?);"
        )
    );
}

#[test]
fn indexes_are_dropped_late_and_created_early() {
    let p = run("indexes");
    assert_eq!(
        statements(&p, Phase::Create),
        [
            "CREATE INDEX IF NOT EXISTS devices_by_site ON iot.devices (site) USING 'sai';",
            "CREATE INDEX IF NOT EXISTS devices_by_tag ON iot.devices (tags) USING 'sai';"
        ]
    );
    assert_eq!(
        statements(&p, Phase::Drop),
        ["DROP INDEX IF EXISTS iot.devices_by_model;"]
    );
}

#[test]
fn views_are_created_and_dropped() {
    let p = run("views");
    let kinds: Vec<(ChangeKind, &str)> = p
        .changes
        .iter()
        .map(|c| (c.kind, c.object.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (ChangeKind::Create, "iot.devices_by_site"),
            (ChangeKind::Drop, "iot.devices_by_model")
        ]
    );
    assert!(statements(&p, Phase::Create)[0].starts_with("CREATE MATERIALIZED VIEW IF NOT EXISTS iot.devices_by_site AS SELECT device_id, site FROM iot.devices"));
}

#[test]
fn a_drop_on_a_table_with_views_differs_by_target() {
    let p = run("drop_column_with_view");
    let c = &p.changes[0];
    // Cassandra: drop the view, drop the column, create the view again.
    assert_eq!(c.kind, ChangeKind::Alter);
    assert!(c.items.iter().any(|i| i.message.as_deref()
        == Some("Cannot drop column notes on base table devices with materialized views")));
    let drop = statements(&p, Phase::Drop);
    assert_eq!(
        drop[0],
        "DROP MATERIALIZED VIEW IF EXISTS iot.devices_by_model;"
    );
    assert_eq!(drop[1], "ALTER TABLE iot.devices DROP notes;");
    assert!(
        drop[2]
            .starts_with("CREATE MATERIALIZED VIEW IF NOT EXISTS iot.devices_by_model AS SELECT"),
        "{}",
        drop[2]
    );
    // ScyllaDB refuses only when a view holds the column: this view does not.
    let scylla = run_on(&load("drop_column_with_view"), Target::Scylla);
    assert_eq!(scylla.changes[0].kind, ChangeKind::Alter);
    assert_eq!(
        statements(&scylla, Phase::Drop),
        ["ALTER TABLE iot.devices DROP notes;"]
    );
}

#[test]
fn a_column_a_view_holds_goes_after_the_view_changes() {
    // Cassandra: the view is dropped, the column goes, the view is created from
    // NEW's definition: one rebuild of the view, in phase 7.
    let p = run("drop_column_in_view");
    let kinds: Vec<ChangeKind> = p.changes.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [ChangeKind::Alter]);
    assert!(statements(&p, Phase::Create).is_empty());
    let drop = statements(&p, Phase::Drop);
    assert_eq!(
        drop[0],
        "DROP MATERIALIZED VIEW IF EXISTS iot.devices_by_model;"
    );
    assert_eq!(drop[1], "ALTER TABLE iot.devices DROP notes;");
    assert!(
        drop[2].starts_with("CREATE MATERIALIZED VIEW") && !drop[2].contains("notes"),
        "{}",
        drop[2]
    );
    // ScyllaDB: the view is redefined first (phase 1), then the column goes.
    let scylla = run_on(&load("drop_column_in_view"), Target::Scylla);
    let create = statements(&scylla, Phase::Create);
    assert_eq!(
        create[0],
        "DROP MATERIALIZED VIEW IF EXISTS iot.devices_by_model;"
    );
    assert!(!create[1].contains("notes"), "{}", create[1]);
    assert_eq!(
        statements(&scylla, Phase::Drop),
        ["ALTER TABLE iot.devices DROP notes;"]
    );
    assert!(
        scylla.changes[0].items[0]
            .message
            .as_deref()
            .is_some_and(|m| m.ends_with("materialized view devices_by_model needs this column"))
    );
}

#[test]
fn a_rebuilt_tables_indexes_get_names_the_old_ones_do_not_hold() {
    let p = run("rebuild_with_index");
    assert_eq!(
        statements(&p, Phase::Create)[1],
        "CREATE INDEX IF NOT EXISTS orders_by_status_v2 ON shop.orders_v2 (status) USING 'sai';"
    );
    assert_eq!(
        p.renamed.get("shop.orders_by_status").map(String::as_str),
        Some("shop.orders_by_status_v2")
    );
    let r = p.changes[0].rebuild.as_ref().expect("a rebuild");
    // A map's elements each have a write time: the newest stands for them all.
    assert!(
        r.backfill
            .dsbulk
            .contains("maxwritetime(items) AS items_wt")
    );
    assert!(r.backfill.cdm_usable);
    // ScyllaDB has no maxwritetime(): the collection is loaded at the dual-write start.
    let scylla = run_on(&load("rebuild_with_index"), Target::Scylla);
    let r = scylla.changes[0].rebuild.as_ref().expect("a rebuild");
    assert!(
        !r.backfill.dsbulk.contains("maxwritetime"),
        "{}",
        r.backfill.dsbulk
    );
    assert!(
        r.backfill.dsbulk.contains(
            "(customer_id, order_id, items) VALUES (:customer_id, :order_id, :items) USING TIMESTAMP ${DUAL_WRITE_START_MICROS}"
        ),
        "{}",
        r.backfill.dsbulk
    );
}

#[test]
fn a_dropped_keyspace_is_flagged() {
    let p = run("dropped_keyspace");
    assert_eq!(p.changes.len(), 1);
    assert!(p.changes[0].flagged);
    assert_eq!(
        statements(&p, Phase::Drop),
        ["DROP KEYSPACE IF EXISTS legacy;"]
    );
}

#[test]
fn a_table_dropped_without_replacement_is_flagged() {
    let p = run("dropped_table");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Drop);
    assert!(c.flagged);
    assert_eq!(
        statements(&p, Phase::Drop),
        ["DROP TABLE IF EXISTS iot.legacy_alerts;"]
    );
}

#[test]
fn a_new_keyspace_comes_before_its_tables() {
    let p = run("new_keyspace");
    let create = statements(&p, Phase::Create);
    assert!(create[0].starts_with("CREATE KEYSPACE IF NOT EXISTS billing"));
    assert!(create[1].starts_with("CREATE TABLE IF NOT EXISTS billing.invoices"));
    assert!(create[1].contains("WITH CLUSTERING ORDER BY (issued DESC)"));
}

#[test]
fn a_new_datacenter_is_an_alter_keyspace_with_a_repair() {
    let p = run("replication");
    assert_eq!(
        statements(&p, Phase::Create),
        [
            "ALTER KEYSPACE iot WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '3'} AND durable_writes = true;"
        ]
    );
    assert!(
        p.changes[0].warnings.is_empty(),
        "the smallest factor is unchanged"
    );
}

#[test]
fn the_same_schema_written_differently_is_nothing_to_do() {
    assert!(run("identical").is_empty());
}

#[test]
fn a_regular_rename_is_planned_as_written_with_a_warning() {
    let p = run("rename_regular");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Alter);
    assert!(c.flagged, "a suspected rename needs a decision");
    assert!(c.warnings.iter().any(|w| w.contains(
        "UPDATE iot.devices USING TIMESTAMP :wt AND TTL :ttl SET model_name = :model WHERE device_id = :device_id"
    )));
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("Cannot rename non PRIMARY KEY column model")
                && w.contains("`--rename iot.devices.model=model_name`")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn every_case_dry_runs_on_both_targets() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut cases: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("bad_") && !n.starts_with("manual_"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "{cases:?}");
    for case in cases {
        for target in [Target::Cassandra, Target::Scylla] {
            run_on(&load(&case), target);
        }
    }
}

/// Every fixture's OLD against every other's NEW: unrelated schemas exercise
/// creates, drops and replacements together. The plan must dry-run unless it
/// flags a change it cannot plan.
#[test]
fn every_old_against_every_new() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut cases: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("bad_"))
        .collect();
    cases.sort();
    let loaded: Vec<Case> = cases.iter().map(|c| load(c)).collect();
    let mut failures = Vec::new();
    for (i, a) in loaded.iter().enumerate() {
        for (j, b) in loaded.iter().enumerate() {
            let texts = [a.texts[0].clone(), b.texts[1].clone()];
            for target in [Target::Cassandra, Target::Scylla] {
                let source = |o: &Origin| {
                    texts
                        .get(o.file)
                        .and_then(|t| t.get(o.span.range()))
                        .map(str::to_string)
                };
                let input = MigrateInput {
                    old: &a.old,
                    new: &b.new,
                    target,
                    queries: &[],
                    stats: None,
                    source: &source,
                    renames: &[],
                };
                let p = plan(&input);
                let dry = dry_run(&a.old, &b.new, &p);
                let unplannable = p
                    .changes
                    .iter()
                    .any(|c| c.flagged && c.items.iter().any(|i| i.verdict != Verdict::InPlace));
                if !dry.ok() && !unplannable {
                    failures.push(format!(
                        "{} → {} ({target:?}): {:?} {:?}",
                        cases[i], cases[j], dry.rejected, dry.differences
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_declared_rename_of_a_regular_column_is_a_rebuild_that_copies_it() {
    let case = load("rename_declared");
    assert_eq!(case.renames.len(), 1, "renames.txt is read");
    let p = run_on(&case, Target::Cassandra);
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild, "{c:?}");
    assert!(!c.flagged, "the user decided: no warning left");
    assert!(c.warnings.iter().all(|w| !w.contains("loses every value")));
    let item = c
        .items
        .iter()
        .find(|i| i.subject.as_deref() == Some("mail"))
        .expect("the rename's item");
    assert_eq!(item.verdict, Verdict::Forbidden);
    assert_eq!(
        item.attempted.as_deref(),
        Some("ALTER TABLE shop.customers RENAME mail TO email;")
    );
    assert_eq!(
        item.message.as_deref(),
        Some("Cannot rename non PRIMARY KEY column mail")
    );
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert!(
        r.not_copied.is_empty(),
        "mail is copied: {:?}",
        r.not_copied
    );
    let email = r.columns.iter().find(|m| m.column == "email");
    assert_eq!(
        email.map(|m| &m.source),
        Some(&cqlmodel_migrate::ColumnSource::Renamed {
            from: "mail".into()
        })
    );
    assert!(
        r.backfill.dsbulk.contains(
            "INSERT INTO shop.customers_v2 (customer_id, email) VALUES (:customer_id, :mail) USING TIMESTAMP :mail_wt AND TTL :mail_ttl"
        ),
        "{}",
        r.backfill.dsbulk
    );
    assert!(
        r.backfill
            .cdm_properties
            .contains("spark.cdm.schema.origin.column.names.to.target   mail:email"),
        "{}",
        r.backfill.cdm_properties
    );
    assert!(
        r.backfill
            .transformation
            .iter()
            .any(|t| t.starts_with("email = mail (renamed")),
        "{:?}",
        r.backfill.transformation
    );
    let dual = r.dual_writes[0].new.as_deref().unwrap_or_default();
    assert!(
        dual.contains("shop.customers_v2 (customer_id, email, created_at)"),
        "{dual}"
    );
    assert!(dry_run(&case.old, &case.new, &p).ok());
}

#[test]
fn a_rename_flag_is_checked_against_both_schemas() {
    let case = load("rename_declared");
    let check = |s: &str| {
        s.parse::<ColumnRename>()
            .and_then(|r| r.check(&case.old, &case.new))
            .map_err(|e| e.to_string())
    };
    assert_eq!(check("shop.customers.mail=email"), Ok(()));
    assert!(check("shop.customers.mail").is_err_and(|e| e.contains("expected KEYSPACE.TABLE")));
    assert!(check("customers.mail=email").is_err());
    assert!(check("shop.orders.mail=email").is_err_and(|e| e.contains("not a table of both")));
    assert!(check("shop.customers.email=mail").is_err_and(|e| e.contains("has no column email")));
    assert!(
        check("shop.customers.customer_id=email").is_err_and(|e| e.contains("primary-key column"))
    );
    assert!(check("shop.customers.mail=created_at").is_err_and(|e| e.contains("already has")));
}

#[test]
fn a_rename_among_other_changes_needs_a_decision() {
    let p = run("rename_among_changes");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Alter, "{c:?}");
    assert!(c.flagged, "model → model_name may be a rename: {c:?}");
    let suspected: Vec<&str> = c
        .items
        .iter()
        .filter(|i| i.verdict == Verdict::Manual)
        .filter_map(|i| i.subject.as_deref())
        .collect();
    assert_eq!(suspected, ["model"], "retired has no same-typed partner");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("`--rename fleet.vehicles.model=model_name`")),
        "{:?}",
        c.warnings
    );
    // Everything else is still planned as written.
    assert_eq!(
        statements(&p, Phase::Create),
        [
            "ALTER TABLE fleet.vehicles ADD model_name text;",
            "ALTER TABLE fleet.vehicles ADD odometer_km int;",
            "ALTER TABLE fleet.vehicles WITH gc_grace_seconds = 172800;",
        ]
    );
}

#[test]
fn a_declared_rename_among_other_changes_is_a_rebuild_no_longer_flagged() {
    let mut case = load("rename_among_changes");
    case.renames = vec!["fleet.vehicles.model=model_name".parse().expect("shape")];
    let p = run_on(&case, Target::Cassandra);
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild, "{c:?}");
    assert!(!c.flagged, "{:?}", c.warnings);
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert_eq!(r.not_copied, ["retired"]);
}

#[test]
fn a_rename_inside_a_rebuild_is_flagged_because_the_copy_skips_it() {
    let p = run("rename_in_rebuild");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    assert!(c.flagged, "{c:?}");
    assert!(
        c.warnings.iter().any(|w| w.contains("does not copy driver")
            && w.contains("`--rename fleet.trips.driver=driver_name`")),
        "{:?}",
        c.warnings
    );
    let r = c.rebuild.as_ref().expect("a rebuild");
    assert_eq!(r.not_copied, ["driver"]);
}

#[test]
fn the_spark_job_computes_the_day_and_keeps_each_cells_write_time() {
    let p = run("day_bucket");
    let r = p.changes[0].rebuild.as_ref().expect("a rebuild");
    let job = &r.backfill.spark;
    assert!(
        job.contains("val source = sc.cassandraTable(\"iot\", \"temp_by_device\")"),
        "{job}"
    );
    // The connector binds the per-row USING placeholders from the columns it writes: the
    // write time and TTL columns must be selected, or both stay unset (the time of the copy,
    // no TTL), as the first run on a node (scripts/check-spark-jobs.sh --run) showed.
    assert!(
        job.contains("(if (keepTimes) Seq[ColumnRef](\"cqlmodel_wt\", \"cqlmodel_ttl\") else Seq.empty[ColumnRef])"),
        "{job}"
    );
    assert!(!job.contains("DO NOT RUN"), "{job}");
    assert!(
        job.contains("\"day\" -> /* todate(ts) */ java.time.LocalDate.ofInstant(row.getDate(\"ts\").toInstant, java.time.ZoneOffset.UTC)"),
        "{job}"
    );
    assert!(
        job.contains("TTLOption.perRow(\"cqlmodel_ttl\"), timestamp = TimestampOption.perRow(\"cqlmodel_wt\")"),
        "{job}"
    );
    assert!(
        job.contains(".saveToCassandra(\"iot\", \"temp_by_device_day\""),
        "{job}"
    );
    assert!(
        job.contains("copy(\"temp\", \"temp\", keepTimes = true)"),
        "{job}"
    );
}

#[test]
fn the_spark_job_copies_a_declared_rename_into_the_new_column() {
    let p = run("rename_declared");
    let r = p.changes[0].rebuild.as_ref().expect("a rebuild");
    assert!(
        r.backfill
            .spark
            .contains("copy(\"mail\", \"email\", keepTimes = true)"),
        "{}",
        r.backfill.spark
    );
}

#[test]
fn the_spark_job_leaves_counters_to_the_dsbulk_load() {
    let p = run("counter_rebuild");
    let r = p.changes[0].rebuild.as_ref().expect("a rebuild");
    assert!(r.backfill.spark.contains("no Spark job is written"));
    assert!(!r.backfill.spark.contains("saveToCassandra"));
}

#[test]
fn every_write_path_gets_its_twin_with_the_rename_applied() {
    let p = run("dual_write_paths");
    let c = &p.changes[0];
    assert_eq!(c.kind, ChangeKind::Rebuild);
    let r = c.rebuild.as_ref().expect("a rebuild");
    let twins: Vec<(&str, Option<&str>)> = r
        .dual_writes
        .iter()
        .map(|w| (w.name.as_str(), w.new.as_deref()))
        .collect();
    assert_eq!(
        twins,
        [
            (
                "Q1",
                Some(
                    "INSERT INTO shop.carts_v2 (cart_id, sku, qty, gift_message) VALUES (?, ?, ?, ?);"
                )
            ),
            (
                "Q2",
                Some("UPDATE shop.carts_v2 SET gift_message = ? WHERE cart_id = ? AND sku = ?;")
            ),
            (
                "Q3",
                Some("DELETE gift_message FROM shop.carts_v2 WHERE cart_id = ? AND sku = ?;")
            ),
            (
                "Q4",
                Some("DELETE FROM shop.carts_v2 WHERE cart_id = ? AND sku = ?;")
            ),
            ("Q5", None),
            ("Q7", None),
        ]
    );
    // Deleting only a column the new table lacks needs no twin: an empty column
    // list would delete the whole row.
    let q7 = &r.dual_writes[5];
    assert_eq!(q7.underivable, None, "{q7:?}");
    assert!(
        q7.notes.iter().any(|n| n.contains("no twin is needed")),
        "{q7:?}"
    );
    assert!(
        r.dual_writes[4]
            .underivable
            .as_deref()
            .is_some_and(|w| w.contains("INSERT JSON")),
        "{:?}",
        r.dual_writes[4]
    );
    assert!(c.flagged, "a write with no twin needs a decision");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.starts_with("write path Q5 has no derivable twin on shop.carts_v2")),
        "{:?}",
        c.warnings
    );
    assert_eq!(r.reads.len(), 1);
    // The read selects the renamed column by its new name, and still reads the whole
    // cart: a clustering column it did not fix is not added.
    assert_eq!(
        r.reads[0].new.as_deref(),
        Some("SELECT sku, qty, gift_message FROM shop.carts_v2 WHERE cart_id = ?;")
    );
    assert_eq!(
        r.reads[0].served.as_deref(),
        Some("single-partition, 1 partition")
    );
}

#[test]
fn a_read_of_a_partition_stays_a_read_of_the_partition() {
    let p = run("udt_field_type");
    let orders = p
        .changes
        .iter()
        .find(|c| c.object == "shop.orders")
        .and_then(|c| c.rebuild.as_ref())
        .expect("orders is rebuilt");
    assert_eq!(
        orders.reads[0].new.as_deref(),
        Some("SELECT * FROM shop.orders_v2 WHERE customer_id = ?;")
    );
}
