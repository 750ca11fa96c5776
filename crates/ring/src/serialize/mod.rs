//! CQL terms to the bytes Cassandra stores for them (`AbstractType.fromString` for
//! constants, the collection/tuple/UDT/vector `pack` methods for composite literals).

mod collection;
mod native;
mod tuple;
pub(crate) mod vector;

use cqlmodel_cql::ast::{DataTypeKind, Literal, NativeType, SpecialFloat, Term, TermKind};
use cqlmodel_schema::types::CqlType;

use crate::error::{ValueError, ValueErrorKind};

/// Serializes `term` as a value of `ty`, exactly as Cassandra 5.0 would store it.
///
/// Only constant terms are serializable: literals of a kind the type accepts, and
/// collection, tuple, user-type and vector literals built from them. Bind markers,
/// function calls and arithmetic are evaluated by the server and are errors here.
/// Non-frozen collections and UDTs serialize like their frozen form.
pub fn serialize_term(ty: &CqlType, term: &Term) -> Result<Vec<u8>, ValueError> {
    let err = |kind| Err(ValueError::new(kind, term.span));
    match &term.kind {
        TermKind::BindMarker(_) => err(ValueErrorKind::BindMarker),
        TermKind::FunctionCall { name, .. } => err(ValueErrorKind::FunctionCall {
            name: match &name.keyspace {
                Some(ks) => format!("{}.{}", ks.value, name.name.value),
                None => name.name.value.clone(),
            },
        }),
        TermKind::Negate(_) => err(ValueErrorKind::Unevaluated {
            what: "a negated expression".into(),
        }),
        TermKind::Binary { op, .. } => err(ValueErrorKind::Unevaluated {
            what: format!("an arithmetic expression ('{}')", op.symbol()),
        }),
        TermKind::TypeHint {
            ty: hint,
            term: inner,
        } => {
            if let DataTypeKind::Native(hinted) = &hint.kind {
                let hinted = CqlType::native(*hinted);
                if &hinted != ty {
                    return err(ValueErrorKind::TypeHintMismatch {
                        hint: hinted.to_string(),
                        expected: ty.to_string(),
                    });
                }
            }
            serialize_term(ty, inner)
        }
        // `(x)` is a parenthesised term unless the receiver is a tuple (Cassandra decides
        // this the same way, once the receiver type is known).
        TermKind::Tuple(items) if !matches!(ty, CqlType::Tuple(_)) => match items.as_slice() {
            [only] => serialize_term(ty, only),
            _ => serialize_value(ty, term),
        },
        TermKind::Literal(Literal::Null) => err(ValueErrorKind::Null),
        _ => serialize_value(ty, term),
    }
}

/// Serializes a non-null term by the shape of its type.
fn serialize_value(ty: &CqlType, term: &Term) -> Result<Vec<u8>, ValueError> {
    match ty {
        CqlType::Native(native) => native::serialize_native(*native, term),
        CqlType::List { element, .. } => collection::serialize_list(ty, element, term),
        CqlType::Set { element, .. } => collection::serialize_set(ty, element, term),
        CqlType::Map { key, value, .. } => collection::serialize_map(ty, key, value, term),
        CqlType::Tuple(types) => tuple::serialize_tuple(ty, types, term),
        CqlType::Udt { def, .. } => tuple::serialize_udt(def, term),
        CqlType::Vector { element, dimension } => {
            vector::serialize_vector(ty, element, *dimension, term)
        }
        CqlType::Custom(class) => Err(ValueError::new(
            ValueErrorKind::UnsupportedType {
                ty: format!("'{class}'"),
                reason: "custom types have their own serialization".into(),
            },
            term.span,
        )),
    }
}

/// Whether Cassandra accepts a column of this type in a PRIMARY KEY (the checks of
/// `CreateTableStatement`): not non-frozen collections or UDTs, not `counter`, and no
/// `duration` anywhere inside the type. Custom types are accepted, as Cassandra does.
pub fn can_be_partition_key(ty: &CqlType) -> bool {
    !ty.is_multi_cell() && !ty.is_counter() && !references_duration(ty)
}

fn references_duration(ty: &CqlType) -> bool {
    match ty {
        CqlType::Native(t) => *t == NativeType::Duration,
        CqlType::List { element, .. } | CqlType::Set { element, .. } => {
            references_duration(element)
        }
        CqlType::Vector { element, .. } => references_duration(element),
        CqlType::Map { key, value, .. } => references_duration(key) || references_duration(value),
        CqlType::Tuple(items) => items.iter().any(references_duration),
        CqlType::Udt { def, .. } => def.fields.iter().any(|(_, t)| references_duration(t)),
        CqlType::Custom(_) => false,
    }
}

/// The word Cassandra uses for a literal's kind in its messages.
pub(crate) fn literal_kind(term: &Term) -> String {
    match &term.kind {
        TermKind::Literal(lit) => match lit {
            Literal::String(_) => "string",
            Literal::Integer(_) => "integer",
            Literal::Float(_) | Literal::SpecialFloat(_) => "float",
            Literal::Boolean(_) => "boolean",
            Literal::Uuid(_) => "uuid",
            Literal::Blob(_) => "blob",
            Literal::Duration(_) => "duration",
            Literal::Null => "null",
        },
        TermKind::List(_) => "list",
        TermKind::Set(_) => "set",
        TermKind::Map(_) => "map",
        TermKind::Tuple(_) => "tuple",
        TermKind::Udt(_) => "user type",
        _ => "expression",
    }
    .to_string()
}

pub(crate) fn type_mismatch(ty: &CqlType, term: &Term) -> ValueError {
    ValueError::new(
        ValueErrorKind::TypeMismatch {
            expected: ty.to_string(),
            found: literal_kind(term),
        },
        term.span,
    )
}

/// The literal's text as CQL source shows it (for messages).
pub(crate) fn special_float_text(special: SpecialFloat) -> &'static str {
    match special {
        SpecialFloat::NaN => "NaN",
        SpecialFloat::Infinity => "Infinity",
        SpecialFloat::NegativeInfinity => "-Infinity",
    }
}

/// Writes a collection/tuple element length as Cassandra does (`int32`), refusing
/// values that do not fit.
pub(crate) fn write_length(out: &mut Vec<u8>, len: usize, term: &Term) -> Result<(), ValueError> {
    let len32 = i32::try_from(len)
        .map_err(|_| ValueError::new(ValueErrorKind::TooLarge { len }, term.span))?;
    out.extend_from_slice(&len32.to_be_bytes());
    Ok(())
}
