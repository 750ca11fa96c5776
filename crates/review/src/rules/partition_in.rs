//! IN on the partition key: where it is and the statement the driver issues
//! once per partition instead. Shared by `scatter-gather` and
//! `in-order-by-paging`, so that neither imports the other.

use cqlmodel_cql::ast::{
    BindMarker, InValues, Operator, Relation, RelationKind, Span, Statement, StatementKind, Term,
    TermKind,
};
use cqlmodel_schema::Table;

use crate::query::Query;

pub(crate) fn where_clause(q: &Query) -> Option<&[Relation]> {
    match &q.statement.kind {
        StatementKind::Select(s) => Some(&s.where_clause),
        StatementKind::Update(u) => Some(&u.where_clause),
        StatementKind::Delete(d) => Some(&d.where_clause),
        _ => None,
    }
}

pub(crate) fn is_partition_key(table: &Table, column: &str) -> bool {
    table.partition_key().any(|c| c.name == column)
}

/// The span of the first IN on a partition-key column.
pub(crate) fn partition_in_span(table: &Table, q: &Query) -> Option<Span> {
    where_clause(q)?.iter().find_map(|r| match &r.kind {
        RelationKind::ColumnIn {
            column,
            negated: false,
            ..
        } if is_partition_key(table, &column.value) => Some(r.span),
        _ => None,
    })
}

/// The statement with every IN on the partition key replaced by `= ?`: the request
/// the driver issues once per partition.
pub(crate) fn per_partition(table: &Table, q: &Query) -> Option<String> {
    let mut statement = q.statement.clone();
    let relations = match &mut statement.kind {
        StatementKind::Select(s) => &mut s.where_clause,
        StatementKind::Update(u) => &mut u.where_clause,
        StatementKind::Delete(d) => &mut d.where_clause,
        _ => return None,
    };
    let mut changed = false;
    for r in relations.iter_mut() {
        if let RelationKind::ColumnIn {
            column,
            negated: false,
            values: InValues::List(_) | InValues::Marker(_),
        } = &r.kind
            && is_partition_key(table, &column.value)
        {
            r.kind = RelationKind::Column {
                column: column.clone(),
                op: Operator::Eq,
                value: Term {
                    kind: TermKind::BindMarker(BindMarker::Anonymous),
                    span: Span::default(),
                },
            };
            changed = true;
        }
    }
    changed.then(|| {
        format!(
            "{};",
            Statement {
                span: Span::default(),
                ..statement
            }
        )
    })
}
