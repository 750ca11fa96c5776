//! SARIF output checked against the official OASIS schema and GitHub's rules.

use cqlmodel_diagnostics::{
    Diagnostic, Fix, RuleMeta, Severity, SourceFile, SourceMap, render_sarif,
};
use serde_json::Value;

const SCHEMA: &str = include_str!("data/sarif-schema-2.1.0.json");

fn span_of(text: &str, needle: &str) -> std::ops::Range<usize> {
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    start..start + needle.len()
}

fn rules() -> Vec<RuleMeta> {
    vec![
        RuleMeta {
            code: "CQL001".into(),
            name: "allow-filtering".into(),
            short: "Query needs ALLOW FILTERING".into(),
            full: "The query filters on a column that is not part of the primary key.".into(),
            default_severity: Severity::Warning,
            help_uri: Some("https://example.invalid/rules/CQL001".into()),
        },
        RuleMeta {
            code: "CQL020".into(),
            name: "unused-table".into(),
            short: "Table is never queried".into(),
            full: "No query reads the table.".into(),
            default_severity: Severity::Info,
            help_uri: None,
        },
    ]
}

/// A log exercising every branch: described and undescribed rules, secondary
/// labels, a file-less diagnostic, odd paths and out-of-range spans.
fn sample_log() -> Value {
    let mut sources = SourceMap::new();
    let queries = "SELECT * FROM ks.t\r\nWHERE v = 'é' ALLOW FILTERING;\r\n";
    let q = sources.add(SourceFile::new(r".\queries\by v.cql", queries));
    let schema = sources.add(SourceFile::new(
        "/abs/schema.cql",
        "CREATE TABLE ks.t (k int",
    ));
    let filtering = span_of(queries, "WHERE v = 'é' ALLOW FILTERING");
    let diags = vec![
        Diagnostic::warning("CQL001", "query filters on `v`")
            .with_name("allow-filtering")
            .with_file(q)
            .with_primary(filtering.clone(), "scans every partition")
            .with_secondary(span_of(queries, "ks.t"), "table")
            .with_note("`v` is a regular column")
            .with_help("add a table keyed by `v`")
            .with_fix(Fix::new("create ks.t_by_v"))
            .with_table("ks.t")
            .with_query("by_v"),
        Diagnostic::warning("CQL001", "query filters on `v`")
            .with_file(q)
            .with_primary(filtering, "the same finding again")
            .with_table("ks.t")
            .with_query("by_v"),
        Diagnostic::error("parse-error", "unexpected end of input")
            .with_file(schema)
            .with_primary(500..600, "expected `)`"),
        Diagnostic::warning("CQL002", "file-level finding").with_file(q),
        Diagnostic::info("CQL020", "table has no queries").with_table("ks.audit"),
    ];
    render_sarif(&diags, &sources, "1.2.3", &rules())
}

/// The schema as published (draft 4), and the same schema read as draft 7:
/// draft 4 knows no `uri-reference` format, so only the second checks
/// `artifactLocation.uri`. The schema uses no keyword whose meaning changed
/// between the two drafts (`exclusiveMinimum`, `exclusiveMaximum`).
fn validators() -> Vec<jsonschema::Validator> {
    let schema: Value = match serde_json::from_str(SCHEMA) {
        Ok(schema) => schema,
        Err(err) => panic!("vendored schema is not JSON: {err}"),
    };
    assert!(!SCHEMA.contains("exclusiveM"));
    [jsonschema::Draft::Draft4, jsonschema::Draft::Draft7]
        .into_iter()
        .map(|draft| {
            let built = jsonschema::options()
                .with_draft(draft)
                .should_validate_formats(true)
                .build(&schema);
            match built {
                Ok(validator) => validator,
                Err(err) => panic!("vendored schema does not compile as {draft:?}: {err}"),
            }
        })
        .collect()
}

#[test]
fn output_validates_against_the_sarif_2_1_0_schema() {
    let log = sample_log();
    for validator in validators() {
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

#[test]
fn the_schema_check_rejects_invalid_logs() {
    let validators = validators();
    let mut bad_level = sample_log();
    bad_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(validators.iter().all(|v| !v.is_valid(&bad_level)));
    let mut bad_uri = sample_log();
    bad_uri["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "my dir/a.cql".into();
    assert!(validators.iter().any(|v| !v.is_valid(&bad_uri)));
}

#[test]
fn every_result_has_a_location_and_a_matching_rule_index() {
    let log = sample_log();
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let results = run["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), 4);
    for result in &results {
        let index = result["ruleIndex"].as_u64().unwrap_or(u64::MAX);
        let rule = usize::try_from(index).ok().and_then(|i| rules.get(i));
        assert_eq!(rule.map(|r| &r["id"]), Some(&result["ruleId"]), "{result}");
        assert!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string());
    }
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["CQL001", "CQL020", "parse-error", "CQL002"]);
}

#[test]
fn results_carry_github_friendly_locations() {
    let log = sample_log();
    let results = &log["runs"][0]["results"];
    let first = &results[0];
    assert_eq!(first["level"], "warning");
    let artifact = &first["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "queries/by%20v.cql");
    assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    let region = &first["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        [
            &region["startLine"],
            &region["startColumn"],
            &region["endLine"],
            &region["endColumn"]
        ],
        [2, 1, 2, 30]
    );
    assert_eq!(first["relatedLocations"][0]["message"]["text"], "table");
    assert_eq!(first["properties"]["table"], "ks.t");
    assert!(
        first["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("help: add a table"))
    );

    let absolute = &results[2]["locations"][0]["physicalLocation"];
    assert_eq!(
        absolute["artifactLocation"]["uri"],
        "file:///abs/schema.cql"
    );
    assert!(absolute["artifactLocation"]["uriBaseId"].is_null());
    assert_eq!(absolute["region"]["startColumn"], 25);
    assert_eq!(results[2]["level"], "error");

    let file_level = &results[3]["locations"][0]["physicalLocation"];
    assert!(file_level["region"].is_null());
}

#[test]
fn fingerprints_ignore_positions_but_tell_duplicates_apart() {
    let log = sample_log();
    let print =
        |i: usize| log["runs"][0]["results"][i]["partialFingerprints"]["cqlmodel/v1"].clone();
    let (a, b) = (print(0), print(1));
    let (a, b) = (a.as_str().unwrap_or(""), b.as_str().unwrap_or(""));
    assert_eq!(a.split(':').next(), b.split(':').next());
    assert!(a.ends_with(":1") && b.ends_with(":2"), "{a} {b}");

    // Moving the finding down a line keeps its fingerprint.
    let fingerprint = |text: &str, start: usize| {
        let mut sources = SourceMap::new();
        let file = sources.add(SourceFile::new("q.cql", text));
        let diag = Diagnostic::warning("CQL001", "m")
            .with_file(file)
            .with_primary(start..start + 5, "");
        render_sarif(&[diag], &sources, "1", &[])["runs"][0]["results"][0]["partialFingerprints"]
            .clone()
    };
    assert_eq!(fingerprint("WHERE", 0), fingerprint("\n\nWHERE", 2));
    assert_ne!(fingerprint("WHERE", 0), fingerprint("ORDER", 0));
}

#[test]
fn file_less_diagnostics_become_notifications() {
    let log = sample_log();
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    let notes = &invocation["toolExecutionNotifications"];
    assert_eq!(notes.as_array().map(Vec::len), Some(1));
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(notes[0]["associatedRule"]["id"], "CQL020");
    assert_eq!(notes[0]["associatedRule"]["index"], 1);

    let failed = render_sarif(
        &[Diagnostic::error("io", "cannot read x.cql")],
        &SourceMap::new(),
        "1",
        &[],
    );
    assert_eq!(
        failed["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
    assert_eq!(failed["runs"][0]["results"], Value::Array(vec![]));
}

#[test]
fn driver_describes_the_tool_and_its_rules() {
    let log = sample_log();
    assert_eq!(log["version"], "2.1.0");
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "cqlmodel");
    assert_eq!(driver["version"], "1.2.3");
    let rule = &driver["rules"][0];
    assert_eq!(rule["name"], "allow-filtering");
    assert_eq!(
        rule["shortDescription"]["text"],
        "Query needs ALLOW FILTERING"
    );
    assert_eq!(rule["helpUri"], "https://example.invalid/rules/CQL001");
    assert_eq!(rule["defaultConfiguration"]["level"], "warning");
    assert_eq!(driver["rules"][1]["defaultConfiguration"]["level"], "note");
    assert!(driver["rules"][1]["helpUri"].is_null());
}

static VALIDATORS: std::sync::LazyLock<Vec<jsonschema::Validator>> =
    std::sync::LazyLock::new(validators);

proptest::proptest! {
    #[test]
    fn any_input_gives_a_valid_log(
        name in "(\\.\\./|\\./|[a-zA-Z]:\\\\|/)?[a-zé :%#?\\\\/]{1,12}",
        text in "(\\PC|\t|\r\n|\n){0,30}",
        start in 0usize..100,
        end in 0usize..100,
        severity in proptest::sample::select(vec![Severity::Info, Severity::Warning, Severity::Error]),
        with_file in proptest::bool::ANY,
    ) {
        let mut sources = SourceMap::new();
        let file = sources.add(SourceFile::new(name, text));
        let mut diag = Diagnostic::new(severity, "X1", "m")
            .with_primary(start..end, "p")
            .with_secondary(end..start, "s");
        if with_file {
            diag = diag.with_file(file);
        }
        let log = render_sarif(&[diag], &sources, "0.0.0", &rules());
        for validator in VALIDATORS.iter() {
            let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
            proptest::prop_assert!(errors.is_empty(), "{errors:?} in {log}");
        }
    }
}
