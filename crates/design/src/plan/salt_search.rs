//! The fewest salt buckets that bring a table's partitions within the
//! limits: one search, shared by the sizing of keyed tables (sizing.rs) and
//! of tables read by time alone (time_only.rs).
//!
//! The fewest, not the next power of two: every salt bucket is one more
//! partition each read of a key runs (one more statement a page costs), and
//! `hash % n` spreads rows evenly for any `n`, so rounding a need of 257 up
//! to 512 would double every read's fan-out and buy nothing. Cassandra users
//! pick a salt from the partition size or write rate they need, and the size
//! command's own recommendation (cqlmodel_stats) is the fewest as well, so
//! the design's numbers agree with `cqlmodel size` on its output.

/// The fewest salt in `2..=limit` for which `fits` holds, or `None` when
/// even `limit` does not fit. A partition's rows and bytes only fall as the
/// salt grows, so the search doubles until a salt fits, then bisects between
/// the last salt that did not and the first that did: about 2·log2(n)
/// estimates instead of one per salt.
pub(super) fn fewest_salt(limit: u32, mut fits: impl FnMut(u32) -> bool) -> Option<u32> {
    if limit < 2 {
        return None;
    }
    // `low` never fits (1: unsalted, which sizing found over the limits).
    let mut low = 1;
    let mut high = 2;
    while !fits(high) {
        if high >= limit {
            return None;
        }
        low = high;
        high = high.saturating_mul(2).min(limit);
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if fits(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

#[cfg(test)]
mod tests {
    use super::fewest_salt;

    #[test]
    fn finds_the_fewest_salt_not_the_next_power_of_two() {
        // Partitions of 25.7M rows under a 100k limit need 257 buckets.
        let fits = |n: u32| 25_700_000.0 / f64::from(n) <= 100_000.0;
        assert_eq!(fewest_salt(1 << 20, fits), Some(257));
        assert_eq!(fewest_salt(64, fits), None);
        assert_eq!(fewest_salt(64, |n| n >= 2), Some(2));
        assert_eq!(fewest_salt(64, |n| n >= 64), Some(64));
        assert_eq!(fewest_salt(64, |n| n >= 3), Some(3));
        assert_eq!(fewest_salt(1, |_| true), None);
    }

    #[test]
    fn every_salt_it_tries_is_within_the_limit() {
        for limit in 2..200 {
            for need in 1..220 {
                let mut tried = Vec::new();
                let found = fewest_salt(limit, |n| {
                    tried.push(n);
                    n >= need
                });
                let want = (need.max(2) <= limit).then_some(need.max(2));
                assert_eq!(found, want, "limit {limit}, need {need}");
                assert!(tried.iter().all(|n| (2..=limit).contains(n)), "{tried:?}");
            }
        }
    }
}
