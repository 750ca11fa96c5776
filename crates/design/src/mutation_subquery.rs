//! `DELETE FROM a WHERE b_id IN (SELECT id FROM b WHERE …)` and
//! `UPDATE a SET … WHERE id IN (SELECT a_id FROM b WHERE …)`: a semi-join in
//! a mutation's WHERE means what `DELETE … USING b` / `UPDATE … FROM b`
//! mean: read `b` first, then write `a` by the keys the read gives. The
//! statement is rewritten into that form, which read_first.rs designs.

use sqlparser::ast::{
    BinaryOperator, Delete, Expr, FromTable, GroupByExpr, Ident, InTarget, ObjectNamePart, Query,
    SelectItem, SetExpr, Statement, TableFactor, TableWithJoins, Update, UpdateTableFromKind,
};
use sqlparser::tokenizer::Span;

use crate::select::conjuncts;

/// A mutation rewritten as a joined one, with what the note says about it.
pub(crate) struct Joined {
    pub statement: Statement,
    /// Where the subquery starts (its span), for the note.
    pub span: Span,
    pub message: String,
}

/// The statement as `UPDATE … FROM` / `DELETE … USING` when its WHERE holds
/// exactly one `col IN (SELECT one_column FROM one_table [WHERE …])` on
/// another table (not negated, no grouping, ordering or limit); `None`
/// otherwise (the mutation is read as it is, and a subquery there stays an
/// error that says what to write).
pub(crate) fn as_joined(statement: &Statement) -> Option<Joined> {
    match statement {
        Statement::Update(up) if up.from.is_none() && up.table.joins.is_empty() => {
            let (selection, sub) = split(&up.table.relation, up.selection.as_ref()?)?;
            let rewritten = Update {
                from: Some(UpdateTableFromKind::AfterSet(vec![sub.table.clone()])),
                selection: Some(selection),
                ..up.clone()
            };
            Some(joined(Statement::Update(rewritten), &sub, "UPDATE … FROM"))
        }
        Statement::Delete(del) if del.using.is_none() => {
            let tables = match &del.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            let [target] = tables.as_slice() else {
                return None;
            };
            if !target.joins.is_empty() {
                return None;
            }
            let (selection, sub) = split(&target.relation, del.selection.as_ref()?)?;
            let rewritten = Delete {
                using: Some(vec![sub.table.clone()]),
                selection: Some(selection),
                ..del.clone()
            };
            Some(joined(Statement::Delete(rewritten), &sub, "DELETE … USING"))
        }
        _ => None,
    }
}

fn joined(statement: Statement, sub: &Semi, form: &str) -> Joined {
    Joined {
        statement,
        span: sub.span,
        message: format!(
            "`{} IN (SELECT {} FROM {} …)` is a semi-join: read as {form} {} (the other table is read first, then the write by the key it gives)",
            sub.outer_column, sub.inner_column, sub.table_name, sub.table_name
        ),
    }
}

/// The subquery of a semi-join in a mutation's WHERE.
struct Semi {
    table: TableWithJoins,
    table_name: String,
    /// The columns as the user wrote them (for the note).
    outer_column: Expr,
    inner_column: Expr,
    span: Span,
}

/// The WHERE with its semi-join replaced by the join equality and the
/// subquery's own predicates (qualified by the subquery's table), and the
/// subquery's table.
fn split(target: &TableFactor, selection: &Expr) -> Option<(Expr, Semi)> {
    let target_ref = table_ref(target)?;
    let parts = conjuncts(selection);
    let mut semis = parts.iter().enumerate().filter_map(|(i, p)| match p {
        Expr::In {
            expr,
            target: InTarget::Subquery(query),
            negated: false,
            ..
        } => Some((i, expr.as_ref(), query.as_ref())),
        _ => None,
    });
    let (at, outer, query) = semis.next()?;
    if semis.next().is_some() {
        return None;
    }
    let (table, inner, filter) = plain_subquery(query)?;
    let sub_ref = table_ref(&table.relation)?;
    if same_table(target, &table.relation) {
        return None;
    }
    let (outer_written, inner_written) = (outer.clone(), inner.clone());
    let outer = qualified(outer, &target_ref);
    let inner = qualified(inner, &sub_ref);
    let mut kept: Vec<Expr> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        // The statement's own predicates name the target: beside the
        // subquery's table a bare `id` would be ambiguous.
        .map(|(_, p)| qualified(p, &target_ref))
        .collect();
    kept.push(Expr::BinaryOp {
        left: Box::new(outer),
        op: BinaryOperator::Eq,
        right: Box::new(inner),
    });
    if let Some(f) = filter {
        kept.push(qualified(f, &sub_ref));
    }
    let selection = kept.into_iter().reduce(|a, b| Expr::BinaryOp {
        left: Box::new(a),
        op: BinaryOperator::And,
        right: Box::new(b),
    })?;
    let table_name = table.relation.to_string();
    let span = sqlparser::ast::Spanned::span(query);
    Some((
        selection,
        Semi {
            table: table.clone(),
            table_name,
            outer_column: outer_written,
            inner_column: inner_written,
            span,
        },
    ))
}

/// `SELECT col FROM one_table [WHERE …]`: its table, column and filter.
fn plain_subquery(query: &Query) -> Option<(&TableWithJoins, &Expr, Option<&Expr>)> {
    if query.with.is_some()
        || query.order_by.is_some()
        || query.limit_clause.is_some()
        || query.fetch.is_some()
    {
        return None;
    }
    let SetExpr::Select(select) = query.body.as_ref() else {
        return None;
    };
    let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(e, _) if e.is_empty());
    if select.distinct.is_some() || grouped || select.having.is_some() {
        return None;
    }
    let ([table], [SelectItem::UnnamedExpr(column)]) =
        (select.from.as_slice(), select.projection.as_slice())
    else {
        return None;
    };
    if !table.joins.is_empty()
        || !matches!(column, Expr::Identifier(_) | Expr::CompoundIdentifier(_))
    {
        return None;
    }
    Some((table, column, select.selection.as_ref()))
}

/// The name a table is referred to by in the statement: its alias, else its
/// last name part.
fn table_ref(factor: &TableFactor) -> Option<Ident> {
    let TableFactor::Table { name, alias, .. } = factor else {
        return None;
    };
    if let Some(a) = alias {
        return Some(a.name.clone());
    }
    match name.0.last()? {
        ObjectNamePart::Identifier(i) => Some(i.clone()),
        _ => None,
    }
}

fn same_table(a: &TableFactor, b: &TableFactor) -> bool {
    match (a, b) {
        (TableFactor::Table { name: x, .. }, TableFactor::Table { name: y, .. }) => {
            x.to_string().eq_ignore_ascii_case(&y.to_string())
        }
        _ => false,
    }
}

/// `e` with its bare column names qualified by `table` (the subquery's
/// columns would otherwise be ambiguous beside the target's).
fn qualified(e: &Expr, table: &Ident) -> Expr {
    let mut e = e.clone();
    qualify(&mut e, table);
    e
}

fn qualify(e: &mut Expr, table: &Ident) {
    match e {
        Expr::Identifier(column) => {
            *e = Expr::CompoundIdentifier(vec![table.clone(), column.clone()]);
        }
        Expr::BinaryOp { left, right, .. } | Expr::AnyOp { left, right, .. } => {
            qualify(left, table);
            qualify(right, table);
        }
        Expr::Nested(x)
        | Expr::UnaryOp { expr: x, .. }
        | Expr::Cast { expr: x, .. }
        | Expr::IsNull(x)
        | Expr::IsNotNull(x)
        | Expr::IsTrue(x)
        | Expr::IsFalse(x) => qualify(x, table),
        Expr::Between {
            expr, low, high, ..
        } => {
            qualify(expr, table);
            qualify(low, table);
            qualify(high, table);
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            ..
        } => {
            qualify(expr, table);
            list.iter_mut().for_each(|x| qualify(x, table));
        }
        _ => {}
    }
}
