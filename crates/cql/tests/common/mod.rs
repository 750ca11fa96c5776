//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use cqlmodel_cql::{ParseError, ast::Statement, parse_statement};

/// The `.cql` files of a directory under `tests/data`, sorted by name.
pub fn cql_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cql"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// `line:col: message`, the source line, and a caret under the error.
pub fn render_error(source: &str, error: &ParseError) -> String {
    let start = error.span.start as usize;
    let (line, col) = line_col(source, start);
    let text = source.lines().nth(line - 1).unwrap_or("");
    let width = {
        let end = (error.span.end as usize).min(source.len());
        let on_line = source[start.min(end)..end].lines().next().unwrap_or("");
        on_line.chars().count().max(1)
    };
    format!(
        "{line}:{col}: {error}\n  | {text}\n  | {}{}",
        " ".repeat(col - 1),
        "^".repeat(width)
    )
}

/// Asserts that printing `stmt` and parsing the text gives `stmt` back, and that
/// printing is stable.
pub fn assert_round_trip(stmt: &Statement, origin: &str) {
    let printed = stmt.to_string();
    let reparsed = parse_statement(&printed)
        .unwrap_or_else(|e| panic!("{origin}: printed statement does not parse: {e}\n{printed}"));
    assert_eq!(
        &reparsed, stmt,
        "{origin}: round trip changed the tree\n{printed}"
    );
    assert_eq!(
        reparsed.to_string(),
        printed,
        "{origin}: printing is not stable"
    );
}
