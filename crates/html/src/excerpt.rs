//! A finding's source excerpt with its caret, drawn by the same renderer as
//! the terminal output (crates/diagnostics), from the JSON's place (`file`,
//! `line`, `column`, `end_line`, `end_column`, `label`) and the file's text.

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceFile, SourceMap, render_human};
use serde_json::Value;

use crate::json::{number, text};

/// The excerpt as the terminal shows it (from ` --> file:line:column` on),
/// or `None` when the finding has no place or the file's text is not known.
pub fn caret_excerpt(finding: &Value, source: &str) -> Option<String> {
    let file = text(finding, "file")?;
    let line = whole(finding, "line")?;
    let column = whole(finding, "column")?;
    let start = offset(source, line, column)?;
    let end = match (whole(finding, "end_line"), whole(finding, "end_column")) {
        (Some(l), Some(c)) => offset(source, l, c).unwrap_or(start),
        _ => start,
    };
    let severity = text(finding, "severity")
        .and_then(|s| s.parse().ok())
        .unwrap_or(Severity::Info);
    let mut sources = SourceMap::new();
    let index = sources.add(SourceFile::new(file, source));
    let diagnostic = Diagnostic::new(
        severity,
        text(finding, "code").unwrap_or_default(),
        text(finding, "message").unwrap_or_default(),
    )
    .with_file(index)
    .with_primary(start..end.max(start), text(finding, "label").unwrap_or(""));
    let rendered = render_human(&[diagnostic], &sources, false);
    // The title line repeats the finding's message, which the page shows above.
    let from = rendered.find("-->")?;
    let line_start = rendered[..from].rfind('\n').map_or(0, |i| i + 1);
    Some(rendered[line_start..].trim_end().to_string())
}

/// A positive whole number field.
fn whole(v: &Value, key: &str) -> Option<usize> {
    number(v, key)
        .filter(|n| *n >= 1.0 && n.fract() == 0.0)
        .map(|n| n as usize)
}

/// The byte offset of a 1-based line and column, columns counting characters
/// and never a `'\r'` (the diagnostics crate's convention); `None` past the
/// text's last line. A column past its line's end is the line's end.
fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += text.get(start..)?.find('\n')? + 1;
    }
    let rest = text.get(start..)?;
    let mut counted = 1;
    for (at, c) in rest.char_indices() {
        if c == '\n' || counted == column && c != '\r' {
            return Some(start + at);
        }
        if c != '\r' {
            counted += 1;
        }
    }
    Some(text.len())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn offsets_map_back_to_the_diagnostics_line_and_column() {
        let text = "CREATE TABLE t (\r\n\tnom_é text, 名前 int\n);\n\n😀 x";
        let file = SourceFile::new("m.cql", text);
        for (at, c) in text.char_indices() {
            if c == '\r' || c == '\n' {
                continue;
            }
            let (line, column) = file.line_col(at);
            assert_eq!(offset(text, line, column), Some(at), "{line}:{column}");
        }
        assert_eq!(offset(text, 99, 1), None);
    }

    #[test]
    fn the_excerpt_has_the_caret_under_the_span_and_the_label() {
        let source = "CREATE TABLE ks.t (a int PRIMARY KEY);\nSELECT * FROM ks.t WHERE b = 1 ALLOW FILTERING;\n";
        let finding = json!({
            "severity": "warning", "code": "CQL001", "message": "scans every partition",
            "file": "q.cql", "line": 2, "column": 32, "end_line": 2, "end_column": 47,
            "label": "here"
        });
        let excerpt = caret_excerpt(&finding, source).expect("an excerpt");
        assert!(excerpt.starts_with(" --> q.cql:2:32"), "{excerpt}");
        assert!(excerpt.contains("2 | SELECT * FROM ks.t WHERE b = 1 ALLOW FILTERING;"));
        let caret_line = excerpt
            .lines()
            .find(|l| l.contains('^'))
            .expect("a caret line");
        assert_eq!(
            caret_line.find('^'),
            excerpt.lines().nth(2).and_then(|l| l.find("ALLOW"))
        );
        assert!(caret_line.contains("^^^^^^^^^^^^^^^ here"), "{caret_line}");
        assert!(
            !excerpt.contains("scans every partition"),
            "the title is not repeated"
        );
    }

    #[test]
    fn no_place_no_excerpt() {
        assert_eq!(caret_excerpt(&json!({"message": "m"}), "text"), None);
        let past = json!({"file": "f", "line": 9, "column": 1});
        assert_eq!(caret_excerpt(&past, "one line"), None);
    }
}
