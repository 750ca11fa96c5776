//! The large inputs of issue 16 at the library level (parse, build the schema,
//! analyze every statement), without the CLI's file reading and rendering:
//! - 100,000 queries against 1,000 tables: < 2 s;
//! - 10,000 `ALTER TABLE … ADD` on one table: < 1 s;
//! - `IN` with 100,000 values, a 100,000-statement BATCH, a 10 MB single line:
//!   linear (each was quadratic once).
//!
//! Run: `cargo bench -p cqlmodel-schema --bench large_inputs`.

use std::hint::black_box;
use std::time::Duration;

use cqlmodel_schema::access::analyze;
use cqlmodel_schema::{Schema, build_schema};
use criterion::{Criterion, criterion_group, criterion_main};

const KEYSPACE: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";

fn tables(n: usize) -> String {
    let mut s = KEYSPACE.to_string();
    for i in 0..n {
        s.push_str(&format!(
            "CREATE TABLE ks.t{i} (k int, c int, v text, PRIMARY KEY (k, c));\n"
        ));
    }
    s
}

fn schema_of(ddl: &str) -> Schema {
    let parsed = cqlmodel_cql::parse(ddl);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors.first());
    let build = build_schema(0, &parsed.statements);
    assert!(build.errors.is_empty(), "{:?}", build.errors.first());
    build.schema
}

/// Parses `queries` and analyzes each statement; the number of valid ones.
fn explain(schema: &Schema, queries: &str) -> usize {
    let parsed = cqlmodel_cql::parse(queries);
    parsed
        .statements
        .iter()
        .filter(|s| analyze(schema, s, None).error.is_none())
        .count()
}

fn large_inputs(c: &mut Criterion) {
    let schema = schema_of(&tables(1_000));
    let mut group = c.benchmark_group("large_inputs");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));

    let many: String = (0..100_000)
        .map(|i| {
            format!(
                "-- @name q{i}\nSELECT * FROM ks.t{} WHERE k = ? AND c > ?;\n",
                i % 1_000
            )
        })
        .collect();
    assert_eq!(explain(&schema, &many), 100_000);
    group.bench_function("explain 100k queries x 1k tables", |b| {
        b.iter(|| black_box(explain(&schema, &many)))
    });

    let mut alters = KEYSPACE.to_string() + "CREATE TABLE ks.wide (k int PRIMARY KEY);\n";
    for i in 0..10_000 {
        alters.push_str(&format!("ALTER TABLE ks.wide ADD c{i} int;\n"));
    }
    assert_eq!(
        schema_of(&alters)
            .table("ks", "wide")
            .map(|t| t.columns.len()),
        Some(10_001)
    );
    group.bench_function("10k ALTER TABLE ADD", |b| {
        b.iter(|| black_box(schema_of(&alters)))
    });

    let values: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let in_list = format!("SELECT * FROM ks.t0 WHERE k IN ({});", values.join(", "));
    assert_eq!(explain(&schema, &in_list), 1);
    group.bench_function("IN with 100k values", |b| {
        b.iter(|| black_box(explain(&schema, &in_list)))
    });

    let mut batch = String::from("BEGIN UNLOGGED BATCH\n");
    for i in 0..100_000 {
        batch.push_str(&format!(
            "INSERT INTO ks.t{} (k, c, v) VALUES ({i}, 1, 'x');\n",
            i % 1_000
        ));
    }
    batch.push_str("APPLY BATCH;\n");
    assert_eq!(explain(&schema, &batch), 1);
    group.bench_function("BATCH of 100k statements", |b| {
        b.iter(|| black_box(explain(&schema, &batch)))
    });

    let mut line = String::new();
    while line.len() < 10_000_000 {
        line.push_str("SELECT * FROM ks.t1 WHERE k = 1 AND c = 2; ");
    }
    group.bench_function("10 MB single line", |b| {
        b.iter(|| black_box(explain(&schema, &line)))
    });
    group.finish();
}

criterion_group!(benches, large_inputs);
criterion_main!(benches);
