//! The query list: SQL statements over the model, each annotated in the comments
//! before it (`-- @name Q1 @rate 200/s @cl LOCAL_QUORUM @page 50`, the review's
//! syntax, read with the review's own functions).

use std::collections::HashSet;

use cqlmodel_cql::Comment;
use cqlmodel_cql::ast::Span;
use cqlmodel_review::annotations::{Annotations, annotations_for};
use cqlmodel_review::query::{CONSISTENCY_LEVELS, parse_rate};
use sqlparser::ast::Statement;

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::input_notes::InputNote;
use crate::mutations::mutation;
pub use crate::mutations::{Condition, Conflict, MutationKind, MutationSpec, RangeBound};
use crate::relational::{Model, parse_one, statement_kind};
use crate::select::{Rewrite, SelectSpec, analyze_select};
use crate::split::{Chunk, split_statements};

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
    /// `@page n`; `@page 0` says the application turns paging off (as in
    /// the review), and is passed on to queries.cql as such.
    pub page: Option<u64>,
    /// `@path admin|analytics|migration`: off the OLTP path by declaration.
    pub path: Option<String>,
    /// `@table name`: the name of the table serving the query.
    pub table: Option<String>,
    pub body: Body,
}

impl QuerySpec {
    /// The page size when the read is paged: `None` without `@page` and for
    /// `@page 0` (paging off: every row comes in one response).
    pub fn page_size(&self) -> Option<u64> {
        self.page.filter(|p| *p > 0)
    }
}

const PATHS: &[&str] = &["oltp", "admin", "analytics", "migration"];

/// Each statement's annotations, from the comments before it.
fn chunk_annotations(chunks: &[Chunk]) -> Vec<Annotations> {
    let mut comments = Vec::new();
    let mut spans = Vec::new();
    for c in chunks {
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
    annotations_for(&comments, &spans)
}

/// The transaction a `BEGIN` opens: its name (`T<ordinal>` unless named) and rate.
fn begin(
    ann: &Annotations,
    at: (usize, usize),
    ordinal: usize,
) -> Result<Transaction, DesignError> {
    let rate = ann
        .get("rate")
        .map(parse_rate)
        .transpose()
        .map_err(|e| annotation_error(at, e))?;
    let name = ann
        .name()
        .map_or_else(|| format!("T{ordinal}"), str::to_string);
    Ok(Transaction {
        name,
        line: at.0,
        rate,
        members: Vec::new(),
    })
}

pub fn parse_queries(model: &Model, text: &str) -> Result<QueryList, DesignError> {
    let chunks = split_statements(text);
    let annotations = chunk_annotations(&chunks);
    let mut list = QueryList::default();
    // The names of `list.specs`, for the duplicate check: a search of the
    // list per statement made a 10,000-statement list quadratic.
    let mut names: HashSet<String> = HashSet::new();
    let mut open: Option<Transaction> = None;
    for (i, (chunk, ann)) in chunks.iter().zip(annotations).enumerate() {
        let at = (chunk.line, chunk.column);
        // `BEGIN … COMMIT`: the statements between run as one transaction in
        // PostgreSQL; the fit verdict weighs what that asks of Cassandra.
        match transaction_boundary(chunk) {
            Some(Boundary::Begin) => {
                let t = begin(&ann, at, list.transactions.len() + 1)?;
                list.transactions.extend(open.replace(t));
                continue;
            }
            Some(Boundary::End) => {
                list.transactions.extend(open.take());
                continue;
            }
            None => {}
        }
        // A statement the designer cannot translate costs only itself: its
        // error is reported and the rest of the list is designed.
        let (body, rewrites) = match translate(model, chunk, at) {
            Ok(translated) => translated,
            Err(e) => {
                list.errors.push(e);
                continue;
            }
        };
        let mut q = annotate(i + 1, chunk.text.clone(), at, &ann, body)?;
        for r in rewrites {
            list.notes.push(InputNote::new(
                Source::Queries,
                "rewrite",
                r.at,
                format!("{}: {}", q.name, r.message),
            ));
        }
        // A statement of a transaction runs as often as the transaction.
        if let Some(t) = open.as_ref().filter(|_| q.rate.is_none()) {
            q.rate = t.rate;
        }
        if names.contains(&q.name) {
            return Err(annotation_error(
                at,
                format!("two queries are named `{}`", q.name),
            ));
        }
        if let Some(read) = read_first_query(&mut q) {
            list.notes.push(InputNote::new(
                Source::Queries,
                "rewrite",
                at,
                format!(
                    "{}: the other table is read first as `{}` ({}), designed as a read of its own; then the {} by the key it gives",
                    q.name,
                    read.name,
                    read.sql,
                    q.body_verb()
                ),
            ));
            if let Some(t) = open.as_mut() {
                t.members.push(read.name.clone());
            }
            names.insert(read.name.clone());
            list.specs.push(read);
        }
        if let Some(t) = open.as_mut() {
            t.members.push(q.name.clone());
        }
        names.insert(q.name.clone());
        list.specs.push(q);
    }
    // A transaction left open at the end of the list still groups its statements.
    list.transactions.extend(open);
    Ok(list)
}

/// `UPDATE … FROM` / `DELETE … USING`: the read of the other table the
/// application makes first, as a query of the list (`<name>_read`).
fn read_first_query(q: &mut QuerySpec) -> Option<QuerySpec> {
    let Body::Mutation(m) = &mut q.body else {
        return None;
    };
    let read = m.read_first.as_mut()?;
    read.name = format!("{}_read", q.name);
    Some(QuerySpec {
        name: read.name.clone(),
        sql: read.sql.clone(),
        line: q.line,
        column: q.column,
        rate: q.rate,
        consistency: q.consistency.clone(),
        page: None,
        path: q.path.clone(),
        table: None,
        body: Body::Select(read.select.clone()),
    })
}

impl QuerySpec {
    fn body_verb(&self) -> &'static str {
        match &self.body {
            Body::Mutation(m) => m.kind.verb(),
            Body::Select(_) => "read",
        }
    }
}

enum Boundary {
    Begin,
    End,
}

/// `BEGIN`, `START TRANSACTION` open a transaction; `COMMIT`, `END`,
/// `ROLLBACK` close it.
fn transaction_boundary(chunk: &Chunk) -> Option<Boundary> {
    match (chunk.keyword(0).as_str(), chunk.keyword(1).as_str()) {
        ("BEGIN", _) | ("START", "TRANSACTION") => Some(Boundary::Begin),
        ("COMMIT" | "END" | "ROLLBACK", _) => Some(Boundary::End),
        _ => None,
    }
}

/// Statements of the query list run together between `BEGIN` and `COMMIT`.
#[derive(Debug, Clone, PartialEq)]
pub struct Transaction {
    /// The `@name` before `BEGIN`, else `T<n>`.
    pub name: String,
    pub line: usize,
    /// The `@rate` before `BEGIN`: transactions per second.
    pub rate: Option<f64>,
    /// The names of its statements, in order.
    pub members: Vec<String>,
}

/// The statements the designer understood, and an error for each it could not
/// translate.
#[derive(Debug, Clone, Default)]
pub struct QueryList {
    pub specs: Vec<QuerySpec>,
    pub errors: Vec<DesignError>,
    /// `BEGIN … COMMIT` groups of `specs`.
    pub transactions: Vec<Transaction>,
    /// What was rewritten before a statement was designed (a `WITH` inlined,
    /// a subquery read as a join): info diagnostics.
    pub notes: Vec<InputNote>,
}

type Translated = (Body, Vec<Rewrite>);

fn translate(model: &Model, chunk: &Chunk, at: (usize, usize)) -> Result<Translated, DesignError> {
    // `?`, `:name` and `%(name)s` read as `$n`; a place found in the
    // rewritten text is moved back to where the user wrote it.
    let Some(numbered) = crate::sql_normalize::number_placeholders(&chunk.text) else {
        return translate_parsed(model, chunk, at);
    };
    let rewritten = Chunk {
        text: numbered.text.clone(),
        ..chunk.clone()
    };
    let original = |p: (usize, usize)| {
        crate::split::in_file(at, numbered.map.original(within_statement(at, p)))
    };
    match translate_parsed(model, &rewritten, at) {
        Ok((mut body, mut rewrites)) => {
            for r in &mut rewrites {
                r.at = original(r.at);
            }
            // The read made first is shown with the user's placeholders.
            if let Body::Mutation(m) = &mut body
                && let Some(read) = m.read_first.as_mut()
            {
                read.sql = numbered.restore(&read.sql);
            }
            Ok((body, rewrites))
        }
        Err(mut e) => {
            (e.line, e.column) = original((e.line, e.column));
            Err(e)
        }
    }
}

/// The inverse of [`crate::split::in_file`]: a file position as a 1-based
/// position within the statement that starts at `start`.
fn within_statement(start: (usize, usize), (line, column): (usize, usize)) -> (usize, usize) {
    if line <= start.0 {
        (1, (column + 1).saturating_sub(start.1).max(1))
    } else {
        (line - start.0 + 1, column)
    }
}

fn translate_parsed(
    model: &Model,
    chunk: &Chunk,
    at: (usize, usize),
) -> Result<Translated, DesignError> {
    let statement = parse_one(chunk, Source::Queries)?;
    match &statement {
        Statement::Query(q) => {
            let (spec, rewrites) = analyze_select(model, q, at)?;
            Ok((Body::Select(spec), rewrites))
        }
        Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) => {
            // A semi-join in the WHERE is the UPDATE … FROM / DELETE … USING
            // it means: read the other table first, then write by key.
            let mut rewrites = Vec::new();
            let statement = match crate::mutation_subquery::as_joined(&statement) {
                Some(joined) => {
                    let start = joined.span.start;
                    let place = if start.line == 0 {
                        at
                    } else {
                        crate::split::in_file(at, (start.line as usize, start.column as usize))
                    };
                    rewrites.push(Rewrite::new(place, joined.message));
                    joined.statement
                }
                None => statement,
            };
            let m = match crate::read_first::joined_mutation(model, &statement, at) {
                Some(read_first) => read_first?,
                None => mutation(model, &statement, at)?,
            };
            Ok((Body::Mutation(m), rewrites))
        }
        other => Err(DesignError::new(
            DesignErrorKind::Unsupported,
            Source::Queries,
            at,
            format!(
                "`{}` is outside the supported subset of a query list (SELECT, INSERT, UPDATE, DELETE)",
                statement_kind(other)
            ),
        )),
    }
}

fn annotation_error(at: (usize, usize), m: String) -> DesignError {
    DesignError::new(DesignErrorKind::Annotation, Source::Queries, at, m)
}

/// The same key twice with different values contradicts itself.
fn no_contradictions(ann: &Annotations, at: (usize, usize)) -> Result<(), DesignError> {
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
    Ok(())
}

/// `@cl`: one of Cassandra's consistency levels.
fn consistency(ann: &Annotations, at: (usize, usize)) -> Result<Option<String>, DesignError> {
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
    Ok(consistency)
}

/// `@page`: a whole number.
fn page_number(ann: &Annotations, at: (usize, usize)) -> Result<Option<u64>, DesignError> {
    let page = match ann.get("page") {
        None => None,
        Some(p) => match p.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return Err(annotation_error(
                    at,
                    format!("@page takes a whole number (0: paging off), got `{p}`"),
                ));
            }
        },
    };
    Ok(page)
}

/// A page is a read's, no larger than its LIMIT.
fn page_fits(page: Option<u64>, body: &Body, at: (usize, usize)) -> Result<(), DesignError> {
    if let Body::Mutation(m) = body
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
    if let (Body::Select(s), Some(p)) = (body, page)
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
    Ok(())
}

/// `@path`: admin, analytics or migration.
fn path(ann: &Annotations, at: (usize, usize)) -> Result<Option<String>, DesignError> {
    let path = ann.get("path").map(str::to_ascii_lowercase);
    if let Some(p) = &path
        && !PATHS.contains(&p.as_str())
    {
        return Err(annotation_error(
            at,
            format!("@path takes one of {}, got `{p}`", PATHS.join(", ")),
        ));
    }
    Ok(path)
}

/// `@table`: a CQL table name.
fn table_name(ann: &Annotations, at: (usize, usize)) -> Result<Option<String>, DesignError> {
    let table = ann
        .get("table")
        .filter(|t| !t.is_empty())
        .map(|t| t.to_ascii_lowercase());
    if let Some(t) = &table
        && (!t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || !t.starts_with(|c: char| c.is_ascii_alphabetic())
            || t.len() > crate::safe_names::MAX_NAME)
    {
        return Err(annotation_error(
            at,
            format!(
                "@table takes a CQL table name (a letter, then letters, digits or `_`, at most {} characters), got `{t}`",
                crate::safe_names::MAX_NAME
            ),
        ));
    }
    Ok(table)
}

fn annotate(
    ordinal: usize,
    sql: String,
    at: (usize, usize),
    ann: &Annotations,
    body: Body,
) -> Result<QuerySpec, DesignError> {
    no_contradictions(ann, at)?;
    let rate = ann
        .get("rate")
        .map(parse_rate)
        .transpose()
        .map_err(|e| annotation_error(at, e))?;
    let consistency = consistency(ann, at)?;
    let page = page_number(ann, at)?;
    let path = path(ann, at)?;
    page_fits(page, &body, at)?;
    let table = table_name(ann, at)?;
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
