//! Reading one schema file the way `cqlsh -f` runs it: its statements in
//! order, and a `SOURCE 'other.cql'` line replaced by the statements of that
//! file, read relative to the file that names it. Cycles and nesting deeper
//! than [`MAX_SOURCE_DEPTH`] are errors at the `SOURCE` line; the rest of the
//! file goes on.

use std::path::{Path, PathBuf};

use cqlmodel_cql::ast::{Span, Statement};
use cqlmodel_cql::{ParseError, ParseErrorKind};
use cqlmodel_diagnostics::{Diagnostic, SourceMap};
use cqlmodel_review::{Suppression, suppressions};
use cqlmodel_schema::SchemaBuilder;

use crate::input::{InputError, read_source};

/// The comment line that says a schema file's cluster sets
/// `drop_compact_storage_enabled: true` (5.0's default is false).
pub const DROP_COMPACT_STORAGE_ENABLED: &str = "@drop_compact_storage_enabled";

/// How deep `SOURCE` commands may nest (a file sourcing a file …).
pub const MAX_SOURCE_DEPTH: usize = 8;

/// What loading the files gathers besides the schema.
pub struct ScriptLoader<'a> {
    pub builder: SchemaBuilder,
    pub diagnostics: Vec<Diagnostic>,
    pub suppressions: Vec<Suppression>,
    /// Queries (SELECT, INSERT, …) found in the schema files: file and span.
    pub queries: Vec<(usize, Span)>,
    pub sources: &'a mut SourceMap,
    /// The files being read, outermost first (canonical paths): the cycle guard.
    stack: Vec<PathBuf>,
}

/// The parts of loading that stay with `schema_load`: how a file's syntax
/// errors become diagnostics, and which statements are queries.
pub struct FileRules {
    pub syntax: fn(&cqlmodel_cql::ParseSummary, &str, usize) -> Vec<Diagnostic>,
    pub is_query: fn(&Statement) -> bool,
}

impl<'a> ScriptLoader<'a> {
    pub fn new(builder: SchemaBuilder, sources: &'a mut SourceMap) -> Self {
        Self {
            builder,
            diagnostics: Vec::new(),
            suppressions: Vec::new(),
            queries: Vec::new(),
            sources,
            stack: Vec::new(),
        }
    }

    /// Reads a top-level file (an unreadable one is an input error, exit 2).
    pub fn load(&mut self, path: &Path, rules: &FileRules) -> Result<(), InputError> {
        let file = read_source(path, self.sources)?;
        self.stack.push(canonical(path));
        self.apply(file, path, rules);
        self.stack.pop();
        Ok(())
    }

    /// Parses a file statement by statement (its syntax trees are not kept:
    /// a file of 300,000 statements would hold hundreds of MB of them), adding
    /// each to the schema and following each `SOURCE` where it stands.
    fn apply(&mut self, file: usize, path: &Path, rules: &FileRules) {
        let text = self
            .sources
            .get(file)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let (text, cqlsh_lines) = blank_cqlsh_warnings(&text);
        for span in cqlsh_lines {
            self.diagnostics.push(
                Diagnostic::info(
                    "cqlsh-output",
                    "a warning cqlsh printed with its output (`cqlsh -e \"DESCRIBE …\" > file`), not CQL: skipped",
                )
                .with_file(file)
                .with_primary(span.range(), "skipped"),
            );
        }
        // A cassandra.yaml switch the file says its cluster sets: it applies
        // to the whole file, as a cluster setting does to every DDL in it.
        if text.contains(DROP_COMPACT_STORAGE_ENABLED)
            && cqlmodel_cql::parse_each(&text, |_, _| {})
                .comments
                .iter()
                .any(|c| c.text.trim() == DROP_COMPACT_STORAGE_ENABLED)
        {
            self.builder.settings_mut().drop_compact_storage_enabled = true;
        }
        // This file's own diagnostics, queries and suppressions come before
        // those of the files it sources, as when the file was parsed whole.
        let diagnostics_at = self.diagnostics.len();
        let suppressions_at = self.suppressions.len();
        let queries_at = self.queries.len();
        let mut queries = Vec::new();
        let mut followed = 0usize;
        let parsed = cqlmodel_cql::parse_each(&text, |statement, errors| {
            self.follow_sources(file, path, errors, &mut followed, &text, rules);
            if (rules.is_query)(&statement) {
                queries.push((file, statement.span));
            }
            self.builder
                .add_statements(file, std::iter::once(&statement));
        });
        self.follow_sources(file, path, &parsed.errors, &mut followed, &text, rules);
        let syntax = (rules.syntax)(&parsed, &text, file);
        insert_at(&mut self.diagnostics, diagnostics_at, syntax);
        let own = suppressions(file, &parsed.statement_comments(), &parsed.statements);
        insert_at(&mut self.suppressions, suppressions_at, own);
        insert_at(&mut self.queries, queries_at, queries);
    }

    /// Follows the `SOURCE` commands among `errors[*followed..]`.
    fn follow_sources(
        &mut self,
        file: usize,
        path: &Path,
        errors: &[ParseError],
        followed: &mut usize,
        text: &str,
        rules: &FileRules,
    ) {
        let new = errors.get(*followed..).unwrap_or_default();
        *followed = errors.len();
        for (span, target) in source_commands(new, text) {
            self.follow(file, span, path, &target, rules);
        }
    }

    /// Reads the file a `SOURCE` names, or says at the command why not.
    fn follow(
        &mut self,
        file: usize,
        span: Span,
        including: &Path,
        target: &str,
        rules: &FileRules,
    ) {
        let resolved = including
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(target);
        let at = |message: String| {
            Diagnostic::error("source", message)
                .with_file(file)
                .with_primary(span.range(), "this SOURCE")
        };
        let key = canonical(&resolved);
        if let Some(first) = self.stack.iter().position(|p| *p == key) {
            let chain: Vec<String> = self.stack[first..]
                .iter()
                .chain(std::iter::once(&key))
                .map(|p| p.display().to_string())
                .collect();
            self.diagnostics.push(at(format!(
                "SOURCE '{target}' is a cycle ({}): not read again",
                chain.join(" -> ")
            )));
            return;
        }
        if self.stack.len() >= MAX_SOURCE_DEPTH {
            self.diagnostics.push(at(format!(
                "SOURCE '{target}': files nest more than {MAX_SOURCE_DEPTH} deep: not read"
            )));
            return;
        }
        let sourced = match read_source(&resolved, self.sources) {
            Ok(f) => f,
            Err(e) => {
                self.diagnostics.push(at(format!(
                    "SOURCE '{target}' (read relative to this file, as {}): {e}",
                    resolved.display()
                )));
                return;
            }
        };
        self.diagnostics.push(
            Diagnostic::info(
                "source",
                format!(
                    "SOURCE '{target}': {} read here, in place of this line",
                    resolved.display()
                ),
            )
            .with_file(file)
            .with_primary(span.range(), "followed"),
        );
        self.stack.push(key);
        self.apply(sourced, &resolved, rules);
        self.stack.pop();
    }
}

/// cqlsh prints its own warnings on stdout, before the output of `-e`
/// (`WARNING: cqlsh was built against 5.0.0, but this server is 5.0.9. …`), so
/// a captured DESCRIBE holds them. Such lines are blanked with spaces, which
/// keeps every offset, and their spans returned.
fn blank_cqlsh_warnings(text: &str) -> (std::borrow::Cow<'_, str>, Vec<Span>) {
    // Most files have none: no copy of a 10 MB file for nothing.
    if !text.contains("WARNING: cqlsh ") {
        return (std::borrow::Cow::Borrowed(text), Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut spans = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.starts_with("WARNING: cqlsh ") {
            out.extend(std::iter::repeat_n(' ', body.len()));
            out.push_str(&line[body.len()..]);
            let (from, to) = (start as u32, (start + body.len()) as u32);
            spans.push(Span {
                start: from,
                end: to,
            });
        } else {
            out.push_str(line);
        }
        start += line.len();
    }
    (std::borrow::Cow::Owned(out), spans)
}

/// Puts `items` at `at` in `list`, before what the sourced files added there.
fn insert_at<T>(list: &mut Vec<T>, at: usize, items: Vec<T>) {
    let sourced = list.split_off(at.min(list.len()));
    list.extend(items);
    list.extend(sourced);
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The `SOURCE 'file'` commands of a file, in order: their span and the file named.
pub fn source_commands(errors: &[ParseError], text: &str) -> Vec<(Span, String)> {
    errors
        .iter()
        .filter_map(|e| match &e.kind {
            ParseErrorKind::ShellCommand { command, .. } if command == "source" => {
                let line = text.get(e.span.range())?;
                Some((e.span, source_target(line)?))
            }
            _ => None,
        })
        .collect()
}

/// `SOURCE 'a.cql';` → `a.cql` (quotes optional, `''` un-doubled).
fn source_target(line: &str) -> Option<String> {
    let rest = line.trim().get("source".len()..)?.trim();
    let rest = rest.trim_end_matches(';').trim();
    let target = match rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        Some(quoted) => quoted.replace("''", "'"),
        None => rest.to_string(),
    };
    (!target.is_empty()).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::source_target;

    #[test]
    fn the_file_a_source_command_names() {
        assert_eq!(source_target("SOURCE 'a.cql'").as_deref(), Some("a.cql"));
        assert_eq!(
            source_target("source 'it''s.cql';").as_deref(),
            Some("it's.cql")
        );
        assert_eq!(source_target("SOURCE b.cql").as_deref(), Some("b.cql"));
        assert_eq!(source_target("SOURCE"), None);
    }
}
