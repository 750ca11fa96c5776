//! Cassandra 5.0's outcome for each INSERT / UPDATE / DELETE / BATCH of
//! `tests/data/dml_cases.toml` (the access kind and partitions, or the exact
//! message, plus client warnings), checked against the access-path analysis.
//! All mismatches are reported at once.

use std::collections::BTreeMap;

use cqlmodel_schema::access::{AccessKind, analyze};
use cqlmodel_schema::{SchemaBuilder, Settings};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    schemas: BTreeMap<String, String>,
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    #[serde(default = "main_schema")]
    schema: String,
    confidence: String,
    #[serde(default)]
    settings: CaseSettings,
    setup: Option<String>,
    cql: String,
    error: Option<String>,
    when: Option<String>,
    kind: Option<String>,
    partitions: Option<u64>,
    #[serde(default)]
    warnings: Vec<String>,
    skip: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CaseSettings {
    #[serde(default)]
    materialized_views_enabled: bool,
}

fn main_schema() -> String {
    "main".to_string()
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::SinglePartition => "single-partition",
        AccessKind::MultiPartition => "multi-partition",
        AccessKind::RangeScan => "range-scan",
        AccessKind::Invalid => "invalid",
    }
}

fn run(cases: &Cases, case: &Case) -> Vec<String> {
    let Some(schema) = cases.schemas.get(&case.schema) else {
        return vec![format!("no schema named {}", case.schema)];
    };
    let settings = Settings {
        materialized_views_enabled: case.settings.materialized_views_enabled,
        ..Settings::default()
    };
    let ddl = cqlmodel_cql::parse(&format!(
        "{schema}\n{}",
        case.setup.as_deref().unwrap_or("")
    ));
    if !ddl.errors.is_empty() {
        return vec![format!("schema does not parse: {:?}", ddl.errors)];
    }
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(0, &ddl.statements);
    if !builder.errors().is_empty() {
        let messages: Vec<String> = builder.errors().iter().map(|e| e.to_string()).collect();
        return vec![format!("schema fails: {messages:?}")];
    }
    let stmt = match cqlmodel_cql::parse_statement(&case.cql) {
        Ok(s) => s,
        Err(e) => return vec![format!("does not parse: {e}")],
    };
    let path = analyze(builder.schema(), &stmt, None);
    let got_error = path.error.as_ref().map(|e| e.message.clone());
    let mut problems = Vec::new();
    if got_error != case.error {
        problems.push(format!(
            "error: expected {:?}, got {got_error:?}",
            case.error
        ));
    }
    if case.error.is_none() {
        if let Some(kind) = &case.kind
            && kind_name(path.kind) != kind
        {
            problems.push(format!(
                "kind: expected {kind}, got {}",
                kind_name(path.kind)
            ));
        }
        if case.partitions.is_some() && path.partitions != case.partitions {
            problems.push(format!(
                "partitions: expected {:?}, got {:?}",
                case.partitions, path.partitions
            ));
        }
    }
    if path.warnings != case.warnings {
        problems.push(format!(
            "warnings: expected {:?}, got {:?}",
            case.warnings, path.warnings
        ));
    }
    problems
}

#[test]
fn dml_cases_match_cassandra() {
    let cases: Cases =
        toml::from_str(include_str!("data/dml_cases.toml")).expect("valid case file");
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut execution = 0;
    for case in &cases.case {
        assert!(
            matches!(
                case.confidence.as_str(),
                "S" | "S*" | "T" | "I" | "S/T" | "S*/T"
            ),
            "#{}: unknown confidence mark {}",
            case.id,
            case.confidence
        );
        assert!(
            case.error.is_some() || case.kind.is_some(),
            "#{}: a case expects an error or an access kind",
            case.id
        );
        if case.when.is_some() {
            assert_eq!(case.when.as_deref(), Some("execution"), "#{}", case.id);
            execution += 1;
        }
        if let Some(reason) = &case.skip {
            skipped.push(format!("#{}: {reason}", case.id));
            continue;
        }
        let problems = run(&cases, case);
        if !problems.is_empty() {
            failures.push(format!(
                "#{} {}\n    {}",
                case.id,
                case.cql,
                problems.join("\n    ")
            ));
        }
    }
    let total = cases.case.len();
    println!(
        "dml cases: {} passed ({execution} raised at execution), {} failed, {} skipped of {total}",
        total - failures.len() - skipped.len(),
        failures.len(),
        skipped.len()
    );
    for s in &skipped {
        println!("  skipped {s}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
