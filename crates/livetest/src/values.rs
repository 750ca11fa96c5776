//! Generated values for a prepared statement's bind markers, from the types the node reports
//! for them, so that emitted statements are not only prepared but executed.

use scylla::cluster::metadata::{CollectionType, ColumnType, NativeType};
use scylla::value::{
    Counter, CqlDate, CqlDecimal, CqlDuration, CqlTime, CqlTimestamp, CqlTimeuuid, CqlValue,
    CqlVarint,
};

/// A valid, non-empty value of `typ`; `seed` varies it. Integers are small and positive so
/// that a marker the node types `int` for `LIMIT ?` or `USING TTL ?` is accepted too.
pub fn sample_value(typ: &ColumnType<'_>, seed: u64) -> CqlValue {
    match typ {
        ColumnType::Native(native) => sample_native(native, seed),
        ColumnType::Collection { typ, .. } => match typ {
            CollectionType::List(element) => CqlValue::List(vec![sample_value(element, seed)]),
            CollectionType::Set(element) => CqlValue::Set(vec![sample_value(element, seed)]),
            CollectionType::Map(key, value) => {
                CqlValue::Map(vec![(sample_value(key, seed), sample_value(value, seed))])
            }
            _ => CqlValue::Empty,
        },
        ColumnType::Vector { typ, dimensions } => CqlValue::Vector(
            (0..u64::from(*dimensions))
                .map(|i| sample_value(typ, seed + i))
                .collect(),
        ),
        ColumnType::UserDefinedType { definition, .. } => CqlValue::UserDefinedType {
            keyspace: definition.keyspace.to_string(),
            name: definition.name.to_string(),
            fields: definition
                .field_types
                .iter()
                .map(|(name, t)| (name.to_string(), Some(sample_value(t, seed))))
                .collect(),
        },
        ColumnType::Tuple(types) => {
            CqlValue::Tuple(types.iter().map(|t| Some(sample_value(t, seed))).collect())
        }
        _ => CqlValue::Empty,
    }
}

fn sample_native(native: &NativeType, seed: u64) -> CqlValue {
    let small = 1 + (seed % 100) as i64;
    match native {
        NativeType::Ascii => CqlValue::Ascii(format!("a-{seed}")),
        NativeType::Text => CqlValue::Text(format!("t-{seed}")),
        NativeType::Boolean => CqlValue::Boolean(seed % 2 == 1),
        NativeType::Blob => CqlValue::Blob(seed.to_be_bytes().to_vec()),
        NativeType::Counter => CqlValue::Counter(Counter(small)),
        NativeType::Date => CqlValue::Date(CqlDate((1u32 << 31) + 20_000 + (seed % 365) as u32)),
        NativeType::Decimal => CqlValue::Decimal(CqlDecimal::from_signed_be_bytes_and_exponent(
            vec![small as u8],
            1,
        )),
        NativeType::Double => CqlValue::Double(small as f64 / 4.0),
        NativeType::Float => CqlValue::Float(small as f32 / 4.0),
        NativeType::Duration => CqlValue::Duration(CqlDuration {
            months: 0,
            days: 1,
            nanoseconds: 0,
        }),
        NativeType::Int => CqlValue::Int(small as i32),
        NativeType::BigInt => CqlValue::BigInt(small),
        NativeType::SmallInt => CqlValue::SmallInt(small as i16),
        NativeType::TinyInt => CqlValue::TinyInt(small as i8),
        NativeType::Timestamp => {
            CqlValue::Timestamp(CqlTimestamp(1_767_225_600_000 + small * 1000))
        }
        NativeType::Time => CqlValue::Time(CqlTime(small * 1_000_000_000)),
        NativeType::Inet => CqlValue::Inet([10, 0, 0, small as u8].into()),
        NativeType::Uuid => CqlValue::Uuid(CqlTimeuuid::from_bytes(uuid_bytes(seed, 4)).into()),
        NativeType::Timeuuid => CqlValue::Timeuuid(CqlTimeuuid::from_bytes(uuid_bytes(seed, 1))),
        NativeType::Varint => CqlValue::Varint(CqlVarint::from_signed_bytes_be(vec![small as u8])),
        _ => CqlValue::Empty,
    }
}

/// A UUID of `version` (RFC 4122 variant) derived from `seed`.
fn uuid_bytes(seed: u64, version: u8) -> [u8; 16] {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_be_bytes());
    bytes[8..].copy_from_slice(&seed.to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | (version << 4);
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_carry_their_version_and_variant() {
        let v1 = uuid_bytes(42, 1);
        assert_eq!(v1[6] >> 4, 1);
        assert_eq!(v1[8] >> 6, 0b10);
        assert_eq!(uuid_bytes(42, 4)[6] >> 4, 4);
    }

    #[test]
    fn a_frozen_list_of_ints_gets_one_small_int() {
        let typ = ColumnType::Collection {
            frozen: true,
            typ: CollectionType::List(Box::new(ColumnType::Native(NativeType::Int))),
        };
        assert_eq!(
            sample_value(&typ, 6),
            CqlValue::List(vec![CqlValue::Int(7)])
        );
    }
}
