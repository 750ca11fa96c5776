//! A flat JSON array, one object per diagnostic, for scripts and editors.

use serde_json::{Value, json};

use super::{Region, file_of};
use crate::{Diagnostic, Label, SourceFile, SourceMap};

/// Renders diagnostics as a JSON array of objects with the keys `code`, `name`,
/// `severity`, `message`, `file`, `line`, `column`, `end_line`, `end_column`,
/// `label`, `secondary`, `table`, `query`, `notes`, `help` and `fix`.
///
/// Lines and columns are 1-based, columns count characters, and the end
/// position is exclusive (the character after the span). Keys without a value
/// are `null`; `file` is the path as given.
pub fn render_json(diags: &[Diagnostic], sources: &SourceMap) -> Value {
    Value::Array(diags.iter().map(|diag| object(diag, sources)).collect())
}

fn object(diag: &Diagnostic, sources: &SourceMap) -> Value {
    let file = file_of(diag, sources);
    let region = file
        .zip(diag.primary.as_ref())
        .map(|(f, l)| Region::of(f, l));
    let secondary: Vec<Value> = file
        .map(|file| {
            diag.secondary
                .iter()
                .map(|label| located_label(file, label))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "code": diag.code,
        "name": diag.name,
        "severity": diag.severity,
        "message": diag.message,
        "file": file.map(|f| f.name.as_str()),
        "line": region.map(|r| r.start_line),
        "column": region.map(|r| r.start_column),
        "end_line": region.map(|r| r.end_line),
        "end_column": region.map(|r| r.end_column),
        "label": diag.primary.as_ref().map(|l| l.message.as_str()),
        "secondary": secondary,
        "table": diag.table,
        "query": diag.query,
        "notes": diag.notes,
        "help": diag.help,
        "fix": diag.fix.as_ref().map(|fix| json!({
            "description": fix.description,
            "replacement": fix.replacement,
        })),
    })
}

fn located_label(file: &SourceFile, label: &Label) -> Value {
    let region = Region::of(file, label);
    json!({
        "message": label.message,
        "line": region.start_line,
        "column": region.start_column,
        "end_line": region.end_line,
        "end_column": region.end_column,
    })
}
