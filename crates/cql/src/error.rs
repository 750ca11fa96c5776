//! Syntax errors of the lexer and the parser.

use crate::ast::Span;

/// A syntax error at a byte range of the source. Line and column are left to
/// renderers, which have the source text at hand.
#[derive(thiserror::Error, Debug, Clone, PartialEq)]
#[error("{kind}")]
pub struct ParseError {
    pub kind: ParseErrorKind,
    pub span: Span,
}

impl ParseError {
    pub fn new(kind: ParseErrorKind, span: Span) -> Self {
        Self { kind, span }
    }
}

/// What went wrong. Messages name what was expected and what was found, in the
/// spirit of Cassandra's own (`no viable alternative at input 'FRM'`) but plainer.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    #[error("expected {}, found {found}", one_of(.expected))]
    UnexpectedToken {
        expected: Vec<String>,
        found: String,
    },
    #[error("expected {}, found end of input", one_of(.expected))]
    UnexpectedEof { expected: Vec<String> },
    #[error("unexpected character {found:?}")]
    UnexpectedCharacter { found: char },
    #[error("unterminated string literal")]
    UnterminatedString,
    #[error("unterminated quoted identifier")]
    UnterminatedQuotedIdentifier,
    #[error("unterminated comment: missing '*/'")]
    UnterminatedComment,
    #[error("invalid number {text}")]
    InvalidNumber { text: String },
    #[error("invalid UUID {text} (expected 8-4-4-4-12 hexadecimal digits)")]
    InvalidUuid { text: String },
    #[error("invalid blob literal {text} (expected 0x followed by hexadecimal digits)")]
    InvalidBlob { text: String },
    #[error("invalid duration {text}")]
    InvalidDuration { text: String },
    #[error("invalid type name {name}: it is reserved")]
    UnknownType { name: String },
    #[error(
        "{} is a reserved keyword; write it as \"{}\" to use it as a name",
        .keyword.to_ascii_uppercase(),
        .keyword.to_ascii_lowercase()
    )]
    ReservedKeyword { keyword: String },
    #[error("expressions nest deeper than {limit} levels")]
    NestingTooDeep { limit: u32 },
    /// A cqlsh shell command (`CONSISTENCY`, `TRACING`, …), not CQL; it ends
    /// at its line's end as in cqlsh.
    #[error("`{command}` is a cqlsh command, not CQL")]
    ShellCommand {
        command: String,
        /// The words after the command on its line, as written
        /// (`CONSISTENCY LOCAL_QUORUM` → `["LOCAL_QUORUM"]`).
        arguments: Vec<String>,
    },
    /// `ALTER TABLE … WITH CLUSTERING ORDER BY` / `WITH COMPACT STORAGE`:
    /// Cassandra's grammar refuses both (a syntax error on a node).
    #[error(
        "ALTER TABLE cannot set {option}: it is fixed when the table is created (Cassandra refuses it as a syntax error); create a new table with it and copy the data"
    )]
    AlterFixedOption { option: String },
    #[error("{statement} statements are not supported")]
    UnsupportedStatement { statement: String },
    #[error(
        "only `{column} = {column} + <value>`, `{column} = {column} - <value>` and `{column} = <value> + {column}` are supported, found {found}"
    )]
    InvalidSelfReference { column: String, found: String },
}

/// `a`, `a or b`, `a, b or c`.
fn one_of(items: &[String]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_lists_read_as_prose() {
        let kind = ParseErrorKind::UnexpectedToken {
            expected: vec!["FROM".into(), "','".into(), "AS".into()],
            found: "identifier \"frm\"".into(),
        };
        assert_eq!(
            kind.to_string(),
            "expected FROM, ',' or AS, found identifier \"frm\""
        );
    }

    #[test]
    fn reserved_keyword_message_suggests_quoting() {
        let kind = ParseErrorKind::ReservedKeyword {
            keyword: "From".into(),
        };
        assert_eq!(
            kind.to_string(),
            "FROM is a reserved keyword; write it as \"from\" to use it as a name"
        );
    }
}
