//! Snapshots of the text people read, and properties that hold for any span.

use cqlmodel_diagnostics::{Diagnostic, Fix, SourceFile, SourceMap, render_human};
use proptest::prelude::*;

fn one_file(name: &str, text: &str) -> (SourceMap, usize) {
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new(name, text));
    (sources, file)
}

/// Byte range of the first `needle` in `text`; keeps spans in tests readable.
fn span_of(text: &str, needle: &str) -> std::ops::Range<usize> {
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    start..start + needle.len()
}

#[test]
fn single_error_with_caret() {
    let text = "CREATE TABLE ks.users (\n    id uuid PRIMARY KEY,\n    name txet\n);\n";
    let (sources, file) = one_file("schema/users.cql", text);
    let diag = Diagnostic::error("parse-error", "unknown type `txet`")
        .with_file(file)
        .with_primary(span_of(text, "txet"), "not a CQL type");
    insta::assert_snapshot!(render_human(&[diag], &sources, false));
}

#[test]
fn warning_with_note_help_and_fix() {
    let text = "CREATE TABLE ks.events (\n    day date,\n    ts timestamp,\n    body text,\n    PRIMARY KEY (day, ts)\n);\n";
    let (sources, file) = one_file("events.cql", text);
    let diag = Diagnostic::warning("CQL004", "partition `day` grows without bound")
        .with_name("unbounded-partition")
        .with_file(file)
        .with_primary(span_of(text, "PRIMARY KEY (day, ts)"), "every event of a day lands in one partition")
        .with_secondary(span_of(text, "day date"), "partition key")
        .with_note("a busy day can hold millions of rows, far past the 100 MB guideline")
        .with_help("add a bucket column to the partition key")
        .with_fix(Fix::new("bucket each day by hour").with_replacement(
            "CREATE TABLE ks.events (\n    day date,\n    hour tinyint,\n    ts timestamp,\n    body text,\n    PRIMARY KEY ((day, hour), ts)\n);\n",
        ))
        .with_table("ks.events");
    insta::assert_snapshot!(render_human(&[diag], &sources, false));
}

#[test]
fn multi_line_span() {
    let text = "SELECT id, name\nFROM ks.users\nWHERE name = 'x'\nALLOW FILTERING;\n";
    let (sources, file) = one_file("queries.cql", text);
    let start = span_of(text, "WHERE").start;
    let end = span_of(text, "FILTERING").end;
    let diag = Diagnostic::warning("CQL001", "query filters on a non-key column")
        .with_name("allow-filtering")
        .with_file(file)
        .with_primary(start..end, "reads every partition of ks.users")
        .with_query("user_by_name");
    insta::assert_snapshot!(render_human(&[diag], &sources, false));
}

#[test]
fn span_at_end_of_file() {
    let text = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'\n";
    let (sources, file) = one_file("ks.cql", text);
    let diag = Diagnostic::error("parse-error", "unexpected end of input")
        .with_file(file)
        .with_primary(text.len()..text.len(), "expected `}`");
    let rendered = render_human(&[diag], &sources, false);
    assert!(rendered.contains(" --> ks.cql:1:65\n"), "{rendered}");
    insta::assert_snapshot!(rendered);
}

#[test]
fn crlf_source_with_tabs_and_multibyte_text() {
    let text = "CREATE TABLE ks.t (\r\n\tid int PRIMARY KEY,\r\n\t\"café\" text, ünï int\r\n);\r\n";
    let (sources, file) = one_file(r"schema\t.cql", text);
    let diag = Diagnostic::error("CQL100", "column `ünï` is never read")
        .with_file(file)
        .with_primary(span_of(text, "ünï int"), "declared here")
        .with_secondary(span_of(text, "\"café\""), "quoted name");
    let rendered = render_human(&[diag], &sources, false);
    assert!(rendered.contains(r" --> schema\t.cql:3:15"), "{rendered}");
    assert!(!rendered.contains('\r'), "{rendered:?}");
    insta::assert_snapshot!(rendered);
}

#[test]
fn diagnostic_without_a_file() {
    let diag = Diagnostic::info("CQL020", "table has no queries")
        .with_name("unused-table")
        .with_table("ks.audit")
        .with_note("no query in queries.cql reads it")
        .with_help("remove the table or add the query that needs it");
    let rendered = render_human(&[diag], &SourceMap::new(), false);
    insta::assert_snapshot!(rendered);
}

#[test]
fn several_diagnostics_are_separated_by_a_blank_line() {
    let text = "SELECT * FROM t;\n";
    let (sources, file) = one_file("q.cql", text);
    let diags = [
        Diagnostic::error("E1", "first")
            .with_file(file)
            .with_primary(0..6, ""),
        Diagnostic::warning("W1", "second").with_file(file),
    ];
    let rendered = render_human(&diags, &sources, false);
    let parts: Vec<&str> = rendered.split("\n\n").collect();
    assert_eq!(parts.len(), 2, "{rendered}");
    assert!(parts[0].starts_with("error[E1]: first"), "{rendered}");
    assert_eq!(parts[1], "warning[W1]: second\n--> q.cql\n", "{rendered}");
}

#[test]
fn unknown_file_index_renders_without_location() {
    let diag = Diagnostic::error("E1", "lost")
        .with_file(7)
        .with_primary(0..3, "x");
    assert_eq!(
        render_human(&[diag], &SourceMap::new(), false),
        "error[E1]: lost\n"
    );
}

#[test]
fn color_adds_ansi_styles_only_when_asked() {
    let (sources, file) = one_file("q.cql", "SELECT 1;\n");
    let diag = Diagnostic::error("E1", "boom")
        .with_file(file)
        .with_primary(7..8, "here");
    let plain = render_human(std::slice::from_ref(&diag), &sources, false);
    let styled = render_human(&[diag], &sources, true);
    assert!(!plain.contains('\u{1b}'));
    assert!(styled.contains('\u{1b}'));
}

#[test]
fn escape_sequences_in_messages_are_neutralised() {
    let diag = Diagnostic::error("E1", "table \u{1b}[31mred").with_note("note \u{1b}[0m");
    let rendered = render_human(&[diag], &SourceMap::new(), false);
    assert!(!rendered.contains('\u{1b}'), "{rendered:?}");
}

proptest! {
    #[test]
    fn any_span_renders_and_points_where_line_col_says(
        text in "(\\PC|\t|\r\n|\n){0,40}",
        a in 0usize..200,
        b in 0usize..200,
        c in 0usize..200,
    ) {
        let (sources, file) = one_file("p.cql", &text);
        let diag = Diagnostic::error("E1", "m")
            .with_file(file)
            .with_primary(a..b, "primary")
            .with_secondary(c..a, "secondary");
        let rendered = render_human(&[diag], &sources, false);
        let source = sources.get(file).map(|f| f.line_col(a.min(b)));
        let (line, column) = source.unwrap_or((0, 0));
        let expected = format!(" --> p.cql:{line}:{column}\n");
        prop_assert!(rendered.contains(&expected), "{expected:?} not in {rendered:?}");
    }
}

/// A diagnostic on one statement of a very long line (a minified file, 330k
/// statements on one 10 MB line) shows a window around its label, with the
/// location counted on the whole line: rendering one costs the window, so a
/// diagnostic per statement stays linear in the file.
#[test]
fn a_label_on_a_very_long_line_shows_a_window_and_the_true_column() {
    let statement = "SELECT v FROM ks.t WHERE id = 1; ";
    let text = format!("{}\n", statement.repeat(30_000));
    let at = statement.len() * 20_000 + 14;
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new("long.cql", text));
    let diag = Diagnostic::error("input", "keyspace ks does not exist")
        .with_file(file)
        .with_primary(at..at + 4, "Cassandra rejects this");
    let out = render_human(&[diag], &sources, false);
    assert!(out.contains("--> long.cql:1:660015"), "{out}");
    assert!(out.len() < 2_000, "{} bytes: {out}", out.len());
    // The label sits under `ks.t` in the window.
    let source_line = out.lines().find(|l| l.contains("...")).unwrap_or_default();
    let caret_line = out.lines().find(|l| l.contains("^^^^")).unwrap_or_default();
    let caret = caret_line.find('^').unwrap_or(0);
    assert_eq!(source_line.get(caret..caret + 4), Some("ks.t"), "{out}");
}
