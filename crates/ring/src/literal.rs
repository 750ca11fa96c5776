//! Parsing of numeric literal text the way the Java parsers Cassandra calls do
//! (`Integer.parseInt`, `Long.parseLong`, `new BigInteger`, `new BigDecimal`,
//! `Float.parseFloat`, `Double.parseDouble`).

use crate::bigint::BigInt;

/// A parsed `java.math.BigDecimal`: `unscaled × 10^-scale`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub unscaled: BigInt,
    pub scale: i32,
}

/// Why a decimal text was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalError {
    Syntax,
    /// The exponent or the resulting scale does not fit a Java `int`.
    ScaleOverflow,
}

/// `new BigDecimal(text)`: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
/// The scale is the number of fraction digits minus the exponent; trailing zeros are kept
/// (`1.50` has unscaled 150 and scale 2).
pub(crate) fn parse_decimal(text: &str) -> Result<Decimal, DecimalError> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(DecimalError::Syntax);
    }
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits_ok(int_part) || !digits_ok(frac_part) {
        return Err(DecimalError::Syntax);
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits_ok(digits) {
                return Err(DecimalError::Syntax);
            }
            // Java skips leading zeros, then reads the exponent as a long and fails
            // unless it fits an int.
            let significant = digits.trim_start_matches('0');
            if significant.len() > 10 {
                return Err(DecimalError::ScaleOverflow);
            }
            let value: i64 = if significant.is_empty() {
                0
            } else {
                significant
                    .parse()
                    .map_err(|_| DecimalError::ScaleOverflow)?
            };
            let value = if e.starts_with('-') { -value } else { value };
            if i32::try_from(value).is_err() {
                return Err(DecimalError::ScaleOverflow);
            }
            value
        }
    };
    let scale = frac_part.len() as i64 - exponent;
    let scale = i32::try_from(scale).map_err(|_| DecimalError::ScaleOverflow)?;
    let all_digits = format!("{int_part}{frac_part}");
    let mut unscaled = BigInt::parse_decimal(&all_digits).ok_or(DecimalError::Syntax)?;
    unscaled.negative = negative && !unscaled.is_zero();
    Ok(Decimal { unscaled, scale })
}

/// Serialized `decimal`: the scale as a big-endian `int`, then the unscaled value as a varint.
pub(crate) fn decimal_bytes(decimal: &Decimal) -> Vec<u8> {
    let mut out = decimal.scale.to_be_bytes().to_vec();
    out.extend(decimal.unscaled.to_twos_complement());
    out
}

/// True if `text` only has the characters a CQL float literal can have, so that Rust's
/// float parser (which also accepts `inf`, `nan`, ...) sees what Java's would.
pub(crate) fn is_plain_float_text(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && text.bytes().any(|b| b.is_ascii_digit())
}

/// `Float.parseFloat`: correctly rounded from the decimal text, as Rust's parser is.
/// Overflow gives an infinity in both languages.
pub(crate) fn parse_f32(text: &str) -> Option<f32> {
    if !is_plain_float_text(text) {
        return None;
    }
    text.parse::<f32>().ok()
}

/// `Double.parseDouble`.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    if !is_plain_float_text(text) {
        return None;
    }
    text.parse::<f64>().ok()
}

/// The result of parsing an integer literal for a fixed-width type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntParse {
    Value(i128),
    /// Syntactically an integer but too large even for `i128`.
    Huge,
    Invalid,
}

/// Parses `[+-]?digits` as Java's `parseInt`/`parseLong` family would see it, leaving
/// the range check to the caller so it can report "out of range" distinctly.
pub(crate) fn parse_integer(text: &str) -> IntParse {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return IntParse::Invalid;
    }
    match text.parse::<i128>() {
        Ok(v) => IntParse::Value(v),
        Err(_) => IntParse::Huge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> (Vec<u8>, i32) {
        let d = parse_decimal(text).expect("valid decimal");
        (d.unscaled.to_twos_complement(), d.scale)
    }

    #[test]
    fn big_decimal_scales() {
        assert_eq!(dec("1.50"), (vec![0, 150], 2));
        assert_eq!(dec("100"), (vec![100], 0));
        assert_eq!(dec("1.5E-3"), (vec![15], 4));
        assert_eq!(dec("1e3"), (vec![1], -3));
        assert_eq!(dec("1E+3"), (vec![1], -3));
        assert_eq!(dec("-0.0"), (vec![0], 1));
        assert_eq!(dec("-1.28"), (vec![0x80], 2));
        assert_eq!(dec("1."), (vec![1], 0));
        assert_eq!(dec(".5"), (vec![5], 1));
        assert_eq!(dec("0.000"), (vec![0], 3));
    }

    #[test]
    fn big_decimal_rejections() {
        assert_eq!(parse_decimal("NaN"), Err(DecimalError::Syntax));
        assert_eq!(parse_decimal("."), Err(DecimalError::Syntax));
        assert_eq!(parse_decimal("1e"), Err(DecimalError::Syntax));
        assert_eq!(
            parse_decimal("1e2147483648"),
            Err(DecimalError::ScaleOverflow)
        );
        // Exponent fits an int but the scale (0 - (-2147483648)) does not.
        assert_eq!(
            parse_decimal("1e-2147483648"),
            Err(DecimalError::ScaleOverflow)
        );
        assert!(parse_decimal("1e-2147483647").is_ok());
    }

    #[test]
    fn decimal_serialization() {
        let d = parse_decimal("-12.345").expect("valid");
        assert_eq!(decimal_bytes(&d), vec![0, 0, 0, 3, 0xcf, 0xc7]);
    }

    #[test]
    fn floats_reject_words_rust_would_accept() {
        assert_eq!(parse_f64("inf"), None);
        assert_eq!(parse_f64("nan"), None);
        assert_eq!(parse_f64("1e400"), Some(f64::INFINITY));
        assert_eq!(parse_f32("3.4028236e38"), Some(f32::INFINITY));
        assert_eq!(parse_f32("0.1"), Some(0.1f32));
    }

    #[test]
    fn integers() {
        assert_eq!(parse_integer("-5"), IntParse::Value(-5));
        assert_eq!(parse_integer("+5"), IntParse::Value(5));
        assert_eq!(parse_integer("007"), IntParse::Value(7));
        assert_eq!(parse_integer("1.0"), IntParse::Invalid);
        assert_eq!(parse_integer(""), IntParse::Invalid);
        assert_eq!(parse_integer("9".repeat(60).as_str()), IntParse::Huge);
    }
}
