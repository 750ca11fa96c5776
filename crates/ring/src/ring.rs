//! A built token ring: every node's tokens, sorted, and the replicas of every range
//! precomputed, so that placing a token is one binary search.
//!
//! Range `i` is `(tokens[i-1], tokens[i]]` (range 0 wraps: `(tokens[last], tokens[0]]`);
//! a token belongs to the range of the first ring token at or after it, wrapping past
//! the largest to the first — `TokenMetadata.firstToken`.

use std::ops::Range;

use crate::allocation::allocate_tokens;
use crate::replication::{DcQuota, Walker};
use crate::token::Token;
use crate::topology::{Allocation, Replication, Topology, TopologyError};

/// A node's position in [`Ring::nodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A node of a built ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingNode {
    pub name: String,
    pub dc: String,
    pub rack: String,
    /// Its tokens, sorted.
    pub tokens: Vec<Token>,
}

/// A ring ready for placement.
#[derive(Debug, Clone)]
pub struct Ring {
    nodes: Vec<RingNode>,
    datacenters: Vec<String>,
    node_dc: Vec<u32>,
    /// Sorted ring tokens.
    tokens: Vec<i64>,
    /// Where to start looking for a token: `buckets[b]` is the first ring token in or
    /// after the `b`-th of `2^bucket_bits` equal slices of the ring.
    buckets: Vec<u32>,
    bucket_bits: u32,
    /// The node of each ring token.
    owners: Vec<NodeId>,
    /// `rf` replicas per range, range by range, primary first.
    replicas: Vec<NodeId>,
    rf: usize,
    replication: Replication,
    allocation: Allocation,
}

impl Ring {
    /// Validates `topology`, draws the tokens it leaves open and computes the replicas
    /// of every range.
    pub fn build(topology: &Topology) -> Result<Ring, TopologyError> {
        topology.validate()?;
        let all_tokens = allocate_tokens(topology);

        let datacenters: Vec<String> = topology
            .datacenters()
            .into_iter()
            .map(String::from)
            .collect();
        let mut racks: Vec<(&str, &str)> = Vec::new();
        let mut nodes = Vec::with_capacity(topology.nodes.len());
        let mut node_dc = Vec::with_capacity(topology.nodes.len());
        let mut node_rack = Vec::with_capacity(topology.nodes.len());
        let mut ring: Vec<(i64, NodeId)> = Vec::new();
        for (i, (spec, tokens)) in topology.nodes.iter().zip(all_tokens).enumerate() {
            let id = NodeId(u32::try_from(i).unwrap_or(u32::MAX));
            let dc = datacenters.iter().position(|d| *d == spec.dc).unwrap_or(0);
            let rack = match racks
                .iter()
                .position(|r| *r == (spec.dc.as_str(), spec.rack.as_str()))
            {
                Some(r) => r,
                None => {
                    racks.push((&spec.dc, &spec.rack));
                    racks.len() - 1
                }
            };
            node_dc.push(dc as u32);
            node_rack.push(rack as u32);
            ring.extend(tokens.iter().map(|t| (t.0, id)));
            let mut sorted = tokens;
            sorted.sort_unstable();
            nodes.push(RingNode {
                name: spec.name.clone(),
                dc: spec.dc.clone(),
                rack: spec.rack.clone(),
                tokens: sorted,
            });
        }
        ring.sort_unstable();
        let tokens: Vec<i64> = ring.iter().map(|(t, _)| *t).collect();
        let owners: Vec<NodeId> = ring.iter().map(|(_, n)| *n).collect();

        let owner_ids: Vec<u32> = owners.iter().map(|n| n.0).collect();
        let mut walker = Walker::new(racks.len(), datacenters.len());
        let quotas = dc_quotas(topology, &datacenters, &racks);
        let rf = match &topology.replication {
            Replication::Simple { rf } => *rf as usize,
            Replication::NetworkTopology { .. } => quotas.iter().map(|q| q.replicas as usize).sum(),
        };
        let mut replicas = Vec::with_capacity(owners.len() * rf);
        let mut walk = Vec::with_capacity(rf);
        for start in 0..owner_ids.len() {
            match &topology.replication {
                Replication::Simple { .. } => Walker::simple(&owner_ids, start, rf, &mut walk),
                Replication::NetworkTopology { .. } => walker
                    .network_topology(&owner_ids, &node_dc, &node_rack, &quotas, start, &mut walk),
            }
            if walk.len() != rf {
                // Validation guarantees every DC has at least its RF in nodes, and a walk
                // meets every node; this is reported rather than trusted.
                return Err(TopologyError::new(
                    crate::topology::TopologyErrorKind::Invalid {
                        message: format!(
                            "only {} of {rf} replicas could be placed for the range ending at token {}",
                            walk.len(),
                            tokens.get(start).copied().unwrap_or_default()
                        ),
                    },
                    topology.replication_span.clone(),
                ));
            }
            replicas.extend(walk.iter().map(|&n| NodeId(n)));
        }
        let (buckets, bucket_bits) = bucket_index(&tokens);
        Ok(Ring {
            nodes,
            datacenters,
            node_dc,
            tokens,
            buckets,
            bucket_bits,
            owners,
            replicas,
            rf,
            replication: topology.replication.clone(),
            allocation: topology.allocation,
        })
    }

    pub fn nodes(&self) -> &[RingNode] {
        &self.nodes
    }

    pub fn node(&self, id: NodeId) -> Option<&RingNode> {
        self.nodes.get(id.index())
    }

    /// Datacenter names in order of first appearance.
    pub fn datacenters(&self) -> &[String] {
        &self.datacenters
    }

    /// The nodes of datacenter `dc` (an index into [`Ring::datacenters`]).
    pub fn dc_nodes(&self, dc: usize) -> impl Iterator<Item = NodeId> + '_ {
        self.node_dc
            .iter()
            .enumerate()
            .filter(move |(_, d)| **d as usize == dc)
            .map(|(i, _)| NodeId(i as u32))
    }

    /// The datacenter index of a node.
    pub fn dc_of(&self, id: NodeId) -> Option<usize> {
        self.node_dc.get(id.index()).map(|d| *d as usize)
    }

    pub fn replication(&self) -> &Replication {
        &self.replication
    }

    pub fn allocation(&self) -> Allocation {
        self.allocation
    }

    /// Replicas per range (the sum of the per-DC factors for NetworkTopologyStrategy).
    pub fn replication_factor(&self) -> usize {
        self.rf
    }

    /// How many ranges (= tokens) the ring has.
    pub fn range_count(&self) -> usize {
        self.tokens.len()
    }

    /// The sorted ring tokens.
    pub fn tokens(&self) -> &[i64] {
        &self.tokens
    }

    /// The node owning ring token `range` (the range's primary owner).
    pub fn owner(&self, range: usize) -> Option<NodeId> {
        self.owners.get(range).copied()
    }

    /// The range a token falls in: the index of the first ring token at or after it,
    /// wrapping to 0 past the largest (`TokenMetadata.firstToken`).
    #[inline]
    pub fn range_of(&self, token: Token) -> usize {
        let i = self.first_at_or_after(token);
        if i == self.tokens.len() { 0 } else { i }
    }

    /// The index of the first ring token `>= token`, `tokens().len()` when there is
    /// none. One bucket lookup narrows the search to the ring tokens in the token's
    /// slice of the ring (about one with the bucket count used).
    #[inline]
    pub(crate) fn first_at_or_after(&self, token: Token) -> usize {
        let b = (biased(token.0) >> (64 - self.bucket_bits)) as usize;
        let start = self.buckets.get(b).map_or(0, |&i| i as usize);
        let end = self
            .buckets
            .get(b + 1)
            .map_or(self.tokens.len(), |&i| i as usize);
        match self.tokens.get(start..end) {
            Some(window) => start + window.partition_point(|&t| t < token.0),
            None => self.tokens.partition_point(|&t| t < token.0),
        }
    }

    /// The replicas of range `range`, primary first (empty for an index out of range).
    #[inline]
    pub fn range_replicas(&self, range: usize) -> &[NodeId] {
        let start = range.saturating_mul(self.rf);
        self.replicas
            .get(start..start.saturating_add(self.rf))
            .unwrap_or_default()
    }

    /// The replicas of the range `token` falls in, primary first.
    #[inline]
    pub fn replicas(&self, token: Token) -> &[NodeId] {
        self.range_replicas(self.range_of(token))
    }

    /// The tokens bounding range `range`: `(start, end]`.
    pub fn range_bounds(&self, range: usize) -> Option<Range<Token>> {
        let end = *self.tokens.get(range)?;
        let start = if range == 0 {
            *self.tokens.last()?
        } else {
            *self.tokens.get(range - 1)?
        };
        Some(Token(start)..Token(end))
    }
}

/// Maps the signed token order onto the unsigned order (MIN → 0, MAX → 2^64-1).
#[inline(always)]
fn biased(token: i64) -> u64 {
    (token as u64) ^ (1 << 63)
}

/// The bucket table of [`Ring::first_at_or_after`]: about two buckets per ring token
/// (at least 2^4 buckets, at most 2^23).
fn bucket_index(tokens: &[i64]) -> (Vec<u32>, u32) {
    let bits = (tokens.len().max(1) * 2)
        .next_power_of_two()
        .trailing_zeros()
        .clamp(4, 23);
    let count = 1usize << bits;
    let mut buckets = Vec::with_capacity(count);
    let mut i = 0usize;
    for b in 0..count as u64 {
        let lower = b << (64 - bits);
        while tokens.get(i).is_some_and(|&t| biased(t) < lower) {
            i += 1;
        }
        buckets.push(u32::try_from(i).unwrap_or(u32::MAX));
    }
    (buckets, bits)
}

fn dc_quotas(topology: &Topology, datacenters: &[String], racks: &[(&str, &str)]) -> Vec<DcQuota> {
    datacenters
        .iter()
        .map(|dc| {
            let rf = topology.replication.rf_for(dc);
            let nodes = topology.nodes.iter().filter(|n| n.dc == *dc).count() as u32;
            let rack_count = racks.iter().filter(|(d, _)| d == dc).count() as i64;
            DcQuota {
                replicas: rf.min(nodes),
                rack_repeats: i64::from(rf) - rack_count,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ring_with(tokens: &[i64]) -> Ring {
        let mut t = Topology::uniform(1, 1, 1, Allocation::Random, 0);
        t.nodes[0].tokens = Some(tokens.iter().map(|&t| Token(t)).collect());
        match Ring::build(&t) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    proptest! {
        #[test]
        fn bucket_search_agrees_with_binary_search(
            spread in prop::collection::btree_set(any::<i64>(), 1..200),
            // Tokens crowded into one bucket, to exercise long windows.
            crowded in prop::collection::btree_set(-1000i64..1000, 0..50),
            probes in prop::collection::vec(any::<i64>(), 50),
        ) {
            let mut all: Vec<i64> = spread.into_iter().chain(crowded).collect();
            all.sort_unstable();
            all.dedup();
            let ring = ring_with(&all);
            let edge = [i64::MIN, i64::MAX, 0, -1, 1, all[0], all[all.len() - 1]];
            for p in probes.into_iter().chain(edge).chain(all.iter().map(|t| t.wrapping_add(1))) {
                prop_assert_eq!(ring.first_at_or_after(Token(p)), all.partition_point(|&t| t < p), "probe {}", p);
            }
        }
    }
}
