//! Finding the heaviest partitions in a stream of samples without a map entry per
//! partition: a fixed table of [`TABLE_BUCKETS`] buckets of [`BUCKET_WAYS`] tokens (one
//! cache line of keys each) sums exactly the weights of the first
//! [`EXACT_PARTITIONS`] distinct partitions seen; later ones (or, rarely, one that
//! finds 8 consecutive buckets full) compete by their single-sample weights in two
//! small top lists (by data, by requests), and the result reports `exact = false`.
//! Heavy partitions recur, so they are almost always in the table early.
//!
//! A lookup is one cache line of keys compared all at once: no branch depends on
//! where in the bucket a token sits, which keeps streams of distinct tokens fast.

use crate::token::Token;

const BUCKET_BITS: u32 = 11;
/// Buckets in the table.
pub const TABLE_BUCKETS: usize = 1 << BUCKET_BITS;
/// Tokens per bucket: 8 keys of 8 bytes fill one 64-byte cache line.
pub const BUCKET_WAYS: usize = 8;
/// Buckets a new token may go to (from its home bucket on) before it overflows.
const PROBES: usize = 8;
/// Distinct partitions the table takes: half its slots (with 8 buckets to choose
/// from, random tokens first find no room at 69–76% of the slots, so all of them fit).
pub const EXACT_PARTITIONS: usize = TABLE_BUCKETS * BUCKET_WAYS / 2;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    token: i64,
    data: f64,
    requests: f64,
    samples: u64,
}

/// A partition's summed weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tally {
    pub token: Token,
    pub data: f64,
    pub requests: f64,
    pub samples: u64,
}

/// The empty-key marker. It is also a real token (the empty key's), which is
/// therefore tallied in its own slot.
const EMPTY: i64 = i64::MIN;

pub(crate) struct HotTracker {
    /// Probed on every sample; kept apart from the weights so that a probe reads one
    /// cache line.
    keys: Vec<[i64; BUCKET_WAYS]>,
    slots: Vec<[Slot; BUCKET_WAYS]>,
    fill: Vec<u8>,
    reach: Vec<u8>,
    entries: usize,
    min_token: Slot,
    overflowed: bool,
    by_data: TopList,
    by_requests: TopList,
}

impl HotTracker {
    pub fn new(k: usize) -> Self {
        Self {
            keys: vec![[EMPTY; BUCKET_WAYS]; TABLE_BUCKETS],
            slots: vec![[Slot::default(); BUCKET_WAYS]; TABLE_BUCKETS],
            fill: vec![0; TABLE_BUCKETS],
            reach: vec![0; TABLE_BUCKETS],
            entries: 0,
            min_token: Slot {
                token: EMPTY,
                ..Slot::default()
            },
            overflowed: false,
            by_data: TopList::new(k, |s| s.data),
            by_requests: TopList::new(k, |s| s.requests),
        }
    }

    #[inline]
    pub fn observe(&mut self, token: i64, data: f64, requests: f64) {
        if token == EMPTY {
            add(&mut self.min_token, data, requests);
            return;
        }
        // Tokens of real keys are already uniform; the multiply spreads synthetic ones.
        let home =
            ((token as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUCKET_BITS)) as usize;
        // A token lives in the first bucket, from its home on, that had room when it
        // was first seen; `reach[home]` is how far past its home any such token went,
        // so a lookup reads one or two cache lines even when the table is full.
        let reach = self.reach.get(home).copied().unwrap_or(0);
        for step in 0..=usize::from(reach) {
            let b = (home + step) & (TABLE_BUCKETS - 1);
            let (Some(keys), Some(slots)) = (self.keys.get(b), self.slots.get_mut(b)) else {
                return;
            };
            let hits = keys
                .iter()
                .enumerate()
                .fold(0u32, |mask, (j, &k)| mask | (u32::from(k == token) << j));
            if hits != 0 {
                if let Some(slot) = slots.get_mut(hits.trailing_zeros() as usize) {
                    add(slot, data, requests);
                }
                return;
            }
        }
        // A new token: the first bucket with room (the fill counts stay in L1). The
        // table takes no more than EXACT_PARTITIONS, so that the reach stays short.
        let probes = if self.entries < EXACT_PARTITIONS {
            PROBES
        } else {
            0
        };
        for step in 0..probes {
            let b = (home + step) & (TABLE_BUCKETS - 1);
            let (Some(keys), Some(slots), Some(fill)) = (
                self.keys.get_mut(b),
                self.slots.get_mut(b),
                self.fill.get_mut(b),
            ) else {
                return;
            };
            let way = usize::from(*fill);
            if let (Some(key), Some(slot)) = (keys.get_mut(way), slots.get_mut(way)) {
                *key = token;
                *slot = Slot {
                    token,
                    data,
                    requests,
                    samples: 1,
                };
                *fill += 1;
                self.entries += 1;
                if let Some(r) = self.reach.get_mut(home) {
                    *r = (*r).max(step as u8);
                }
                return;
            }
        }
        self.overflowed = true;
        let sample = Slot {
            token,
            data,
            requests,
            samples: 1,
        };
        self.by_data.offer(sample);
        self.by_requests.offer(sample);
    }

    /// Whether every partition's weight was summed exactly.
    pub fn exact(&self) -> bool {
        !self.overflowed
    }

    /// The `k` heaviest partitions by `score`, heaviest first (ties: lower token first).
    pub fn top(&self, k: usize, score: impl Fn(&Tally) -> f64) -> Vec<Tally> {
        let mut all: Vec<Tally> = self
            .slots
            .iter()
            .flatten()
            .chain([&self.min_token])
            .chain(&self.by_data.items)
            .chain(&self.by_requests.items)
            .filter(|s| s.samples > 0)
            .map(|s| Tally {
                token: Token(s.token),
                data: s.data,
                requests: s.requests,
                samples: s.samples,
            })
            .collect();
        // The two overflow lists may hold the same token.
        all.sort_by_key(|t| t.token);
        all.dedup_by_key(|t| t.token);
        all.sort_by(|a, b| score(b).total_cmp(&score(a)).then(a.token.cmp(&b.token)));
        all.truncate(k);
        all
    }
}

#[inline(always)]
fn add(slot: &mut Slot, data: f64, requests: f64) {
    slot.data += data;
    slot.requests += requests;
    slot.samples += 1;
}

/// The `k` heaviest single samples by one weight.
struct TopList {
    items: Vec<Slot>,
    k: usize,
    weight: fn(&Slot) -> f64,
    /// The lightest weight in a full list: lighter samples are not looked at.
    threshold: f64,
}

impl TopList {
    fn new(k: usize, weight: fn(&Slot) -> f64) -> Self {
        Self {
            items: Vec::with_capacity(k),
            k,
            weight,
            threshold: f64::NEG_INFINITY,
        }
    }

    fn offer(&mut self, sample: Slot) {
        let w = (self.weight)(&sample);
        if self.k == 0 || w <= self.threshold {
            return;
        }
        if let Some(same) = self.items.iter_mut().find(|s| s.token == sample.token) {
            add(same, sample.data, sample.requests);
        } else if self.items.len() < self.k {
            self.items.push(sample);
        } else if let Some(lightest) = self
            .items
            .iter_mut()
            .min_by(|a, b| (self.weight)(a).total_cmp(&(self.weight)(b)))
        {
            *lightest = sample;
        }
        if self.items.len() == self.k {
            self.threshold = self
                .items
                .iter()
                .map(|s| (self.weight)(s))
                .fold(f64::INFINITY, f64::min);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_repeated_tokens_exactly() {
        let mut h = HotTracker::new(3);
        for i in 0..1000i64 {
            h.observe(i % 10, 1.0, 2.0);
        }
        h.observe(3, 50.0, 0.0);
        assert!(h.exact());
        let top = h.top(2, |t| t.data);
        assert_eq!(top.len(), 2);
        assert_eq!(top[0].token, Token(3));
        assert_eq!(top[0].data, 150.0);
        assert_eq!(top[0].samples, 101);
        assert_eq!(top[1].data, 100.0);
        assert_eq!(top[1].token, Token(0), "ties go to the lower token");
    }

    #[test]
    fn overflow_keeps_the_heaviest_late_samples() {
        let mut h = HotTracker::new(2);
        // More distinct tokens than the table has slots: some bucket overflows.
        for i in 0..(TABLE_BUCKETS * BUCKET_WAYS) as i64 + 100 {
            h.observe(i * 7919, 1.0, 1.0);
        }
        assert!(!h.exact());
        h.observe(-5, 1000.0, 0.0);
        h.observe(-6, 0.0, 500.0);
        assert_eq!(h.top(1, |t| t.data)[0].token, Token(-5));
        assert_eq!(h.top(1, |t| t.requests)[0].token, Token(-6));
    }

    #[test]
    fn half_the_capacity_in_distinct_tokens_stays_exact() {
        let mut h = HotTracker::new(1);
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..EXACT_PARTITIONS {
            h.observe(rng.next_u64() as i64, 1.0, 1.0);
        }
        assert!(h.exact());
    }

    #[test]
    fn the_minimum_token_is_a_partition_like_any_other() {
        let mut h = HotTracker::new(2);
        h.observe(i64::MIN, 2.0, 0.0);
        h.observe(i64::MIN, 3.0, 0.0);
        h.observe(7, 1.0, 0.0);
        let top = h.top(2, |t| t.data);
        assert_eq!(
            (top[0].token, top[0].data, top[0].samples),
            (Token::MIN, 5.0, 2)
        );
        assert_eq!(top[1].token, Token(7));
    }
}
