//! Drawing the tokens of nodes that do not list their own.
//!
//! *Random*, as Cassandra does without the token allocator: each token is
//! `Murmur3Partitioner.getRandomToken` — a uniform random `long`, `Long.MIN_VALUE`
//! moved to `Long.MAX_VALUE` — redrawn while another node already has it
//! (`BootStrapper.getRandomTokens`). Each node draws from its own stream, seeded by
//! the topology seed and the node's name.
//!
//! *Balanced*: per datacenter, `Σ num_tokens` evenly spaced tokens
//! (`-2^63 + k·2^64/total`, the classic `initial_token` formula), dealt to the nodes in
//! join order — one per rack in turn — and in proportion to their vnode counts. With
//! equal vnode counts, consecutive tokens belong to consecutive nodes of alternating
//! racks, so every node owns exactly its share with and without replication (the
//! second datacenter's tokens are offset by 100, the third's by 200, ... — the old
//! multi-DC practice — so that no two coincide).
//!
//! *Allocator*, the idea of Cassandra's `NoReplicationTokenAllocator`, run per
//! datacenter with nodes joining one at a time (round-robin over the racks): the
//! heaviest nodes that own more than the average the new node would bring are chosen,
//! the new node's vnodes are spread over them, and each takes a slice of one of their
//! largest vnodes — the slice sized so that the old node drops to that average
//! (clamped to 10–90% of the vnode, as Cassandra clamps it). The first node of a
//! datacenter, or one with more vnodes than the datacenter has tokens, draws random
//! tokens, as Cassandra's allocator does.

use std::collections::HashSet;

use crate::rng::SplitMix64;
use crate::token::Token;
use crate::topology::{Allocation, Topology};

const MAX_TAKEOVER: f64 = 0.9;
const MIN_TAKEOVER: f64 = 1.0 - MAX_TAKEOVER;
const RING_SIZE: f64 = 18_446_744_073_709_551_616.0; // 2^64

/// The tokens of every node of `topology`, in the order of `topology.nodes`. Explicit
/// tokens are kept as given. The topology must be valid ([`Topology::validate`]).
pub fn allocate_tokens(topology: &Topology) -> Vec<Vec<Token>> {
    let mut used: HashSet<i64> = HashSet::new();
    let mut result: Vec<Vec<Token>> = Vec::with_capacity(topology.nodes.len());
    for node in &topology.nodes {
        let tokens = node.tokens.clone().unwrap_or_default();
        used.extend(tokens.iter().map(|t| t.0));
        result.push(tokens);
    }
    match topology.allocation {
        Allocation::Random => {
            for (node, tokens) in topology.nodes.iter().zip(result.iter_mut()) {
                if node.tokens.is_none() {
                    let mut rng = SplitMix64::for_name(topology.seed, &node.name);
                    *tokens = random_tokens(&mut rng, node.num_tokens, &mut used);
                }
            }
        }
        Allocation::Balanced => {
            for (d, dc) in topology.datacenters().into_iter().enumerate() {
                allocate_even_dc(topology, dc, d as i64 * 100, &mut result, &mut used);
            }
        }
        Allocation::Allocator => {
            for dc in topology.datacenters() {
                allocate_balanced_dc(topology, dc, &mut result, &mut used);
            }
        }
    }
    result
}

/// `count` distinct random tokens that no other node has.
fn random_tokens(rng: &mut SplitMix64, count: u32, used: &mut HashSet<i64>) -> Vec<Token> {
    let mut out = Vec::with_capacity(count as usize);
    while out.len() < count as usize {
        let t = random_token(rng);
        if used.insert(t) {
            out.push(Token(t));
        }
    }
    out
}

/// `Murmur3Partitioner.getRandomToken`: `normalize(r.nextLong())`.
fn random_token(rng: &mut SplitMix64) -> i64 {
    let v = rng.next_u64() as i64;
    if v == i64::MIN { i64::MAX } else { v }
}

/// The order nodes of `dc` join: one per rack in turn, racks in order of appearance.
fn join_order(topology: &Topology, dc: &str) -> Vec<usize> {
    let mut racks: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, n) in topology
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.dc == dc)
    {
        match racks.iter_mut().find(|(r, _)| *r == n.rack) {
            Some((_, members)) => members.push(i),
            None => racks.push((&n.rack, vec![i])),
        }
    }
    let longest = racks.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
    (0..longest)
        .flat_map(|k| racks.iter().filter_map(move |(_, m)| m.get(k).copied()))
        .collect()
}

fn allocate_even_dc(
    topology: &Topology,
    dc: &str,
    offset: i64,
    result: &mut [Vec<Token>],
    used: &mut HashSet<i64>,
) {
    let order: Vec<usize> = join_order(topology, dc)
        .into_iter()
        .filter(|&i| topology.nodes.get(i).is_some_and(|n| n.tokens.is_none()))
        .collect();
    // Vnode `j` of a node with `w` vnodes sits at (j + 1/2) / w of the way round; sorting
    // by that position (ties in join order) deals equal nodes out in turn and spreads a
    // node with more vnodes evenly among the others.
    let mut deal: Vec<(f64, usize, usize)> = Vec::new();
    for (rank, &i) in order.iter().enumerate() {
        let w = topology.nodes.get(i).map_or(0, |n| n.num_tokens);
        deal.extend((0..w).map(|j| ((f64::from(j) + 0.5) / f64::from(w), rank, i)));
    }
    deal.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let total = deal.len() as u128;
    for (k, &(_, _, i)) in deal.iter().enumerate() {
        let step = ((k as u128) << 64) / total.max(1);
        let mut token = i64::MIN
            .wrapping_add(step as u64 as i64)
            .wrapping_add(offset);
        while !used.insert(token) {
            token = token.wrapping_add(1);
        }
        if let Some(tokens) = result.get_mut(i) {
            tokens.push(Token(token));
        }
    }
}

fn allocate_balanced_dc(
    topology: &Topology,
    dc: &str,
    result: &mut [Vec<Token>],
    used: &mut HashSet<i64>,
) {
    let order = join_order(topology, dc);
    // (token, node index), sorted: the datacenter's own ring, as the allocator sees it.
    let mut dc_ring: Vec<(i64, usize)> = Vec::new();
    for &i in &order {
        if let (Some(node), Some(tokens)) = (topology.nodes.get(i), result.get(i))
            && node.tokens.is_some()
        {
            dc_ring.extend(tokens.iter().map(|t| (t.0, i)));
        }
    }
    dc_ring.sort_unstable();
    for &i in &order {
        let Some(node) = topology.nodes.get(i) else {
            continue;
        };
        if node.tokens.is_some() {
            continue;
        }
        let mut rng = SplitMix64::for_name(topology.seed, &node.name);
        let wanted = node.num_tokens as usize;
        let mut tokens = if dc_ring.is_empty() || wanted > dc_ring.len() {
            Vec::new()
        } else {
            split_heaviest(&dc_ring, wanted)
        };
        for t in tokens.iter_mut() {
            // A computed token another node holds (possible only across datacenters or
            // in a saturated ring) moves to the next free value.
            while !used.insert(t.0) {
                t.0 = t.0.wrapping_add(1);
            }
        }
        let missing = u32::try_from(wanted.saturating_sub(tokens.len())).unwrap_or(0);
        tokens.extend(random_tokens(&mut rng, missing, used));
        dc_ring.extend(tokens.iter().map(|t| (t.0, i)));
        dc_ring.sort_unstable();
        if let Some(slot) = result.get_mut(i) {
            *slot = tokens;
        }
    }
}

/// One vnode of the datacenter ring: the range `(prev, token]`.
struct Vnode {
    prev: i64,
    width: f64,
}

/// The tokens a new node with `wanted` vnodes takes, following the
/// `NoReplicationTokenAllocator.addUnit` idea on the ring `dc_ring` (non-empty).
fn split_heaviest(dc_ring: &[(i64, usize)], wanted: usize) -> Vec<Token> {
    // Per node: its ownership and vnodes.
    let mut units: Vec<(usize, f64, Vec<Vnode>)> = Vec::new();
    let last = dc_ring.last().map_or(0, |(t, _)| *t);
    let mut prev = last;
    for &(token, node) in dc_ring {
        let width = match token.wrapping_sub(prev) as u64 {
            0 => RING_SIZE, // a single token owns the whole ring
            w => w as f64,
        } / RING_SIZE;
        let vnode = Vnode { prev, width };
        match units.iter_mut().find(|(n, _, _)| *n == node) {
            Some((_, owned, vnodes)) => {
                *owned += width;
                vnodes.push(vnode);
            }
            None => units.push((node, width, vec![vnode])),
        }
        prev = token;
    }
    // Heaviest first; ties by node so that the result is reproducible.
    units.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));

    let mut chosen = 0;
    let mut sum = 0.0;
    let mut target = 0.0;
    for (_, owned, _) in units.iter().take(wanted) {
        sum += owned;
        let average = sum / (chosen + 2) as f64; // the chosen units and the new one
        if *owned <= average {
            break;
        }
        chosen += 1;
        target = average;
    }

    let mut out = Vec::with_capacity(wanted);
    for (nr, (_, owned, vnodes)) in units.iter_mut().take(chosen).enumerate() {
        let to_change = wanted / chosen + usize::from(nr < wanted % chosen);
        vnodes.sort_by(|a, b| b.width.total_cmp(&a.width).then(a.prev.cmp(&b.prev)));
        let work: f64 = vnodes.iter().take(to_change).map(|v| v.width).sum();
        let take_over = *owned - target;
        let slice = if take_over < work {
            (take_over / work).clamp(MIN_TAKEOVER, MAX_TAKEOVER)
        } else {
            MAX_TAKEOVER
        };
        for v in vnodes.iter().take(to_change) {
            let offset = (v.width * RING_SIZE * slice) as u64;
            out.push(Token(v.prev.wrapping_add(offset as i64)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::NodeSpec;

    fn topology(nodes: u32, vnodes: u32, allocation: Allocation, seed: u64) -> Topology {
        Topology::uniform(nodes, vnodes, 1, allocation, seed)
    }

    #[test]
    fn random_tokens_are_reproducible_and_distinct() {
        let a = allocate_tokens(&topology(6, 256, Allocation::Random, 7));
        assert_eq!(a, allocate_tokens(&topology(6, 256, Allocation::Random, 7)));
        assert_ne!(a, allocate_tokens(&topology(6, 256, Allocation::Random, 8)));
        let all: HashSet<i64> = a.iter().flatten().map(|t| t.0).collect();
        assert_eq!(all.len(), 6 * 256);
        assert!(a.iter().all(|t| t.len() == 256));
        assert!(
            !all.contains(&i64::MIN),
            "getRandomToken never returns the minimum token"
        );
    }

    #[test]
    fn a_nodes_random_tokens_do_not_depend_on_the_other_nodes() {
        let three = allocate_tokens(&topology(3, 16, Allocation::Random, 7));
        let five = allocate_tokens(&topology(5, 16, Allocation::Random, 7));
        assert_eq!(three[..], five[..3]);
    }

    #[test]
    fn balanced_tokens_are_evenly_spaced_and_interleaved() {
        let tokens = allocate_tokens(&topology(4, 2, Allocation::Balanced, 0));
        // The k-th of 8 evenly spaced tokens: -2^63 + k * 2^61.
        let at = |k: u64| Token(i64::MIN.wrapping_add((k << 61) as i64));
        assert_eq!(tokens[0], vec![at(0), at(4)]);
        assert_eq!(tokens[1], vec![at(1), at(5)]);
        assert_eq!(tokens[3], vec![at(3), at(7)]);
    }

    #[test]
    fn balanced_deals_extra_vnodes_in_proportion() {
        let mut t = topology(2, 2, Allocation::Balanced, 0);
        t.nodes[1].num_tokens = 4;
        let tokens = allocate_tokens(&t);
        assert_eq!((tokens[0].len(), tokens[1].len()), (2, 4));
        // Positions: node 1 at 1/8, 3/8, 5/8, 7/8 of the way; node 0 at 1/4, 3/4.
        let mut ring: Vec<(i64, usize)> = (0..2)
            .flat_map(|i| tokens[i].iter().map(move |t| (t.0, i)))
            .collect();
        ring.sort_unstable();
        let owners: Vec<usize> = ring.iter().map(|(_, i)| *i).collect();
        assert_eq!(owners, vec![1, 0, 1, 1, 0, 1]);
    }

    #[test]
    fn allocator_tokens_are_reproducible_and_complete() {
        let a = allocate_tokens(&topology(12, 16, Allocation::Allocator, 3));
        assert_eq!(
            a,
            allocate_tokens(&topology(12, 16, Allocation::Allocator, 3))
        );
        assert!(a.iter().all(|t| t.len() == 16));
        let all: HashSet<i64> = a.iter().flatten().map(|t| t.0).collect();
        assert_eq!(all.len(), 12 * 16);
    }

    #[test]
    fn explicit_tokens_are_kept() {
        let mut t = topology(3, 4, Allocation::Allocator, 1);
        t.nodes[1] = NodeSpec {
            tokens: Some(vec![Token(10), Token(20)]),
            ..t.nodes[1].clone()
        };
        let tokens = allocate_tokens(&t);
        assert_eq!(tokens[1], vec![Token(10), Token(20)]);
        assert_eq!(tokens[0].len(), 4);
        assert_eq!(tokens[2].len(), 4);
    }

    #[test]
    fn join_order_alternates_racks() {
        let mut t = topology(5, 1, Allocation::Allocator, 1);
        for (n, rack) in t.nodes.iter_mut().zip(["a", "a", "a", "b", "b"]) {
            n.rack = rack.into();
        }
        assert_eq!(join_order(&t, "dc1"), vec![0, 3, 1, 4, 2]);
    }

    #[test]
    fn a_second_node_takes_about_half() {
        // One node with one token owns everything; a joining single-vnode node takes
        // the largest slice the allocator allows of it.
        let ring = vec![(0i64, 0usize)];
        let tokens = split_heaviest(&ring, 1);
        assert_eq!(tokens.len(), 1);
        // take_over = 1 - 0.5 = 0.5 of a vnode of width 1: the new token is half-way round.
        let expected = (RING_SIZE * 0.5) as u64 as i64;
        assert_eq!(tokens[0], Token(expected));
    }
}
