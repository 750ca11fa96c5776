//! Just enough arbitrary-precision integer arithmetic for `varint` and `decimal`:
//! decimal text to magnitude, Java `BigInteger.toByteArray` encoding and back, and
//! magnitude comparison. Magnitudes are little-endian `u32` limbs without trailing zeros.

use std::cmp::Ordering;

/// A sign and magnitude. Zero is never negative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BigInt {
    pub negative: bool,
    pub magnitude: Vec<u32>,
}

impl BigInt {
    pub fn is_zero(&self) -> bool {
        self.magnitude.is_empty()
    }

    /// Parses `[+-]?digits`; `None` for anything else (including an empty digit string).
    pub fn parse_decimal(text: &str) -> Option<BigInt> {
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let magnitude = magnitude_from_digits(digits)?;
        let negative = negative && !magnitude.is_empty();
        Some(BigInt {
            negative,
            magnitude,
        })
    }

    /// Java `BigInteger.toByteArray()`: minimal big-endian two's complement, at least one byte.
    pub fn to_twos_complement(&self) -> Vec<u8> {
        if !self.negative {
            let mut bytes = magnitude_to_be_bytes(&self.magnitude);
            if bytes.first().is_none_or(|b| b & 0x80 != 0) {
                bytes.insert(0, 0);
            }
            return bytes;
        }
        // -m in two's complement is !(m - 1); m - 1 needs a clear top bit to leave room
        // for the sign.
        let mut minus_one = self.magnitude.clone();
        decrement(&mut minus_one);
        let mut bytes = magnitude_to_be_bytes(&minus_one);
        if bytes.first().is_none_or(|b| b & 0x80 != 0) {
            bytes.insert(0, 0);
        }
        for b in &mut bytes {
            *b = !*b;
        }
        bytes
    }

    /// The inverse of [`BigInt::to_twos_complement`]; the empty slice reads as zero.
    pub fn from_twos_complement(bytes: &[u8]) -> BigInt {
        let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
        if !negative {
            return BigInt {
                negative: false,
                magnitude: magnitude_from_be_bytes(bytes),
            };
        }
        let inverted: Vec<u8> = bytes.iter().map(|b| !b).collect();
        let mut magnitude = magnitude_from_be_bytes(&inverted);
        increment(&mut magnitude);
        BigInt {
            negative: true,
            magnitude,
        }
    }

    /// Number of decimal digits of the magnitude (1 for zero), like `BigDecimal.precision()`.
    pub fn decimal_digits(&self) -> usize {
        let mut limbs = self.magnitude.clone();
        let mut chunks = 0usize;
        let mut last_chunk = 0u32;
        while !limbs.is_empty() {
            last_chunk = div_rem_small(&mut limbs, 1_000_000_000);
            chunks += 1;
        }
        if chunks == 0 {
            return 1;
        }
        (chunks - 1) * 9 + digit_count(last_chunk)
    }

    /// Multiplies the magnitude by `10^exp`.
    pub fn scale_up(&mut self, mut exp: usize) {
        while exp > 0 {
            let step = exp.min(9);
            mul_add_small(&mut self.magnitude, 10u32.pow(step as u32), 0);
            exp -= step;
        }
    }
}

/// Orders magnitudes numerically.
pub(crate) fn compare_magnitudes(a: &[u32], b: &[u32]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn digit_count(mut n: u32) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

fn magnitude_from_digits(digits: &str) -> Option<Vec<u32>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut magnitude = Vec::new();
    let bytes = digits.as_bytes();
    let first = bytes.len() % 9;
    let mut start = 0;
    let mut end = if first == 0 { 9 } else { first };
    while start < bytes.len() {
        let chunk = bytes[start..end]
            .iter()
            .fold(0u32, |acc, b| acc * 10 + u32::from(b - b'0'));
        let factor = 10u32.pow((end - start) as u32);
        mul_add_small(&mut magnitude, factor, chunk);
        start = end;
        end += 9;
    }
    Some(magnitude)
}

fn mul_add_small(magnitude: &mut Vec<u32>, factor: u32, addend: u32) {
    let mut carry = u64::from(addend);
    for limb in magnitude.iter_mut() {
        let product = u64::from(*limb) * u64::from(factor) + carry;
        *limb = product as u32;
        carry = product >> 32;
    }
    if carry != 0 {
        magnitude.push(carry as u32);
    }
    trim(magnitude);
}

/// Divides in place and returns the remainder.
fn div_rem_small(magnitude: &mut Vec<u32>, divisor: u32) -> u32 {
    let mut remainder = 0u64;
    for limb in magnitude.iter_mut().rev() {
        let current = (remainder << 32) | u64::from(*limb);
        *limb = (current / u64::from(divisor)) as u32;
        remainder = current % u64::from(divisor);
    }
    trim(magnitude);
    remainder as u32
}

fn trim(magnitude: &mut Vec<u32>) {
    while magnitude.last() == Some(&0) {
        magnitude.pop();
    }
}

fn decrement(magnitude: &mut Vec<u32>) {
    for limb in magnitude.iter_mut() {
        let (value, borrow) = limb.overflowing_sub(1);
        *limb = value;
        if !borrow {
            break;
        }
    }
    trim(magnitude);
}

fn increment(magnitude: &mut Vec<u32>) {
    for limb in magnitude.iter_mut() {
        let (value, carry) = limb.overflowing_add(1);
        *limb = value;
        if !carry {
            return;
        }
    }
    magnitude.push(1);
}

fn magnitude_to_be_bytes(magnitude: &[u32]) -> Vec<u8> {
    let mut bytes: Vec<u8> = magnitude
        .iter()
        .rev()
        .flat_map(|limb| limb.to_be_bytes())
        .collect();
    let leading_zeros = bytes.iter().take_while(|&&b| b == 0).count();
    bytes.drain(..leading_zeros);
    bytes
}

fn magnitude_from_be_bytes(bytes: &[u8]) -> Vec<u32> {
    let mut magnitude: Vec<u32> = bytes
        .rchunks(4)
        .map(|chunk| chunk.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
        .collect();
    trim(&mut magnitude);
    magnitude
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn encode(text: &str) -> Vec<u8> {
        BigInt::parse_decimal(text)
            .map(|b| b.to_twos_complement())
            .unwrap_or_default()
    }

    #[test]
    fn java_to_byte_array_vectors() {
        assert_eq!(encode("0"), vec![0x00]);
        assert_eq!(encode("-0"), vec![0x00]);
        assert_eq!(encode("127"), vec![0x7f]);
        assert_eq!(encode("128"), vec![0x00, 0x80]);
        assert_eq!(encode("-1"), vec![0xff]);
        assert_eq!(encode("-128"), vec![0x80]);
        assert_eq!(encode("-129"), vec![0xff, 0x7f]);
        assert_eq!(encode("255"), vec![0x00, 0xff]);
        assert_eq!(encode("256"), vec![0x01, 0x00]);
        assert_eq!(encode("-32768"), vec![0x80, 0x00]);
        assert_eq!(
            encode("18446744073709551616"),
            vec![0x01, 0, 0, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn rejects_non_digits() {
        assert!(BigInt::parse_decimal("").is_none());
        assert!(BigInt::parse_decimal("-").is_none());
        assert!(BigInt::parse_decimal("1e5").is_none());
        assert!(BigInt::parse_decimal("12a").is_none());
    }

    #[test]
    fn decimal_digit_counts() {
        for (text, digits) in [
            ("0", 1),
            ("9", 1),
            ("10", 2),
            ("999999999", 9),
            ("1000000000", 10),
        ] {
            let n = BigInt::parse_decimal(text).unwrap_or(BigInt {
                negative: false,
                magnitude: vec![],
            });
            assert_eq!(n.decimal_digits(), digits, "{text}");
        }
    }

    proptest! {
        #[test]
        fn encoding_matches_i128_for_small_values(v in any::<i128>()) {
            let ours = encode(&v.to_string());
            let be = v.to_be_bytes();
            // Minimal two's complement of an i128: drop redundant sign bytes.
            let mut start = 0;
            while start < 15 {
                let redundant = (be[start] == 0 && be[start + 1] & 0x80 == 0)
                    || (be[start] == 0xff && be[start + 1] & 0x80 != 0);
                if !redundant { break; }
                start += 1;
            }
            prop_assert_eq!(ours.clone(), be[start..].to_vec());
            let back = BigInt::from_twos_complement(&ours);
            prop_assert_eq!(back.negative, v < 0);
            prop_assert_eq!(back.to_twos_complement(), ours);
        }

        #[test]
        fn comparison_matches_u128(a in any::<u128>(), b in any::<u128>()) {
            let ma = BigInt::parse_decimal(&a.to_string()).map(|n| n.magnitude).unwrap_or_default();
            let mb = BigInt::parse_decimal(&b.to_string()).map(|n| n.magnitude).unwrap_or_default();
            prop_assert_eq!(compare_magnitudes(&ma, &mb), a.cmp(&b));
        }

        #[test]
        fn digit_count_matches_string_length(a in any::<u128>()) {
            let n = BigInt::parse_decimal(&a.to_string()).unwrap_or(BigInt { negative: false, magnitude: vec![] });
            prop_assert_eq!(n.decimal_digits(), a.to_string().len());
        }
    }
}
