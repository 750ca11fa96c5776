//! The key derivation on the seeds' tables: which columns partition, which sort,
//! what is bucketed, and that the rewritten query is served.

use crate::stats::{ColumnStats, TableStats};
use cqlmodel_cql::ast::{Order, Select, StatementKind};
use cqlmodel_schema::access::AccessKind;
use cqlmodel_schema::{Schema, build_schema};

use super::*;

const SCHEMA: &str = "
    CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
    CREATE TABLE ks.temp_by_device (device_id text, day date, ts timestamp, temp double,
        PRIMARY KEY ((device_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
    CREATE TABLE ks.temp_unbucketed (device_id text, ts timestamp, temp double,
        PRIMARY KEY (device_id, ts)) WITH CLUSTERING ORDER BY (ts DESC);
    CREATE TABLE ks.sensor_readings (sensor_id text, reading_date date, reading_ts timestamp,
        temperature double, PRIMARY KEY ((sensor_id, reading_date), reading_ts));
    CREATE TABLE ks.orders_by_user (user_id text, order_id text, amount decimal, status text,
        tags set<text>, PRIMARY KEY (user_id, order_id));
    CREATE TABLE ks.order_by_id (order_id text PRIMARY KEY, user_id text, amount decimal);
    CREATE TABLE ks.users (user_id uuid PRIMARY KEY, email text, name text, created timestamp,
        \"Nick\" text, bucket int);
    CREATE TABLE ks.users_by_email (email text PRIMARY KEY, user_id uuid);
";

fn schema() -> Schema {
    let parsed = cqlmodel_cql::parse(SCHEMA);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let build = build_schema(0, &parsed.statements);
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    build.schema
}

fn select(cql: &str) -> Select {
    match cqlmodel_cql::parse_statement(cql).map(|s| s.kind) {
        Ok(StatementKind::Select(s)) => s,
        other => panic!("not a SELECT: {other:?}"),
    }
}

fn derive(schema: &Schema, table: &str, cql: &str) -> Result<DerivedTable, DeriveError> {
    let source = schema.table("ks", table).expect("table");
    derive_table(schema, source, &select(cql), &DeriveOptions::default())
}

fn names(columns: &[(String, Order)]) -> Vec<(&str, Order)> {
    columns.iter().map(|(c, o)| (c.as_str(), *o)).collect()
}

#[test]
fn a_day_alone_is_salted_and_every_bucket_is_read() {
    let s = schema();
    let d = derive(
        &s,
        "temp_by_device",
        "SELECT * FROM ks.temp_by_device WHERE day = ? ALLOW FILTERING",
    )
    .expect("fixture");
    assert_eq!(d.name, "temp_by_day");
    assert_eq!(d.partition_key, ["day", "bucket"]);
    assert_eq!(
        names(&d.clustering),
        [("device_id", Order::Asc), ("ts", Order::Desc)]
    );
    assert_eq!(d.path.kind, AccessKind::MultiPartition);
    assert_eq!(d.path.partitions, Some(u64::from(DEFAULT_SALT_BUCKETS)));
    assert!(!d.query.allow_filtering);
    assert!(
        d.notes.iter().any(|n| n.contains("hot partition")),
        "{:?}",
        d.notes
    );
    assert_eq!(
        d.query_cql(),
        "SELECT * FROM ks.temp_by_day WHERE day = ? AND bucket IN (0, 1, 2, 3, 4, 5, 6, 7);"
    );
}

#[test]
fn equalities_partition_ranges_and_order_cluster() {
    let s = schema();
    let d = derive(
        &s,
        "orders_by_user",
        "SELECT * FROM ks.orders_by_user WHERE user_id = ? AND amount > ? ORDER BY amount DESC",
    )
    .expect("fixture");
    assert_eq!(d.partition_key, ["user_id"]);
    assert_eq!(
        names(&d.clustering),
        [("amount", Order::Desc), ("order_id", Order::Asc)]
    );
    assert_eq!(d.path.kind, AccessKind::SinglePartition);
    assert!(
        !d.path.reversed,
        "the table is clustered in the query's direction"
    );
}

#[test]
fn an_instant_fixed_by_equality_sorts_rows_when_another_column_partitions() {
    let s = schema();
    let d = derive(
        &s,
        "users",
        "SELECT * FROM ks.users WHERE name = ? AND created = ? ALLOW FILTERING",
    )
    .expect("fixture");
    assert_eq!(d.partition_key, ["name"]);
    assert_eq!(d.clustering_names(), ["created", "user_id"]);
}

#[test]
fn a_time_range_alone_partitions_by_its_day() {
    let s = schema();
    let d = derive(
        &s,
        "users",
        "SELECT * FROM ks.users WHERE created >= ? AND created < ? ALLOW FILTERING",
    )
    .expect("fixture");
    // `bucket` is taken by a column of the source: the salt gets a free name.
    assert_eq!(d.partition_key, ["day", "bucket_2"]);
    assert_eq!(d.clustering_names(), ["created", "user_id"]);
    assert_eq!(d.name, "users_by_day");
    assert!(
        d.query_cql()
            .contains("day = ? AND bucket_2 IN (0, 1, 2, 3, 4, 5, 6, 7) AND created >= ?")
    );
}

#[test]
fn a_low_cardinality_value_is_salted_unless_statistics_say_otherwise() {
    let s = schema();
    let source = s.table("ks", "orders_by_user").expect("fixture");
    let q = select("SELECT * FROM ks.orders_by_user WHERE status = ? ALLOW FILTERING");
    let heuristic = derive_table(&s, source, &q, &DeriveOptions::default()).expect("fixture");
    assert_eq!(heuristic.partition_key, ["status", "bucket"]);
    assert!(
        heuristic
            .notes
            .iter()
            .any(|n| n.starts_with("heuristic: `status`"))
    );

    let mut stats = TableStats::default();
    stats.columns.insert(
        "status".into(),
        ColumnStats {
            distinct: Some(2_000_000.0),
            ..ColumnStats::default()
        },
    );
    let measured =
        derive_table(&s, source, &q, &DeriveOptions::with_stats(Some(&stats))).expect("fixture");
    assert_eq!(measured.partition_key, ["status"]);
}

#[test]
fn an_unbounded_derived_partition_says_so() {
    let s = schema();
    let d = derive(
        &s,
        "temp_unbucketed",
        "SELECT * FROM ks.temp_unbucketed WHERE temp > ? AND device_id = ? AND ts > ? ALLOW FILTERING",
    )
    .expect("fixture");
    assert_eq!(d.partition_key, ["device_id"]);
    // One range slices the clustering, the time one; `temp` stays a filter.
    assert_eq!(d.clustering_names(), ["ts"]);
    assert!(d.query.allow_filtering);
    assert!(
        d.notes.iter().any(|n| n.contains("rows accumulate")),
        "{:?}",
        d.notes
    );
}

#[test]
fn a_collection_cannot_be_a_key_and_stays_a_filter() {
    let s = schema();
    let d = derive(
        &s,
        "orders_by_user",
        "SELECT * FROM ks.orders_by_user WHERE order_id = ? AND tags CONTAINS 'gift' ALLOW FILTERING",
    )
    .expect("fixture");
    assert_eq!(d.name, "orders_by_id");
    assert_eq!(d.partition_key, ["order_id"]);
    assert!(d.query.allow_filtering);
    assert!(
        d.notes.iter().any(|n| n.contains("`tags`")),
        "{:?}",
        d.notes
    );
}

#[test]
fn derivations_that_cannot_work_say_why() {
    let s = schema();
    let err = |t: &str, q: &str| derive(&s, t, q).err();
    assert_eq!(
        err(
            "temp_by_device",
            "SELECT * FROM ks.temp_by_device WHERE temp > 3 ALLOW FILTERING"
        ),
        Some(DeriveError::NoPartitionKey)
    );
    assert_eq!(
        err("temp_by_device", "SELECT * FROM ks.temp_by_device"),
        Some(DeriveError::NoPartitionKey)
    );
    assert_eq!(
        err("users", "SELECT * FROM ks.users WHERE token(user_id) > ?"),
        Some(DeriveError::TokenRange)
    );
    assert_eq!(
        err("users", "SELECT * FROM ks.users WHERE nope = ?"),
        Some(DeriveError::UnknownColumn("nope".into()))
    );
    assert!(matches!(
        err("users", "SELECT * FROM ks.users WHERE email = ? LIMIT 0"),
        Some(DeriveError::NotServed(_))
    ));
}

#[test]
fn every_combination_of_predicates_yields_a_served_table_or_a_reason() {
    // The self-check is the invariant: whatever the query restricts, a derived
    // table serves the rewritten query from one partition or a listed few.
    let s = schema();
    let predicates = [
        "device_id = ?",
        "day = ?",
        "day IN (?, ?)",
        "ts > ?",
        "ts = ?",
        "temp < ?",
    ];
    let orders = ["", " ORDER BY ts DESC", " ORDER BY ts ASC"];
    let source = s.table("ks", "temp_by_device").expect("fixture");
    for mask in 1u32..(1 << predicates.len()) {
        let chosen: Vec<&str> = predicates
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, p)| *p)
            .collect();
        for order in orders {
            let cql = format!(
                "SELECT * FROM ks.temp_by_device WHERE {}{order} ALLOW FILTERING",
                chosen.join(" AND ")
            );
            match derive_table(&s, source, &select(&cql), &DeriveOptions::default()) {
                Ok(d) => {
                    assert!(is_served(&d.path), "{cql}: {:?}", d.path);
                    assert!(!d.partition_key.is_empty(), "{cql}");
                    for c in &source.columns {
                        assert!(
                            d.columns.iter().any(|k| k.name == c.name),
                            "{cql}: lost {}",
                            c.name
                        );
                    }
                    let key_len = d.partition_key.len() + d.clustering.len();
                    assert!(d.columns.len() >= key_len, "{cql}");
                }
                Err(DeriveError::NoPartitionKey | DeriveError::NotServed(_)) => {}
                Err(e) => panic!("{cql}: {e}"),
            }
        }
    }
}

#[test]
fn a_missing_time_bucket_completes_the_query_on_the_same_table() {
    let s = schema();
    let source = s.table("ks", "sensor_readings").expect("fixture");
    let q = select(
        "SELECT * FROM ks.sensor_readings WHERE sensor_id = ? AND reading_ts > ? ALLOW FILTERING",
    );
    let (rewritten, buckets) = complete_time_buckets(&s, source, &q).expect("completed");
    assert_eq!(buckets, ["reading_date"]);
    assert_eq!(
        cqlmodel_cql::ast::Statement {
            kind: StatementKind::Select(rewritten),
            span: Default::default()
        }
        .to_string(),
        "SELECT * FROM ks.sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts > ?"
    );
    // A missing non-time column cannot be guessed.
    let q = select("SELECT * FROM ks.sensor_readings WHERE reading_date = ? ALLOW FILTERING");
    assert!(complete_time_buckets(&s, source, &q).is_none());
}

#[test]
fn another_table_of_the_keyspace_may_already_serve_the_query() {
    let s = schema();
    let source = s.table("ks", "orders_by_user").expect("fixture");
    let (table, rewritten) = serving_table(
        &s,
        source,
        &select("SELECT amount FROM ks.orders_by_user WHERE order_id = ?"),
    )
    .expect("served");
    assert_eq!(table.name, "order_by_id");
    assert_eq!(rewritten.table.name.value, "order_by_id");
    // `users_by_email` lacks `name`: it cannot serve a query that selects it.
    let users = s.table("ks", "users").expect("fixture");
    assert!(
        serving_table(
            &s,
            users,
            &select("SELECT name FROM ks.users WHERE email = ?")
        )
        .is_none()
    );
    assert!(
        serving_table(
            &s,
            users,
            &select("SELECT user_id FROM ks.users WHERE email = ?")
        )
        .is_some()
    );
}

#[test]
fn create_table_is_printed_one_column_per_line_with_quoted_names() {
    let s = schema();
    let d = derive(
        &s,
        "users",
        "SELECT * FROM ks.users WHERE \"Nick\" = ? ALLOW FILTERING",
    )
    .expect("fixture");
    assert_eq!(d.name, "users_by_Nick");
    assert_eq!(
        d.create_cql(),
        "CREATE TABLE ks.\"users_by_Nick\" (\n    \"Nick\" text,\n    user_id uuid,\n    email text,\n    name text,\n    \
         created timestamp,\n    bucket int,\n    PRIMARY KEY (\"Nick\", user_id)\n);"
    );
    let temp = s.table("ks", "temp_by_device").expect("fixture");
    let flipped = table_create_cql(temp, &[("ts".to_string(), Order::Asc)]);
    assert!(
        flipped.contains("PRIMARY KEY ((device_id, day), ts)\n) WITH CLUSTERING ORDER BY (ts ASC)"),
        "{flipped}"
    );
}

#[test]
fn time_roles_and_cardinality_by_type_and_name() {
    let s = schema();
    let col = |t: &str, c: &str| {
        s.table("ks", t)
            .and_then(|t| t.column(c))
            .cloned()
            .expect("fixture")
    };
    assert_eq!(
        time_kind(&col("temp_by_device", "ts")),
        Some(TimeKind::Instant)
    );
    assert_eq!(
        time_kind(&col("temp_by_device", "day")),
        Some(TimeKind::Bucket)
    );
    assert_eq!(time_kind(&col("temp_by_device", "temp")), None);
    assert_eq!(time_kind(&col("orders_by_user", "order_id")), None);
    assert!(low_cardinality_reason(&col("orders_by_user", "status"), None).is_some());
    assert!(low_cardinality_reason(&col("orders_by_user", "user_id"), None).is_none());
    assert!(low_cardinality_reason(&col("orders_by_user", "user_id"), Some(12)).is_some());
    assert!(low_cardinality_reason(&col("orders_by_user", "status"), Some(1_000_000)).is_none());
    assert!(!key_eligible(&col("orders_by_user", "tags")));
}
