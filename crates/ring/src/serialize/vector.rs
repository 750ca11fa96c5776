//! `vector<T, n>` literals (`VectorType`'s serializers): elements of a fixed-length type
//! are concatenated; elements of a variable-length type are each preceded by their length
//! as an unsigned vint.

use cqlmodel_cql::ast::{Literal, NativeType, Term, TermKind};
use cqlmodel_schema::types::CqlType;

use crate::error::{ValueError, ValueErrorKind};

use super::{serialize_term, type_mismatch};

/// `AbstractType.valueLengthIfFixed()` in Cassandra 5.0. Note that `smallint`, `tinyint`,
/// `date` and `time` do not declare a fixed length, so they are length-prefixed in vectors.
pub(crate) fn fixed_length(ty: &CqlType) -> Option<usize> {
    match ty {
        CqlType::Native(native) => match native {
            NativeType::Boolean => Some(1),
            NativeType::Int | NativeType::Float => Some(4),
            NativeType::Bigint
            | NativeType::Double
            | NativeType::Timestamp
            | NativeType::Counter => Some(8),
            NativeType::Uuid | NativeType::Timeuuid => Some(16),
            _ => None,
        },
        CqlType::Vector { element, dimension } => {
            fixed_length(element)?.checked_mul(usize::try_from(*dimension).ok()?)
        }
        _ => None,
    }
}

pub(super) fn serialize_vector(
    ty: &CqlType,
    element: &CqlType,
    dimension: u32,
    term: &Term,
) -> Result<Vec<u8>, ValueError> {
    let TermKind::List(items) = &term.kind else {
        return Err(type_mismatch(ty, term));
    };
    if usize::try_from(dimension).ok() != Some(items.len()) {
        return Err(ValueError::new(
            ValueErrorKind::VectorDimension {
                ty: ty.to_string(),
                expected: dimension,
                found: items.len(),
            },
            term.span,
        ));
    }
    let fixed = fixed_length(element);
    let mut out = Vec::new();
    for item in items {
        if matches!(item.kind, TermKind::Literal(Literal::Null)) {
            return Err(ValueError::new(ValueErrorKind::NullInVector, item.span));
        }
        let bytes = serialize_term(element, item)?;
        match fixed {
            Some(expected) if bytes.len() != expected => {
                return Err(ValueError::new(
                    ValueErrorKind::FixedLengthMismatch {
                        ty: element.to_string(),
                        len: bytes.len(),
                        expected,
                    },
                    item.span,
                ));
            }
            Some(_) => {}
            None => write_unsigned_vint(&mut out, bytes.len() as u64),
        }
        out.extend_from_slice(&bytes);
    }
    Ok(out)
}

/// `VIntCoding.writeUnsignedVInt`: the number of leading 1 bits of the first byte is the
/// number of extra bytes; the value follows big-endian in the remaining bits.
pub(crate) fn write_unsigned_vint(out: &mut Vec<u8>, value: u64) {
    let magnitude = (value | 1).leading_zeros() as usize;
    let size = (639 - magnitude * 9) >> 6;
    if size == 1 {
        out.push(value as u8);
        return;
    }
    let extra = size - 1;
    // Big-endian value in the last `size` bytes (a 9-byte vint is a marker byte and all
    // 8 value bytes), then the marker bits are ORed into the first byte.
    let mut buf = [0u8; 9];
    buf[1..].copy_from_slice(&value.to_be_bytes());
    let encoded = &mut buf[9 - size..];
    encoded[0] |= !(0xffu16 >> extra) as u8;
    out.extend_from_slice(encoded);
}

/// The inverse of [`write_unsigned_vint`]: the value and the number of bytes read.
pub(crate) fn read_unsigned_vint(bytes: &[u8]) -> Option<(u64, usize)> {
    let first = *bytes.first()?;
    let extra = first.leading_ones() as usize;
    let mut value = if extra >= 8 {
        0
    } else {
        u64::from(first & (0xff >> extra))
    };
    for &b in bytes.get(1..=extra)? {
        value = (value << 8) | u64::from(b);
    }
    Some((value, extra + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vint(v: u64) -> Vec<u8> {
        let mut out = Vec::new();
        write_unsigned_vint(&mut out, v);
        out
    }

    #[test]
    fn vint_layout() {
        assert_eq!(vint(0), vec![0]);
        assert_eq!(vint(127), vec![0x7f]);
        assert_eq!(vint(128), vec![0x80, 0x80]);
        assert_eq!(vint(0x3fff), vec![0xbf, 0xff]);
        assert_eq!(vint(0x4000), vec![0xc0, 0x40, 0x00]);
        assert_eq!(vint(u64::MAX), vec![0xff; 9]);
    }

    #[test]
    fn vint_round_trips() {
        for shift in 0..64 {
            for v in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
                let bytes = vint(v);
                assert_eq!(read_unsigned_vint(&bytes), Some((v, bytes.len())), "{v}");
            }
        }
    }

    #[test]
    fn fixed_lengths() {
        let v = CqlType::Vector {
            element: Box::new(CqlType::Native(NativeType::Float)),
            dimension: 3,
        };
        assert_eq!(fixed_length(&v), Some(12));
        assert_eq!(fixed_length(&CqlType::Native(NativeType::Smallint)), None);
        assert_eq!(fixed_length(&CqlType::Native(NativeType::Text)), None);
    }
}
