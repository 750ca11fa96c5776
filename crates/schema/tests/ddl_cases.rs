//! Cassandra 5.0's outcome for each schema statement of `tests/data/ddl_cases.toml`
//! (accepted, or the exact message and exception class, plus client warnings),
//! checked against the schema builder. All mismatches are reported at once.

use cqlmodel_schema::{ErrorClass, SchemaBuilder, Settings};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    schema: String,
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    confidence: String,
    setup: Option<String>,
    cql: String,
    error: Option<String>,
    class: Option<String>,
    #[serde(default)]
    warnings: Vec<String>,
    #[serde(default)]
    settings: CaseSettings,
    skip: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CaseSettings {
    #[serde(default)]
    materialized_views_enabled: bool,
    #[serde(default)]
    sasi_indexes_enabled: bool,
    #[serde(default)]
    drop_compact_storage_enabled: bool,
}

fn class_name(class: ErrorClass) -> &'static str {
    match class {
        ErrorClass::Syntax => "Syntax",
        ErrorClass::Invalid => "IRE",
        ErrorClass::Configuration => "CE",
        ErrorClass::AlreadyExists => "AE",
    }
}

/// Runs the setup and the statements under test; returns the problems found.
fn run(schema: &str, case: &Case) -> Vec<String> {
    let settings = Settings {
        materialized_views_enabled: case.settings.materialized_views_enabled,
        sasi_indexes_enabled: case.settings.sasi_indexes_enabled,
        drop_compact_storage_enabled: case.settings.drop_compact_storage_enabled,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    let setup = format!("{schema}\n{}", case.setup.as_deref().unwrap_or(""));
    let parsed = cqlmodel_cql::parse(&setup);
    if !parsed.errors.is_empty() {
        return vec![format!("setup does not parse: {:?}", parsed.errors)];
    }
    builder.add_statements(0, &parsed.statements);
    if !builder.errors().is_empty() {
        let messages: Vec<String> = builder.errors().iter().map(|e| e.to_string()).collect();
        return vec![format!("setup fails: {messages:?}")];
    }
    let (errors_before, warnings_before) = (builder.errors().len(), builder.warnings().len());

    let parsed = cqlmodel_cql::parse(&case.cql);
    if !parsed.errors.is_empty() {
        let messages: Vec<String> = parsed.errors.iter().map(|e| e.to_string()).collect();
        return vec![format!("does not parse: {messages:?}")];
    }
    builder.add_statements(1, &parsed.statements);
    let got: Vec<(String, &'static str)> = builder.errors()[errors_before..]
        .iter()
        .map(|e| (e.to_string(), class_name(e.class())))
        .collect();
    let got_warnings: Vec<String> = builder.warnings()[warnings_before..]
        .iter()
        .map(|w| w.to_string())
        .collect();

    let mut problems = Vec::new();
    let expected: Vec<(String, &str)> = case
        .error
        .iter()
        .map(|e| (e.clone(), case.class.as_deref().unwrap_or("?")))
        .collect();
    if got != expected {
        problems.push(format!("errors: expected {expected:?}, got {got:?}"));
    }
    if got_warnings != case.warnings {
        problems.push(format!(
            "warnings: expected {:?}, got {got_warnings:?}",
            case.warnings
        ));
    }
    problems
}

#[test]
fn ddl_cases_match_cassandra() {
    let cases: Cases =
        toml::from_str(include_str!("data/ddl_cases.toml")).expect("valid case file");
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
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
        assert_eq!(
            case.error.is_some(),
            case.class.is_some(),
            "#{}: error and class go together",
            case.id
        );
        if let Some(reason) = &case.skip {
            skipped.push(format!("#{}: {reason}", case.id));
            continue;
        }
        let problems = run(&cases.schema, case);
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
        "ddl cases: {} passed, {} failed, {} skipped of {total}",
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
