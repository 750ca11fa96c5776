//! Cassandra's variant of MurmurHash3 x64/128 (`org.apache.cassandra.utils.MurmurHash.hash3_x64_128`).
//!
//! It differs from Austin Appleby's reference implementation in one place: the
//! trailing `len % 16` bytes are read as Java `byte`s, i.e. *signed*, and
//! sign-extended to 64 bits before being shifted into place. A tail byte `>= 0x80`
//! therefore sets every higher bit of its lane, and the result diverges from the
//! reference hash. Full 16-byte blocks are read as unsigned little-endian words, as in
//! the reference.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

#[inline(always)]
fn fmix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

#[inline(always)]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline(always)]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// Folds up to 8 tail bytes into one lane the way Java does: each byte is
/// sign-extended (`(long) byte`) before the shift, and the lanes are XORed together.
#[inline(always)]
fn signed_tail_lane(bytes: &[u8]) -> u64 {
    let mut lane = 0u64;
    for (i, &b) in bytes.iter().enumerate() {
        lane ^= ((b as i8) as i64 as u64) << (8 * i);
    }
    lane
}

/// Hashes `data` exactly as Cassandra's `MurmurHash.hash3_x64_128(key, offset, length, seed, result)`
/// does and returns `result` (`[h1, h2]`, as Java `long`s).
///
/// ```
/// use cqlmodel_ring::hash3_x64_128;
/// // With no input there is nothing to mix: both halves are fmix(0) + fmix(0) combinations of 0.
/// assert_eq!(hash3_x64_128(b"", 0), [0, 0]);
/// ```
#[inline]
pub fn hash3_x64_128(data: &[u8], seed: u64) -> [i64; 2] {
    let mut h1 = seed;
    let mut h2 = seed;

    let mut blocks = data.chunks_exact(16);
    for block in &mut blocks {
        let (lo, hi) = block.split_at(8);
        // `chunks_exact(16)` guarantees both halves are 8 bytes long, so the
        // conversions cannot fail; the fallback keeps the code free of panics.
        let k1 = u64::from_le_bytes(lo.try_into().unwrap_or([0; 8]));
        let k2 = u64::from_le_bytes(hi.try_into().unwrap_or([0; 8]));

        h1 ^= mix_k1(k1);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);

        h2 ^= mix_k2(k2);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }

    let tail = blocks.remainder();
    if tail.len() > 8 {
        h2 ^= mix_k2(signed_tail_lane(&tail[8..]));
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(signed_tail_lane(&tail[..tail.len().min(8)]));
    }

    // Java XORs the `int` length into the `long`s; lengths are non-negative so the
    // widening is a plain zero-extension.
    let len = data.len() as u64;
    h1 ^= len;
    h2 ^= len;

    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);

    h1 = fmix(h1);
    h2 = fmix(h2);

    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);

    [h1 as i64, h2 as i64]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appleby's reference tail handling (unsigned bytes), written independently so the
    /// tests can show exactly where Cassandra's variant departs from it.
    fn reference_tail_lane(bytes: &[u8]) -> u64 {
        bytes
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc ^ (u64::from(b) << (8 * i)))
    }

    #[test]
    fn tail_lane_sign_extends_high_bytes() {
        // 0x80 as a Java byte is -128: sign extension fills bits 8..64 of the lane.
        assert_eq!(signed_tail_lane(&[0x80]), 0xffff_ffff_ffff_ff80);
        assert_eq!(reference_tail_lane(&[0x80]), 0x80);
        // A low byte followed by a high one: the high byte's extension wipes nothing
        // below its own position but sets every bit above it.
        assert_eq!(signed_tail_lane(&[0x01, 0xff]), 0xffff_ffff_ffff_ff01);
        // Bytes below 0x80 agree with the reference.
        assert_eq!(
            signed_tail_lane(&[0x12, 0x34, 0x7f]),
            reference_tail_lane(&[0x12, 0x34, 0x7f])
        );
    }

    #[test]
    fn empty_input_mixes_only_the_seed() {
        // With no blocks, no tail and length 0, h1 = h2 = seed before finalisation.
        let seed = 42u64;
        let mut h1 = seed.wrapping_add(seed);
        let mut h2 = seed.wrapping_add(h1);
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        assert_eq!(hash3_x64_128(b"", seed), [h1 as i64, h2 as i64]);
    }

    #[test]
    fn ascii_input_matches_the_reference_murmur3() {
        // Appleby's MurmurHash3_x64_128("hello", seed 0) is the well-known
        // 0xcbd8a7b341bd9b02 / 0x5b1e906a48ae1d19; with no byte >= 0x80 Cassandra agrees.
        assert_eq!(
            hash3_x64_128(b"hello", 0),
            [
                0xcbd8_a7b3_41bd_9b02_u64 as i64,
                0x5b1e_906a_48ae_1d19_u64 as i64
            ]
        );
    }

    #[test]
    fn high_tail_bytes_are_not_hashed_like_the_reference() {
        // Input "hell" + 0xef: a reference implementation mixes lane 0xef_6c6c_6568,
        // Cassandra mixes the sign-extended lane. Rebuild both finalisations by hand.
        let data = [b'h', b'e', b'l', b'l', 0xef];
        let finish = |lane: u64| {
            let mut h1 = mix_k1(lane) ^ 5;
            let mut h2 = 5u64;
            h1 = h1.wrapping_add(h2);
            h2 = h2.wrapping_add(h1);
            h1 = fmix(h1);
            h2 = fmix(h2);
            h1 = h1.wrapping_add(h2);
            h2 = h2.wrapping_add(h1);
            [h1 as i64, h2 as i64]
        };
        assert_eq!(signed_tail_lane(&data), 0xffff_ffef_6c6c_6568);
        assert_eq!(hash3_x64_128(&data, 0), finish(0xffff_ffef_6c6c_6568));
        assert_ne!(hash3_x64_128(&data, 0), finish(reference_tail_lane(&data)));
    }
}
