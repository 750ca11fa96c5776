//! `cqlmodel diagnose`: saved nodetool outputs (files or stdin) in, findings per
//! table out, with the key change when `--schema` is given.

use std::io::Read;
use std::path::{Path, PathBuf};

use cqlmodel_diagnose::{
    DiagnoseInput, Evidence, NodeStats, NodeStatus, ParseProblem, Parsed, ProblemKind, RULES,
    TableHistogram, diagnose_findings, measured, parse_input,
};
use cqlmodel_diagnostics::{
    Diagnostic, RuleMeta, Severity, SourceMap, render_human, render_json, render_sarif,
};
use cqlmodel_stats::Thresholds;
use serde_json::{Value, json};

use crate::input::{add_source, read_source};
use crate::outcome::{Output, ReviewFormat};
use crate::output::Model;
use crate::schema_load::load_schema;

pub use crate::diagnose_args::{DiagnoseArgs, FailOn};

/// What was read from every input.
struct ReadInputs {
    stats: Vec<NodeStats>,
    histograms: Vec<TableHistogram>,
    status: Vec<NodeStatus>,
    problems: Vec<ParseProblem>,
}

pub fn run(args: &DiagnoseArgs, format: ReviewFormat, color: bool) -> Output {
    run_once(args, format, color, &mut Model::unwanted())
}

/// [`run`], also filling `model` with the JSON document (and the files read)
/// for the HTML page: the inputs (stdin, a live cluster) are read once.
pub fn run_once(
    args: &DiagnoseArgs,
    format: ReviewFormat,
    color: bool,
    model: &mut Model,
) -> Output {
    let mut sources = SourceMap::new();
    let data_age = match args
        .data_age
        .as_deref()
        .map(cqlmodel_stats::units::parse_duration)
    {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => return plain_error(&format!("--data-age: {e}"), format, 2),
    };
    let mut read = match read_inputs(&args.inputs, &mut sources) {
        Ok(r) => r,
        Err(message) => return plain_error(&message, format, 2),
    };
    let loaded = if args.schema.is_empty() {
        None
    } else {
        match load_schema(&args.schema, &mut sources) {
            Ok(l) => Some(l),
            Err(e) => return plain_error(&e.to_string(), format, 2),
        }
    };
    let mut input_problems: Vec<Diagnostic> =
        read.problems.iter().map(problem_diagnostic).collect();
    if let Some(l) = &loaded {
        input_problems.extend(l.diagnostics.iter().cloned());
    }
    let live_schema = if !args.cluster.is_set() {
        None
    } else {
        match crate::diagnose_live::read(args, &mut sources, &mut read.stats, &mut read.histograms)
        {
            Ok(live) => {
                input_problems.extend(live.notes);
                live.schema
            }
            Err(message) => return plain_error(&message, format, 2),
        }
    };
    // A schema given with --schema wins over the one read from the cluster.
    let schema = loaded.as_ref().map(|l| &l.schema).or(live_schema.as_ref());
    let input = DiagnoseInput {
        stats: &read.stats,
        histograms: &read.histograms,
        status: &read.status,
        schema,
        thresholds: Thresholds::default(),
        data_age,
    };
    // Each finding's figures: as numbers in JSON (`evidence`), and as one
    // `measured:` note each, which text and SARIF show.
    let (findings, evidence): (Vec<Diagnostic>, Vec<Value>) = diagnose_findings(&input)
        .into_iter()
        .map(|f| {
            let mut d = f.diagnostic;
            d.notes.extend(f.evidence.iter().map(Evidence::text));
            (
                d,
                Value::Array(f.evidence.iter().map(Evidence::json).collect()),
            )
        })
        .unzip();
    let code = exit_code(&input_problems, &read.problems, &findings, args.fail_on);
    let document = model.document(format == ReviewFormat::Json, || {
        json!({
            "version": JSON_VERSION,
            "read": read_summary(&read),
            "findings": findings_json(&findings, &evidence, &sources),
            "problems": render_json(&input_problems, &sources),
            "limits": measured::limits_json(&input.thresholds),
            "measured": measured::measured_json(&read.stats, &read.histograms),
        })
    });
    model.keep_sources(&sources);
    let (stdout, stderr) = match format {
        ReviewFormat::Text => (
            render_text(&read, &findings, &sources, color),
            render_human(&input_problems, &sources, color),
        ),
        ReviewFormat::Json => (document.unwrap_or_default(), String::new()),
        ReviewFormat::Sarif => {
            let mut all = input_problems.clone();
            all.extend(findings.iter().cloned());
            let sarif = render_sarif(&all, &sources, env!("CARGO_PKG_VERSION"), &rule_metas());
            (pretty(&sarif), String::new())
        }
    };
    Output {
        stdout,
        stderr,
        code,
    }
}

/// The version of the `--format json` document; raise it when a field changes
/// meaning or goes away (adding a field keeps it).
const JSON_VERSION: u32 = 1;

/// 2 when an input is unreadable or not a nodetool output, or the schema is
/// rejected; 1 for a partial input or a finding at or above `--fail-on`.
fn exit_code(
    input_problems: &[Diagnostic],
    parse_problems: &[ParseProblem],
    findings: &[Diagnostic],
    fail_on: FailOn,
) -> u8 {
    let threshold = match fail_on {
        FailOn::Info => Severity::Info,
        FailOn::Warning => Severity::Warning,
        FailOn::Error => Severity::Error,
    };
    if input_problems.iter().any(|d| d.severity == Severity::Error) {
        2
    } else if !parse_problems.is_empty() || findings.iter().any(|d| d.severity >= threshold) {
        1
    } else {
        0
    }
}

fn read_inputs(paths: &[PathBuf], sources: &mut SourceMap) -> Result<ReadInputs, String> {
    let mut out = ReadInputs {
        stats: Vec::new(),
        histograms: Vec::new(),
        status: Vec::new(),
        problems: Vec::new(),
    };
    for path in paths {
        let file = if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("<stdin>: cannot read: {e}"))?;
            add_source("<stdin>".to_string(), bytes, sources).map_err(|e| e.to_string())?
        } else {
            read_source(path, sources).map_err(|e| e.to_string())?
        };
        let text = sources.get(file).map(|f| f.text.as_str()).unwrap_or("");
        let Parsed {
            stats,
            histograms,
            status,
            problems,
        } = parse_input(file, &node_name(path), text);
        out.stats.extend(stats);
        out.histograms.extend(histograms);
        out.status.extend(status);
        out.problems.extend(problems);
    }
    Ok(out)
}

/// A file's node: its name without the extension and without the command's
/// name (`10.0.0.1.txt` → `10.0.0.1`, `node1-tablestats.txt` → `node1`), so a
/// node's tablestats and tablehistograms files name the same node; `node` when
/// nothing is left (`tablestats.txt`).
fn node_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        return "stdin".to_string();
    }
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let stem = match name.rsplit_once('.') {
        Some((stem, "txt" | "json" | "yaml" | "yml" | "out" | "log")) => stem,
        _ => name.as_str(),
    };
    let mut rest = stem.to_string();
    for word in [
        "tablehistograms",
        "cfhistograms",
        "histograms",
        "tablestats",
        "cfstats",
    ] {
        rest = rest.replace(word, "");
    }
    let rest = rest.trim_matches(|c: char| c == '-' || c == '_' || c == '.');
    if rest.is_empty() {
        "node".to_string()
    } else {
        rest.to_string()
    }
}

fn problem_diagnostic(p: &ParseProblem) -> Diagnostic {
    let severity = match p.kind {
        ProblemKind::UnknownFormat => Severity::Error,
        _ => Severity::Warning,
    };
    Diagnostic::new(severity, "input", p.kind.to_string())
        .with_name("nodetool-input")
        .with_file(p.file)
        .with_primary(p.span.clone(), format!("line {}", p.line))
}

/// What was read, said before the findings: nothing is used silently.
fn read_lines(read: &ReadInputs) -> Vec<String> {
    let mut lines = Vec::new();
    for s in &read.stats {
        let user = s
            .tables
            .iter()
            .filter(|t| !cqlmodel_diagnose::analyze::is_system_keyspace(&t.keyspace))
            .count();
        lines.push(format!(
            "read {} of node `{}`: {} tables ({} in system keyspaces, not diagnosed)",
            s.format.name(),
            s.node,
            s.tables.len(),
            s.tables.len() - user
        ));
    }
    if !read.histograms.is_empty() {
        let names: Vec<String> = read
            .histograms
            .iter()
            .map(|h| format!("{} (node `{}`)", h.qualified_name(), h.node))
            .collect();
        lines.push(format!("read tablehistograms: {}", names.join(", ")));
    }
    if !read.status.is_empty() {
        let nodes: Vec<String> = read
            .status
            .iter()
            .map(|n| format!("{} ({}, {})", n.address, n.datacenter, n.state))
            .collect();
        lines.push(format!("read status: {}", nodes.join(", ")));
    }
    lines
}

fn read_summary(read: &ReadInputs) -> Value {
    json!({
        "nodes": read.stats.iter().map(|s| json!({
            "node": s.node,
            "format": s.format.name(),
            "tables": s.tables.len(),
            "space_used_live_bytes": space_used(s),
        })).collect::<Vec<_>>(),
        "histograms": read.histograms.iter().map(|h| json!({
            "node": h.node,
            "table": h.qualified_name(),
        })).collect::<Vec<_>>(),
        "status": read.status.iter().map(|n| json!({
            "address": n.address,
            "datacenter": n.datacenter,
            "state": n.state,
            "owns": n.owns,
            "load_bytes": n.load_bytes,
        })).collect::<Vec<_>>(),
    })
}

/// A node's live data on disk: the sum over its tables' `Space used (live)`,
/// null when no table gave it.
fn space_used(s: &NodeStats) -> Option<u64> {
    let known: Vec<u64> = s.tables.iter().filter_map(|t| t.space_used_live).collect();
    (!known.is_empty()).then(|| known.iter().sum())
}

/// What was read, then the findings grouped by table, then a count.
fn render_text(
    read: &ReadInputs,
    findings: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
) -> String {
    let mut out = String::new();
    for line in read_lines(read) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    // Tables in name order, then what concerns the cluster (no table).
    let mut tables: Vec<Option<&str>> = findings.iter().map(|d| d.table.as_deref()).collect();
    tables.sort_unstable_by_key(|t| (t.is_none(), *t));
    tables.dedup();
    for table in tables {
        let group: Vec<Diagnostic> = findings
            .iter()
            .filter(|d| d.table.as_deref() == table)
            .cloned()
            .collect();
        out.push_str(&format!("── {} ──\n\n", table.unwrap_or("cluster")));
        out.push_str(&render_human(&group, sources, color));
        out.push_str("\n\n");
    }
    let count = |s: Severity| findings.iter().filter(|d| d.severity == s).count();
    out.push_str(&format!(
        "{} errors, {} warnings, {} infos\n",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    ));
    out
}

/// `rule`, `code`, `severity`, `table`, `file`, `line`, `message`, `notes`,
/// `help`, `fix` (`{description, cql}` or null).
fn findings_json(findings: &[Diagnostic], evidence: &[Value], sources: &SourceMap) -> Value {
    let located = render_json(findings, sources);
    let rows: Vec<Value> = findings
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let at = located.get(i);
            json!({
                "rule": d.name,
                "code": d.code,
                "severity": d.severity,
                "table": d.table,
                "file": at.and_then(|v| v.get("file")),
                "line": at.and_then(|v| v.get("line")),
                "message": d.message,
                "notes": d.notes,
                "help": d.help,
                "fix": d.fix.as_ref().map(|f| json!({
                    "description": f.description,
                    "cql": f.replacement,
                })),
                "evidence": evidence.get(i).cloned().unwrap_or_else(|| json!([])),
            })
        })
        .collect();
    Value::Array(rows)
}

fn rule_metas() -> Vec<RuleMeta> {
    RULES
        .iter()
        .map(|r| RuleMeta {
            code: r.code.to_string(),
            name: r.name.to_string(),
            short: r.summary.to_string(),
            full: format!("{}. See docs/diagnose.md.", r.summary),
            default_severity: r.default_severity,
            help_uri: None,
        })
        .collect()
}

fn plain_error(message: &str, format: ReviewFormat, code: u8) -> Output {
    match format {
        ReviewFormat::Text => Output {
            stdout: String::new(),
            stderr: format!("error: {message}\n"),
            code,
        },
        _ => Output {
            stdout: pretty(&json!({
                "errors": render_json(&[Diagnostic::error("input", message)], &SourceMap::new())
            })),
            stderr: String::new(),
            code,
        },
    }
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_names_drop_extension_and_command() {
        assert_eq!(node_name(Path::new("out/10.0.0.1.txt")), "10.0.0.1");
        assert_eq!(node_name(Path::new("node1-tablestats.json")), "node1");
        assert_eq!(node_name(Path::new("node1_tablehistograms.txt")), "node1");
        assert_eq!(node_name(Path::new("tablestats.txt")), "node");
        assert_eq!(node_name(Path::new("-")), "stdin");
    }
}
