//! Renderers: text for people, JSON and SARIF for machines.

mod human;
mod json;
mod sarif;

pub use human::{render_human, write_human};
pub use json::render_json;
pub use sarif::render_sarif;

use crate::{Diagnostic, Label, SourceFile, SourceMap};

/// A clamped span with its 1-based start and (exclusive) end positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

impl Region {
    fn of(file: &SourceFile, label: &Label) -> Self {
        let span = file.clamp_span(label.span.clone());
        let (start_line, start_column) = file.line_col(span.start);
        let (end_line, end_column) = file.line_col(span.end);
        Self {
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }
}

/// The file a diagnostic points into, if its index names one.
fn file_of<'a>(diag: &Diagnostic, sources: &'a SourceMap) -> Option<&'a SourceFile> {
    diag.file.and_then(|index| sources.get(index))
}
