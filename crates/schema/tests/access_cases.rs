//! Cassandra's outcome for each SELECT of `tests/data/select_cases.toml`
//! (kind, partitions, ALLOW FILTERING, index, reversal, or the exact message),
//! checked against our access-path analysis. All mismatches are reported at once.

use cqlmodel_schema::access::{AccessKind, analyze};
use cqlmodel_schema::build_schema;
use serde::Deserialize;

#[derive(Deserialize)]
struct Cases {
    schema: String,
    index: String,
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: u32,
    index: bool,
    query: String,
    error: Option<String>,
    kind: Option<String>,
    partitions: Option<u64>,
    needs_allow_filtering: Option<bool>,
    reversed: Option<bool>,
    index_used: Option<String>,
    /// Cassandra's client warnings; none when omitted.
    #[serde(default)]
    warnings: Vec<String>,
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::SinglePartition => "single-partition",
        AccessKind::MultiPartition => "multi-partition",
        AccessKind::RangeScan => "range-scan",
        AccessKind::Invalid => "invalid",
    }
}

#[test]
fn select_cases_match_cassandra() {
    let text = include_str!("data/select_cases.toml");
    let cases: Cases = toml::from_str(text).expect("valid case file");
    let plain = cqlmodel_cql::parse(&cases.schema);
    assert!(plain.errors.is_empty(), "{:?}", plain.errors);
    let with_index = cqlmodel_cql::parse(&format!("{}\n{}", cases.schema, cases.index));
    let schema_plain = build_schema(0, &plain.statements);
    let schema_index = build_schema(0, &with_index.statements);
    assert!(schema_plain.errors.is_empty(), "{:?}", schema_plain.errors);
    assert!(schema_index.errors.is_empty(), "{:?}", schema_index.errors);

    let mut failures = Vec::new();
    for case in &cases.case {
        let schema = if case.index {
            &schema_index.schema
        } else {
            &schema_plain.schema
        };
        let stmt = match cqlmodel_cql::parse_statement(&case.query) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("#{}: does not parse: {e}", case.id));
                continue;
            }
        };
        let path = analyze(schema, &stmt, None);
        let got_error = path.error.as_ref().map(|e| e.message.clone());
        let mut problems = Vec::new();
        if got_error != case.error {
            problems.push(format!(
                "error: expected {:?}, got {:?}",
                case.error, got_error
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
            if let Some(af) = case.needs_allow_filtering
                && af != path.needs_allow_filtering
            {
                problems.push(format!(
                    "needs_allow_filtering: expected {af}, got {}",
                    path.needs_allow_filtering
                ));
            }
            if let Some(rev) = case.reversed
                && rev != path.reversed
            {
                problems.push(format!("reversed: expected {rev}, got {}", path.reversed));
            }
            if case.warnings != path.warnings {
                problems.push(format!(
                    "warnings: expected {:?}, got {:?}",
                    case.warnings, path.warnings
                ));
            }
            if case.index_used != path.index {
                problems.push(format!(
                    "index: expected {:?}, got {:?}",
                    case.index_used, path.index
                ));
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "#{} {}\n    {}",
                case.id,
                case.query,
                problems.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.case.len(),
        failures.join("\n")
    );
}
