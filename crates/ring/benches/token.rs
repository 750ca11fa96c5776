//! Token of a 16-byte partition key: ours against the `scylla` driver's Murmur3
//! partitioner on the same keys. Run with
//! `cargo bench -p cqlmodel-ring --bench token -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use cqlmodel_ring::token_of_key;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scylla::routing::partitioner::{Murmur3Partitioner, Partitioner};

const KEYS: usize = 4096;

/// Deterministic 16-byte keys (splitmix64), half of their bytes >= 0x80.
fn keys() -> Vec<[u8; 16]> {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..KEYS)
        .map(|_| {
            let mut key = [0u8; 16];
            key[..8].copy_from_slice(&next().to_le_bytes());
            key[8..].copy_from_slice(&next().to_le_bytes());
            key
        })
        .collect()
}

fn token_16_byte_keys(c: &mut Criterion) {
    let keys = keys();
    for key in &keys {
        assert_eq!(
            token_of_key(key).0,
            Murmur3Partitioner.hash_one(key).value(),
            "both implementations must agree before they are timed"
        );
    }

    let mut group = c.benchmark_group("token_16_byte_key");
    group.throughput(Throughput::Elements(KEYS as u64));
    group.bench_function("cqlmodel_ring::token_of_key", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for key in &keys {
                acc ^= token_of_key(black_box(key)).0;
            }
            acc
        })
    });
    group.bench_function("scylla::Murmur3Partitioner::hash_one", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for key in &keys {
                acc ^= Murmur3Partitioner.hash_one(black_box(key)).value();
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, token_16_byte_keys);
criterion_main!(benches);
