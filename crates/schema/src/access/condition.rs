//! IF conditions of UPDATE and DELETE (`ModificationStatement.prepareConditions`
//! and `ColumnCondition.Raw.prepare`): CND-0, then for each condition the column
//! (DML-3), CND-1 … CND-7 with the value's type, and CND-10.

use cqlmodel_cql::ast::{ColumnRef, Condition, Conditions, Operator, TermKind, UsingParam};

use super::QueryError;
use super::relation::undefined_column;
use super::value::check_assignable;
use crate::model::Table;
use crate::types::{CqlType, NativeType};

/// Which columns the conditions read, for `appliesToRegularColumns` / `appliesToStaticColumns`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ConditionColumns {
    pub regular: bool,
    pub statics: bool,
}

/// Prepares the IF clause; `IF EXISTS` / `IF NOT EXISTS` read no column.
pub(crate) fn prepare_conditions(
    table: &Table,
    conditions: Option<&Conditions>,
    using: &[UsingParam],
    span: cqlmodel_cql::ast::Span,
) -> Result<ConditionColumns, QueryError> {
    let Some(Conditions::If(list)) = conditions else {
        return Ok(ConditionColumns::default());
    };
    if using.iter().any(|u| matches!(u, UsingParam::Timestamp(_))) {
        return Err(QueryError {
            message: "Cannot provide custom timestamp for conditional updates".into(),
            span,
        });
    }
    let mut columns = ConditionColumns::default();
    for c in list {
        let name = c.target.column();
        let Some(col) = table.column(&name.value) else {
            return Err(QueryError {
                message: undefined_column(table, &name.value),
                span: name.span,
            });
        };
        prepare_condition(&col.name, &col.ty, c).map_err(|message| QueryError {
            message,
            span: c.span,
        })?;
        if col.is_primary_key() {
            return Err(QueryError {
                message: format!(
                    "PRIMARY KEY column '{}' cannot have IF conditions",
                    col.name
                ),
                span: c.span,
            });
        }
        if col.is_static() {
            columns.statics = true;
        } else {
            columns.regular = true;
        }
    }
    Ok(columns)
}

/// `ColumnCondition.Raw.prepare` for one condition.
fn prepare_condition(name: &str, ty: &CqlType, c: &Condition) -> Result<(), String> {
    if ty.is_counter() {
        return Err("Conditions on counters are not supported".into());
    }
    match &c.target {
        ColumnRef::Element(_, element) => {
            let (key_ty, value_ty, key_name) = match ty {
                CqlType::List { element: e, .. } => (
                    CqlType::Native(NativeType::Int),
                    e.as_ref().clone(),
                    format!("idx({name})"),
                ),
                CqlType::Map { key, value, .. } => (
                    key.as_ref().clone(),
                    value.as_ref().clone(),
                    format!("key({name})"),
                ),
                CqlType::Set { .. } => {
                    return Err(format!(
                        "Invalid element access syntax for set column {name}"
                    ));
                }
                _ => {
                    return Err(format!(
                        "Invalid element access syntax for non-collection column {name}"
                    ));
                }
            };
            check_assignable(&key_name, &key_ty, element)?;
            check_values(&format!("value({name})"), &value_ty, c)
        }
        ColumnRef::Field(_, field) => {
            let Some((_, field_ty)) = (match ty {
                CqlType::Udt { def, .. } => def.fields.iter().find(|(f, _)| *f == field.value),
                _ => None,
            }) else {
                return Err(format!("Unknown field {} for column {name}", field.value));
            };
            check_values(&format!("{name}.{}", field.value), field_ty, c)
        }
        ColumnRef::Column(_) => {
            if c.op.is_slice() && ty.references_duration() {
                return Err(match ty {
                    CqlType::List { .. } | CqlType::Set { .. } | CqlType::Map { .. } => {
                        "Slice conditions are not supported on collections containing durations"
                            .into()
                    }
                    CqlType::Tuple(_) => {
                        "Slice conditions are not supported on tuples containing durations".into()
                    }
                    CqlType::Udt { .. } => {
                        "Slice conditions are not supported on UDTs containing durations".into()
                    }
                    _ => format!(
                        "Slice conditions ( {} ) are not supported on durations",
                        c.op.symbol()
                    ),
                });
            }
            match c.op {
                Operator::Contains => {
                    let element = match ty {
                        CqlType::List { element, .. } | CqlType::Set { element, .. } => element,
                        CqlType::Map { value, .. } => value,
                        _ => {
                            return Err(format!(
                                "Cannot use CONTAINS on non-collection column {name}"
                            ));
                        }
                    };
                    check_assignable(&format!("value({name})"), element, &c.value)
                }
                Operator::ContainsKey => {
                    let CqlType::Map { key, .. } = ty else {
                        return Err(format!("Cannot use CONTAINS KEY on non-map column {name}"));
                    };
                    check_assignable(&format!("key({name})"), key, &c.value)
                }
                _ => check_values(name, ty, c),
            }
        }
    }
}

/// The value of a condition (each value of an IN) against the receiver's type.
fn check_values(name: &str, ty: &CqlType, c: &Condition) -> Result<(), String> {
    match (&c.op, &c.value.kind) {
        (Operator::In, TermKind::Tuple(items)) => {
            items.iter().try_for_each(|t| check_assignable(name, ty, t))
        }
        (Operator::In, _) => Ok(()),
        _ => check_assignable(name, ty, &c.value),
    }
}
