//! Native-type constants: which literal kinds each type accepts
//! (`Constants.Literal.testAssignment`) and the bytes `fromString` makes of them.

use cqlmodel_cql::ast::{Literal, NativeType, SpecialFloat, Term, TermKind};
use cqlmodel_schema::types::CqlType;

use crate::bigint::BigInt;
use crate::error::{ValueError, ValueErrorKind};
use crate::inet::parse_inet;
use crate::literal::{
    DecimalError, IntParse, decimal_bytes, parse_decimal, parse_f32, parse_f64, parse_integer,
};
use crate::temporal::{parse_date, parse_time, parse_timestamp};

use super::{special_float_text, type_mismatch};

pub(super) fn serialize_native(native: NativeType, term: &Term) -> Result<Vec<u8>, ValueError> {
    let ty = CqlType::native(native);
    let TermKind::Literal(literal) = &term.kind else {
        return Err(type_mismatch(&ty, term));
    };
    let cx = LiteralCx { ty: &ty, term };
    use NativeType as N;
    match native {
        N::Int | N::Bigint | N::Counter | N::Smallint | N::Tinyint | N::Varint => {
            serialize_integer(native, literal, &cx)
        }
        N::Decimal | N::Float | N::Double => serialize_fraction(native, literal, &cx),
        N::Timestamp | N::Date | N::Time => serialize_temporal(native, literal, &cx),
        _ => serialize_other(native, literal, &cx),
    }
}

/// The literal's type and term, for the errors it may raise.
struct LiteralCx<'a> {
    ty: &'a CqlType,
    term: &'a Term,
}

impl LiteralCx<'_> {
    fn invalid(&self, text: &str, reason: Option<&str>) -> ValueError {
        ValueError::new(
            ValueErrorKind::InvalidLiteral {
                ty: self.ty.to_string(),
                text: text.to_string(),
                reason: reason.map(str::to_string),
            },
            self.term.span,
        )
    }

    fn out_of_range(&self, text: &str) -> ValueError {
        ValueError::new(
            ValueErrorKind::OutOfRange {
                ty: self.ty.to_string(),
                value: text.to_string(),
            },
            self.term.span,
        )
    }

    /// The literal is of a kind the type does not accept.
    fn mismatch(&self) -> ValueError {
        type_mismatch(self.ty, self.term)
    }
}

/// int, bigint, counter, smallint, tinyint and varint.
fn serialize_integer(
    native: NativeType,
    literal: &Literal,
    cx: &LiteralCx<'_>,
) -> Result<Vec<u8>, ValueError> {
    use NativeType as N;
    let Literal::Integer(t) = literal else {
        return Err(cx.mismatch());
    };
    let (min, max, width) = match native {
        N::Int => (i128::from(i32::MIN), i128::from(i32::MAX), 4),
        N::Bigint | N::Counter => (i128::from(i64::MIN), i128::from(i64::MAX), 8),
        N::Smallint => (i128::from(i16::MIN), i128::from(i16::MAX), 2),
        N::Tinyint => (i128::from(i8::MIN), i128::from(i8::MAX), 1),
        N::Varint => {
            return BigInt::parse_decimal(t)
                .map(|n| n.to_twos_complement())
                .ok_or_else(|| cx.invalid(t, None));
        }
        _ => return Err(cx.mismatch()),
    };
    fixed_int(t, min, max, width).map_err(|e| e.into_error(t, cx))
}

/// decimal, float and double, with the special values NaN and the infinities.
fn serialize_fraction(
    native: NativeType,
    literal: &Literal,
    cx: &LiteralCx<'_>,
) -> Result<Vec<u8>, ValueError> {
    use Literal as L;
    use NativeType as N;
    match (native, literal) {
        (N::Decimal, L::Integer(t) | L::Float(t)) => match parse_decimal(t) {
            Ok(d) => Ok(decimal_bytes(&d)),
            Err(DecimalError::Syntax) => Err(cx.invalid(t, None)),
            Err(DecimalError::ScaleOverflow) => Err(cx.invalid(t, Some("scale out of range"))),
        },
        (N::Decimal, L::SpecialFloat(s)) => Err(cx.invalid(
            special_float_text(*s),
            Some("decimal has no NaN or infinities"),
        )),

        (N::Float, L::Integer(t) | L::Float(t)) => parse_f32(t)
            .map(|v| v.to_be_bytes().to_vec())
            .ok_or_else(|| cx.invalid(t, None)),
        (N::Float, L::SpecialFloat(s)) => {
            let v = special_float_value(*s) as f32;
            Ok(v.to_be_bytes().to_vec())
        }
        (N::Double, L::Integer(t) | L::Float(t)) => parse_f64(t)
            .map(|v| v.to_be_bytes().to_vec())
            .ok_or_else(|| cx.invalid(t, None)),
        (N::Double, L::SpecialFloat(s)) => Ok(special_float_value(*s).to_be_bytes().to_vec()),
        _ => Err(cx.mismatch()),
    }
}

/// timestamp, date and time, from a string or an integer.
fn serialize_temporal(
    native: NativeType,
    literal: &Literal,
    cx: &LiteralCx<'_>,
) -> Result<Vec<u8>, ValueError> {
    use Literal as L;
    use NativeType as N;
    let (L::String(t) | L::Integer(t)) = literal else {
        return Err(cx.mismatch());
    };
    match native {
        N::Timestamp => {
            if t.is_empty() {
                // TimestampType.fromString maps '' to the empty value.
                return Ok(Vec::new());
            }
            if t.eq_ignore_ascii_case("now") {
                return Err(ValueError::new(
                    ValueErrorKind::NowLiteral { text: t.clone() },
                    cx.term.span,
                ));
            }
            parse_timestamp(t)
                .map(|ms| ms.to_be_bytes().to_vec())
                .map_err(|reason| cx.invalid(t, Some(reason)))
        }
        N::Date => parse_date(t)
            .map(|days| days.to_be_bytes().to_vec())
            .map_err(|reason| cx.invalid(t, Some(reason))),
        N::Time => parse_time(t)
            .map(|nanos| nanos.to_be_bytes().to_vec())
            .map_err(|reason| cx.invalid(t, Some(reason))),
        _ => Err(cx.mismatch()),
    }
}

/// Text, boolean, UUID, inet, blob, and duration (never a key).
fn serialize_other(
    native: NativeType,
    literal: &Literal,
    cx: &LiteralCx<'_>,
) -> Result<Vec<u8>, ValueError> {
    use Literal as L;
    use NativeType as N;
    match (native, literal) {
        (N::Ascii, L::String(s)) => {
            if s.is_ascii() {
                Ok(s.as_bytes().to_vec())
            } else {
                Err(cx.invalid(s, Some("non-ASCII character")))
            }
        }
        (N::Text | N::Varchar, L::String(s)) => Ok(s.as_bytes().to_vec()),

        (N::Boolean, L::Boolean(b)) => Ok(vec![u8::from(*b)]),

        (N::Uuid, L::Uuid(u)) => parse_uuid(u).ok_or_else(|| cx.invalid(u, None)),
        (N::Timeuuid, L::Uuid(u)) => {
            let bytes = parse_uuid(u).ok_or_else(|| cx.invalid(u, None))?;
            let version = bytes.get(6).map_or(0, |b| b >> 4);
            if version == 1 {
                Ok(bytes)
            } else {
                Err(ValueError::new(
                    ValueErrorKind::NotTimeUuid { found: version },
                    cx.term.span,
                ))
            }
        }

        (N::Inet, L::String(t)) => {
            if t.is_empty() {
                // InetAddressType.fromString maps '' to the empty value.
                return Ok(Vec::new());
            }
            parse_inet(t).map_err(|reason| cx.invalid(t, Some(reason)))
        }

        (N::Blob, L::Blob(hex)) => parse_hex(hex).ok_or_else(|| {
            cx.invalid(
                &format!("0x{hex}"),
                Some("a blob needs an even number of hex digits"),
            )
        }),

        (N::Duration, _) => Err(ValueError::new(
            ValueErrorKind::UnsupportedType {
                ty: "duration".into(),
                reason: "duration cannot be part of a primary key".into(),
            },
            cx.term.span,
        )),

        _ => Err(cx.mismatch()),
    }
}

/// Java's canonical NaN (`0x7ff8...`, `0x7fc0...` as a float) and the infinities; Rust's
/// `NAN` constants have the same bits.
fn special_float_value(special: SpecialFloat) -> f64 {
    match special {
        SpecialFloat::NaN => f64::NAN,
        SpecialFloat::Infinity => f64::INFINITY,
        SpecialFloat::NegativeInfinity => f64::NEG_INFINITY,
    }
}

enum FixedIntError {
    Invalid,
    OutOfRange,
}

impl FixedIntError {
    fn into_error(self, text: &str, cx: &LiteralCx<'_>) -> ValueError {
        match self {
            FixedIntError::Invalid => cx.invalid(text, None),
            FixedIntError::OutOfRange => cx.out_of_range(text),
        }
    }
}

/// A two's complement big-endian integer of `width` bytes.
fn fixed_int(text: &str, min: i128, max: i128, width: usize) -> Result<Vec<u8>, FixedIntError> {
    match parse_integer(text) {
        IntParse::Value(v) if (min..=max).contains(&v) => {
            let bytes = v.to_be_bytes();
            Ok(bytes[bytes.len() - width..].to_vec())
        }
        IntParse::Value(_) | IntParse::Huge => Err(FixedIntError::OutOfRange),
        IntParse::Invalid => Err(FixedIntError::Invalid),
    }
}

/// The 16 bytes of an 8-4-4-4-12 hex UUID.
fn parse_uuid(text: &str) -> Option<Vec<u8>> {
    let groups: Vec<&str> = text.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12] {
        return None;
    }
    parse_hex(&groups.concat())
}

fn parse_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    hex.as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            let high = (pair[0] as char).to_digit(16)?;
            let low = (pair[1] as char).to_digit(16)?;
            Some((high * 16 + low) as u8)
        })
        .collect()
}
