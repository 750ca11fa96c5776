//! The review at scale (issue 11): 10,000 tables and 50,000 queries must be
//! reviewed in under 2 s on one core. Run in release, by hand:
//! `cargo test --release -p cqlmodel-review --test scale -- --ignored --nocapture`.

use std::time::Instant;

use cqlmodel_diagnostics::{SourceFile, SourceMap};
use cqlmodel_review::{Config, ReviewInput, load_queries, review};
use cqlmodel_schema::SchemaBuilder;

mod scale_support;

use scale_support::{QUERIES_PER_TABLE, queries, schema, tables};

#[test]
#[ignore = "a benchmark: run in release by hand"]
fn ten_thousand_tables_and_fifty_thousand_queries() {
    let schema_text = schema();
    let query_text = queries();
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("big.cql", schema_text.as_str()));
    let query_file = sources.add(SourceFile::new("big-queries.cql", query_text.as_str()));

    let started = Instant::now();
    let parsed = cqlmodel_cql::parse(&schema_text);
    let mut builder = SchemaBuilder::new();
    builder.add_statements(schema_file, &parsed.statements);
    let schema = builder.finish().schema;
    let built = started.elapsed();
    let parsed_queries = cqlmodel_cql::parse(&query_text);
    let (queries, _) = load_queries(&schema, query_file, &parsed_queries, Some("big"), 1);
    let loaded = started.elapsed();
    assert_eq!(queries.len(), tables() * QUERIES_PER_TABLE);

    let started = Instant::now();
    let input = ReviewInput {
        schema: &schema,
        queries: &queries,
        sources: &sources,
        suppressions: &[],
        has_queries: true,
        stats: None,
    };
    let findings = review(&input, &Config::default());
    let reviewed = started.elapsed();
    println!(
        "{} tables, {} queries: schema parsed and built in {:.2} s, loaded with the queries in {:.2} s, reviewed in {:.2} s, {} findings",
        schema.tables().count(),
        queries.len(),
        built.as_secs_f64(),
        loaded.as_secs_f64(),
        reviewed.as_secs_f64(),
        findings.len()
    );
    assert!(
        (loaded + reviewed).as_secs_f64() < 2.0,
        "review of 10k tables and 50k queries took {:.2} s (target 2 s)",
        (loaded + reviewed).as_secs_f64()
    );
}
