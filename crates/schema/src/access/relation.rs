//! One WHERE relation turned into a restriction, with the checks Cassandra makes
//! on a relation alone (`SingleColumnRelation`, `MultiColumnRelation`, `TokenRelation`).

use std::collections::BTreeSet;

use cqlmodel_cql::ast::{InValues, Operator, Relation, RelationKind, Span, Term, TermKind};

use super::QueryError;
use super::value::check_assignable;
use crate::model::{Column, ColumnKind, Table};
use crate::types::CqlType;

/// How many distinct values an IN (or an EQ) stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Values {
    Known(u64),
    /// `IN ?`: a bound list of unknown length.
    Unknown,
}

impl Values {
    pub fn times(self, other: Values) -> Values {
        match (self, other) {
            (Values::Known(a), Values::Known(b)) => Values::Known(a.saturating_mul(b)),
            _ => Values::Unknown,
        }
    }
}

/// What a restriction does to its columns.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Eq,
    In(Values),
    /// A range; each bound is `Some(inclusive)` when present.
    Slice {
        start: Option<bool>,
        end: Option<bool>,
    },
    /// CONTAINS (values), CONTAINS KEY (keys), `m[k] = v` (entries): counts of each.
    Contains {
        values: u32,
        keys: u32,
        entries: u32,
    },
    Neq,
    NotIn,
    NotContains,
    Like,
    IsNotNull,
}

impl Op {
    pub fn is_slice(&self) -> bool {
        matches!(self, Op::Slice { .. })
    }
    pub fn is_eq_or_in(&self) -> bool {
        matches!(self, Op::Eq | Op::In(_))
    }
    pub fn is_contains(&self) -> bool {
        matches!(self, Op::Contains { .. })
    }
}

/// A restriction on one column, several clustering columns (a multi-column
/// relation) or on the token of the partition key.
#[derive(Debug, Clone)]
pub(crate) struct Restriction {
    /// Indexes into `table.columns`.
    pub columns: Vec<usize>,
    pub multi: bool,
    pub token: bool,
    pub op: Op,
    /// The operator as written, for index support and messages.
    pub operator: Operator,
    pub span: Span,
}

impl Restriction {
    fn new(
        columns: Vec<usize>,
        multi: bool,
        token: bool,
        op: Op,
        operator: Operator,
        span: Span,
    ) -> Self {
        Restriction {
            columns,
            multi,
            token,
            op,
            operator,
            span,
        }
    }

    pub fn first_column(&self) -> usize {
        self.columns.first().copied().unwrap_or(0)
    }
}

/// Converts a relation into a restriction, or the error Cassandra raises for it.
/// `statement` is `None` for SELECT, or the modification type (`UPDATE`, `DELETE`).
pub(crate) fn to_restriction(
    table: &Table,
    relation: &Relation,
    statement: Option<&str>,
) -> Result<Restriction, QueryError> {
    let err = |message: String| QueryError {
        message,
        span: relation.span,
    };
    // `Relation.toRestriction` rejects these operators before it looks at the column.
    if let Some(op) = unsupported_operator(relation) {
        return Err(err(format!(
            "Unsupported \"{}\" relation: {}",
            op.symbol(),
            relation_text(relation)
        )));
    }
    if let Some(kind) = statement
        && let RelationKind::Column {
            op: op @ (Operator::Contains | Operator::ContainsKey),
            ..
        } = &relation.kind
    {
        return Err(err(format!("Cannot use {kind} with {}", op.symbol())));
    }
    match &relation.kind {
        RelationKind::Column {
            column: name,
            op,
            value,
        } => single_column(table, relation, name, *op, value),
        RelationKind::ColumnIn {
            column: name,
            values,
            ..
        } => column_in(table, relation, name, values),
        RelationKind::MapEntry {
            column: name, op, ..
        } => map_entry(table, relation, name, *op),
        RelationKind::MultiColumn { columns, op, value } => {
            let idxs = multi_receivers(table, columns, relation)?;
            check_tuple_arity(columns.len(), value).map_err(err)?;
            let op_kind = eq_or_slice(*op).ok_or_else(|| {
                err(format!(
                    "Unsupported \"{}\" relation: {}",
                    op.symbol(),
                    relation_text(relation)
                ))
            })?;
            Ok(Restriction::new(
                idxs,
                true,
                false,
                op_kind,
                *op,
                relation.span,
            ))
        }
        RelationKind::MultiColumnIn { columns, values } => {
            let idxs = multi_receivers(table, columns, relation)?;
            if let InValues::List(list) = values {
                for v in list {
                    check_tuple_arity(columns.len(), v).map_err(err)?;
                }
            }
            let (op, operator) = in_op(values);
            Ok(Restriction::new(
                idxs,
                true,
                false,
                op,
                operator,
                relation.span,
            ))
        }
        RelationKind::Token { columns, op, value } => {
            token_relation(table, relation, columns, *op, value)
        }
        RelationKind::IsNotNull { column: name } => {
            let (idx, _) = find_column(table, name)?;
            let op = Op::IsNotNull;
            Ok(Restriction::new(
                vec![idx],
                false,
                false,
                op,
                Operator::Neq,
                relation.span,
            ))
        }
    }
}

/// The column a relation names, or Cassandra's undefined-column error at the name.
fn find_column<'t>(
    table: &'t Table,
    name: &cqlmodel_cql::ast::Ident,
) -> Result<(usize, &'t Column), QueryError> {
    table
        .columns
        .iter()
        .enumerate()
        .find(|(_, c)| c.name == name.value)
        .ok_or_else(|| QueryError {
            message: undefined_column(table, &name.value),
            span: name.span,
        })
}

/// `=` and the four range operators: the operators a multi-column or token
/// relation takes.
fn eq_or_slice(op: Operator) -> Option<Op> {
    match op {
        Operator::Eq => Some(Op::Eq),
        Operator::Lt | Operator::Lte => Some(Op::Slice {
            start: None,
            end: Some(op == Operator::Lte),
        }),
        Operator::Gt | Operator::Gte => Some(Op::Slice {
            start: Some(op == Operator::Gte),
            end: None,
        }),
        _ => None,
    }
}

/// "An IN restriction with only one element is the same as an EQ restriction."
fn in_op(values: &InValues) -> (Op, Operator) {
    if in_has_one_value(values) {
        (Op::Eq, Operator::Eq)
    } else {
        (Op::In(count_in(values)), Operator::In)
    }
}

/// `col op value`.
fn single_column(
    table: &Table,
    relation: &Relation,
    name: &cqlmodel_cql::ast::Ident,
    op: Operator,
    value: &Term,
) -> Result<Restriction, QueryError> {
    let err = |message: String| QueryError {
        message,
        span: relation.span,
    };
    let (idx, col) = find_column(table, name)?;
    check_single(col, op).map_err(err)?;
    check_relation_value(col, op, value).map_err(err)?;
    let op_kind = match op {
        Operator::Contains => Op::Contains {
            values: 1,
            keys: 0,
            entries: 0,
        },
        Operator::ContainsKey => Op::Contains {
            values: 0,
            keys: 1,
            entries: 0,
        },
        Operator::Neq => Op::Neq,
        Operator::Like => Op::Like,
        Operator::NotContains | Operator::NotContainsKey => Op::NotContains,
        Operator::In | Operator::NotIn => Op::NotIn,
        Operator::Eq | Operator::Lt | Operator::Lte | Operator::Gt | Operator::Gte => {
            eq_or_slice(op).unwrap_or(Op::Eq)
        }
    };
    Ok(Restriction::new(
        vec![idx],
        false,
        false,
        op_kind,
        op,
        relation.span,
    ))
}

/// `col IN (…)` and `col IN ?`.
fn column_in(
    table: &Table,
    relation: &Relation,
    name: &cqlmodel_cql::ast::Ident,
    values: &InValues,
) -> Result<Restriction, QueryError> {
    let err = |message: String| QueryError {
        message,
        span: relation.span,
    };
    let (idx, col) = find_column(table, name)?;
    check_single(col, Operator::In).map_err(err)?;
    if let InValues::List(list) = values {
        for v in list {
            check_assignable(&col.name, &col.ty, v).map_err(err)?;
        }
    }
    let (op, operator) = in_op(values);
    Ok(Restriction::new(
        vec![idx],
        false,
        false,
        op,
        operator,
        relation.span,
    ))
}

/// `m[key] = value`.
fn map_entry(
    table: &Table,
    relation: &Relation,
    name: &cqlmodel_cql::ast::Ident,
    op: Operator,
) -> Result<Restriction, QueryError> {
    let err = |message: String| QueryError {
        message,
        span: relation.span,
    };
    let (idx, col) = find_column(table, name)?;
    if matches!(col.ty, CqlType::List { .. }) {
        return Err(err(format!(
            "Indexes on list entries ({}[index] = value) are not currently supported.",
            col.name
        )));
    }
    if !matches!(col.ty, CqlType::Map { .. }) {
        return Err(err(format!("Column {} cannot be used as a map", col.name)));
    }
    if !col.ty.is_multi_cell() {
        return Err(err(format!(
            "Map-entry equality predicates on frozen map column {} are not supported",
            col.name
        )));
    }
    if op != Operator::Eq {
        return Err(err("Only EQ relations are supported on map entries".into()));
    }
    let entries = Op::Contains {
        values: 0,
        keys: 0,
        entries: 1,
    };
    Ok(Restriction::new(
        vec![idx],
        false,
        false,
        entries,
        Operator::Eq,
        relation.span,
    ))
}

/// `token(pk…) op value`.
fn token_relation(
    table: &Table,
    relation: &Relation,
    columns: &[cqlmodel_cql::ast::Ident],
    op: Operator,
    value: &Term,
) -> Result<Restriction, QueryError> {
    let err = |message: String| QueryError {
        message,
        span: relation.span,
    };
    let mut idxs = Vec::with_capacity(columns.len());
    for c in columns {
        idxs.push(find_column(table, c)?.0);
    }
    check_token(table, &idxs).map_err(err)?;
    check_assignable(
        "partition key token",
        &CqlType::Native(cqlmodel_cql::ast::NativeType::Bigint),
        value,
    )
    .map_err(err)?;
    let op_kind = eq_or_slice(op).ok_or_else(|| {
        err(format!(
            "{} cannot be used with the token function",
            op.symbol()
        ))
    })?;
    Ok(Restriction::new(
        idxs,
        false,
        true,
        op_kind,
        op,
        relation.span,
    ))
}

/// The receiver checks of `SingleColumnRelation.toReceivers`, in its order.
fn check_single(col: &Column, op: Operator) -> Result<(), String> {
    let ty = &col.ty;
    if op == Operator::ContainsKey && !matches!(ty, CqlType::Map { .. }) {
        return Err(format!(
            "Cannot use CONTAINS KEY on non-map column {}",
            col.name
        ));
    }
    if op == Operator::Contains && !ty.is_collection() {
        return Err(format!(
            "Cannot use CONTAINS on non-collection column {}",
            col.name
        ));
    }
    if matches!(ty, CqlType::Udt { frozen: false, .. }) {
        return Err(format!(
            "Non-frozen UDT column '{}' ({}) cannot be restricted by any relation",
            col.name, ty
        ));
    }
    if ty.is_collection()
        && ty.is_multi_cell()
        && !matches!(op, Operator::Contains | Operator::ContainsKey)
    {
        return Err(format!(
            "Collection column '{}' ({}) cannot be restricted by a '{}' relation",
            col.name,
            ty,
            op.symbol()
        ));
    }
    if op.is_slice() && ty.references_duration() {
        return Err(match ty {
            CqlType::List { .. } | CqlType::Set { .. } | CqlType::Map { .. } => {
                "Slice restrictions are not supported on collections containing durations"
                    .to_string()
            }
            CqlType::Tuple(_) => {
                "Slice restrictions are not supported on tuples containing durations".to_string()
            }
            CqlType::Udt { .. } => {
                "Slice restrictions are not supported on UDTs containing durations".to_string()
            }
            _ => "Slice restrictions are not supported on duration columns".to_string(),
        });
    }
    Ok(())
}

/// The value's type check (`Term.Raw.prepare` against the column, or its element for CONTAINS).
fn check_relation_value(col: &Column, op: Operator, value: &Term) -> Result<(), String> {
    match (op, &col.ty) {
        (Operator::Contains, CqlType::List { element, .. } | CqlType::Set { element, .. }) => {
            check_assignable(&format!("value({})", col.name), element, value)
        }
        (Operator::Contains, CqlType::Map { value: v, .. }) => {
            check_assignable(&format!("value({})", col.name), v, value)
        }
        (Operator::ContainsKey, CqlType::Map { key, .. }) => {
            check_assignable(&format!("key({})", col.name), key, value)
        }
        (Operator::Like, _) => Ok(()),
        _ => check_assignable(&col.name, &col.ty, value),
    }
}

/// `Expected 2 elements in value tuple, but got 3: (?, ?, ?)`.
fn check_tuple_arity(expected: usize, value: &Term) -> Result<(), String> {
    if let TermKind::Tuple(items) = &value.kind
        && items.len() != expected
    {
        return Err(format!(
            "Expected {expected} elements in value tuple, but got {}: {value}",
            items.len()
        ));
    }
    Ok(())
}

/// Operators Cassandra 5.0 does not accept in a WHERE clause (`!=`, and the
/// `NOT` forms that only Cassandra 5.1 parses).
fn unsupported_operator(relation: &Relation) -> Option<Operator> {
    let op = match &relation.kind {
        RelationKind::Column { op, .. }
        | RelationKind::MapEntry { op, .. }
        | RelationKind::MultiColumn { op, .. }
        | RelationKind::Token { op, .. } => *op,
        RelationKind::ColumnIn { negated: true, .. } => Operator::NotIn,
        _ => return None,
    };
    matches!(
        op,
        Operator::Neq | Operator::NotIn | Operator::NotContains | Operator::NotContainsKey
    )
    .then_some(op)
}

/// `Undefined column name %s in table %s` (5.0, `TableMetadata.getExistingColumn`).
pub(crate) fn undefined_column(table: &Table, name: &str) -> String {
    format!(
        "Undefined column name {} in table {}.{}",
        display_ident(name),
        display_ident(&table.keyspace),
        display_ident(&table.name)
    )
}

/// `MultiColumnRelation.receivers`: clustering columns only, no repeats, in PRIMARY KEY order.
fn multi_receivers(
    table: &Table,
    columns: &[cqlmodel_cql::ast::Ident],
    relation: &Relation,
) -> Result<Vec<usize>, QueryError> {
    let mut out: Vec<usize> = Vec::with_capacity(columns.len());
    let mut previous: Option<usize> = None;
    for name in columns {
        let Some((idx, col)) = table
            .columns
            .iter()
            .enumerate()
            .find(|(_, c)| c.name == name.value)
        else {
            return Err(QueryError {
                message: undefined_column(table, &name.value),
                span: name.span,
            });
        };
        let ColumnKind::Clustering(pos, _) = col.kind else {
            return Err(QueryError {
                message: format!(
                    "Multi-column relations can only be applied to clustering columns but was applied to: {}",
                    col.name
                ),
                span: name.span,
            });
        };
        if out.contains(&idx) {
            return Err(QueryError {
                message: format!(
                    "Column \"{}\" appeared twice in a relation: {}",
                    col.name,
                    relation_text(relation)
                ),
                span: name.span,
            });
        }
        if previous.is_some_and(|p| pos != p + 1) {
            return Err(QueryError {
                message: format!(
                    "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: {}",
                    relation_text(relation)
                ),
                span: relation.span,
            });
        }
        previous = Some(pos);
        out.push(idx);
    }
    Ok(out)
}

/// `TokenRelation` checks on its columns, in Cassandra's order.
fn check_token(table: &Table, idxs: &[usize]) -> Result<(), String> {
    let pk: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.kind, ColumnKind::PartitionKey(_)))
        .map(|(i, _)| i)
        .collect();
    if idxs == pk.as_slice() {
        return Ok(());
    }
    if !pk.iter().all(|i| idxs.contains(i)) {
        return Err(
            "The token() function must be applied to all partition key components or none of them"
                .into(),
        );
    }
    let distinct: BTreeSet<usize> = idxs.iter().copied().collect();
    if distinct.len() != idxs.len() {
        return Err("The token() function contains duplicate partition key components".into());
    }
    if idxs.iter().any(|i| !pk.contains(i)) {
        return Err("The token() function must contains only partition key components".into());
    }
    let names: Vec<&str> = pk
        .iter()
        .filter_map(|i| table.columns.get(*i).map(|c| c.name.as_str()))
        .collect();
    Err(format!(
        "The token function arguments must be in the partition key order: {}",
        names.join(", ")
    ))
}

fn in_has_one_value(values: &InValues) -> bool {
    matches!(values, InValues::List(v) if v.len() == 1)
}

/// Distinct values of an IN list (`IN ?` is unknown; `IN ()` is zero).
fn count_in(values: &InValues) -> Values {
    match values {
        InValues::Marker(_) => Values::Unknown,
        InValues::List(terms) => {
            // Terms compare by their printed form (spans aside, two terms are
            // equal when they print the same): a set keeps `IN` with 100,000
            // values linear.
            let mut distinct = std::collections::HashSet::new();
            let mut markers = 0u64;
            for t in terms {
                if matches!(t.kind, TermKind::BindMarker(_)) {
                    markers += 1;
                } else {
                    distinct.insert(t.to_string());
                }
            }
            Values::Known(distinct.len() as u64 + markers)
        }
    }
}

/// A relation as Cassandra prints it in messages.
pub(crate) fn relation_text(relation: &Relation) -> String {
    match &relation.kind {
        // Cassandra prints `token(a, b) > 0`, lower-case.
        RelationKind::Token { columns, op, value } => {
            let cols: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
            format!("token({}) {} {}", cols.join(", "), op.symbol(), value)
        }
        _ => relation.to_string(),
    }
}

/// A column name as Cassandra prints a `ColumnIdentifier`: quoted when needed.
pub(crate) fn display_ident(name: &str) -> String {
    cqlmodel_cql::ast::Ident::new(name).to_string()
}
