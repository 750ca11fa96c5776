//! Cassandra's comparators (`AbstractType.compare`) on serialized values. Sets and map
//! keys are stored sorted by them, with elements that compare equal kept once.
//!
//! Only values this crate produces are compared, so malformed input never reaches here
//! from valid terms; any that did is ordered bytewise rather than panicking.

use std::cmp::Ordering;

use cqlmodel_cql::ast::NativeType;
use cqlmodel_schema::types::CqlType;

use crate::bigint::{BigInt, compare_magnitudes};
use crate::serialize::vector::fixed_length;

/// Compares two serialized values of `ty` as Cassandra orders them.
pub(crate) fn compare(ty: &CqlType, a: &[u8], b: &[u8]) -> Ordering {
    // Every comparator puts the empty value first.
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (false, false) => {}
    }
    match ty {
        CqlType::Native(native) => compare_native(*native, a, b),
        CqlType::List { element, .. } | CqlType::Set { element, .. } => {
            compare_collections(a, b, 1, |_, x, y| compare(element, x, y))
        }
        CqlType::Map { key, value, .. } => compare_collections(a, b, 2, |i, x, y| {
            if i % 2 == 0 {
                compare(key, x, y)
            } else {
                compare(value, x, y)
            }
        }),
        CqlType::Tuple(types) => compare_tuples(types.iter(), a, b),
        CqlType::Udt { def, .. } => compare_tuples(def.fields.iter().map(|(_, t)| t), a, b),
        CqlType::Vector { element, dimension } => compare_vectors(element, *dimension, a, b),
        CqlType::Custom(_) => a.cmp(b),
    }
}

fn compare_native(native: NativeType, a: &[u8], b: &[u8]) -> Ordering {
    match native {
        // Signed first byte, then the rest unsigned: numeric order for equal widths.
        NativeType::Int
        | NativeType::Bigint
        | NativeType::Smallint
        | NativeType::Tinyint
        | NativeType::Timestamp
        | NativeType::Counter => (a[0] as i8).cmp(&(b[0] as i8)).then_with(|| a.cmp(b)),
        NativeType::Varint => compare_varints(a, b),
        NativeType::Decimal => compare_decimals(a, b),
        NativeType::Float => match (<[u8; 4]>::try_from(a), <[u8; 4]>::try_from(b)) {
            (Ok(x), Ok(y)) => java_float_compare(
                f64::from(f32::from_be_bytes(x)),
                f64::from(f32::from_be_bytes(y)),
            ),
            _ => a.cmp(b),
        },
        NativeType::Double => match (<[u8; 8]>::try_from(a), <[u8; 8]>::try_from(b)) {
            (Ok(x), Ok(y)) => java_float_compare(f64::from_be_bytes(x), f64::from_be_bytes(y)),
            _ => a.cmp(b),
        },
        NativeType::Uuid => compare_uuids(a, b),
        NativeType::Timeuuid => compare_timeuuids(a, b),
        // BYTE_ORDER types: text, ascii, blob, inet, boolean, date (unsigned, epoch at 2^31),
        // time (non-negative nanoseconds), duration.
        NativeType::Ascii
        | NativeType::Text
        | NativeType::Varchar
        | NativeType::Blob
        | NativeType::Inet
        | NativeType::Boolean
        | NativeType::Date
        | NativeType::Time
        | NativeType::Duration => a.cmp(b),
    }
}

/// `Float.compare` / `Double.compare`: -0.0 < 0.0, and NaN above +Infinity, equal to itself.
fn java_float_compare(x: f64, y: f64) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => x.total_cmp(&y),
    }
}

fn compare_varints(a: &[u8], b: &[u8]) -> Ordering {
    compare_signed(
        &BigInt::from_twos_complement(a),
        &BigInt::from_twos_complement(b),
    )
}

fn compare_signed(a: &BigInt, b: &BigInt) -> Ordering {
    match (a.negative, b.negative) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => compare_magnitudes(&a.magnitude, &b.magnitude),
        (true, true) => compare_magnitudes(&b.magnitude, &a.magnitude),
    }
}

/// `BigDecimal.compareTo`: numeric, so `1.0` equals `1.00`.
fn compare_decimals(a: &[u8], b: &[u8]) -> Ordering {
    let (Some((sa, ua)), Some((sb, ub))) = (split_decimal(a), split_decimal(b)) else {
        return a.cmp(b);
    };
    let sign = |n: &BigInt| match (n.is_zero(), n.negative) {
        (true, _) => 0,
        (false, true) => -1,
        (false, false) => 1,
    };
    let by_sign = sign(&ua).cmp(&sign(&ub));
    if by_sign != Ordering::Equal || sign(&ua) == 0 {
        return by_sign;
    }
    // Same sign, both non-zero: compare magnitudes |u| * 10^-s.
    let magnitude_order = {
        // The position of the leading digit decides unless it is the same for both,
        // in which case the scale difference is bounded by the digit counts.
        let lead_a = ua.decimal_digits() as i64 - i64::from(sa);
        let lead_b = ub.decimal_digits() as i64 - i64::from(sb);
        if lead_a != lead_b {
            lead_a.cmp(&lead_b)
        } else {
            let (mut xa, mut xb) = (ua.clone(), ub.clone());
            let diff = i64::from(sb) - i64::from(sa);
            if diff > 0 {
                xa.scale_up(diff as usize);
            } else {
                xb.scale_up((-diff) as usize);
            }
            compare_magnitudes(&xa.magnitude, &xb.magnitude)
        }
    };
    if ua.negative {
        magnitude_order.reverse()
    } else {
        magnitude_order
    }
}

fn split_decimal(bytes: &[u8]) -> Option<(i32, BigInt)> {
    let scale = i32::from_be_bytes(bytes.get(..4)?.try_into().ok()?);
    Some((scale, BigInt::from_twos_complement(bytes.get(4..)?)))
}

/// `UUIDType`: version first, then time-ordered for version 1 (otherwise the high word
/// unsigned), then the low word unsigned.
fn compare_uuids(a: &[u8], b: &[u8]) -> Ordering {
    let (Some((msb_a, lsb_a)), Some((msb_b, lsb_b))) = (uuid_words(a), uuid_words(b)) else {
        return a.len().cmp(&b.len()).then_with(|| a.cmp(b));
    };
    let version = |msb: u64| (msb >> 12) & 0xf;
    version(msb_a)
        .cmp(&version(msb_b))
        .then_with(|| {
            if version(msb_a) == 1 {
                reorder_timestamp(msb_a).cmp(&reorder_timestamp(msb_b))
            } else {
                msb_a.cmp(&msb_b)
            }
        })
        .then_with(|| lsb_a.cmp(&lsb_b))
}

/// `TimeUUIDType`: the 60-bit timestamp first, then the low 8 bytes compared as *signed*
/// bytes (kept for compatibility, CASSANDRA-8730).
fn compare_timeuuids(a: &[u8], b: &[u8]) -> Ordering {
    let (Some((msb_a, _)), Some((msb_b, _))) = (uuid_words(a), uuid_words(b)) else {
        return a.len().cmp(&b.len()).then_with(|| a.cmp(b));
    };
    reorder_timestamp(msb_a)
        .cmp(&reorder_timestamp(msb_b))
        .then_with(|| {
            let signed = |s: &[u8]| s.iter().map(|&x| x as i8).collect::<Vec<_>>();
            signed(&a[8..]).cmp(&signed(&b[8..]))
        })
}

fn uuid_words(bytes: &[u8]) -> Option<(u64, u64)> {
    let msb = u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?);
    let lsb = u64::from_be_bytes(bytes.get(8..16)?.try_into().ok()?);
    (bytes.len() == 16).then_some((msb, lsb))
}

/// `TimeUUIDType.reorderTimestampBytes`: time_hi (with version) | time_mid | time_low.
fn reorder_timestamp(msb: u64) -> u64 {
    (msb << 48) | ((msb << 16) & 0xffff_0000_0000) | (msb >> 32)
}

/// Reads `int32 count` and then `int32 length + bytes` items (`count * per_entry` of them).
fn collection_items(bytes: &[u8], per_entry: usize) -> Option<(usize, Vec<&[u8]>)> {
    let count = i32::from_be_bytes(bytes.get(..4)?.try_into().ok()?);
    let count = usize::try_from(count).ok()?;
    let mut items = Vec::new();
    let mut pos = 4;
    for _ in 0..count.checked_mul(per_entry)? {
        let len = i32::from_be_bytes(bytes.get(pos..pos + 4)?.try_into().ok()?);
        pos += 4;
        let len = usize::try_from(len).ok()?;
        items.push(bytes.get(pos..pos + len)?);
        pos += len;
    }
    Some((count, items))
}

/// `CollectionType.compareListOrSet` / `compareMaps`: element by element, then the
/// shorter collection first.
fn compare_collections(
    a: &[u8],
    b: &[u8],
    per_entry: usize,
    cmp_item: impl Fn(usize, &[u8], &[u8]) -> Ordering,
) -> Ordering {
    let (Some((count_a, items_a)), Some((count_b, items_b))) = (
        collection_items(a, per_entry),
        collection_items(b, per_entry),
    ) else {
        return a.cmp(b);
    };
    for (i, (x, y)) in items_a.iter().zip(items_b.iter()).enumerate() {
        let order = cmp_item(i, x, y);
        if order != Ordering::Equal {
            return order;
        }
    }
    count_a.cmp(&count_b)
}

/// A tuple or UDT component: `None` for null (length -1).
fn tuple_items(bytes: &[u8]) -> Option<Vec<Option<&[u8]>>> {
    let mut items = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let len = i32::from_be_bytes(bytes.get(pos..pos + 4)?.try_into().ok()?);
        pos += 4;
        match usize::try_from(len) {
            Ok(len) => {
                items.push(Some(bytes.get(pos..pos + len)?));
                pos += len;
            }
            Err(_) => items.push(None),
        }
    }
    Some(items)
}

/// `TupleType.compareCustom`: component by component with null first; when one value
/// has fewer components, it is equal if the other's extra components are all null and
/// smaller otherwise.
fn compare_tuples<'t>(types: impl Iterator<Item = &'t CqlType>, a: &[u8], b: &[u8]) -> Ordering {
    let (Some(items_a), Some(items_b)) = (tuple_items(a), tuple_items(b)) else {
        return a.cmp(b);
    };
    for ((x, y), ty) in items_a.iter().zip(items_b.iter()).zip(types) {
        let order = match (x, y) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(x), Some(y)) => compare(ty, x, y),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    let common = items_a.len().min(items_b.len());
    let rest_is_null = |items: &[Option<&[u8]>]| items[common..].iter().all(Option::is_none);
    match (rest_is_null(&items_a), rest_is_null(&items_b)) {
        (true, true) => Ordering::Equal,
        _ => items_a.len().cmp(&items_b.len()),
    }
}

/// Element by element with the element comparator.
fn compare_vectors(element: &CqlType, dimension: u32, a: &[u8], b: &[u8]) -> Ordering {
    let (Some(items_a), Some(items_b)) = (
        vector_items(element, dimension, a),
        vector_items(element, dimension, b),
    ) else {
        return a.cmp(b);
    };
    items_a
        .iter()
        .zip(items_b.iter())
        .map(|(x, y)| compare(element, x, y))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

fn vector_items<'a>(element: &CqlType, dimension: u32, bytes: &'a [u8]) -> Option<Vec<&'a [u8]>> {
    let mut items = Vec::new();
    let mut pos = 0;
    for _ in 0..dimension {
        let len = match fixed_length(element) {
            Some(len) => len,
            None => {
                let (len, used) = crate::serialize::vector::read_unsigned_vint(bytes.get(pos..)?)?;
                pos += used;
                usize::try_from(len).ok()?
            }
        };
        items.push(bytes.get(pos..pos + len)?);
        pos += len;
    }
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn native(t: NativeType) -> CqlType {
        CqlType::Native(t)
    }

    #[test]
    fn signed_integers() {
        let int = native(NativeType::Int);
        assert_eq!(
            compare(&int, &(-1i32).to_be_bytes(), &1i32.to_be_bytes()),
            Ordering::Less
        );
        assert_eq!(
            compare(&int, &256i32.to_be_bytes(), &255i32.to_be_bytes()),
            Ordering::Greater
        );
    }

    #[test]
    fn decimals_compare_numerically() {
        let d = native(NativeType::Decimal);
        let one_point_zero = [0, 0, 0, 1, 10];
        let one_point_zero_zero = [0, 0, 0, 2, 100];
        assert_eq!(
            compare(&d, &one_point_zero, &one_point_zero_zero),
            Ordering::Equal
        );
        let big_exponent = [0x80, 0, 0, 0, 1]; // 1e2147483648
        assert_eq!(
            compare(&d, &big_exponent, &one_point_zero),
            Ordering::Greater
        );
        let minus_two = [0, 0, 0, 0, 0xfe];
        assert_eq!(compare(&d, &minus_two, &one_point_zero), Ordering::Less);
        let minus_one_point_five = [0, 0, 0, 1, 0xf1];
        assert_eq!(
            compare(&d, &minus_two, &minus_one_point_five),
            Ordering::Less
        );
    }

    #[test]
    fn floats_follow_java() {
        let f = native(NativeType::Double);
        let b = |x: f64| x.to_be_bytes();
        assert_eq!(compare(&f, &b(-0.0), &b(0.0)), Ordering::Less);
        assert_eq!(
            compare(&f, &b(f64::NAN), &b(f64::INFINITY)),
            Ordering::Greater
        );
        assert_eq!(compare(&f, &b(-1.0), &b(0.5)), Ordering::Less);
    }

    #[test]
    fn timeuuid_orders_by_time_then_signed_bytes() {
        let t = native(NativeType::Timeuuid);
        // time_low 0xffffffff (later within the same time_mid/hi) vs time_mid 1 (later overall)
        let mut early = [0u8; 16];
        early[..4].copy_from_slice(&[0xff; 4]);
        early[6] = 0x10;
        let mut late = [0u8; 16];
        late[5] = 1;
        late[6] = 0x10;
        assert_eq!(compare(&t, &early, &late), Ordering::Less);
        // Same time: low bytes compare signed, so 0x80 < 0x7f.
        let mut x = late;
        let mut y = late;
        x[8] = 0x80;
        y[8] = 0x7f;
        assert_eq!(compare(&t, &x, &y), Ordering::Less);
        // UUIDType compares those low bytes unsigned.
        assert_eq!(
            compare(&native(NativeType::Uuid), &x, &y),
            Ordering::Greater
        );
    }

    #[test]
    fn lists_compare_elementwise_then_by_length() {
        let l = CqlType::List {
            element: Box::new(native(NativeType::Int)),
            frozen: true,
        };
        let list = |items: &[i32]| {
            let mut out = (items.len() as i32).to_be_bytes().to_vec();
            for i in items {
                out.extend(4i32.to_be_bytes());
                out.extend(i.to_be_bytes());
            }
            out
        };
        assert_eq!(
            compare(&l, &list(&[1, 2]), &list(&[1, 2, 0])),
            Ordering::Less
        );
        assert_eq!(compare(&l, &list(&[2]), &list(&[1, 5])), Ordering::Greater);
        assert_eq!(compare(&l, &list(&[-1]), &list(&[1])), Ordering::Less);
    }

    #[test]
    fn tuples_put_null_first() {
        let t = CqlType::Tuple(vec![native(NativeType::Int), native(NativeType::Int)]);
        let null_first = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 4, 0, 0, 0, 9];
        let value_first = [0, 0, 0, 4, 0x80, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(compare(&t, &null_first, &value_first), Ordering::Less);
        let short = [0, 0, 0, 4, 0, 0, 0, 1];
        let padded = [0, 0, 0, 4, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(compare(&t, &short, &padded), Ordering::Equal);
    }
}
