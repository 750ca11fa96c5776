//! Vose's alias method: O(1) draws from a discrete distribution, used for Zipf
//! keys (over groups of ranks with nearly equal shares).

use crate::rng::Rng;

#[derive(Debug, Clone)]
pub struct AliasTable {
    /// Probability (scaled to u64) of keeping column `i` rather than its alias.
    keep: Vec<u64>,
    alias: Vec<u32>,
}

impl AliasTable {
    /// Builds the table for `weights` (non-negative, not all zero; at most 2^32 entries).
    pub fn new(weights: &[f64]) -> Option<Self> {
        let n = weights.len();
        let total: f64 = weights.iter().filter(|w| w.is_finite() && **w > 0.0).sum();
        if n == 0 || n > u32::MAX as usize || total <= 0.0 {
            return None;
        }
        let mut scaled: Vec<f64> = weights
            .iter()
            .map(|w| {
                if w.is_finite() && *w > 0.0 {
                    w * n as f64 / total
                } else {
                    0.0
                }
            })
            .collect();
        let mut keep = vec![u64::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled.get(i).is_some_and(|s| *s < 1.0));
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            let ps = scaled.get(s).copied().unwrap_or(0.0);
            if let Some(k) = keep.get_mut(s) {
                *k = to_u64(ps);
            }
            if let Some(a) = alias.get_mut(s) {
                *a = l as u32;
            }
            if let Some(pl) = scaled.get_mut(l) {
                *pl -= 1.0 - ps;
                if *pl < 1.0 {
                    large.pop();
                    small.push(l);
                }
            }
        }
        // Whatever is left (rounding) keeps itself with certainty.
        Some(Self { keep, alias })
    }

    #[inline(always)]
    pub fn sample(&self, rng: &mut Rng) -> usize {
        let n = self.keep.len() as u64;
        let column = rng.below(n) as usize;
        let threshold = self.keep.get(column).copied().unwrap_or(u64::MAX);
        if threshold == u64::MAX || rng.next_u64() < threshold {
            column
        } else {
            self.alias.get(column).map_or(column, |a| *a as usize)
        }
    }
}

fn to_u64(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else if p <= 0.0 {
        0
    } else {
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_weights() {
        let weights = [0.5, 0.25, 0.125, 0.125, 0.0];
        let table = AliasTable::new(&weights).expect("valid weights");
        let mut rng = Rng::new(11);
        let mut counts = [0u32; 5];
        let n = 200_000;
        for _ in 0..n {
            if let Some(c) = counts.get_mut(table.sample(&mut rng)) {
                *c += 1;
            }
        }
        for (c, w) in counts.iter().zip(weights) {
            let expected = w * f64::from(n);
            let sd = (expected * (1.0 - w)).sqrt().max(1.0);
            assert!((f64::from(*c) - expected).abs() < 5.0 * sd, "{counts:?}");
        }
        assert_eq!(counts[4], 0, "a zero weight is never drawn");
    }

    #[test]
    fn refuses_empty_or_zero_weights() {
        assert!(AliasTable::new(&[]).is_none());
        assert!(AliasTable::new(&[0.0, 0.0]).is_none());
        assert!(AliasTable::new(&[f64::NAN, 1.0]).is_some());
    }
}
