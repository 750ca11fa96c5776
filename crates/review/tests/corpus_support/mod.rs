//! Test support for the review corpora (`tests/corpus/<set>/<name>/`): load a
//! model directory (`schema.cql`, optional `queries.cql`, `stats.toml` and
//! `cqlmodel.toml`) the way `cqlmodel review` does, run every rule, and judge
//! the result against the model's labels.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceFile, SourceMap};
use cqlmodel_review::{Config, RULES, ReviewInput, load_queries, review, suppressions};
use cqlmodel_schema::{SchemaBuilder, Settings};
use serde::Deserialize;

/// What one model produced: the schema's own diagnostics (Cassandra's
/// rejections and warnings while loading it) followed by the review's findings.
pub struct Run {
    pub name: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Tables in the schema after loading (a table with a bad option must stay).
    pub tables: Vec<String>,
}

fn read_optional(path: &Path) -> Option<String> {
    path.is_file().then(|| {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}

/// Reviews the model in `dir` with every rule, as the CLI would with the files present.
pub fn run_model(dir: &Path) -> Run {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_string();
    let schema_text = read_optional(&dir.join("schema.cql"))
        .unwrap_or_else(|| panic!("{}: no schema.cql", dir.display()));
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new(
        format!("{name}/schema.cql"),
        schema_text.as_str(),
    ));
    let parsed = cqlmodel_cql::parse(&schema_text);
    let mut diagnostics: Vec<Diagnostic> = parsed
        .errors
        .iter()
        .map(|e| Diagnostic::error("syntax", e.to_string()).with_file(schema_file))
        .collect();
    // A schema file describes a cluster that exists: the same settings as the CLI's loader.
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        removed_options_accepted: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(schema_file, &parsed.statements);
    let keyspace = builder.current_keyspace().map(str::to_string);
    let build = builder.finish();
    for w in &build.warnings {
        diagnostics.push(
            Diagnostic::warning("schema-warning", w.to_string())
                .with_name("schema-warning")
                .with_file(w.file)
                .with_primary(w.span.range(), "Cassandra warns"),
        );
    }
    for e in &build.errors {
        diagnostics.push(
            Diagnostic::error("schema", e.to_string())
                .with_name("schema")
                .with_file(e.file)
                .with_primary(e.span.range(), "Cassandra rejects this"),
        );
    }
    let schema = build.schema;
    let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
    let mut all_suppressions = suppressions(schema_file, &parsed.comments, &spans);
    let keyspace = keyspace.or_else(|| {
        let mut names = schema.keyspaces.keys();
        match (names.next(), names.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        }
    });

    let queries_text = read_optional(&dir.join("queries.cql"));
    let mut queries = Vec::new();
    if let Some(text) = &queries_text {
        let file = sources.add(SourceFile::new(
            format!("{name}/queries.cql"),
            text.as_str(),
        ));
        let parsed = cqlmodel_cql::parse(text);
        for e in &parsed.errors {
            diagnostics.push(Diagnostic::error("syntax", e.to_string()).with_file(file));
        }
        let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
        all_suppressions.extend(suppressions(file, &parsed.comments, &spans));
        let (loaded, problems) = load_queries(&schema, file, &parsed, keyspace.as_deref(), 1);
        diagnostics.extend(problems);
        queries = loaded;
    }
    let stats = read_optional(&dir.join("stats.toml")).map(|text| {
        cqlmodel_stats::load_stats(&text, &schema)
            .unwrap_or_else(|e| panic!("{name}: statistics must load: {e:?}"))
    });
    let known: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    let config = match read_optional(&dir.join("cqlmodel.toml")) {
        Some(text) => Config::parse(&text, &known)
            .unwrap_or_else(|e| panic!("{name}: cqlmodel.toml: {}", e.message)),
        None => Config::default(),
    };
    let input = ReviewInput {
        schema: &schema,
        queries: &queries,
        sources: &sources,
        suppressions: &all_suppressions,
        has_queries: queries_text.is_some(),
        stats: stats.as_ref(),
    };
    diagnostics.extend(review(&input, &config));
    Run {
        name,
        diagnostics,
        tables: schema.tables().map(|t| t.qualified_name()).collect(),
    }
}

/// The model directories of a corpus set, in name order.
pub fn models(set: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(set);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// One expert judgement: which finding it is about and what the expert says.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The rule name (`large-value`), or `schema-warning` / `schema` for the
    /// schema's own diagnostics.
    pub rule: String,
    /// `ks.table` the finding is about; absent for findings without a table.
    pub table: Option<String>,
    /// Text the finding's message must contain (a column, an option, a query).
    pub contains: Option<String>,
    /// Why the expert judges so; required so that every label is argued.
    pub why: String,
}

impl Label {
    pub fn matches(&self, d: &Diagnostic) -> bool {
        d.name.as_deref() == Some(self.rule.as_str())
            && (self.table.is_none() || d.table.as_deref() == self.table.as_deref())
            && self
                .contains
                .as_deref()
                .is_none_or(|c| d.message.contains(c))
    }

    pub fn describe(&self) -> String {
        format!(
            "{} on {}{}",
            self.rule,
            self.table.as_deref().unwrap_or("(no table)"),
            self.contains
                .as_deref()
                .map(|c| format!(" containing `{c}`"))
                .unwrap_or_default()
        )
    }
}

/// `labels.toml` beside a production schema.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labels {
    /// The precision this model must keep (the figure when the labels were last
    /// reviewed): a lower one is a regression.
    pub precision_floor: f64,
    /// Real problems an expert raises on this schema: each must be reported at
    /// warning or error.
    #[serde(default)]
    pub concern: Vec<Label>,
    /// Warnings and errors the review raises (or raised) that an expert defends.
    #[serde(default)]
    pub defensible: Vec<Label>,
    /// Warnings and errors the review raised that an expert would not defend.
    #[serde(default)]
    pub false_alarm: Vec<Label>,
}

pub fn load_labels(dir: &Path) -> Labels {
    let path = dir.join("labels.toml");
    let text = read_optional(&path).unwrap_or_else(|| panic!("{}: missing", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One line per diagnostic, for failure messages.
pub fn line(d: &Diagnostic) -> String {
    format!(
        "{} [{}] {}: {}",
        d.severity,
        d.name.as_deref().unwrap_or(&d.code),
        d.table.as_deref().unwrap_or("(no table)"),
        d.message
    )
}

pub fn serious(d: &Diagnostic) -> bool {
    d.severity >= Severity::Warning
}
