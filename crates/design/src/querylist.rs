//! The query list: SQL statements over the model, each annotated in the comments
//! before it (`-- @name Q1 @rate 200/s @cl LOCAL_QUORUM @page 50`, the review's
//! syntax, read with the review's own functions).

use cqlmodel_cql::Comment;
use cqlmodel_cql::ast::Span;
use cqlmodel_review::annotations::{Annotations, annotations_for};
use cqlmodel_review::query::{CONSISTENCY_LEVELS, parse_rate};
use sqlparser::ast::{AssignmentTarget, Expr, FromTable, SetExpr, Statement, TableObject};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::{Model, object_name, parse_one, statement_kind, unquote};
use crate::select::{ColRef, Scope, SelectSpec, analyze_select, conjuncts};
use crate::split::split_statements;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MutationKind {
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

/// An INSERT, UPDATE or DELETE on one entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutationSpec {
    pub kind: MutationKind,
    pub entity: String,
    /// Inserted or assigned columns.
    pub columns: Vec<String>,
    /// Columns the WHERE binds by equality (UPDATE, DELETE).
    pub key: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Select(SelectSpec),
    Mutation(MutationSpec),
}

/// One statement of the query list.
#[derive(Debug, Clone, PartialEq)]
pub struct QuerySpec {
    /// `@name`, else `Q<n>` in file order.
    pub name: String,
    pub sql: String,
    pub line: usize,
    pub column: usize,
    /// Executions per second.
    pub rate: Option<f64>,
    pub consistency: Option<String>,
    pub page: Option<u64>,
    /// `@path admin|analytics|migration`: off the OLTP path by declaration.
    pub path: Option<String>,
    /// `@table name`: the name of the table serving the query.
    pub table: Option<String>,
    pub body: Body,
}

const PATHS: &[&str] = &["oltp", "admin", "analytics", "migration"];

pub fn parse_queries(model: &Model, text: &str) -> Result<Vec<QuerySpec>, DesignError> {
    let chunks = split_statements(text);
    let mut comments = Vec::new();
    let mut spans = Vec::new();
    for c in &chunks {
        for (body, s, e) in &c.comments {
            comments.push(Comment {
                text: body.clone(),
                span: Span {
                    start: *s as u32,
                    end: *e as u32,
                },
            });
        }
        spans.push(Span {
            start: c.start as u32,
            end: c.end as u32,
        });
    }
    let annotations = annotations_for(&comments, &spans);
    let mut out: Vec<QuerySpec> = Vec::new();
    for (i, (chunk, ann)) in chunks.iter().zip(annotations).enumerate() {
        let at = (chunk.line, chunk.column);
        let statement = parse_one(chunk, Source::Queries)?;
        let body = match &statement {
            Statement::Query(q) => Body::Select(analyze_select(model, q, at)?),
            Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) => {
                Body::Mutation(mutation(model, &statement, at)?)
            }
            other => {
                return Err(DesignError::new(
                    DesignErrorKind::Unsupported,
                    Source::Queries,
                    at,
                    format!(
                        "`{}` is outside the supported subset of a query list (SELECT, INSERT, UPDATE, DELETE)",
                        statement_kind(other)
                    ),
                ));
            }
        };
        let q = annotate(i + 1, chunk.text.clone(), at, &ann, body)?;
        if out.iter().any(|o| o.name == q.name) {
            return Err(annotation_error(
                at,
                format!("two queries are named `{}`", q.name),
            ));
        }
        out.push(q);
    }
    Ok(out)
}

fn annotation_error(at: (usize, usize), m: String) -> DesignError {
    DesignError::new(DesignErrorKind::Annotation, Source::Queries, at, m)
}

fn annotate(
    ordinal: usize,
    sql: String,
    at: (usize, usize),
    ann: &Annotations,
    body: Body,
) -> Result<QuerySpec, DesignError> {
    // The same key twice with different values contradicts itself.
    for (i, (k, v)) in ann.pairs.iter().enumerate() {
        if let Some((_, other)) = ann
            .pairs
            .iter()
            .skip(i + 1)
            .find(|(k2, v2)| k2 == k && v2 != v)
        {
            return Err(annotation_error(
                at,
                format!("contradictory annotations: @{k} {v} and @{k} {other}"),
            ));
        }
    }
    let rate = ann
        .get("rate")
        .map(parse_rate)
        .transpose()
        .map_err(|e| annotation_error(at, e))?;
    let consistency = ann.get("cl").map(str::to_ascii_uppercase);
    if let Some(cl) = &consistency
        && !CONSISTENCY_LEVELS.contains(&cl.as_str())
    {
        return Err(annotation_error(
            at,
            format!(
                "unknown consistency level `{cl}` in @cl (expected one of {})",
                CONSISTENCY_LEVELS.join(", ")
            ),
        ));
    }
    let page = match ann.get("page") {
        None => None,
        Some(p) => match p.parse::<u64>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                return Err(annotation_error(
                    at,
                    format!("@page takes a positive whole number, got `{p}`"),
                ));
            }
        },
    };
    let path = ann.get("path").map(str::to_ascii_lowercase);
    if let Some(p) = &path
        && !PATHS.contains(&p.as_str())
    {
        return Err(annotation_error(
            at,
            format!("@path takes one of {}, got `{p}`", PATHS.join(", ")),
        ));
    }
    if let Body::Mutation(m) = &body
        && page.is_some()
    {
        return Err(annotation_error(
            at,
            format!(
                "@page on an {}: only reads are paged",
                m.kind.verb().to_ascii_uppercase()
            ),
        ));
    }
    if let (Body::Select(s), Some(p)) = (&body, page)
        && s.limit.is_some_and(|l| l < p)
    {
        return Err(annotation_error(
            at,
            format!(
                "@page {p} contradicts LIMIT {}: a page larger than the limit",
                s.limit.unwrap_or(0)
            ),
        ));
    }
    let table = ann
        .get("table")
        .filter(|t| !t.is_empty())
        .map(|t| t.to_ascii_lowercase());
    if let Some(t) = &table
        && (!t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || !t.starts_with(|c: char| c.is_ascii_alphabetic())
            || t.len() > crate::derive::MAX_NAME)
    {
        return Err(annotation_error(
            at,
            format!(
                "@table takes a CQL table name (a letter, then letters, digits or `_`, at most {} characters), got `{t}`",
                crate::derive::MAX_NAME
            ),
        ));
    }
    Ok(QuerySpec {
        name: ann
            .name()
            .map_or_else(|| format!("Q{ordinal}"), str::to_string),
        sql,
        line: at.0,
        column: at.1,
        rate,
        consistency,
        page,
        path,
        table,
        body,
    })
}

fn mutation(
    model: &Model,
    statement: &Statement,
    at: (usize, usize),
) -> Result<MutationSpec, DesignError> {
    let mut scope = Scope {
        model,
        tables: Vec::new(),
        at,
        source: Source::Queries,
    };
    let unsupported = |scope: &Scope, m: String| scope.err(DesignErrorKind::Unsupported, at, m);
    let (kind, entity, columns, selection) = match statement {
        Statement::Insert(ins) => {
            let TableObject::TableName(name) = &ins.table else {
                return Err(unsupported(&scope, "INSERT into a table function".into()));
            };
            let entity = object_name(name);
            scope.add_named(name, None)?;
            if let Some(src) = &ins.source
                && !matches!(src.body.as_ref(), SetExpr::Values(_))
            {
                return Err(unsupported(
                    &scope,
                    "INSERT … SELECT is outside the supported SQL subset".into(),
                ));
            }
            let mut cols = Vec::new();
            for c in &ins.columns {
                cols.push(check_column(&scope, &entity, &unquote(&c.to_string()))?);
            }
            if cols.is_empty() {
                cols = model
                    .entity(&entity)
                    .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
                    .unwrap_or_default();
            }
            (MutationKind::Insert, entity, cols, None)
        }
        Statement::Update(up) => {
            if !up.table.joins.is_empty() || up.from.is_some() {
                return Err(unsupported(
                    &scope,
                    "UPDATE with joins or FROM is outside the supported SQL subset".into(),
                ));
            }
            let entity = scope.add_table(&up.table.relation)?;
            let mut cols = Vec::new();
            for a in &up.assignments {
                let AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(unsupported(&scope, "a tuple assignment".into()));
                };
                cols.push(check_column(&scope, &entity, &object_name(n))?);
            }
            (MutationKind::Update, entity, cols, up.selection.clone())
        }
        Statement::Delete(del) => {
            let tables = match &del.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            let [one] = tables.as_slice() else {
                return Err(unsupported(&scope, "DELETE from several tables".into()));
            };
            if !one.joins.is_empty() || del.using.is_some() {
                return Err(unsupported(
                    &scope,
                    "DELETE with joins or USING is outside the supported SQL subset".into(),
                ));
            }
            let entity = scope.add_table(&one.relation)?;
            (
                MutationKind::Delete,
                entity,
                Vec::new(),
                del.selection.clone(),
            )
        }
        _ => return Err(unsupported(&scope, "statement".into())),
    };
    let mut key = Vec::new();
    if let Some(w) = &selection {
        for p in conjuncts(w) {
            let col = match p {
                Expr::BinaryOp {
                    left,
                    op: sqlparser::ast::BinaryOperator::Eq,
                    right,
                } => match (scope.column(left)?, scope.column(right)?) {
                    (Some(c), None) | (None, Some(c)) => Some(c),
                    _ => None,
                },
                _ => None,
            };
            match col {
                Some(ColRef { column, .. }) => key.push(column),
                None => {
                    return Err(scope.err(
                        DesignErrorKind::Unsupported,
                        scope.pos(p),
                        format!(
                            "`{p}` in a mutation's WHERE: only equalities on columns are supported"
                        ),
                    ));
                }
            }
        }
    }
    Ok(MutationSpec {
        kind,
        entity,
        columns,
        key,
    })
}

fn check_column(scope: &Scope, entity: &str, column: &str) -> Result<String, DesignError> {
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
