//! The rewrites that let a statement with `WITH`, a subquery in FROM,
//! `IN (SELECT …)` or `EXISTS` be designed as the plain join it means: the
//! inner query's filters merged into the statement's, the names its select
//! list gives, and the note that says what was rewritten.

use sqlparser::ast::{Expr, Select, SelectItem, SelectItemQualifiedWildcardKind};

use crate::error::{DesignError, DesignErrorKind};
use crate::relational::{Model, unquote};
use crate::select_spec::{SelectSpec, push_unique};
use crate::sql_scope::{ColRef, Scope};

/// A rewrite of a statement before it was designed: shown as a note at its
/// place, so that no rewrite is silent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// 1-based line and column in the query file.
    pub at: (usize, usize),
    pub message: String,
}

impl Rewrite {
    pub fn new(at: (usize, usize), message: String) -> Self {
        Rewrite { at, message }
    }
}

/// A query inlined or read as a join must return rows as they are: an
/// aggregate, a GROUP BY or a LIMIT inside it changes which rows the
/// statement sees, and no join expresses that.
pub(crate) fn check_inlinable(
    scope: &Scope,
    sub: &SelectSpec,
    what: &str,
    at: (usize, usize),
    instead: &str,
) -> Result<(), DesignError> {
    let reason = if !sub.aggregates.is_empty() || !sub.group_by.is_empty() {
        Some("aggregates rows")
    } else if sub.limit.is_some() {
        Some("keeps only the first rows (LIMIT)")
    } else if sub.ad_hoc.iter().any(|a| a.starts_with("HAVING")) {
        Some("filters groups (HAVING)")
    } else {
        None
    };
    match reason {
        Some(r) => Err(scope.err(
            DesignErrorKind::Unsupported,
            at,
            format!("{what} {r}, so it is not a join of rows and cannot be inlined: {instead}"),
        )),
        None => Ok(()),
    }
}

/// The names a query's select list gives its columns (`o.id AS order_id`
/// gives `order_id`; `*` every column of its tables and inlined queries).
/// Expressions that are not columns give no name the statement can read.
pub(crate) fn outputs(
    scope: &Scope,
    select: &Select,
) -> Result<Vec<(String, ColRef)>, DesignError> {
    let mut out = Vec::new();
    for item in &select.projection {
        match item {
            SelectItem::UnnamedExpr(e) => {
                if let (Some(c), Some(name)) = (scope.column(e)?, last_name(e)) {
                    out.push((name, c));
                }
            }
            SelectItem::ExprWithAlias { expr, alias } => {
                if let Some(c) = scope.column(expr)? {
                    out.push((unquote(&alias.to_string()), c));
                }
            }
            SelectItem::Wildcard(_) => {
                for (alias, _) in &scope.tables {
                    out.extend(table_outputs(scope, alias));
                }
                for d in &scope.derived {
                    out.extend(d.outputs.iter().cloned());
                }
            }
            SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(n), _) => {
                let alias = unquote(&n.to_string());
                match scope.derived.iter().find(|d| d.alias == alias) {
                    Some(d) => out.extend(d.outputs.iter().cloned()),
                    None => out.extend(table_outputs(scope, &alias)),
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn last_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Identifier(id) => Some(unquote(&id.to_string())),
        Expr::CompoundIdentifier(parts) => parts.last().map(|p| unquote(&p.to_string())),
        Expr::Nested(inner) => last_name(inner),
        _ => None,
    }
}

fn table_outputs(scope: &Scope, alias: &str) -> Vec<(String, ColRef)> {
    let entity = scope
        .tables
        .iter()
        .find(|(a, _)| a == alias)
        .and_then(|(_, e)| scope.model.entity(e));
    entity
        .map(|en| {
            en.attributes
                .iter()
                .map(|a| {
                    let c = ColRef {
                        entity: en.name.clone(),
                        column: a.name.clone(),
                    };
                    (a.name.clone(), c)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The inner query's tables, joins and filters become the statement's; its
/// select list, order and limit do not (the statement's own decide those).
pub(crate) fn merge_filters(spec: &mut SelectSpec, sub: SelectSpec) {
    for e in sub.entities {
        if !spec.entities.contains(&e) {
            spec.entities.push(e);
        }
    }
    for j in sub.joins {
        if !spec.joins.contains(&j) {
            spec.joins.push(j);
        }
    }
    spec.equalities.extend(sub.equalities);
    for c in sub.any_of {
        push_unique(&mut spec.any_of, c);
    }
    if spec.keyset.is_none() {
        spec.keyset = sub.keyset;
    }
    for c in sub.ranges {
        push_unique(&mut spec.ranges, c);
    }
    spec.range_ops.extend(sub.range_ops);
    spec.ad_hoc.extend(sub.ad_hoc);
}

/// What an inlined query reads, in a few words: its tables and what it binds.
pub(crate) fn describe(sub: &SelectSpec) -> String {
    let mut bound: Vec<String> = sub
        .equalities
        .iter()
        .map(|(c, _)| format!("{}.{} =", c.entity, c.column))
        .collect();
    bound.extend(
        sub.range_ops
            .iter()
            .map(|(c, op)| format!("{}.{} {op}", c.entity, c.column)),
    );
    bound.extend(sub.ad_hoc.iter().cloned());
    let tables = sub
        .entities
        .iter()
        .map(|e| format!("`{e}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if bound.is_empty() {
        format!("its read of {tables} joins the statement's")
    } else {
        format!(
            "its read of {tables} and its filters ({}) join the statement's",
            bound.join(", ")
        )
    }
}

/// The note of a semi-join read as a join: which equality, and whether the
/// join can repeat a row of the statement (the inner side is not a key).
pub(crate) fn semi_join_note(
    model: &Model,
    what: &str,
    links: &[(ColRef, ColRef)],
    sub: &SelectSpec,
) -> String {
    let pairs = links
        .iter()
        .map(|(a, b)| format!("{}.{} = {}.{}", a.entity, a.column, b.entity, b.column))
        .collect::<Vec<_>>()
        .join(" AND ");
    // The inner columns fixed per outer row: the join's, and those the
    // subquery binds to one value.
    let mut inner: Vec<&ColRef> = links
        .iter()
        .flat_map(|(a, b)| [a, b])
        .filter(|c| sub.entities.contains(&c.entity))
        .collect();
    inner.extend(
        sub.equalities
            .iter()
            .filter(|(_, n)| *n == 1)
            .map(|(c, _)| c),
    );
    let unique = inner.first().is_some_and(|c| {
        model.entity(&c.entity).is_some_and(|e| {
            e.keys().any(|k| {
                !k.is_empty()
                    && k.iter().all(|kc| {
                        inner
                            .iter()
                            .any(|i| i.entity == c.entity && i.column == *kc)
                    })
            })
        })
    });
    let rows = if unique {
        "each row matches at most one inner row, so the join returns the same rows"
    } else {
        "a row can match several inner rows: the table holds one row per match and the application keeps each result row once"
    };
    format!("{what} read as the join {pairs} (a semi-join): {rows}")
}

/// `NOT IN (SELECT …)` and `NOT EXISTS`: rows with no partner, which no
/// Cassandra key can list.
pub(crate) fn anti_join(
    scope: &Scope,
    at: (usize, usize),
    p: &Expr,
    outer: Option<&String>,
) -> DesignError {
    let construct = if matches!(p, Expr::Exists { .. }) {
        "NOT EXISTS (SELECT …)"
    } else {
        "NOT IN (SELECT …)"
    };
    let entity = outer.map_or("the outer table", String::as_str);
    scope.err(
        DesignErrorKind::Unsupported,
        at,
        format!(
            "{construct} is an anti-join (rows with no partner), which no Cassandra key can list: keep the answer as data on `{entity}` (a flag or a count of partners, set by the writes that add and remove them) and filter on it, or run the query off the OLTP path (@path analytics)"
        ),
    )
}
