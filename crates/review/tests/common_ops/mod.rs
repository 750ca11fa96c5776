//! Test helper for the operational rules (views, batches, queues, compaction,
//! replication, LWT, read-before-write): loads a schema file and an optional
//! query file the way `cqlmodel review` does, runs the review with only the
//! chosen rules on, and renders the findings as people read them.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use cqlmodel_cql::ast::Span;
use cqlmodel_diagnostics::{Diagnostic, Severity, SourceFile, SourceMap, render_human};
use cqlmodel_review::{Config, Level, RULES, ReviewInput, load_queries, review, suppressions};
use cqlmodel_schema::{SchemaBuilder, Settings};

/// The rules this helper's tests cover.
pub const OPS_RULES: &[&str] = &[
    "materialized-view-write-heavy",
    "multi-partition-batch",
    "queue-pattern",
    "compaction-mismatch",
    "replication-risk",
    "lwt-hot-path",
    "read-before-write",
    "constant-partition-key",
    "wrong-consistency-level",
];

pub struct Outcome {
    pub findings: Vec<Diagnostic>,
    pub rendered: String,
}

impl Outcome {
    /// The findings of one rule.
    pub fn of(&self, rule: &str) -> Vec<&Diagnostic> {
        self.findings
            .iter()
            .filter(|d| d.name.as_deref() == Some(rule))
            .collect()
    }

    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|d| d.severity).max()
    }
}

/// Reviews `schema` (and `queries`) as files named `schema_name` / `queries_name`
/// with only the rules in `only` enabled. Panics when the fixture itself is
/// broken (a syntax error, a statement Cassandra rejects, a bad annotation).
pub fn review_texts(
    schema_name: &str,
    schema: &str,
    queries: Option<(&str, &str)>,
    only: &[&str],
) -> Outcome {
    review_with_stats(schema_name, schema, queries, None, only)
}

/// [`review_texts`] with a statistics file (`stats.toml` text).
pub fn review_with_stats(
    schema_name: &str,
    schema: &str,
    queries: Option<(&str, &str)>,
    stats: Option<&str>,
    only: &[&str],
) -> Outcome {
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new(schema_name, schema));
    let parsed = cqlmodel_cql::parse(schema);
    assert!(
        parsed.errors.is_empty(),
        "{schema_name}: {:?}",
        parsed.errors
    );
    let spans: Vec<Span> = parsed.statements.iter().map(|s| s.span).collect();
    let mut allow = suppressions(schema_file, &parsed.comments, &spans);
    let settings = Settings {
        materialized_views_enabled: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(schema_file, &parsed.statements);
    let current = builder.current_keyspace().map(str::to_string);
    let build = builder.finish();
    assert!(build.errors.is_empty(), "{schema_name}: {:?}", build.errors);
    let keyspace = current.or_else(|| {
        let mut names = build.schema.keyspaces.keys();
        match (names.next(), names.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        }
    });

    let mut queries_list = Vec::new();
    if let Some((name, text)) = queries {
        let file = sources.add(SourceFile::new(name, text));
        let parsed = cqlmodel_cql::parse(text);
        // cqlsh commands (`CONSISTENCY X`) are not syntax errors: the CLI
        // reports them as infos and the query list applies their levels.
        let shell = |e: &&cqlmodel_cql::ParseError| {
            matches!(e.kind, cqlmodel_cql::ParseErrorKind::ShellCommand { .. })
        };
        let syntax: Vec<_> = parsed.errors.iter().filter(|e| !shell(e)).collect();
        assert!(syntax.is_empty(), "{name}: {syntax:?}");
        let spans: Vec<Span> = parsed.statements.iter().map(|s| s.span).collect();
        allow.extend(suppressions(file, &parsed.comments, &spans));
        let (q, problems) = load_queries(&build.schema, file, &parsed, keyspace.as_deref(), 1);
        assert!(
            problems.iter().all(|d| d.severity != Severity::Error),
            "{name}: {}",
            render_human(&problems, &sources, false)
        );
        queries_list = q;
    }

    let stats = stats.map(|text| {
        cqlmodel_stats::load_stats(text, &build.schema)
            .unwrap_or_else(|e| panic!("{schema_name}: statistics: {e:?}"))
    });

    let levels: BTreeMap<String, Level> = RULES
        .iter()
        .filter(|r| !only.contains(&r.name))
        .map(|r| (r.name.to_string(), Level::Off))
        .collect();
    let config = Config {
        levels,
        ..Config::default()
    };
    let input = ReviewInput {
        schema: &build.schema,
        queries: &queries_list,
        sources: &sources,
        suppressions: &allow,
        has_queries: queries.is_some(),
        stats: stats.as_ref(),
    };
    let findings = review(&input, &config);
    let rendered = render_human(&findings, &sources, false);
    Outcome { findings, rendered }
}

/// Reviews a fixture directory holding `schema.cql` and, optionally,
/// `queries.cql` and `stats.toml`.
pub fn review_dir(dir: &Path, display_prefix: &str, only: &[&str]) -> Outcome {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let schema = read("schema.cql").unwrap_or_else(|| panic!("{}: no schema.cql", dir.display()));
    let queries = read("queries.cql");
    let stats = read("stats.toml");
    let schema_name = format!("{display_prefix}/schema.cql");
    let queries_name = format!("{display_prefix}/queries.cql");
    review_with_stats(
        &schema_name,
        &schema,
        queries.as_deref().map(|q| (queries_name.as_str(), q)),
        stats.as_deref(),
        only,
    )
}
