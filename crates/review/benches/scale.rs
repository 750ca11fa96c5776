//! The review at scale (issue 11): the rules over 10,000 tables and 50,000
//! queries, target < 2 s on one core for loading the queries and reviewing.
//! `cargo bench -p cqlmodel-review --bench scale` (`SCALE_TABLES=2000` for a
//! smaller instance). The schema is parsed and built once, outside the timing.

use std::hint::black_box;
use std::time::Duration;

use cqlmodel_diagnostics::{SourceFile, SourceMap};
use cqlmodel_review::{Config, ReviewInput, load_queries, review};
use cqlmodel_schema::SchemaBuilder;
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../tests/scale_support/mod.rs"]
mod scale_support;

fn scale(c: &mut Criterion) {
    let schema_text = scale_support::schema();
    let query_text = scale_support::queries();
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("big.cql", schema_text.as_str()));
    let query_file = sources.add(SourceFile::new("big-queries.cql", query_text.as_str()));
    let parsed = cqlmodel_cql::parse(&schema_text);
    let mut builder = SchemaBuilder::new();
    builder.add_statements(schema_file, &parsed.statements);
    let schema = builder.finish().schema;
    let parsed_queries = cqlmodel_cql::parse(&query_text);

    let mut group = c.benchmark_group("review-scale");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("load queries and review", |b| {
        b.iter(|| {
            let (queries, _) = load_queries(&schema, query_file, &parsed_queries, Some("big"), 1);
            let input = ReviewInput {
                schema: &schema,
                queries: &queries,
                sources: &sources,
                suppressions: &[],
                has_queries: true,
                stats: None,
            };
            black_box(review(&input, &Config::default()).len())
        })
    });
    group.finish();
}

criterion_group!(benches, scale);
criterion_main!(benches);
