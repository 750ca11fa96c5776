//! `serialize_term` on hand-built terms: layouts derived from Cassandra's serializers,
//! the literal kinds each type accepts, and the errors for everything else.

use std::sync::Arc;

use cqlmodel_cql::ast::{
    BindMarker, DataType, DataTypeKind, Ident, Literal, NativeType, QualifiedName, Span,
    SpecialFloat, Term, TermKind,
};
use cqlmodel_ring::{ValueErrorKind, can_be_partition_key, serialize_term};
use cqlmodel_schema::types::{CqlType, UdtDef};
use proptest::prelude::*;

fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: Span::new(3, 9),
    }
}
fn lit(l: Literal) -> Term {
    term(TermKind::Literal(l))
}
fn int(v: &str) -> Term {
    lit(Literal::Integer(v.into()))
}
fn float(v: &str) -> Term {
    lit(Literal::Float(v.into()))
}
fn string(v: &str) -> Term {
    lit(Literal::String(v.into()))
}
fn null() -> Term {
    lit(Literal::Null)
}
fn native(t: NativeType) -> CqlType {
    CqlType::native(t)
}
fn set_of(t: NativeType) -> CqlType {
    CqlType::Set {
        element: Box::new(native(t)),
        frozen: true,
    }
}
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
fn ser(ty: &CqlType, t: &Term) -> String {
    match serialize_term(ty, t) {
        Ok(bytes) => hex(&bytes),
        Err(e) => format!("error: {e}"),
    }
}

fn point_udt() -> CqlType {
    CqlType::Udt {
        def: Arc::new(UdtDef {
            keyspace: "ks".into(),
            name: "point".into(),
            fields: vec![
                ("x".into(), native(NativeType::Int)),
                ("y".into(), native(NativeType::Int)),
                ("label".into(), native(NativeType::Text)),
            ],
        }),
        frozen: true,
    }
}

#[test]
fn fixed_width_integers() {
    assert_eq!(ser(&native(NativeType::Int), &int("-2")), "fffffffe");
    assert_eq!(
        ser(&native(NativeType::Bigint), &int("1")),
        "0000000000000001"
    );
    assert_eq!(ser(&native(NativeType::Smallint), &int("-32768")), "8000");
    assert_eq!(ser(&native(NativeType::Tinyint), &int("127")), "7f");
}

#[test]
fn arbitrary_precision_numbers() {
    assert_eq!(ser(&native(NativeType::Varint), &int("128")), "0080");
    assert_eq!(ser(&native(NativeType::Varint), &int("-129")), "ff7f");
    // decimal: int32 scale, then the unscaled varint
    assert_eq!(
        ser(&native(NativeType::Decimal), &float("1.50")),
        "000000020096"
    );
    assert_eq!(
        ser(&native(NativeType::Decimal), &float("1e3")),
        "fffffffd01"
    );
    assert_eq!(ser(&native(NativeType::Decimal), &int("-1")), "00000000ff");
}

#[test]
fn floating_point() {
    assert_eq!(ser(&native(NativeType::Float), &float("1.5")), "3fc00000");
    assert_eq!(ser(&native(NativeType::Float), &int("1")), "3f800000");
    assert_eq!(
        ser(&native(NativeType::Double), &float("-2.0")),
        "c000000000000000"
    );
    let nan = lit(Literal::SpecialFloat(SpecialFloat::NaN));
    assert_eq!(ser(&native(NativeType::Float), &nan), "7fc00000");
    assert_eq!(ser(&native(NativeType::Double), &nan), "7ff8000000000000");
    let neg_inf = lit(Literal::SpecialFloat(SpecialFloat::NegativeInfinity));
    assert_eq!(
        ser(&native(NativeType::Double), &neg_inf),
        "fff0000000000000"
    );
}

#[test]
fn strings_and_bytes() {
    assert_eq!(ser(&native(NativeType::Text), &string("é")), "c3a9");
    assert_eq!(ser(&native(NativeType::Varchar), &string("a")), "61");
    assert_eq!(ser(&native(NativeType::Ascii), &string("A~")), "417e");
    assert_eq!(
        ser(
            &native(NativeType::Blob),
            &lit(Literal::Blob("00ff".into()))
        ),
        "00ff"
    );
    assert_eq!(
        ser(
            &native(NativeType::Blob),
            &lit(Literal::Blob(String::new()))
        ),
        ""
    );
    assert_eq!(
        ser(&native(NativeType::Boolean), &lit(Literal::Boolean(true))),
        "01"
    );
}

#[test]
fn uuids() {
    let v4 = lit(Literal::Uuid("123e4567-e89b-42d3-a456-426614174000".into()));
    let v1 = lit(Literal::Uuid("123e4567-e89b-12d3-a456-426614174000".into()));
    assert_eq!(
        ser(&native(NativeType::Uuid), &v4),
        "123e4567e89b42d3a456426614174000"
    );
    assert_eq!(
        ser(&native(NativeType::Timeuuid), &v1),
        "123e4567e89b12d3a456426614174000"
    );
    let err = serialize_term(&native(NativeType::Timeuuid), &v4).expect_err("v4");
    assert_eq!(err.kind, ValueErrorKind::NotTimeUuid { found: 4 });
    assert_eq!(
        err.to_string(),
        "timeuuid must be a version 1 UUID, found version 4"
    );
}

#[test]
fn temporal_literals() {
    let ts = native(NativeType::Timestamp);
    assert_eq!(
        ser(&ts, &string("2024-01-02 03:04:05+0000")),
        hex(&1_704_164_645_000i64.to_be_bytes())
    );
    assert_eq!(
        ser(&ts, &string("2024-01-02T03:04:05.678Z")),
        hex(&1_704_164_645_678i64.to_be_bytes())
    );
    assert_eq!(ser(&ts, &int("-1")), "ffffffffffffffff");
    assert_eq!(ser(&ts, &string("")), "", "'' is the empty timestamp value");
    let date = native(NativeType::Date);
    assert_eq!(ser(&date, &string("1970-01-01")), "80000000");
    assert_eq!(
        ser(&date, &int("0")),
        "00000000",
        "an integer is the raw unsigned value"
    );
    let time = native(NativeType::Time);
    assert_eq!(
        ser(&time, &string("00:00:01.5")),
        hex(&1_500_000_000i64.to_be_bytes())
    );
    assert_eq!(ser(&time, &int("7")), "0000000000000007");
}

#[test]
fn inet_addresses() {
    let inet = native(NativeType::Inet);
    assert_eq!(ser(&inet, &string("192.168.0.1")), "c0a80001");
    assert_eq!(
        ser(&inet, &string("::1")),
        "00000000000000000000000000000001"
    );
    // Java's InetAddress turns IPv4-mapped IPv6 into IPv4 (the Python driver keeps 16 bytes).
    assert_eq!(ser(&inet, &string("::ffff:192.168.0.1")), "c0a80001");
    assert_eq!(ser(&inet, &string("")), "");
}

#[test]
fn sets_are_sorted_by_the_element_comparator_and_deduplicated() {
    let ints = term(TermKind::Set(vec![
        int("3"),
        int("1"),
        int("2"),
        int("-1"),
        int("1"),
    ]));
    assert_eq!(
        ser(&set_of(NativeType::Int), &ints),
        "00000004\
         00000004ffffffff\
         0000000400000001\
         0000000400000002\
         0000000400000003"
    );
    // Text: UTF-8 byte order, so 'Z' < 'a' < 'é'.
    let texts = term(TermKind::Set(vec![string("é"), string("a"), string("Z")]));
    assert_eq!(
        ser(&set_of(NativeType::Text), &texts),
        "00000003000000015a000000016100000002c3a9"
    );
    // Blobs: unsigned bytes, shorter prefix first.
    let blobs = term(TermKind::Set(vec![
        lit(Literal::Blob("80".into())),
        lit(Literal::Blob("7f".into())),
        lit(Literal::Blob("7f00".into())),
    ]));
    assert_eq!(
        ser(&set_of(NativeType::Blob), &blobs),
        "00000003000000017f000000027f000000000180"
    );
    // Decimals compare numerically: 1.0 and 1.00 are one element, the first one kept.
    let decimals = term(TermKind::Set(vec![
        float("1.0"),
        float("0.5"),
        float("1.00"),
    ]));
    assert_eq!(
        ser(&set_of(NativeType::Decimal), &decimals),
        "0000000200000005000000010500000005000000010a"
    );
    // `{}` is parsed as an empty map and is the empty set.
    assert_eq!(
        ser(&set_of(NativeType::Int), &term(TermKind::Map(vec![]))),
        "00000000"
    );
}

#[test]
fn maps_keep_the_first_key_and_the_last_value() {
    let ty = CqlType::Map {
        key: Box::new(native(NativeType::Decimal)),
        value: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    let m = term(TermKind::Map(vec![
        (float("1.0"), int("1")),
        (float("0.5"), int("3")),
        (float("1.00"), int("2")),
    ]));
    assert_eq!(
        ser(&ty, &m),
        "00000002\
         000000050000000105 0000000400000003\
         00000005000000010a 0000000400000002"
            .replace(' ', "")
    );
}

#[test]
fn lists_keep_literal_order() {
    let ty = CqlType::List {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    let l = term(TermKind::List(vec![int("2"), int("1"), int("2")]));
    assert_eq!(
        ser(&ty, &l),
        "00000003000000040000000200000004000000010000000400000002"
    );
}

#[test]
fn tuples_and_user_types() {
    let ty = CqlType::Tuple(vec![native(NativeType::Int), native(NativeType::Text)]);
    assert_eq!(
        ser(&ty, &term(TermKind::Tuple(vec![int("1"), null()]))),
        "0000000400000001ffffffff"
    );
    // Cassandra 5.0 writes only the components a shorter literal gives.
    assert_eq!(
        ser(&ty, &term(TermKind::Tuple(vec![int("1")]))),
        "0000000400000001"
    );
    let udt = term(TermKind::Udt(vec![
        (Ident::new("y"), int("2")),
        (Ident::new("x"), int("1")),
    ]));
    // Fields in type order; 'label' is not given, so null.
    assert_eq!(
        ser(&point_udt(), &udt),
        "00000004000000010000000400000002ffffffff"
    );
}

#[test]
fn vectors() {
    let floats = CqlType::Vector {
        element: Box::new(native(NativeType::Float)),
        dimension: 2,
    };
    let v = term(TermKind::List(vec![float("1.5"), float("-2")]));
    assert_eq!(
        ser(&floats, &v),
        "3fc00000c0000000",
        "fixed-length elements are concatenated"
    );
    let smallints = CqlType::Vector {
        element: Box::new(native(NativeType::Smallint)),
        dimension: 2,
    };
    let v = term(TermKind::List(vec![int("1"), int("-2")]));
    assert_eq!(
        ser(&smallints, &v),
        "020001".to_owned() + "02fffe",
        "smallint is length-prefixed"
    );
}

#[test]
fn parentheses_and_type_hints() {
    let ty = native(NativeType::Int);
    assert_eq!(ser(&ty, &term(TermKind::Tuple(vec![int("5")]))), "00000005");
    let hinted = |kind: NativeType| {
        term(TermKind::TypeHint {
            ty: DataType {
                kind: DataTypeKind::Native(kind),
                span: Span::default(),
            },
            term: Box::new(int("5")),
        })
    };
    assert_eq!(ser(&ty, &hinted(NativeType::Int)), "00000005");
    assert_eq!(
        ser(&ty, &hinted(NativeType::Bigint)),
        "error: type hint (bigint) does not match type int"
    );
}

/// Every rejection, rendered, in one snapshot.
#[test]
fn error_messages() {
    let bind = term(TermKind::BindMarker(BindMarker::Anonymous));
    let call = term(TermKind::FunctionCall {
        name: QualifiedName {
            keyspace: None,
            name: Ident::new("now"),
            span: Span::default(),
        },
        args: vec![],
    });
    let vec3 = CqlType::Vector {
        element: Box::new(native(NativeType::Float)),
        dimension: 3,
    };
    let int_list = CqlType::List {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    let pair = CqlType::Tuple(vec![native(NativeType::Int), native(NativeType::Int)]);
    let cases: Vec<(&str, CqlType, Term)> = vec![
        ("abc as int", native(NativeType::Int), int("abc")),
        ("300 as tinyint", native(NativeType::Tinyint), int("300")),
        (
            "huge bigint",
            native(NativeType::Bigint),
            int("99999999999999999999999999999999999999999"),
        ),
        ("string as int", native(NativeType::Int), string("1")),
        ("float as int", native(NativeType::Int), float("1.0")),
        (
            "NaN as decimal",
            native(NativeType::Decimal),
            lit(Literal::SpecialFloat(SpecialFloat::NaN)),
        ),
        (
            "huge decimal exponent",
            native(NativeType::Decimal),
            float("1e99999999999"),
        ),
        ("non-ascii", native(NativeType::Ascii), string("é")),
        (
            "odd blob",
            native(NativeType::Blob),
            lit(Literal::Blob("abc".into())),
        ),
        (
            "now timestamp",
            native(NativeType::Timestamp),
            string("now"),
        ),
        (
            "bad timestamp",
            native(NativeType::Timestamp),
            string("2024-02-30"),
        ),
        ("bad date", native(NativeType::Date), string("2024-1-1")),
        ("bad time", native(NativeType::Time), string("25:00:00")),
        ("host name", native(NativeType::Inet), string("example.com")),
        (
            "duration",
            native(NativeType::Duration),
            lit(Literal::Duration("1h".into())),
        ),
        ("bind marker", native(NativeType::Int), bind),
        ("function call", native(NativeType::Timeuuid), call),
        ("null", native(NativeType::Int), null()),
        (
            "null in list",
            int_list.clone(),
            term(TermKind::List(vec![int("1"), null()])),
        ),
        (
            "list as set",
            set_of(NativeType::Int),
            term(TermKind::List(vec![int("1")])),
        ),
        (
            "vector size",
            vec3.clone(),
            term(TermKind::List(vec![float("1.0")])),
        ),
        (
            "null in vector",
            vec3,
            term(TermKind::List(vec![float("1"), null(), float("2")])),
        ),
        (
            "tuple too long",
            pair,
            term(TermKind::Tuple(vec![int("1"), int("2"), int("3")])),
        ),
        (
            "unknown field",
            point_udt(),
            term(TermKind::Udt(vec![(Ident::new("z"), int("1"))])),
        ),
        (
            "duplicate field",
            point_udt(),
            term(TermKind::Udt(vec![
                (Ident::new("x"), int("1")),
                (Ident::new("x"), int("2")),
            ])),
        ),
        (
            "custom type",
            CqlType::Custom("org.example.T".into()),
            string("x"),
        ),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|(what, ty, t)| match serialize_term(ty, t) {
            Ok(bytes) => format!("{what}: unexpectedly serialized to {}", hex(&bytes)),
            Err(e) => format!("{what}: {e}"),
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn errors_carry_the_span_of_the_offending_term() {
    let bad = Term {
        kind: TermKind::Literal(Literal::Integer("x".into())),
        span: Span::new(20, 21),
    };
    let list = Term {
        kind: TermKind::List(vec![int("1"), bad]),
        span: Span::new(10, 30),
    };
    let ty = CqlType::List {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    let err = serialize_term(&ty, &list).expect_err("invalid element");
    assert_eq!(err.span.range(), 20..21);
    assert_eq!(
        err.kind,
        ValueErrorKind::InvalidLiteral {
            ty: "int".into(),
            text: "x".into(),
            reason: None
        }
    );
}

#[test]
fn partition_key_types() {
    let frozen_list = CqlType::List {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    assert!(can_be_partition_key(&native(NativeType::Text)));
    assert!(can_be_partition_key(&frozen_list));
    assert!(can_be_partition_key(&point_udt()));
    assert!(!can_be_partition_key(&native(NativeType::Counter)));
    assert!(!can_be_partition_key(&native(NativeType::Duration)));
    assert!(!can_be_partition_key(&frozen_list.clone().frozen_off()));
    let udt_with_duration = CqlType::Udt {
        def: Arc::new(UdtDef {
            keyspace: "ks".into(),
            name: "d".into(),
            fields: vec![("d".into(), native(NativeType::Duration))],
        }),
        frozen: true,
    };
    assert!(!can_be_partition_key(&udt_with_duration));
    assert!(!can_be_partition_key(&CqlType::Tuple(vec![native(
        NativeType::Duration
    )])));
    let vector = CqlType::Vector {
        element: Box::new(native(NativeType::Float)),
        dimension: 3,
    };
    assert!(can_be_partition_key(&vector));
}

trait FrozenOff {
    fn frozen_off(self) -> Self;
}
impl FrozenOff for CqlType {
    fn frozen_off(self) -> Self {
        match self {
            CqlType::List { element, .. } => CqlType::List {
                element,
                frozen: false,
            },
            other => other,
        }
    }
}

proptest! {
    #[test]
    fn ints_serialize_big_endian(v in any::<i32>()) {
        prop_assert_eq!(ser(&native(NativeType::Int), &int(&v.to_string())), hex(&v.to_be_bytes()));
    }

    #[test]
    fn bigints_serialize_big_endian(v in any::<i64>()) {
        prop_assert_eq!(ser(&native(NativeType::Bigint), &int(&v.to_string())), hex(&v.to_be_bytes()));
    }

    #[test]
    fn set_order_does_not_depend_on_literal_order(mut values in proptest::collection::vec(any::<i16>(), 0..12), seed in any::<u64>()) {
        let to_term = |vs: &[i16]| {
            let items: Vec<Term> = vs.iter().map(|v| int(&v.to_string())).collect();
            if items.is_empty() { term(TermKind::Map(vec![])) } else { term(TermKind::Set(items)) }
        };
        let ty = set_of(NativeType::Smallint);
        let original = ser(&ty, &to_term(&values));
        // A deterministic shuffle.
        let mut state = seed;
        for i in (1..values.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            values.swap(i, (state >> 33) as usize % (i + 1));
        }
        prop_assert_eq!(ser(&ty, &to_term(&values)), original.clone());
        let mut sorted = values.clone();
        sorted.sort();
        sorted.dedup();
        let expected: String = format!("{:08x}", sorted.len())
            + &sorted.iter().map(|v| format!("00000002{}", hex(&v.to_be_bytes()))).collect::<String>();
        prop_assert_eq!(original, expected);
    }

    #[test]
    fn never_panics_on_odd_literal_text(text in ".{0,40}") {
        for t in [NativeType::Int, NativeType::Varint, NativeType::Decimal, NativeType::Float,
                  NativeType::Timestamp, NativeType::Date, NativeType::Time, NativeType::Inet] {
            let _ = serialize_term(&native(t), &string(&text));
            let _ = serialize_term(&native(t), &int(&text));
            let _ = serialize_term(&native(t), &float(&text));
        }
        let _ = serialize_term(&native(NativeType::Uuid), &lit(Literal::Uuid(text.clone())));
        let _ = serialize_term(&native(NativeType::Blob), &lit(Literal::Blob(text.clone())));
    }
}
