//! The SET and DELETE operations of UPDATE / DELETE (`Operation.RawUpdate` and
//! `Operation.RawDeletion` of Cassandra 5.0): which operation applies to which
//! column type, in the order `prepare` checks it, and the parser's refusal of
//! incompatible operations on one column (UPD-4).

use cqlmodel_cql::ast::{AssignOp, Assignment, AssignmentKind, ColumnRef, Ident, Term, TermKind};

use super::QueryError;
use super::value::check_assignable;
use crate::model::Column;
use crate::types::{CqlType, NativeType};

/// The kind of a raw update, for `isCompatibleWith`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UpdateKind<'a> {
    SetValue,
    SetElement,
    SetField(&'a str),
    Other,
}

fn update_kind(a: &Assignment) -> (&str, UpdateKind<'_>) {
    match &a.kind {
        AssignmentKind::Set { target, .. } => match target {
            ColumnRef::Column(c) => (&c.value, UpdateKind::SetValue),
            ColumnRef::Element(c, _) => (&c.value, UpdateKind::SetElement),
            ColumnRef::Field(c, f) => (&c.value, UpdateKind::SetField(&f.value)),
        },
        AssignmentKind::SelfOp { column, .. } | AssignmentKind::Prepend { column, .. } => {
            (&column.value, UpdateKind::Other)
        }
    }
}

/// UPD-4, raised by the parser (`addRawUpdate`): an assignment that is not
/// compatible with an earlier one on the same column.
pub(crate) fn check_compatible(assignments: &[Assignment]) -> Result<(), QueryError> {
    for (i, a) in assignments.iter().enumerate() {
        let (column, kind) = update_kind(a);
        for earlier in assignments.iter().take(i) {
            let (c, earlier_kind) = update_kind(earlier);
            if c != column {
                continue;
            }
            let compatible = match (earlier_kind, kind) {
                (UpdateKind::SetValue, _) | (_, UpdateKind::SetValue) => false,
                (UpdateKind::SetField(f), UpdateKind::SetField(g)) => f != g,
                _ => true,
            };
            if !compatible {
                return Err(QueryError {
                    message: format!("Multiple incompatible setting of column {column}"),
                    span: a.span,
                });
            }
        }
    }
    Ok(())
}

/// `Operation.RawUpdate.prepare` for one SET assignment on `col`.
/// `conditional`: the statement has an IF (a 5.0.9 node accepts `v = v + 1`
/// on a number column there, and only there).
pub(crate) fn prepare_update(
    col: &Column,
    a: &Assignment,
    conditional: bool,
) -> Result<(), QueryError> {
    let name = &col.name;
    let ty = &col.ty;
    let checked = match &a.kind {
        AssignmentKind::Set {
            target: ColumnRef::Column(_),
            value,
        } => set_value(name, ty, value),
        AssignmentKind::Set {
            target: ColumnRef::Element(_, selector),
            value,
        } => set_element(name, ty, selector, value),
        AssignmentKind::Set {
            target: ColumnRef::Field(_, field),
            value,
        } => set_field(name, ty, field, value),
        AssignmentKind::SelfOp { op, value, .. } => self_op(col, *op, value, conditional),
        AssignmentKind::Prepend { value, .. } => prepend(name, ty, value),
    };
    checked.map_err(|message| QueryError {
        message,
        span: a.span,
    })
}

/// `SetValue`: `c = value`.
fn set_value(name: &str, ty: &CqlType, value: &Term) -> Result<(), String> {
    check_assignable(name, ty, value)?;
    if ty.is_counter() {
        return Err(format!(
            "Cannot set the value of counter column {name} (counters can only be incremented/decremented, not set)"
        ));
    }
    Ok(())
}

/// `SetElement`: `c[selector] = value`, on a non-frozen list or map.
fn set_element(name: &str, ty: &CqlType, selector: &Term, value: &Term) -> Result<(), String> {
    let echo = || format!("{name}[{selector}] = {value}");
    if !ty.is_collection() {
        return Err(format!(
            "Invalid operation ({}) for non collection column {name}",
            echo()
        ));
    }
    if !ty.is_multi_cell() {
        return Err(format!(
            "Invalid operation ({}) for frozen collection column {name}",
            echo()
        ));
    }
    match ty {
        CqlType::List { element, .. } => {
            check_assignable(
                &format!("idx({name})"),
                &CqlType::Native(NativeType::Int),
                selector,
            )?;
            check_assignable(&format!("value({name})"), element, value)
        }
        CqlType::Map { key, value: v, .. } => {
            check_assignable(&format!("key({name})"), key, selector)?;
            check_assignable(&format!("value({name})"), v, value)
        }
        _ => Err(format!(
            "Invalid operation ({}) for set column {name}",
            echo()
        )),
    }
}

/// `SetField`: `c.field = value`, on a non-frozen user type.
fn set_field(name: &str, ty: &CqlType, field: &Ident, value: &Term) -> Result<(), String> {
    let echo = || format!("{name}.{} = {value}", field.value);
    let CqlType::Udt { def, frozen } = ty else {
        return Err(format!(
            "Invalid operation ({}) for non-UDT column {name}",
            echo()
        ));
    };
    if *frozen {
        return Err(format!(
            "Invalid operation ({}) for frozen UDT column {name}",
            echo()
        ));
    }
    let Some((_, field_ty)) = def.fields.iter().find(|(f, _)| *f == field.value) else {
        return Err(format!(
            "UDT column {name} does not have a field named {}",
            field.value
        ));
    };
    check_assignable(&format!("{name}.{}", field.value), field_ty, value)
}

/// `Prepend`: `c = value + c`, on a non-frozen list.
fn prepend(name: &str, ty: &CqlType, value: &Term) -> Result<(), String> {
    // 5.0 prepares a prepended list literal against the column's
    // element type first, which refuses a receiver that is neither a
    // list nor a vector with this message (seen on a 5.0.9 node).
    if matches!(value.kind, TermKind::List(_))
        && !matches!(ty, CqlType::List { .. } | CqlType::Vector { .. })
    {
        return Err(format!(
            "Unexpected receiver type '{ty}'; only list and vector are expected"
        ));
    }
    check_assignable(name, ty, value)?;
    let echo = format!("{name} = {value} - {name}");
    if !matches!(ty, CqlType::List { .. }) {
        return Err(format!(
            "Invalid operation ({echo}) for non list column {name}"
        ));
    }
    if !ty.is_multi_cell() {
        return Err(format!(
            "Invalid operation ({echo}) for frozen list column {name}"
        ));
    }
    Ok(())
}

/// `Operation.Addition` / `Operation.Substraction`: counters and collections,
/// and numbers in a conditional update (a 5.0.9 node accepted `SET v = v + 1
/// ... IF EXISTS` on an int and applied it; without the IF it refuses). Text
/// concatenation under IF is not modeled as accepted: no node evidence.
fn self_op(col: &Column, op: AssignOp, value: &Term, conditional: bool) -> Result<(), String> {
    let name = &col.name;
    let ty = &col.ty;
    let sign = if op == AssignOp::Add { "+" } else { "-" };
    let echo = format!("{name} = {name} {sign} {value}");
    if !ty.is_collection() {
        if conditional && is_number(ty) {
            return check_assignable(name, ty, value);
        }
        if !ty.is_counter() {
            return Err(format!(
                "Invalid operation ({echo}) for non counter column {name}"
            ));
        }
        return check_assignable(name, ty, value);
    }
    if !ty.is_multi_cell() {
        return Err(format!(
            "Invalid operation ({echo}) for frozen collection column {name}"
        ));
    }
    match (ty, op) {
        (CqlType::Map { .. }, AssignOp::Add) => check_assignable(name, ty, value)
            .map_err(|_| format!("Value for a map addition has to be a map, but was: '{value}'")),
        (CqlType::Map { key, .. }, AssignOp::Sub) => {
            // The value of a map subtraction is a set of keys.
            let keys = CqlType::Set {
                element: key.clone(),
                frozen: false,
            };
            check_assignable(name, &keys, value).map_err(|_| {
                format!("Value for a map substraction has to be a set, but was: '{value}'")
            })
        }
        _ => check_assignable(name, ty, value),
    }
}

fn is_number(ty: &CqlType) -> bool {
    matches!(
        ty,
        CqlType::Native(
            NativeType::Int
                | NativeType::Bigint
                | NativeType::Smallint
                | NativeType::Tinyint
                | NativeType::Varint
                | NativeType::Float
                | NativeType::Double
                | NativeType::Decimal
        )
    )
}

/// `Operation.RawDeletion.prepare` for one deleted target on `col`.
pub(crate) fn prepare_deletion(col: &Column, target: &ColumnRef) -> Result<(), String> {
    let name = &col.name;
    let ty = &col.ty;
    match target {
        ColumnRef::Column(_) => Ok(()),
        ColumnRef::Element(_, element) => {
            if !ty.is_collection() {
                return Err(format!(
                    "Invalid deletion operation for non collection column {name}"
                ));
            }
            if !ty.is_multi_cell() {
                return Err(format!(
                    "Invalid deletion operation for frozen collection column {name}"
                ));
            }
            match ty {
                CqlType::List { .. } => check_assignable(
                    &format!("idx({name})"),
                    &CqlType::Native(NativeType::Int),
                    element,
                ),
                CqlType::Set { element: e, .. } => {
                    check_assignable(&format!("value({name})"), e, element)
                }
                CqlType::Map { key, .. } => check_assignable(&format!("key({name})"), key, element),
                _ => Ok(()),
            }
        }
        ColumnRef::Field(_, field) => {
            let CqlType::Udt { def, frozen } = ty else {
                return Err(format!(
                    "Invalid field deletion operation for non-UDT column {name}"
                ));
            };
            if *frozen {
                return Err(format!(
                    "Frozen UDT column {name} does not support field deletions"
                ));
            }
            if !def.fields.iter().any(|(f, _)| *f == field.value) {
                return Err(format!(
                    "UDT column {name} does not have a field named {}",
                    field.value
                ));
            }
            Ok(())
        }
    }
}
