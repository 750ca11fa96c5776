//! Murmur3Partitioner tokens and the partition-key byte layout they are computed from.

use std::fmt;

use crate::murmur3::hash3_x64_128;

/// A Murmur3Partitioner token (`LongToken`): a signed 64-bit position on the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Token(pub i64);

impl Token {
    /// `Murmur3Partitioner.MINIMUM`: the token of the empty key and never the token of
    /// any other key.
    pub const MIN: Token = Token(i64::MIN);
    /// `Murmur3Partitioner.MAXIMUM`.
    pub const MAX: Token = Token(i64::MAX);
}

/// Prints the token as Cassandra does (`Long.toString`): signed decimal.
impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The token Cassandra's `Murmur3Partitioner.getToken` gives the serialized partition key.
///
/// Two rules sit on top of the hash: the empty key maps to the minimum token, and a
/// hash equal to `Long.MIN_VALUE` is moved to `Long.MAX_VALUE` so that no real key
/// shares the minimum token (ranges `(MIN, x]` must be able to select everything).
#[inline]
pub fn token_of_key(key: &[u8]) -> Token {
    if key.is_empty() {
        return Token::MIN;
    }
    Token(normalize(hash3_x64_128(key, 0)[0]))
}

#[inline(always)]
fn normalize(hash: i64) -> i64 {
    if hash == i64::MIN { i64::MAX } else { hash }
}

/// Builds a `CompositeType` value (`CompositeType.build(accessor, false, values)`), the
/// layout of a partition key with two or more components: for each component a
/// 2-byte big-endian length, its bytes, and an end-of-component byte `0x00`.
///
/// Cassandra writes the length with `ByteBufferUtil.writeShortLength`, which keeps only
/// the low 16 bits; a component longer than 65535 bytes is rejected by Cassandra before
/// it gets here ("Key length ... is longer than maximum of 65535"), and this function
/// truncates the length the same way rather than panicking.
pub fn composite_key(components: &[&[u8]]) -> Vec<u8> {
    let total: usize = components.iter().map(|c| c.len() + 3).sum();
    let mut out = Vec::with_capacity(total);
    for component in components {
        let len = component.len() as u16;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(component);
        out.push(0);
    }
    out
}

/// The bytes a partition key is hashed from: a single component as it is, two or more
/// as a [`composite_key`].
pub fn partition_key_bytes(components: &[&[u8]]) -> Vec<u8> {
    match components {
        [single] => single.to_vec(),
        _ => composite_key(components),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_key_is_the_minimum_token() {
        assert_eq!(token_of_key(&[]), Token(i64::MIN));
        // The raw hash of the empty input is 0 (what drivers that skip the rule report).
        assert_eq!(hash3_x64_128(&[], 0)[0], 0);
    }

    #[test]
    fn minimum_hash_is_moved_to_maximum() {
        assert_eq!(normalize(i64::MIN), i64::MAX);
        assert_eq!(normalize(i64::MIN + 1), i64::MIN + 1);
        assert_eq!(normalize(0), 0);
    }

    #[test]
    fn known_token_of_hello() {
        // The value the Python driver's Murmur3Token.hash_fn(b'hello') returns.
        assert_eq!(token_of_key(b"hello"), Token(-3_758_069_500_696_749_310));
        assert_eq!(token_of_key(b"hello").to_string(), "-3758069500696749310");
    }

    #[test]
    fn composite_layout() {
        let key = composite_key(&[b"ab", b"", &[0xff]]);
        assert_eq!(
            key,
            vec![0, 2, b'a', b'b', 0, 0, 0, 0, 0, 1, 0xff, 0],
            "length, bytes and end-of-component byte per component"
        );
    }

    #[test]
    fn single_component_key_is_not_wrapped() {
        assert_eq!(partition_key_bytes(&[b"xyz"]), b"xyz".to_vec());
        assert_eq!(
            partition_key_bytes(&[b"x", b"y"]),
            composite_key(&[b"x", b"y"])
        );
    }

    #[test]
    fn over_long_component_length_wraps_like_java() {
        let big = vec![7u8; 65536 + 3];
        let key = composite_key(&[&big]);
        assert_eq!(&key[..2], &[0, 3]);
        assert_eq!(key.len(), big.len() + 3);
    }
}
