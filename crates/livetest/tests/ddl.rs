//! Schema statements agree with the node: every case of the schema crate's DDL case table
//! (`crates/schema/tests/data/ddl_cases.toml`) runs on the node after the table's schema and
//! the case's setup, and the node's first refusal (class and message verbatim) and client
//! warnings are compared with what cqlmodel's schema builder reports for the same statements.
//!
//! A case that changed the schema (or had a setup) is followed by a fresh schema; the
//! keyspaces the cases create are dropped with it.

mod common;

use common::{Checked, assert_only_known, repo_file, report};
use cqlmodel_cql::ast::StatementKind;
use cqlmodel_livetest::{Agreement, Node, Verdict, apply_schema, statements_of};
use cqlmodel_schema::{ErrorClass, SchemaBuilder, Settings};
use serde::Deserialize;

#[derive(Deserialize)]
struct Cases {
    schema: String,
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    setup: Option<String>,
    cql: String,
    #[serde(default)]
    settings: CaseSettings,
    skip: Option<String>,
}

#[derive(Deserialize, Default)]
struct CaseSettings {
    #[serde(default)]
    materialized_views_enabled: bool,
    #[serde(default)]
    sasi_indexes_enabled: bool,
}

impl CaseSettings {
    fn needs_views(&self) -> bool {
        self.materialized_views_enabled || self.sasi_indexes_enabled
    }
}

/// The class names of the case table, from the protocol's error classes.
fn node_class(class: &str) -> &str {
    match class {
        "Invalid" => "IRE",
        "ConfigError" => "CE",
        "AlreadyExists" => "AE",
        "SyntaxError" => "Syntax",
        other => other,
    }
}

fn our_class(class: ErrorClass) -> &'static str {
    match class {
        ErrorClass::Syntax => "Syntax",
        ErrorClass::Invalid => "IRE",
        ErrorClass::Configuration => "CE",
        ErrorClass::AlreadyExists => "AE",
    }
}

/// cqlmodel's first error (message, class) and warnings for `case`.
fn ours(schema: &str, case: &Case) -> (Option<(String, &'static str)>, Vec<String>) {
    let settings = Settings {
        materialized_views_enabled: case.settings.materialized_views_enabled,
        sasi_indexes_enabled: case.settings.sasi_indexes_enabled,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    let setup = format!("{schema}\n{}", case.setup.as_deref().unwrap_or(""));
    builder.add_statements(0, &cqlmodel_cql::parse(&setup).statements);
    let (errors_before, warnings_before) = (builder.errors().len(), builder.warnings().len());
    let parsed = cqlmodel_cql::parse(&case.cql);
    if let Some(e) = parsed.errors.first() {
        return (Some((e.to_string(), "Syntax")), Vec::new());
    }
    builder.add_statements(1, &parsed.statements);
    let error = builder.errors()[errors_before..]
        .first()
        .map(|e| (e.to_string(), our_class(e.class())));
    let warnings = builder.warnings()[warnings_before..]
        .iter()
        .map(ToString::to_string)
        .collect();
    (error, warnings)
}

/// Runs the case's statements until the first refusal: (refusal, warnings, any accepted).
async fn theirs(node: &Node, cql: &str) -> (Option<(String, String)>, Vec<String>, bool) {
    let mut warnings = Vec::new();
    let mut changed = false;
    let statements = match statements_of(cql) {
        Ok(s) => s.into_iter().map(|s| s.text).collect(),
        Err(_) => vec![cql.to_string()], // let the node's parser speak
    };
    for statement in statements {
        match node.run(&statement).await.expect("node answers") {
            Verdict::Accepted { warnings: w } => {
                changed = true;
                warnings.extend(w);
            }
            Verdict::Rejected(r) => {
                let class = node_class(&r.class).to_string();
                return (Some((r.message, class)), warnings, changed);
            }
        }
    }
    (None, warnings, changed)
}

/// Keyspaces a case creates besides the schema's `ks`, to drop when the schema is reset.
fn created_keyspaces(case: &Case) -> Vec<String> {
    let text = format!("{}\n{}", case.setup.as_deref().unwrap_or(""), case.cql);
    cqlmodel_cql::parse(&text)
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::CreateKeyspace(k) => Some(k.name.value.clone()),
            _ => None,
        })
        .collect()
}

async fn reset(node: &Node, schema: &str, case: &Case, extra_keyspaces: &[String]) {
    for keyspace in extra_keyspaces {
        node.must_run(&format!("DROP KEYSPACE IF EXISTS {keyspace}"))
            .await
            .expect("drop");
    }
    let source = format!("{schema}\n{}", case.setup.as_deref().unwrap_or(""));
    let applied = apply_schema(node, &source).await.expect("schema");
    if let Some(refused) = applied.iter().find(|a| !a.verdict.is_accepted()) {
        panic!(
            "ddl#{} setup refused: {} {:?}",
            case.id, refused.statement.text, refused.verdict
        );
    }
}

async fn ddl_cases(node: &Node, views: bool) -> Vec<Checked> {
    let cases: Cases =
        toml::from_str(&repo_file("crates/schema/tests/data/ddl_cases.toml")).expect("cases");
    let mut checked = Vec::new();
    let mut dirty = true;
    let mut extra_keyspaces: Vec<String> = Vec::new();
    for case in &cases.case {
        if case.skip.is_some() || case.settings.needs_views() != views {
            continue;
        }
        if dirty || case.setup.is_some() {
            reset(node, &cases.schema, case, &extra_keyspaces).await;
        }
        extra_keyspaces = created_keyspaces(case);
        let (our_error, our_warnings) = ours(&cases.schema, case);
        let (their_error, their_warnings, changed) = theirs(node, &case.cql).await;
        dirty = changed || case.setup.is_some();
        let verdict = match &their_error {
            None => Verdict::Accepted {
                warnings: Vec::new(),
            },
            Some((message, class)) => Verdict::Rejected(cqlmodel_livetest::Rejection {
                class: class.clone(),
                message: message.clone(),
            }),
        };
        let agreement = Agreement::of(our_error.as_ref().map(|(m, _)| m.as_str()), &verdict);
        let mut extra = Vec::new();
        if let (Some((_, ours)), Some((_, theirs))) = (&our_error, &their_error)
            && ours != theirs
        {
            extra.push(format!("class: node {theirs}, cqlmodel {ours}"));
        }
        if our_warnings != their_warnings {
            extra.push(format!(
                "warnings: node {their_warnings:?}, cqlmodel {our_warnings:?}"
            ));
        }
        checked.push(Checked {
            id: format!("ddl#{}", case.id),
            cql: case.cql.clone(),
            agreement,
            extra: (!extra.is_empty()).then(|| extra.join("; ")),
        });
    }
    for keyspace in extra_keyspaces {
        let _ = node
            .run(&format!("DROP KEYSPACE IF EXISTS {keyspace}"))
            .await;
    }
    checked
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh, or CQLMODEL_TEST_CONTACT=host:port cargo test -p cqlmodel-livetest -- --ignored"]
async fn ddl_cases_agree_with_the_node() {
    if std::env::var_os("CQLMODEL_TEST_MV").is_some() {
        println!("skipped: the node has views enabled; the default cases want a default node");
        return;
    }
    let node = Node::from_env().await.expect("a node to test against");
    let checked = ddl_cases(&node, false).await;
    report("ddl cases", &checked);
    assert_only_known(&checked);
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node with materialized views and SASI enabled: scripts/test-cassandra.sh (its mv pass), CQLMODEL_TEST_MV=1"]
async fn ddl_cases_needing_views_agree_with_the_node() {
    if std::env::var_os("CQLMODEL_TEST_MV").is_none() {
        println!(
            "skipped: CQLMODEL_TEST_MV is not set (the node's materialized_views_enabled is false by default)"
        );
        return;
    }
    let node = Node::from_env().await.expect("a node to test against");
    let checked = ddl_cases(&node, true).await;
    report("ddl cases needing views or SASI", &checked);
    assert_only_known(&checked);
}
