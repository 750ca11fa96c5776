//! Token ownership from `nodetool status` (DG009): a node owning much more of
//! the ring than the others carries more of every table whatever the keys, so
//! an imbalance (DG004) is only the keys' fault when ownership is even.

use cqlmodel_diagnostics::{Diagnostic, Severity};
use cqlmodel_stats::units::format_bytes;

use super::rules::UNEVEN_OWNERSHIP;
use crate::model::NodeStatus;

/// max / mean effective ownership at which the ring is uneven.
pub const OWNERSHIP_RATIO: f64 = 1.25;

/// What `nodetool status` says about ownership, for the imbalance findings.
#[derive(Debug, Clone, PartialEq)]
pub struct Ownership {
    pub even: bool,
    /// `dc1: max 45.2% (10.0.0.3), mean 33.3%`, one datacenter after the other.
    pub summary: String,
}

struct Dc<'a> {
    name: &'a str,
    nodes: Vec<&'a NodeStatus>,
}

fn datacenters(status: &[NodeStatus]) -> Vec<Dc<'_>> {
    let mut out: Vec<Dc<'_>> = Vec::new();
    for n in status {
        match out.iter_mut().find(|d| d.name == n.datacenter) {
            Some(d) => d.nodes.push(n),
            None => out.push(Dc {
                name: &n.datacenter,
                nodes: vec![n],
            }),
        }
    }
    out
}

/// Per datacenter: the node owning the most, its share, and the mean share.
fn spread<'a>(dc: &Dc<'a>) -> Option<(&'a NodeStatus, f64, f64)> {
    let owned: Vec<(&NodeStatus, f64)> = dc
        .nodes
        .iter()
        .filter_map(|n| Some((*n, n.owns?)))
        .collect();
    if owned.len() < 2 {
        return None;
    }
    let mean = owned.iter().map(|(_, o)| o).sum::<f64>() / owned.len() as f64;
    let (node, max) = owned.into_iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    (mean > 0.0).then_some((node, max, mean))
}

pub fn ownership(status: &[NodeStatus]) -> Option<Ownership> {
    let dcs = datacenters(status);
    let parts: Vec<(String, bool)> = dcs
        .iter()
        .filter_map(|dc| {
            let (node, max, mean) = spread(dc)?;
            Some((
                format!(
                    "{}: max {:.1}% ({}), mean {:.1}%",
                    dc.name,
                    max * 100.0,
                    node.address,
                    mean * 100.0
                ),
                max / mean < OWNERSHIP_RATIO,
            ))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(Ownership {
        even: parts.iter().all(|(_, even)| *even),
        summary: parts
            .into_iter()
            .map(|(s, _)| s)
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// DG009 per datacenter whose ownership is uneven.
pub fn check(status: &[NodeStatus]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for dc in datacenters(status) {
        let Some((node, max, mean)) = spread(&dc) else {
            continue;
        };
        if max / mean < OWNERSHIP_RATIO {
            continue;
        }
        let kind = if node.effective {
            "effective ownership"
        } else {
            "raw token ownership (no keyspace given to nodetool status)"
        };
        let mut d = Diagnostic::new(
            Severity::Warning,
            UNEVEN_OWNERSHIP.code,
            format!(
                "token ownership in {} is uneven: {} owns {:.1}% of the ring, {:.1}× the mean of {} nodes ({:.1}%)",
                dc.name,
                node.address,
                max * 100.0,
                max / mean,
                dc.nodes.len(),
                mean * 100.0
            ),
        )
        .with_name(UNEVEN_OWNERSHIP.name)
        .with_file(node.origin.file)
        .with_primary(node.origin.span.clone(), format!("{} owns the most", node.address))
        .with_note(format!("{kind}, from nodetool status"))
        .with_help("every table's data and requests follow ownership: more vnodes with the token allocator (`allocate_tokens_for_local_replication_factor`), or evenly spaced tokens; `cqlmodel ring` shows what a token layout gives");
        let loads: Vec<String> = dc
            .nodes
            .iter()
            .filter_map(|n| {
                Some(format!(
                    "{} {}",
                    n.address,
                    format_bytes(n.load_bytes? as f64)
                ))
            })
            .collect();
        if !loads.is_empty() {
            d = d.with_note(format!("load: {}", loads.join(", ")));
        }
        out.push(d);
    }
    out
}
