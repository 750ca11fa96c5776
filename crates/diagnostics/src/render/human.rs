//! rustc-style text output, drawn by `annotate-snippets`.

use std::convert::Infallible;
use std::io::{self, Write};
use std::ops::Range;

use annotate_snippets::{
    AnnotationKind, Element, Group, Level, Origin, Renderer, Snippet, normalize_untrusted_str,
};

use super::file_of;
use crate::{Diagnostic, Label, Severity, SourceFile, SourceMap};

/// Renders every diagnostic as a rustc-style report, separated by blank lines:
///
/// ```text
/// warning[CQL001]: query uses ALLOW FILTERING
///  --> queries.cql:3:35
///   |
/// 3 | SELECT * FROM ks.t WHERE v = 1 ALLOW FILTERING;
///   |                                ^^^^^^^^^^^^^^^ scans every partition
///   |
///   = help: ...
/// ```
///
/// `color` switches ANSI styling on; spans are clamped (see
/// [`SourceFile::clamp_span`]) so that no input makes this panic.
pub fn render_human(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    let rendered: Result<(), Infallible> = each_rendered(diags, sources, color, |text| {
        out.push_str(text);
        Ok(())
    });
    let Ok(()) = rendered;
    out
}

/// Writes what [`render_human`] returns, one diagnostic at a time: the memory
/// is one diagnostic's, not the whole report's (a review of 100,000 tables
/// reports as many findings).
pub fn write_human<'a>(
    out: &mut dyn Write,
    diags: impl IntoIterator<Item = &'a Diagnostic>,
    sources: &SourceMap,
    color: bool,
) -> io::Result<()> {
    each_rendered(diags, sources, color, |text| out.write_all(text.as_bytes()))
}

/// Hands each piece of the report to `put`, in order: the diagnostics,
/// each followed by a line break, with a blank line between two.
fn each_rendered<'a, E>(
    diags: impl IntoIterator<Item = &'a Diagnostic>,
    sources: &SourceMap,
    color: bool,
    mut put: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    for (index, diag) in diags.into_iter().enumerate() {
        if index > 0 {
            put("\n")?;
        }
        put(&render_one(diag, sources, &renderer))?;
        put("\n")?;
    }
    Ok(())
}

fn render_one(diag: &Diagnostic, sources: &SourceMap, renderer: &Renderer) -> String {
    let title = level(diag.severity)
        .primary_title(diag.message.as_str())
        .id(diag.code.as_str());
    let mut elements: Vec<Element<'_>> = Vec::new();
    match file_of(diag, sources) {
        Some(file) => elements.extend(excerpt(file, diag)),
        None => {
            if let Some(subject) = subject(diag) {
                elements.push(Origin::path(subject).into());
            }
        }
    }
    for note in &diag.notes {
        elements.push(Level::NOTE.message(sanitized(note)).into());
    }
    if let Some(help) = &diag.help {
        elements.push(Level::HELP.message(sanitized(help)).into());
    }
    if let Some(fix) = &diag.fix {
        let mut text = sanitized(&fix.description);
        if let Some(replacement) = &fix.replacement {
            // annotate-snippets aligns continuation lines under the message text,
            // which indents the replacement under `= fix:`.
            text.push('\n');
            text.push_str(sanitized(replacement).trim_end());
        }
        elements.push(Level::HELP.with_name("fix").message(text).into());
    }
    if let Some(name) = &diag.name {
        elements.push(
            Level::NOTE
                .with_name("rule")
                .message(sanitized(name))
                .into(),
        );
    }
    renderer.render(&[Group::with_title(title).elements(elements)])
}

/// An excerpt longer than this (one very long line: minified CQL, a dump
/// on one line) is cut to a window around its labels before rendering.
const LONG_EXCERPT: usize = 4096;

/// Bytes of context kept on each side of the labels in a cut excerpt.
const CUT_CONTEXT: usize = 256;

/// The source excerpt, or just ` --> file` when nothing in the file is labelled.
///
/// Only the lines from the first to the last label are handed over, so that
/// rendering costs the size of the excerpt rather than of the file; on a
/// very long line, only a window around the labels, so that a diagnostic per
/// statement of a 10 MB line costs its window, not the line.
fn excerpt<'a>(file: &'a SourceFile, diag: &'a Diagnostic) -> Vec<Element<'a>> {
    let primary = diag.primary.iter().map(|l| (l, AnnotationKind::Primary));
    let secondary = diag.secondary.iter().map(|l| (l, AnnotationKind::Context));
    let labels: Vec<(Range<usize>, &Label, AnnotationKind)> = primary
        .chain(secondary)
        .map(|(label, kind)| (file.clamp_span(label.span.clone()), label, kind))
        .collect();
    let (Some(low), Some(high)) = (
        labels.iter().map(|(span, ..)| span.start).min(),
        labels.iter().map(|(span, ..)| span.end).max(),
    ) else {
        return vec![Origin::path(file.name.as_str()).into()];
    };
    let text = file.text.as_str();
    let Range {
        start: first,
        end: last,
    } = file.lines_around(low..high);
    if last - first > LONG_EXCERPT && !text[low..high].contains('\n') {
        return cut_excerpt(file, labels, low..high, first..last);
    }
    let Some(lines) = text.get(first..last) else {
        return vec![Origin::path(file.name.as_str()).into()];
    };
    let annotations = labels
        .into_iter()
        .map(|(span, label, kind)| annotation(kind, span.start - first..span.end - first, label));
    vec![
        Snippet::source(lines)
            .line_start(file.line_col(first).0)
            .path(file.name.as_str())
            .annotations(annotations)
            .into(),
    ]
}

/// One long line's excerpt: `...` + a window around the labels + `...`,
/// with the location (`--> file:line:column`) computed on the whole file,
/// since the renderer would count columns from the window's start.
fn cut_excerpt<'a>(
    file: &'a SourceFile,
    labels: Vec<(Range<usize>, &'a Label, AnnotationKind)>,
    labelled: Range<usize>,
    line: Range<usize>,
) -> Vec<Element<'a>> {
    let text = file.text.as_str();
    let mut start = labelled.start.saturating_sub(CUT_CONTEXT).max(line.start);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (labelled.end + CUT_CONTEXT).min(line.end);
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let head = if start > line.start { "..." } else { "" };
    let tail = if end < line.end { "..." } else { "" };
    let window = format!(
        "{head}{}{tail}",
        text[start..end].trim_end_matches(['\n', '\r'])
    );
    let shift = |at: usize| at - start + head.len();
    let annotations: Vec<_> = labels
        .into_iter()
        .map(|(span, label, kind)| annotation(kind, shift(span.start)..shift(span.end), label))
        .collect();
    let (line_no, column) = file.line_col(labelled.start);
    vec![
        Origin::path(file.name.as_str())
            .line(line_no)
            .char_column(column)
            .into(),
        Snippet::source(window)
            .line_start(line_no)
            .annotations(annotations)
            .into(),
    ]
}

fn annotation<'a>(
    kind: AnnotationKind,
    span: Range<usize>,
    label: &'a Label,
) -> annotate_snippets::Annotation<'a> {
    let annotation = kind.span(span);
    if label.message.is_empty() {
        annotation
    } else {
        annotation.label(label.message.as_str())
    }
}

/// What a diagnostic without a file is about, e.g. `table ks.t, query by_user`.
fn subject(diag: &Diagnostic) -> Option<String> {
    let parts: Vec<String> = [("table", &diag.table), ("query", &diag.query)]
        .into_iter()
        .filter_map(|(kind, value)| value.as_ref().map(|value| format!("{kind} {value}")))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// Messages are printed verbatim by annotate-snippets, but names inside them can
/// come from user input (quoted CQL identifiers may hold escape sequences).
fn sanitized(text: &str) -> String {
    normalize_untrusted_str(&text.replace("\r\n", "\n"))
}
