//! Test helper for the query-path rules: load a schema and a query list from
//! strings (or fixture files) as the CLI does, review them with a chosen set of
//! rules, and render the findings as `cqlmodel review` prints them.

use std::path::PathBuf;

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceFile, SourceMap, render_human};
use cqlmodel_review::{Config, Level, RULES, ReviewInput, load_queries, review, suppressions};
use cqlmodel_schema::{SchemaBuilder, Settings};

pub struct Reviewed {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

impl Reviewed {
    /// The findings as `cqlmodel review` prints them, without color.
    pub fn render(&self) -> String {
        render_human(&self.diagnostics, &self.sources, false)
    }

    /// (rule name, query name, severity) of every finding.
    pub fn summary(&self) -> Vec<(String, Option<String>, Severity)> {
        self.diagnostics
            .iter()
            .map(|d| {
                (
                    d.name.clone().unwrap_or_default(),
                    d.query.clone(),
                    d.severity,
                )
            })
            .collect()
    }

    pub fn has(&self, rule: &str, query: &str, severity: Severity) -> bool {
        self.diagnostics.iter().any(|d| {
            d.name.as_deref() == Some(rule)
                && d.query.as_deref() == Some(query)
                && d.severity == severity
        })
    }
}

/// Reviews `schema` (and `queries`, when given) with only the rules named in `only` enabled.
pub fn review_with(schema: (&str, &str), queries: Option<(&str, &str)>, only: &[&str]) -> Reviewed {
    review_files(&[schema], queries, only)
}

/// Reviews schema files (in order, as one schema) and an optional query list with
/// only the rules named in `only` enabled.
pub fn review_files(
    schemas: &[(&str, &str)],
    queries: Option<(&str, &str)>,
    only: &[&str],
) -> Reviewed {
    let mut sources = SourceMap::new();
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    let mut all_suppressions = Vec::new();
    for (name, text) in schemas {
        let schema_file = sources.add(SourceFile::new(*name, *text));
        let parsed = cqlmodel_cql::parse(text);
        assert!(
            parsed.errors.is_empty(),
            "{name}: schema parse errors: {:?}",
            parsed.errors
        );
        let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
        all_suppressions.extend(suppressions(schema_file, &parsed.comments, &spans));
        builder.add_statements(schema_file, &parsed.statements);
    }
    let keyspace = builder.current_keyspace().map(str::to_string);
    let build = builder.finish();
    assert!(build.errors.is_empty(), "schema errors: {:?}", build.errors);
    let schema_model = build.schema;

    let mut query_list = Vec::new();
    if let Some((name, text)) = queries {
        let file = sources.add(SourceFile::new(name, text));
        let parsed = cqlmodel_cql::parse(text);
        assert!(
            parsed.errors.is_empty(),
            "query parse errors: {:?}",
            parsed.errors
        );
        let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
        all_suppressions.extend(suppressions(file, &parsed.comments, &spans));
        let (loaded, problems) = load_queries(&schema_model, file, &parsed, keyspace.as_deref(), 1);
        // A fixture may use an unknown `@path` on purpose (the rules say what
        // they made of it); the loader's warning about it is expected.
        let problems: Vec<_> = problems
            .iter()
            .filter(|d| !d.message.starts_with("unknown @path"))
            .collect();
        assert!(problems.is_empty(), "query list problems: {problems:?}");
        query_list = loaded;
    }
    let mut config = Config::default();
    for rule in RULES {
        if !only.contains(&rule.name) {
            config.levels.insert(rule.name.to_string(), Level::Off);
        }
    }
    let input = ReviewInput {
        schema: &schema_model,
        queries: &query_list,
        sources: &sources,
        suppressions: &all_suppressions,
        has_queries: queries.is_some(),
        stats: None,
    };
    let diagnostics = review(&input, &config);
    Reviewed {
        diagnostics,
        sources,
    }
}

pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

pub fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/fixtures/<rule>/<case>.cql` with `<case>-queries.cql`, reviewed with `rule` alone.
pub fn fixture(rule: &str, case: &str) -> Reviewed {
    let dir = tests_dir().join("fixtures").join(rule);
    let schema = read(&dir.join(format!("{case}.cql")));
    let queries_path = dir.join(format!("{case}-queries.cql"));
    let queries = queries_path.exists().then(|| read(&queries_path));
    let schema_name = format!("{rule}/{case}.cql");
    let queries_name = format!("{rule}/{case}-queries.cql");
    review_with(
        (&schema_name, &schema),
        queries.as_deref().map(|q| (queries_name.as_str(), q)),
        &[rule],
    )
}
