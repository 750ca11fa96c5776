//! `cqlmodel size`: text and JSON reports of the examples, exit codes, and
//! statistics-file mistakes reported at file:line:column.

use std::path::{Path, PathBuf};

use cqlmodel_cli::size::{SizeInputs, run};
use serde_json::Value;

fn examples(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

/// Runs `size` on an example schema, without color.
fn size(schema: &str, stats: &Path, table: Option<&str>, json: bool) -> (String, String, u8) {
    run(
        SizeInputs {
            schema: &[examples(schema)],
            stats,
            table,
            keyspace: None,
        },
        json,
        false,
    )
}

/// Runs `size` on files of their own, without `--table`.
fn size_of(
    schema: &Path,
    stats: &Path,
    keyspace: Option<&str>,
    json: bool,
) -> (String, String, u8) {
    let schema = [schema.to_path_buf()];
    let inputs = SizeInputs {
        schema: &schema,
        stats,
        table: None,
        keyspace,
    };
    run(inputs, json, false)
}

fn json(schema: &str, stats: &str) -> (Vec<Value>, u8) {
    let (out, err, code) = size(schema, &examples(stats), None, true);
    assert!(err.is_empty(), "{err}");
    let value: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (value.as_array().cloned().unwrap_or_default(), code)
}

fn by_table<'a>(rows: &'a [Value], table: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["table"] == table)
        .unwrap_or_else(|| panic!("no {table} in the report"))
}

#[test]
fn iot_example_text() {
    let (out, err, code) = size("iot.cql", &examples("iot-stats.toml"), None, false);
    assert_eq!(code, 1, "the unbucketed table exceeds the thresholds");
    assert!(err.is_empty(), "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn iot_example_json() {
    let (rows, code) = json("iot.cql", "iot-stats.toml");
    assert_eq!(code, 1);
    let bucketed = by_table(&rows, "iot.temp_by_device");
    assert_eq!(bucketed["rows_per_partition"]["max"], 86_400);
    assert_eq!(bucketed["partitions"], 300_000);
    assert_eq!(bucketed["exceeds"], serde_json::json!([]));
    assert_eq!(bucketed["recommendation"], Value::Null);

    let unbucketed = by_table(&rows, "iot.temp_by_device_unbucketed");
    assert_eq!(unbucketed["rows_per_partition"]["max"], 31_536_000);
    assert_eq!(
        unbucketed["exceeds"],
        serde_json::json!(["partition-bytes", "partition-rows"])
    );
    let rec = &unbucketed["recommendation"];
    assert_eq!(rec["kind"], "time-bucket");
    assert_eq!(rec["bucket"], "day");
    assert_eq!(rec["read_fanout"], 2);
    assert_eq!(rec["rows_per_partition"]["max"], 86_400);
    assert!(
        unbucketed["assumptions"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    insta::assert_json_snapshot!(rows);
}

#[test]
fn orders_example_recommends_salt_for_the_skewed_customer() {
    let (rows, code) = json("orders.cql", "orders-stats.toml");
    assert_eq!(code, 1);
    let orders = by_table(&rows, "shop.orders_by_customer");
    assert_eq!(orders["recommendation"]["kind"], "salt");
    let buckets = orders["recommendation"]["buckets"].as_u64().unwrap_or(0);
    assert!(
        buckets > 16,
        "a Zipf(1.1) top customer needs more than 16 salt buckets: {buckets}"
    );
    assert_eq!(orders["recommendation"]["read_fanout"], buckets);
    let by_id = by_table(&rows, "shop.order_by_id");
    assert_eq!(by_id["rows_per_partition"]["max"], 1);
    assert_eq!(by_id["exceeds"], serde_json::json!([]));
    let (out, _, _) = size("orders.cql", &examples("orders-stats.toml"), None, false);
    insta::assert_snapshot!(out);
}

#[test]
fn one_table_with_table_flag_and_a_passing_table_exits_0() {
    let (out, _, code) = size(
        "iot.cql",
        &examples("iot-stats.toml"),
        Some("temp_by_device"),
        true,
    );
    assert_eq!(code, 0, "{out}");
    let value: Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(value.as_array().map(Vec::len), Some(1));
    assert_eq!(value[0]["table"], "iot.temp_by_device");
}

#[test]
fn unknown_table_flag_is_an_input_error() {
    let (_, err, code) = size(
        "iot.cql",
        &examples("iot-stats.toml"),
        Some("iot.nope"),
        false,
    );
    assert_eq!(code, 2);
    assert!(err.contains("--table iot.nope: no such table"), "{err}");
}

fn bad_stats(text: &str) -> (String, u8) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("stats.toml");
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let (out, err, code) = size_of(&examples("iot.cql"), &path, None, false);
    assert!(out.is_empty(), "{out}");
    (err.replace(&dir.path().display().to_string(), "DIR"), code)
}

#[test]
fn stats_mistakes_point_at_file_line_column() {
    let (err, code) = bad_stats(
        "[table.\"iot.temp_by_devic\"]\nrows = 1\n\n[table.temp_by_device]\nrows = -3\n\n[table.temp_by_device.column.device_idd]\ndistinct = 5\n",
    );
    assert_eq!(code, 2);
    insta::assert_snapshot!(err);
}

#[test]
fn inconsistent_numbers_and_bad_distribution_exit_2() {
    let (err, code) = bad_stats(
        "[table.temp_by_device]\nrows = 100\n[table.temp_by_device.column.device_id]\ndistinct = 500\ndistribution = \"zipf(oops)\"\nmax_size = 10\np99_size = 20\n",
    );
    assert_eq!(code, 2);
    assert!(err.contains("DIR/stats.toml:4:12"), "{err}");
    assert!(
        err.contains("`device_id` has 500 distinct values but the table has only 100 rows"),
        "{err}"
    );
    assert!(err.contains("DIR/stats.toml:5:16"), "{err}");
    assert!(err.contains("the Zipf exponent must be a number"), "{err}");
    assert!(err.contains("DIR/stats.toml:7:12"), "{err}");
    assert!(err.contains("is greater than `max_size` (10)"), "{err}");
}

#[test]
fn json_errors_carry_line_and_column() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("stats.toml");
    std::fs::write(&path, "[table.temp_by_device]\nrows = \"lots\"\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let (out, _, code) = size_of(&examples("iot.cql"), &path, None, true);
    assert_eq!(code, 2);
    let value: Value = serde_json::from_str(&out).unwrap_or_default();
    let e = &value["errors"][0];
    assert_eq!(e["line"], 2);
    assert_eq!(e["column"], 8);
    assert_eq!(
        e["message"],
        "`table.\"temp_by_device\".rows` must be a number, found a string"
    );
}

#[test]
fn missing_stats_file_exits_2() {
    let (_, err, code) = size_of(
        &examples("iot.cql"),
        Path::new("/nonexistent/stats.toml"),
        None,
        false,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent/stats.toml: cannot read"),
        "{err}"
    );
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/scripts/cqlsh")
        .join(name)
}

/// A schema run with `cqlsh -k payments` creates no keyspace: without
/// `--keyspace` it is an input error (exit 2); with it the tables are sized
/// in `payments`, the assumption is printed on stderr and listed with each
/// table's assumptions.
#[test]
fn keyspace_flag_sizes_a_schema_without_a_keyspace() {
    let schema = script("no-keyspace.cql");
    let stats = script("no-keyspace-stats.toml");
    let (_, err, code) = size_of(&schema, &stats, None, false);
    assert_eq!(code, 2, "{err}");

    let (out, err, code) = size_of(&schema, &stats, Some("payments"), false);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("info[assumed-keyspace]"), "{err}");
    assert!(err.contains("keyspace payments (--keyspace)"), "{err}");
    assert!(out.contains("payments.payments_by_customer  ok"), "{out}");
    assert!(
        out.contains("keyspace payments is assumed (--keyspace)"),
        "{out}"
    );

    let (out, err, code) = size_of(&schema, &stats, Some("payments"), true);
    assert_eq!(code, 0, "{out}");
    assert!(err.is_empty(), "JSON says it in the assumptions: {err}");
    let value: Value = serde_json::from_str(&out).unwrap_or_default();
    let rows = value.as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2);
    let by_customer = by_table(&rows, "payments.payments_by_customer");
    assert_eq!(by_customer["rows_per_partition"]["mean"], 50);
    for row in &rows {
        let said = row["assumptions"].as_array().is_some_and(|a| {
            a.iter()
                .any(|s| s.as_str().is_some_and(|s| s.contains("--keyspace")))
        });
        assert!(said, "{row}");
    }
}

/// `--table t` with `--keyspace ks` is `ks.t`; a keyspace the schema creates
/// is not "assumed" and nothing is said about it.
#[test]
fn keyspace_flag_names_the_table_and_says_nothing_on_a_complete_schema() {
    let schema = script("no-keyspace.cql");
    let stats = script("no-keyspace-stats.toml");
    let (out, _, code) = run(
        SizeInputs {
            schema: std::slice::from_ref(&schema),
            stats: &stats,
            table: Some("payment_by_id"),
            keyspace: Some("payments"),
        },
        true,
        false,
    );
    assert_eq!(code, 0, "{out}");
    let value: Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(value[0]["table"], "payments.payment_by_id");

    let (out, err, code) = size_of(
        &examples("iot.cql"),
        &examples("iot-stats.toml"),
        Some("iot"),
        false,
    );
    assert_eq!(code, 1, "{out}");
    assert!(err.is_empty(), "{err}");
    assert!(!out.contains("--keyspace"), "{out}");
}
