//! Benchmarks of the core commands, measured in-process:
//! - `explain`: 10,000 statements against a 1,000-table schema (parse, build, analyze);
//! - `review`: 1,000 tables and 5,000 queries through every rule;
//! - `token --hex -`: the stdin token stream, in keys per second.
//!
//! Run: `cargo bench -p cqlmodel --bench core`.

use std::hint::black_box;
use std::time::Duration;

use cqlmodel_schema::access::analyze;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "inputs/synthetic.rs"]
mod synthetic;
use synthetic::synthetic_application;

/// A schema of `n` tables in the shapes real schemas have: simple keys, composite
/// partition keys, clustering columns with mixed order, statics, collections, indexes.
fn schema(n: usize) -> String {
    let mut s = String::from(
        "CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n",
    );
    for i in 0..n {
        match i % 4 {
            0 => s.push_str(&format!(
                "CREATE TABLE app.t{i} (id uuid PRIMARY KEY, name text, email text, tags set<text>, updated timestamp);\n\
                 CREATE INDEX t{i}_email ON app.t{i} (email);\n"
            )),
            1 => s.push_str(&format!(
                "CREATE TABLE app.t{i} (tenant int, day date, ts timeuuid, kind text, payload blob, PRIMARY KEY ((tenant, day), ts)) \
                 WITH CLUSTERING ORDER BY (ts DESC) AND default_time_to_live = 86400 \
                 AND compaction = {{'class': 'TimeWindowCompactionStrategy'}};\n"
            )),
            2 => s.push_str(&format!(
                "CREATE TABLE app.t{i} (user_id bigint, a int, b text, c int, s text STATIC, v map<text, int>, \
                 PRIMARY KEY (user_id, a, b, c)) WITH CLUSTERING ORDER BY (a ASC, b DESC, c ASC);\n"
            )),
            _ => s.push_str(&format!(
                "CREATE TABLE app.t{i} (k text, c1 int, c2 int, v1 int, v2 text, PRIMARY KEY (k, c1, c2));\n\
                 CREATE CUSTOM INDEX t{i}_v1 ON app.t{i} (v1) USING 'sai';\n"
            )),
        }
    }
    s
}

/// `n` statements over the tables, valid and invalid, reads and writes.
fn queries(n: usize, tables: usize) -> String {
    let mut q = String::new();
    for i in 0..n {
        let t = i % tables;
        let stmt = match (t % 4, i % 5) {
            (0, 0) => format!("SELECT * FROM app.t{t} WHERE id = ?"),
            (0, 1) => format!("SELECT name FROM app.t{t} WHERE email = 'x@y.z'"),
            (0, 2) => format!("UPDATE app.t{t} SET name = ?, tags = tags + {{'a'}} WHERE id = ?"),
            (0, _) => format!("SELECT * FROM app.t{t} WHERE name = ?"),
            (1, 0) => format!(
                "SELECT * FROM app.t{t} WHERE tenant = ? AND day IN (?, ?) AND ts > ? ORDER BY ts ASC LIMIT 100"
            ),
            (1, 1) => format!(
                "INSERT INTO app.t{t} (tenant, day, ts, kind, payload) VALUES (?, ?, now(), ?, ?) USING TTL 3600"
            ),
            (1, _) => format!("SELECT * FROM app.t{t} WHERE kind = 'x' ALLOW FILTERING"),
            (2, 0) => format!("SELECT * FROM app.t{t} WHERE user_id = ? AND a = 1 AND b > 'x'"),
            (2, 1) => format!("SELECT * FROM app.t{t} WHERE user_id = ? AND b = 'x'"),
            (2, 2) => format!("DELETE FROM app.t{t} WHERE user_id = ? AND a = 1 AND b > 'q'"),
            (2, _) => format!(
                "SELECT user_id, count(*) FROM app.t{t} WHERE user_id IN (1, 2, 3) GROUP BY user_id"
            ),
            (_, 0) => format!("SELECT * FROM app.t{t} WHERE k = ? AND (c1, c2) > (1, 2)"),
            (_, 1) => format!("SELECT * FROM app.t{t} WHERE v1 > 10 AND v1 < 20"),
            (_, 2) => format!(
                "BEGIN BATCH INSERT INTO app.t{t} (k, c1, c2, v1) VALUES ('a', 1, 2, 3); UPDATE app.t{t} SET v2 = 'x' WHERE k = 'a' AND c1 = 1 AND c2 = 2; APPLY BATCH"
            ),
            (_, _) => format!("SELECT * FROM app.t{t} WHERE token(k) > ? LIMIT 1000"),
        };
        q.push_str(&stmt);
        q.push_str(";\n");
    }
    q
}

fn explain(c: &mut Criterion) {
    let schema_text = schema(1_000);
    let query_text = queries(10_000, 1_000);
    let mut group = c.benchmark_group("explain");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("10k queries x 1k tables (parse + build + analyze)", |b| {
        b.iter(|| {
            let parsed = cqlmodel_cql::parse(black_box(&schema_text));
            let build = cqlmodel_schema::build_schema(0, &parsed.statements);
            let queries = cqlmodel_cql::parse(black_box(&query_text));
            let mut invalid = 0usize;
            for stmt in &queries.statements {
                if analyze(&build.schema, stmt, None).error.is_some() {
                    invalid += 1;
                }
            }
            black_box(invalid)
        })
    });
    group.finish();
}

fn review(c: &mut Criterion) {
    let schema_text = schema(1_000);
    let query_text = queries(5_000, 1_000);
    let mut group = c.benchmark_group("review");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function(
        "1k tables, 5k queries (parse + build + analyze + every rule)",
        |b| {
            b.iter(|| {
                let mut sources = cqlmodel_diagnostics::SourceMap::new();
                let schema_file = sources.add(cqlmodel_diagnostics::SourceFile::new(
                    "schema.cql",
                    schema_text.clone(),
                ));
                let query_file = sources.add(cqlmodel_diagnostics::SourceFile::new(
                    "queries.cql",
                    query_text.clone(),
                ));
                let parsed = cqlmodel_cql::parse(black_box(&schema_text));
                let build = cqlmodel_schema::build_schema(schema_file, &parsed.statements);
                let parsed_queries = cqlmodel_cql::parse(black_box(&query_text));
                let (queries, _) = cqlmodel_review::load_queries(
                    &build.schema,
                    query_file,
                    &parsed_queries,
                    None,
                    1,
                );
                let input = cqlmodel_review::ReviewInput {
                    schema: &build.schema,
                    queries: &queries,
                    sources: &sources,
                    suppressions: &[],
                    has_queries: true,
                    stats: None,
                };
                black_box(
                    cqlmodel_review::review(&input, &cqlmodel_review::Config::default()).len(),
                )
            })
        },
    );
    group.finish();
}

fn token_stream(c: &mut Criterion) {
    const KEYS: usize = 1_000_000;
    let mut input = Vec::with_capacity(KEYS * 33);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..KEYS {
        for _ in 0..2 {
            // splitmix64: reproducible pseudo-random key bytes
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            input.extend_from_slice(format!("{z:016x}").as_bytes());
        }
        input.push(b'\n');
    }
    let mut group = c.benchmark_group("token --hex -");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(KEYS as u64));
    group.bench_function("1M 16-byte keys, hex lines in, decimal tokens out", |b| {
        let mut out = Vec::with_capacity(KEYS * 21);
        b.iter(|| {
            out.clear();
            let n = cqlmodel_cli::token::hex_stream(black_box(input.as_slice()), &mut out);
            black_box(n.ok())
        })
    });
    group.finish();
}

/// The largest example model (video: 17 entities, 38 reads, 24 mutations, with
/// statistics) designed in process: parse, derive, merge, size, write paths.
fn design(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/design/video/");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}{f}")).unwrap_or_default();
    let (model, queries, stats) = (read("model.sql"), read("queries.sql"), read("stats.toml"));
    let mut group = c.benchmark_group("design");
    group.bench_function(
        "video example (17 entities, 62 statements, statistics)",
        |b| {
            b.iter(|| {
                let input = cqlmodel_design::DesignInput {
                    keyspace: "video",
                    model_sql: black_box(&model),
                    queries_sql: Some(&queries),
                    stats_toml: Some(&stats),
                };
                black_box(cqlmodel_design::design(&input).map(|d| d.tables.len()))
            })
        },
    );
    let (model, queries) = synthetic_application(200);
    group.sample_size(10);
    group.bench_function("synthetic application (200 tables, 1000 statements)", |b| {
        b.iter(|| {
            let input = cqlmodel_design::DesignInput {
                keyspace: "large",
                model_sql: black_box(&model),
                queries_sql: Some(&queries),
                stats_toml: None,
            };
            black_box(cqlmodel_design::design(&input).map(|d| d.tables.len()))
        })
    });
    group.finish();
}

criterion_group!(benches, explain, review, token_stream, design);
criterion_main!(benches);
