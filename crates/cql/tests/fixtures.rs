//! The `tests/data/ok` fixtures parse without errors and round-trip; the
//! `tests/data/err` fixtures produce the errors in their snapshots.

mod common;

use common::{assert_round_trip, cql_files, read, render_error};
use cqlmodel_cql::{ast::SourceFile, parse};

#[test]
fn ok_fixtures_parse_and_round_trip() {
    let files = cql_files("ok");
    assert!(files.len() >= 5, "fixtures missing");
    for path in files {
        let source = read(&path);
        let name = path.display().to_string();
        let result = parse(&source);
        let rendered: Vec<String> = result
            .errors
            .iter()
            .map(|e| render_error(&source, e))
            .collect();
        assert!(rendered.is_empty(), "{name}:\n{}", rendered.join("\n"));
        assert!(!result.statements.is_empty(), "{name}: no statements");
        for stmt in &result.statements {
            let text = &source[stmt.span.range()];
            assert!(!text.ends_with(';'), "{name}: span includes ';': {text}");
            assert_round_trip(stmt, &format!("{name}: {text}"));
        }
        let file = SourceFile {
            statements: result.statements,
        };
        let printed = file.to_string();
        let reparsed = parse(&printed);
        assert!(
            reparsed.errors.is_empty(),
            "{name}: printed file has errors"
        );
        assert_eq!(reparsed.into_source_file(), file, "{name}: file round trip");
    }
}

#[test]
fn err_fixtures_match_snapshots() {
    let files = cql_files("err");
    assert!(!files.is_empty(), "fixtures missing");
    for path in files {
        let source = read(&path);
        let result = parse(&source);
        assert!(!result.errors.is_empty(), "{}: no errors", path.display());
        let mut report: Vec<String> = result
            .errors
            .iter()
            .map(|e| render_error(&source, e))
            .collect();
        report.push(format!(
            "-- {} statement(s) parsed",
            result.statements.len()
        ));
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("unnamed");
        insta::assert_snapshot!(format!("err_{stem}"), report.join("\n"));
    }
}
