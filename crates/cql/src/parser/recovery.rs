//! Error recovery: after a bad statement, skip to its end so that the statements
//! after it still parse.

use super::Parser;
use crate::error::ParseError;
use crate::lexer::{Punct, TokenKind};

/// Keywords that open a statement; a `;` before one of them ends the bad statement
/// even when brackets are left open.
const STATEMENT_STARTS: &[&str] = &[
    "select", "insert", "update", "delete", "begin", "create", "alter", "drop", "use", "truncate",
    "grant", "revoke", "list", "describe", "desc",
];

/// Statements allowed inside `BEGIN BATCH ... APPLY BATCH`.
const BATCH_MEMBERS: &[&str] = &["insert", "update", "delete", "apply"];

impl Parser<'_> {
    /// Records `error` for the statement that began at token index `start`, then
    /// moves to the `;` ending that statement (or to the end of input).
    ///
    /// The end is the first `;` after the error at bracket depth 0. Inside
    /// `BEGIN BATCH` the `;` between member statements do not count until
    /// `APPLY BATCH`, unless a `;` is followed by a statement a batch cannot hold
    /// (the batch was never closed). With brackets left open, a `;` followed by a
    /// statement keyword still ends the statement. `$$...$$` bodies are single
    /// tokens, so their `;` are never seen here.
    pub(super) fn recover(
        &mut self,
        start: usize,
        error: ParseError,
        errors: &mut Vec<ParseError>,
    ) {
        let end = loop {
            match self.statement_end(start) {
                Some(end) => break end,
                None => self.lex_more(),
            }
        };
        let mut found = vec![error.clone()];
        // Lexing errors in the skipped text are reported too, once each.
        for token in self.tokens.get(start..end).unwrap_or_default() {
            if let TokenKind::Error(kind) = &token.kind {
                // Spans compare equal by design; compare offsets.
                let reported = (token.span.range() == error.span.range() && *kind == error.kind)
                    || found.iter().any(|e| e.span.start == token.span.start);
                if !reported {
                    found.push(ParseError::new(kind.clone(), token.span));
                }
            }
        }
        found.sort_by_key(|e| e.span.start);
        errors.extend(found);
        self.pos = end;
    }

    /// The index of the `;` (or EOF) ending the statement that began at `start`;
    /// `None` when a streaming parser's window ends before it is known.
    fn statement_end(&self, start: usize) -> Option<usize> {
        let mut in_batch = self
            .word_at(start)
            .is_some_and(|w| w.eq_ignore_ascii_case("begin"));
        let mut depth = 0usize;
        let mut i = start;
        while let Some(token) = self.tokens.get(i) {
            match &token.kind {
                TokenKind::Eof => break,
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket | Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                }
                TokenKind::Word(w)
                    if in_batch
                        && w.eq_ignore_ascii_case("apply")
                        && self
                            .word_at(i + 1)
                            .is_some_and(|n| n.eq_ignore_ascii_case("batch")) =>
                {
                    in_batch = false;
                    depth = 0;
                }
                TokenKind::Punct(Punct::Semi) if i >= self.pos => {
                    if !self.holds(i + 1) {
                        return None;
                    }
                    let next = self.word_at(i + 1).map(str::to_ascii_lowercase);
                    let next = next.as_deref();
                    let next_starts_statement = next.is_some_and(|n| STATEMENT_STARTS.contains(&n));
                    let stop = if in_batch {
                        next_starts_statement && !next.is_some_and(|n| BATCH_MEMBERS.contains(&n))
                    } else {
                        depth == 0 || next_starts_statement
                    };
                    if stop {
                        return Some(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if !self.holds(i) {
            return None;
        }
        if in_batch {
            // The batch never reached APPLY BATCH: end at the first `;` after the error.
            let first_semi = (self.pos..i).find(|&j| {
                matches!(
                    self.tokens.get(j).map(|t| &t.kind),
                    Some(TokenKind::Punct(Punct::Semi))
                )
            });
            return Some(first_semi.unwrap_or(i));
        }
        Some(i)
    }

    fn word_at(&self, i: usize) -> Option<&str> {
        match self.tokens.get(i).map(|t| &t.kind) {
            Some(TokenKind::Word(w)) => Some(w),
            _ => None,
        }
    }
}
