//! Every example under `examples/design/` designs without error, its schema
//! builds, and the generated schema + queries + statistics pass the review with
//! no error.

use std::path::{Path, PathBuf};

use cqlmodel_design::{Design, DesignInput, design};
use cqlmodel_diagnostics::{Severity, SourceFile, SourceMap};
use cqlmodel_review::{Config, ReviewInput, load_queries, review};

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/design");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("model.sql").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny"));
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shop"));
    dirs.sort();
    dirs
}

fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p).ok()
}

pub fn design_example(dir: &Path) -> Design {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let model = read(&dir.join("model.sql")).unwrap_or_default();
    let queries = read(&dir.join("queries.sql"));
    let stats = read(&dir.join("stats.toml"));
    let input = DesignInput {
        keyspace: &name,
        model_sql: &model,
        queries_sql: queries.as_deref(),
        stats_toml: stats.as_deref(),
    };
    match design(&input) {
        Ok(d) => d,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn review_errors(d: &Design) -> Vec<String> {
    let schema_text = d.schema_cql();
    let queries_text = d.queries_cql();
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("schema.cql", schema_text.clone()));
    let queries_file = sources.add(SourceFile::new("queries.cql", queries_text.clone()));
    let parsed = cqlmodel_cql::parse(&schema_text);
    let mut problems: Vec<String> = parsed
        .errors
        .iter()
        .map(|e| format!("schema syntax: {e}"))
        .collect();
    // As `cqlmodel review` loads a schema file: views on (the design may choose one).
    let settings = cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        ..cqlmodel_schema::Settings::default()
    };
    let build = cqlmodel_schema::build_schema_with(settings, schema_file, &parsed.statements);
    problems.extend(build.errors.iter().map(|e| format!("schema: {e}")));
    let parsed_q = cqlmodel_cql::parse(&queries_text);
    problems.extend(
        parsed_q
            .errors
            .iter()
            .map(|e| format!("queries syntax: {e}")),
    );
    let (queries, diags) =
        load_queries(&build.schema, queries_file, &parsed_q, Some(&d.keyspace), 1);
    problems.extend(
        diags
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .map(|x| format!("queries: {}", x.message)),
    );
    for q in &queries {
        if let Some(e) = &q.path.error {
            problems.push(format!("{}: {}", q.name, e.message));
        }
    }
    // The statistics as DIR/stats.toml holds them, read back by the review's loader.
    let stats_text = cqlmodel_stats::to_toml(&d.table_stats);
    let stats = match cqlmodel_stats::load_stats(&stats_text, &build.schema) {
        Ok(s) => Some(s),
        Err(errors) => {
            problems.extend(errors.iter().map(|e| format!("stats.toml: {e}")));
            None
        }
    };
    if stats.as_ref() != Some(&d.table_stats) && !d.table_stats.tables.is_empty() {
        problems.push("stats.toml does not read back as the design's statistics".into());
    }
    let input = ReviewInput {
        schema: &build.schema,
        queries: &queries,
        sources: &sources,
        suppressions: &[],
        has_queries: true,
        stats: stats.as_ref(),
    };
    for f in review(&input, &Config::default()) {
        if f.severity == Severity::Error {
            problems.push(format!("review {}: {}", f.code, f.message));
        }
    }
    problems
}

#[test]
fn every_example_passes_the_review_without_error() {
    let mut failures = Vec::new();
    for dir in examples() {
        let d = design_example(&dir);
        let errors = review_errors(&d);
        if !errors.is_empty() {
            failures.push(format!(
                "{}:\n  {}\n--- schema\n{}\n--- queries\n{}",
                dir.display(),
                errors.join("\n  "),
                d.schema_cql(),
                d.queries_cql()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn json_and_report_snapshots() {
    for dir in examples() {
        let d = design_example(&dir);
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        insta::assert_json_snapshot!(format!("{name}_json"), cqlmodel_design::json(&d));
        insta::assert_snapshot!(format!("{name}_report"), cqlmodel_design::report_md(&d));
    }
}
