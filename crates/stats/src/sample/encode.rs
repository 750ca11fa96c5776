//! Writing the value of index `i` of a partition-key column straight into the key
//! buffer, in the exact serialized form Cassandra hashes (`int` 4 bytes
//! big-endian, `date` the day number with the epoch at 2^31, `timeuuid` a version-1
//! UUID, …). The values an index stands for are documented in `docs/stats.md`.

use cqlmodel_schema::types::{CqlType, NativeType};

use crate::model::BucketUnit;
use crate::rng::mix64;

/// Sampled time starts here: 2025-01-01T00:00:00Z, in Unix seconds.
pub const TIME_ORIGIN: i64 = 1_735_689_600;
/// 100 ns intervals between the UUID epoch (1582-10-15) and the Unix epoch.
const UUID_EPOCH_OFFSET: u64 = 0x01B2_1DD2_1381_4000;

/// How an index becomes bytes.
#[derive(Debug, Clone)]
pub enum Encoder {
    /// Ids `i + 1` as a 1, 2, 4 or 8-byte big-endian two's-complement integer.
    Int {
        width: u8,
    },
    /// Ids `i + 1` as a minimal `varint`.
    Varint,
    /// Ids `i + 1` as a `decimal` with scale 0.
    Decimal,
    Boolean,
    Float,
    Double,
    /// `"key-<i + 1>"` (`text`, `ascii`, `varchar`).
    Text,
    /// `i + 1` as 8 big-endian bytes.
    Blob,
    /// A version-4 UUID derived from the index (and the column's salt).
    Uuid {
        salt: u64,
    },
    /// A version-1 UUID whose time is `origin + i × step` seconds.
    Timeuuid {
        step: f64,
        node: u64,
    },
    /// Milliseconds since the Unix epoch of `origin + i × step` seconds.
    Timestamp {
        step: f64,
    },
    /// The day of `origin + i × step` seconds.
    Date {
        step: f64,
    },
    /// Nanoseconds since midnight of `i × step` seconds.
    Time {
        step: f64,
    },
    /// 10.0.0.0 + i.
    Inet,
    /// The bucket's start time, written as text in the unit's natural form
    /// (`2025`, `2025-01`, `2025-01-01`, `2025-01-01T05`, `2025-01-01T05:07`).
    BucketText {
        unit: BucketUnit,
        step: f64,
    },
    /// A bucket of an integer column: the bucket number since the Unix epoch.
    BucketNumber {
        width: u8,
        step: f64,
    },
}

/// Why a column cannot be sampled.
pub struct Unsupported;

impl Encoder {
    /// The encoder of a column of type `ty` whose index `i` stands for `i × step`
    /// seconds after the origin (time types) or for id `i + 1` (others).
    pub fn for_type(ty: &CqlType, step: f64, salt: u64) -> Result<Encoder, Unsupported> {
        let CqlType::Native(t) = ty else {
            return Err(Unsupported);
        };
        Ok(match t {
            NativeType::Tinyint => Encoder::Int { width: 1 },
            NativeType::Smallint => Encoder::Int { width: 2 },
            NativeType::Int => Encoder::Int { width: 4 },
            NativeType::Bigint | NativeType::Counter => Encoder::Int { width: 8 },
            NativeType::Varint => Encoder::Varint,
            NativeType::Decimal => Encoder::Decimal,
            NativeType::Boolean => Encoder::Boolean,
            NativeType::Float => Encoder::Float,
            NativeType::Double => Encoder::Double,
            NativeType::Text | NativeType::Ascii | NativeType::Varchar => Encoder::Text,
            NativeType::Blob => Encoder::Blob,
            NativeType::Uuid => Encoder::Uuid { salt },
            NativeType::Timeuuid => Encoder::Timeuuid {
                step,
                node: mix64(salt) & 0xffff_ffff_ffff,
            },
            NativeType::Timestamp => Encoder::Timestamp { step },
            NativeType::Date => Encoder::Date { step },
            NativeType::Time => Encoder::Time { step },
            NativeType::Inet => Encoder::Inet,
            NativeType::Duration => return Err(Unsupported),
        })
    }

    /// The encoder of a time-bucket column of type `ty`, buckets `unit` wide.
    pub fn for_bucket(ty: &CqlType, unit: BucketUnit, salt: u64) -> Result<Encoder, Unsupported> {
        let step = unit.seconds() as f64;
        match ty {
            CqlType::Native(NativeType::Text | NativeType::Ascii | NativeType::Varchar) => {
                Ok(Encoder::BucketText { unit, step })
            }
            CqlType::Native(NativeType::Int) => Ok(Encoder::BucketNumber { width: 4, step }),
            CqlType::Native(NativeType::Bigint) => Ok(Encoder::BucketNumber { width: 8, step }),
            CqlType::Native(NativeType::Smallint) => Ok(Encoder::BucketNumber { width: 2, step }),
            other => Encoder::for_type(other, step, salt),
        }
    }

    /// Appends the value of index `i` to `out`.
    #[inline]
    pub fn write(&self, i: u64, out: &mut Vec<u8>) {
        let id = i.wrapping_add(1);
        match self {
            Encoder::Int { width } => {
                let bytes = id.to_be_bytes();
                out.extend_from_slice(bytes.get(8 - usize::from(*width)..).unwrap_or(&bytes));
            }
            Encoder::Varint => write_varint(id, out),
            Encoder::Decimal => {
                out.extend_from_slice(&[0, 0, 0, 0]);
                write_varint(id, out);
            }
            Encoder::Boolean => out.push((i & 1) as u8),
            Encoder::Float => out.extend_from_slice(&(id as f32).to_bits().to_be_bytes()),
            Encoder::Double => out.extend_from_slice(&(id as f64).to_bits().to_be_bytes()),
            Encoder::Text => {
                out.extend_from_slice(b"key-");
                out.extend_from_slice(itoa::Buffer::new().format(id).as_bytes());
            }
            Encoder::Blob => out.extend_from_slice(&id.to_be_bytes()),
            Encoder::Uuid { salt } => {
                let hi = mix64(i ^ salt);
                let lo = mix64(hi ^ 0x5851_f42d_4c95_7f2d);
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&hi.to_be_bytes());
                b[8..].copy_from_slice(&lo.to_be_bytes());
                b[6] = (b[6] & 0x0f) | 0x40;
                b[8] = (b[8] & 0x3f) | 0x80;
                out.extend_from_slice(&b);
            }
            Encoder::Timeuuid { step, node } => {
                let seconds = TIME_ORIGIN as f64 + i as f64 * step;
                let t = (seconds * 1e7) as u64 + UUID_EPOCH_OFFSET;
                let clock_seq = (i >> 60) as u16 ^ (*node as u16);
                let mut b = [0u8; 16];
                b[..4].copy_from_slice(&((t & 0xffff_ffff) as u32).to_be_bytes());
                b[4..6].copy_from_slice(&(((t >> 32) & 0xffff) as u16).to_be_bytes());
                b[6..8].copy_from_slice(&((((t >> 48) & 0x0fff) as u16) | 0x1000).to_be_bytes());
                b[8] = ((clock_seq >> 8) as u8 & 0x3f) | 0x80;
                b[9] = clock_seq as u8;
                b[10..].copy_from_slice(&node.to_be_bytes()[2..]);
                out.extend_from_slice(&b);
            }
            Encoder::Timestamp { step } => {
                let ms = ((TIME_ORIGIN as f64 + i as f64 * step) * 1000.0) as i64;
                out.extend_from_slice(&ms.to_be_bytes());
            }
            Encoder::Date { step } => {
                // Whole-day steps (the usual case) stay in integer arithmetic.
                let day = if *step == 86_400.0 {
                    TIME_ORIGIN / 86_400 + i as i64
                } else {
                    (TIME_ORIGIN as f64 + i as f64 * step).div_euclid(86_400.0) as i64
                };
                out.extend_from_slice(&((day + (1 << 31)) as u32).to_be_bytes());
            }
            Encoder::Time { step } => {
                let ns = ((i as f64 * step) * 1e9) as i64 % 86_400_000_000_000;
                out.extend_from_slice(&ns.to_be_bytes());
            }
            Encoder::Inet => {
                out.extend_from_slice(&(0x0a00_0000u32.wrapping_add(i as u32)).to_be_bytes());
            }
            Encoder::BucketText { unit, step } => {
                let seconds = TIME_ORIGIN + (i as f64 * step) as i64;
                write_bucket_text(*unit, seconds, out);
            }
            Encoder::BucketNumber { width, step } => {
                let n = ((TIME_ORIGIN as f64 + i as f64 * step) / step) as u64;
                let bytes = n.to_be_bytes();
                out.extend_from_slice(bytes.get(8 - usize::from(*width)..).unwrap_or(&bytes));
            }
        }
    }
}

/// A positive integer as Cassandra's `varint`: minimal big-endian two's complement.
fn write_varint(v: u64, out: &mut Vec<u8>) {
    let bytes = v.to_be_bytes();
    let skip = (v.leading_zeros() / 8) as usize;
    let significant = bytes.get(skip.min(7)..).unwrap_or(&bytes);
    if significant.first().is_some_and(|b| b & 0x80 != 0) {
        out.push(0);
    }
    out.extend_from_slice(significant);
}

/// (year, month, day) of a day count since 1970-01-01, proleptic Gregorian
/// (the era-based conversion: 400-year eras of 146,097 days).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn write_bucket_text(unit: BucketUnit, seconds: i64, out: &mut Vec<u8>) {
    use std::io::Write;
    let (y, m, d) = civil_from_days(seconds.div_euclid(86_400));
    let secs_of_day = seconds.rem_euclid(86_400);
    let (h, min) = (secs_of_day / 3_600, secs_of_day % 3_600 / 60);
    // Writing to a Vec cannot fail.
    let _ = match unit {
        BucketUnit::Year => write!(out, "{y:04}"),
        BucketUnit::Month => write!(out, "{y:04}-{m:02}"),
        BucketUnit::Week | BucketUnit::Day => write!(out, "{y:04}-{m:02}-{d:02}"),
        BucketUnit::Hour => write!(out, "{y:04}-{m:02}-{d:02}T{h:02}"),
        BucketUnit::Minute => write!(out, "{y:04}-{m:02}-{d:02}T{h:02}:{min:02}"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(TIME_ORIGIN / 86_400), (2025, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn varints_are_minimal() {
        let enc = |v| {
            let mut out = Vec::new();
            write_varint(v, &mut out);
            out
        };
        assert_eq!(enc(1), vec![1]);
        assert_eq!(enc(127), vec![127]);
        assert_eq!(enc(128), vec![0, 128]);
        assert_eq!(enc(256), vec![1, 0]);
        assert_eq!(
            enc(u64::MAX),
            vec![0, 255, 255, 255, 255, 255, 255, 255, 255]
        );
    }

    #[test]
    fn bucket_text_forms() {
        let text = |unit, i| {
            let mut out = Vec::new();
            Encoder::BucketText {
                unit,
                step: unit.seconds() as f64,
            }
            .write(i, &mut out);
            String::from_utf8(out).unwrap_or_default()
        };
        assert_eq!(text(BucketUnit::Day, 0), "2025-01-01");
        assert_eq!(text(BucketUnit::Day, 31), "2025-02-01");
        assert_eq!(text(BucketUnit::Hour, 25), "2025-01-02T01");
        assert_eq!(text(BucketUnit::Minute, 61), "2025-01-01T01:01");
        assert_eq!(text(BucketUnit::Year, 0), "2025");
        assert_eq!(text(BucketUnit::Month, 0), "2025-01");
    }
}
