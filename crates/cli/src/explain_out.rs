//! `cqlmodel explain`'s stdout, written as the statements are explained: the
//! text one statement at a time, the JSON rows held as text until the end
//! (the document's shape depends on whether the input had errors, which is
//! known only then).

use std::io::{self, Write};

use cqlmodel_diagnostics::{
    Diagnostic, SourceMap, escape_controls, escape_line, render_human, render_json,
};
use serde::Serialize;

use crate::explain::{Explained, Tally, statement_diagnostic, summary};

/// Writes one statement's text: its name (or place), the statement, then the
/// access path or Cassandra's error, its warnings and a blank line.
pub fn write_text(
    out: &mut dyn Write,
    e: &Explained,
    sources: &SourceMap,
    color: bool,
) -> io::Result<()> {
    let title = match &e.name {
        Some(name) => escape_line(name).into_owned(),
        None => escape_line(&format!("{}:{}", e.file, e.line)).into_owned(),
    };
    // Names and statements come from the input: no control character
    // reaches the terminal raw.
    write!(out, "{title}\n  {}\n", escape_line(&e.statement))?;
    match statement_diagnostic(e) {
        Some(d) => {
            for line in render_human(&[d], sources, color).lines() {
                writeln!(out, "  {line}")?;
            }
        }
        None => writeln!(out, "  → {}", escape_line(&summary(&e.path)))?,
    }
    for w in &e.path.warnings {
        writeln!(out, "  warning: {}", escape_controls(w))?;
    }
    out.write_all(b"\n")
}

/// The text's last line: how many statements, valid and rejected.
pub fn write_text_tally(out: &mut dyn Write, tally: &Tally) -> io::Result<()> {
    writeln!(
        out,
        "{} statements: {} valid, {} rejected by Cassandra",
        tally.statements,
        tally.statements - tally.rejected,
        tally.rejected
    )
}

/// The JSON rows of the statements explained so far, each pretty-printed on
/// its own (as a top-level value), in order.
#[derive(Debug, Default)]
pub struct JsonRows {
    text: Vec<u8>,
    /// Where each row ends in `text`.
    ends: Vec<usize>,
}

impl JsonRows {
    /// Adds one statement's row.
    pub fn push(&mut self, e: &Explained, sources: &SourceMap) {
        // Serializing a struct of strings and numbers into memory cannot fail.
        let _ = serde_json::to_writer_pretty(&mut self.text, &e.to_json(sources));
        self.ends.push(self.text.len());
    }

    fn rows(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.text.get(start..end).unwrap_or_default())
    }

    /// Writes the document: the array of rows; with input errors, an object
    /// of the `errors` and the rows as `statements` (whose keys then come
    /// sorted, as a `serde_json::Value` orders them). The bytes are what
    /// `serde_json::to_string_pretty` gives for the same values.
    pub fn write_document(
        &self,
        out: &mut dyn Write,
        input_errors: &[Diagnostic],
        sources: &SourceMap,
    ) -> io::Result<()> {
        if input_errors.is_empty() {
            write_array(out, self.rows().map(Row::AsWritten), "")?;
            return out.write_all(b"\n");
        }
        let errors = pretty(&render_json(input_errors, sources))?;
        out.write_all(b"{\n  \"errors\": ")?;
        write_indented(out, &errors, "  ")?;
        out.write_all(b",\n  \"statements\": ")?;
        write_array(out, self.rows().map(Row::Sorted), "  ")?;
        out.write_all(b"\n}\n")
    }
}

/// A row of [`JsonRows`] as written, or with its keys sorted.
enum Row<'a> {
    AsWritten(&'a [u8]),
    Sorted(&'a [u8]),
}

impl Row<'_> {
    fn text(&self) -> io::Result<std::borrow::Cow<'_, [u8]>> {
        match self {
            Row::AsWritten(text) => Ok(std::borrow::Cow::Borrowed(text)),
            Row::Sorted(text) => {
                let value: serde_json::Value = serde_json::from_slice(text)?;
                Ok(std::borrow::Cow::Owned(pretty(&value)?))
            }
        }
    }
}

/// A pretty-printed array of `rows` at the nesting of `indent`: `[]`, or one
/// row per line block, as serde_json prints it.
fn write_array<'a>(
    out: &mut dyn Write,
    rows: impl Iterator<Item = Row<'a>>,
    indent: &str,
) -> io::Result<()> {
    let inner = format!("{indent}  ");
    let mut empty = true;
    for row in rows {
        out.write_all(if empty { b"[\n" } else { b",\n" })?;
        empty = false;
        out.write_all(inner.as_bytes())?;
        write_indented(out, &row.text()?, &inner)?;
    }
    if empty {
        return out.write_all(b"[]");
    }
    write!(out, "\n{indent}]")
}

/// `text` (pretty JSON, which has no line break inside a string) with
/// `indent` after each line break.
fn write_indented(out: &mut dyn Write, text: &[u8], indent: &str) -> io::Result<()> {
    let mut lines = text.split(|&b| b == b'\n');
    if let Some(first) = lines.next() {
        out.write_all(first)?;
    }
    for line in lines {
        out.write_all(b"\n")?;
        out.write_all(indent.as_bytes())?;
        out.write_all(line)?;
    }
    Ok(())
}

fn pretty(value: &impl Serialize) -> io::Result<Vec<u8>> {
    serde_json::to_vec_pretty(value).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::{JsonRows, write_indented};

    #[test]
    fn indenting_leaves_the_first_line_alone() {
        let mut out = Vec::new();
        write_indented(&mut out, b"{\n  \"a\": 1\n}", "  ").unwrap_or_default();
        assert_eq!(out, b"{\n    \"a\": 1\n  }");
    }

    /// The document as it was built before the rows were streamed: through
    /// `serde_json::to_string_pretty` of the rows (or of `json!` with the
    /// errors, which sorts the rows' keys).
    fn built_whole(report: &crate::explain::Report) -> String {
        let rows: Vec<_> = report
            .explained
            .iter()
            .map(|e| e.to_json(&report.sources))
            .collect();
        let value = if report.input_errors.is_empty() {
            serde_json::to_string_pretty(&rows)
        } else {
            serde_json::to_string_pretty(&serde_json::json!({
                "statements": rows,
                "errors": cqlmodel_diagnostics::render_json(&report.input_errors, &report.sources),
            }))
        };
        value.unwrap_or_default() + "\n"
    }

    fn streamed(report: &crate::explain::Report) -> String {
        let mut rows = JsonRows::default();
        for e in &report.explained {
            rows.push(e, &report.sources);
        }
        let mut out = Vec::new();
        rows.write_document(&mut out, &report.input_errors, &report.sources)
            .unwrap_or_else(|e| panic!("{e}"));
        String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_streamed_document_is_the_one_built_whole() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let schema = [root.join("examples/iot.cql")];
        for (queries, errors) in [
            (root.join("examples/iot-queries.cql"), false),
            (
                root.join("crates/cli/tests/data/explain_with_errors.cql"),
                true,
            ),
        ] {
            let queries = crate::explain::Queries::File(queries);
            let report =
                crate::explain::explain(&schema, &queries, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(!report.input_errors.is_empty(), errors);
            assert!(report.explained.len() > 1);
            assert_eq!(streamed(&report), built_whole(&report));
        }
    }

    #[test]
    fn no_rows_are_an_empty_array() {
        let mut out = Vec::new();
        let sources = cqlmodel_diagnostics::SourceMap::new();
        JsonRows::default()
            .write_document(&mut out, &[], &sources)
            .unwrap_or_default();
        assert_eq!(out, b"[]\n");
    }
}
