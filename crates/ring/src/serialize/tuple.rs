//! Tuple and user-type literals (`TupleType.buildValue`): each component as an `int32`
//! length and its bytes, a null component as length -1.
//!
//! A tuple literal may have fewer elements than its type; Cassandra 5.0 then writes only
//! the given ones (trunk/5.1 rejects such literals). A user-type literal always writes
//! every field of the type, null for those it does not name.

use cqlmodel_cql::ast::{Literal, Term, TermKind};
use cqlmodel_schema::types::{CqlType, UdtDef};

use crate::error::{ValueError, ValueErrorKind};

use super::{serialize_term, type_mismatch, write_length};

pub(super) fn serialize_tuple(
    ty: &CqlType,
    types: &[CqlType],
    term: &Term,
) -> Result<Vec<u8>, ValueError> {
    let TermKind::Tuple(items) = &term.kind else {
        return Err(type_mismatch(ty, term));
    };
    if items.len() > types.len() {
        return Err(ValueError::new(
            ValueErrorKind::TooManyTupleElements {
                ty: ty.to_string(),
                expected: types.len(),
                found: items.len(),
            },
            term.span,
        ));
    }
    let mut out = Vec::new();
    for (item, item_ty) in items.iter().zip(types) {
        write_component(&mut out, item_ty, Some(item))?;
    }
    Ok(out)
}

pub(super) fn serialize_udt(def: &UdtDef, term: &Term) -> Result<Vec<u8>, ValueError> {
    let TermKind::Udt(entries) = &term.kind else {
        let ty = CqlType::Udt {
            def: std::sync::Arc::new(def.clone()),
            frozen: true,
        };
        return Err(type_mismatch(&ty, term));
    };
    for (i, (field, value)) in entries.iter().enumerate() {
        if !def.fields.iter().any(|(name, _)| name == &field.value) {
            return Err(ValueError::new(
                ValueErrorKind::UnknownField {
                    udt: def.name.clone(),
                    field: field.value.clone(),
                },
                field.span,
            ));
        }
        if entries[..i]
            .iter()
            .any(|(earlier, _)| earlier.value == field.value)
        {
            return Err(ValueError::new(
                ValueErrorKind::DuplicateField {
                    udt: def.name.clone(),
                    field: field.value.clone(),
                },
                value.span.to(field.span),
            ));
        }
    }
    let mut out = Vec::new();
    for (name, field_ty) in &def.fields {
        let given = entries
            .iter()
            .find(|(field, _)| &field.value == name)
            .map(|(_, value)| value);
        write_component(&mut out, field_ty, given)?;
    }
    Ok(out)
}

/// One component; `None` or a `null` literal is written as length -1.
fn write_component(out: &mut Vec<u8>, ty: &CqlType, term: Option<&Term>) -> Result<(), ValueError> {
    match term {
        None => out.extend_from_slice(&(-1i32).to_be_bytes()),
        Some(t) if matches!(t.kind, TermKind::Literal(Literal::Null)) => {
            out.extend_from_slice(&(-1i32).to_be_bytes());
        }
        Some(t) => {
            let bytes = serialize_term(ty, t)?;
            write_length(out, bytes.len(), t)?;
            out.extend_from_slice(&bytes);
        }
    }
    Ok(())
}
