//! The CQL lexer: source text to tokens, collecting comments on the side.
//!
//! Lexing never fails: a malformed piece becomes a [`TokenKind::Error`] token that
//! the parser reports when it reaches it, so one bad literal costs one statement.

mod literals;
mod token;

#[cfg(test)]
mod tests;

pub(crate) use token::{Punct, Token, TokenKind};

use crate::Comment;
use crate::ast::{Span, SpecialFloat};
use crate::error::ParseErrorKind;
use literals::NumberKind;

pub(crate) struct Lexed {
    /// Always ends with an [`TokenKind::Eof`] token.
    pub tokens: Vec<Token>,
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "parsing takes comments from the stream")
    )]
    pub comments: Vec<Comment>,
}

pub(crate) fn lex(source: &str) -> Lexed {
    let mut stream = TokenStream::new(source);
    let mut tokens = Vec::new();
    while !stream.is_done() {
        stream.pull(&mut tokens);
    }
    Lexed {
        tokens,
        comments: stream.into_comments(),
    }
}

/// The tokens of a source, lexed on demand: a file of 300,000 statements is
/// parsed with the tokens of one statement in memory, not millions of them.
pub(crate) struct TokenStream<'a> {
    lexer: Lexer<'a>,
    done: bool,
}

impl<'a> TokenStream<'a> {
    pub fn new(source: &'a str) -> Self {
        let mut lexer = Lexer {
            src: source,
            bytes: source.as_bytes(),
            pos: 0,
            tokens: Vec::new(),
            comments: Vec::new(),
        };
        // Editors on Windows like to start files with a byte order mark.
        if source.starts_with('\u{feff}') {
            lexer.pos = '\u{feff}'.len_utf8();
        }
        Self { lexer, done: false }
    }

    /// True once the final [`TokenKind::Eof`] token has been handed out.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Appends the next token to `out` (the [`TokenKind::Eof`] token last;
    /// nothing after it).
    pub fn pull(&mut self, out: &mut Vec<Token>) {
        if self.done {
            return;
        }
        while self.lexer.tokens.is_empty() {
            if !self.lexer.step() {
                let end = self.lexer.src.len();
                self.lexer.push(TokenKind::Eof, end, end);
                self.done = true;
            }
        }
        out.append(&mut self.lexer.tokens);
    }

    /// Takes the comments lexed so far that end by `end` (comments are
    /// lexed in source order, so they are the first ones).
    pub fn take_comments_through(&mut self, end: u32) -> Vec<Comment> {
        let comments = &mut self.lexer.comments;
        let count = comments.partition_point(|c| c.span.end <= end);
        comments.drain(..count).collect()
    }

    /// The comments lexed so far (all of them once [`Self::is_done`]).
    pub fn into_comments(self) -> Vec<Comment> {
        self.lexer.comments
    }
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    comments: Vec<Comment>,
}

impl Lexer<'_> {
    fn byte(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// Source text between two byte offsets that sit on char boundaries.
    fn text(&self, start: usize, end: usize) -> &str {
        self.src.get(start..end).unwrap_or("")
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, end),
        });
        self.pos = end;
    }

    /// Lexes the next piece of input (a token, a comment or a blank);
    /// false at the end of the input.
    fn step(&mut self) -> bool {
        let Some(b) = self.byte(0) else {
            return false;
        };
        let start = self.pos;
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.pos += 1,
            b'-' if self.byte(1) == Some(b'-') => self.line_comment(2),
            b'/' if self.byte(1) == Some(b'/') => self.line_comment(2),
            b'/' if self.byte(1) == Some(b'*') => self.block_comment(),
            b'\'' => self.quoted_string(),
            b'$' if self.byte(1) == Some(b'$') => self.dollar_string(),
            b'"' => self.quoted_ident(),
            b'-' => self.minus(),
            b'0'..=b'9' => self.number_or_uuid(start),
            b'a'..=b'z' | b'A'..=b'Z' => self.word(),
            _ => self.punct(),
        }
        true
    }

    fn line_comment(&mut self, marker: usize) {
        let start = self.pos;
        let body = start + marker;
        let len = self.bytes.get(body..).map_or(0, |rest| {
            rest.iter()
                .take_while(|&&b| b != b'\n' && b != b'\r')
                .count()
        });
        let end = body + len;
        self.comments.push(Comment {
            text: self.text(body, end).to_string(),
            span: Span::new(start, end),
        });
        self.pos = end;
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        let body = start + 2;
        match self.src.get(body..).and_then(|rest| rest.find("*/")) {
            Some(len) => {
                let end = body + len + 2;
                self.comments.push(Comment {
                    text: self.text(body, body + len).to_string(),
                    span: Span::new(start, end),
                });
                self.pos = end;
            }
            None => {
                let end = self.src.len();
                self.comments.push(Comment {
                    text: self.text(body, end).to_string(),
                    span: Span::new(start, end),
                });
                self.push(
                    TokenKind::Error(ParseErrorKind::UnterminatedComment),
                    start,
                    end,
                );
            }
        }
    }

    /// Reads a `q`-delimited body where a doubled `q` stands for one.
    /// Returns the body and the end offset, or `None` when the input ends first.
    fn delimited(&self, quote: u8) -> Option<(String, usize)> {
        let mut value = String::new();
        let mut pos = self.pos + 1;
        loop {
            let rest = self.bytes.get(pos..)?;
            let len = rest.iter().position(|&b| b == quote)?;
            value.push_str(self.text(pos, pos + len));
            pos += len + 1;
            if self.bytes.get(pos) == Some(&quote) {
                value.push(char::from(quote));
                pos += 1;
            } else {
                return Some((value, pos));
            }
        }
    }

    fn quoted_string(&mut self) {
        let start = self.pos;
        match self.delimited(b'\'') {
            Some((value, end)) => self.push(
                TokenKind::Str {
                    value,
                    dollar: false,
                },
                start,
                end,
            ),
            None => self.push(
                TokenKind::Error(ParseErrorKind::UnterminatedString),
                start,
                self.src.len(),
            ),
        }
    }

    fn dollar_string(&mut self) {
        let start = self.pos;
        let body = start + 2;
        match self.src.get(body..).and_then(|rest| rest.find("$$")) {
            Some(len) => {
                let value = self.text(body, body + len).to_string();
                self.push(
                    TokenKind::Str {
                        value,
                        dollar: true,
                    },
                    start,
                    body + len + 2,
                );
            }
            None => self.push(
                TokenKind::Error(ParseErrorKind::UnterminatedString),
                start,
                self.src.len(),
            ),
        }
    }

    fn quoted_ident(&mut self) {
        let start = self.pos;
        match self.delimited(b'"') {
            Some((value, end)) => self.push(TokenKind::QuotedIdent(value), start, end),
            None => self.push(
                TokenKind::Error(ParseErrorKind::UnterminatedQuotedIdentifier),
                start,
                self.src.len(),
            ),
        }
    }

    /// `-` starts a negative number, `-NaN`, `-Infinity`, a negative ISO duration,
    /// `-=`, or is plain minus. Like Cassandra, `a-1` lexes as `a` `-1`.
    fn minus(&mut self) {
        let start = self.pos;
        match self.byte(1) {
            Some(b'0'..=b'9') => self.number(start),
            Some(b'P') => match literals::match_iso_duration(self.bytes, start) {
                Some(end) => {
                    let text = self.text(start, end).to_string();
                    self.push(TokenKind::Duration(text), start, end);
                }
                None => self.push(TokenKind::Punct(Punct::Minus), start, start + 1),
            },
            Some(b'a'..=b'z' | b'A'..=b'Z') => {
                let end = literals::word_run(self.bytes, start + 1);
                let word = self.text(start + 1, end);
                let special = if word.eq_ignore_ascii_case("nan") {
                    Some(SpecialFloat::NaN)
                } else if word.eq_ignore_ascii_case("infinity") {
                    Some(SpecialFloat::NegativeInfinity)
                } else {
                    None
                };
                match special {
                    Some(s) => self.push(TokenKind::SpecialFloat(s), start, end),
                    None => self.push(TokenKind::Punct(Punct::Minus), start, start + 1),
                }
            }
            Some(b'=') => self.push(TokenKind::Punct(Punct::MinusEq), start, start + 2),
            _ => self.push(TokenKind::Punct(Punct::Minus), start, start + 1),
        }
    }

    fn number_or_uuid(&mut self, start: usize) {
        if let Some(end) = literals::match_uuid(self.bytes, start) {
            let text = self.text(start, end).to_ascii_lowercase();
            return self.push(TokenKind::Uuid(text), start, end);
        }
        if literals::looks_like_uuid(self.bytes, start) {
            return self.invalid_uuid(start);
        }
        if self.byte(0) == Some(b'0') && matches!(self.byte(1), Some(b'x' | b'X')) {
            return self.blob(start);
        }
        self.number(start)
    }

    fn invalid_uuid(&mut self, start: usize) {
        let end = literals::uuid_like_run(self.bytes, start);
        let text = self.text(start, end).to_string();
        self.push(
            TokenKind::Error(ParseErrorKind::InvalidUuid { text }),
            start,
            end,
        );
    }

    fn blob(&mut self, start: usize) {
        let digits_start = start + 2;
        let end = literals::word_run(self.bytes, digits_start);
        let digits = self.text(digits_start, end);
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            let hex = digits.to_ascii_lowercase();
            self.push(TokenKind::Blob(hex), start, end);
        } else {
            let text = self.text(start, end).to_string();
            self.push(
                TokenKind::Error(ParseErrorKind::InvalidBlob { text }),
                start,
                end,
            );
        }
    }

    fn number(&mut self, start: usize) {
        match literals::match_number(self.bytes, start) {
            Some((kind, end)) => {
                let text = self.text(start, end).to_string();
                let kind = match kind {
                    NumberKind::Integer => TokenKind::Integer(text),
                    NumberKind::Float => TokenKind::Float(text),
                    NumberKind::Duration => TokenKind::Duration(text),
                };
                self.push(kind, start, end);
            }
            None => {
                let end = literals::malformed_number_end(self.bytes, start);
                let text = self.text(start, end).to_string();
                let kind = if literals::has_unit_letter(&text) {
                    ParseErrorKind::InvalidDuration { text }
                } else {
                    ParseErrorKind::InvalidNumber { text }
                };
                self.push(TokenKind::Error(kind), start, end);
            }
        }
    }

    fn word(&mut self) {
        let start = self.pos;
        if let Some(end) = literals::match_uuid(self.bytes, start) {
            let text = self.text(start, end).to_ascii_lowercase();
            return self.push(TokenKind::Uuid(text), start, end);
        }
        if literals::looks_like_uuid(self.bytes, start) {
            return self.invalid_uuid(start);
        }
        if self.byte(0) == Some(b'P')
            && let Some(end) = literals::match_iso_duration(self.bytes, start)
        {
            let text = self.text(start, end).to_string();
            return self.push(TokenKind::Duration(text), start, end);
        }
        let end = literals::word_run(self.bytes, start);
        let word = self.text(start, end);
        let kind = if word.eq_ignore_ascii_case("true") {
            TokenKind::Boolean(true)
        } else if word.eq_ignore_ascii_case("false") {
            TokenKind::Boolean(false)
        } else if word.eq_ignore_ascii_case("nan") {
            TokenKind::SpecialFloat(SpecialFloat::NaN)
        } else if word.eq_ignore_ascii_case("infinity") {
            TokenKind::SpecialFloat(SpecialFloat::Infinity)
        } else {
            TokenKind::Word(word.to_string())
        };
        self.push(kind, start, end);
    }

    fn punct(&mut self) {
        let start = self.pos;
        let next = self.byte(1);
        let (punct, len) = match self.byte(0) {
            Some(b'=') => (Punct::Eq, 1),
            Some(b'<') if next == Some(b'=') => (Punct::Lte, 2),
            Some(b'<') => (Punct::Lt, 1),
            Some(b'>') if next == Some(b'=') => (Punct::Gte, 2),
            Some(b'>') => (Punct::Gt, 1),
            Some(b'!') if next == Some(b'=') => (Punct::Neq, 2),
            Some(b'+') if next == Some(b'=') => (Punct::PlusEq, 2),
            Some(b'+') => (Punct::Plus, 1),
            Some(b'*') => (Punct::Star, 1),
            Some(b'/') => (Punct::Slash, 1),
            Some(b'%') => (Punct::Percent, 1),
            Some(b'(') => (Punct::LParen, 1),
            Some(b')') => (Punct::RParen, 1),
            Some(b'[') => (Punct::LBracket, 1),
            Some(b']') => (Punct::RBracket, 1),
            Some(b'{') => (Punct::LBrace, 1),
            Some(b'}') => (Punct::RBrace, 1),
            Some(b',') => (Punct::Comma, 1),
            Some(b';') => (Punct::Semi, 1),
            Some(b'.') if next == Some(b'.') => (Punct::Range, 2),
            Some(b'.') => (Punct::Dot, 1),
            Some(b':') => (Punct::Colon, 1),
            Some(b'?') => (Punct::QMark, 1),
            _ => return self.unexpected_char(start),
        };
        self.push(TokenKind::Punct(punct), start, start + len);
    }

    fn unexpected_char(&mut self, start: usize) {
        let found = self.src.get(start..).and_then(|s| s.chars().next());
        let len = found.map_or(1, char::len_utf8);
        let found = found.unwrap_or(char::REPLACEMENT_CHARACTER);
        self.push(
            TokenKind::Error(ParseErrorKind::UnexpectedCharacter { found }),
            start,
            start + len,
        );
    }
}
