//! pg_dump-sized inputs of `design` (issue 12 and 16), with their targets:
//! - a 2,000-table `pg_dump --schema-only` loads (read into the model) in < 1 s;
//! - `design` on a 10,000-table dump with one query per table: < 10 s.
//!
//! The dump is generated in pg_dump's own layout: per table a CREATE TABLE,
//! its OWNER TO, a sequence with its OWNED BY and column default, a comment;
//! then the primary keys, the indexes and the foreign keys (each table
//! references the one before it).
//!
//! Run: `cargo bench -p cqlmodel --bench pg_dump`.

use std::time::Duration;

use cqlmodel_design::{DesignInput, design, pgread::read_model};
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "inputs/pg_dump.rs"]
mod inputs;
use inputs::{dump, queries};

fn pg_dump(c: &mut Criterion) {
    let mut group = c.benchmark_group("pg_dump");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let two_thousand = dump(2_000);
    group.bench_function("load 2,000 tables", |b| {
        b.iter(|| std::hint::black_box(read_model(&two_thousand).model.entities.len()))
    });
    let ten_thousand = dump(10_000);
    let ten_thousand_queries = queries(10_000);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("design 10,000 tables", |b| {
        b.iter(|| {
            let input = DesignInput {
                keyspace: "big",
                model_sql: &ten_thousand,
                queries_sql: Some(&ten_thousand_queries),
                stats_toml: None,
            };
            let d = design(&input).unwrap_or_else(|e| panic!("{e}"));
            std::hint::black_box(d.tables.len())
        })
    });
    group.finish();
}

criterion_group!(benches, pg_dump);
criterion_main!(benches);
