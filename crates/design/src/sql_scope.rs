//! Names in a statement of the query list: which entity and attribute an
//! identifier means (through aliases, inlined queries and, for a correlated
//! subquery, the query around it), and whether a join follows the model's
//! foreign keys.

use sqlparser::ast::{Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Spanned, TableFactor};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::{Model, object_name, unquote};

/// An attribute of an entity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ColRef {
    pub entity: String,
    pub column: String,
}

/// A query inlined into the statement (a `WITH` query or a subquery in
/// FROM): the names its SELECT list gives, and the attributes they are.
#[derive(Debug, Clone)]
pub(crate) struct Derived {
    /// The name the statement reads it by (its alias, else the CTE's name).
    pub alias: String,
    pub outputs: Vec<(String, ColRef)>,
}

/// Resolves names against the statement's FROM list.
#[derive(Debug, Clone)]
pub(crate) struct Scope<'m> {
    pub model: &'m Model,
    /// (alias or table name, entity)
    pub tables: Vec<(String, String)>,
    /// Inlined queries read by name, like tables.
    pub derived: Vec<Derived>,
    /// The entities inlined queries read: a second read of one is a self-join.
    pub inlined: Vec<String>,
    /// The query a correlated subquery sits in: names this scope does not
    /// know are looked up there, as SQL does.
    pub outer: Option<Box<Scope<'m>>>,
    pub at: (usize, usize),
    pub source: Source,
}

impl<'m> Scope<'m> {
    pub fn new(model: &'m Model, at: (usize, usize), source: Source) -> Self {
        Scope {
            model,
            tables: Vec::new(),
            derived: Vec::new(),
            inlined: Vec::new(),
            outer: None,
            at,
            source,
        }
    }

    pub fn err(
        &self,
        kind: DesignErrorKind,
        at: (usize, usize),
        m: impl Into<String>,
    ) -> DesignError {
        DesignError::new(kind, self.source, at, m)
    }

    pub fn pos(&self, e: &impl Spanned) -> (usize, usize) {
        let s = e.span().start;
        if s.line == 0 {
            self.at
        } else {
            crate::split::in_file(self.at, (s.line as usize, s.column as usize))
        }
    }

    pub fn add_table(&mut self, factor: &TableFactor) -> Result<String, DesignError> {
        let TableFactor::Table { name, alias, .. } = factor else {
            return Err(self.err(
                DesignErrorKind::Unsupported,
                self.pos(factor),
                format!(
                    "`{factor}` in FROM is outside the supported subset: name a table of the model"
                ),
            ));
        };
        self.add_named(name, alias.as_ref())
    }

    pub fn add_named(
        &mut self,
        name: &sqlparser::ast::ObjectName,
        alias: Option<&sqlparser::ast::TableAlias>,
    ) -> Result<String, DesignError> {
        let entity = object_name(name);
        if self.model.entity(&entity).is_none() {
            return Err(self.err(
                DesignErrorKind::UnknownTable,
                self.pos(name),
                format!("unknown table `{entity}`: the model has no such table"),
            ));
        }
        // Join equalities are kept per table, not per alias: a second alias of
        // one table would be confused with the first.
        if self.tables.iter().any(|(_, e)| *e == entity) || self.inlined.contains(&entity) {
            return Err(self.err(
                DesignErrorKind::Unsupported,
                self.pos(name),
                format!(
                    "a self-join (`{entity}` twice) is outside the supported subset: list the two reads separately (e.g. the manager by id, then the people by manager_id)"
                ),
            ));
        }
        let key = alias.map_or_else(|| entity.clone(), |a| unquote(&a.name.to_string()));
        self.tables.push((key, entity.clone()));
        Ok(entity)
    }

    /// The attribute an identifier names, or `None` if the expression is not one.
    pub fn column(&self, e: &Expr) -> Result<Option<ColRef>, DesignError> {
        let (qualifier, column) = match e {
            Expr::Identifier(id) => (None, unquote(&id.to_string())),
            Expr::CompoundIdentifier(parts) => {
                let n = parts.len();
                match (parts.get(n.wrapping_sub(2)), parts.last()) {
                    (Some(q), Some(c)) => (Some(unquote(&q.to_string())), unquote(&c.to_string())),
                    _ => return Ok(None),
                }
            }
            Expr::Nested(inner) => return self.column(inner),
            _ => return Ok(None),
        };
        if let Some(q) = &qualifier
            && let Some(d) = self.derived.iter().find(|d| d.alias == *q)
        {
            return match d.outputs.iter().find(|(name, _)| *name == column) {
                Some((_, c)) => Ok(Some(c.clone())),
                None => Err(self.err(
                    DesignErrorKind::UnknownColumn,
                    self.pos(e),
                    format!("unknown column `{e}`: `{q}` gives no column `{column}`"),
                )),
            };
        }
        let mut candidates: Vec<ColRef> = self
            .tables
            .iter()
            .filter(|(alias, entity)| match &qualifier {
                Some(q) => q == alias || q == entity,
                None => true,
            })
            .map(|(_, entity)| entity)
            .filter(|entity| {
                self.model
                    .entity(entity)
                    .is_some_and(|en| en.attribute(&column).is_some())
            })
            .map(|entity| ColRef {
                entity: entity.clone(),
                column: column.clone(),
            })
            .collect();
        if qualifier.is_none() {
            for d in &self.derived {
                candidates.extend(
                    d.outputs
                        .iter()
                        .filter(|(name, _)| *name == column)
                        .map(|(_, c)| c.clone()),
                );
            }
        }
        candidates.dedup();
        match candidates.as_slice() {
            [one] => Ok(Some(one.clone())),
            [] => match &self.outer {
                Some(outer) => outer.column(e),
                None => Err(self.err(
                    DesignErrorKind::UnknownColumn,
                    self.pos(e),
                    format!("unknown column `{e}`: no table of the query has it"),
                )),
            },
            _ => Err(self.err(
                DesignErrorKind::UnknownColumn,
                self.pos(e),
                format!("column `{e}` is ambiguous: qualify it with its table"),
            )),
        }
    }

    /// True when the expression reads no column (a parameter, literal, `now()`).
    pub fn is_value(&self, e: &Expr) -> Result<bool, DesignError> {
        Ok(match e {
            Expr::Value(_) | Expr::TypedString { .. } | Expr::Interval(_) => true,
            // `CURRENT_DATE`-like keywords can come as identifiers of no table.
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => match self.column(e) {
                Ok(found) => found.is_none(),
                Err(_) if is_keyword_value(&e.to_string()) => true,
                Err(err) => return Err(err),
            },
            Expr::Cast { expr, .. } | Expr::Nested(expr) | Expr::UnaryOp { expr, .. } => {
                self.is_value(expr)?
            }
            Expr::BinaryOp { left, right, .. } => self.is_value(left)? && self.is_value(right)?,
            Expr::Function(f) => match &f.args {
                FunctionArguments::None => true,
                FunctionArguments::List(list) => {
                    let mut all = true;
                    for a in &list.args {
                        if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a {
                            all &= self.is_value(x)?;
                        }
                    }
                    all
                }
                FunctionArguments::Subquery(_) => false,
            },
            _ => false,
        })
    }
}

fn is_keyword_value(s: &str) -> bool {
    matches!(
        s.to_ascii_uppercase().as_str(),
        "CURRENT_DATE" | "CURRENT_TIMESTAMP" | "LOCALTIMESTAMP" | "NOW"
    )
}

/// Every join follows a foreign key between the two entities it connects.
pub(crate) fn check_joins(
    scope: &Scope,
    joins: &[(ColRef, ColRef)],
    conditions: &[Expr],
) -> Result<(), DesignError> {
    for (i, (a, b)) in joins.iter().enumerate() {
        let at = conditions.get(i).map_or(scope.at, |c| scope.pos(c));
        check_pair(scope, a, b, at)?;
    }
    Ok(())
}

/// Every entity after the first is reached by a join.
pub(crate) fn check_connected(
    scope: &Scope,
    joins: &[(ColRef, ColRef)],
    entities: &[String],
) -> Result<(), DesignError> {
    for e in entities.iter().skip(1) {
        if !joins.iter().any(|(a, b)| a.entity == *e || b.entity == *e) {
            return Err(scope.err(
                DesignErrorKind::NoForeignKeyPath,
                scope.at,
                format!("`{e}` is joined without a condition"),
            ));
        }
    }
    Ok(())
}

/// One join equality follows a foreign key, or joins two children of one parent.
pub(crate) fn check_pair(
    scope: &Scope,
    a: &ColRef,
    b: &ColRef,
    at: (usize, usize),
) -> Result<(), DesignError> {
    {
        let follows_fk = scope
            .model
            .links(&a.entity, &b.entity)
            .iter()
            .any(|(child, fk)| {
                let parent_cols = if fk.referenced.is_empty() {
                    scope
                        .model
                        .entity(&fk.table)
                        .map(|p| p.primary_key.clone())
                        .unwrap_or_default()
                } else {
                    fk.referenced.clone()
                };
                fk.columns.iter().zip(&parent_cols).any(|(c, p)| {
                    let child_side = ColRef {
                        entity: child.name.clone(),
                        column: c.clone(),
                    };
                    let parent_side = ColRef {
                        entity: fk.table.clone(),
                        column: p.clone(),
                    };
                    (*a == child_side && *b == parent_side)
                        || (*b == child_side && *a == parent_side)
                })
            });
        // Two children of one parent join through it (`posts.author_id = follows.followee_id`).
        let through_parent = shared_parent(scope.model, a, b);
        if !follows_fk && !through_parent {
            return Err(scope.err(
                DesignErrorKind::NoForeignKeyPath,
                at,
                format!(
                    "join `{}.{} = {}.{}` follows no foreign key of the model",
                    a.entity, a.column, b.entity, b.column
                ),
            ));
        }
    }
    Ok(())
}

fn shared_parent(model: &Model, a: &ColRef, b: &ColRef) -> bool {
    let target = |c: &ColRef| {
        model.entity(&c.entity).and_then(|e| {
            e.foreign_keys
                .iter()
                .find(|fk| fk.columns.len() == 1 && fk.columns.first() == Some(&c.column))
                .map(|fk| fk.table.clone())
        })
    };
    matches!((target(a), target(b)), (Some(x), Some(y)) if x == y)
}
