//! Tokens produced by the lexer.

use crate::ast::{Span, SpecialFloat};
use crate::error::ParseErrorKind;
use crate::keywords::is_reserved_keyword;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind {
    /// An unquoted word, as written: a keyword or an identifier.
    Word(String),
    /// `"Name"`, with `""` un-doubled.
    QuotedIdent(String),
    /// `'text'` (`dollar` false) or `$$text$$` (`dollar` true), un-escaped.
    Str {
        value: String,
        dollar: bool,
    },
    Integer(String),
    Float(String),
    Duration(String),
    /// Lower-cased.
    Uuid(String),
    /// The hex digits after `0x`, lower-cased.
    Blob(String),
    Boolean(bool),
    SpecialFloat(SpecialFloat),
    Punct(Punct),
    /// A lexing error; the parser reports it when it reaches the token.
    Error(ParseErrorKind),
    Eof,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Punct {
    Eq,
    Lt,
    Lte,
    Gt,
    Gte,
    Neq,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Dot,
    Colon,
    PlusEq,
    MinusEq,
    Range,
    QMark,
}

impl Punct {
    pub fn text(self) -> &'static str {
        match self {
            Punct::Eq => "=",
            Punct::Lt => "<",
            Punct::Lte => "<=",
            Punct::Gt => ">",
            Punct::Gte => ">=",
            Punct::Neq => "!=",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Star => "*",
            Punct::Slash => "/",
            Punct::Percent => "%",
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::Comma => ",",
            Punct::Semi => ";",
            Punct::Dot => ".",
            Punct::Colon => ":",
            Punct::PlusEq => "+=",
            Punct::MinusEq => "-=",
            Punct::Range => "..",
            Punct::QMark => "?",
        }
    }

    /// How error messages name the punctuation: `'('`.
    pub fn quoted(self) -> String {
        format!("'{}'", self.text())
    }
}

impl TokenKind {
    /// How error messages describe the token after "found".
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Word(w) if is_reserved_keyword(w) => {
                format!("keyword {}", w.to_ascii_uppercase())
            }
            TokenKind::Word(w) => format!("identifier \"{w}\""),
            TokenKind::QuotedIdent(q) => format!("quoted identifier \"{}\"", clip(q)),
            TokenKind::Str { value, .. } => format!("string '{}'", clip(value)),
            TokenKind::Integer(t) => format!("integer {t}"),
            TokenKind::Float(t) => format!("float {t}"),
            TokenKind::Duration(t) => format!("duration {t}"),
            TokenKind::Uuid(t) => format!("UUID {t}"),
            TokenKind::Blob(t) => format!("blob 0x{}", clip(t)),
            TokenKind::Boolean(b) => format!("boolean {b}"),
            TokenKind::SpecialFloat(SpecialFloat::NaN) => "NaN".to_string(),
            TokenKind::SpecialFloat(SpecialFloat::Infinity) => "Infinity".to_string(),
            TokenKind::SpecialFloat(SpecialFloat::NegativeInfinity) => "-Infinity".to_string(),
            TokenKind::Punct(p) => p.quoted(),
            TokenKind::Error(kind) => kind.to_string(),
            TokenKind::Eof => "end of input".to_string(),
        }
    }
}

/// Long strings in messages are cut to keep messages on one line.
fn clip(text: &str) -> String {
    const MAX: usize = 32;
    let first_line = text.lines().next().unwrap_or("");
    if first_line.chars().count() > MAX || first_line.len() < text.len() {
        let cut: String = first_line.chars().take(MAX).collect();
        format!("{cut}...")
    } else {
        text.to_string()
    }
}
