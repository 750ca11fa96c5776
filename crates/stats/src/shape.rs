//! How rows spread over the partitions of a table: the percentiles, across
//! partitions, of each partition's share of the rows (as `nodetool
//! tablehistograms` reports them: p50 is the median partition, not the median row).

use crate::distribution::{Distribution, Group, groups};

/// The percentiles every report shows, in order: 50, 75, 95, 98, 99, max.
pub const PERCENTILES: [f64; 6] = [0.50, 0.75, 0.95, 0.98, 0.99, 1.0];

/// Above this many groups a product of distributions is re-binned.
const MAX_GROUPS: usize = 4_096;
/// Hottest groups kept exact when re-binning (the max and the top of the tail).
const KEEP_EXACT: usize = 64;
/// Re-binned groups span shares within this ratio.
const BIN_RATIO: f64 = 1.01;

/// Percentiles of the per-partition share of rows over `slots` key combinations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShareQuantiles {
    /// Key combinations (the product of the columns' distinct counts).
    pub slots: f64,
    /// The share of the partition at each of [`PERCENTILES`].
    pub shares: [f64; 6],
}

/// The share percentiles of the product of independent columns, each given as its
/// distribution and distinct count. No columns: a single slot holding everything.
pub fn share_quantiles(columns: &[(Distribution, f64)]) -> ShareQuantiles {
    let mut combined = vec![Group {
        share: 1.0,
        count: 1.0,
    }];
    for (distribution, distinct) in columns {
        let next = groups(distribution, *distinct);
        combined = product(&combined, &next);
    }
    let slots: f64 = combined.iter().map(|g| g.count).sum();
    combined.sort_by(|a, b| a.share.total_cmp(&b.share));
    let mut shares = [0.0; 6];
    for (slot, p) in shares.iter_mut().zip(PERCENTILES) {
        *slot = quantile(&combined, slots, p);
    }
    ShareQuantiles { slots, shares }
}

/// The share at percentile `p` of groups sorted by ascending share: the value of
/// the partition at position ⌈p·slots⌉.
fn quantile(sorted: &[Group], slots: f64, p: f64) -> f64 {
    let target = (p * slots).ceil().max(1.0);
    let mut seen = 0.0;
    for g in sorted {
        seen += g.count;
        if seen >= target {
            return g.share;
        }
    }
    sorted.last().map_or(0.0, |g| g.share)
}

fn product(a: &[Group], b: &[Group]) -> Vec<Group> {
    let (a, b) = (shrink(a.to_vec()), shrink(b.to_vec()));
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in &a {
        for y in &b {
            out.push(Group {
                share: x.share * y.share,
                count: x.count * y.count,
            });
        }
    }
    if out.len() > MAX_GROUPS {
        shrink_to(out, BIN_RATIO, MAX_GROUPS)
    } else {
        out
    }
}

/// Inputs of a product are cut to at most this many groups, bounding its size.
const MAX_FACTOR_GROUPS: usize = 1_024;

fn shrink(groups: Vec<Group>) -> Vec<Group> {
    if groups.len() > MAX_FACTOR_GROUPS {
        shrink_to(groups, 1.05, MAX_FACTOR_GROUPS)
    } else {
        groups
    }
}

/// Re-bins with a ratio that widens until at most `limit` groups remain.
fn shrink_to(mut groups: Vec<Group>, mut ratio: f64, limit: usize) -> Vec<Group> {
    for _ in 0..32 {
        groups = rebin(groups, ratio);
        if groups.len() <= limit {
            break;
        }
        ratio = 1.0 + (ratio - 1.0) * 2.0;
    }
    groups
}

/// Merges groups of nearly equal share (within `ratio`), keeping the hottest exact
/// and the total count and total share unchanged.
fn rebin(mut groups: Vec<Group>, ratio: f64) -> Vec<Group> {
    groups.sort_by(|a, b| b.share.total_cmp(&a.share));
    let mut out: Vec<Group> = Vec::new();
    let mut bin: Option<(f64, f64, f64)> = None; // (first share, count, share·count)
    for (i, g) in groups.into_iter().enumerate() {
        if i < KEEP_EXACT {
            out.push(g);
            continue;
        }
        match &mut bin {
            Some((first, count, mass)) if g.share * ratio >= *first => {
                *count += g.count;
                *mass += g.share * g.count;
            }
            _ => {
                if let Some((_, count, mass)) = bin.take() {
                    out.push(Group {
                        share: mass / count,
                        count,
                    });
                }
                bin = Some((g.share, g.count, g.share * g.count));
            }
        }
    }
    if let Some((_, count, mass)) = bin {
        out.push(Group {
            share: mass / count,
            count,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::harmonic;

    #[test]
    fn uniform_columns_give_equal_partitions() {
        let q = share_quantiles(&[
            (Distribution::Uniform, 100.0),
            (Distribution::Sequential, 10.0),
        ]);
        assert_eq!(q.slots, 1000.0);
        assert!(q.shares.iter().all(|s| (s - 0.001).abs() < 1e-15), "{q:?}");
    }

    #[test]
    fn zipf_percentiles_are_the_ranks_counted_from_the_top() {
        // 100 keys, Zipf(1): the partition at p99 is the second hottest (rank 2),
        // p50 is rank 51 (position 50 of 100 counted from the coldest), max is rank 1.
        let q = share_quantiles(&[(Distribution::Zipf { exponent: 1.0 }, 100.0)]);
        let h = harmonic(100.0, 1.0);
        assert!((q.shares[5] - 1.0 / h).abs() < 1e-12);
        assert!((q.shares[4] - 1.0 / (2.0 * h)).abs() < 1e-12);
        assert!((q.shares[0] - 1.0 / (51.0 * h)).abs() < 1e-12);
    }

    #[test]
    fn product_of_two_large_skewed_columns_keeps_totals() {
        let cols = [
            (Distribution::Zipf { exponent: 1.1 }, 1e6),
            (Distribution::Zipf { exponent: 0.9 }, 1e5),
        ];
        let q = share_quantiles(&cols);
        assert!((q.slots - 1e11).abs() / 1e11 < 1e-9);
        // The hottest pair is the product of the two hottest values.
        let top = crate::distribution::zipf_top_share(1e6, 1.1)
            * crate::distribution::zipf_top_share(1e5, 0.9);
        assert!((q.shares[5] - top).abs() / top < 1e-12);
        assert!(q.shares.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn absurd_cardinalities_stay_finite() {
        let cols = [
            (Distribution::Zipf { exponent: 1.1 }, 1e300),
            (Distribution::Zipf { exponent: 1.1 }, 1e300),
        ];
        let q = share_quantiles(&cols);
        assert!(q.shares.iter().all(|s| s.is_finite() && *s >= 0.0), "{q:?}");
        assert!(q.shares.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn rebinning_preserves_count_and_mass() {
        let g: Vec<Group> = (1..=10_000)
            .map(|k| Group {
                share: 1.0 / f64::from(k),
                count: 2.0,
            })
            .collect();
        let count: f64 = g.iter().map(|g| g.count).sum();
        let mass: f64 = g.iter().map(|g| g.share * g.count).sum();
        let r = rebin(g, 1.01);
        assert!(r.len() < 1_000);
        assert_eq!(r.iter().map(|g| g.count).sum::<f64>(), count);
        let rmass: f64 = r.iter().map(|g| g.share * g.count).sum();
        assert!((rmass - mass).abs() / mass < 1e-12);
    }
}
