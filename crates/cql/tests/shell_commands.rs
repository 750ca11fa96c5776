//! cqlsh shell commands end at their line, as in cqlsh; the comments before a
//! statement that does not parse stay with it.

use cqlmodel_cql::{ParseErrorKind, parse};

fn commands(source: &str) -> Vec<String> {
    parse(source)
        .errors
        .iter()
        .filter_map(|e| match &e.kind {
            ParseErrorKind::ShellCommand { command, .. } => Some(command.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_command_without_semicolon_ends_at_its_line() {
    let source = "CONSISTENCY QUORUM\nSELECT * FROM t WHERE k = 1;\nTRACING ON\nINSERT INTO t (k) VALUES (1);\n";
    let parsed = parse(source);
    assert_eq!(parsed.statements.len(), 2, "{:?}", parsed.errors);
    assert_eq!(commands(source), ["consistency", "tracing"]);
    assert_eq!(parsed.errors.len(), 2);
}

#[test]
fn a_command_with_semicolon_and_arguments_spans_its_line() {
    let source = "DESCRIBE KEYSPACE ks;\nSELECT * FROM t;";
    let parsed = parse(source);
    assert_eq!(parsed.statements.len(), 1);
    let span = parsed
        .errors
        .first()
        .map(|e| e.span.range())
        .unwrap_or_default();
    assert_eq!(source.get(span), Some("DESCRIBE KEYSPACE ks"));
}

#[test]
fn command_words_elsewhere_are_not_commands() {
    // `source` and `show` as column names, `COPY` (ends at `;`) untouched.
    let source = "SELECT source, show FROM t\nWHERE k = 1;\nCOPY t TO 'x.csv';\n";
    let parsed = parse(source);
    assert_eq!(parsed.statements.len(), 1, "{:?}", parsed.errors);
    assert!(commands(source).is_empty());
}

#[test]
fn comments_before_a_broken_statement_stay_with_it() {
    let source = "-- @name broken\n-- cqlmodel: allow(allow-filtering)\nSELECT * FROM t WHERE AND;\n\
                  -- @name second\nSELECT * FROM t;\n";
    let parsed = parse(source);
    assert_eq!(parsed.statements.len(), 1);
    assert_eq!(parsed.broken.len(), 1);
    let kept: Vec<String> = parsed
        .statement_comments()
        .iter()
        .map(|c| c.text.trim().to_string())
        .collect();
    assert_eq!(kept, ["@name second"]);
}

#[test]
fn a_commands_comments_stay_with_it() {
    let source = "-- cqlmodel: allow(full-scan)\nPAGING OFF\nSELECT * FROM t;\n";
    let parsed = parse(source);
    assert_eq!(parsed.statements.len(), 1);
    assert!(parsed.statement_comments().is_empty());
}
