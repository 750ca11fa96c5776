//! The meaning of one INSERT, UPDATE or DELETE of the query list: what it
//! writes, which row it names, and what PostgreSQL checked or computed for it
//! that Cassandra will not (a compare-and-set condition, an increment, a
//! conflict clause, a range of rows).

use serde::Serialize;
use sqlparser::ast::{
    AssignmentTarget, BinaryOperator, Expr, FromTable, OnConflictAction, OnInsert, SetExpr,
    Statement, TableObject, Value,
};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::{Entity, Model, object_name, unquote};
use crate::select::{ColRef, Scope, conjuncts};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MutationKind {
    #[default]
    Insert,
    Update,
    Delete,
}

impl MutationKind {
    pub fn verb(self) -> &'static str {
        match self {
            MutationKind::Insert => "insert",
            MutationKind::Update => "update",
            MutationKind::Delete => "delete",
        }
    }
}

/// A predicate on a column that is not part of the key the WHERE binds:
/// PostgreSQL changes the row only when it holds (`AND version = $2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Condition {
    pub column: String,
    /// The CQL comparison: `=`, `<`, `<=`, `>`, `>=`.
    pub op: String,
}

/// `ON CONFLICT` of an INSERT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conflict {
    /// `ON CONFLICT DO NOTHING`: the first writer wins.
    DoNothing,
    /// `ON CONFLICT (k) DO UPDATE`: the last writer wins (an upsert).
    DoUpdate,
}

/// A range predicate of a mutation that names no single row
/// (`DELETE … WHERE created_at < now() - interval '90 days'`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeBound {
    pub column: String,
    pub op: String,
    /// The age of the cutoff, when the SQL states it (`now() - interval '90 days'`).
    pub cutoff_seconds: Option<u64>,
}

/// An INSERT, UPDATE or DELETE on one entity.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MutationSpec {
    pub kind: MutationKind,
    pub entity: String,
    /// Inserted or assigned columns.
    pub columns: Vec<String>,
    /// Columns the WHERE binds by equality (UPDATE, DELETE): a key of the
    /// entity when it names one row, else whatever the equalities are.
    pub key: Vec<String>,
    /// Key columns bound by `= ANY($n)`: the statements run once per value.
    pub any_of: Vec<String>,
    /// Predicates beyond the key that names one row: a compare-and-set.
    pub conditions: Vec<Condition>,
    /// Columns assigned relative to their old value (`n = n + $1`).
    pub increments: Vec<String>,
    /// Columns assigned `coalesce($n, col)`: a patch, left as they are when
    /// the application gives no value.
    pub patch: Vec<String>,
    pub on_conflict: Option<Conflict>,
    /// Range predicates of a mutation that names many rows.
    pub ranges: Vec<RangeBound>,
    /// `UPDATE … FROM other` / `DELETE … USING other`: the read of `other`
    /// the application makes first, whose values and keys the write uses.
    pub read_first: Option<Box<ReadFirst>>,
}

/// The read an `UPDATE … FROM` or `DELETE … USING` makes before its write.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReadFirst {
    /// The name of the read in the query list (`<mutation>_read`), given
    /// when the mutation is named.
    pub name: String,
    /// The SQL of the read, as the application would run it.
    pub sql: String,
    pub select: crate::select::SelectSpec,
    /// The target's columns the read binds (through the join), and the
    /// columns whose new value it gives.
    pub binds: Vec<String>,
    pub values: Vec<String>,
}

/// Reads one mutation statement against the model.
pub(crate) fn mutation(
    model: &Model,
    statement: &Statement,
    at: (usize, usize),
) -> Result<MutationSpec, DesignError> {
    let mut scope = Scope::new(model, at, Source::Queries);
    let mut m = match statement {
        Statement::Insert(ins) => insert(model, &mut scope, ins)?,
        Statement::Update(up) => {
            if !up.table.joins.is_empty() || up.from.is_some() {
                return Err(unsupported(
                    &scope,
                    "UPDATE with joins or FROM is outside the supported SQL subset: read the other table first and UPDATE by this table's key with the value as a parameter",
                ));
            }
            let entity = scope.add_table(&up.table.relation)?;
            let mut m = MutationSpec {
                kind: MutationKind::Update,
                entity: entity.clone(),
                ..MutationSpec::default()
            };
            for a in &up.assignments {
                let AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(unsupported(&scope, "a tuple assignment"));
                };
                let column = check_column(&scope, &entity, &object_name(n))?;
                if relative_to_itself(&scope, &column, &a.value)? {
                    m.increments.push(column.clone());
                } else if keeps_itself_when_null(&column, &a.value) {
                    m.patch.push(column.clone());
                }
                m.columns.push(column);
            }
            read_where(&scope, up.selection.as_ref(), &mut m)?;
            m
        }
        Statement::Delete(del) => {
            let tables = match &del.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            let [one] = tables.as_slice() else {
                return Err(unsupported(&scope, "DELETE from several tables"));
            };
            if !one.joins.is_empty() || del.using.is_some() {
                return Err(unsupported(
                    &scope,
                    "DELETE with joins or USING is outside the supported SQL subset: read the keys from the other table first and DELETE by this table's key",
                ));
            }
            let entity = scope.add_table(&one.relation)?;
            let mut m = MutationSpec {
                kind: MutationKind::Delete,
                entity,
                ..MutationSpec::default()
            };
            read_where(&scope, del.selection.as_ref(), &mut m)?;
            m
        }
        _ => return Err(unsupported(&scope, "statement")),
    };
    m.columns.dedup();
    Ok(m)
}

/// An INSERT: its columns (all of the entity's when it names none) and its
/// `ON CONFLICT` clause.
fn insert(
    model: &Model,
    scope: &mut Scope,
    ins: &sqlparser::ast::Insert,
) -> Result<MutationSpec, DesignError> {
    let TableObject::TableName(name) = &ins.table else {
        return Err(unsupported(scope, "INSERT into a table function"));
    };
    let entity = object_name(name);
    scope.add_named(name, None)?;
    if let Some(src) = &ins.source
        && !matches!(src.body.as_ref(), SetExpr::Values(_))
    {
        return Err(unsupported(
            scope,
            "INSERT … SELECT is outside the supported SQL subset",
        ));
    }
    let mut columns = Vec::new();
    for c in &ins.columns {
        columns.push(check_column(scope, &entity, &unquote(&c.to_string()))?);
    }
    if columns.is_empty() {
        columns = model
            .entity(&entity)
            .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
            .unwrap_or_default();
    }
    let on_conflict = match &ins.on {
        Some(OnInsert::OnConflict(c)) => Some(match c.action {
            OnConflictAction::DoNothing => Conflict::DoNothing,
            OnConflictAction::DoUpdate(_) => Conflict::DoUpdate,
        }),
        Some(OnInsert::DuplicateKeyUpdate(_)) => Some(Conflict::DoUpdate),
        _ => None,
    };
    Ok(MutationSpec {
        kind: MutationKind::Insert,
        entity,
        columns,
        on_conflict,
        ..MutationSpec::default()
    })
}

pub(crate) fn unsupported(scope: &Scope, m: &str) -> DesignError {
    scope.err(DesignErrorKind::Unsupported, scope.at, m)
}

/// `n = n + $1`, `n = n - 1`, `n = 1 + n`: the new value depends on the old.
pub(crate) fn relative_to_itself(
    scope: &Scope,
    column: &str,
    value: &Expr,
) -> Result<bool, DesignError> {
    let Expr::BinaryOp { left, op, right } = strip(value) else {
        return Ok(false);
    };
    let is_self = |e: &Expr| -> Result<bool, DesignError> {
        Ok(scope.column(strip(e))?.is_some_and(|c| c.column == column))
    };
    Ok(match op {
        BinaryOperator::Plus => is_self(left)? || is_self(right)?,
        BinaryOperator::Minus => is_self(left)?,
        _ => false,
    })
}

/// `coalesce($1, col)` (any number of arguments, the column last): the
/// column keeps its value when the parameter is null.
pub(crate) fn keeps_itself_when_null(column: &str, value: &Expr) -> bool {
    let text = strip(value).to_string();
    let lower = text.to_ascii_lowercase();
    let Some(args) = lower
        .strip_prefix("coalesce(")
        .and_then(|r| r.strip_suffix(')'))
    else {
        return false;
    };
    let last = args.rsplit(',').next().unwrap_or_default().trim();
    let last = last.rsplit('.').next().unwrap_or_default();
    unquote(last) == column && args.contains(',')
}

fn strip(e: &Expr) -> &Expr {
    match e {
        Expr::Nested(inner) => strip(inner),
        other => other,
    }
}

/// One predicate of a mutation's WHERE, on a column of the entity.
enum Predicate {
    Equal(String),
    AnyOf(String),
    Range(RangeBound),
}

/// The WHERE: equalities name the row (a key of the entity) and the rest are
/// the compare-and-set's conditions; without a whole key, the equalities and
/// ranges name many rows.
fn read_where(
    scope: &Scope,
    selection: Option<&Expr>,
    m: &mut MutationSpec,
) -> Result<(), DesignError> {
    let Some(w) = selection else { return Ok(()) };
    read_predicates(scope, &conjuncts(w), &[], m)
}

/// The WHERE's conjuncts, and columns `bound` to a value read first (an
/// `UPDATE … FROM`'s join columns), as [`read_where`] reads them.
pub(crate) fn read_predicates(
    scope: &Scope,
    parts: &[&Expr],
    bound: &[String],
    m: &mut MutationSpec,
) -> Result<(), DesignError> {
    let mut predicates: Vec<Predicate> = bound.iter().cloned().map(Predicate::Equal).collect();
    for p in parts.iter().copied() {
        match predicate(scope, p)? {
            Some(x) => predicates.push(x),
            None if matches!(
                p,
                Expr::Exists { .. }
                    | Expr::Subquery(_)
                    | Expr::In {
                        target: sqlparser::ast::InTarget::Subquery(_),
                        ..
                    }
            ) =>
            {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    scope.pos(p),
                    "a subquery in a mutation's WHERE is outside the supported SQL subset: read the keys first (a query of its own, listed before) and write by key with `= ANY($n)` (or use UPDATE … FROM / DELETE … USING, which the designer reads that way)",
                ));
            }
            None => {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    scope.pos(p),
                    format!(
                        "`{p}` in a mutation's WHERE: only comparisons of a column with a value (`=`, `= ANY`, `<`, `<=`, `>`, `>=`) are supported"
                    ),
                ));
            }
        }
    }
    let equal: Vec<String> = predicates
        .iter()
        .filter_map(|p| match p {
            Predicate::Equal(c) | Predicate::AnyOf(c) => Some(c.clone()),
            Predicate::Range(_) => None,
        })
        .collect();
    m.any_of = predicates
        .iter()
        .filter_map(|p| match p {
            Predicate::AnyOf(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    let entity = scope.model.entity(&m.entity);
    let named_key = entity.and_then(|e| row_key(e, &equal));
    let Some(key) = named_key else {
        m.key = equal;
        m.ranges = predicates
            .into_iter()
            .filter_map(|p| match p {
                Predicate::Range(r) => Some(r),
                _ => None,
            })
            .collect();
        return Ok(());
    };
    for p in predicates {
        match p {
            Predicate::Equal(c) | Predicate::AnyOf(c) if !key.contains(&c) => {
                m.conditions.push(Condition {
                    column: c,
                    op: "=".into(),
                });
            }
            Predicate::Range(r) => m.conditions.push(Condition {
                column: r.column,
                op: r.op,
            }),
            _ => {}
        }
    }
    m.key = key;
    Ok(())
}

/// The primary key, else the first UNIQUE key, that the equalities bind whole.
fn row_key(e: &Entity, equal: &[String]) -> Option<Vec<String>> {
    e.keys()
        .find(|k| !k.is_empty() && k.iter().all(|c| equal.contains(c)))
        .cloned()
}

fn predicate(scope: &Scope, p: &Expr) -> Result<Option<Predicate>, DesignError> {
    match p {
        Expr::AnyOp {
            left,
            compare_op: BinaryOperator::Eq,
            ..
        } => Ok(scope.column(left)?.map(|c| Predicate::AnyOf(c.column))),
        Expr::BinaryOp { left, op, right } => {
            let op_text = match op {
                BinaryOperator::Eq => "=",
                BinaryOperator::Lt => "<",
                BinaryOperator::LtEq => "<=",
                BinaryOperator::Gt => ">",
                BinaryOperator::GtEq => ">=",
                _ => return Ok(None),
            };
            let (col, value, flipped) = match (scope.column(left)?, scope.column(right)?) {
                (Some(c), None) => (c, right.as_ref(), false),
                (None, Some(c)) => (c, left.as_ref(), true),
                _ => return Ok(None),
            };
            let ColRef { column, .. } = col;
            if op_text == "=" {
                return Ok(Some(Predicate::Equal(column)));
            }
            let op = if flipped { flip(op_text) } else { op_text };
            Ok(Some(Predicate::Range(RangeBound {
                column,
                op: op.to_string(),
                cutoff_seconds: cutoff_age(value),
            })))
        }
        _ => Ok(None),
    }
}

fn flip(op: &str) -> &'static str {
    match op {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        _ => "<=",
    }
}

/// `now() - interval '90 days'` (or `current_timestamp - …`): 90 days in seconds.
fn cutoff_age(e: &Expr) -> Option<u64> {
    let Expr::BinaryOp {
        left,
        op: BinaryOperator::Minus,
        right,
    } = strip(e)
    else {
        return None;
    };
    let now = match strip(left) {
        Expr::Function(f) => {
            let n = f.name.to_string().to_ascii_lowercase();
            n == "now" || n == "current_timestamp" || n == "localtimestamp"
        }
        Expr::Identifier(id) => id.value.eq_ignore_ascii_case("current_timestamp"),
        _ => false,
    };
    if !now {
        return None;
    }
    let Expr::Interval(i) = strip(right) else {
        return None;
    };
    let text = match i.value.as_ref() {
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) => s.clone(),
            other => other.to_string(),
        },
        other => other.to_string(),
    };
    let unit = i
        .leading_field
        .as_ref()
        .map(|f| f.to_string())
        .unwrap_or_default();
    interval_seconds(&format!("{text} {unit}"))
}

/// `90 days`, `1 hour`, `6 mons`, `1 year`: seconds (a month is 30 days).
pub(crate) fn interval_seconds(text: &str) -> Option<u64> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let mut total = 0u64;
    let mut i = 0;
    let mut any = false;
    while i < words.len() {
        let n: u64 = words.get(i)?.parse().ok()?;
        let unit = words.get(i + 1)?.trim_end_matches('s');
        let seconds = match unit {
            "second" | "sec" => 1,
            "minute" | "min" => 60,
            "hour" => 3_600,
            "day" => 86_400,
            "week" => 7 * 86_400,
            "month" | "mon" => 30 * 86_400,
            "year" => 365 * 86_400,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(seconds)?)?;
        any = true;
        i += 2;
    }
    any.then_some(total)
}

pub(crate) fn check_column(
    scope: &Scope,
    entity: &str,
    column: &str,
) -> Result<String, DesignError> {
    let known = scope
        .model
        .entity(entity)
        .is_some_and(|e| e.attribute(column).is_some());
    if known {
        Ok(column.to_string())
    } else {
        Err(scope.err(
            DesignErrorKind::UnknownColumn,
            scope.at,
            format!("unknown column `{column}` of `{entity}`"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::interval_seconds;

    #[test]
    fn intervals_in_seconds() {
        assert_eq!(interval_seconds("90 days"), Some(90 * 86_400));
        assert_eq!(interval_seconds("1 hour 30 minutes"), Some(5_400));
        assert_eq!(interval_seconds("6 mons"), Some(180 * 86_400));
        assert_eq!(interval_seconds("soon"), None);
    }
}
