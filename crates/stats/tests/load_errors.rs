//! A statistics file with a mistake gets a clear message pointing at the mistake.

mod common;

use common::{IOT_UNBUCKETED, ORDERS, errors, line_col, schema, stats};
use cqlmodel_stats::{Distribution, Retention, StatsErrorKind, Volume};

fn both() -> cqlmodel_schema::Schema {
    schema(&format!("{IOT_UNBUCKETED}{ORDERS}"))
}

/// The one error of `toml`, with its message and 1-based line:column.
fn only_error(toml: &str) -> (String, (usize, usize), StatsErrorKind) {
    let errs = errors(&both(), toml);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = &errs[0];
    (e.to_string(), line_col(toml, e.span.start), e.kind.clone())
}

#[test]
fn the_minimal_form_of_the_issue_works_as_written() {
    let text = r#"
[table."iot.temp_by_device"]      # keyspace-qualified, or the bare table name when unambiguous
rows_per_second = 10000           # growth; or `rows = 5000000` for a table of fixed size
retention = "365d"                # default: the table's default_time_to_live, else unbounded

[table."iot.temp_by_device".column.device_id]
distinct = 10000
distribution = "uniform"          # uniform | zipf(1.1) | sequential

[query.Q1]
rate_per_second = 200
"#;
    let s = stats(&both(), text);
    let t = &s.tables["iot.temp_by_device"];
    assert_eq!(
        t.volume,
        Volume::Growth {
            rows_per_second: 10_000.0
        }
    );
    assert_eq!(t.retention, Retention::Seconds(365 * 86_400));
    let c = t.column("device_id").expect("device_id");
    assert_eq!(c.distinct, Some(10_000.0));
    assert_eq!(c.distribution, Some(Distribution::Uniform));
    assert_eq!(s.queries["Q1"].rate_per_second, Some(200.0));
}

#[test]
fn query_rates_and_spans_attach_to_their_table() {
    let s = stats(
        &both(),
        r#"
        [table.temp_by_device]
        rows_per_day = 864000000
        [query.Q1]
        rate_per_second = 200
        table = "iot.temp_by_device"
        span = "24h"
        [query.Q2]
        rate_per_second = 50
        table = "temp_by_device"
        span = "7d"
        "#,
    );
    let t = &s.tables["iot.temp_by_device"];
    assert_eq!(
        t.volume,
        Volume::Growth {
            rows_per_second: 10_000.0
        }
    );
    assert_eq!(t.request_rate, Some(250.0));
    assert_eq!(t.query_span, Some(7 * 86_400));
}

#[test]
fn unknown_table_is_named_with_a_suggestion() {
    let (msg, at, _) = only_error("[table.\"iot.temp_by_devic\"]\nrows = 1\n");
    assert_eq!(
        msg,
        "unknown table `iot.temp_by_devic` (did you mean `iot.temp_by_device`?)"
    );
    assert_eq!(at, (1, 8));
}

#[test]
fn ambiguous_bare_table_name() {
    let cql = "
    CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TABLE a.t (k int PRIMARY KEY);
    CREATE TABLE b.t (k int PRIMARY KEY);";
    let errs = errors(&schema(cql), "[table.t]\nrows = 5\n");
    assert_eq!(
        errs[0].to_string(),
        "table name `t` is ambiguous: qualify it with its keyspace (a.t, b.t)"
    );
}

#[test]
fn unknown_column() {
    let text = "[table.temp_by_device]\nrows = 10\n\n[table.temp_by_device.column.devce_id]\ndistinct = 3\n";
    let (msg, at, _) = only_error(text);
    assert_eq!(
        msg,
        "table `iot.temp_by_device` has no column `devce_id` (did you mean `device_id`?)"
    );
    assert_eq!(at, (4, 30));
}

#[test]
fn negative_value() {
    let (msg, at, _) = only_error("[table.temp_by_device]\nrows_per_second = -5\n");
    assert_eq!(
        msg,
        "`table.\"temp_by_device\".rows_per_second` must be zero or more (not negative), found -5"
    );
    assert_eq!(at, (2, 19));
}

#[test]
fn non_numeric_value() {
    let (msg, at, _) = only_error("[table.temp_by_device]\nrows = \"many\"\n");
    assert_eq!(
        msg,
        "`table.\"temp_by_device\".rows` must be a number, found a string"
    );
    assert_eq!(at, (2, 8));
}

#[test]
fn distinct_greater_than_rows() {
    let text = "[table.orders_by_customer]\nrows = 1000\n[table.orders_by_customer.column.customer_id]\ndistinct = 5000\n";
    let (msg, at, kind) = only_error(text);
    assert!(matches!(kind, StatsErrorKind::Inconsistent { .. }));
    assert_eq!(
        msg,
        "`customer_id` has 5000 distinct values but the table has only 1000 rows"
    );
    assert_eq!(at, (4, 12));
}

#[test]
fn p99_above_max_and_avg_above_max() {
    let text =
        "[table.orders_by_customer.column.status]\navg_size = 30\np99_size = 40\nmax_size = 20\n";
    let errs = errors(&both(), text);
    let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        msgs,
        vec![
            "`table.\"orders_by_customer\".column.status.avg_size` (30) is greater than `max_size` (20)",
            "`table.\"orders_by_customer\".column.status.p99_size` (40) is greater than `max_size` (20)",
        ]
    );
    assert_eq!(line_col(text, errs[0].span.start), (2, 12));
    assert_eq!(line_col(text, errs[1].span.start), (3, 12));
}

#[test]
fn bad_distribution_syntax() {
    for (written, expected) in [
        ("zipf", "give the Zipf exponent"),
        ("zipf(-2)", "the Zipf exponent must be a number in (0, 10]"),
        ("zipf(1.1", "missing `)`"),
        (
            "gaussian",
            "unknown distribution `gaussian`: expected uniform, zipf(S), sequential or time(RATE)",
        ),
        ("time(fast)", "is not a rate"),
    ] {
        let text = format!(
            "[table.orders_by_customer.column.customer_id]\ndistribution = \"{written}\"\n"
        );
        let (msg, at, _) = only_error(&text);
        assert!(msg.contains(expected), "{written}: {msg}");
        assert_eq!(at, (2, 16), "{written}");
    }
}

#[test]
fn rows_and_growth_conflict() {
    let (msg, _, kind) = only_error("[table.temp_by_device]\nrows = 5\nrows_per_second = 3\n");
    assert!(matches!(kind, StatsErrorKind::Conflict { .. }));
    assert!(
        msg.contains("`rows` and `rows_per_second` cannot both be given"),
        "{msg}"
    );
}

#[test]
fn unknown_field_lists_the_known_ones() {
    let (msg, at, _) = only_error("[table.temp_by_device]\nrow = 5\n");
    assert!(
        msg.starts_with("unknown field `row` in table.\"temp_by_device\" (expected one of: rows, "),
        "{msg}"
    );
    assert_eq!(at, (2, 1));
}

#[test]
fn bad_retention_and_bucket_placement() {
    let text = "[table.temp_by_device]\nretention = \"forever-ish\"\n[table.temp_by_device.column.ts]\nbucket = \"day\"\n";
    let errs = errors(&both(), text);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs[0].to_string().contains("is not a duration"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1]
            .to_string()
            .contains("applies only to a partition-key column"),
        "{}",
        errs[1]
    );
    assert_eq!(line_col(text, errs[1].span.start), (4, 1));
}

#[test]
fn a_duration_in_seconds_that_rounds_to_zero_is_refused() {
    let text = "[table.temp_by_device]\nretention = 0.3\n";
    let (msg, at, kind) = only_error(text);
    assert!(matches!(kind, StatsErrorKind::OutOfRange { .. }), "{msg}");
    assert!(msg.contains("at least 1 second"), "{msg}");
    assert_eq!(at, (2, 13));
}

#[test]
fn invalid_toml_points_at_the_syntax_error() {
    let text = "[table.temp_by_device]\nrows = = 5\n";
    let (msg, at, kind) = only_error(text);
    assert!(matches!(kind, StatsErrorKind::Toml { .. }), "{msg}");
    assert_eq!(at.0, 2);
}

#[test]
fn every_problem_is_reported_in_file_order() {
    let text = "[table.nope]\nrows = 1\n[table.temp_by_device]\nrows = -1\n[query.Q]\nrate_per_second = \"x\"\n";
    let errs = errors(&both(), text);
    let lines: Vec<usize> = errs
        .iter()
        .map(|e| line_col(text, e.span.start).0)
        .collect();
    assert_eq!(lines, vec![1, 4, 6]);
}

#[test]
fn thresholds_accept_units() {
    let s = stats(
        &both(),
        "[thresholds]\npartition_bytes = \"100MiB\"\npartition_rows = 50000\n",
    );
    assert_eq!(s.thresholds.partition_bytes, 104_857_600.0);
    assert_eq!(s.thresholds.partition_rows, 50_000.0);
    let (msg, _, _) = only_error("[thresholds]\npartition_rows = 0\n");
    assert!(msg.contains("greater than zero"), "{msg}");
}
