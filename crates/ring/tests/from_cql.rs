//! End to end from CQL source text: `cqlmodel_cql::parse_term`, then `serialize_term`
//! and `token_of_key`.

use cqlmodel_cql::ast::NativeType;
use cqlmodel_cql::parse_term;
use cqlmodel_ring::{partition_key_bytes, serialize_term, token_of_key};
use cqlmodel_schema::types::CqlType;

fn bytes(ty: &CqlType, cql: &str) -> Vec<u8> {
    let term = parse_term(cql).unwrap_or_else(|e| panic!("parse {cql}: {e}"));
    serialize_term(ty, &term).unwrap_or_else(|e| panic!("serialize {cql} as {ty}: {e}"))
}

fn native(t: NativeType) -> CqlType {
    CqlType::native(t)
}

#[test]
fn set_literal_is_stored_in_comparator_order() {
    let ty = CqlType::Set {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    assert_eq!(bytes(&ty, "{3, 1, 2}"), bytes(&ty, "{1, 2, 3}"));
    assert_eq!(bytes(&ty, "{3, 1, 2, 1}"), bytes(&ty, "{1, 2, 3}"));
    assert_eq!(bytes(&ty, "{}"), vec![0, 0, 0, 0]);
}

#[test]
fn timestamp_spellings_of_one_instant_agree() {
    let ts = native(NativeType::Timestamp);
    let ms = bytes(&ts, "1704164645678");
    assert_eq!(bytes(&ts, "'2024-01-02T03:04:05.678Z'"), ms);
    assert_eq!(bytes(&ts, "'2024-01-02 04:04:05.678+0100'"), ms);
    assert_eq!(bytes(&ts, "'1704164645678'"), ms);
}

#[test]
fn negative_numbers_and_special_floats() {
    assert_eq!(bytes(&native(NativeType::Int), "-5"), (-5i32).to_be_bytes());
    assert_eq!(
        bytes(&native(NativeType::Double), "-1.5"),
        (-1.5f64).to_be_bytes()
    );
    assert_eq!(
        bytes(&native(NativeType::Float), "-Infinity"),
        f32::NEG_INFINITY.to_be_bytes()
    );
    assert_eq!(bytes(&native(NativeType::Int), "(7)"), 7i32.to_be_bytes());
    assert_eq!(bytes(&native(NativeType::Blob), "0xABcd"), vec![0xab, 0xcd]);
}

#[test]
fn composite_key_token_from_source() {
    let id = bytes(&native(NativeType::Int), "42");
    let day = bytes(&native(NativeType::Text), "'2024-01-02'");
    let key = partition_key_bytes(&[&id, &day]);
    let mut expected = vec![0, 4, 0, 0, 0, 42, 0, 0, 10];
    expected.extend_from_slice(b"2024-01-02");
    expected.push(0);
    assert_eq!(key, expected);
    assert_eq!(
        token_of_key(&bytes(&native(NativeType::Text), "'hello'")).0,
        -3_758_069_500_696_749_310
    );
}
