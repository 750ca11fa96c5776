//! `cqlmodel review` and `cqlmodel rules`.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{
    Diagnostic, RuleMeta, Severity, SourceFile, SourceMap, render_human, render_json, render_sarif,
    write_human,
};
use cqlmodel_review::annotations::annotations_of;
use cqlmodel_review::summary::{Summary, summarize};
use cqlmodel_review::{
    Config, Query, QueryReader, RULES, ReviewInput, Suppression, find_rule, review, rule_page,
};
use serde_json::Value;

use crate::input::read_source;
// Re-exported: callers outside the crate (livetest) name them here.
pub use crate::outcome::{Output, ReviewFormat};
use crate::output::Model;
use crate::schema_load::{LoadedSchema, load_schema_in, load_stats_file, query_file_diagnostics};

pub struct ReviewArgs {
    pub schema: Vec<PathBuf>,
    pub queries: Option<PathBuf>,
    pub stats: Option<PathBuf>,
    pub config: Option<PathBuf>,
    pub keyspace: Option<String>,
    /// Review the deployed schema of this cluster instead of schema files.
    pub cluster: crate::cluster_args::ClusterArgs,
    pub fail_on: Severity,
    pub format: ReviewFormat,
    pub color: bool,
}

pub fn run(args: &ReviewArgs) -> Output {
    run_once(args, &mut Model::unwanted())
}

/// [`run`], also filling `model` with the JSON document (and the files read)
/// for the HTML page.
pub fn run_once(args: &ReviewArgs, model: &mut Model) -> Output {
    match review_run(args, model) {
        Ok(reviewed) => reviewed.into_output(args),
        Err(out) => out,
    }
}

/// A finished review, before its report is rendered: the report can be
/// written piece by piece ([`Reviewed::write_stdout`]) or built whole
/// ([`Reviewed::into_output`]); both give the same bytes.
pub struct Reviewed {
    findings: Vec<Diagnostic>,
    input_problems: Vec<Diagnostic>,
    sources: SourceMap,
    /// The workload's shape, when a query list was given.
    summary: Option<Summary>,
    /// The scatter-gather threshold the summary's lines are told with.
    few: u64,
    /// The JSON document for stdout, with `--format json`.
    document: Option<String>,
    code: u8,
}

impl Reviewed {
    /// The exit code.
    pub fn code(&self) -> u8 {
        self.code
    }

    /// What goes to stderr: the input's own diagnostics, in text.
    pub fn stderr(&self, args: &ReviewArgs) -> String {
        match args.format {
            ReviewFormat::Text => render_human(&self.input_problems, &self.sources, args.color),
            ReviewFormat::Json | ReviewFormat::Sarif => String::new(),
        }
    }

    /// Writes the report in the asked format to `out`.
    pub fn write_stdout(&self, args: &ReviewArgs, out: &mut dyn Write) -> io::Result<()> {
        match args.format {
            ReviewFormat::Text => {
                if let Some(s) = &self.summary {
                    write_workload(out, s, self.few)?;
                }
                write_text(
                    out,
                    &self.findings,
                    &self.input_problems,
                    &self.sources,
                    args.color,
                )
            }
            ReviewFormat::Json => out.write_all(self.document.as_deref().unwrap_or("").as_bytes()),
            ReviewFormat::Sarif => {
                let mut all = self.input_problems.clone();
                all.extend(self.findings.iter().cloned());
                let sarif = render_sarif(
                    &all,
                    &self.sources,
                    env!("CARGO_PKG_VERSION"),
                    &rule_metas(),
                );
                serde_json::to_writer_pretty(&mut *out, &sarif).map_err(io::Error::from)?;
                out.write_all(b"\n")
            }
        }
    }

    /// The whole report as one [`Output`].
    pub fn into_output(self, args: &ReviewArgs) -> Output {
        let mut stdout = Vec::new();
        // Writing to memory cannot fail.
        let _ = self.write_stdout(args, &mut stdout);
        Output {
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: self.stderr(args),
            code: self.code,
        }
    }
}

/// Runs the review up to its report; an input error that stops it early is
/// the run's whole output (exit 2).
pub fn review_run(args: &ReviewArgs, model: &mut Model) -> Result<Reviewed, Output> {
    let mut sources = SourceMap::new();
    let mut input_problems: Vec<Diagnostic> = Vec::new();

    let mut config = load_config(args, &mut sources)?;

    let (loaded, live_file) = load_reviewed_schema(args, &mut sources)?;
    config.deployed = live_file.is_some();
    input_problems.extend(loaded.diagnostics.iter().cloned());
    let mut suppressions = loaded.suppressions.clone();

    let keyspace = loaded.session_keyspace(args.keyspace.as_deref());
    let mut queries = Vec::new();
    if let Some(path) = &args.queries {
        let read = read_queries(path, &loaded.schema, keyspace.as_deref(), &mut sources);
        let read = match read {
            Ok(read) => read,
            Err(e) => return Err(plain_error(&e.to_string(), args)),
        };
        queries = read.queries;
        input_problems.extend(read.problems);
        suppressions.extend(read.suppressions);
    }

    let stats = match &args.stats {
        None => None,
        Some(path) => match load_stats_file(path, &loaded.schema, &mut sources) {
            Ok(s) => Some(s),
            Err(diags) => return Err(input_error(&diags, &sources, args)),
        },
    };
    let input = ReviewInput {
        schema: &loaded.schema,
        queries: &queries,
        sources: &sources,
        suppressions: &suppressions,
        has_queries: args.queries.is_some(),
        stats: stats.as_ref(),
    };
    let progress =
        crate::progress::Progress::spinner(format!("reviewing {} statements", queries.len()));
    let mut findings = review(&input, &config);
    drop(progress);
    if let Some(file) = live_file {
        crate::review_live::point_fixes_at_migrate(&mut findings, &loaded.schema, &args.cluster);
        crate::review_live::point_at_tables(&mut findings, file, &args.cluster, &mut sources);
        crate::review_live::point_at_tables(&mut input_problems, file, &args.cluster, &mut sources);
    }

    let has_input_error = input_problems.iter().any(|d| d.severity == Severity::Error);
    let code = if has_input_error {
        2
    } else if findings.iter().any(|d| d.severity >= args.fail_on) {
        1
    } else {
        0
    };
    // The workload's shape, when a query list was given (docs/verdict.md).
    let summary = args
        .queries
        .as_ref()
        .and_then(|_| summarize(&queries, &config.thresholds));
    let few = config.thresholds.scatter_gather_partitions;
    let document = model.document(args.format == ReviewFormat::Json, || {
        // The workload's shape (docs/verdict.md) rides in the one
        // document as `workload`: null without a query list.
        let workload = summary.as_ref().map(|s| {
            let mut sv = serde_json::to_value(s).unwrap_or(Value::Null);
            sv["lines"] = serde_json::json!(s.lines(few));
            sv
        });
        let mut document = review_document(&input_problems, &findings, &sources, code, workload);
        add_consistency_levels(&mut document, &queries, &sources);
        document
    });
    model.keep_sources(&sources);
    Ok(Reviewed {
        findings,
        input_problems,
        sources,
        summary,
        few,
        document,
        code,
    })
}

/// The schema under review: the deployed one with `--cluster` (and the index
/// of its rebuilt DDL among the sources), else the schema files.
fn load_reviewed_schema(
    args: &ReviewArgs,
    sources: &mut SourceMap,
) -> Result<(LoadedSchema, Option<usize>), Output> {
    let keyspace = args.keyspace.as_deref();
    if args.cluster.is_set() {
        crate::review_live::load(&args.cluster, keyspace, sources)
            .map(|live| (live.loaded, Some(live.file)))
            .map_err(|e| plain_error(&e, args))
    } else {
        load_schema_in(&args.schema, sources, keyspace)
            .map(|l| (l, None))
            .map_err(|e| plain_error(&e.to_string(), args))
    }
}

/// The rule levels and thresholds; an unreadable or invalid file is the
/// run's output (exit 2).
fn load_config(args: &ReviewArgs, sources: &mut SourceMap) -> Result<Config, Output> {
    let Some(path) = config_path(args.config.as_deref()) else {
        return Ok(Config::default());
    };
    let file = match read_source(&path, sources) {
        Ok(file) => file,
        Err(e) => return Err(plain_error(&e.to_string(), args)),
    };
    let text = sources
        .get(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    let known: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    Config::parse(&text, &known).map_err(|e| {
        let mut d = Diagnostic::error("config", e.message.clone()).with_file(file);
        if let Some(span) = e.span {
            d = d.with_primary(span, "here");
        }
        input_error(&[d], sources, args)
    })
}

/// What the query file holds for the review.
struct QueryFile {
    queries: Vec<Query>,
    /// Syntax and loading problems.
    problems: Vec<Diagnostic>,
    suppressions: Vec<Suppression>,
}

/// The query file: its queries, its syntax and loading problems, and the
/// suppressions its comments declare. Read one statement at a time: the
/// queries keep their syntax trees (the rules look at them), but the
/// tokens of the whole file and a second copy of every tree are not held.
fn read_queries(
    path: &Path,
    schema: &cqlmodel_schema::Schema,
    keyspace: Option<&str>,
    sources: &mut SourceMap,
) -> Result<QueryFile, crate::input::InputError> {
    let file = read_source(path, sources)?;
    let empty = SourceFile::new(String::new(), String::new());
    let text = &sources.get(file).unwrap_or(&empty).text;
    let mut reader = QueryReader::new(schema, file, keyspace, 1);
    let mut queries = Vec::new();
    let mut suppressions = Vec::new();
    let parsed = cqlmodel_cql::parse_each_commented(text, |stmt, errors, comments| {
        suppressions.extend(cqlmodel_review::suppressions(file, comments, &[stmt.span]));
        queries.extend(reader.read(stmt, annotations_of(comments), errors));
    });
    let mut problems = query_file_diagnostics(parsed.statements.len(), &parsed.errors, text, file);
    problems.extend(reader.finish());
    Ok(QueryFile {
        queries,
        problems,
        suppressions,
    })
}

/// The workload's shape, before the findings of a review with a query list.
fn write_workload(out: &mut dyn Write, summary: &Summary, few: u64) -> io::Result<()> {
    out.write_all(b"query list:\n")?;
    for line in summary.lines(few) {
        writeln!(out, "  {line}")?;
    }
    out.write_all(b"\n")
}

/// `--config PATH`, else `./cqlmodel.toml` when it exists.
fn config_path(given: Option<&Path>) -> Option<PathBuf> {
    match given {
        Some(p) => Some(p.to_path_buf()),
        None => {
            let default = PathBuf::from("cqlmodel.toml");
            default.is_file().then_some(default)
        }
    }
}

fn input_error(diags: &[Diagnostic], sources: &SourceMap, args: &ReviewArgs) -> Output {
    match args.format {
        ReviewFormat::Text => Output {
            stdout: String::new(),
            stderr: render_human(diags, sources, args.color),
            code: 2,
        },
        _ => Output {
            stdout: pretty(&review_document(diags, &[], sources, 2, None)),
            stderr: String::new(),
            code: 2,
        },
    }
}

fn plain_error(message: &str, args: &ReviewArgs) -> Output {
    let sources = SourceMap::new();
    match args.format {
        ReviewFormat::Text => Output {
            stdout: String::new(),
            stderr: format!("error: {message}\n"),
            code: 2,
        },
        _ => input_error(&[Diagnostic::error("input", message)], &sources, args),
    }
}

/// Findings grouped by table, each rendered like the compiler does, then a count
/// of everything the run reported: the input's own diagnostics (printed on
/// stderr) count too, so the summary never says "0 errors" on an exit 2.
/// Written one finding at a time: 100,000 findings are not held as text.
fn write_text(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    input_problems: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
) -> io::Result<()> {
    let mut groups: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
    for d in findings {
        let key = d.table.as_deref().unwrap_or("(no table)");
        groups.entry(key).or_default().push(d);
    }
    for (table, diags) in &groups {
        write!(out, "── {table} ──\n\n")?;
        write_human(out, diags.iter().copied(), sources, color)?;
        out.write_all(b"\n\n")?;
    }
    let count = |s: Severity| {
        findings
            .iter()
            .chain(input_problems)
            .filter(|d| d.severity == s)
            .count()
    };
    writeln!(
        out,
        "{} errors, {} warnings, {} infos",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    )?;
    let input = |s: Severity| input_problems.iter().filter(|d| d.severity == s).count();
    if !input_problems.is_empty() {
        writeln!(
            out,
            "(of which in the input, on stderr: {} errors, {} warnings, {} infos)",
            input(Severity::Error),
            input(Severity::Warning),
            input(Severity::Info)
        )?;
    }
    Ok(())
}

/// The version of the `--format json` document; raise it when a field changes
/// meaning or goes away (adding a field keeps it).
const JSON_VERSION: u32 = 1;

/// The one `--format json` document, whatever happened (docs/review.md):
/// the input's own diagnostics and the findings, both as the same items, the
/// counts and the exit code. An input error that stops the run early is a
/// document with its `input` and no findings.
fn review_document(
    input: &[Diagnostic],
    findings: &[Diagnostic],
    sources: &SourceMap,
    exit_code: u8,
    workload: Option<Value>,
) -> Value {
    let count = |s: Severity| {
        findings
            .iter()
            .chain(input)
            .filter(|d| d.severity == s)
            .count()
    };
    serde_json::json!({
        "version": JSON_VERSION,
        "exit_code": exit_code,
        "summary": {
            "errors": count(Severity::Error),
            "warnings": count(Severity::Warning),
            "infos": count(Severity::Info),
            "input": input.len(),
            "findings": findings.len(),
        },
        "workload": workload.unwrap_or(Value::Null),
        "statements": [],
        "input": items_json(input, sources),
        "findings": items_json(findings, sources),
    })
}

/// The items: `rule` (null for the input's own diagnostics), `code`,
/// `severity`, `file`, `line`, `column`, `end_line`, `end_column`, `table`,
/// `query`, `message`, `label`, `fix` (text or null), `help`, `notes`,
/// `consistency` and `serial_consistency` (filled by [`add_consistency_levels`]).
fn items_json(findings: &[Diagnostic], sources: &SourceMap) -> Value {
    let rendered = render_json(findings, sources);
    let Value::Array(items) = rendered else {
        return rendered;
    };
    Value::Array(
        items
            .into_iter()
            .zip(findings)
            .map(|(v, d)| {
                let fix = d.fix.as_ref().map(|f| {
                    f.replacement.clone().map_or_else(
                        || f.description.clone(),
                        |r| format!("{}\n{r}", f.description),
                    )
                });
                serde_json::json!({
                    "rule": d.name,
                    "code": d.code,
                    "severity": d.severity,
                    "file": v.get("file"),
                    "line": v.get("line"),
                    "column": v.get("column"),
                    "end_line": v.get("end_line"),
                    "end_column": v.get("end_column"),
                    "table": d.table,
                    "query": d.query,
                    "message": d.message,
                    "label": v.get("label"),
                    "fix": fix,
                    "help": d.help,
                    "notes": d.notes,
                    "consistency": null,
                    "serial_consistency": null,
                })
            })
            .collect(),
    )
}

/// The query list's consistency levels in the document: `statements` lists
/// each statement's levels and where they came from, and each item about a
/// query carries its `consistency` and `serial_consistency` (null when the
/// query list gives none, or the item is about no query).
fn add_consistency_levels(
    document: &mut Value,
    queries: &[cqlmodel_review::Query],
    sources: &SourceMap,
) {
    let level = |level: &Option<String>, source: Option<cqlmodel_review::LevelSource>| {
        level.as_ref().map_or(
            Value::Null,
            |l| serde_json::json!({ "level": l, "from": source.map(|s| s.name()) }),
        )
    };
    let statements: Vec<Value> = queries
        .iter()
        .map(|q| {
            let (file, line) = sources.get(q.file).map_or((None, None), |f| {
                let (line, _) = f.line_col(q.span().start as usize);
                (Some(f.name.clone()), Some(line))
            });
            serde_json::json!({
                "query": q.name,
                "file": file,
                "line": line,
                "consistency": level(&q.consistency, q.consistency_source),
                "serial_consistency": level(&q.serial_consistency, q.serial_source),
            })
        })
        .collect();
    // By name: a review of 50,000 queries has thousands of findings.
    let by_name: std::collections::HashMap<&str, &cqlmodel_review::Query> =
        queries.iter().map(|q| (q.name.as_str(), q)).collect();
    for list in ["input", "findings"] {
        let Some(Value::Array(items)) = document.get_mut(list) else {
            continue;
        };
        for item in items.iter_mut() {
            let query = item
                .get("query")
                .and_then(Value::as_str)
                .and_then(|name| by_name.get(name).copied());
            item["consistency"] =
                query.map_or(Value::Null, |q| level(&q.consistency, q.consistency_source));
            item["serial_consistency"] = query.map_or(Value::Null, |q| {
                level(&q.serial_consistency, q.serial_source)
            });
        }
    }
    document["statements"] = Value::Array(statements);
}

fn rule_metas() -> Vec<RuleMeta> {
    RULES
        .iter()
        .map(|r| RuleMeta {
            code: r.code.to_string(),
            name: r.name.to_string(),
            short: r.summary.to_string(),
            full: rule_page(r),
            default_severity: r.default_severity,
            help_uri: None,
        })
        .collect()
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// `cqlmodel rules [NAME]`.
pub fn rules(name: Option<&str>) -> Output {
    match name {
        None => {
            let mut out = String::new();
            for r in RULES {
                out.push_str(&format!(
                    "{:<7} {:<30} {:<8} {}\n",
                    r.code,
                    r.name,
                    r.default_severity.to_string(),
                    r.summary
                ));
            }
            Output {
                stdout: out,
                stderr: String::new(),
                code: 0,
            }
        }
        Some(n) => match find_rule(n) {
            Some(r) => Output {
                stdout: rule_page(r),
                stderr: String::new(),
                code: 0,
            },
            None => Output {
                stdout: String::new(),
                stderr: format!("error: no rule named `{n}` (`cqlmodel rules` lists them)\n"),
                code: 2,
            },
        },
    }
}
