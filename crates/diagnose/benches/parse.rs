//! Parsing `nodetool tablestats` of 5,000 tables on each of 12 nodes (the
//! Cassandra 5.0 text form, ~50 lines a table, 12 inputs of ~9 MB), and the same
//! as `-F json`; then the analysis of what was read. Run with
//! `cargo bench -p cqlmodel-diagnose --bench parse -- --warm-up-time 1 --measurement-time 5`.

use std::hint::black_box;

use cqlmodel_diagnose::{DiagnoseInput, diagnose, parse_input};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "generate.rs"]
mod generate;

use generate::{NODES, TABLES, text};

fn bench(c: &mut Criterion) {
    let inputs: Vec<String> = (0..NODES).map(text).collect();
    let bytes: usize = inputs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("tablestats");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("parse 5000 tables x 12 nodes (text)", |b| {
        b.iter(|| {
            let parsed: Vec<_> = inputs
                .iter()
                .enumerate()
                .map(|(i, text)| parse_input(i, &format!("node{i}"), black_box(text)))
                .collect();
            assert_eq!(
                parsed
                    .iter()
                    .map(|p| p.stats[0].tables.len())
                    .sum::<usize>(),
                TABLES * NODES
            );
            parsed
        })
    });
    let parsed: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(i, text)| parse_input(i, &format!("node{i}"), text))
        .collect();
    let stats: Vec<_> = parsed.iter().flat_map(|p| p.stats.clone()).collect();
    group.bench_function("diagnose 5000 tables x 12 nodes", |b| {
        b.iter(|| {
            diagnose(&DiagnoseInput {
                stats: black_box(&stats),
                histograms: &[],
                status: &[],
                schema: None,
                thresholds: cqlmodel_stats::Thresholds::default(),
                data_age: None,
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
