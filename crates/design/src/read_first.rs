//! `UPDATE t SET … FROM other WHERE t.fk = other.pk AND other.x = $1` and
//! `DELETE FROM t USING other WHERE …`: PostgreSQL joins the two tables inside
//! the statement; Cassandra cannot. The application reads `other` first (its
//! filters, the join columns and the values the SET copies), then writes `t`
//! by the key the read gave. The read is designed as a query of its own.

use sqlparser::ast::{
    AssignmentTarget, BinaryOperator, Delete, Expr, FromTable, FunctionArg, FunctionArgExpr,
    FunctionArguments, InTarget, Statement, TableFactor, Update, UpdateTableFromKind,
};

use crate::error::DesignError;
pub use crate::mutations::ReadFirst;
use crate::mutations::{
    MutationKind, MutationSpec, check_column, keeps_itself_when_null, read_predicates,
    relative_to_itself, unsupported,
};
use crate::relational::object_name;
use crate::select::{ColRef, Scope, SelectSpec, conjuncts};

/// `UPDATE … FROM one_table` or `DELETE … USING one_table` (and no JOIN on
/// the target) read that way; `None` for every other statement.
pub(crate) fn joined_mutation(
    model: &crate::relational::Model,
    statement: &Statement,
    at: (usize, usize),
) -> Option<Result<MutationSpec, DesignError>> {
    let mut scope = Scope::new(model, at, crate::error::Source::Queries);
    match statement {
        Statement::Update(up) if up.table.joins.is_empty() && up.from.is_some() => {
            Some(update_from(&mut scope, up))
        }
        Statement::Delete(del) if del.using.is_some() => {
            let tables = match &del.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            match tables.as_slice() {
                [one] if one.joins.is_empty() => Some(delete_using(&mut scope, del, &one.relation)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `UPDATE target SET … FROM other WHERE …`.
pub(crate) fn update_from(scope: &mut Scope, up: &Update) -> Result<MutationSpec, DesignError> {
    let target = scope.add_table(&up.table.relation)?;
    let other = other_table(
        scope,
        up.from.as_ref().map(|f| match f {
            UpdateTableFromKind::BeforeSet(t) | UpdateTableFromKind::AfterSet(t) => t.as_slice(),
        }),
        "UPDATE … FROM",
    )?;
    let mut m = MutationSpec {
        kind: MutationKind::Update,
        entity: target.clone(),
        ..MutationSpec::default()
    };
    let mut values = Vec::new();
    let mut read_columns = Vec::new();
    for a in &up.assignments {
        let AssignmentTarget::ColumnName(n) = &a.target else {
            return Err(unsupported(scope, "a tuple assignment"));
        };
        let column = check_column(scope, &target, &object_name(n))?;
        if relative_to_itself(scope, &column, &a.value)? {
            m.increments.push(column.clone());
        } else if keeps_itself_when_null(&column, &a.value) {
            m.patch.push(column.clone());
        }
        let mut used = Vec::new();
        columns_of(scope, &a.value, &mut used)?;
        if used.iter().any(|c| c.entity == other) {
            values.push(column.clone());
        }
        read_columns.extend(used.into_iter().filter(|c| c.entity == other));
        m.columns.push(column);
    }
    m.columns.dedup();
    plan(
        scope,
        &target,
        &other,
        up.selection.as_ref(),
        read_columns,
        values,
        &mut m,
        "UPDATE … FROM",
    )?;
    Ok(m)
}

/// `DELETE FROM target USING other WHERE …`.
pub(crate) fn delete_using(
    scope: &mut Scope,
    del: &Delete,
    relation: &TableFactor,
) -> Result<MutationSpec, DesignError> {
    let target = scope.add_table(relation)?;
    let other = other_table(scope, del.using.as_deref(), "DELETE … USING")?;
    let mut m = MutationSpec {
        kind: MutationKind::Delete,
        entity: target.clone(),
        ..MutationSpec::default()
    };
    plan(
        scope,
        &target,
        &other,
        del.selection.as_ref(),
        Vec::new(),
        Vec::new(),
        &mut m,
        "DELETE … USING",
    )?;
    Ok(m)
}

fn other_table(
    scope: &mut Scope,
    tables: Option<&[sqlparser::ast::TableWithJoins]>,
    what: &str,
) -> Result<String, DesignError> {
    match tables {
        Some([one]) if one.joins.is_empty() => scope.add_table(&one.relation),
        _ => Err(unsupported(
            scope,
            &format!(
                "{what} over several tables is outside the supported SQL subset: read them first, one query each, and write this table by its key"
            ),
        )),
    }
}

/// Splits the WHERE into the read of `other` (its own filters), the join
/// (target column = other column: bound by the read) and the target's own
/// predicates; the mutation is then read as if the join columns were given.
#[allow(clippy::too_many_arguments)]
fn plan(
    scope: &Scope,
    target: &str,
    other: &str,
    selection: Option<&Expr>,
    mut read_columns: Vec<ColRef>,
    values: Vec<String>,
    m: &mut MutationSpec,
    what: &str,
) -> Result<(), DesignError> {
    let parts = selection.map(conjuncts).unwrap_or_default();
    let (mut links, mut reads, mut own) = (Vec::new(), Vec::new(), Vec::new());
    for p in parts {
        let mut used = Vec::new();
        columns_of(scope, p, &mut used)?;
        let on_other = used.iter().any(|c| c.entity == other);
        let on_target = used.iter().any(|c| c.entity == target);
        match (on_target, on_other, p) {
            (
                true,
                true,
                Expr::BinaryOp {
                    left,
                    op: BinaryOperator::Eq,
                    right,
                },
            ) => {
                let (Some(a), Some(b)) = (scope.column(left)?, scope.column(right)?) else {
                    return Err(unsupported(
                        scope,
                        &format!(
                            "`{p}` in {what}: the tables are joined by column equalities only"
                        ),
                    ));
                };
                let (t, o) = if a.entity == target { (a, b) } else { (b, a) };
                read_columns.push(o);
                links.push(t.column);
            }
            (true, true, _) => {
                return Err(unsupported(
                    scope,
                    &format!("`{p}` in {what}: the tables are joined by column equalities only"),
                ));
            }
            (false, true, _) => reads.push(p),
            _ => own.push(p),
        }
    }
    // Without a join, the read can only give the values the SET copies.
    if links.is_empty() && values.is_empty() {
        return Err(unsupported(
            scope,
            &format!(
                "{what} without an equality joining `{target}` to `{other}` is outside the supported SQL subset: read `{other}` first and write `{target}` by its key"
            ),
        ));
    }
    let select = read_spec(scope.model, other, &reads, &mut read_columns, scope.at)?;
    read_predicates(scope, &own, &links, m)?;
    let projection = read_columns
        .iter()
        .map(|c| c.column.clone())
        .collect::<Vec<_>>()
        .join(", ");
    let filter = reads
        .iter()
        .map(|p| strip_qualifiers(p).to_string())
        .collect::<Vec<_>>()
        .join(" AND ");
    let sql = if filter.is_empty() {
        format!("SELECT {projection} FROM {other}")
    } else {
        format!("SELECT {projection} FROM {other} WHERE {filter}")
    };
    m.read_first = Some(Box::new(ReadFirst {
        name: String::new(),
        sql,
        select,
        binds: links,
        values,
    }));
    Ok(())
}

/// The read of `other`: its filters, the join columns and copied values.
fn read_spec(
    model: &crate::relational::Model,
    other: &str,
    reads: &[&Expr],
    columns: &mut Vec<ColRef>,
    at: (usize, usize),
) -> Result<SelectSpec, DesignError> {
    let mut scope = Scope::new(model, at, crate::error::Source::Queries);
    scope.tables.push((other.to_string(), other.to_string()));
    // The statement's alias of `other` is not in this scope: read its
    // predicates by column name (they name `other`'s columns only).
    let mut spec = SelectSpec {
        entities: vec![other.to_string()],
        ..SelectSpec::default()
    };
    for p in reads {
        let unqualified = strip_qualifiers(p);
        let mut subqueries = Vec::new();
        crate::select_items::predicates(&scope, &unqualified, &mut spec, &mut subqueries)?;
        if !subqueries.is_empty() {
            return Err(unsupported(
                &scope,
                "a subquery in the WHERE of UPDATE … FROM / DELETE … USING",
            ));
        }
    }
    columns.dedup();
    spec.projection = columns.clone();
    Ok(spec)
}

fn strip_qualifiers(e: &Expr) -> Expr {
    let mut e = e.clone();
    unqualify(&mut e);
    e
}

fn unqualify(e: &mut Expr) {
    match e {
        Expr::CompoundIdentifier(parts) => {
            if let Some(last) = parts.last().cloned() {
                *e = Expr::Identifier(last);
            }
        }
        Expr::BinaryOp { left, right, .. } => {
            unqualify(left);
            unqualify(right);
        }
        Expr::Nested(x) | Expr::UnaryOp { expr: x, .. } | Expr::Cast { expr: x, .. } => {
            unqualify(x)
        }
        Expr::IsNull(x) | Expr::IsNotNull(x) | Expr::IsTrue(x) | Expr::IsFalse(x) => unqualify(x),
        Expr::Between {
            expr, low, high, ..
        } => {
            unqualify(expr);
            unqualify(low);
            unqualify(high);
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            ..
        } => {
            unqualify(expr);
            list.iter_mut().for_each(unqualify);
        }
        Expr::AnyOp { left, right, .. } => {
            unqualify(left);
            unqualify(right);
        }
        _ => {}
    }
}

/// The columns an expression reads.
fn columns_of(scope: &Scope, e: &Expr, out: &mut Vec<ColRef>) -> Result<(), DesignError> {
    if let Some(c) = scope.column(e)? {
        out.push(c);
        return Ok(());
    }
    match e {
        Expr::BinaryOp { left, right, .. } | Expr::AnyOp { left, right, .. } => {
            columns_of(scope, left, out)?;
            columns_of(scope, right, out)?;
        }
        Expr::Nested(x)
        | Expr::UnaryOp { expr: x, .. }
        | Expr::Cast { expr: x, .. }
        | Expr::IsNull(x)
        | Expr::IsNotNull(x)
        | Expr::IsTrue(x)
        | Expr::IsFalse(x) => columns_of(scope, x, out)?,
        Expr::Between {
            expr, low, high, ..
        } => {
            for x in [expr, low, high] {
                columns_of(scope, x, out)?;
            }
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            ..
        } => {
            columns_of(scope, expr, out)?;
            for x in list {
                columns_of(scope, x, out)?;
            }
        }
        Expr::Function(f) => {
            if let FunctionArguments::List(list) = &f.args {
                for a in &list.args {
                    if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a {
                        columns_of(scope, x, out)?;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}
