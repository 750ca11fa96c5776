//! explain agrees with the node: every SELECT case of the schema crate's case table
//! (`crates/schema/tests/data/select_cases.toml`), every INSERT / UPDATE / DELETE / BATCH
//! case (`dml_cases.toml`) and every query of the examples is executed on the node, and the
//! node's verdict (accepted, or rejected with its message verbatim, plus client warnings) is
//! compared with cqlmodel's access-path analysis, the engine behind `cqlmodel explain`.
//!
//! Statements are executed, not only prepared, so that errors Cassandra raises while
//! executing (a literal out of range, a batch over the warning threshold) count too; queries
//! with bind markers are prepared.
//!
//! A disagreement fails the test unless `known-disagreements.toml` lists it with the reason;
//! a listed one that now agrees fails too, so the list stays exact.

mod common;

use std::collections::BTreeMap;

use common::{Checked, assert_only_known, repo_file, report};
use cqlmodel_livetest::{Agreement, Node, Verdict, apply_schema};
use cqlmodel_schema::access::analyze;
use cqlmodel_schema::{SchemaBuilder, Settings};
use serde::Deserialize;

#[derive(Deserialize)]
struct SelectCases {
    schema: String,
    index: String,
    case: Vec<SelectCase>,
}

#[derive(Deserialize)]
struct SelectCase {
    id: u32,
    index: bool,
    query: String,
}

#[derive(Deserialize)]
struct DmlCases {
    schemas: BTreeMap<String, String>,
    case: Vec<DmlCase>,
}

#[derive(Deserialize)]
struct DmlCase {
    id: String,
    #[serde(default = "main_schema")]
    schema: String,
    #[serde(default)]
    settings: DmlSettings,
    setup: Option<String>,
    cql: String,
    skip: Option<String>,
}

#[derive(Deserialize, Default)]
struct DmlSettings {
    #[serde(default)]
    materialized_views_enabled: bool,
}

fn main_schema() -> String {
    "main".into()
}

fn our_schema(source: &str, settings: Settings) -> cqlmodel_schema::Schema {
    let parsed = cqlmodel_cql::parse(source);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(0, &parsed.statements);
    assert!(
        builder.errors().is_empty(),
        "our schema fails: {:?}",
        builder.errors()
    );
    builder.schema().clone()
}

/// Runs (or, with bind markers, prepares) `cql` on the node and compares with `analyze`.
async fn check(node: &Node, schema: &cqlmodel_schema::Schema, id: String, cql: &str) -> Checked {
    let statement = cqlmodel_cql::parse_statement(cql).unwrap_or_else(|e| panic!("{id}: {e}"));
    let path = analyze(schema, &statement, None);
    let ours = path.error.as_ref().map(|e| e.message.as_str());
    let verdict = if cql.contains('?') {
        node.prepare(cql).await
    } else {
        node.run(cql).await
    }
    .unwrap_or_else(|e| panic!("{id}: {e}"));
    let agreement = Agreement::of(ours, &verdict);
    let extra = match &verdict {
        Verdict::Accepted { warnings } if !cql.contains('?') && *warnings != path.warnings => Some(
            format!("warnings: node {warnings:?}, cqlmodel {:?}", path.warnings),
        ),
        _ => None,
    };
    Checked {
        id,
        cql: cql.to_string(),
        agreement,
        extra,
    }
}

async fn select_cases(node: &Node) -> Vec<Checked> {
    let cases: SelectCases =
        toml::from_str(&repo_file("crates/schema/tests/data/select_cases.toml")).expect("cases");
    let plain = our_schema(&cases.schema, Settings::default());
    let indexed = our_schema(
        &format!("{}\n{}", cases.schema, cases.index),
        Settings::default(),
    );
    let mut checked = Vec::new();
    let applied = apply_schema(node, &cases.schema).await.expect("schema");
    assert!(
        applied.iter().all(|a| a.verdict.is_accepted()),
        "select schema refused"
    );
    for with_index in [false, true] {
        if with_index {
            node.must_run(&cases.index).await.expect("index");
        }
        let schema = if with_index { &indexed } else { &plain };
        for case in cases.case.iter().filter(|c| c.index == with_index) {
            checked.push(check(node, schema, format!("select#{}", case.id), &case.query).await);
        }
    }
    checked
}

/// DML cases, grouped by the schema and setup they need so each schema is built once.
async fn dml_cases(node: &Node, views: bool) -> (Vec<Checked>, Vec<String>) {
    let cases: DmlCases =
        toml::from_str(&repo_file("crates/schema/tests/data/dml_cases.toml")).expect("cases");
    let mut groups: BTreeMap<(String, String), Vec<&DmlCase>> = BTreeMap::new();
    let mut skipped = Vec::new();
    for case in &cases.case {
        if let Some(reason) = &case.skip {
            skipped.push(format!("dml#{}: {reason}", case.id));
        } else if case.settings.materialized_views_enabled == views {
            let setup = case.setup.clone().unwrap_or_default();
            groups
                .entry((case.schema.clone(), setup))
                .or_default()
                .push(case);
        }
    }
    let mut checked = Vec::new();
    for ((schema_name, setup), group) in groups {
        let source = format!("{}\n{setup}", cases.schemas[&schema_name]);
        let applied = apply_schema(node, &source).await.expect("schema");
        if let Some(refused) = applied.iter().find(|a| !a.verdict.is_accepted()) {
            panic!(
                "dml schema {schema_name}: {} refused: {:?}",
                refused.statement.text, refused.verdict
            );
        }
        let settings = Settings {
            materialized_views_enabled: views,
            ..Settings::default()
        };
        let schema = our_schema(&source, settings);
        for case in group {
            checked.push(check(node, &schema, format!("dml#{}", case.id), &case.cql).await);
        }
    }
    (checked, skipped)
}

/// The hand-written examples: schema files and their query files.
async fn example_queries(node: &Node) -> Vec<Checked> {
    let pairs = [
        ("examples/iot.cql", "examples/iot-queries.cql"),
        ("examples/shop/schema.cql", "examples/shop/queries.cql"),
    ];
    let mut checked = Vec::new();
    for (schema_file, queries_file) in pairs {
        let schema_source = repo_file(schema_file);
        let applied = apply_schema(node, &schema_source).await.expect("schema");
        if let Some(a) = applied
            .iter()
            .find(|a| !a.verdict.is_accepted() && a.substitute.is_none())
        {
            panic!(
                "{schema_file}: {} refused: {:?}",
                a.statement.text, a.verdict
            );
        }
        let schema = our_schema(&schema_source, Settings::default());
        let statements =
            cqlmodel_livetest::statements_of(&repo_file(queries_file)).expect("queries");
        for (i, statement) in statements.iter().enumerate() {
            let name = statement.name.clone().unwrap_or_else(|| format!("#{i}"));
            let id = format!("{queries_file}:{name}");
            checked.push(check(node, &schema, id, &statement.text).await);
        }
    }
    checked
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh, or CQLMODEL_TEST_CONTACT=host:port cargo test -p cqlmodel-livetest -- --ignored"]
async fn explain_agrees_with_the_node() {
    let node = Node::from_env().await.expect("a node to test against");
    let mut all = select_cases(&node).await;
    let selects = report("select cases", &all);
    let (dml, skipped) = dml_cases(&node, false).await;
    let dmls = report("dml cases", &dml);
    for s in &skipped {
        println!("  skipped {s}");
    }
    let examples = example_queries(&node).await;
    let example_agreed = report("example queries", &examples);
    all.extend(dml);
    all.extend(examples);
    println!(
        "explain agreement, total: {} of {} ({selects} select, {dmls} dml, {example_agreed} example)",
        selects + dmls + example_agreed,
        all.len()
    );
    assert_only_known(&all);
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node with materialized views enabled: scripts/test-cassandra.sh (its mv pass), CQLMODEL_TEST_MV=1"]
async fn explain_agrees_with_the_node_on_view_cases() {
    if std::env::var_os("CQLMODEL_TEST_MV").is_none() {
        println!(
            "skipped: CQLMODEL_TEST_MV is not set (the node's materialized_views_enabled is false by default)"
        );
        return;
    }
    let node = Node::from_env().await.expect("a node to test against");
    let (checked, _) = dml_cases(&node, true).await;
    report("dml cases needing materialized views", &checked);
    assert!(!checked.is_empty(), "no view cases found");
    assert_only_known(&checked);
}
