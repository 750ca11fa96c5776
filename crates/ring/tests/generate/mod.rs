//! Seeded generation of key types and values for the differential test: each value is
//! produced both as a CQL term and as the JSON description `tests/py/tokens.py` reads.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use cqlmodel_cql::ast::{Ident, Literal, NativeType, Span, SpecialFloat, Term, TermKind};
use cqlmodel_schema::types::{CqlType, UdtDef};
use serde_json::{Value, json};

/// splitmix64: small, fast and good enough to spread test inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// A byte that is >= 0x80 two times out of three.
    pub fn byte_biased_high(&mut self) -> u8 {
        let b = self.next() as u8;
        if self.chance(67) { b | 0x80 } else { b }
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const KEY_NATIVES: [NativeType; 18] = [
    NativeType::Ascii,
    NativeType::Bigint,
    NativeType::Blob,
    NativeType::Boolean,
    NativeType::Date,
    NativeType::Decimal,
    NativeType::Double,
    NativeType::Float,
    NativeType::Inet,
    NativeType::Int,
    NativeType::Smallint,
    NativeType::Text,
    NativeType::Time,
    NativeType::Timestamp,
    NativeType::Timeuuid,
    NativeType::Tinyint,
    NativeType::Uuid,
    NativeType::Varint,
];

/// A type allowed in a partition key, nested at most two levels.
pub fn gen_key_type(rng: &mut Rng, depth: u32) -> CqlType {
    let roll = rng.below(100);
    if depth >= 2 || roll < 55 {
        return CqlType::native(rng.pick(&KEY_NATIVES));
    }
    match roll {
        55..=63 => CqlType::List {
            element: Box::new(gen_key_type(rng, depth + 1)),
            frozen: true,
        },
        64..=73 => CqlType::Set {
            element: Box::new(gen_ordered_type(rng, depth + 1)),
            frozen: true,
        },
        74..=82 => CqlType::Map {
            key: Box::new(gen_ordered_type(rng, depth + 1)),
            value: Box::new(gen_key_type(rng, depth + 1)),
            frozen: true,
        },
        83..=90 => CqlType::Tuple(
            (0..1 + rng.below(4))
                .map(|_| gen_key_type(rng, depth + 1))
                .collect(),
        ),
        91..=95 => {
            let fields = (0..1 + rng.below(4))
                .map(|i| (format!("f{i}"), gen_key_type(rng, depth + 1)))
                .collect();
            CqlType::Udt {
                def: Arc::new(UdtDef {
                    keyspace: "ks".into(),
                    name: format!("u{}", rng.below(1000)),
                    fields,
                }),
                frozen: true,
            }
        }
        _ => CqlType::Vector {
            element: Box::new(CqlType::native(rng.pick(&KEY_NATIVES))),
            dimension: 1 + rng.below(4) as u32,
        },
    }
}

/// A set element or map key type (vectors left out to keep the Python sort keys simple).
fn gen_ordered_type(rng: &mut Rng, depth: u32) -> CqlType {
    loop {
        let ty = gen_key_type(rng, depth);
        if !matches!(ty, CqlType::Vector { .. }) {
            return ty;
        }
    }
}

pub fn type_json(ty: &CqlType) -> Value {
    match ty {
        CqlType::Native(t) => json!({ "k": t.name() }),
        CqlType::List { element, .. } => json!({ "k": "list", "e": type_json(element) }),
        CqlType::Set { element, .. } => json!({ "k": "set", "e": type_json(element) }),
        CqlType::Map { key, value, .. } => {
            json!({ "k": "map", "key": type_json(key), "val": type_json(value) })
        }
        CqlType::Tuple(items) => {
            json!({ "k": "tuple", "items": items.iter().map(type_json).collect::<Vec<_>>() })
        }
        CqlType::Udt { def, .. } => json!({
            "k": "udt",
            "name": def.name,
            "fields": def.fields.iter().map(|(n, t)| json!([n, type_json(t)])).collect::<Vec<_>>(),
        }),
        CqlType::Vector { element, dimension } => {
            json!({ "k": "vector", "e": type_json(element), "n": dimension })
        }
        CqlType::Custom(c) => panic!("no custom types in keys here: {c}"),
    }
}

fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: Span::default(),
    }
}

fn lit(l: Literal) -> Term {
    term(TermKind::Literal(l))
}

/// A value of `ty` as a term and as the description tokens.py reads. Tuples may be
/// shorter than their type only where `allow_short_tuples` (not inside sets or map keys,
/// whose comparator treats missing and null components alike).
pub fn gen_value(rng: &mut Rng, ty: &CqlType, allow_short_tuples: bool) -> (Term, Value) {
    match ty {
        CqlType::Native(t) => gen_native(rng, *t),
        CqlType::List { element, .. } => {
            let (terms, values): (Vec<_>, Vec<_>) = (0..rng.below(5))
                .map(|_| gen_value(rng, element, allow_short_tuples))
                .unzip();
            (term(TermKind::List(terms)), Value::Array(values))
        }
        CqlType::Set { element, .. } => {
            let mut items: Vec<(Term, Value)> = (0..rng.below(6))
                .map(|_| gen_value(rng, element, false))
                .collect();
            add_duplicates(rng, &mut items, element);
            let (terms, values): (Vec<_>, Vec<_>) = items.into_iter().unzip();
            let kind = if terms.is_empty() {
                TermKind::Map(Vec::new())
            } else {
                TermKind::Set(terms)
            };
            (term(kind), Value::Array(values))
        }
        CqlType::Map { key, value, .. } => {
            let mut keys: Vec<(Term, Value)> = (0..rng.below(5))
                .map(|_| gen_value(rng, key, false))
                .collect();
            add_duplicates(rng, &mut keys, key);
            let mut entries = Vec::new();
            let mut described = Vec::new();
            for (kt, kv) in keys {
                let (vt, vv) = gen_value(rng, value, allow_short_tuples);
                entries.push((kt, vt));
                described.push(json!([kv, vv]));
            }
            (term(TermKind::Map(entries)), Value::Array(described))
        }
        CqlType::Tuple(types) => {
            let given = if allow_short_tuples && types.len() > 1 && rng.chance(15) {
                1 + rng.below(types.len() as u64 - 1) as usize
            } else {
                types.len()
            };
            let (terms, values): (Vec<_>, Vec<_>) = types[..given]
                .iter()
                .map(|t| {
                    if rng.chance(20) {
                        (lit(Literal::Null), Value::Null)
                    } else {
                        gen_value(rng, t, allow_short_tuples)
                    }
                })
                .unzip();
            (term(TermKind::Tuple(terms)), Value::Array(values))
        }
        CqlType::Udt { def, .. } => {
            let mut entries = Vec::new();
            let mut described = serde_json::Map::new();
            for (name, field_ty) in &def.fields {
                let roll = rng.below(100);
                if roll < 20 {
                    continue; // omitted: written as null
                }
                let (t, v) = if roll < 40 {
                    (lit(Literal::Null), Value::Null)
                } else {
                    gen_value(rng, field_ty, allow_short_tuples)
                };
                entries.push((Ident::new(name.clone()), t));
                described.insert(name.clone(), v);
            }
            // Field order in a literal does not matter.
            if entries.len() > 1 && rng.chance(50) {
                entries.reverse();
            }
            (term(TermKind::Udt(entries)), Value::Object(described))
        }
        CqlType::Vector { element, dimension } => {
            let (terms, values): (Vec<_>, Vec<_>) = (0..*dimension)
                .map(|_| gen_value(rng, element, allow_short_tuples))
                .unzip();
            (term(TermKind::List(terms)), Value::Array(values))
        }
        CqlType::Custom(c) => panic!("no custom types in keys here: {c}"),
    }
}

/// Repeats some elements (and for decimals adds numerically equal ones with another
/// scale) so that de-duplication by comparator is exercised.
fn add_duplicates(rng: &mut Rng, items: &mut Vec<(Term, Value)>, ty: &CqlType) {
    if items.is_empty() || !rng.chance(35) {
        return;
    }
    let i = rng.below(items.len() as u64) as usize;
    let copy = items[i].clone();
    if let (CqlType::Native(NativeType::Decimal), TermKind::Literal(Literal::Float(text))) =
        (ty, &copy.0.kind)
        && !text.contains(['e', 'E'])
        && text.contains('.')
    {
        let rescaled = format!("{text}0");
        items.push((lit(Literal::Float(rescaled.clone())), json!(rescaled)));
        return;
    }
    let at = rng.below(items.len() as u64 + 1) as usize;
    items.insert(at, copy);
}

fn digits(rng: &mut Rng, n: usize, leading_nonzero: bool) -> String {
    (0..n)
        .map(|i| {
            let d = if i == 0 && leading_nonzero {
                1 + rng.below(9)
            } else {
                rng.below(10)
            };
            char::from(b'0' + d as u8)
        })
        .collect()
}

fn int_like(rng: &mut Rng, min: i128, max: i128) -> (Term, Value) {
    let v = if rng.chance(20) {
        rng.pick(&[min, max, 0, -1, 1])
    } else {
        let span = (max - min + 1) as u128;
        min + (((u128::from(rng.next()) << 64) | u128::from(rng.next())) % span) as i128
    };
    let text = v.to_string();
    (lit(Literal::Integer(text.clone())), json!(text))
}

fn special(rng: &mut Rng) -> (Term, Value) {
    let (s, text) = rng.pick(&[
        (SpecialFloat::NaN, "NaN"),
        (SpecialFloat::Infinity, "Infinity"),
        (SpecialFloat::NegativeInfinity, "-Infinity"),
    ]);
    (lit(Literal::SpecialFloat(s)), json!(text))
}

const TEXT_POOL: [char; 24] = [
    'a',
    'b',
    'z',
    'A',
    'Z',
    '0',
    '9',
    ' ',
    '\'',
    '"',
    '\\',
    '\n',
    '\u{0}',
    '\u{7f}',
    '\u{80}',
    'é',
    'ß',
    'Ω',
    '中',
    '日',
    '\u{ffff}',
    '😀',
    '𝄞',
    '\u{10ffff}',
];

fn gen_native(rng: &mut Rng, t: NativeType) -> (Term, Value) {
    match t {
        NativeType::Int => int_like(rng, i32::MIN.into(), i32::MAX.into()),
        NativeType::Bigint => int_like(rng, i64::MIN.into(), i64::MAX.into()),
        NativeType::Smallint => int_like(rng, i16::MIN.into(), i16::MAX.into()),
        NativeType::Tinyint => int_like(rng, i8::MIN.into(), i8::MAX.into()),
        NativeType::Varint => {
            let mut text = if rng.chance(10) {
                "0".to_string()
            } else {
                let n = 1 + rng.below(40) as usize;
                digits(rng, n, true)
            };
            if rng.chance(40) {
                text.insert(0, '-');
            }
            (lit(Literal::Integer(text.clone())), json!(text))
        }
        NativeType::Decimal => {
            let n = 1 + rng.below(15) as usize;
            let mut text = digits(rng, n, false);
            if rng.chance(70) {
                text.push('.');
                let f = rng.below(9) as usize;
                text.push_str(&digits(rng, f, false));
            }
            if rng.chance(30) {
                let e = rng.range(-40, 40);
                let sign = if e >= 0 && rng.chance(50) { "+" } else { "" };
                text.push_str(&format!("{}{sign}{e}", rng.pick(&["e", "E"])));
            }
            if rng.chance(40) {
                text.insert(0, '-');
            }
            let literal = if text.contains(['.', 'e', 'E']) {
                Literal::Float(text.clone())
            } else {
                Literal::Integer(text.clone())
            };
            (lit(literal), json!(text))
        }
        NativeType::Float | NativeType::Double if rng.chance(15) => {
            // Float.compare orders -0.0 before 0.0; both must survive in a set.
            let text = rng.pick(&["0.0", "-0.0", "0", "-0"]);
            let literal = if text.contains('.') {
                Literal::Float(text.into())
            } else {
                Literal::Integer(text.into())
            };
            (lit(literal), json!(text))
        }
        NativeType::Float => match rng.below(10) {
            0 => special(rng),
            1 | 2 => int_like(rng, i32::MIN.into(), i32::MAX.into()),
            _ => {
                let m = 1 + rng.below(999_999);
                let text = if rng.chance(50) {
                    format!("{m}e{}", rng.range(-30, 30))
                } else {
                    let s = m.to_string();
                    let cut = rng.below(s.len() as u64) as usize;
                    format!("{}.{}", &s[..cut.max(1)], &s[cut.max(1)..])
                };
                let text = if rng.chance(40) {
                    format!("-{text}")
                } else {
                    text
                };
                (lit(Literal::Float(text.clone())), json!(text))
            }
        },
        NativeType::Double => match rng.below(10) {
            0 => special(rng),
            1 | 2 => int_like(rng, i64::MIN.into(), i64::MAX.into()),
            _ => {
                let v = loop {
                    let v = f64::from_bits(rng.next());
                    if v.is_finite() {
                        break v;
                    }
                };
                let text = format!("{v:e}");
                (lit(Literal::Float(text.clone())), json!(text))
            }
        },
        NativeType::Boolean => {
            let b = rng.chance(50);
            (lit(Literal::Boolean(b)), json!(b))
        }
        NativeType::Text | NativeType::Varchar => {
            let s: String = (0..rng.below(12)).map(|_| rng.pick(&TEXT_POOL)).collect();
            (lit(Literal::String(s.clone())), json!(s))
        }
        NativeType::Ascii => {
            let s: String = (0..rng.below(12))
                .map(|_| char::from(rng.below(128) as u8))
                .collect();
            (lit(Literal::String(s.clone())), json!(s))
        }
        NativeType::Blob => {
            let bytes: Vec<u8> = (0..rng.below(24)).map(|_| rng.byte_biased_high()).collect();
            (lit(Literal::Blob(hex(&bytes))), json!(hex(&bytes)))
        }
        NativeType::Uuid | NativeType::Timeuuid => {
            let mut bytes: Vec<u8> = (0..16).map(|_| rng.next() as u8).collect();
            if rng.chance(40) {
                // A shared time/high half, so that sets compare the low halves too.
                let shared = rng.pick(&[0x0123_4567_89ab_cdefu64, 0xfedc_ba98_7654_3210]);
                bytes[..8].copy_from_slice(&shared.to_be_bytes());
            }
            if t == NativeType::Timeuuid || rng.chance(30) {
                bytes[6] = (bytes[6] & 0x0f) | 0x10;
            }
            let h = hex(&bytes);
            let text = format!(
                "{}-{}-{}-{}-{}",
                &h[..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..]
            );
            (lit(Literal::Uuid(text.clone())), json!(text))
        }
        NativeType::Timestamp => gen_timestamp(rng),
        NativeType::Date => {
            if rng.chance(30) {
                let raw = rng.next() as u32;
                let literal = if rng.chance(50) {
                    Literal::Integer(raw.to_string())
                } else {
                    Literal::String(raw.to_string())
                };
                return (lit(literal), json!({ "raw": raw }));
            }
            let year = rng.range(1, 9999);
            let month = rng.range(1, 12);
            let day = rng.range(1, days_in_month(year, month));
            let text = format!("{year:04}-{month:02}-{day:02}");
            (lit(Literal::String(text.clone())), json!({ "str": text }))
        }
        NativeType::Time => {
            if rng.chance(30) {
                let raw = rng.below(86_400_000_000_000);
                let literal = if rng.chance(50) {
                    Literal::Integer(raw.to_string())
                } else {
                    Literal::String(raw.to_string())
                };
                return (lit(literal), json!({ "raw": raw }));
            }
            let mut text = format!(
                "{:02}:{:02}:{:02}",
                rng.below(24),
                rng.below(60),
                rng.below(60)
            );
            if rng.chance(60) {
                let n = 1 + rng.below(9) as usize;
                text.push('.');
                text.push_str(&digits(rng, n, false));
            }
            (lit(Literal::String(text.clone())), json!({ "str": text }))
        }
        NativeType::Inet => {
            let text = if rng.chance(50) {
                Ipv4Addr::from(rng.next() as u32).to_string()
            } else {
                let mut addr =
                    Ipv6Addr::from((u128::from(rng.next()) << 64) | u128::from(rng.next()));
                if rng.chance(30) {
                    // Runs of zero groups exercise '::' compression.
                    let mut segments = addr.segments();
                    let start = rng.below(8) as usize;
                    let len = rng.below(8 - start as u64) as usize;
                    segments[start..start + len].fill(0);
                    addr = Ipv6Addr::from(segments);
                }
                if addr.to_ipv4_mapped().is_some() {
                    addr = Ipv6Addr::LOCALHOST; // mapped addresses differ by design; see unit tests
                }
                addr.to_string()
            };
            (lit(Literal::String(text.clone())), json!(text))
        }
        NativeType::Counter | NativeType::Duration => panic!("{} is not a key type", t.name()),
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn gen_timestamp(rng: &mut Rng) -> (Term, Value) {
    match rng.below(10) {
        0..=2 => {
            let ms = rng.range(-(1 << 45), 1 << 45);
            let literal = if rng.chance(50) {
                Literal::Integer(ms.to_string())
            } else {
                Literal::String(ms.to_string())
            };
            (lit(literal), json!({ "ms": ms }))
        }
        _ => {
            // Years from 1600 on: before the 1582 cutover Java reads dates as Julian while
            // Python's datetime is proleptic Gregorian (covered by unit tests instead).
            let (y, mo) = (rng.range(1600, 2599), rng.range(1, 12));
            let d = rng.range(1, days_in_month(y, mo));
            let (h, mi, s, ms) = (rng.below(24), rng.below(60), rng.below(60), rng.below(1000));
            let date = format!("{y:04}-{mo:02}-{d:02}");
            let sep = rng.pick(&[" ", "T"]);
            let body = match rng.below(5) {
                0 => date,
                1 => format!("{date}{sep}{h:02}:{mi:02}"),
                2 => format!("{date}{sep}{h:02}:{mi:02}:{s:02}"),
                _ => format!("{date}{sep}{h:02}:{mi:02}:{s:02}.{ms:03}"),
            };
            let (zh, zm) = (rng.below(14), rng.pick(&[0, 30, 45]));
            let zone = match rng.below(8) {
                0 => String::new(),
                1 => "Z".into(),
                2 => format!("+{zh:02}{zm:02}"),
                3 => format!("-{zh:02}:{zm:02}"),
                4 => format!("+{zh:02}"),
                5 => format!(" -{zh:02}{zm:02}"),
                6 => " UTC".into(),
                _ => format!("-{zh:02}{zm:02}"),
            };
            let text = format!("{body}{zone}");
            (lit(Literal::String(text.clone())), json!({ "str": text }))
        }
    }
}

/// CQL-ish rendering of a generated term, for failure messages.
pub fn term_to_cql(t: &Term) -> String {
    let join = |items: &[Term]| items.iter().map(term_to_cql).collect::<Vec<_>>().join(", ");
    match &t.kind {
        TermKind::Literal(l) => match l {
            Literal::String(s) => format!("'{}'", s.replace('\'', "''")),
            Literal::Integer(s) | Literal::Float(s) | Literal::Uuid(s) => s.clone(),
            Literal::Blob(h) => format!("0x{h}"),
            Literal::Boolean(b) => b.to_string(),
            Literal::SpecialFloat(s) => format!("{s:?}"),
            Literal::Duration(d) => d.clone(),
            Literal::Null => "null".into(),
        },
        TermKind::List(items) => format!("[{}]", join(items)),
        TermKind::Set(items) => format!("{{{}}}", join(items)),
        TermKind::Tuple(items) => format!("({})", join(items)),
        TermKind::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", term_to_cql(k), term_to_cql(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        TermKind::Udt(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", k.value, term_to_cql(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    }
}
