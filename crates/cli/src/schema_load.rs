//! Loading schema files: parse, then execute the DDL, turning every problem into a
//! diagnostic that points into the file.

use std::path::{Path, PathBuf};

use cqlmodel_cql::ParseError;
use cqlmodel_cql::ast::Span;
use cqlmodel_diagnostics::{Diagnostic, SourceMap};
use cqlmodel_review::Suppression;
use cqlmodel_schema::{Schema, SchemaBuilder, Settings};

use crate::input::{InputError, read_source};
use crate::script_source::{FileRules, ScriptLoader};

pub struct LoadedSchema {
    pub schema: Schema,
    /// Parse errors and statements Cassandra would reject (errors); skipped cqlsh
    /// commands and Cassandra's warnings (info, warning).
    pub diagnostics: Vec<Diagnostic>,
    /// The keyspace of the last `USE` in the schema files.
    pub current_keyspace: Option<String>,
    /// `-- cqlmodel: allow(...)` comments in the schema files.
    pub suppressions: Vec<Suppression>,
}

impl LoadedSchema {
    /// The keyspace unqualified table names resolve in: the one given, else the
    /// last `USE` of the schema files, else the schema's only keyspace (the one
    /// an application of a one-keyspace schema would `USE`).
    pub fn session_keyspace(&self, given: Option<&str>) -> Option<String> {
        given
            .map(str::to_string)
            .or_else(|| self.current_keyspace.clone())
            .or_else(|| {
                let mut names = self.schema.keyspaces.keys();
                match (names.next(), names.next()) {
                    (Some(only), None) => Some(only.clone()),
                    _ => None,
                }
            })
    }
}

/// cqlsh shell commands that appear in schema files (scripts, DESCRIBE output
/// captured with its prompt) but are not CQL: they are skipped with an info.
const CQLSH_COMMANDS: &[&str] = &[
    "capture",
    "clear",
    "cls",
    "consistency",
    "copy",
    "desc",
    "describe",
    "exit",
    "expand",
    "help",
    "login",
    "paging",
    "quit",
    "serial",
    "show",
    "source",
    "tracing",
];

/// Statements that belong in a query list, not in a schema.
fn is_query(s: &cqlmodel_cql::ast::Statement) -> bool {
    use cqlmodel_cql::ast::StatementKind as K;
    matches!(
        s.kind,
        K::Select(_) | K::Insert(_) | K::Update(_) | K::Delete(_) | K::Batch(_)
    )
}

/// The error for schema files that define nothing: there is nothing to
/// review, size or explain against.
fn no_schema(queries: &[(usize, Span)]) -> Diagnostic {
    match queries.first() {
        Some(&(file, span)) => Diagnostic::error(
            "no-schema",
            format!(
                "the schema files define no keyspace or table, only {} queries: give this file with --queries, and the schema (CREATE KEYSPACE, CREATE TABLE) as the schema",
                queries.len()
            ),
        )
        .with_file(file)
        .with_primary(span.range(), "a query, not a schema statement"),
        None => Diagnostic::error(
            "no-schema",
            "the schema files define no keyspace or table: nothing to check",
        ),
    }
}

/// One error for a file that is clearly not CQL (Python, JSON, TOML, a
/// pg_dump) instead of its cascade of syntax errors.
fn wrong_language(
    statements: usize,
    errors: &[ParseError],
    text: &str,
    file: usize,
) -> Option<Diagnostic> {
    let mostly_broken = !errors.is_empty() && statements <= errors.len();
    if !mostly_broken {
        return None;
    }
    let language = crate::sniff::sniff(text)?;
    Some(crate::sniff::wrong_language_error(
        text,
        file,
        language.advice(),
        "not CQL",
    ))
}

/// Reads schema files (a directory contributes its `*.cql` files in name order).
pub fn load_schema(paths: &[PathBuf], sources: &mut SourceMap) -> Result<LoadedSchema, InputError> {
    load_schema_in(paths, sources, None)
}

/// Reads schema files as `cqlsh -k keyspace -f file` runs them: unqualified
/// names go to `keyspace` (`--keyspace`) until a `USE`. A keyspace that no file
/// creates is assumed, with unknown replication, and an info says so.
pub fn load_schema_in(
    paths: &[PathBuf],
    sources: &mut SourceMap,
    keyspace: Option<&str>,
) -> Result<LoadedSchema, InputError> {
    // A schema file describes what exists: views and SASI indexes in it were created
    // on a cluster that enabled them, so they are modeled (with a warning) rather
    // than rejected as Cassandra 5.0's defaults would for a new CREATE.
    // Likewise options an older Cassandra accepted (`read_repair_chance`, DTCS):
    // the table exists, so it is kept and reviewed, with a warning on the option.
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        removed_options_accepted: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    let (files, order_notes) = expand(paths)?;
    if let Some(keyspace) = keyspace {
        builder.assume_keyspace(keyspace, cqlmodel_schema::Origin::default());
    }
    let mut loader = ScriptLoader::new(builder, sources);
    loader.diagnostics.extend(order_notes);
    let rules = FileRules {
        syntax: file_syntax_diagnostics,
        is_query,
    };
    for path in files {
        loader.load(&path, &rules)?;
    }
    let ScriptLoader {
        builder,
        mut diagnostics,
        suppressions: all_suppressions,
        queries: queries_in_schema,
        ..
    } = loader;
    let current_keyspace = builder.current_keyspace().map(str::to_string);
    let mut build = builder.finish();
    diagnostics.extend(crate::system_keyspaces::set_aside(&mut build));
    if let Some(keyspace) = keyspace {
        diagnostics.extend(settle_assumed_keyspace(&mut build.schema, keyspace));
    }
    let nothing_defined =
        build.schema.keyspaces.is_empty() && build.schema.tables().next().is_none();
    let failed = diagnostics
        .iter()
        .any(|d| d.severity == cqlmodel_diagnostics::Severity::Error);
    if nothing_defined && !failed && build.errors.is_empty() {
        diagnostics.push(no_schema(&queries_in_schema));
    }
    diagnostics.extend(no_model_infos(&build.no_model));
    for w in &build.warnings {
        diagnostics.push(
            Diagnostic::warning("schema-warning", w.to_string())
                .with_file(w.file)
                .with_primary(w.span.range(), "Cassandra warns about this statement"),
        );
    }
    for e in &build.errors {
        let mut d = Diagnostic::error("schema", e.to_string())
            .with_file(e.file)
            .with_primary(e.span.range(), "Cassandra rejects this statement");
        if matches!(
            e.kind,
            cqlmodel_schema::SchemaErrorKind::DropCompactStorageDisabled
        ) {
            d = d
                .with_note("Cassandra 5.0's default `drop_compact_storage_enabled: false` refuses every DROP COMPACT STORAGE; the table keeps COMPACT STORAGE in the model")
                .with_help(format!(
                    "if your cluster sets `drop_compact_storage_enabled: true`, say so in the schema file with a comment line `-- {}`",
                    crate::script_source::DROP_COMPACT_STORAGE_ENABLED
                ));
        }
        diagnostics.push(d);
    }
    Ok(LoadedSchema {
        schema: build.schema,
        diagnostics,
        current_keyspace,
        suppressions: all_suppressions,
    })
}

/// The files to load, each directory's `*.cql` files in migration order, and
/// an info diagnostic per directory whose order comes from version numbers.
fn expand(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<Diagnostic>), InputError> {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|source| InputError::Read {
                path: p.display().to_string(),
                source,
            })?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "cql"))
                .collect();
            if files.is_empty() {
                return Err(InputError::NoCqlFiles {
                    path: p.display().to_string(),
                });
            }
            sort_in_migration_order(&mut files);
            if let Some(note) = migration_order_note(p, &files) {
                notes.push(note);
            }
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok((out, notes))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The version a migration file name starts with: `V1__init` → [1],
/// `V1_2__x` / `V1.2__x` → [1, 2], `002_add_index` → [2], `10-x` → [10];
/// `None` when the name does not start with a number (after an optional `V`).
pub(crate) fn version_key(name: &str) -> Option<Vec<u64>> {
    let rest = name
        .strip_prefix(['V', 'v'])
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(name);
    let mut parts = Vec::new();
    let mut chars = rest.char_indices().peekable();
    let mut start = None;
    while let Some((i, c)) = chars.next() {
        if c.is_ascii_digit() {
            start.get_or_insert(i);
            continue;
        }
        let Some(s) = start.take() else { break };
        parts.push(rest.get(s..i)?.parse().ok()?);
        // One `.` or `_` followed by a digit continues the version (`1_2`, `1.2`).
        let continues =
            matches!(c, '.' | '_') && chars.peek().is_some_and(|(_, n)| n.is_ascii_digit());
        if !continues {
            break;
        }
    }
    if let Some(s) = start {
        parts.push(rest.get(s..)?.parse().ok()?);
    }
    (!parts.is_empty()).then_some(parts)
}

/// The keyspace `--keyspace` assumed: dropped when nothing went into it (the
/// flag then only names the queries' keyspace, as before), else stated.
fn settle_assumed_keyspace(schema: &mut Schema, keyspace: &str) -> Option<Diagnostic> {
    let ks = schema.keyspaces.get(keyspace)?;
    let assumed = matches!(&ks.replication, cqlmodel_schema::Replication::Other { class, .. }
        if class == cqlmodel_schema::ASSUMED_REPLICATION);
    if !assumed {
        return None;
    }
    if ks.tables.is_empty() && ks.types.is_empty() {
        schema.keyspaces.remove(keyspace);
        return None;
    }
    Some(Diagnostic::info(
        "assumed-keyspace",
        format!(
            "keyspace {keyspace} (--keyspace) is not created in the schema files: its {} tables are read into it as `cqlsh -k {keyspace}` would; its replication is unknown, so no check uses a replication factor for it",
            ks.tables.len()
        ),
    ))
}

/// One info per kind of statement that has no data-model meaning (`GRANT`,
/// `CREATE ROLE`, triggers): how many, and where the first one is. A DESCRIBE
/// SCHEMA with two hundred grants is one line, not two hundred.
fn no_model_infos(skipped: &[(usize, Span, &'static str)]) -> Vec<Diagnostic> {
    let mut kinds: Vec<(&'static str, usize, usize, Span)> = Vec::new();
    for &(file, span, words) in skipped {
        match kinds.iter_mut().find(|(w, ..)| *w == words) {
            Some(kind) => kind.1 += 1,
            None => kinds.push((words, 1, file, span)),
        }
    }
    kinds
        .into_iter()
        .map(|(words, count, file, span)| {
            let what = if words.contains("TRIGGER") {
                "triggers run code on writes and do not change a table's shape"
            } else {
                "roles, users and permissions do not change the data model"
            };
            let times = if count == 1 {
                "1 statement".to_string()
            } else {
                format!("{count} statements")
            };
            Diagnostic::info(
                "no-model-statement",
                format!("`{words}`: {times} read and skipped ({what})"),
            )
            .with_file(file)
            .with_primary(span.range(), "skipped")
        })
        .collect()
}

/// Versioned files first, by version (so `V10` follows `V9`), then the
/// others by name.
fn sort_in_migration_order(files: &mut [PathBuf]) {
    files.sort_by_cached_key(|f| {
        let name = file_name(f);
        (version_key(&name).is_none(), version_key(&name), name)
    });
}

/// When two or more files carry versions, says the order they are applied in.
fn migration_order_note(dir: &Path, files: &[PathBuf]) -> Option<Diagnostic> {
    let names: Vec<String> = files.iter().map(|f| file_name(f)).collect();
    let versioned = names.iter().filter(|n| version_key(n).is_some()).count();
    if versioned < 2 {
        return None;
    }
    Some(Diagnostic::info(
        "migration-order",
        format!(
            "{}: {} files applied in version order (ALTER and DROP act on what earlier files created): {}",
            dir.display(),
            names.len(),
            names.join(", ")
        ),
    ))
}

pub fn resolve_table(name: &str, schema: &Schema) -> Result<String, String> {
    if let Some((ks, t)) = name.split_once('.') {
        return schema
            .table(ks, t)
            .map(|t| t.qualified_name())
            .ok_or_else(|| format!("--table {name}: no such table in the schema"));
    }
    let found: Vec<String> = schema
        .tables()
        .filter(|t| t.name == name)
        .map(|t| t.qualified_name())
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(format!("--table {name}: no such table in the schema")),
        many => Err(format!(
            "--table {name} is ambiguous: qualify it with its keyspace ({})",
            many.join(", ")
        )),
    }
}

/// Reads a statistics file against the schema; its mistakes become diagnostics
/// pointing into it (an unreadable file is a diagnostic without a position).
pub fn load_stats_file(
    path: &Path,
    schema: &Schema,
    sources: &mut SourceMap,
) -> Result<cqlmodel_stats::Stats, Vec<Diagnostic>> {
    let file =
        read_source(path, sources).map_err(|e| vec![Diagnostic::error("input", e.to_string())])?;
    let text = sources
        .get(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    cqlmodel_stats::load_stats(&text, schema).map_err(|errors| {
        errors
            .iter()
            .map(|e| {
                Diagnostic::error("stats", e.to_string())
                    .with_file(file)
                    .with_primary(e.span.clone(), e.label())
            })
            .collect()
    })
}

/// The syntax diagnostics of a schema file: one `wrong-language` error for a
/// file that is clearly not CQL, else one per error, cqlsh commands as infos
/// (`SOURCE` is followed, and reported by the loader that follows it).
fn file_syntax_diagnostics(
    parsed: &cqlmodel_cql::ParseSummary,
    text: &str,
    file: usize,
) -> Vec<Diagnostic> {
    match wrong_language(parsed.statements.len(), &parsed.errors, text, file) {
        Some(d) => vec![d],
        None => parse_diagnostics_in(&parsed.errors, file, text),
    }
}

/// Syntax errors as diagnostics.
/// The syntax diagnostics of a query file: one `wrong-language` error for a
/// file that is clearly not CQL, else one per error.
pub fn query_file_diagnostics(
    statements: usize,
    errors: &[ParseError],
    text: &str,
    file: usize,
) -> Vec<Diagnostic> {
    match wrong_language(statements, errors, text, file) {
        Some(d) => vec![d],
        None => parse_diagnostics(errors, file),
    }
}

pub fn parse_diagnostics(errors: &[ParseError], file: usize) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|e| match &e.kind {
            cqlmodel_cql::ParseErrorKind::ShellCommand { command, .. }
                if command == "consistency" || command == "serial" =>
            {
                Diagnostic::info(
                    "cqlsh-command",
                    format!(
                        "`{command}` is a cqlsh command, not CQL: its level applies to the queries after it that have no @cl"
                    ),
                )
                .with_file(file)
                .with_primary(e.span.range(), "applied")
            }
            cqlmodel_cql::ParseErrorKind::ShellCommand { command, .. } => {
                shell_command_info(command, file, e)
            }
            _ => Diagnostic::error("syntax", e.to_string())
                .with_file(file)
                .with_primary(e.span.range(), "here"),
        })
        .collect()
}

fn shell_command_info(command: &str, file: usize, e: &ParseError) -> Diagnostic {
    Diagnostic::info(
        "cqlsh-command",
        format!("`{command}` is a cqlsh command, not CQL: skipped"),
    )
    .with_file(file)
    .with_primary(e.span.range(), "skipped")
}

/// Syntax errors as diagnostics, except cqlsh commands, which are skipped with an info.
fn parse_diagnostics_in(errors: &[ParseError], file: usize, text: &str) -> Vec<Diagnostic> {
    errors
        .iter()
        .filter_map(|e| match shell_command(e, text) {
            Some(cmd)
                if cmd == "source"
                    && matches!(e.kind, cqlmodel_cql::ParseErrorKind::ShellCommand { .. }) =>
            {
                None
            }
            Some(cmd) => Some(shell_command_info(&cmd, file, e)),
            None => Some(
                Diagnostic::error("syntax", e.to_string())
                    .with_file(file)
                    .with_primary(e.span.range(), "here"),
            ),
        })
        .collect()
}

/// The cqlsh command an error reports: one the parser ended at its line
/// (`CONSISTENCY`, `TRACING`, …), or one ending at `;` (`COPY`).
fn shell_command(e: &ParseError, text: &str) -> Option<String> {
    match &e.kind {
        cqlmodel_cql::ParseErrorKind::ShellCommand { command, .. } => Some(command.clone()),
        _ => cqlsh_command_at(text, e.span.start as usize),
    }
}

/// The cqlsh command that starts the statement containing `offset`, if any.
fn cqlsh_command_at(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset.min(text.len()))?;
    let start = before.rfind(';').map_or(0, |p| p + 1);
    let statement = text.get(start..)?;
    let first = statement
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("--") && !l.starts_with("//"))?
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()?
        .to_ascii_lowercase();
    CQLSH_COMMANDS.contains(&first.as_str()).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::{PathBuf, cqlsh_command_at, file_name, sort_in_migration_order, version_key};

    #[test]
    fn migration_files_sort_by_version() {
        assert_eq!(version_key("V1__init.cql"), Some(vec![1]));
        assert_eq!(version_key("V1_2__add.cql"), Some(vec![1, 2]));
        assert_eq!(version_key("v1.10__x.cql"), Some(vec![1, 10]));
        assert_eq!(version_key("002_add_index.cql"), Some(vec![2]));
        assert_eq!(version_key("schema.cql"), None);
        assert_eq!(version_key("Views.cql"), None);
        let mut files: Vec<PathBuf> = [
            "V10__later.cql",
            "notes.cql",
            "V2__index.cql",
            "V1__init.cql",
            "V1_1__fix.cql",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        sort_in_migration_order(&mut files);
        let names: Vec<String> = files.iter().map(|f| file_name(f)).collect();
        assert_eq!(
            names,
            [
                "V1__init.cql",
                "V1_1__fix.cql",
                "V2__index.cql",
                "V10__later.cql",
                "notes.cql"
            ]
        );
    }

    #[test]
    fn finds_the_command_of_the_failing_statement() {
        let text =
            "CREATE TABLE t (k int PRIMARY KEY);\n-- load\nCOPY ks.t FROM 'x.csv';\nEXPAND ON;";
        let copy = text.find("FROM").unwrap_or(0);
        assert_eq!(cqlsh_command_at(text, copy).as_deref(), Some("copy"));
        let expand = text.find("ON;").unwrap_or(0);
        assert_eq!(cqlsh_command_at(text, expand).as_deref(), Some("expand"));
        assert_eq!(cqlsh_command_at(text, 5), None);
    }
}
