//! The token window of a streaming parser: the tokens of the statement being
//! parsed (and a few past its end), lexed on demand and dropped once parsed,
//! so that memory follows the longest statement, not the file.
//!
//! The window is filled to the `;` that ends the statement at the cursor (for
//! `BEGIN BATCH`, the `;` after `APPLY BATCH`) plus [`LOOKAHEAD`] tokens. Should
//! a statement read past the window anyway (the parser asked for a token the
//! window does not hold yet), it is parsed again over a larger window, so the
//! result never depends on where the window ended.

use super::Parser;
use crate::Comment;
use crate::lexer::{Punct, TokenKind, TokenStream};

/// Tokens a rule may read past the `;` that ends its statement.
const LOOKAHEAD: usize = 8;

/// The lexer feeding a streaming parser.
pub(crate) struct Feed<'src> {
    stream: TokenStream<'src>,
    source: &'src str,
    /// End offset of the last token lexed (line breaks count from there).
    last_end: usize,
}

impl<'src> Feed<'src> {
    pub fn new(source: &'src str) -> Self {
        Self {
            stream: TokenStream::new(source),
            source,
            last_end: 0,
        }
    }

    pub fn into_comments(self) -> Vec<Comment> {
        self.stream.into_comments()
    }
}

impl Parser<'_> {
    /// Takes the comments lexed before `stmt` and returns those that
    /// annotate it: starting after `after` (the previous statement that
    /// parsed), and not before one of `broken` (the statements between that
    /// did not parse: their comments belong to them), as
    /// [`crate::ParseResult::statement_comments`] and the annotation reader
    /// see them in a whole file.
    pub(super) fn comments_before(
        &mut self,
        stmt: &crate::ast::Statement,
        after: u32,
        broken: &[crate::ast::Span],
    ) -> Vec<Comment> {
        let Some(feed) = &mut self.feed else {
            return Vec::new();
        };
        let lexed = feed.stream.take_comments_through(stmt.span.start);
        lexed
            .into_iter()
            .filter(|c| c.span.start >= after)
            .filter(|c| {
                // The first broken statement that ends after the comment
                // starts (they are in source order).
                let next = broken.partition_point(|b| b.end <= c.span.start);
                broken.get(next).is_none_or(|b| c.span.end > b.start)
            })
            .collect()
    }
}

impl Parser<'_> {
    /// Whether every token of the source is in `tokens`.
    pub(super) fn all_lexed(&self) -> bool {
        self.feed.as_ref().is_none_or(|f| f.stream.is_done())
    }

    /// Whether token `i` is one the parser may rely on: in the window, or
    /// past the end of the source (where the EOF token stands in).
    pub(super) fn holds(&self, i: usize) -> bool {
        i < self.tokens.len() || self.all_lexed()
    }

    /// Lexes until the window holds token `i` (or the source ends).
    fn lex_through(&mut self, i: usize) {
        let Some(feed) = &mut self.feed else {
            return;
        };
        while self.tokens.len() <= i && !feed.stream.is_done() {
            let from = self.tokens.len();
            feed.stream.pull(&mut self.tokens);
            for token in self.tokens.get(from..).unwrap_or_default() {
                let start = token.span.start as usize;
                let gap = feed
                    .source
                    .get(feed.last_end.min(start)..start)
                    .unwrap_or_default();
                self.line_breaks.push(gap.contains('\n'));
                feed.last_end = token.span.end as usize;
            }
        }
    }

    /// Doubles the window (at least 64 more tokens).
    pub(super) fn lex_more(&mut self) {
        let len = self.tokens.len();
        self.lex_through(len + len.max(64));
    }

    /// Before the next statement: drops the tokens parsed (all but the one
    /// before the cursor, which a rule may look back at) and lexes the next
    /// statement's tokens.
    pub(super) fn next_statement_window(&mut self) {
        if self.feed.is_none() {
            return;
        }
        let parsed = self.pos.saturating_sub(1);
        if parsed > 0 {
            self.tokens.drain(..parsed);
            self.line_breaks.drain(..parsed.min(self.line_breaks.len()));
            self.pos -= parsed;
        }
        let mut in_batch = false;
        let mut i = self.pos;
        loop {
            self.lex_through(i + LOOKAHEAD);
            let next_is_batch = matches!(
                self.tokens.get(i + 1).map(|t| &t.kind),
                Some(TokenKind::Word(w)) if w.eq_ignore_ascii_case("batch")
            );
            match self.tokens.get(i).map(|t| &t.kind) {
                None | Some(TokenKind::Eof) => return,
                Some(TokenKind::Punct(Punct::Semi)) if !in_batch => return,
                Some(TokenKind::Word(w)) if i == self.pos && w.eq_ignore_ascii_case("begin") => {
                    in_batch = true;
                }
                Some(TokenKind::Word(w)) if next_is_batch && w.eq_ignore_ascii_case("apply") => {
                    in_batch = false;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Parses with `parse` from the cursor; when it read past the window,
    /// parses again from the same place over a larger window.
    pub(super) fn within_window<T>(&mut self, mut parse: impl FnMut(&mut Self) -> T) -> T {
        let (pos, prev_end) = (self.pos, self.prev_end);
        loop {
            self.overran.set(false);
            let result = parse(self);
            if !self.overran.get() || self.all_lexed() {
                return result;
            }
            self.pos = pos;
            self.prev_end = prev_end;
            self.depth = 0;
            self.lex_more();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lexer::lex;
    use crate::parser::Parser;
    use proptest::prelude::*;

    /// Pieces that move a window's end: `;`, brackets, batches, cqlsh
    /// commands ended by a line break, comments and strings holding `;`.
    const PIECES: &[&str] = &[
        ";",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        "=",
        "\n",
        " ",
        "BEGIN",
        "BATCH",
        "APPLY",
        "UNLOGGED",
        "INSERT INTO ks.t (k, v) VALUES (1, 2)",
        "UPDATE ks.t SET v = 1 WHERE k = 1",
        "SELECT * FROM ks.t WHERE k IN (1, 2)",
        "SELECT",
        "FROM",
        "WHERE",
        "IF",
        "NOT",
        "EXISTS",
        "CREATE TABLE ks.t (k int PRIMARY KEY, v list<int>)",
        "USE ks",
        "CONSISTENCY QUORUM",
        "SOURCE 'x.cql'",
        "-- c ;\n",
        "/* ; */",
        "'a;b'",
        "$$ ; $$",
        "apply",
        "batch",
        "k",
    ];

    /// The streaming parser gives what the parser over all tokens gives,
    /// whatever the statements (batches, broken ones, cqlsh commands).
    fn same_as_whole(source: &str) {
        let whole = Parser::with_line_breaks(lex(source).tokens, source).parse_file();
        let mut streaming = Parser::streaming(source);
        let mut statements = Vec::new();
        let (errors, broken) = streaming.parse_statements(false, |s, _, _| statements.push(s));
        assert_eq!(statements, whole.0, "{source}");
        assert_eq!(errors.len(), whole.1.len(), "{source}");
        assert_eq!(broken.len(), whole.2.len(), "{source}");
        // Lexing on demand still finds every comment.
        assert_eq!(streaming.into_comments(), lex(source).comments);
    }

    /// Each statement is handed the comments the whole file's
    /// `statement_comments` places between the previous statement that
    /// parsed and it: what the annotation reader takes from a whole file.
    fn same_comments_as_whole(source: &str) {
        let whole = crate::parse(source);
        let kept = whole.statement_comments();
        let mut expected = Vec::new();
        let mut after = 0;
        for stmt in &whole.statements {
            let between: Vec<crate::Comment> = kept
                .iter()
                .filter(|c| c.span.start >= after && c.span.end <= stmt.span.start)
                .cloned()
                .collect();
            expected.push(between);
            after = stmt.span.end;
        }
        let mut handed = Vec::new();
        crate::parse_each_commented(source, |_, _, comments| handed.push(comments.to_vec()));
        assert_eq!(handed, expected, "{source}");
    }

    #[test]
    fn statements_parse_the_same_through_the_window() {
        for source in [
            "SELECT * FROM ks.t WHERE k = 1; SELECT v FROM ks.t;",
            "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (1, 2); UPDATE ks.t SET v = 3 WHERE k = 1; APPLY BATCH; SELECT * FROM ks.t;",
            "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (1, 2); SELECT * FROM ks.t;",
            "SELECT (a FROM t; SELECT * FROM t; CREATE TABLE ks.x (k int PRIMARY KEY);",
            "CREATE TABLE ks.t (k int PRIMARY KEY, m map<text, frozen<list<int>>>) WITH comment = 'a;b' AND compaction = {'class': 'LeveledCompactionStrategy'};",
            "-- @name q\nSELECT * FROM ks.t WHERE k IN (1, 2, 3) /* c */ ;;; USE ks;",
            "CONSISTENCY QUORUM\nSELECT * FROM ks.t WHERE k = 1;",
            "CREATE FUNCTION ks.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return a; $$;",
            "SELECT * FROM ks.t WHERE k = 'unterminated",
            "",
            ";;;",
        ] {
            same_as_whole(source);
            same_comments_as_whole(source);
        }
        // Comments before a broken statement stay with it; those inside the
        // previous statement annotate nothing.
        same_comments_as_whole(
            "-- @name a\nSELECT /* in */ * FROM t; -- @name broken\nSELEC x; -- @name b\nSELECT * FROM t;",
        );
    }

    proptest! {
        #[test]
        fn any_sequence_of_pieces_parses_the_same_through_the_window(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
        ) {
            same_as_whole(&pieces.join(" "));
        }

        #[test]
        fn each_statement_is_handed_the_comments_that_annotate_it(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
        ) {
            same_comments_as_whole(&pieces.join(" "));
        }
    }

    #[test]
    fn a_long_statement_reads_past_a_short_window() {
        let values: Vec<String> = (0..5_000).map(|i| i.to_string()).collect();
        same_as_whole(&format!(
            "SELECT * FROM ks.t WHERE k IN ({}); SELECT * FROM ks.t WHERE k = 1",
            values.join(", ")
        ));
    }
}
