//! Ring construction, replication and ownership: the invariants Cassandra's placement
//! has, checked on fixed and generated topologies.

use std::collections::HashSet;

use cqlmodel_ring::{
    Allocation, DcReplication, NodeId, NodeSpec, Replication, Ring, Token, Topology, ownership,
    parse_topology, range_width,
};
use proptest::prelude::*;

fn nts(entries: &[(&str, u32)]) -> Replication {
    Replication::NetworkTopology {
        datacenters: entries
            .iter()
            .map(|(dc, rf)| DcReplication {
                dc: dc.to_string(),
                rf: *rf,
                span: None,
            })
            .collect(),
    }
}

/// `per_rack[dc][rack]` nodes, named `dc-rack-i`.
fn racked(
    per_rack: &[&[u32]],
    vnodes: u32,
    allocation: Allocation,
    seed: u64,
    replication: Replication,
) -> Topology {
    let mut nodes = Vec::new();
    for (d, racks) in per_rack.iter().enumerate() {
        for (r, &count) in racks.iter().enumerate() {
            for i in 0..count {
                nodes.push(NodeSpec {
                    name: format!("dc{}-r{}-{i}", d + 1, r + 1),
                    dc: format!("dc{}", d + 1),
                    rack: format!("r{}", r + 1),
                    num_tokens: vnodes,
                    tokens: None,
                    span: None,
                });
            }
        }
    }
    Topology {
        nodes,
        allocation,
        seed,
        replication,
        replication_span: None,
    }
}

fn rack(ring: &Ring, n: NodeId) -> &str {
    &ring.nodes()[n.index()].rack
}

#[test]
fn a_token_maps_to_the_first_ring_token_at_or_after_it() {
    let mut t = Topology::uniform(3, 1, 1, Allocation::Random, 0);
    for (node, token) in t.nodes.iter_mut().zip([-100, 0, 100]) {
        node.tokens = Some(vec![Token(token)]);
    }
    let ring = Ring::build(&t).expect("the ring builds");
    let owner = |token: i64| ring.replicas(Token(token))[0].index();
    assert_eq!(owner(-100), 0, "a ring token is the end of its own range");
    assert_eq!(owner(-99), 1);
    assert_eq!(owner(0), 1);
    assert_eq!(owner(1), 2);
    assert_eq!(owner(100), 2);
    assert_eq!(owner(101), 0, "past the largest token wraps to the first");
    assert_eq!(owner(i64::MIN), 0);
    assert_eq!(owner(i64::MAX), 0);
}

#[test]
fn simple_strategy_walks_clockwise_to_distinct_nodes() {
    // Ring: 10 (n0), 20 (n0), 30 (n1), 40 (n2), 50 (n1)
    let mut t = Topology::uniform(3, 1, 2, Allocation::Random, 0);
    t.nodes[0].tokens = Some(vec![Token(10), Token(20)]);
    t.nodes[1].tokens = Some(vec![Token(30), Token(50)]);
    t.nodes[2].tokens = Some(vec![Token(40)]);
    let ring = Ring::build(&t).expect("the ring builds");
    let names = |token: i64| -> Vec<usize> {
        ring.replicas(Token(token))
            .iter()
            .map(|n| n.index())
            .collect()
    };
    assert_eq!(names(15), vec![0, 1], "20 (n0), then 30 (n1)");
    assert_eq!(
        names(5),
        vec![0, 1],
        "10 (n0), 20 (n0) is the same node, 30 (n1)"
    );
    assert_eq!(names(45), vec![1, 0], "50 (n1), then wraps to 10 (n0)");
    assert_eq!(names(35), vec![2, 1]);
}

#[test]
fn three_racks_rf_three_puts_one_replica_per_rack() {
    let t = racked(
        &[&[3, 3, 3]],
        16,
        Allocation::Random,
        11,
        nts(&[("dc1", 3)]),
    );
    let ring = Ring::build(&t).expect("the ring builds");
    for range in 0..ring.range_count() {
        let replicas = ring.range_replicas(range);
        let racks: HashSet<&str> = replicas.iter().map(|n| rack(&ring, *n)).collect();
        assert_eq!(racks.len(), 3, "range {range}: {replicas:?}");
        assert_eq!(
            Some(replicas[0]),
            ring.owner(range),
            "the range's owner is the primary replica"
        );
    }
}

/// The replicas NetworkTopologyStrategy must pick in one DC, stated differently from
/// the implementation: walking distinct nodes clockwise, take a node if it brings a
/// new rack, or if after taking it there are still enough slots for the racks not seen.
fn expected_one_dc(ring: &Ring, range: usize, rf: usize, racks: usize) -> Vec<NodeId> {
    let n = ring.range_count();
    let mut out: Vec<NodeId> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for step in 0..n {
        let node = ring.owner((range + step) % n).expect("a range in the ring");
        if out.len() == rf || out.contains(&node) {
            continue;
        }
        if seen.insert(rack(ring, node)) || rf - out.len() > racks - seen.len() {
            out.push(node);
        }
    }
    out
}

#[test]
fn two_racks_rf_three_uses_both_racks_and_repeats_one() {
    let t = racked(&[&[3, 4]], 8, Allocation::Random, 5, nts(&[("dc1", 3)]));
    let ring = Ring::build(&t).expect("the ring builds");
    let mut third_in_first_rack = 0;
    for range in 0..ring.range_count() {
        let replicas = ring.range_replicas(range);
        let racks: Vec<&str> = replicas.iter().map(|n| rack(&ring, *n)).collect();
        let distinct: HashSet<&&str> = racks.iter().collect();
        assert_eq!(
            distinct.len(),
            2,
            "range {range}: both racks hold a replica"
        );
        assert_eq!(
            replicas,
            expected_one_dc(&ring, range, 3, 2).as_slice(),
            "range {range}"
        );
        if racks[2] == racks[0] {
            third_in_first_rack += 1;
        }
    }
    assert!(
        third_in_first_rack > 0,
        "the repeated rack is whichever is met first, not always the same"
    );
}

#[test]
fn nts_places_each_datacenters_rf_in_that_datacenter() {
    let t = racked(
        &[&[2, 2, 2], &[3, 2], &[2]],
        16,
        Allocation::Allocator,
        2,
        nts(&[("dc1", 3), ("dc2", 2), ("dc3", 0)]),
    );
    let ring = Ring::build(&t).expect("the ring builds");
    assert_eq!(ring.replication_factor(), 5);
    for range in 0..ring.range_count() {
        let replicas = ring.range_replicas(range);
        let in_dc = |dc: &str| {
            replicas
                .iter()
                .filter(|n| ring.nodes()[n.index()].dc == dc)
                .count()
        };
        assert_eq!(
            (in_dc("dc1"), in_dc("dc2"), in_dc("dc3")),
            (3, 2, 0),
            "range {range}"
        );
        let dc2_racks: HashSet<&str> = replicas
            .iter()
            .filter(|n| ring.nodes()[n.index()].dc == "dc2")
            .map(|n| rack(&ring, *n))
            .collect();
        assert_eq!(
            dc2_racks.len(),
            2,
            "RF 2 over 2 racks: one replica per rack"
        );
    }
}

#[test]
fn equal_rack_names_in_two_datacenters_are_different_racks() {
    // Both DCs have a rack "r1"; dc2's single rack must not count as seen because dc1 used "r1".
    let t = racked(
        &[&[3], &[3]],
        4,
        Allocation::Random,
        9,
        nts(&[("dc1", 1), ("dc2", 2)]),
    );
    let ring = Ring::build(&t).expect("the ring builds");
    for range in 0..ring.range_count() {
        assert_eq!(ring.range_replicas(range).len(), 3);
    }
}

#[test]
fn random_allocation_is_reproducible_with_the_same_seed() {
    let build = |seed| {
        Ring::build(&Topology::uniform(5, 32, 3, Allocation::Random, seed))
            .expect("the ring builds")
    };
    assert_eq!(build(42).tokens(), build(42).tokens());
    assert_ne!(build(42).tokens(), build(43).tokens());
}

/// The worst (effective, primary) ownership imbalance over five seeds.
fn worst_imbalance(allocation: Allocation, nodes: u32, vnodes: u32) -> (f64, f64) {
    (0..5)
        .map(|seed| {
            let t = Topology::uniform(nodes, vnodes, 3, allocation, seed);
            let own = ownership(&Ring::build(&t).expect("the ring builds"));
            (
                own.imbalance.expect("nodes carry load"),
                own.primary_imbalance.expect("nodes own ranges"),
            )
        })
        .fold((0.0, 0.0), |a, b| (a.0.max(b.0), a.1.max(b.1)))
}

#[test]
fn allocator_beats_random_ownership() {
    let (random, random_primary) = worst_imbalance(Allocation::Random, 12, 16);
    let (allocator, allocator_primary) = worst_imbalance(Allocation::Allocator, 12, 16);
    assert!(
        allocator < random,
        "allocator {allocator} vs random {random}"
    );
    assert!(
        allocator_primary < 1.05,
        "primary ownership is what it balances: {allocator_primary}"
    );
    assert!(
        random_primary > 1.2,
        "16 random vnodes leave some node 20% over: {random_primary}"
    );
}

#[test]
fn balanced_allocation_is_exact_with_and_without_replication() {
    for (nodes, vnodes) in [(3, 1), (6, 16), (7, 3), (12, 256)] {
        let (effective, primary) = worst_imbalance(Allocation::Balanced, nodes, vnodes);
        assert!(
            (effective - 1.0).abs() < 1e-9,
            "{nodes}x{vnodes}: {effective}"
        );
        assert!((primary - 1.0).abs() < 1e-9, "{nodes}x{vnodes}: {primary}");
    }
    // Rack-aware: 3 racks of 2 nodes, NTS RF 3: one replica per rack, and still exact.
    let t = racked(
        &[&[2, 2, 2]],
        16,
        Allocation::Balanced,
        0,
        nts(&[("dc1", 3)]),
    );
    let own = ownership(&Ring::build(&t).expect("the ring builds"));
    assert!((own.imbalance.expect("nodes carry load") - 1.0).abs() < 1e-9);
}

#[test]
fn the_example_topology_file_builds() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/topology-3dc.toml"
    ))
    .expect("the example file is readable");
    let t = parse_topology(&text).expect("the topology parses");
    let ring = Ring::build(&t).expect("the ring builds");
    assert_eq!(ring.datacenters().len(), 3);
    let own = ownership(&ring);
    for (dc, name) in ring.datacenters().iter().enumerate() {
        let rf = ring.replication().rf_for(name) as f64;
        let sum: f64 = ring
            .dc_nodes(dc)
            .map(|n| own.nodes[n.index()].effective)
            .sum();
        assert!((sum - rf).abs() < 1e-9, "{name}: {sum} != {rf}");
    }
}

/// Generated clusters: 1–3 DCs, 1–3 racks each, 1–4 nodes per rack, 1–24 vnodes,
/// any allocation, and an NTS RF per DC no larger than its nodes.
fn clusters() -> impl Strategy<Value = Topology> {
    let dc = prop::collection::vec(1u32..=4, 1..=3);
    (
        prop::collection::vec(dc, 1..=3),
        1u32..=24,
        0u8..3,
        any::<u64>(),
        prop::collection::vec(0u32..=3, 3),
    )
        .prop_map(|(dcs, vnodes, allocation, seed, rfs)| {
            let per_rack: Vec<&[u32]> = dcs.iter().map(|d| d.as_slice()).collect();
            let allocation = [
                Allocation::Random,
                Allocation::Balanced,
                Allocation::Allocator,
            ][usize::from(allocation)];
            let entries: Vec<(String, u32)> = dcs
                .iter()
                .enumerate()
                .map(|(i, racks)| {
                    (
                        format!("dc{}", i + 1),
                        rfs[i].min(racks.iter().sum::<u32>()),
                    )
                })
                .collect();
            let mut entries: Vec<(&str, u32)> =
                entries.iter().map(|(d, r)| (d.as_str(), *r)).collect();
            if entries.iter().all(|(_, rf)| *rf == 0) {
                entries[0].1 = 1;
            }
            racked(&per_rack, vnodes, allocation, seed, nts(&entries))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ownership_sums_to_one_primary_and_rf_effective_per_dc(t in clusters()) {
        let ring = Ring::build(&t).expect("the ring builds");
        let own = ownership(&ring);
        let primary: f64 = own.nodes.iter().map(|n| n.primary).sum();
        prop_assert!((primary - 1.0).abs() < 1e-9, "primary sums to {}", primary);
        let widths: f64 = (0..ring.range_count()).map(|r| range_width(&ring, r)).sum();
        prop_assert!((widths - 1.0).abs() < 1e-9);
        for (dc, name) in ring.datacenters().iter().enumerate() {
            let rf = ring.replication().rf_for(name) as f64;
            let sum: f64 = ring.dc_nodes(dc).map(|n| own.nodes[n.index()].effective).sum();
            prop_assert!((sum - rf).abs() < 1e-9, "{}: effective sums to {}, RF {}", name, sum, rf);
        }
        for n in &own.nodes {
            prop_assert!(n.effective >= n.primary - 1e-12 || ring.replication().rf_for(&ring.nodes()[n.node.index()].dc) == 0);
        }
    }

    #[test]
    fn replicas_are_distinct_and_rack_aware(t in clusters()) {
        let ring = Ring::build(&t).expect("the ring builds");
        for range in 0..ring.range_count() {
            let replicas = ring.range_replicas(range);
            prop_assert_eq!(replicas.len(), ring.replication_factor());
            let distinct: HashSet<_> = replicas.iter().collect();
            prop_assert_eq!(distinct.len(), replicas.len(), "range {}: {:?}", range, replicas);
            for (dc, name) in ring.datacenters().iter().enumerate() {
                let rf = ring.replication().rf_for(name) as usize;
                let racks: HashSet<&str> = ring.dc_nodes(dc).map(|n| rack(&ring, n)).collect();
                let used: HashSet<&str> = replicas
                    .iter()
                    .filter(|n| ring.dc_of(**n) == Some(dc))
                    .map(|n| rack(&ring, *n))
                    .collect();
                prop_assert_eq!(used.len(), rf.min(racks.len()), "{} range {}: as many racks as RF allows", name, range);
            }
        }
    }
}
