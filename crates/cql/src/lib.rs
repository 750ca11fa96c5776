//! CQL syntax: lexer, parser and abstract syntax tree. Syntax only; meaning lives in
//! `cqlmodel-schema`.
//!
//! ```
//! use cqlmodel_cql::{ast::StatementKind, parse, parse_statement};
//!
//! let result = parse("-- @name q1\nSELECT * FROM ks.users WHERE id = ?; SELEC oops; USE ks;");
//! assert_eq!(result.statements.len(), 2); // the bad statement is skipped
//! assert_eq!(result.errors.len(), 1);
//! assert_eq!(result.comments[0].text, " @name q1");
//!
//! let stmt = parse_statement("select a AS x from t where k in (1, 2)").unwrap();
//! assert!(matches!(stmt.kind, StatementKind::Select(_)));
//! assert_eq!(stmt.to_string(), "SELECT a AS x FROM t WHERE k IN (1, 2)");
//! assert_eq!(parse_statement(&stmt.to_string()), Ok(stmt));
//! ```
//!
//! Grammar and keyword lists follow Apache Cassandra 5.0's `Lexer.g` / `Parser.g`.
//! Not parsed: roles, users, permissions, triggers, DESCRIBE and other
//! administrative statements (they yield an "unsupported" error).

pub mod ast;
mod display;
mod error;
pub mod keywords;
mod lexer;
mod parser;

pub use error::{ParseError, ParseErrorKind};

/// Everything [`parse`] found: the statements that parsed, the errors of those that
/// did not, and every comment (with its span) in source order.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseResult {
    pub statements: Vec<ast::Statement>,
    pub errors: Vec<ParseError>,
    pub comments: Vec<Comment>,
    /// The span of each statement that did not parse (cqlsh commands included).
    pub broken: Vec<ast::Span>,
}

impl ParseResult {
    /// The comments that precede a parsed statement: those before a broken
    /// statement (its `-- @name`, its `-- cqlmodel: allow(...)`) belong to it,
    /// and must not move onto the next statement that parsed.
    pub fn statement_comments(&self) -> Vec<Comment> {
        let spans: Vec<ast::Span> = self.statements.iter().map(|s| s.span).collect();
        comments_of_statements(&spans, &self.broken, &self.comments)
    }

    pub fn into_source_file(self) -> ast::SourceFile {
        ast::SourceFile {
            statements: self.statements,
        }
    }
}

/// The comments that precede a parsed statement (see
/// [`ParseResult::statement_comments`]), given the spans of the statements that
/// parsed and of those that did not.
fn comments_of_statements(
    statements: &[ast::Span],
    broken: &[ast::Span],
    comments: &[Comment],
) -> Vec<Comment> {
    let mut boundaries: Vec<(u32, u32, bool)> = statements
        .iter()
        .map(|s| (s.start, s.end, false))
        .chain(broken.iter().map(|b| (b.start, b.end, true)))
        .collect();
    boundaries.sort_unstable();
    let mut kept = Vec::with_capacity(comments.len());
    let mut next = 0;
    for c in comments {
        // The first statement or broken one that ends after the comment.
        while boundaries.get(next).is_some_and(|b| b.1 <= c.span.start) {
            next += 1;
        }
        let before_broken = boundaries
            .get(next)
            .is_some_and(|&(start, _, broken)| broken && c.span.end <= start);
        if !before_broken {
            kept.push(c.clone());
        }
    }
    kept
}

/// A `-- ...`, `// ...` or `/* ... */` comment. Comments carry query annotations
/// such as `-- @name q1 @rate 200/s`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The text without the comment markers and without the line break, untrimmed.
    pub text: String,
    /// The whole comment, markers included.
    pub span: ast::Span,
}

/// Parses a whole file of `;`-separated statements. Never fails: a statement with a
/// syntax error yields an error and parsing resumes after its terminating `;`.
pub fn parse(source: &str) -> ParseResult {
    let mut statements = Vec::new();
    let parsed = parse_each(source, |s, _| statements.push(s));
    ParseResult {
        statements,
        errors: parsed.errors,
        comments: parsed.comments,
        broken: parsed.broken,
    }
}

/// Everything [`parse_each`] found besides the statements it handed out.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseSummary {
    pub errors: Vec<ParseError>,
    pub comments: Vec<Comment>,
    /// The span of each statement that did not parse (cqlsh commands included).
    pub broken: Vec<ast::Span>,
    /// The span of each statement that parsed, in order.
    pub statements: Vec<ast::Span>,
}

impl ParseSummary {
    /// As [`ParseResult::statement_comments`].
    pub fn statement_comments(&self) -> Vec<Comment> {
        comments_of_statements(&self.statements, &self.broken, &self.comments)
    }
}

/// Parses a whole file as [`parse`] does, handing each statement that parsed
/// to `each` (with the errors found before it) instead of keeping them all:
/// memory follows the longest statement, not the file (a 10 MB file of
/// 300,000 statements would hold hundreds of MB of syntax trees).
pub fn parse_each(
    source: &str,
    mut each: impl FnMut(ast::Statement, &[ParseError]),
) -> ParseSummary {
    parse_streaming(source, false, |s, errors, _| each(s, errors))
}

/// [`parse_each`], handing each statement also the comments that annotate it
/// (`-- @name q1`): those after the previous statement that parsed, less
/// those before a statement that did not parse, which belong to it (see
/// [`ParseResult::statement_comments`]). A query list of 300,000 annotated
/// statements is read with one statement's comments in memory: every comment
/// up to the end of a statement handed out (the ones handed with it, and
/// those inside or before it) is taken out of the summary's `comments`, so
/// its [`ParseSummary::statement_comments`] covers only what is left.
pub fn parse_each_commented(
    source: &str,
    each: impl FnMut(ast::Statement, &[ParseError], &[Comment]),
) -> ParseSummary {
    parse_streaming(source, true, each)
}

/// The loop of [`parse_each`] and [`parse_each_commented`]; `commented`:
/// hand out (and take out) the comments.
fn parse_streaming(
    source: &str,
    commented: bool,
    mut each: impl FnMut(ast::Statement, &[ParseError], &[Comment]),
) -> ParseSummary {
    let mut parser = parser::Parser::streaming(source);
    let mut statements = Vec::new();
    let (errors, broken) = parser.parse_statements(commented, |s, errors, comments| {
        statements.push(s.span);
        each(s, errors, comments);
    });
    ParseSummary {
        errors,
        comments: parser.into_comments(),
        broken,
        statements,
    }
}

/// Parses exactly one statement, optionally followed by `;`.
pub fn parse_statement(source: &str) -> Result<ast::Statement, ParseError> {
    parser::Parser::new(lexer::lex(source).tokens).parse_single_statement()
}

/// Parses one data type, e.g. `map<text, frozen<list<int>>>`.
pub fn parse_data_type(source: &str) -> Result<ast::DataType, ParseError> {
    parser::Parser::new(lexer::lex(source).tokens).parse_single_data_type()
}

/// Parses one term, e.g. `{'a': [1, 2]}` or `toTimestamp(now())`.
pub fn parse_term(source: &str) -> Result<ast::Term, ParseError> {
    parser::Parser::new(lexer::lex(source).tokens).parse_single_term()
}
