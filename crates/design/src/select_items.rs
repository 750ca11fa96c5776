//! The parts of a SELECT read one by one: its select list (columns,
//! aggregates, functions of columns), its WHERE, and a keyset page's row
//! comparison.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget,
};

use crate::error::{DesignError, DesignErrorKind};
use crate::select_spec::{ANY_VALUES, SelectSpec, push_unique};
use crate::sql_scope::{ColRef, Scope};

const AGGREGATES: &[&str] = &["count", "sum", "avg", "min", "max"];

pub(crate) fn projection_expr(
    scope: &Scope,
    e: &Expr,
    spec: &mut SelectSpec,
) -> Result<(), DesignError> {
    if let Some(c) = scope.column(e)? {
        push_unique(&mut spec.projection, c);
        return Ok(());
    }
    if let Expr::Function(f) = e {
        let name = f.name.to_string().to_ascii_lowercase();
        if AGGREGATES.contains(&name.as_str()) {
            let mut arg = None;
            if let FunctionArguments::List(list) = &f.args {
                for a in &list.args {
                    if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a
                        && let Some(c) = scope.column(x)?
                    {
                        push_unique(&mut spec.projection, c.clone());
                        arg = Some(c);
                    }
                }
            }
            let distinct = matches!(
                &f.args,
                FunctionArguments::List(l)
                    if l.duplicate_treatment == Some(sqlparser::ast::DuplicateTreatment::Distinct)
            );
            if let (true, Some(c)) = (distinct, &arg) {
                // A counter counts rows, not distinct values: the partition's
                // rows are read and the application counts the values.
                push_unique(&mut spec.group_by, c.clone());
                spec.app_order.push(format!(
                    "counting the distinct `{}` values (`{name}(DISTINCT …)`): a counter would count rows, not distinct values, so the partition's rows are read",
                    c.column
                ));
            }
            spec.aggregates.push((name, arg));
            return Ok(());
        }
    }
    if scope.is_value(e)? {
        return Ok(());
    }
    // A function of columns (`date_trunc('day', placed_at)`): the table stores
    // the columns and the application computes the function.
    let mut found = Vec::new();
    columns_in(scope, e, &mut found)?;
    if !found.is_empty() {
        for c in found {
            push_unique(&mut spec.projection, c);
        }
        spec.app_order.push(format!("computing `{e}`"));
        return Ok(());
    }
    Err(scope.err(
        DesignErrorKind::Unsupported,
        scope.pos(e),
        format!("the select expression `{e}` is outside the supported SQL subset (columns, *, count/sum/avg/min/max)"),
    ))
}

fn columns_in(scope: &Scope, e: &Expr, out: &mut Vec<ColRef>) -> Result<(), DesignError> {
    if let Some(c) = scope.column(e)? {
        push_unique(out, c);
        return Ok(());
    }
    match e {
        Expr::Function(f) => {
            if let FunctionArguments::List(list) = &f.args {
                for a in &list.args {
                    if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a {
                        columns_in(scope, x, out)?;
                    }
                }
            }
        }
        Expr::BinaryOp { left, right, .. } => {
            columns_in(scope, left, out)?;
            columns_in(scope, right, out)?;
        }
        Expr::Cast { expr, .. } | Expr::Nested(expr) | Expr::UnaryOp { expr, .. } => {
            columns_in(scope, expr, out)?
        }
        _ => {}
    }
    Ok(())
}

/// `(a, b) < ($1, $2)`: a row-value comparison of columns with values is a
/// keyset page's bound (CQL's multi-column slice on clustering columns).
pub(crate) fn keyset(
    scope: &Scope,
    left: &Expr,
    op: &BinaryOperator,
    right: &Expr,
    spec: &mut SelectSpec,
) -> Result<bool, DesignError> {
    let (Expr::Tuple(cols), Expr::Tuple(values)) = (left, right) else {
        return Ok(false);
    };
    let op = match op {
        BinaryOperator::Lt => "<",
        BinaryOperator::LtEq => "<=",
        BinaryOperator::Gt => ">",
        BinaryOperator::GtEq => ">=",
        _ => return Ok(false),
    };
    if cols.len() != values.len() || cols.len() < 2 || spec.keyset.is_some() {
        return Ok(false);
    }
    let mut refs = Vec::new();
    for (c, v) in cols.iter().zip(values) {
        match scope.column(c)? {
            Some(r) if scope.is_value(v)? => refs.push(r),
            _ => return Ok(false),
        }
    }
    spec.keyset = Some((refs, op.to_string()));
    Ok(true)
}

pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            let mut v = conjuncts(left);
            v.extend(conjuncts(right));
            v
        }
        Expr::Nested(inner) => conjuncts(inner),
        other => vec![other],
    }
}

/// The WHERE's conjuncts: equalities, ranges and filters go into `spec`;
/// subqueries (`IN (SELECT …)`, `EXISTS`) are handed back, for the caller
/// reads them as the joins they mean.
pub(crate) fn predicates<'e>(
    scope: &Scope,
    w: &'e Expr,
    spec: &mut SelectSpec,
    subqueries: &mut Vec<&'e Expr>,
) -> Result<(), DesignError> {
    for p in conjuncts(w) {
        match p {
            Expr::BinaryOp { left, op, right } if keyset(scope, left, op, right, spec)? => {}
            Expr::BinaryOp { left, op, right } => {
                let (col, value_side, flipped) = match (scope.column(left)?, scope.column(right)?) {
                    (Some(a), Some(b)) if *op == BinaryOperator::Eq => {
                        spec.joins.push((a, b));
                        continue;
                    }
                    (Some(c), None) => (c, right, false),
                    (None, Some(c)) => (c, left, true),
                    _ => {
                        spec.ad_hoc.push(p.to_string());
                        continue;
                    }
                };
                if !scope.is_value(value_side)? {
                    spec.ad_hoc.push(p.to_string());
                    continue;
                }
                match op {
                    BinaryOperator::Eq => spec.equalities.push((col, 1)),
                    BinaryOperator::Lt
                    | BinaryOperator::LtEq
                    | BinaryOperator::Gt
                    | BinaryOperator::GtEq => {
                        let op = match (op, flipped) {
                            (BinaryOperator::Lt, false) | (BinaryOperator::Gt, true) => "<",
                            (BinaryOperator::LtEq, false) | (BinaryOperator::GtEq, true) => "<=",
                            (BinaryOperator::Gt, false) | (BinaryOperator::Lt, true) => ">",
                            _ => ">=",
                        };
                        spec.range_ops.push((col.clone(), op.to_string()));
                        push_unique(&mut spec.ranges, col)
                    }
                    _ => spec.ad_hoc.push(p.to_string()),
                }
            }
            Expr::Between {
                expr,
                negated: false,
                low,
                high,
            } => match scope.column(expr)? {
                Some(c) if scope.is_value(low)? && scope.is_value(high)? => {
                    spec.range_ops.push((c.clone(), ">=".into()));
                    spec.range_ops.push((c.clone(), "<=".into()));
                    push_unique(&mut spec.ranges, c)
                }
                _ => spec.ad_hoc.push(p.to_string()),
            },
            Expr::In {
                expr,
                target: InTarget::List(list),
                negated: false,
                ..
            } => match scope.column(expr)? {
                Some(c) => spec.equalities.push((c, list.len().max(1))),
                None => spec.ad_hoc.push(p.to_string()),
            },
            Expr::AnyOp {
                left,
                compare_op: BinaryOperator::Eq,
                right,
                ..
            } => match scope.column(left)? {
                Some(c) if scope.is_value(right)? => {
                    spec.equalities.push((c.clone(), ANY_VALUES));
                    spec.any_of.push(c);
                }
                _ => spec.ad_hoc.push(p.to_string()),
            },
            Expr::In {
                target: InTarget::Subquery(_),
                ..
            }
            | Expr::Exists { .. } => subqueries.push(p),
            Expr::Subquery(_) => {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    scope.pos(p),
                    format!("the scalar subquery `{p}` is outside the supported SQL subset: read its value first (its own query) and pass it as a parameter"),
                ));
            }
            other => spec.ad_hoc.push(other.to_string()),
        }
    }
    Ok(())
}
