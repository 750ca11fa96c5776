//! A small, deterministic mutator: enough to walk a parser's error paths from
//! realistic seeds without a coverage-guided engine (that is cargo-fuzz's job).

/// xorshift64*: deterministic from its seed, so a failing run is replayed by
/// passing the same `--seed`.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Bytes that stress lexers: quotes, separators, control and multi-byte chars.
const INTERESTING: &[&[u8]] = &[
    b"'",
    b"\"",
    b";",
    b"(",
    b")",
    b"{",
    b"}",
    b"<",
    b">",
    b",",
    b"\n",
    b"\r\n",
    b"\0",
    b"\x1b[31m",
    b"\xe2\x80\xae",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"-9223372036854775808",
    b"18446744073709551616",
    b"1e999",
    b"NaN",
];

/// One mutated copy of `input`: one to four edits, each an insertion from the
/// dictionary or the interesting bytes, a deletion, a duplication of a slice,
/// a byte flip, or a splice with `other`.
pub fn mutate(input: &[u8], other: &[u8], dictionary: &[&str], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 => {
                let word = dictionary
                    .get(rng.below(dictionary.len()))
                    .copied()
                    .unwrap_or(";");
                out.splice(at..at, word.bytes());
            }
            1 => {
                let bytes = INTERESTING[rng.below(INTERESTING.len())];
                out.splice(at..at, bytes.iter().copied());
            }
            2 => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                if at < end {
                    out.drain(at..end);
                }
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                if at < end {
                    let slice: Vec<u8> = out[at..end].to_vec();
                    let times = 1 + rng.below(8);
                    for _ in 0..times {
                        out.splice(end..end, slice.iter().copied());
                    }
                }
            }
            4 => {
                if let Some(byte) = out.get_mut(at) {
                    *byte ^= 1 << rng.below(8);
                }
            }
            _ => {
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
        }
    }
    out.truncate(1 << 20);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_mutations() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let dict = ["SELECT "];
        for _ in 0..100 {
            let x = mutate(
                b"CREATE TABLE t (k int PRIMARY KEY);",
                b"abc",
                &dict,
                &mut a,
            );
            let y = mutate(
                b"CREATE TABLE t (k int PRIMARY KEY);",
                b"abc",
                &dict,
                &mut b,
            );
            assert_eq!(x, y);
        }
    }

    #[test]
    fn mutations_change_the_input() {
        let mut rng = Rng::new(42);
        let input = b"SELECT * FROM ks.t WHERE k = 1;";
        let changed = (0..200)
            .filter(|_| mutate(input, b"", &["IN ("], &mut rng) != input)
            .count();
        assert!(
            changed > 150,
            "only {changed} of 200 mutations changed the input"
        );
    }
}
