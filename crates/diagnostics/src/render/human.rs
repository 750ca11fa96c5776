//! rustc-style text output, drawn by `annotate-snippets`.

use annotate_snippets::{
    Annotation, AnnotationKind, Element, Group, Level, Origin, Renderer, Snippet,
    normalize_untrusted_str,
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
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for (index, diag) in diags.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&render_one(diag, sources, &renderer));
        out.push('\n');
    }
    out
}

fn render_one(diag: &Diagnostic, sources: &SourceMap, renderer: &Renderer) -> String {
    let title = level(diag.severity)
        .primary_title(diag.message.as_str())
        .id(diag.code.as_str());
    let mut elements: Vec<Element<'_>> = Vec::new();
    match file_of(diag, sources) {
        Some(file) => elements.push(excerpt(file, diag)),
        None => {
            if let Some(subject) = subject(diag) {
                elements.push(Origin::path(subject).into());
            }
        }
    }
    for note in &diag.notes {
        elements.push(Level::NOTE.message(trusted(note)).into());
    }
    if let Some(help) = &diag.help {
        elements.push(Level::HELP.message(trusted(help)).into());
    }
    if let Some(fix) = &diag.fix {
        let mut text = trusted(&fix.description);
        if let Some(replacement) = &fix.replacement {
            // annotate-snippets aligns continuation lines under the message text,
            // which indents the replacement under `= fix:`.
            text.push('\n');
            text.push_str(trusted(replacement).trim_end());
        }
        elements.push(Level::HELP.with_name("fix").message(text).into());
    }
    if let Some(name) = &diag.name {
        elements.push(Level::NOTE.with_name("rule").message(trusted(name)).into());
    }
    renderer.render(&[Group::with_title(title).elements(elements)])
}

/// The source excerpt, or just ` --> file` when nothing in the file is labelled.
fn excerpt<'a>(file: &'a SourceFile, diag: &'a Diagnostic) -> Element<'a> {
    let primary = diag
        .primary
        .iter()
        .map(|label| annotation(file, label, AnnotationKind::Primary));
    let secondary = diag
        .secondary
        .iter()
        .map(|label| annotation(file, label, AnnotationKind::Context));
    let annotations: Vec<Annotation<'a>> = primary.chain(secondary).collect();
    if annotations.is_empty() {
        return Origin::path(file.name.as_str()).into();
    }
    Snippet::source(file.text.as_str())
        .path(file.name.as_str())
        .annotations(annotations)
        .into()
}

fn annotation<'a>(file: &SourceFile, label: &'a Label, kind: AnnotationKind) -> Annotation<'a> {
    let annotation = kind.span(file.clamp_span(label.span.clone()));
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
fn trusted(text: &str) -> String {
    normalize_untrusted_str(&text.replace("\r\n", "\n"))
}
