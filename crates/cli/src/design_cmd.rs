//! `cqlmodel design MODEL.sql [--queries Q.sql] [--stats S.toml] --out DIR`.
//!
//! Input errors are diagnostics like every other command's: unreadable files
//! through the shared loader, design errors as `error[<kind>]` pointing into the
//! file they come from.

use std::ops::Range;
use std::path::Path;

use cqlmodel_design::{
    Design, DesignError, DesignErrorKind, DesignInput, DesignOptions, Source, WriteOptions,
    design_with, json, write_design_with,
};
use cqlmodel_diagnostics::{Diagnostic, SourceMap, render_human, render_json};

use crate::design_existing::{ExistingMigration, MigrationOptions, plan_existing};
use crate::input::read_source;
use crate::output::Model;

/// Runs the designer: `(stdout, stderr, exit code)`. Exit 2 on any input error,
/// and then nothing is written to `out`. Errors go to stderr as text, or to
/// stdout as `{"errors": [...]}` with `json_output`, as for the other commands.
pub fn run(
    model: &Path,
    queries: Option<&Path>,
    stats: Option<&Path>,
    out: &Path,
    json_output: bool,
    color: bool,
) -> (String, String, u8) {
    let defaults = MigrationOptions::default();
    let files = DesignFiles {
        model,
        queries,
        stats,
        existing: None,
        horizon: None,
        migration: &defaults,
    };
    run_with(&files, out, WriteOptions::default(), json_output, color)
}

/// The wrong-language error for a model that reads as CQL.
fn cql_given(model_sql: &str, file: usize) -> Option<Diagnostic> {
    if !crate::sniff::looks_like_cql(model_sql) {
        return None;
    }
    Some(crate::sniff::wrong_language_error(
        model_sql,
        file,
        crate::sniff::CQL_TO_DESIGN,
        "not relational SQL",
    ))
}

/// The input files of a design.
pub struct DesignFiles<'a> {
    pub model: &'a Path,
    pub queries: Option<&'a Path>,
    pub stats: Option<&'a Path>,
    /// `--existing`: the schema deployed today (CQL file or directory); the
    /// migration from it to the design is written next to the design.
    pub existing: Option<&'a Path>,
    /// `--horizon`: the age growth with no retention is sized at (seconds).
    pub horizon: Option<u64>,
    /// The migrate options for `--existing` (`--rename`, `--target`, `--layout`).
    pub migration: &'a MigrationOptions,
}

/// [`run`] with the output options (`--force`).
pub fn run_with(
    files: &DesignFiles,
    out: &Path,
    options: WriteOptions,
    json_output: bool,
    color: bool,
) -> (String, String, u8) {
    run_once(
        files,
        out,
        options,
        json_output,
        color,
        &mut Model::unwanted(),
    )
}

/// [`run_with`], also filling `model` with the JSON document for the HTML
/// page: the design is made and `out` written once.
pub fn run_once(
    files: &DesignFiles,
    out: &Path,
    options: WriteOptions,
    json_output: bool,
    color: bool,
    page_model: &mut Model,
) -> (String, String, u8) {
    let DesignFiles {
        model,
        queries,
        stats,
        existing,
        horizon,
        migration: migration_options,
    } = *files;
    let mut sources = SourceMap::new();
    let files = match InputFiles::read(model, queries, stats, &mut sources) {
        Ok(f) => f,
        Err(e) => return plain_error("input", &e.to_string(), json_output),
    };
    let text = |file: Option<usize>| file.and_then(|i| sources.get(i)).map(|f| f.text.as_str());
    let keyspace = keyspace_name(model);
    let input = DesignInput {
        keyspace: &keyspace,
        model_sql: text(Some(files.model)).unwrap_or_default(),
        queries_sql: text(files.queries),
        stats_toml: text(files.stats),
    };
    // Large models take a while: a spinner on a terminal's stderr.
    let progress = crate::progress::Progress::spinner(format!("designing {}", model.display()));
    let d = match design_with(&input, &DesignOptions { horizon }) {
        Ok(d) => d,
        Err(e) => {
            let diagnostics = stop_diagnostics(&e, input.model_sql, &files, &sources);
            return input_error(&diagnostics, &sources, json_output, color);
        }
    };
    // The migration is planned before anything is written: a bad --existing
    // file is an input error, and then the output directory is left alone.
    let migration = match existing {
        Some(path) => {
            progress.set_message(format!("planning the migration from {}", path.display()));
            let new_side = (d.schema_cql(), &d.write_paths);
            let planned = plan_existing(
                path,
                &keyspace,
                (&new_side.0, new_side.1),
                migration_options,
                &mut sources,
            );
            match planned {
                Ok(m) => Some(m),
                Err(diagnostics) => return input_error(&diagnostics, &sources, json_output, color),
            }
        }
        None => None,
    };
    let mut inputs: Vec<&Path> = vec![model];
    inputs.extend(queries);
    inputs.extend(stats);
    inputs.extend(existing);
    progress.set_message(format!("writing {}", out.display()));
    let extra = migration
        .as_ref()
        .map(|m| m.files.clone())
        .unwrap_or_default();
    if let Err(e) = write_design_with(&d, out, &inputs, options, extra) {
        return plain_error("output", &e.to_string(), json_output);
    }
    let review_errors = d.review.iter().filter(|f| f.is_error()).count();
    let stdout = if json_output {
        String::new()
    } else {
        summary_text(&d, out, migration.as_ref())
    };
    let (errors, notes) = design_diagnostics(&d, &files, &sources);
    let code = u8::from(
        !errors.is_empty()
            || review_errors > 0
            || migration.as_ref().is_some_and(|m| m.needs_attention),
    );
    let document = page_model.document(json_output, || {
        design_document(&d, migration.as_ref(), (&errors, &notes), &sources)
    });
    if let Some(document) = document {
        return (document, String::new(), code);
    }
    let diagnostics: Vec<Diagnostic> = errors.into_iter().chain(notes).collect();
    (stdout, render_human(&diagnostics, &sources, color), code)
}

/// design.json: the design, the migration from `--existing`, and the errors
/// and input notes rendered as every command renders them (`errors` holds only
/// what was not designed, `notes` what the inputs held that was skipped or
/// mapped).
fn design_document(
    d: &Design,
    migration: Option<&ExistingMigration>,
    (errors, notes): (&[Diagnostic], &[Diagnostic]),
    sources: &SourceMap,
) -> serde_json::Value {
    let mut value = json(d);
    if let Some(m) = migration {
        value["migration"] = migration_json(m);
    }
    if errors.is_empty() && notes.is_empty() {
        return value;
    }
    value["errors"] = serde_json::json!(render_json(errors, sources));
    value["notes"] = serde_json::json!(render_json(notes, sources));
    value
}

/// Why the designer stopped, as diagnostics: CQL given as the model is one
/// message instead of a syntax error per statement; otherwise every problem
/// of the stop, not only the first.
fn stop_diagnostics(
    e: &DesignError,
    model_sql: &str,
    files: &InputFiles,
    sources: &SourceMap,
) -> Vec<Diagnostic> {
    if let Some(wrong) = cql_given(model_sql, files.model) {
        return vec![wrong];
    }
    std::iter::once(e)
        .chain(&e.also)
        .map(|e| design_diagnostic(e, files.of(e.source_file), sources))
        .collect()
}

/// The design's statements it could not translate (errors) and what the
/// inputs held that was skipped or mapped (notes).
fn design_diagnostics(
    d: &Design,
    files: &InputFiles,
    sources: &SourceMap,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    // Statements the designer could not translate: the rest is written, each
    // gets its own diagnostic, and the run is a partial result (exit 1). A
    // design its own review rejects is a partial result too: never exit 0.
    let errors = d
        .errors
        .iter()
        .map(|e| design_diagnostic(e, files.of(e.source_file), sources))
        .collect();
    // Info diagnostics, so that no choice about the input is silent.
    let notes = d
        .input_notes
        .iter()
        .map(|n| note_diagnostic(n, files.of(n.source), sources))
        .collect();
    (errors, notes)
}

/// The text summary: counts, the migration's summary, the fit verdict, where
/// each query went, and the own review's findings above info.
fn summary_text(d: &Design, out: &Path, migration: Option<&ExistingMigration>) -> String {
    let review_errors = d.review.iter().filter(|f| f.is_error()).count();
    let served = d.queries.iter().filter(|q| q.table.is_some()).count();
    let mut s = format!(
        "{} tables, {} of {} queries served, {} write paths, {} warnings, own review: {} errors, {} other findings → {}\n",
        d.tables.len(),
        served,
        d.queries.len(),
        d.write_paths.len(),
        d.warnings.len(),
        review_errors,
        d.review.len() - review_errors,
        out.display()
    );
    if let Some(m) = migration {
        s.push_str(&m.summary);
    }
    s.push_str(&cqlmodel_design::verdict::verdict_text(
        &cqlmodel_design::verdict::verdict(d),
    ));
    for q in &d.queries {
        match (&q.table, &q.off_path) {
            (Some(t), _) => s.push_str(&format!(
                "  {} → {t} ({} partition(s))\n",
                q.name,
                q.partitions.map_or("?".into(), |p| p.to_string())
            )),
            (None, Some(o)) => {
                s.push_str(&format!("  {} → off the OLTP path: {}\n", q.name, o.reason))
            }
            _ => {}
        }
    }
    for f in d.review.iter().filter(|f| f.severity != "info") {
        s.push_str(&format!(
            "  review {} {}{}: {}\n",
            f.severity,
            f.code,
            f.rule.as_deref().map_or(String::new(), |r| format!(" {r}")),
            f.message
        ));
    }
    s
}

/// The keyspace: the model file's stem, or its directory's name for `model.sql`.
fn keyspace_name(model: &Path) -> String {
    let stem = model
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let base = if stem == "model" || stem == "schema" {
        model
            .canonicalize()
            .ok()
            .and_then(|p| {
                p.parent()
                    .and_then(|d| d.file_name())
                    .map(|n| n.to_string_lossy().to_string())
            })
            .unwrap_or(stem)
    } else {
        stem
    };
    let mut name: String = base
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
        name = format!("ks_{name}");
    }
    name
}

/// The indexes of the input files in the source map.
struct InputFiles {
    model: usize,
    queries: Option<usize>,
    stats: Option<usize>,
}

impl InputFiles {
    fn read(
        model: &Path,
        queries: Option<&Path>,
        stats: Option<&Path>,
        sources: &mut SourceMap,
    ) -> Result<Self, crate::input::InputError> {
        Ok(InputFiles {
            model: read_source(model, sources)?,
            queries: queries.map(|p| read_source(p, sources)).transpose()?,
            stats: stats.map(|p| read_source(p, sources)).transpose()?,
        })
    }

    /// The file an error points into (`None` only if the designer named an
    /// input it was not given).
    fn of(&self, source: Source) -> Option<usize> {
        match source {
            Source::Model => Some(self.model),
            Source::Queries => self.queries,
            Source::Stats => self.stats,
        }
    }
}

/// The diagnostic code of each kind of design error: kebab-case, like the
/// codes of the other commands' input errors (`syntax`, `stats`, `schema`).
fn error_code(kind: &DesignErrorKind) -> &'static str {
    kind.code()
}

/// A design error as a diagnostic pointing into `file`.
fn design_diagnostic(e: &DesignError, file: Option<usize>, sources: &SourceMap) -> Diagnostic {
    let diagnostic = Diagnostic::error(error_code(&e.kind), e.message.clone());
    let Some((index, source)) = file.and_then(|i| sources.get(i).map(|f| (i, f))) else {
        return diagnostic;
    };
    let at = byte_offset(&source.text, e.line, e.column);
    diagnostic
        .with_file(index)
        .with_primary(token_at(&source.text, at), "here")
}

/// An input note as an info diagnostic pointing into `file`.
fn note_diagnostic(
    n: &cqlmodel_design::input_notes::InputNote,
    file: Option<usize>,
    sources: &SourceMap,
) -> Diagnostic {
    let diagnostic = Diagnostic::info(n.code, n.message.clone());
    let Some((index, source)) = file.and_then(|i| sources.get(i).map(|f| (i, f))) else {
        return diagnostic;
    };
    let at = byte_offset(&source.text, n.line, n.column);
    diagnostic
        .with_file(index)
        .with_primary(token_at(&source.text, at), "here")
}

/// The byte offset of a 1-based line and column, columns counting characters
/// (as sqlparser and the design crate's splitter do). A column past the end of
/// its line is the line's end, a line past the last one the end of the text,
/// and 0 counts as 1, so that any position the designer reports lands in the text.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut line_start = 0;
    for _ in 1..line.max(1) {
        match text.get(line_start..).and_then(|rest| rest.find('\n')) {
            Some(newline) => line_start += newline + 1,
            None => return text.len(),
        }
    }
    let rest = text.get(line_start..).unwrap_or_default();
    let line_text = rest.split('\n').next().unwrap_or_default();
    let within = line_text
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line_text.len(), |(at, _)| at);
    line_start + within
}

/// The span to underline at `offset`: the name or number starting there
/// (`nope`, `r.device_id`, `-3`), else the one character, else nothing at a
/// line end. The designer reports only where a construct starts, and a name or
/// a value is what its errors are about.
fn token_at(text: &str, offset: usize) -> Range<usize> {
    let rest = text.get(offset..).unwrap_or_default();
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let sign = match rest.as_bytes() {
        [b'-' | b'+', digit, ..] if digit.is_ascii_digit() => 1,
        _ => 0,
    };
    let body = rest.get(sign..).unwrap_or_default();
    let word_end = body.find(|c: char| !is_word(c)).unwrap_or(body.len());
    let word = body
        .get(..word_end)
        .unwrap_or_default()
        .trim_end_matches('.');
    let len = if word.is_empty() {
        rest.chars()
            .next()
            .filter(|c| *c != '\n' && *c != '\r')
            .map_or(0, char::len_utf8)
    } else {
        sign + word.len()
    };
    offset..offset + len
}

/// Design errors as the other commands show input errors.
fn input_error(
    diags: &[Diagnostic],
    sources: &SourceMap,
    json_output: bool,
    color: bool,
) -> (String, String, u8) {
    if json_output {
        let value = serde_json::json!({ "errors": render_json(diags, sources) });
        (pretty(&value), String::new(), 2)
    } else {
        (String::new(), render_human(diags, sources, color), 2)
    }
}

/// A problem with a file itself (unreadable, not UTF-8, empty) or with the
/// output directory: a message without an excerpt, as `explain` and `review` say it.
fn plain_error(code: &str, message: &str, json_output: bool) -> (String, String, u8) {
    if json_output {
        input_error(
            &[Diagnostic::error(code, message)],
            &SourceMap::new(),
            true,
            false,
        )
    } else {
        (String::new(), format!("error: {message}\n"), 2)
    }
}

/// The migration in the design's JSON: its summary and the files written.
fn migration_json(m: &ExistingMigration) -> serde_json::Value {
    serde_json::json!({
        "summary": m.summary.trim_end(),
        "needs_attention": m.needs_attention,
        "files": m.files.iter().map(|(p, _)| p.to_string_lossy()).collect::<Vec<_>>(),
    })
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use cqlmodel_diagnostics::SourceFile;

    use super::{byte_offset, token_at};

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "-- é😀\nSELECT é, x FROM t";
        let x = text.find('x').unwrap_or_default();
        assert_eq!(byte_offset(text, 2, 11), x);
        assert_eq!(byte_offset(text, 1, 5), text.find('😀').unwrap_or_default());
    }

    #[test]
    fn every_character_position_maps_back_to_its_line_and_column() {
        let text = "CREATE TABLE t (\n\tnom_é text, 名前 int\n);\n\n😀 x";
        let file = SourceFile::new("m.sql", text);
        for (offset, _) in text.char_indices() {
            let (line, column) = file.line_col(offset);
            assert_eq!(byte_offset(text, line, column), offset, "{line}:{column}");
        }
    }

    #[test]
    fn positions_outside_the_text_land_at_its_edges() {
        let text = "ab\ncd\n";
        assert_eq!(
            byte_offset(text, 1, 99),
            2,
            "past the line end: the line end"
        );
        assert_eq!(byte_offset(text, 2, 3), 5);
        assert_eq!(byte_offset(text, 3, 1), 6, "the empty last line");
        assert_eq!(byte_offset(text, 4, 1), text.len());
        assert_eq!(byte_offset(text, usize::MAX, usize::MAX), text.len());
        assert_eq!(byte_offset(text, 0, 0), 0);
        assert_eq!(byte_offset("", 5, 5), 0);
        assert_eq!(byte_offset("ab\r\ncd", 2, 1), 4);
    }

    #[test]
    fn the_underline_covers_a_name_or_one_character() {
        let text = "SELECT r.nom_é, $1 FROM t;\n";
        let name = text.find("r.").unwrap_or_default();
        assert_eq!(text.get(token_at(text, name)), Some("r.nom_é"));
        let dollar = text.find('$').unwrap_or_default();
        assert_eq!(text.get(token_at(text, dollar)), Some("$"));
        let semicolon = text.find(';').unwrap_or_default();
        assert_eq!(token_at(text, semicolon + 1), semicolon + 1..semicolon + 1);
        assert_eq!(token_at(text, text.len()), text.len()..text.len());
        assert_eq!(
            token_at(text, text.len() + 5),
            text.len() + 5..text.len() + 5
        );
        let negative = "rows = -3\n";
        assert_eq!(negative.get(token_at(negative, 7)), Some("-3"));
        let minus = "a - b";
        assert_eq!(minus.get(token_at(minus, 2)), Some("-"));
        let trailing_dot = "t. x";
        assert_eq!(trailing_dot.get(token_at(trailing_dot, 0)), Some("t"));
    }
}
