//! Bytes per value and cells per row of each CQL type: the `sizeOf()` of the
//! Cassandra documentation's partition-size formula.
//!
//! Fixed-size types take their serialized width (the CQL native protocol's and
//! the storage engine's value encoding): `int` 4, `bigint` 8, `uuid` 16, … Variable-
//! length types take the column's `avg_size`, else the defaults below. A
//! non-frozen collection stores one cell per element, so it counts
//! `avg_elements` cells of `element_size` bytes; frozen collections, tuples and
//! UDTs are one cell holding their serialized form.

use cqlmodel_schema::Column;
use cqlmodel_schema::types::{CqlType, NativeType};

use crate::model::ColumnStats;

/// Default average size of a `text`/`ascii`/`varchar` value, in bytes.
pub const DEFAULT_TEXT_BYTES: f64 = 16.0;
/// Default average size of a `blob` value.
pub const DEFAULT_BLOB_BYTES: f64 = 64.0;
/// Default size of a `varint` (a long-sized number plus a sign byte).
pub const DEFAULT_VARINT_BYTES: f64 = 9.0;
/// Default size of a `decimal`: a 4-byte scale and a 9-byte unscaled varint.
pub const DEFAULT_DECIMAL_BYTES: f64 = 13.0;
/// Default size of a `duration`: three variable-length integers.
pub const DEFAULT_DURATION_BYTES: f64 = 12.0;
/// Default size of a custom-class value.
pub const DEFAULT_CUSTOM_BYTES: f64 = 16.0;
/// Default element count of a collection.
pub const DEFAULT_ELEMENTS: f64 = 4.0;
/// Per-cell metadata (timestamp, flags, TTL): `t_avg` of the Cassandra docs.
pub const CELL_OVERHEAD_BYTES: f64 = 8.0;

/// Where a column's size came from, for the report's assumptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeSource {
    /// The type's fixed width.
    Type,
    /// The statistics file (`avg_size`, `avg_elements` × `element_size`).
    Declared,
    /// A documented default for a variable-length type.
    Default,
}

/// The storage a column costs in one row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnSize {
    /// Average bytes of the value (all elements for a collection).
    pub bytes: f64,
    /// Cells per row: 1, or the element count of a non-frozen collection.
    pub cells: f64,
    pub source: SizeSource,
}

/// The serialized width of a fixed-size native type, `None` for variable-length ones.
pub fn fixed_width(t: NativeType) -> Option<f64> {
    Some(match t {
        NativeType::Boolean | NativeType::Tinyint => 1.0,
        NativeType::Smallint => 2.0,
        NativeType::Int | NativeType::Date | NativeType::Float => 4.0,
        NativeType::Bigint
        | NativeType::Counter
        | NativeType::Double
        | NativeType::Time
        | NativeType::Timestamp => 8.0,
        NativeType::Uuid | NativeType::Timeuuid => 16.0,
        // An IPv4 address; declare `avg_size = 16` for IPv6.
        NativeType::Inet => 4.0,
        _ => return None,
    })
}

/// The average bytes of one value of `ty` when nothing is declared (a default for
/// variable-length types).
pub fn type_bytes(ty: &CqlType) -> (f64, SizeSource) {
    match ty {
        CqlType::Native(t) => match fixed_width(*t) {
            Some(w) => (w, SizeSource::Type),
            None => (
                match t {
                    NativeType::Blob => DEFAULT_BLOB_BYTES,
                    NativeType::Varint => DEFAULT_VARINT_BYTES,
                    NativeType::Decimal => DEFAULT_DECIMAL_BYTES,
                    NativeType::Duration => DEFAULT_DURATION_BYTES,
                    _ => DEFAULT_TEXT_BYTES,
                },
                SizeSource::Default,
            ),
        },
        // Serialized frozen forms: a 4-byte count, then a 4-byte length before each part.
        CqlType::List { element, .. } | CqlType::Set { element, .. } => {
            let (e, src) = type_bytes(element);
            (
                4.0 + DEFAULT_ELEMENTS * (4.0 + e),
                worst(src, SizeSource::Default),
            )
        }
        CqlType::Map { key, value, .. } => {
            let (k, ks) = type_bytes(key);
            let (v, vs) = type_bytes(value);
            (
                4.0 + DEFAULT_ELEMENTS * (8.0 + k + v),
                worst(worst(ks, vs), SizeSource::Default),
            )
        }
        CqlType::Tuple(items) => fields_bytes(items.iter()),
        CqlType::Udt { def, .. } => fields_bytes(def.fields.iter().map(|(_, t)| t)),
        CqlType::Vector { element, dimension } => {
            let (e, src) = type_bytes(element);
            let per = if matches!(src, SizeSource::Type) {
                e
            } else {
                e + 1.0
            };
            (per * f64::from(*dimension), src)
        }
        CqlType::Custom(_) => (DEFAULT_CUSTOM_BYTES, SizeSource::Default),
    }
}

fn fields_bytes<'a>(fields: impl Iterator<Item = &'a CqlType>) -> (f64, SizeSource) {
    fields.fold((0.0, SizeSource::Type), |(sum, src), t| {
        let (b, s) = type_bytes(t);
        (sum + 4.0 + b, worst(src, s))
    })
}

fn worst(a: SizeSource, b: SizeSource) -> SizeSource {
    if a == SizeSource::Default || b == SizeSource::Default {
        SizeSource::Default
    } else {
        a
    }
}

/// Bytes of one element of a collection type (key + value for a map).
fn element_bytes(ty: &CqlType) -> f64 {
    match ty {
        CqlType::List { element, .. } | CqlType::Set { element, .. } => type_bytes(element).0,
        CqlType::Map { key, value, .. } => type_bytes(key).0 + type_bytes(value).0,
        other => type_bytes(other).0,
    }
}

/// What `column` costs in one row, given what the statistics file declares.
pub fn column_size(column: &Column, stats: Option<&ColumnStats>) -> ColumnSize {
    let ty = &column.ty;
    let stats = stats.cloned().unwrap_or_default();
    if ty.is_collection() {
        let declared = stats.avg_elements.is_some() || stats.element_size.is_some();
        let elements = stats.avg_elements.unwrap_or(DEFAULT_ELEMENTS);
        let element = stats.element_size.unwrap_or_else(|| element_bytes(ty));
        let bytes = stats.avg_size.unwrap_or(elements * element);
        let source = if declared || stats.avg_size.is_some() {
            SizeSource::Declared
        } else {
            SizeSource::Default
        };
        let cells = if ty.is_multi_cell() { elements } else { 1.0 };
        return ColumnSize {
            bytes,
            cells,
            source,
        };
    }
    // A non-frozen UDT stores one cell per field.
    let cells = match ty {
        CqlType::Udt { def, frozen: false } => def.fields.len().max(1) as f64,
        _ => 1.0,
    };
    match stats.avg_size {
        Some(bytes) => ColumnSize {
            bytes,
            cells,
            source: SizeSource::Declared,
        },
        None => {
            let (bytes, source) = type_bytes(ty);
            ColumnSize {
                bytes,
                cells,
                source,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqlmodel_schema::types::CqlType;

    #[test]
    fn fixed_widths_follow_the_serialized_forms() {
        let n = |t| type_bytes(&CqlType::native(t)).0;
        assert_eq!(n(NativeType::Int), 4.0);
        assert_eq!(n(NativeType::Bigint), 8.0);
        assert_eq!(n(NativeType::Uuid), 16.0);
        assert_eq!(n(NativeType::Timeuuid), 16.0);
        assert_eq!(n(NativeType::Timestamp), 8.0);
        assert_eq!(n(NativeType::Date), 4.0);
        assert_eq!(n(NativeType::Double), 8.0);
        assert_eq!(n(NativeType::Float), 4.0);
        assert_eq!(n(NativeType::Boolean), 1.0);
        assert_eq!(n(NativeType::Smallint), 2.0);
        assert_eq!(n(NativeType::Text), DEFAULT_TEXT_BYTES);
        assert_eq!(
            type_bytes(&CqlType::native(NativeType::Varchar)).1,
            SizeSource::Default
        );
    }

    #[test]
    fn vectors_are_dimension_times_element() {
        let v = CqlType::Vector {
            element: Box::new(CqlType::native(NativeType::Float)),
            dimension: 768,
        };
        assert_eq!(type_bytes(&v), (3072.0, SizeSource::Type));
    }
}
