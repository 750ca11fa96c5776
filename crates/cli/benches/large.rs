//! The large inputs of issue 16, through the command's own loaders (files read,
//! parsed, schema built, queries loaded and analyzed), with their targets:
//! - explain 100,000 queries against 1,000 tables: < 2 s;
//! - 10,000 `ALTER TABLE … ADD` on one table: < 1 s;
//! - `IN` with 100,000 values, a 100,000-statement BATCH, a 10 MB single line:
//!   linear (each was > 20 s when quadratic); the single line is also run at
//!   5 and 20 MB to show it.
//!
//! Run: `cargo bench -p cqlmodel --bench large`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cqlmodel_cli::explain::{Queries, explain};
use criterion::{Criterion, criterion_group, criterion_main};

const KEYSPACE: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

fn tables(n: usize) -> String {
    let mut s = KEYSPACE.to_string();
    for i in 0..n {
        s.push_str(&format!(
            "CREATE TABLE ks.t{i} (k int, c int, v text, PRIMARY KEY (k, c));\n"
        ));
    }
    s
}

fn run(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    schema: &Path,
    queries: &Queries,
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            let report =
                explain(&[schema.to_path_buf()], queries, None).unwrap_or_else(|e| panic!("{e}"));
            std::hint::black_box(report.explained.len())
        })
    });
}

fn large(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = tmp.path();
    let schema = write(dir, "schema.cql", &tables(1_000));
    let mut group = c.benchmark_group("large");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));

    let many: String = (0..100_000)
        .map(|i| {
            format!(
                "-- @name q{i}\nSELECT * FROM ks.t{} WHERE k = ? AND c > ?;\n",
                i % 1_000
            )
        })
        .collect();
    let many = Queries::File(write(dir, "many.cql", &many));
    run(
        &mut group,
        "explain 100k queries x 1k tables",
        &schema,
        &many,
    );

    let mut alters = KEYSPACE.to_string() + "CREATE TABLE ks.wide (k int PRIMARY KEY);\n";
    for i in 0..10_000 {
        alters.push_str(&format!("ALTER TABLE ks.wide ADD c{i} int;\n"));
    }
    let alters_schema = write(dir, "alters.cql", &alters);
    let one = Queries::Inline("SELECT * FROM ks.wide WHERE k = 1".into());
    run(&mut group, "10k ALTER TABLE ADD", &alters_schema, &one);

    let values: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let in_list = Queries::Inline(format!(
        "SELECT * FROM ks.t0 WHERE k IN ({})",
        values.join(", ")
    ));
    run(&mut group, "IN with 100k values", &schema, &in_list);

    let mut batch = String::from("BEGIN UNLOGGED BATCH\n");
    for i in 0..100_000 {
        batch.push_str(&format!(
            "INSERT INTO ks.t{} (k, c, v) VALUES ({i}, 1, 'x');\n",
            i % 1_000
        ));
    }
    batch.push_str("APPLY BATCH;\n");
    let batch = Queries::File(write(dir, "batch.cql", &batch));
    run(&mut group, "BATCH of 100k statements", &schema, &batch);

    // 5, 10 and 20 MB: linear when each doubling doubles the time.
    for megabytes in [5, 10, 20] {
        let mut line = String::new();
        while line.len() < megabytes * 1_000_000 {
            line.push_str("SELECT * FROM ks.t1 WHERE k = 1 AND c = 2; ");
        }
        let line = Queries::File(write(dir, &format!("line{megabytes}.cql"), &line));
        run(
            &mut group,
            &format!("{megabytes} MB single line"),
            &schema,
            &line,
        );
    }
    group.finish();
}

criterion_group!(benches, large);
criterion_main!(benches);
