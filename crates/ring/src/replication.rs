//! Which nodes hold the replicas of a range: the ring walks of Cassandra's
//! `SimpleStrategy` and `NetworkTopologyStrategy.calculateNaturalReplicas`.
//!
//! Both start at the range's own token (the first ring token at or after the searched
//! token) and walk clockwise. SimpleStrategy takes the next distinct nodes.
//! NetworkTopologyStrategy keeps, per datacenter, the replicas still to place
//! (`min(rf, nodes in the DC)`) and how many nodes of an already-used rack it may
//! still accept (`rf - racks in the DC`, possibly negative): a node of a rack not seen
//! yet is always taken; a node of a seen rack only while such repeats are left and it
//! is not already a replica. So RF 3 over 3 racks puts one replica per rack, and RF 3
//! over 2 racks takes the first node met in each rack plus the first other node met
//! after them, whichever rack it is in. Replicas are listed in the order they are met
//! (the first is the primary).

/// The per-datacenter quotas of a NetworkTopologyStrategy walk.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DcQuota {
    /// Replicas to place: `min(rf, nodes in the DC)`; 0 for a DC that gets none.
    pub replicas: u32,
    /// `rf - racks in the DC`: how many nodes of already-used racks may be taken.
    pub rack_repeats: i64,
}

/// Reusable state for walks, so that computing every range's replicas does not
/// allocate per range.
pub(crate) struct Walker {
    /// `seen_rack[r] == stamp` when rack `r` has been used in the current walk.
    seen_rack: Vec<u64>,
    stamp: u64,
    left: Vec<u32>,
    repeats: Vec<i64>,
}

impl Walker {
    pub fn new(racks: usize, dcs: usize) -> Self {
        Self {
            seen_rack: vec![0; racks],
            stamp: 0,
            left: vec![0; dcs],
            repeats: vec![0; dcs],
        }
    }

    /// SimpleStrategy: the first `rf` distinct owners clockwise from position `start`.
    pub fn simple(owners: &[u32], start: usize, rf: usize, out: &mut Vec<u32>) {
        out.clear();
        let n = owners.len();
        for step in 0..n {
            if out.len() >= rf {
                break;
            }
            if let Some(&node) = owners.get((start + step) % n)
                && !out.contains(&node)
            {
                out.push(node);
            }
        }
    }

    /// NetworkTopologyStrategy from position `start`. `node_dc[node]` and
    /// `node_rack[node]` locate each node (racks numbered across all DCs, so equal
    /// rack names in two DCs are different racks, as Cassandra's `(dc, rack)` pairs).
    pub fn network_topology(
        &mut self,
        owners: &[u32],
        node_dc: &[u32],
        node_rack: &[u32],
        quotas: &[DcQuota],
        start: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        self.stamp += 1;
        let mut dcs_to_fill = 0;
        for (dc, q) in quotas.iter().enumerate() {
            if let (Some(left), Some(repeats)) = (self.left.get_mut(dc), self.repeats.get_mut(dc)) {
                *left = q.replicas;
                *repeats = q.rack_repeats;
            }
            if q.replicas > 0 {
                dcs_to_fill += 1;
            }
        }
        let n = owners.len();
        for step in 0..n {
            if dcs_to_fill == 0 {
                break;
            }
            let Some(&node) = owners.get((start + step) % n) else {
                break;
            };
            let (Some(&dc), Some(&rack)) =
                (node_dc.get(node as usize), node_rack.get(node as usize))
            else {
                continue;
            };
            let dc = dc as usize;
            let (Some(left), Some(repeats)) = (self.left.get_mut(dc), self.repeats.get_mut(dc))
            else {
                continue;
            };
            if *left == 0 {
                continue;
            }
            let Some(seen) = self.seen_rack.get_mut(rack as usize) else {
                continue;
            };
            if *seen != self.stamp {
                // A rack not used yet: always taken (its first node cannot be a replica yet).
                *seen = self.stamp;
            } else if *repeats <= 0 || out.contains(&node) {
                continue;
            } else {
                *repeats -= 1;
            }
            out.push(node);
            *left -= 1;
            if *left == 0 {
                dcs_to_fill -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_takes_next_distinct_nodes() {
        let owners = [0, 0, 1, 0, 2, 1];
        let mut out = Vec::new();
        Walker::simple(&owners, 0, 3, &mut out);
        assert_eq!(out, vec![0, 1, 2]);
        Walker::simple(&owners, 4, 2, &mut out);
        assert_eq!(out, vec![2, 1], "wraps around: positions 4, 5");
        Walker::simple(&owners, 5, 3, &mut out);
        assert_eq!(out, vec![1, 0, 2]);
    }

    #[test]
    fn nts_prefers_unused_racks() {
        // Nodes 0..4 in one DC; racks: 0 -> r0, 1 -> r0, 2 -> r1, 3 -> r2.
        let owners = [0, 1, 2, 3];
        let node_dc = [0, 0, 0, 0];
        let node_rack = [0, 0, 1, 2];
        let quotas = [DcQuota {
            replicas: 3,
            rack_repeats: 0,
        }];
        let mut w = Walker::new(3, 1);
        let mut out = Vec::new();
        w.network_topology(&owners, &node_dc, &node_rack, &quotas, 0, &mut out);
        assert_eq!(
            out,
            vec![0, 2, 3],
            "node 1 shares node 0's rack and is skipped"
        );
    }

    #[test]
    fn nts_repeats_a_rack_only_when_racks_run_out() {
        // Two racks, RF 3: one node per rack, then the next node not yet taken.
        let owners = [0, 1, 2, 3];
        let node_dc = [0, 0, 0, 0];
        let node_rack = [0, 0, 0, 1];
        let quotas = [DcQuota {
            replicas: 3,
            rack_repeats: 1,
        }];
        let mut w = Walker::new(2, 1);
        let mut out = Vec::new();
        w.network_topology(&owners, &node_dc, &node_rack, &quotas, 0, &mut out);
        // Node 1 (rack 0, seen) is accepted as the one repeat before rack 1 is met.
        assert_eq!(out, vec![0, 1, 3]);
        w.network_topology(&owners, &node_dc, &node_rack, &quotas, 3, &mut out);
        assert_eq!(out, vec![3, 0, 1]);
    }

    #[test]
    fn nts_fills_each_datacenter_and_skips_rf_zero() {
        let owners = [0, 1, 2, 3, 4];
        let node_dc = [0, 1, 0, 1, 2];
        let node_rack = [0, 1, 0, 1, 2];
        let quotas = [
            DcQuota {
                replicas: 2,
                rack_repeats: 1,
            },
            DcQuota {
                replicas: 1,
                rack_repeats: 0,
            },
            DcQuota {
                replicas: 0,
                rack_repeats: -1,
            },
        ];
        let mut w = Walker::new(3, 3);
        let mut out = Vec::new();
        w.network_topology(&owners, &node_dc, &node_rack, &quotas, 1, &mut out);
        assert_eq!(out, vec![1, 2, 0]);
    }
}
