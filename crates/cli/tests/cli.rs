//! The `cqlmodel` binary as users see it: output, exit codes and error rendering,
//! snapshot-tested. Paths are relative to the repository root.

use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.env("NO_COLOR", "1");
    cmd
}

#[test]
fn explain_iot_example_text() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "examples/iot.cql",
        "--queries",
        "examples/iot-queries.cql"
    ]));
}

#[test]
fn explain_iot_example_json() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "examples/iot.cql",
        "--queries",
        "examples/iot-queries.cql",
        "--format",
        "json"
    ]));
}

#[test]
fn explain_inline_query_all_ok_exits_0() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "examples/iot.cql",
        "--query",
        "SELECT * FROM temp_by_device WHERE device_id = 'd1' AND day = '2026-12-02' AND ts >= '2026-12-02 10:00:00+0000'"
    ]));
}

#[test]
fn explain_unknown_column_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "examples/iot.cql",
        "--query",
        "SELECT * FROM iot.temp_by_device WHERE device = 'd1'"
    ]));
}

#[test]
fn explain_wrong_literal_type_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "examples/iot.cql",
        "--query",
        "SELECT * FROM iot.temp_by_device WHERE device_id = 42 AND day = '2026-12-02'"
    ]));
}

#[test]
fn schema_syntax_error_names_file_line_column() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "crates/cli/tests/data/syntax-error.cql",
        "--query",
        "SELECT * FROM ks.t WHERE k = 1"
    ]));
}

#[test]
fn schema_statements_cassandra_rejects() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "crates/cli/tests/data/rejected.cql",
        "--query",
        "SELECT * FROM ks.ok WHERE k = 1"
    ]));
}

#[test]
fn empty_file_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "crates/cli/tests/data/empty.cql",
        "--query",
        "SELECT 1"
    ]));
}

#[test]
fn non_utf8_file_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args([
        "explain",
        "crates/cli/tests/data/latin1.cql",
        "--query",
        "SELECT 1"
    ]));
}

#[test]
fn missing_file_is_an_input_error() {
    assert_cmd_snapshot!(cqlmodel().args(["explain", "no/such/file.cql", "--query", "SELECT 1"]));
}

#[test]
fn usage_error_exits_2() {
    assert_cmd_snapshot!(cqlmodel().args(["explain", "examples/iot.cql"]));
}

#[test]
fn token_of_a_typed_composite_key() {
    assert_cmd_snapshot!(cqlmodel().args(["token", "--type", "int,text", "42,hello"]));
}

#[test]
fn token_json() {
    assert_cmd_snapshot!(cqlmodel().args([
        "token",
        "--type",
        "uuid",
        "--format",
        "json",
        "123e4567-e89b-12d3-a456-426614174000"
    ]));
}

#[test]
fn token_bad_value() {
    assert_cmd_snapshot!(cqlmodel().args(["token", "--type", "int", "forty-two"]));
}

#[test]
fn token_hex_stream() {
    assert_cmd_snapshot!(
        cqlmodel()
            .args(["token", "--hex", "-"])
            .pass_stdin("68656c6c6f\n\n0000002a,68656c6c6f\n")
    );
}

#[test]
fn token_hex_stream_bad_line() {
    assert_cmd_snapshot!(
        cqlmodel()
            .args(["token", "--hex", "-"])
            .pass_stdin("68656c6c6f\nzz\n00\n")
    );
}

/// `size --keyspace`: a schema that creates no keyspace is sized in the one
/// the flag names, with the assumption on stderr (exit 0: within thresholds).
#[test]
fn size_keyspace_flag_reads_a_schema_without_a_keyspace() {
    assert_cmd_snapshot!(cqlmodel().args([
        "size",
        "crates/cli/tests/data/scripts/cqlsh/no-keyspace.cql",
        "--stats",
        "crates/cli/tests/data/scripts/cqlsh/no-keyspace-stats.toml",
        "--keyspace",
        "payments",
        "--table",
        "payment_by_id",
    ]));
}
