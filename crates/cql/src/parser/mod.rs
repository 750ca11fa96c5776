//! Recursive-descent parser over the token list. This module holds the token
//! cursor, error helpers, statement dispatch and error recovery; each statement
//! family lives in its own module.

mod access;
mod common;
mod ddl;
mod dml;
mod expr;
mod recovery;
mod shell;
mod types;
mod window;

use crate::ast::{Span, Statement, StatementKind};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Punct, Token, TokenKind};

pub(crate) type PResult<T> = Result<T, ParseError>;

/// Deeper nesting (of terms, types, selectors, relations) is an error rather than a
/// risk of overflowing the stack.
pub(crate) const MAX_DEPTH: u32 = 128;

pub(crate) struct Parser<'src> {
    /// The tokens lexed and not yet dropped: all of them, or for a streaming
    /// parser a window around the statement being parsed ([`window`]).
    tokens: Vec<Token>,
    pos: usize,
    depth: u32,
    eof: Token,
    /// End offset of the last consumed token, for node spans.
    prev_end: u32,
    /// Per token of `tokens`, whether a line break comes before it; only
    /// filled when the source is known (`line_aware`).
    line_breaks: Vec<bool>,
    /// Whether the parser knows where lines break, so that cqlsh shell
    /// commands end at their line as in cqlsh.
    line_aware: bool,
    /// Where more tokens come from, for a streaming parser.
    feed: Option<window::Feed<'src>>,
    /// Set when a rule asked for a token past the window (then the
    /// statement is parsed again over a larger one).
    overran: std::cell::Cell<bool>,
}

impl Parser<'static> {
    pub fn new(tokens: Vec<Token>) -> Self {
        let end = tokens.last().map_or(0, |t| t.span.end);
        Self::at_start(tokens, end, None)
    }
}

impl Parser<'static> {
    /// A parser over all of `source`'s tokens that knows where its lines
    /// break: what [`Parser::streaming`] must agree with.
    #[cfg(test)]
    pub fn with_line_breaks(tokens: Vec<Token>, source: &str) -> Self {
        let line_breaks = shell::line_breaks(source, &tokens);
        Self {
            line_breaks,
            line_aware: true,
            ..Self::new(tokens)
        }
    }
}

impl<'src> Parser<'src> {
    /// A parser that lexes `source` as it goes and knows where its lines
    /// break (cqlsh commands end at their line, as in cqlsh).
    pub fn streaming(source: &'src str) -> Self {
        let end = u32::try_from(source.len()).unwrap_or(u32::MAX);
        Self {
            line_aware: true,
            ..Self::at_start(Vec::new(), end, Some(window::Feed::new(source)))
        }
    }

    /// A parser before its first token, whose end of input is at `end`;
    /// `feed` lexes more tokens on demand (streaming) when given.
    fn at_start(tokens: Vec<Token>, end: u32, feed: Option<window::Feed<'src>>) -> Self {
        Self {
            tokens,
            pos: 0,
            depth: 0,
            eof: Token {
                kind: TokenKind::Eof,
                span: Span { start: end, end },
            },
            prev_end: 0,
            line_breaks: Vec::new(),
            line_aware: false,
            feed,
            overran: std::cell::Cell::new(false),
        }
    }

    /// The comments of the source, once [`Self::parse_statements`] has run.
    pub fn into_comments(self) -> Vec<crate::Comment> {
        self.feed
            .map(window::Feed::into_comments)
            .unwrap_or_default()
    }
}

impl Parser<'_> {
    // ----- entry points -------------------------------------------------------

    /// Hands each statement that parsed to `each` (with the errors found so
    /// far) and returns the errors and the span of each statement that did not
    /// parse (from its first token to the last one skipped), so that the
    /// comments before a broken statement stay with it. `commented`: hand
    /// each statement also the comments that annotate it (those between the
    /// end of the previous statement that parsed and its start, less those
    /// before a statement that did not parse: they belong to it); the
    /// comments handed out are not kept.
    pub(crate) fn parse_statements(
        &mut self,
        commented: bool,
        mut each: impl FnMut(Statement, &[ParseError], &[crate::Comment]),
    ) -> (Vec<ParseError>, Vec<Span>) {
        let mut errors = Vec::new();
        let mut broken = Vec::new();
        // The end of the last statement handed out, and the broken ones since.
        let mut handed_end = 0u32;
        let mut broken_since = 0usize;
        loop {
            self.next_statement_window();
            if self.eat_punct(Punct::Semi) {
                continue;
            }
            if self.at_eof() {
                break;
            }
            if let Some(command) = self.shell_command() {
                broken.push(command.span);
                errors.push(command);
                continue;
            }
            let start = self.pos;
            let result = self.within_window(|p| {
                p.statement()
                    .and_then(|stmt| p.expect_statement_end().map(|()| stmt))
            });
            match result {
                Ok(stmt) => {
                    let comments = if commented {
                        let since = broken.get(broken_since..).unwrap_or_default();
                        self.comments_before(&stmt, handed_end, since)
                    } else {
                        Vec::new()
                    };
                    handed_end = stmt.span.end;
                    broken_since = broken.len();
                    each(stmt, &errors, &comments);
                }
                Err(error) => {
                    self.depth = 0;
                    self.recover(start, error, &mut errors);
                    broken.push(self.skipped_span(start));
                }
            }
        }
        (errors, broken)
    }

    /// [`Self::parse_statements`], collecting the statements.
    #[cfg(test)]
    pub fn parse_file(mut self) -> (Vec<Statement>, Vec<ParseError>, Vec<Span>) {
        let mut statements = Vec::new();
        let (errors, broken) = self.parse_statements(false, |s, _, _| statements.push(s));
        (statements, errors, broken)
    }

    /// The span from token `start` to the last token before the cursor.
    fn skipped_span(&self, start: usize) -> Span {
        let first = self
            .tokens
            .get(start)
            .map_or(self.eof.span.start, |t| t.span.start);
        let last = self
            .tokens
            .get(self.pos.saturating_sub(1).max(start))
            .map_or(first, |t| t.span.end);
        Span {
            start: first,
            end: last.max(first),
        }
    }

    pub fn parse_single_statement(mut self) -> PResult<Statement> {
        let stmt = self.statement()?;
        self.eat_punct(Punct::Semi);
        self.expect_eof()?;
        Ok(stmt)
    }

    pub fn parse_single_data_type(mut self) -> PResult<crate::ast::DataType> {
        let ty = self.data_type()?;
        self.expect_eof()?;
        Ok(ty)
    }

    pub fn parse_single_term(mut self) -> PResult<crate::ast::Term> {
        let term = self.term()?;
        self.expect_eof()?;
        Ok(term)
    }

    fn expect_statement_end(&mut self) -> PResult<()> {
        if self.at_punct(Punct::Semi) || self.at_eof() {
            Ok(())
        } else {
            Err(self.unexpected(&["';'"]))
        }
    }

    fn expect_eof(&mut self) -> PResult<()> {
        if self.at_eof() {
            Ok(())
        } else {
            Err(self.unexpected(&["end of input"]))
        }
    }

    // ----- statements -----------------------------------------------------------

    pub(crate) fn statement(&mut self) -> PResult<Statement> {
        let start = self.peek().span.start;
        let kind = self.statement_kind()?;
        Ok(Statement {
            kind,
            span: self.span_from(start),
        })
    }

    fn statement_kind(&mut self) -> PResult<StatementKind> {
        let word = match &self.peek().kind {
            TokenKind::Word(w) => w.to_ascii_lowercase(),
            _ => return Err(self.unexpected(&["statement"])),
        };
        match word.as_str() {
            "select" => self.select().map(StatementKind::Select),
            "insert" => self.insert().map(StatementKind::Insert),
            "update" => self.update().map(StatementKind::Update),
            "delete" => self.delete().map(StatementKind::Delete),
            "begin" => self.batch().map(StatementKind::Batch),
            "use" => {
                self.bump();
                self.ident().map(StatementKind::Use)
            }
            "truncate" => {
                self.bump();
                if self.at_word("table") || self.at_word("columnfamily") {
                    self.bump();
                }
                self.qualified_name_expecting("table name")
                    .map(StatementKind::Truncate)
            }
            "create" => self.create(),
            "alter" => self.alter(),
            "drop" => self.drop_statement(),
            "grant" => self.grant(),
            "revoke" => self.revoke(),
            "list" => self.list(),
            "add" if self.nth_is_word(1, "identity") => self.add_identity(),
            "describe" | "desc" => Err(self.unsupported(None)),
            _ => Err(self.unexpected(&[
                "SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN", "CREATE", "ALTER", "DROP", "USE",
                "TRUNCATE",
            ])),
        }
    }

    fn create(&mut self) -> PResult<StatementKind> {
        self.expect_word("create")?;
        if self.at_word("keyspace") || self.at_word("schema") {
            return self.create_keyspace().map(StatementKind::CreateKeyspace);
        }
        if self.at_word("table") || self.at_word("columnfamily") {
            return self.create_table().map(StatementKind::CreateTable);
        }
        if self.at_word("type") {
            return self.create_type().map(StatementKind::CreateType);
        }
        if self.at_word("index") || self.at_word("custom") {
            return self.create_index().map(StatementKind::CreateIndex);
        }
        if self.at_word("materialized") {
            return self
                .create_materialized_view()
                .map(StatementKind::CreateMaterializedView);
        }
        if self.at_word("or") || self.at_word("function") || self.at_word("aggregate") {
            return self.create_function_or_aggregate();
        }
        if ["trigger", "role", "user"].iter().any(|w| self.at_word(w)) {
            return self.create_access();
        }
        Err(self.unexpected(&[
            "KEYSPACE",
            "TABLE",
            "TYPE",
            "INDEX",
            "CUSTOM INDEX",
            "MATERIALIZED VIEW",
            "FUNCTION",
            "AGGREGATE",
        ]))
    }

    fn alter(&mut self) -> PResult<StatementKind> {
        self.expect_word("alter")?;
        if self.at_word("keyspace") || self.at_word("schema") {
            return self.alter_keyspace().map(StatementKind::AlterKeyspace);
        }
        if self.at_word("table") || self.at_word("columnfamily") {
            return self.alter_table().map(StatementKind::AlterTable);
        }
        if self.at_word("type") {
            return self.alter_type().map(StatementKind::AlterType);
        }
        if self.at_word("materialized") {
            return self
                .alter_materialized_view()
                .map(StatementKind::AlterMaterializedView);
        }
        if ["role", "user"].iter().any(|w| self.at_word(w)) {
            return self.alter_access();
        }
        Err(self.unexpected(&["KEYSPACE", "TABLE", "TYPE", "MATERIALIZED VIEW"]))
    }

    fn drop_statement(&mut self) -> PResult<StatementKind> {
        self.expect_word("drop")?;
        if self.at_word("keyspace") || self.at_word("schema") {
            self.bump();
            return self
                .drop_object("keyspace name", false)
                .map(StatementKind::DropKeyspace);
        }
        if self.at_word("table") || self.at_word("columnfamily") {
            self.bump();
            return self
                .drop_object("table name", false)
                .map(StatementKind::DropTable);
        }
        if self.eat_word("type") {
            return self
                .drop_object("type name", false)
                .map(StatementKind::DropType);
        }
        if self.eat_word("index") {
            return self
                .drop_object("index name", false)
                .map(StatementKind::DropIndex);
        }
        if self.eat_word("materialized") {
            self.expect_word("view")?;
            return self
                .drop_object("view name", false)
                .map(StatementKind::DropMaterializedView);
        }
        if self.eat_word("function") {
            return self
                .drop_object("function name", true)
                .map(StatementKind::DropFunction);
        }
        if self.eat_word("aggregate") {
            return self
                .drop_object("aggregate name", true)
                .map(StatementKind::DropAggregate);
        }
        if ["trigger", "role", "user", "identity"]
            .iter()
            .any(|w| self.at_word(w))
        {
            return self.drop_access();
        }
        Err(self.unexpected(&[
            "KEYSPACE",
            "TABLE",
            "TYPE",
            "INDEX",
            "MATERIALIZED VIEW",
            "FUNCTION",
            "AGGREGATE",
        ]))
    }

    // ----- token cursor ------------------------------------------------------------

    pub(crate) fn peek(&self) -> &Token {
        self.nth(0)
    }

    pub(crate) fn nth(&self, n: usize) -> &Token {
        if !self.holds(self.pos + n) {
            self.overran.set(true);
        }
        self.tokens.get(self.pos + n).unwrap_or(&self.eof)
    }

    pub(crate) fn bump(&mut self) -> Token {
        let token = self.peek().clone();
        if !matches!(token.kind, TokenKind::Eof) {
            self.pos += 1;
            self.prev_end = token.span.end;
        }
        token
    }

    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Eof)
    }

    /// The span from `start` to the end of the last consumed token.
    pub(crate) fn span_from(&self, start: u32) -> Span {
        Span {
            start,
            end: self.prev_end.max(start),
        }
    }

    pub(crate) fn nth_is_word(&self, n: usize, kw: &str) -> bool {
        matches!(&self.nth(n).kind, TokenKind::Word(w) if w.eq_ignore_ascii_case(kw))
    }

    pub(crate) fn at_word(&self, kw: &str) -> bool {
        self.nth_is_word(0, kw)
    }

    pub(crate) fn eat_word(&mut self, kw: &str) -> bool {
        let found = self.at_word(kw);
        if found {
            self.bump();
        }
        found
    }

    pub(crate) fn expect_word(&mut self, kw: &str) -> PResult<Span> {
        if self.at_word(kw) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&[&kw.to_ascii_uppercase()]))
        }
    }

    /// Consumes a sequence of keywords, e.g. `["if", "not", "exists"]`, when all are
    /// present; otherwise consumes nothing.
    pub(crate) fn eat_words(&mut self, kws: &[&str]) -> bool {
        let all = kws
            .iter()
            .enumerate()
            .all(|(i, kw)| self.nth_is_word(i, kw));
        if all {
            for _ in kws {
                self.bump();
            }
        }
        all
    }

    pub(crate) fn nth_is_punct(&self, n: usize, p: Punct) -> bool {
        self.nth(n).kind == TokenKind::Punct(p)
    }

    pub(crate) fn at_punct(&self, p: Punct) -> bool {
        self.nth_is_punct(0, p)
    }

    pub(crate) fn eat_punct(&mut self, p: Punct) -> bool {
        let found = self.at_punct(p);
        if found {
            self.bump();
        }
        found
    }

    pub(crate) fn expect_punct(&mut self, p: Punct) -> PResult<Span> {
        if self.at_punct(p) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&[&p.quoted()]))
        }
    }

    /// `item (',' item)*`.
    pub(crate) fn comma_separated<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = vec![item(self)?];
        while self.eat_punct(Punct::Comma) {
            items.push(item(self)?);
        }
        Ok(items)
    }

    /// `'(' [item (',' item)*] ')'`.
    pub(crate) fn parenthesized_list<T>(
        &mut self,
        item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        self.expect_punct(Punct::LParen)?;
        if self.eat_punct(Punct::RParen) {
            return Ok(Vec::new());
        }
        let items = self.comma_separated(item)?;
        self.expect_punct(Punct::RParen)?;
        Ok(items)
    }

    /// Runs `f` one nesting level deeper, failing past [`MAX_DEPTH`].
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(
                ParseErrorKind::NestingTooDeep { limit: MAX_DEPTH },
                self.peek().span,
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Tries `f`; on failure rewinds to where it started and returns `Ok(None)`.
    /// Used where CQL needs more lookahead than one token (type hints versus
    /// tuples, `SELECT json ...` versus a column named `json`). Running out of
    /// nesting depth is not a reason to try the other reading, so that error passes
    /// through.
    pub(crate) fn attempt<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<Option<T>> {
        let (pos, depth, prev_end) = (self.pos, self.depth, self.prev_end);
        match f(self) {
            Ok(value) => Ok(Some(value)),
            Err(error) if matches!(error.kind, ParseErrorKind::NestingTooDeep { .. }) => Err(error),
            Err(_) => {
                self.pos = pos;
                self.depth = depth;
                self.prev_end = prev_end;
                Ok(None)
            }
        }
    }

    // ----- errors ---------------------------------------------------------------------

    /// An error for the current token, which is none of `expected`.
    pub(crate) fn unexpected(&self, expected: &[&str]) -> ParseError {
        let token = self.peek();
        let expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        let kind = match &token.kind {
            TokenKind::Error(kind) => kind.clone(),
            // Point just past the last token rather than at trailing blank lines.
            TokenKind::Eof => {
                let at = self.prev_end.min(token.span.start);
                return ParseError::new(
                    ParseErrorKind::UnexpectedEof { expected },
                    Span { start: at, end: at },
                );
            }
            other => ParseErrorKind::UnexpectedToken {
                expected,
                found: other.describe(),
            },
        };
        ParseError::new(kind, token.span)
    }

    /// An error naming the unsupported statement: `prefix` (already consumed) and
    /// the current keyword.
    fn unsupported(&self, prefix: Option<&str>) -> ParseError {
        let token = self.peek();
        let word = match &token.kind {
            TokenKind::Word(w) => w.to_ascii_uppercase(),
            other => other.describe(),
        };
        let statement = match prefix {
            Some(prefix) => format!("{prefix} {word}"),
            None => word,
        };
        ParseError::new(
            ParseErrorKind::UnsupportedStatement { statement },
            token.span,
        )
    }
}
