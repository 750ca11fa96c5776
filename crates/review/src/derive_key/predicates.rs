//! What a query's WHERE clause and ORDER BY ask of a table.

use cqlmodel_cql::ast::{Ident, Operator, Order, RelationKind, Select};
use cqlmodel_schema::{Column, Table};

use super::DeriveError;
use super::columns::{key_eligible, time_kind};

/// What a query's WHERE clause and ORDER BY ask of a table, by column position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Predicates {
    /// Restricted by `=` or IN, in WHERE order.
    pub equal: Vec<usize>,
    /// Restricted by `<`, `<=`, `>`, `>=`, in WHERE order.
    pub range: Vec<usize>,
    /// Restricted by anything a key cannot serve (CONTAINS, `!=`, LIKE, NOT IN, map entries).
    pub filter: Vec<usize>,
    /// ORDER BY columns with the direction asked.
    pub order_by: Vec<(usize, Order)>,
    pub token: bool,
    pub ann: bool,
}

/// Classifies the query's predicates against `table`'s columns.
pub fn predicates(table: &Table, select: &Select) -> Result<Predicates, DeriveError> {
    let position = |ident: &Ident| {
        table
            .columns
            .iter()
            .position(|c| c.name == ident.value)
            .ok_or_else(|| DeriveError::UnknownColumn(ident.value.clone()))
    };
    let mut p = Predicates::default();
    let push = |list: &mut Vec<usize>, i: usize| {
        if !list.contains(&i) {
            list.push(i);
        }
    };
    for relation in &select.where_clause {
        match &relation.kind {
            RelationKind::Column { column, op, .. } => {
                let i = position(column)?;
                match op {
                    Operator::Eq => push(&mut p.equal, i),
                    Operator::Lt | Operator::Lte | Operator::Gt | Operator::Gte => {
                        push(&mut p.range, i)
                    }
                    _ => push(&mut p.filter, i),
                }
            }
            RelationKind::ColumnIn {
                column, negated, ..
            } => {
                let i = position(column)?;
                push(
                    if *negated {
                        &mut p.filter
                    } else {
                        &mut p.equal
                    },
                    i,
                );
            }
            RelationKind::MultiColumn { columns, op, .. } => {
                for c in columns {
                    let i = position(c)?;
                    push(
                        if *op == Operator::Eq {
                            &mut p.equal
                        } else {
                            &mut p.range
                        },
                        i,
                    );
                }
            }
            RelationKind::MultiColumnIn { columns, .. } => {
                for c in columns {
                    let i = position(c)?;
                    push(&mut p.equal, i);
                }
            }
            RelationKind::MapEntry { column, .. } | RelationKind::IsNotNull { column } => {
                let i = position(column)?;
                push(&mut p.filter, i);
            }
            RelationKind::Token { .. } => p.token = true,
        }
    }
    for o in &select.order_by {
        if o.ann_of.is_some() {
            p.ann = true;
            continue;
        }
        let i = position(&o.column)?;
        if !p.order_by.iter().any(|(c, _)| *c == i) {
            p.order_by.push((i, o.order));
        }
    }
    Ok(p)
}

/// The range that becomes the clustering slice: the one ORDER BY names, else the
/// first on a time column, else the first.
pub(super) fn slice_column<'t>(
    p: &Predicates,
    col: &impl Fn(usize) -> Option<&'t Column>,
) -> Option<usize> {
    let eligible: Vec<usize> = p
        .range
        .iter()
        .copied()
        .filter(|i| col(*i).is_some_and(key_eligible))
        .collect();
    eligible
        .iter()
        .copied()
        .find(|i| p.order_by.iter().any(|(o, _)| o == i))
        .or_else(|| {
            eligible
                .iter()
                .copied()
                .find(|i| col(*i).and_then(time_kind).is_some())
        })
        .or_else(|| eligible.first().copied())
}
