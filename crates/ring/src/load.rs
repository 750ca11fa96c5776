//! How a table's data and requests land on the nodes, from samples of its partitions.
//!
//! Each sample is a partition's token with a data weight (e.g. its bytes) and a request
//! weight (e.g. its reads per second). Data is stored on every replica, so a node's
//! `data_share` is the fraction of the table's data it holds a copy of: like effective
//! ownership it sums to RF × 100% per datacenter. A request is served by replicas of
//! its partition chosen symmetrically — a token-aware driver at CL ONE/LOCAL_ONE picks
//! one uniformly, QUORUM reads pick a majority, a write goes to all — so each replica
//! of a range gets the same fraction of the range's requests whatever the consistency
//! level; `request_share` spreads every request evenly over its replicas and sums to
//! 100% over the cluster.
//!
//! Placing is a bucket lookup and a binary search over the few ring tokens in the
//! sample's slice of the ring, with the weights summed per range and spread over the
//! precomputed replicas once at the end: no allocation per sample.

use crate::hot::HotTracker;
use crate::ownership::imbalance;
use crate::ring::{NodeId, Ring};
use crate::token::Token;

/// How many hottest partitions [`place_load`] reports.
pub const DEFAULT_TOP_PARTITIONS: usize = 10;

/// Samples placed per batch.
const BATCH: usize = 256;

/// One node's part of the load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeLoad {
    pub node: NodeId,
    /// Data weight stored on the node (every replica counts).
    pub data: f64,
    /// Request weight served by the node.
    pub requests: f64,
    /// `data / total data`: sums to RF per datacenter (as effective ownership).
    pub data_share: f64,
    /// `requests / total requests`: sums to 1 over the cluster.
    pub request_share: f64,
}

/// A heavy partition.
#[derive(Debug, Clone, PartialEq)]
pub struct HotPartition {
    pub token: Token,
    /// How many samples had this token.
    pub samples: u64,
    pub data: f64,
    pub requests: f64,
    /// Its fraction of the table's data (before replication).
    pub data_share: f64,
    /// Its fraction of the table's requests.
    pub request_share: f64,
    /// Its replicas, primary first.
    pub replicas: Vec<NodeId>,
}

/// max / mean per node, in the worst datacenter (see [`crate::imbalance`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadImbalance {
    pub data: Option<f64>,
    pub requests: Option<f64>,
}

/// Where the sampled load lands.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadReport {
    /// In [`Ring::nodes`] order.
    pub nodes: Vec<NodeLoad>,
    pub samples: u64,
    pub total_data: f64,
    pub total_requests: f64,
    pub imbalance: LoadImbalance,
    /// Heaviest first, by the larger of their data and request shares.
    pub hottest: Vec<HotPartition>,
    /// False when the samples had more distinct partitions than the hot-partition
    /// table sums exactly ([`crate::EXACT_PARTITIONS`]); the hottest list is then
    /// approximate for partitions first seen late.
    pub hottest_exact: bool,
}

/// Places sampled partitions on the ring; reports the [`DEFAULT_TOP_PARTITIONS`]
/// hottest. Negative, NaN and infinite weights count as 0.
pub fn place_load(ring: &Ring, samples: impl Iterator<Item = (Token, f64, f64)>) -> LoadReport {
    place_load_top(ring, samples, DEFAULT_TOP_PARTITIONS)
}

/// [`place_load`], reporting the `top` hottest partitions.
pub fn place_load_top(
    ring: &Ring,
    samples: impl Iterator<Item = (Token, f64, f64)>,
    top: usize,
) -> LoadReport {
    let ranges = ring.range_count();
    let mut hot = HotTracker::new(top);
    let (per_range, count) = sum_per_range(ring, samples, &mut hot);
    let range_data: Vec<f64> = per_range.iter().map(|s| s[0]).collect();
    let range_requests: Vec<f64> = per_range.iter().map(|s| s[1]).collect();

    let (node_data, node_requests) = spread_over_replicas(ring, &range_data, &range_requests);
    let node_count = ring.nodes().len();
    let total_data: f64 = range_data.iter().take(ranges).sum();
    let total_requests: f64 = range_requests.iter().take(ranges).sum();
    let share = |x: f64, total: f64| if total > 0.0 { x / total } else { 0.0 };

    let nodes = (0..node_count)
        .map(|i| {
            let data = node_data.get(i).copied().unwrap_or_default();
            let requests = node_requests.get(i).copied().unwrap_or_default();
            NodeLoad {
                node: NodeId(i as u32),
                data,
                requests,
                data_share: share(data, total_data),
                request_share: share(requests, total_requests),
            }
        })
        .collect();
    let hottest = hot
        .top(top, |t| {
            share(t.data, total_data).max(share(t.requests, total_requests))
        })
        .into_iter()
        .map(|t| HotPartition {
            token: t.token,
            samples: t.samples,
            data: t.data,
            requests: t.requests,
            data_share: share(t.data, total_data),
            request_share: share(t.requests, total_requests),
            replicas: ring.replicas(t.token).to_vec(),
        })
        .collect();
    LoadReport {
        nodes,
        samples: count,
        total_data,
        total_requests,
        imbalance: LoadImbalance {
            data: imbalance(ring, &node_data),
            requests: imbalance(ring, &node_requests),
        },
        hottest,
        hottest_exact: hot.exact(),
    }
}

/// Sums the samples' cleaned data and request weights per ring range (a slot
/// `[data, requests]` per range, plus one past the end), feeding each sample to
/// `hot`; returns the slots and how many samples there were.
fn sum_per_range(
    ring: &Ring,
    samples: impl Iterator<Item = (Token, f64, f64)>,
    hot: &mut HotTracker,
) -> (Vec<[f64; 2]>, u64) {
    let ranges = ring.range_count();
    // One slot more than the ranges: a token past the largest ring token lands in slot
    // `ranges` and is folded into range 0 (the wrapping range) afterwards, which keeps
    // the wrap test out of the loop. Data and requests share a slot (one cache line).
    let mut per_range = vec![[0.0f64; 2]; ranges + 1];
    let mut count = 0u64;
    // Samples are placed in batches, one pass per step: the lookups of a batch are
    // independent, so their cache misses overlap instead of queuing behind the work of
    // producing each sample.
    let mut batch: Vec<(i64, f64, f64)> = Vec::with_capacity(BATCH);
    let mut slots: Vec<usize> = Vec::with_capacity(BATCH);
    let mut samples =
        samples.map(|(token, data, requests)| (token.0, clean(data), clean(requests)));
    loop {
        batch.clear();
        batch.extend(samples.by_ref().take(BATCH));
        if batch.is_empty() {
            break;
        }
        count += batch.len() as u64;
        slots.clear();
        slots.extend(batch.iter().map(|s| ring.first_at_or_after(Token(s.0))));
        for (&slot, &(_, data, requests)) in slots.iter().zip(&batch) {
            if let Some(sum) = per_range.get_mut(slot) {
                sum[0] += data;
                sum[1] += requests;
            }
        }
        for &(token, data, requests) in &batch {
            hot.observe(token, data, requests);
        }
    }
    if let Some((&mut past_end, rest)) = per_range.split_last_mut()
        && let Some(first) = rest.first_mut()
    {
        first[0] += past_end[0];
        first[1] += past_end[1];
    }
    (per_range, count)
}

/// Each node's data and request weight: a range's data is stored on every
/// replica, its requests are split evenly between them.
fn spread_over_replicas(
    ring: &Ring,
    range_data: &[f64],
    range_requests: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let node_count = ring.nodes().len();
    let mut node_data = vec![0.0; node_count];
    let mut node_requests = vec![0.0; node_count];
    let per_replica = 1.0 / ring.replication_factor().max(1) as f64;
    for (range, (d, r)) in range_data
        .iter()
        .zip(range_requests)
        .enumerate()
        .take(ring.range_count())
    {
        for node in ring.range_replicas(range) {
            if let (Some(nd), Some(nr)) = (
                node_data.get_mut(node.index()),
                node_requests.get_mut(node.index()),
            ) {
                *nd += d;
                *nr += r * per_replica;
            }
        }
    }
    (node_data, node_requests)
}

#[inline(always)]
fn clean(weight: f64) -> f64 {
    if weight.is_finite() && weight > 0.0 {
        weight
    } else {
        0.0
    }
}
