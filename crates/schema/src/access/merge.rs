//! Merging two restrictions on the same columns (`SingleRestriction.mergeWith`,
//! `MultiColumnRestriction.mergeWith`, `TokenRestriction.mergeWith`) and which
//! index can serve a restriction. The restriction already present decides the
//! message, which is why the order of relations changes some messages.

use cqlmodel_cql::ast::Operator;

use super::relation::{Op, Restriction};
use crate::model::{Index, IndexImpl, IndexTarget};
use crate::types::CqlType;

/// `SingleRestriction.mergeWith` / `MultiColumnRestriction.mergeWith`: the existing
/// restriction decides the message.
pub(super) fn merge(
    existing: &Restriction,
    new: &Restriction,
    name: impl Fn(usize) -> String,
) -> Result<Restriction, String> {
    // A single-column restriction meeting a multi-column one is treated as a
    // one-column multi-column restriction; the names are the columns in common.
    let names = if existing.multi || new.multi {
        let common: Vec<String> = existing
            .columns
            .iter()
            .filter(|c| new.columns.contains(c))
            .map(|c| name(*c))
            .collect();
        common.join(" ,")
    } else {
        name(existing.first_column())
    };
    match (&existing.op, &new.op) {
        (Op::Eq, _) => Err(format!(
            "{names} cannot be restricted by more than one relation if it includes an Equal"
        )),
        (Op::In(_), _) => Err(format!(
            "{names} cannot be restricted by more than one relation if it includes a IN"
        )),
        (Op::Slice { start, end }, Op::Slice { start: s2, end: e2 }) => {
            if (existing.multi || new.multi) && existing.first_column() != new.first_column() {
                let later = if new.first_column() > existing.first_column() {
                    new.first_column()
                } else {
                    existing.first_column()
                };
                return Err(format!(
                    "Column \"{}\" cannot be restricted by two inequalities not starting with the same column",
                    name(later)
                ));
            }
            if start.is_some() && s2.is_some() {
                return Err(format!(
                    "More than one restriction was found for the start bound on {names}"
                ));
            }
            if end.is_some() && e2.is_some() {
                return Err(format!(
                    "More than one restriction was found for the end bound on {names}"
                ));
            }
            Ok(Restriction {
                op: Op::Slice {
                    start: start.or(*s2),
                    end: end.or(*e2),
                },
                multi: existing.multi || new.multi,
                columns: if existing.columns.len() >= new.columns.len() {
                    existing.columns.clone()
                } else {
                    new.columns.clone()
                },
                ..existing.clone()
            })
        }
        (Op::Slice { .. }, _) => Err(format!(
            "Column \"{names}\" cannot be restricted by both an equality and an inequality relation"
        )),
        (
            Op::Contains {
                values,
                keys,
                entries,
            },
            Op::Contains {
                values: v2,
                keys: k2,
                entries: e2,
            },
        ) => Ok(Restriction {
            op: Op::Contains {
                values: values + v2,
                keys: keys + k2,
                entries: entries + e2,
            },
            ..existing.clone()
        }),
        (Op::Contains { .. }, _) => Err(format!(
            "Collection column {names} can only be restricted by CONTAINS, CONTAINS KEY, or map-entry equality"
        )),
        (Op::Like, _) => Err(format!(
            "{names} cannot be restricted by more than one relation if it includes a LIKE"
        )),
        (Op::IsNotNull, _) => Err(format!(
            "{names} cannot be restricted by a relation if it includes an IS NOT NULL"
        )),
        (Op::Neq | Op::NotIn | Op::NotContains, _) => Ok(existing.clone()),
    }
}

/// `TokenRestriction.mergeWith` between two token restrictions.
pub(super) fn merge_token(
    existing: &Restriction,
    new: &Restriction,
    names: &str,
) -> Result<Restriction, String> {
    match (&existing.op, &new.op) {
        (Op::Eq, _) => Err(format!(
            "{names} cannot be restricted by more than one relation if it includes an Equal"
        )),
        (Op::Slice { start, end }, Op::Slice { start: s2, end: e2 }) => {
            if start.is_some() && s2.is_some() {
                return Err(format!(
                    "More than one restriction was found for the start bound on {names}"
                ));
            }
            if end.is_some() && e2.is_some() {
                return Err(format!(
                    "More than one restriction was found for the end bound on {names}"
                ));
            }
            Ok(Restriction {
                op: Op::Slice {
                    start: start.or(*s2),
                    end: end.or(*e2),
                },
                ..existing.clone()
            })
        }
        _ => Err(format!(
            "Columns \"{names}\" cannot be restricted by both an equality and an inequality relation"
        )),
    }
}

/// Whether an index of this implementation answers this operator on this column type.
pub(super) fn index_supports(index: &Index, ty: &CqlType, op: &Op, operator: Operator) -> bool {
    let target_ok = match (index.target, op) {
        (
            IndexTarget::Values,
            Op::Contains {
                values,
                keys,
                entries,
            },
        ) => *values > 0 && *keys == 0 && *entries == 0 && ty.is_collection(),
        (
            IndexTarget::Keys,
            Op::Contains {
                keys,
                values,
                entries,
            },
        ) => *keys > 0 && *values == 0 && *entries == 0,
        (
            IndexTarget::Entries,
            Op::Contains {
                entries,
                values,
                keys,
            },
        ) => *entries > 0 && *values == 0 && *keys == 0,
        (IndexTarget::Full, Op::Eq) => true,
        (IndexTarget::Values, _) => !ty.is_collection() || !ty.is_multi_cell(),
        _ => false,
    };
    if !target_ok {
        return false;
    }
    match (&index.implementation, op) {
        (_, Op::Contains { .. }) => true,
        (_, Op::Eq) => true,
        (IndexImpl::Legacy, _) => false,
        (IndexImpl::Sai, Op::Slice { .. }) => !is_literal(ty),
        (IndexImpl::Sai, _) => false,
        (IndexImpl::Sasi, Op::Slice { .. } | Op::Like) => true,
        (IndexImpl::Sasi, _) => false,
        (IndexImpl::Custom(_), _) => operator != Operator::In,
    }
}

/// SAI treats strings and booleans as literal terms: equality only (Cassandra 5.0).
fn is_literal(ty: &CqlType) -> bool {
    use cqlmodel_cql::ast::NativeType as N;
    matches!(
        ty,
        CqlType::Native(N::Text | N::Ascii | N::Varchar | N::Boolean)
    )
}
