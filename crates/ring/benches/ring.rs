//! Placing sampled partitions on a ring: 1 M pre-hashed tokens through `place_load`,
//! and 1 M bigint keys hashed with Murmur3 and placed. Target: >= 20 M/s on one core.
//! Run with `cargo bench -p cqlmodel-ring --bench ring -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use cqlmodel_ring::{Allocation, Ring, SplitMix64, Token, Topology, place_load, token_of_key};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const SAMPLES: usize = 1_000_000;

fn ring(nodes: u32, vnodes: u32) -> Ring {
    match Ring::build(&Topology::uniform(nodes, vnodes, 3, Allocation::Random, 1)) {
        Ok(r) => r,
        Err(e) => panic!("benchmark ring: {e}"),
    }
}

fn place(c: &mut Criterion) {
    let mut rng = SplitMix64::new(7);
    let tokens: Vec<Token> = (0..SAMPLES).map(|_| Token(rng.next_u64() as i64)).collect();
    // Zipf-like repetition: a token table the hot-partition tracker can fill.
    let repeated: Vec<Token> = (0..SAMPLES).map(|i| tokens[(i * i) % 5_000]).collect();

    let mut group = c.benchmark_group("place_load_1M");
    group.throughput(Throughput::Elements(SAMPLES as u64));
    group.sample_size(20);
    for (nodes, vnodes) in [(6, 16), (100, 256)] {
        let ring = ring(nodes, vnodes);
        group.bench_function(format!("distinct_tokens/{nodes}x{vnodes}"), |b| {
            b.iter(|| place_load(&ring, black_box(&tokens).iter().map(|t| (*t, 1.0, 1.0))))
        });
        group.bench_function(format!("repeated_tokens/{nodes}x{vnodes}"), |b| {
            b.iter(|| place_load(&ring, black_box(&repeated).iter().map(|t| (*t, 1.0, 1.0))))
        });
    }
    let ring = ring(6, 16);
    group.bench_function("hash_bigint_and_place/6x16", |b| {
        b.iter(|| {
            let keys = (1..=SAMPLES as i64)
                .map(|id| (token_of_key(&black_box(id).to_be_bytes()), 1.0, 1.0));
            place_load(&ring, keys)
        })
    });
    group.finish();
}

criterion_group!(benches, place);
criterion_main!(benches);
