//! How much of the ring each node owns, as `nodetool status` reports it.
//!
//! *Primary* ownership is the sum of the widths of the ranges a node's tokens end
//! (`Murmur3Partitioner.describeOwnership`): it sums to 100% over the cluster.
//! *Effective* ownership ("Owns (effective)" with a keyspace) counts every range the
//! node is a replica of: it sums to RF × 100% in each datacenter under
//! NetworkTopologyStrategy, and to RF × 100% over the cluster under SimpleStrategy.

use crate::ring::{NodeId, Ring};
use crate::topology::Replication;

const RING_SIZE: f64 = 18_446_744_073_709_551_616.0; // 2^64

/// One node's share of the ring, as fractions (1.0 = the whole ring).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeOwnership {
    pub node: NodeId,
    pub primary: f64,
    pub effective: f64,
}

/// Ownership of every node, in [`Ring::nodes`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct Ownership {
    pub nodes: Vec<NodeOwnership>,
    /// max / mean of the effective ownership, in the worst datacenter ([`imbalance`]).
    pub imbalance: Option<f64>,
    /// max / mean of the primary ownership, in the worst datacenter.
    pub primary_imbalance: Option<f64>,
}

/// The fraction of the ring range `range` covers (1.0 for the only range of a
/// one-token ring).
pub fn range_width(ring: &Ring, range: usize) -> f64 {
    match ring.range_bounds(range) {
        Some(bounds) => match bounds.end.0.wrapping_sub(bounds.start.0) as u64 {
            0 => 1.0,
            w => w as f64 / RING_SIZE,
        },
        None => 0.0,
    }
}

/// Primary and effective ownership of every node.
pub fn ownership(ring: &Ring) -> Ownership {
    let mut primary = vec![0.0; ring.nodes().len()];
    let mut effective = vec![0.0; ring.nodes().len()];
    for range in 0..ring.range_count() {
        let width = range_width(ring, range);
        if let Some(p) = ring.owner(range).and_then(|o| primary.get_mut(o.index())) {
            *p += width;
        }
        for r in ring.range_replicas(range) {
            if let Some(e) = effective.get_mut(r.index()) {
                *e += width;
            }
        }
    }
    Ownership {
        imbalance: imbalance(ring, &effective),
        primary_imbalance: imbalance(ring, &primary),
        nodes: primary
            .iter()
            .zip(&effective)
            .enumerate()
            .map(|(i, (p, e))| NodeOwnership {
                node: NodeId(i as u32),
                primary: *p,
                effective: *e,
            })
            .collect(),
    }
}

/// The nodes whose loads are compared with each other: the whole cluster under
/// SimpleStrategy (it ignores datacenters); each datacenter that holds replicas under
/// NetworkTopologyStrategy (datacenters of different sizes and RFs are not expected to
/// carry the same load).
pub fn balance_groups(ring: &Ring) -> Vec<Vec<NodeId>> {
    match ring.replication() {
        Replication::Simple { .. } => vec![(0..ring.nodes().len() as u32).map(NodeId).collect()],
        Replication::NetworkTopology { .. } => ring
            .datacenters()
            .iter()
            .enumerate()
            .filter(|(_, dc)| ring.replication().rf_for(dc) > 0)
            .map(|(i, _)| ring.dc_nodes(i).collect())
            .collect(),
    }
}

/// max / mean of `per_node` (indexed by node) within each of the ring's
/// [`balance_groups`], worst group first; `None` when no group has a positive mean.
/// 1.0 is perfect balance; 1.5 means the busiest node carries 50% more than average.
pub fn imbalance(ring: &Ring, per_node: &[f64]) -> Option<f64> {
    balance_groups(ring)
        .iter()
        .filter_map(|group| {
            let values: Vec<f64> = group
                .iter()
                .filter_map(|n| per_node.get(n.index()).copied())
                .collect();
            if values.is_empty() {
                return None;
            }
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let max = values.iter().copied().fold(f64::MIN, f64::max);
            (mean > 0.0).then(|| max / mean)
        })
        .reduce(f64::max)
}
