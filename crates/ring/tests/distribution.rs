//! The distribution claims of docs/ring.md, as tests: under Murmur3 a monotonically
//! increasing key (auto-increment id, timeuuid) spreads like any other key — its data
//! follows token ownership — while a low-cardinality key (a date, a status) puts all
//! data and requests on at most RF × (distinct values) nodes, whatever the tokens.
//! Keys are serialized and hashed exactly as Cassandra does.

use std::collections::HashSet;

use cqlmodel_cql::ast::NativeType;
use cqlmodel_cql::parse_term;
use cqlmodel_ring::{
    Allocation, LoadReport, Ring, Token, Topology, ownership, place_load, serialize_term,
    token_of_key,
};
use cqlmodel_schema::types::CqlType;

fn bytes(ty: NativeType, cql: &str) -> Vec<u8> {
    serialize_term(
        &CqlType::native(ty),
        &parse_term(cql).expect("a CQL literal"),
    )
    .expect("a value of the type")
}

/// A version-1 UUID for `ticks` 100-ns intervals since 1582-10-15, as a client generating
/// timeuuids on one host would make them (fixed clock sequence and node).
fn timeuuid(ticks: u64) -> [u8; 16] {
    let mut u = [0u8; 16];
    u[0..4].copy_from_slice(&(ticks as u32).to_be_bytes());
    u[4..6].copy_from_slice(&((ticks >> 32) as u16).to_be_bytes());
    u[6..8].copy_from_slice(&((((ticks >> 48) as u16) & 0x0fff) | 0x1000).to_be_bytes());
    u[8..10].copy_from_slice(&(0x8000u16 | 0x1234).to_be_bytes());
    u[10..16].copy_from_slice(&[0x02, 0x42, 0xac, 0x11, 0x00, 0x02]);
    u
}

fn uuid_text(u: &[u8; 16]) -> String {
    let h: String = u.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn nodes_with_data(report: &LoadReport) -> usize {
    report.nodes.iter().filter(|n| n.data > 0.0).count()
}

/// Each node's data share is its effective ownership, up to sampling noise, and the
/// data imbalance is the ownership imbalance: the key being sequential adds nothing.
fn assert_follows_ownership(ring: &Ring, report: &LoadReport, what: &str) {
    let own = ownership(ring);
    for (load, owned) in report.nodes.iter().zip(&own.nodes) {
        assert!(
            (load.data_share - owned.effective).abs() < 0.01,
            "{what}: node {} holds {:.4} of the data but owns {:.4}",
            load.node.0,
            load.data_share,
            owned.effective
        );
        assert!(
            (load.request_share - owned.effective / 3.0).abs() < 0.01,
            "{what}"
        );
    }
    let (data, owned) = (
        report.imbalance.data.expect("nodes carry data"),
        own.imbalance.expect("nodes carry load"),
    );
    assert!(
        (data - owned).abs() < 0.02,
        "{what}: data imbalance {data:.3} vs ownership imbalance {owned:.3}"
    );
    let hottest = &report.hottest[0];
    assert!(
        hottest.data_share < 1e-5,
        "{what}: no partition stands out ({})",
        hottest.data_share
    );
}

#[test]
fn sequential_bigint_ids_spread_like_ownership() {
    assert_eq!(
        bytes(NativeType::Bigint, "123456789"),
        123_456_789i64.to_be_bytes()
    );
    for allocation in [Allocation::Random, Allocation::Balanced] {
        let ring =
            Ring::build(&Topology::uniform(6, 16, 3, allocation, 1)).expect("the ring builds");
        let samples = (1..=1_000_000i64).map(|id| (token_of_key(&id.to_be_bytes()), 1.0, 1.0));
        let report = place_load(&ring, samples);
        assert_eq!(report.samples, 1_000_000);
        assert_follows_ownership(&ring, &report, allocation.name());
    }
}

#[test]
fn timeuuids_one_per_millisecond_spread_like_ownership() {
    // 2024-01-01T00:00:00Z in 100-ns ticks since the Gregorian epoch.
    let start = (1_704_067_200_000u64 + 12_219_292_800_000) * 10_000;
    let first = timeuuid(start);
    assert_eq!(bytes(NativeType::Timeuuid, &uuid_text(&first)), first);
    let ring =
        Ring::build(&Topology::uniform(6, 16, 3, Allocation::Random, 2)).expect("the ring builds");
    let samples =
        (0..1_000_000u64).map(|i| (token_of_key(&timeuuid(start + i * 10_000)), 1.0, 1.0));
    let report = place_load(&ring, samples);
    assert_follows_ownership(&ring, &report, "timeuuid");
}

#[test]
fn an_order_preserving_partitioner_is_where_sequential_keys_hot_spot() {
    // What ByteOrderedPartitioner would do: the token is the key itself, so a million
    // consecutive ids are one contiguous slice of the ring and land in a single range.
    let ring =
        Ring::build(&Topology::uniform(6, 16, 3, Allocation::Random, 1)).expect("the ring builds");
    let report = place_load(&ring, (1..=1_000_000i64).map(|id| (Token(id), 1.0, 1.0)));
    assert_eq!(
        nodes_with_data(&report),
        3,
        "only the replicas of one range"
    );
    assert!(
        (report.imbalance.data.expect("nodes carry data") - 2.0).abs() < 1e-9,
        "6 nodes / RF 3"
    );
}

/// A table keyed by a low-cardinality column: every sample is one of `keys`.
fn concentrated(ring: &Ring, keys: &[Vec<u8>]) -> LoadReport {
    let tokens: Vec<Token> = keys.iter().map(|k| token_of_key(k)).collect();
    let samples = (0..700_000usize).map(|i| (tokens[i % tokens.len()], 1.0, 1.0));
    place_load(ring, samples)
}

#[test]
fn a_week_of_dates_lands_on_at_most_rf_times_seven_nodes() {
    let dates: Vec<Vec<u8>> = (1..=7)
        .map(|d| bytes(NativeType::Date, &format!("'2024-01-0{d}'")))
        .collect();
    for seed in 0..5 {
        let ring = Ring::build(&Topology::uniform(30, 16, 3, Allocation::Random, seed))
            .expect("the ring builds");
        let report = concentrated(&ring, &dates);
        assert!(
            nodes_with_data(&report) <= 21,
            "seed {seed}: {}",
            nodes_with_data(&report)
        );
        let busy: HashSet<usize> = report
            .nodes
            .iter()
            .filter(|n| n.requests > 0.0)
            .map(|n| n.node.index())
            .collect();
        assert!(busy.len() <= 21, "requests concentrate on the same nodes");
        // Each date holds a seventh of the table: the hottest partitions are the dates.
        assert_eq!(report.hottest.len(), 7);
        for hot in &report.hottest {
            assert!((hot.data_share - 1.0 / 7.0).abs() < 1e-9);
            assert_eq!(hot.samples, 100_000);
            assert_eq!(hot.replicas.len(), 3);
        }
        // 30 nodes, at most 21 used: the busiest carries at least 30/21 of the mean.
        assert!(report.imbalance.data.expect("nodes carry data") >= 30.0 / 21.0 - 1e-9);
    }
}

#[test]
fn three_statuses_load_at_most_nine_nodes_whatever_the_ring() {
    let statuses: Vec<Vec<u8>> = ["'active'", "'suspended'", "'closed'"]
        .iter()
        .map(|s| bytes(NativeType::Text, s))
        .collect();
    for seed in 0..5 {
        for allocation in [Allocation::Random, Allocation::Balanced] {
            let ring = Ring::build(&Topology::uniform(30, 16, 3, allocation, seed))
                .expect("the ring builds");
            let report = concentrated(&ring, &statuses);
            assert!(nodes_with_data(&report) <= 9);
            // A node holding one status holds a third of the table; the mean is RF/30.
            let data = report.imbalance.data.expect("nodes carry data");
            let requests = report.imbalance.requests.expect("nodes carry requests");
            assert!(
                data >= (1.0 / 3.0) / (3.0 / 30.0) - 1e-9,
                "data imbalance {data}"
            );
            assert!(requests >= 3.3, "request imbalance {requests}");
            let owned = ownership(&ring).imbalance.expect("nodes carry load");
            assert!(
                data > 2.0 * owned,
                "the skew is the key's, not the ring's ({owned})"
            );
        }
    }
}
