//! What a cluster looks like before its tokens are drawn: nodes in racks in
//! datacenters, their vnode counts, how tokens are allocated, and the keyspace's
//! replication. Built from command-line flags ([`Topology::uniform`]) or a topology
//! file ([`crate::parse_topology`]); [`Topology::validate`] holds every rule both share.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::token::Token;

/// Cassandra 4.0+'s default `num_tokens` (cassandra.yaml).
pub const DEFAULT_NUM_TOKENS: u32 = 16;

/// Above this many vnodes in total the ring is refused rather than built: it bounds the
/// memory a topology can ask for (Cassandra's largest practical rings are far smaller).
/// 2^20 is 4,096 nodes of 256 vnodes each.
pub const MAX_TOTAL_VNODES: u64 = 1 << 20;

/// The most nodes a topology may have: memory and time grow with each node
/// (the largest Cassandra clusters in service hold a few thousand).
pub const MAX_NODES: usize = 10_000;

/// The most datacenters a topology may have (placement walks every
/// datacenter for every range).
pub const MAX_DATACENTERS: usize = 100;

/// How the tokens of nodes without explicit tokens are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// Uniform random tokens, as Cassandra assigns them without the token allocator
    /// (`Murmur3Partitioner.getRandomToken`, `BootStrapper.getRandomTokens`).
    Random,
    /// Evenly spaced tokens per datacenter, interleaved node by node and rack by rack:
    /// every node owns its exact share, with and without replication — the ideal an
    /// operator's `initial_token` list or a good allocator aims at.
    Balanced,
    /// Cassandra's `NoReplicationTokenAllocator` idea, per datacenter: each joining node
    /// takes its vnodes out of the largest vnodes of the most loaded nodes. Primary
    /// ownership comes out even; ownership with replication does not quite.
    Allocator,
}

impl Allocation {
    pub fn name(self) -> &'static str {
        match self {
            Allocation::Random => "random",
            Allocation::Balanced => "balanced",
            Allocation::Allocator => "allocator",
        }
    }
}

/// The keyspace's replication strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replication {
    /// `SimpleStrategy`: the next `rf` distinct nodes clockwise, whatever their DC or rack.
    Simple { rf: u32 },
    /// `NetworkTopologyStrategy`: a replica count per datacenter, rack-aware.
    NetworkTopology { datacenters: Vec<DcReplication> },
}

/// One `'dc': rf` entry of a NetworkTopologyStrategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcReplication {
    pub dc: String,
    pub rf: u32,
    /// Where the entry is written (topology files only).
    pub span: Option<Range<usize>>,
}

impl Replication {
    /// The replication factor configured for `dc` (SimpleStrategy: its single RF).
    pub fn rf_for(&self, dc: &str) -> u32 {
        match self {
            Replication::Simple { rf } => *rf,
            Replication::NetworkTopology { datacenters } => {
                datacenters.iter().find(|d| d.dc == dc).map_or(0, |d| d.rf)
            }
        }
    }

    /// `SimpleStrategy` or `NetworkTopologyStrategy`, with its options as CQL writes them.
    pub fn describe(&self) -> String {
        match self {
            Replication::Simple { rf } => format!("SimpleStrategy, replication_factor {rf}"),
            Replication::NetworkTopology { datacenters } => {
                let dcs: Vec<String> = datacenters
                    .iter()
                    .map(|d| format!("{} {}", d.dc, d.rf))
                    .collect();
                format!("NetworkTopologyStrategy, {}", dcs.join(", "))
            }
        }
    }
}

/// One node as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    pub name: String,
    pub dc: String,
    pub rack: String,
    /// Its vnode count (`num_tokens`); ignored when `tokens` is given.
    pub num_tokens: u32,
    /// Explicit tokens (`initial_token`); drawn by the allocation when absent.
    pub tokens: Option<Vec<Token>>,
    /// Where the node is declared (topology files only).
    pub span: Option<Range<usize>>,
}

impl NodeSpec {
    /// How many tokens the node will have.
    pub fn vnodes(&self) -> u32 {
        match &self.tokens {
            Some(t) => u32::try_from(t.len()).unwrap_or(u32::MAX),
            None => self.num_tokens,
        }
    }
}

/// A cluster to build a [`crate::Ring`] from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// In declaration order: datacenters and racks grouped, as files list them.
    pub nodes: Vec<NodeSpec>,
    pub allocation: Allocation,
    pub seed: u64,
    pub replication: Replication,
    /// Where the replication is written (topology files only).
    pub replication_span: Option<Range<usize>>,
}

impl Topology {
    /// `--nodes N --vnodes V --rf R`: nodes `node1..nodeN` in datacenter `dc1`, rack
    /// `rack1`, SimpleStrategy with RF `rf`.
    pub fn uniform(
        nodes: u32,
        vnodes: u32,
        rf: u32,
        allocation: Allocation,
        seed: u64,
    ) -> Topology {
        Topology {
            nodes: (1..=nodes)
                .map(|i| NodeSpec {
                    name: format!("node{i}"),
                    dc: "dc1".into(),
                    rack: "rack1".into(),
                    num_tokens: vnodes,
                    tokens: None,
                    span: None,
                })
                .collect(),
            allocation,
            seed,
            replication: Replication::Simple { rf },
            replication_span: None,
        }
    }

    /// Datacenter names in order of first appearance.
    pub fn datacenters(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for n in &self.nodes {
            if !out.contains(&n.dc.as_str()) {
                out.push(&n.dc);
            }
        }
        out
    }

    /// Checks everything Cassandra would refuse or that would make the ring
    /// meaningless; the first problem found is returned.
    pub fn validate(&self) -> Result<(), TopologyError> {
        if self.nodes.is_empty() {
            return Err(TopologyError::new(TopologyErrorKind::NoNodes, None));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(TopologyError::new(
                TopologyErrorKind::TooManyNodes {
                    count: self.nodes.len(),
                },
                None,
            ));
        }
        let dcs: HashSet<&str> = self.nodes.iter().map(|n| n.dc.as_str()).collect();
        if dcs.len() > MAX_DATACENTERS {
            return Err(TopologyError::new(
                TopologyErrorKind::TooManyDatacenters { count: dcs.len() },
                None,
            ));
        }
        let mut names: HashSet<&str> = HashSet::new();
        let mut tokens: HashMap<i64, &str> = HashMap::new();
        let mut total_vnodes = 0u64;
        for node in &self.nodes {
            if node.name.trim().is_empty() {
                return Err(TopologyError::new(
                    TopologyErrorKind::EmptyName,
                    node.span.clone(),
                ));
            }
            if !names.insert(&node.name) {
                return Err(TopologyError::new(
                    TopologyErrorKind::DuplicateNode {
                        name: node.name.clone(),
                    },
                    node.span.clone(),
                ));
            }
            match &node.tokens {
                Some(list) if list.is_empty() => {
                    return Err(TopologyError::new(
                        TopologyErrorKind::EmptyTokens {
                            node: node.name.clone(),
                        },
                        node.span.clone(),
                    ));
                }
                Some(list) => {
                    for t in list {
                        if let Some(other) = tokens.insert(t.0, &node.name) {
                            return Err(TopologyError::new(
                                TopologyErrorKind::DuplicateToken {
                                    token: *t,
                                    first: other.to_string(),
                                    second: node.name.clone(),
                                },
                                node.span.clone(),
                            ));
                        }
                    }
                }
                None if node.num_tokens == 0 => {
                    return Err(TopologyError::new(
                        TopologyErrorKind::ZeroVnodes {
                            node: node.name.clone(),
                        },
                        node.span.clone(),
                    ));
                }
                None => {}
            }
            total_vnodes += u64::from(node.vnodes());
        }
        if total_vnodes > MAX_TOTAL_VNODES {
            return Err(TopologyError::new(
                TopologyErrorKind::TooManyVnodes {
                    total: total_vnodes,
                },
                None,
            ));
        }
        self.validate_replication()
    }

    fn validate_replication(&self) -> Result<(), TopologyError> {
        let span = self.replication_span.clone();
        match &self.replication {
            Replication::Simple { rf } => {
                if *rf == 0 {
                    return Err(TopologyError::new(TopologyErrorKind::NoReplicas, span));
                }
                let nodes = self.nodes.len();
                if *rf as usize > nodes {
                    return Err(TopologyError::new(
                        TopologyErrorKind::RfExceedsNodes {
                            dc: None,
                            rf: *rf,
                            nodes,
                        },
                        span,
                    ));
                }
            }
            Replication::NetworkTopology { datacenters } => {
                let known = self.datacenters();
                for entry in datacenters {
                    let at = entry.span.clone().or_else(|| span.clone());
                    if !known.contains(&entry.dc.as_str()) {
                        return Err(TopologyError::new(
                            TopologyErrorKind::UnknownDc {
                                dc: entry.dc.clone(),
                                known: known.iter().map(|s| s.to_string()).collect(),
                            },
                            at,
                        ));
                    }
                    let nodes = self.nodes.iter().filter(|n| n.dc == entry.dc).count();
                    if entry.rf as usize > nodes {
                        return Err(TopologyError::new(
                            TopologyErrorKind::RfExceedsNodes {
                                dc: Some(entry.dc.clone()),
                                rf: entry.rf,
                                nodes,
                            },
                            at,
                        ));
                    }
                }
                if datacenters.iter().all(|d| d.rf == 0) {
                    return Err(TopologyError::new(TopologyErrorKind::NoReplicas, span));
                }
            }
        }
        Ok(())
    }
}

/// A topology that cannot be built, with where it is written when it comes from a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct TopologyError {
    pub kind: TopologyErrorKind,
    /// Byte range in the topology file.
    pub span: Option<Range<usize>>,
}

impl TopologyError {
    pub(crate) fn new(kind: TopologyErrorKind, span: Option<Range<usize>>) -> Self {
        Self { kind, span }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopologyErrorKind {
    #[error("the topology has no nodes")]
    NoNodes,
    #[error("a node name cannot be empty")]
    EmptyName,
    #[error("node '{name}' is declared twice; node names must be unique")]
    DuplicateNode { name: String },
    #[error("node '{node}' has num_tokens = 0; every node needs at least one token")]
    ZeroVnodes { node: String },
    #[error("node '{node}' has an empty token list")]
    EmptyTokens { node: String },
    #[error("token {token} is given to both '{first}' and '{second}'")]
    DuplicateToken {
        token: Token,
        first: String,
        second: String,
    },
    #[error("{total} vnodes in total is more than this tool models (at most {MAX_TOTAL_VNODES})")]
    TooManyVnodes { total: u64 },
    #[error("{count} nodes is more than this tool models (at most {MAX_NODES})")]
    TooManyNodes { count: usize },
    #[error("{count} datacenters is more than this tool models (at most {MAX_DATACENTERS})")]
    TooManyDatacenters { count: usize },
    #[error(
        "replication places no replica: give at least one datacenter a replication factor of 1 or more"
    )]
    NoReplicas,
    #[error("{}", rf_exceeds(dc, *rf, *nodes))]
    RfExceedsNodes {
        dc: Option<String>,
        rf: u32,
        nodes: usize,
    },
    #[error("replication names datacenter '{dc}', which has no nodes (datacenters: {})", known.join(", "))]
    UnknownDc { dc: String, known: Vec<String> },
    #[error("{message}")]
    Invalid { message: String },
}

fn rf_exceeds(dc: &Option<String>, rf: u32, nodes: usize) -> String {
    let plural = if nodes == 1 { "node" } else { "nodes" };
    match dc {
        Some(dc) => format!(
            "replication factor {rf} in datacenter '{dc}' is more than its {nodes} {plural}: \
             each replica of a range must be on a different node"
        ),
        None => format!(
            "replication factor {rf} is more than the cluster's {nodes} {plural}: \
             each replica of a range must be on a different node"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn uniform_topology_is_valid() {
        let t = Topology::uniform(3, 16, 3, Allocation::Random, 1);
        assert_eq!(t.nodes.len(), 3);
        assert_eq!(t.datacenters(), vec!["dc1"]);
        assert_eq!(t.validate(), Ok(()));
    }

    #[test]
    fn rf_above_nodes_is_refused() {
        let err = Topology::uniform(2, 16, 3, Allocation::Random, 1)
            .validate()
            .expect_err("this input is refused");
        assert!(matches!(
            err.kind,
            TopologyErrorKind::RfExceedsNodes {
                rf: 3,
                nodes: 2,
                ..
            }
        ));
        assert!(
            err.to_string().contains("more than the cluster's 2 nodes"),
            "{err}"
        );
    }

    #[test]
    fn zero_vnodes_and_zero_nodes_are_refused() {
        let err = Topology::uniform(3, 0, 1, Allocation::Random, 1)
            .validate()
            .expect_err("this input is refused");
        assert!(matches!(err.kind, TopologyErrorKind::ZeroVnodes { .. }));
        let err = Topology::uniform(0, 16, 1, Allocation::Random, 1)
            .validate()
            .expect_err("this input is refused");
        assert_eq!(err.kind, TopologyErrorKind::NoNodes);
    }

    #[test]
    fn nts_checks_each_datacenter() {
        let mut t = Topology::uniform(3, 4, 1, Allocation::Random, 1);
        t.replication = nts(&[("dc1", 3), ("dc2", 1)]);
        let err = t.validate().expect_err("this input is refused");
        assert!(matches!(&err.kind, TopologyErrorKind::UnknownDc { dc, .. } if dc == "dc2"));
        t.replication = nts(&[("dc1", 4)]);
        let err = t.validate().expect_err("this input is refused");
        assert!(err.to_string().contains("datacenter 'dc1'"), "{err}");
        t.replication = nts(&[("dc1", 0)]);
        assert_eq!(
            t.validate().expect_err("this input is refused").kind,
            TopologyErrorKind::NoReplicas
        );
    }

    #[test]
    fn duplicate_names_and_tokens_are_refused() {
        let mut t = Topology::uniform(2, 4, 1, Allocation::Random, 1);
        t.nodes[1].name = "node1".into();
        assert!(matches!(
            t.validate().expect_err("this input is refused").kind,
            TopologyErrorKind::DuplicateNode { .. }
        ));
        let mut t = Topology::uniform(2, 4, 1, Allocation::Random, 1);
        t.nodes[0].tokens = Some(vec![Token(5)]);
        t.nodes[1].tokens = Some(vec![Token(7), Token(5)]);
        assert!(matches!(
            t.validate().expect_err("this input is refused").kind,
            TopologyErrorKind::DuplicateToken {
                token: Token(5),
                ..
            }
        ));
    }

    #[test]
    fn explicit_tokens_define_the_vnode_count() {
        let mut t = Topology::uniform(1, 16, 1, Allocation::Random, 1);
        t.nodes[0].tokens = Some(vec![Token(1), Token(2)]);
        assert_eq!(t.nodes[0].vnodes(), 2);
        t.nodes[0].num_tokens = 0;
        assert_eq!(
            t.validate(),
            Ok(()),
            "num_tokens is not used when tokens are given"
        );
    }
}
