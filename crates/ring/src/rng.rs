//! A small seeded generator, so that a ring built from the same seed is the same ring
//! on every machine and with every version of the dependencies.

use crate::murmur3::hash3_x64_128;

/// SplitMix64 (Steele, Lea and Flood, 2014): 64 bits of state, passes BigCrush, and
/// every seed is a good seed — enough for drawing tokens and sampling keys.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator for one named thing (a node) under a seed: the stream depends on the
    /// seed and the name only, so adding or reordering nodes does not change the
    /// tokens the others draw.
    pub fn for_name(seed: u64, name: &str) -> Self {
        let name_hash = hash3_x64_128(name.as_bytes(), 0)[0] as u64;
        let mut mixer = Self::new(seed ^ name_hash.rotate_left(17));
        Self::new(mixer.next_u64())
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 bits of precision.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[0, bound)` (Lemire's multiply-shift; the bias is below 2^-32 for
    /// the bounds used here). `bound == 0` gives 0.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values_of_splitmix64() {
        // The first outputs of the reference C implementation for seed 0 (as used to
        // seed xoshiro; e.g. Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn named_streams_differ_by_name_and_seed() {
        let a = SplitMix64::for_name(1, "node1").next_u64();
        assert_eq!(a, SplitMix64::for_name(1, "node1").next_u64());
        assert_ne!(a, SplitMix64::for_name(1, "node2").next_u64());
        assert_ne!(a, SplitMix64::for_name(2, "node1").next_u64());
    }

    #[test]
    fn unit_interval_and_bounds() {
        let mut rng = SplitMix64::new(9);
        for _ in 0..10_000 {
            let x = rng.next_f64();
            assert!((0.0..1.0).contains(&x));
            assert!(rng.below(7) < 7);
        }
        assert_eq!(rng.below(0), 0);
    }
}
