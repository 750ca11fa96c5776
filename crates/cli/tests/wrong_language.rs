//! A file in another language given where CQL belongs: one `wrong-language`
//! error naming what it looks like and which command takes it, exit 2, for
//! every command that reads a CQL schema and every kind of input.

use std::process::Command;

use insta_cmd::get_cargo_bin;

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/wrong-language"
    ));
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs `args`, expects exit 2 and exactly one error, `wrong-language`, whose
/// message holds `expected`.
fn one_clear_error(args: &[&str], expected: &str) {
    let out = cqlmodel().args(args).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{args:?}\n{stdout}\n{stderr}");
    let text = format!("{stdout}{stderr}");
    assert_eq!(
        text.matches("error[").count(),
        1,
        "{args:?}: one error expected\n{text}"
    );
    assert!(text.contains("error[wrong-language]"), "{args:?}\n{text}");
    assert!(
        text.contains(expected),
        "{args:?}: `{expected}` expected\n{text}"
    );
}

#[test]
fn every_schema_command_names_the_language_and_the_command_that_takes_it() {
    let query = [
        "--query",
        "SELECT * FROM orders_by_customer WHERE customer_id = 1",
    ];
    for (file, expected) in [
        ("tablestats.txt", "looks like nodetool output"),
        ("mysql.sql", "looks like relational SQL DDL"),
        ("stats.toml", "looks like TOML"),
        ("loader.py", "looks like Python"),
    ] {
        one_clear_error(&["review", file], expected);
        one_clear_error(&["size", file, "--stats", "stats.toml"], expected);
        let mut explain = vec!["explain", file];
        explain.extend(query);
        one_clear_error(&explain, expected);
    }
}

#[test]
fn a_cql_schema_given_to_design_is_one_error_naming_the_commands_that_take_cql() {
    let out = std::env::temp_dir().join(format!("cqlmodel-wrong-language-{}", std::process::id()));
    let iot = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/iot.cql");
    one_clear_error(
        &[
            "design",
            iot,
            "--out",
            out.to_str().expect("utf-8 temp dir"),
        ],
        "looks like CQL, not relational SQL",
    );
    assert!(!out.exists(), "nothing is written on an input error");
}
