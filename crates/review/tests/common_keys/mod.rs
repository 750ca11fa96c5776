//! Test support for the key and size rules (secondary-index-misuse,
//! unbounded-partition, large-partition, hot-partition, large-value,
//! mutable-primary-key): review a schema, an optional query list and an optional
//! statistics file with chosen rules only, and render the findings as a person
//! reads them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap, render_human};
use cqlmodel_review::{Config, Level, RULES, ReviewInput, load_queries, review, suppressions};
use cqlmodel_schema::{SchemaBuilder, Settings};

/// The rules of this area.
pub const KEY_RULES: &[&str] = &[
    "secondary-index-misuse",
    "unbounded-partition",
    "large-partition",
    "hot-partition",
    "large-value",
    "mutable-primary-key",
];

/// What a review produced.
pub struct Reviewed {
    pub diagnostics: Vec<Diagnostic>,
    /// `render_human` without colour.
    pub text: String,
}

impl Reviewed {
    /// The findings at warning or above.
    pub fn serious(&self) -> Vec<&Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity >= cqlmodel_diagnostics::Severity::Warning)
            .collect()
    }

    pub fn codes(&self) -> Vec<String> {
        self.diagnostics.iter().map(|d| d.code.clone()).collect()
    }
}

/// Reviews `schema` (+ `queries`, + `stats` TOML) with only `rules` enabled.
/// Panics when the inputs themselves are broken: fixtures must be valid.
pub fn review_with(
    schema: &str,
    queries: Option<&str>,
    stats: Option<&str>,
    rules: &[&str],
) -> Reviewed {
    review_configured(schema, queries, stats, rules, Config::default())
}

/// [`review_with`] from a given configuration (its levels are then set so
/// that only `rules` run).
pub fn review_configured(
    schema: &str,
    queries: Option<&str>,
    stats: Option<&str>,
    rules: &[&str],
    mut config: Config,
) -> Reviewed {
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("schema.cql", schema));
    let parsed = cqlmodel_cql::parse(schema);
    assert!(
        parsed.errors.is_empty(),
        "fixture schema must parse: {:?}",
        parsed.errors
    );
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(schema_file, &parsed.statements);
    let keyspace = builder.current_keyspace().map(str::to_string);
    let build = builder.finish();
    assert!(
        build.errors.is_empty(),
        "fixture schema must be valid: {:?}",
        build.errors
    );
    let schema_model = build.schema;
    let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
    let mut all_suppressions = suppressions(schema_file, &parsed.comments, &spans);

    let keyspace = keyspace.or_else(|| {
        let mut names = schema_model.keyspaces.keys();
        match (names.next(), names.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        }
    });
    let mut query_list = Vec::new();
    if let Some(text) = queries {
        let file = sources.add(SourceFile::new("queries.cql", text));
        let parsed = cqlmodel_cql::parse(text);
        assert!(
            parsed.errors.is_empty(),
            "fixture queries must parse: {:?}",
            parsed.errors
        );
        let spans: Vec<_> = parsed.statements.iter().map(|s| s.span).collect();
        all_suppressions.extend(suppressions(file, &parsed.comments, &spans));
        let (q, diags) = load_queries(&schema_model, file, &parsed, keyspace.as_deref(), 1);
        assert!(diags.is_empty(), "fixture queries must load: {diags:?}");
        query_list = q;
    }
    let loaded_stats = stats.map(
        |toml| match cqlmodel_stats::load_stats(toml, &schema_model) {
            Ok(s) => s,
            Err(e) => panic!("fixture statistics must load: {e:#?}"),
        },
    );

    for rule in RULES.iter().filter(|r| !rules.contains(&r.name)) {
        config.levels.insert(rule.name.to_string(), Level::Off);
    }
    let input = ReviewInput {
        schema: &schema_model,
        queries: &query_list,
        sources: &sources,
        suppressions: &all_suppressions,
        has_queries: queries.is_some(),
        stats: loaded_stats.as_ref(),
    };
    let diagnostics = review(&input, &config);
    let text = render_human(&diagnostics, &sources, false);
    Reviewed { diagnostics, text }
}

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// A file's text, or a panic naming it.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` with `.cql` replaced by `suffix` (`.queries.cql`, `.stats.toml`), if that file exists.
pub fn sibling(path: &Path, suffix: &str) -> Option<String> {
    let stem = path.file_name()?.to_str()?.strip_suffix(".cql")?;
    let other = path.with_file_name(format!("{stem}{suffix}"));
    other.is_file().then(|| read(&other))
}
