//! The machine-readable JSON array.

use cqlmodel_diagnostics::{Diagnostic, Fix, SourceFile, SourceMap, render_json};

fn span_of(text: &str, needle: &str) -> std::ops::Range<usize> {
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    start..start + needle.len()
}

#[test]
fn json_lists_every_field_with_positions() {
    let mut sources = SourceMap::new();
    let text = "CREATE TABLE ks.t (\r\n  k int,\r\n  v text,\r\n  PRIMARY KEY (k)\r\n);\r\n";
    let file = sources.add(SourceFile::new("schema/t.cql", text));
    let diags = vec![
        Diagnostic::warning("CQL004", "partition `k` grows without bound")
            .with_name("unbounded-partition")
            .with_file(file)
            .with_primary(span_of(text, "PRIMARY KEY (k)"), "one partition per `k`")
            .with_secondary(span_of(text, "k int"), "partition key")
            .with_note("rows are appended forever")
            .with_help("bucket the partition key")
            .with_fix(Fix::new("add a bucket").with_replacement("CREATE TABLE ks.t (...);"))
            .with_table("ks.t")
            .with_query("by_k"),
        Diagnostic::error("parse-error", "unexpected end of input")
            .with_file(file)
            .with_primary(10_000..20_000, "here"),
        Diagnostic::info("CQL020", "table has no queries").with_table("ks.t"),
    ];
    insta::assert_json_snapshot!(render_json(&diags, &sources));
}

#[test]
fn json_positions_agree_with_line_col() {
    let mut sources = SourceMap::new();
    let text = "a\n\tbé c\nd";
    let file = sources.add(SourceFile::new("x.cql", text));
    let diag = Diagnostic::error("E1", "m")
        .with_file(file)
        .with_primary(3..9, "l");
    let json = render_json(&[diag], &sources);
    let source = sources.get(file).map(|f| (f.line_col(3), f.line_col(9)));
    let ((line, column), (end_line, end_column)) = source.unwrap_or_default();
    assert_eq!((line, column, end_line, end_column), (2, 2, 3, 1));
    assert_eq!(json[0]["line"], line);
    assert_eq!(json[0]["column"], column);
    assert_eq!(json[0]["end_line"], end_line);
    assert_eq!(json[0]["end_column"], end_column);
}

proptest::proptest! {
    #[test]
    fn any_span_gives_ordered_positions(
        text in "(\\PC|\t|\r\n|\n){0,40}",
        start in 0usize..200,
        end in 0usize..200,
    ) {
        let mut sources = SourceMap::new();
        let file = sources.add(SourceFile::new("p.cql", text));
        let diag = Diagnostic::error("E1", "m").with_file(file).with_primary(start..end, "l");
        let json = render_json(&[diag], &sources);
        let expected = sources.get(file).map(|f| f.line_col(start.min(end)));
        let (line, column) = expected.unwrap_or_default();
        proptest::prop_assert_eq!(&json[0]["line"], &serde_json::json!(line));
        proptest::prop_assert_eq!(&json[0]["column"], &serde_json::json!(column));
        let start_pos = (json[0]["line"].as_u64(), json[0]["column"].as_u64());
        let end_pos = (json[0]["end_line"].as_u64(), json[0]["end_column"].as_u64());
        proptest::prop_assert!(start_pos <= end_pos, "{json}");
    }
}
