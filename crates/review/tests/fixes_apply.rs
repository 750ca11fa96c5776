//! Every rule's suggested fix, on both corpora and the rules' fixtures, is CQL Cassandra takes and
//! settles the problem without starting another: it parses; its DDL, applied
//! to the model's schema in place of the tables it rewrites, passes the schema
//! validation; its statements are valid against that schema; and the review
//! of the fixed schema, with the fix's statements as the query list, raises no
//! error on the tables the fix wrote.
//!
//! `cargo test -p cqlmodel-review --test fixes_apply -- --nocapture`

mod corpus_support;

use std::collections::{BTreeMap, HashSet};

use corpus_support::{models, run_model};
use cqlmodel_cql::ast::{QualifiedName, Statement, StatementKind};
use cqlmodel_diagnostics::{Severity, SourceFile, SourceMap};
use cqlmodel_review::{Config, ReviewInput, load_queries, review};
use cqlmodel_schema::access::analyze;
use cqlmodel_schema::{SchemaBuilder, Settings};

fn settings() -> Settings {
    Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        removed_options_accepted: true,
        ..Settings::default()
    }
}

fn qualified(name: &QualifiedName, keyspace: Option<&str>) -> String {
    let ks = name
        .keyspace
        .as_ref()
        .map(|k| k.value.as_str())
        .or(keyspace)
        .unwrap_or("");
    format!("{ks}.{}", name.name.value)
}

/// The table a DDL statement creates or changes, if any.
fn ddl_table(s: &Statement, keyspace: Option<&str>) -> Option<String> {
    match &s.kind {
        StatementKind::CreateTable(t) => Some(qualified(&t.name, keyspace)),
        StatementKind::CreateIndex(i) => Some(qualified(&i.table, keyspace)),
        // A view the fix replaces with a table of its name.
        StatementKind::CreateMaterializedView(v) => Some(qualified(&v.name, keyspace)),
        _ => None,
    }
}

fn is_dml(s: &Statement) -> bool {
    matches!(
        s.kind,
        StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Batch(_)
    )
}

/// What is wrong with one fix, if anything.
fn check_fix(schema_text: &str, keyspace: Option<&str>, fix: &str) -> Result<(), String> {
    let parsed_fix = cqlmodel_cql::parse(fix);
    if let Some(e) = parsed_fix.errors.first() {
        return Err(format!("does not parse: {e}"));
    }
    let rewritten: HashSet<String> = parsed_fix
        .statements
        .iter()
        .filter(|s| matches!(s.kind, StatementKind::CreateTable(_)))
        .filter_map(|s| ddl_table(s, keyspace))
        .collect();
    let original = cqlmodel_cql::parse(schema_text);
    let kept: Vec<Statement> = original
        .statements
        .into_iter()
        .filter(|s| ddl_table(s, keyspace).is_none_or(|t| !rewritten.contains(&t)))
        .collect();
    let ddl: Vec<Statement> = parsed_fix
        .statements
        .iter()
        .filter(|s| !is_dml(s))
        .cloned()
        .collect();
    let mut builder = SchemaBuilder::with_settings(settings());
    builder.add_statements(0, &kept);
    builder.add_statements(1, &ddl);
    let build = builder.finish();
    if let Some(e) = build.errors.iter().find(|e| e.file == 1) {
        return Err(format!("the schema refuses it: {e}"));
    }
    let schema = build.schema;
    for s in parsed_fix.statements.iter().filter(|s| is_dml(s)) {
        if let Some(e) = analyze(&schema, s, keyspace).error {
            return Err(format!("`{s}` is refused: {}", e.message));
        }
    }
    // The fixed schema, reviewed with the fix's statements as the query list.
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new("fix.cql", fix));
    let (queries, _) = load_queries(&schema, file, &parsed_fix, keyspace, 1);
    let input = ReviewInput {
        schema: &schema,
        queries: &queries,
        sources: &sources,
        suppressions: &[],
        has_queries: !queries.is_empty(),
        stats: None,
    };
    let touched: HashSet<String> = parsed_fix
        .statements
        .iter()
        .filter_map(|s| ddl_table(s, keyspace))
        .collect();
    let errors: Vec<String> = review(&input, &Config::default())
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| d.table.as_ref().is_some_and(|t| touched.contains(t)) || d.file == Some(file))
        .map(|d| format!("{} [{}]", d.message, d.name.unwrap_or_default()))
        .collect();
    match errors.first() {
        Some(e) => Err(format!("the fixed schema trips an error: {e}")),
        None => Ok(()),
    }
}

/// The model's keyspace: its only one (fixes name tables in full anyway).
fn keyspace_of(schema_text: &str) -> Option<String> {
    let parsed = cqlmodel_cql::parse(schema_text);
    let mut builder = SchemaBuilder::with_settings(settings());
    builder.add_statements(0, &parsed.statements);
    let schema = builder.finish().schema;
    let mut names = schema.keyspaces.keys();
    match (names.next(), names.next()) {
        (Some(only), None) => Some(only.clone()),
        _ => None,
    }
}

/// The rules' own fixtures (`tests/fixtures/<rule>/<case>/`), laid out like
/// corpus models: the fixes of the rules the corpora do not exercise.
fn rule_fixtures() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .flat_map(|rule| std::fs::read_dir(rule).into_iter().flatten())
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("schema.cql").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_fix_on_the_corpora_applies_cleanly() {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for dir in models("tutorial")
        .into_iter()
        .chain(models("production"))
        .chain(rule_fixtures())
    {
        let schema_text = std::fs::read_to_string(dir.join("schema.cql")).unwrap_or_default();
        let keyspace = keyspace_of(&schema_text);
        let run = run_model(&dir);
        for d in &run.diagnostics {
            let Some(cql) = d.fix.as_ref().and_then(|f| f.replacement.as_deref()) else {
                continue;
            };
            let rule = d.name.clone().unwrap_or_default();
            *checked.entry(rule.clone()).or_default() += 1;
            if let Err(why) = check_fix(&schema_text, keyspace.as_deref(), cql) {
                failures.push(format!("{} [{rule}] {}: {why}\n{cql}", run.name, d.message));
            }
        }
    }
    let total: usize = checked.values().sum();
    println!("{total} fixes checked, by rule: {checked:?}");
    assert!(
        total >= 20,
        "too few fixes on the corpora to mean anything: {total}"
    );
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
