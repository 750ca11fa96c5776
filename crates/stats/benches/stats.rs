//! Key sampling throughput (draw + serialize + Murmur3 + place on a ring) and the
//! size estimation of a 1,000-table schema. Run with
//! `cargo bench -p cqlmodel-stats --bench stats -- --warm-up-time 1 --measurement-time 3`.

use std::fmt::Write;
use std::hint::black_box;

use cqlmodel_schema::Schema;
use cqlmodel_stats::{KeySampler, Stats, estimate_all, load_stats};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn schema(cql: &str) -> Schema {
    cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(cql).statements).schema
}

const KEYS: usize = 1 << 20;

/// A ring of 256 vnode tokens (16 nodes × 16 vnodes, seeded random positions as
/// Cassandra assigns them without the allocator), with an O(1) placement: a table
/// indexed by the token's top 16 bits gives the first vnode at or after the start
/// of that slice of the ring, and a short scan finishes.
struct Ring {
    tokens: Vec<i64>,
    first: Vec<u16>,
}

impl Ring {
    fn new() -> Self {
        let mut rng = cqlmodel_stats::rng::Rng::new(99);
        let mut tokens: Vec<i64> = (0..256).map(|_| rng.next_u64() as i64).collect();
        tokens.sort_unstable();
        let first = (0..1u32 << 16)
            .map(|slice| {
                let start = ((u64::from(slice) << 48) ^ (1 << 63)) as i64;
                tokens.partition_point(|t| *t < start) as u16
            })
            .collect();
        Ring { tokens, first }
    }

    /// The vnode owning `token`: the first vnode token >= it (wrapping to 0).
    #[inline(always)]
    fn place(&self, token: i64) -> usize {
        let slice = ((token as u64) ^ (1 << 63)) >> 48;
        let mut at = self.first.get(slice as usize).copied().unwrap_or(0) as usize;
        while self.tokens.get(at).is_some_and(|t| *t < token) {
            at += 1;
        }
        at & 255
    }
}

fn sampling(c: &mut Criterion) {
    let cases = [
        (
            "bigint_sequential",
            "CREATE TABLE ks.t (k bigint, c int, v int, PRIMARY KEY (k, c));",
            "[table.t]\nrows = 1e9\n[table.t.column.k]\ndistinct = 1e8\ndistribution = \"sequential\"\n",
        ),
        (
            "text_zipf",
            "CREATE TABLE ks.t (k text, c int, v int, PRIMARY KEY (k, c));",
            "[table.t]\nrows = 1e9\n[table.t.column.k]\ndistinct = 1e6\ndistribution = \"zipf(1.1)\"\n",
        ),
        (
            "text_and_day_bucket",
            "CREATE TABLE ks.t (k text, day date, ts timestamp, v int, PRIMARY KEY ((k, day), ts));",
            "[table.t]\nrows_per_second = 10000\nretention = \"30d\"\n[table.t.column.k]\ndistinct = 10000\n",
        ),
    ];
    let ring = Ring::new();
    let mut group = c.benchmark_group("sample_hash_place");
    group.throughput(Throughput::Elements(KEYS as u64));
    for (name, ddl, toml) in cases {
        let s = schema(&format!(
            "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}; {ddl}"
        ));
        let stats = load_stats(toml, &s).unwrap_or_default();
        let Some(table) = s.table("ks", "t") else {
            continue;
        };
        let Some(ts) = stats.tables.get("ks.t") else {
            continue;
        };
        let Ok(mut sampler) = KeySampler::new(table, ts, 1) else {
            continue;
        };
        group.bench_function(format!("{name}/hash_only"), |b| {
            b.iter(|| {
                let mut sum = 0i64;
                sampler.for_each(KEYS, |token, _, _| sum = sum.wrapping_add(token.0));
                black_box(sum)
            })
        });
        group.bench_function(format!("{name}/placed"), |b| {
            b.iter(|| {
                let mut owners = [0u32; 256];
                sampler.for_each(KEYS, |token, _, _| {
                    if let Some(o) = owners.get_mut(ring.place(token.0)) {
                        *o += 1;
                    }
                });
                black_box(owners)
            })
        });
    }
    group.finish();
}

/// 1,000 tables of four shapes: fixed, growing, bucketed with TTL, Zipf-skewed.
fn thousand_tables() -> (Schema, Stats) {
    let mut cql = String::from(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n",
    );
    let mut toml = String::new();
    for i in 0..1000 {
        let _ = match i % 4 {
            0 => writeln!(
                cql,
                "CREATE TABLE ks.t{i} (k uuid, c int, name text, v bigint, PRIMARY KEY (k, c));"
            ),
            1 => writeln!(
                cql,
                "CREATE TABLE ks.t{i} (k text, ts timestamp, v double, PRIMARY KEY (k, ts));"
            ),
            2 => writeln!(
                cql,
                "CREATE TABLE ks.t{i} (k text, day date, ts timestamp, v double, PRIMARY KEY ((k, day), ts)) WITH default_time_to_live = 2592000;"
            ),
            _ => writeln!(
                cql,
                "CREATE TABLE ks.t{i} (k text, o text, amount decimal, PRIMARY KEY (k, o));"
            ),
        };
        let _ = match i % 4 {
            0 => writeln!(
                toml,
                "[table.t{i}]\nrows = 1e8\n[table.t{i}.column.k]\ndistinct = 1e6\n"
            ),
            1 | 2 => writeln!(
                toml,
                "[table.t{i}]\nrows_per_second = 1000\n[table.t{i}.column.k]\ndistinct = 5000\n"
            ),
            _ => writeln!(
                toml,
                "[table.t{i}]\nrows = 5e7\n[table.t{i}.column.k]\ndistinct = 1e6\ndistribution = \"zipf(1.{})\"\n",
                i % 10
            ),
        };
    }
    let s = schema(&cql);
    let stats = load_stats(&toml, &s).unwrap_or_default();
    assert_eq!(stats.tables.len(), 1000, "every table must have loaded");
    (s, stats)
}

fn estimation(c: &mut Criterion) {
    let (s, stats) = thousand_tables();
    c.bench_function("estimate_1000_tables", |b| {
        b.iter(|| black_box(estimate_all(&s, &stats)))
    });
    c.bench_function("load_and_estimate_1000_tables", |b| {
        let mut toml = String::new();
        for name in stats.tables.keys() {
            let _ = writeln!(toml, "[table.\"{name}\"]\nrows = 1e6\n");
        }
        b.iter(|| {
            let loaded = load_stats(&toml, &s).unwrap_or_default();
            black_box(estimate_all(&s, &loaded))
        })
    });
}

criterion_group!(benches, sampling, estimation);
criterion_main!(benches);
