//! `cargo +nightly fuzz run nodetool`: the nodetool readers (tablestats text,
//! JSON, YAML, tablehistograms, status, node headers) never panic; every problem
//! they report points at a line of the input; and the diagnosis of whatever they
//! read, with a schema that matches nothing or a table, never panics either.
#![no_main]

use libfuzzer_sys::fuzz_target;

const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE ks.t (k text, c timestamp, v blob, PRIMARY KEY (k, c));";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cqlmodel_diagnose::parse_input(0, "fuzz", text);
    let lines = text.lines().count().max(1);
    for p in &parsed.problems {
        assert!(p.line >= 1 && p.line <= lines + 1, "line {} of {lines}", p.line);
    }
    let cql = cqlmodel_cql::parse(SCHEMA);
    let schema = cqlmodel_schema::build_schema(1, &cql.statements).schema;
    let input = cqlmodel_diagnose::DiagnoseInput {
        stats: &parsed.stats,
        histograms: &parsed.histograms,
        status: &parsed.status,
        schema: Some(&schema),
        thresholds: cqlmodel_stats::Thresholds::default(),
        data_age: Some(86_400),
    };
    let _ = cqlmodel_diagnose::diagnose(&input);
});
