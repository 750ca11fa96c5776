//! cqlsh shell commands in a CQL file (`CONSISTENCY QUORUM`, `TRACING ON`,
//! `DESCRIBE KEYSPACE ks`, captured prompts). cqlsh ends these at the end of
//! their line, `;` or not (`my_commands_ending_with_newline` in cqlsh), so a
//! command written without `;` must not swallow the statement on the next line.
//! Each is reported as a [`ParseErrorKind::ShellCommand`] spanning its line.

use super::Parser;
use crate::ast::Span;
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Punct, TokenKind};

/// The commands cqlsh ends at the newline. `COPY` is not one: it ends at `;`.
pub(crate) const LINE_COMMANDS: &[&str] = &[
    "capture",
    "clear",
    "cls",
    "consistency",
    "debug",
    "desc",
    "describe",
    "exit",
    "expand",
    "help",
    "login",
    "paging",
    "quit",
    "serial",
    "show",
    "source",
    "tracing",
];

impl Parser<'_> {
    /// At a statement start holding a line command: consumes it up to its `;`
    /// or the end of its line, whichever comes first, and returns the error
    /// that reports it. The parser must know the line breaks
    /// (`line_aware`); without them nothing is consumed.
    pub(super) fn shell_command(&mut self) -> Option<ParseError> {
        if !self.line_aware {
            return None;
        }
        let command = match &self.peek().kind {
            TokenKind::Word(w) if LINE_COMMANDS.contains(&w.to_ascii_lowercase().as_str()) => {
                w.to_ascii_lowercase()
            }
            _ => return None,
        };
        let start = self.peek().span.start;
        let mut end = self.peek().span.end;
        let mut arguments = Vec::new();
        self.pos += 1;
        while let Some(token) = self.tokens.get(self.pos) {
            let new_line = self.line_breaks.get(self.pos).copied().unwrap_or(true);
            if new_line || matches!(token.kind, TokenKind::Eof | TokenKind::Punct(Punct::Semi)) {
                break;
            }
            if let TokenKind::Word(w) = &token.kind {
                arguments.push(w.clone());
            }
            end = token.span.end;
            self.pos += 1;
        }
        Some(ParseError::new(
            ParseErrorKind::ShellCommand { command, arguments },
            Span { start, end },
        ))
    }
}

/// For each token, whether a line break separates it from the token before
/// (comments between them count: a `--` comment ends at a line break).
#[cfg(test)]
pub(crate) fn line_breaks(source: &str, tokens: &[crate::lexer::Token]) -> Vec<bool> {
    let mut previous_end = 0usize;
    tokens
        .iter()
        .map(|t| {
            let start = t.span.start as usize;
            let gap = source
                .get(previous_end.min(start)..start)
                .unwrap_or_default();
            previous_end = t.span.end as usize;
            gap.contains('\n')
        })
        .collect()
}
