//! Error recovery: after a bad statement, skip to its end so that the statements
//! after it still parse.

use super::Parser;
use crate::error::ParseError;
use crate::lexer::{Punct, TokenKind};

/// Keywords that open a statement; a `;` before one of them ends the bad statement
/// even when brackets are left open.
const STATEMENT_STARTS: &[&str] = &[
    "select", "insert", "update", "delete", "begin", "create", "alter", "drop", "use",
    "truncate", "grant", "revoke", "list", "describe", "desc",
];

/// Statements allowed inside `BEGIN BATCH ... APPLY BATCH`.
const BATCH_MEMBERS: &[&str] = &["insert", "update", "delete", "apply"];

impl Parser {
    /// Records `error` for the statement that began at token index `start`, then
    /// moves to the `;` ending that statement (or to the end of input).
    ///
    /// The end is the first `;` after the error at bracket depth 0. Inside
    /// `BEGIN BATCH` the `;` between member statements do not count until
    /// `APPLY BATCH`, unless a `;` is followed by a statement a batch cannot hold
    /// (the batch was never closed). With brackets left open, a `;` followed by a
    /// statement keyword still ends the statement. `$$...$$` bodies are single
    /// tokens, so their `;` are never seen here.
    pub(super) fn recover(&mut self, start: usize, error: ParseError, errors: &mut Vec<ParseError>) {
        let mut found = vec![error.clone()];
        let mut in_batch = self
            .tokens
            .get(start)
            .is_some_and(|t| matches!(&t.kind, TokenKind::Word(w) if w.eq_ignore_ascii_case("begin")));
        let mut depth = 0usize;
        let mut i = start;
        loop {
            let Some(token) = self.tokens.get(i) else {
                break;
            };
            match &token.kind {
                TokenKind::Eof => break,
                TokenKind::Error(kind) => {
                    if !(token.span == error.span && *kind == error.kind)
                        && !found.iter().any(|e| e.span.start == token.span.start)
                    {
                        found.push(ParseError::new(kind.clone(), token.span));
                    }
                }
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket | Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                }
                TokenKind::Word(w) if in_batch && w.eq_ignore_ascii_case("apply") => {
                    if self.word_at(i + 1).is_some_and(|n| n.eq_ignore_ascii_case("batch")) {
                        in_batch = false;
                        depth = 0;
                    }
                }
                TokenKind::Punct(Punct::Semi) if i >= self.pos => {
                    let next = self.word_at(i + 1).map(str::to_ascii_lowercase);
                    let next_starts_statement =
                        next.as_deref().is_some_and(|n| STATEMENT_STARTS.contains(&n));
                    let stop = if in_batch {
                        next_starts_statement
                            && !next.as_deref().is_some_and(|n| BATCH_MEMBERS.contains(&n))
                    } else {
                        depth == 0 || next_starts_statement
                    };
                    if stop {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        // A batch that never reached APPLY BATCH: stop at the first `;` after the error.
        if in_batch && matches!(self.tokens.get(i).map(|t| &t.kind), Some(TokenKind::Eof) | None) {
            if let Some(semi) = (self.pos..i).find(|&j| {
                matches!(self.tokens.get(j).map(|t| &t.kind), Some(TokenKind::Punct(Punct::Semi)))
            }) {
                found.retain(|e| self.tokens.get(semi).is_some_and(|t| e.span.start < t.span.start));
                i = semi;
            }
        }
        found.sort_by_key(|e| e.span.start);
        errors.extend(found);
        self.pos = i;
    }

    fn word_at(&self, i: usize) -> Option<&str> {
        match self.tokens.get(i).map(|t| &t.kind) {
            Some(TokenKind::Word(w)) => Some(w),
            _ => None,
        }
    }
}
