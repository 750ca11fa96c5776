//! Pieces shared by many statements: identifiers, names, `WITH` properties,
//! `USING` clauses and `DROP ...` objects.

use super::{PResult, Parser};
use crate::ast::{DropObject, Ident, Literal, Property, QualifiedName, Term, TermKind, UsingParam};
use crate::error::{ParseError, ParseErrorKind};
use crate::keywords::is_reserved_keyword;
use crate::lexer::{Punct, TokenKind};

impl Parser<'_> {
    /// An identifier: an unquoted non-reserved word (lower-cased) or a quoted name
    /// (verbatim).
    pub(crate) fn ident(&mut self) -> PResult<Ident> {
        self.ident_expecting("identifier")
    }

    pub(crate) fn ident_expecting(&mut self, what: &str) -> PResult<Ident> {
        let token = self.peek().clone();
        match &token.kind {
            TokenKind::Word(w) if !is_reserved_keyword(w) => {
                self.bump();
                Ok(Ident {
                    value: w.to_ascii_lowercase(),
                    span: token.span,
                })
            }
            TokenKind::Word(w) => Err(ParseError::new(
                ParseErrorKind::ReservedKeyword { keyword: w.clone() },
                token.span,
            )),
            TokenKind::QuotedIdent(q) => {
                self.bump();
                Ok(Ident {
                    value: q.clone(),
                    span: token.span,
                })
            }
            _ => Err(self.unexpected(&[what])),
        }
    }

    /// True when the current token can be read by [`Parser::ident`].
    pub(crate) fn at_ident(&self) -> bool {
        self.nth_is_ident(0)
    }

    pub(crate) fn nth_is_ident(&self, n: usize) -> bool {
        match &self.nth(n).kind {
            TokenKind::Word(w) => !is_reserved_keyword(w),
            TokenKind::QuotedIdent(_) => true,
            _ => false,
        }
    }

    /// `[keyspace '.'] name`, where `what` names the object for error messages.
    pub(crate) fn qualified_name_expecting(&mut self, what: &str) -> PResult<QualifiedName> {
        let start = self.peek().span.start;
        let first = self.ident_expecting(what)?;
        if self.eat_punct(Punct::Dot) {
            let name = self.ident_expecting(what)?;
            Ok(QualifiedName {
                keyspace: Some(first),
                name,
                span: self.span_from(start),
            })
        } else {
            Ok(QualifiedName {
                keyspace: None,
                name: first,
                span: self.span_from(start),
            })
        }
    }

    /// A function name: `[keyspace '.'] name`, where `name` may also be the reserved
    /// `token` (Cassandra's `allowedFunctionName`).
    pub(crate) fn function_name(&mut self) -> PResult<QualifiedName> {
        let start = self.peek().span.start;
        if self.nth_is_punct(1, Punct::Dot) {
            let keyspace = self.ident_expecting("keyspace name")?;
            self.bump();
            let name = self.function_simple_name()?;
            return Ok(QualifiedName {
                keyspace: Some(keyspace),
                name,
                span: self.span_from(start),
            });
        }
        let name = self.function_simple_name()?;
        Ok(QualifiedName {
            keyspace: None,
            name,
            span: self.span_from(start),
        })
    }

    pub(crate) fn function_simple_name(&mut self) -> PResult<Ident> {
        if self.at_word("token") {
            let span = self.bump().span;
            return Ok(Ident {
                value: "token".to_string(),
                span,
            });
        }
        self.ident_expecting("function name")
    }

    /// True when a function call starts here: `name (` or `ks . name (`.
    pub(crate) fn at_function_call(&self) -> bool {
        let is_name = |n: usize| self.nth_is_ident(n) || self.nth_is_word(n, "token");
        (is_name(0) && self.nth_is_punct(1, Punct::LParen))
            || (self.nth_is_ident(0)
                && self.nth_is_punct(1, Punct::Dot)
                && is_name(2)
                && self.nth_is_punct(3, Punct::LParen))
    }

    /// `IF EXISTS`.
    pub(crate) fn if_exists(&mut self) -> bool {
        self.eat_words(&["if", "exists"])
    }

    /// `IF NOT EXISTS`.
    pub(crate) fn if_not_exists(&mut self) -> bool {
        self.eat_words(&["if", "not", "exists"])
    }

    /// `[IF EXISTS] name [( types )]` after `DROP <kind>`.
    pub(crate) fn drop_object(&mut self, what: &str, with_arg_types: bool) -> PResult<DropObject> {
        let if_exists = self.if_exists();
        let name = if with_arg_types {
            self.function_name()?
        } else {
            self.qualified_name_expecting(what)?
        };
        let arg_types = if with_arg_types && self.at_punct(Punct::LParen) {
            Some(self.parenthesized_list(|p| p.data_type())?)
        } else {
            None
        };
        Ok(DropObject {
            if_exists,
            name,
            arg_types,
        })
    }

    /// `name = value (AND name = value)*`.
    pub(crate) fn properties(&mut self) -> PResult<Vec<Property>> {
        let mut properties = vec![self.property()?];
        while self.eat_word("and") {
            properties.push(self.property()?);
        }
        Ok(properties)
    }

    /// `name = constant | name = {map}`. Cassandra also takes an unreserved keyword
    /// as a value and uses its text; it is kept as a string literal of that text.
    pub(crate) fn property(&mut self) -> PResult<Property> {
        let start = self.peek().span.start;
        let name = self.ident_expecting("property name")?;
        self.expect_punct(Punct::Eq)?;
        let value = match self.peek().kind.clone() {
            TokenKind::Word(w) if !is_reserved_keyword(&w) && !self.nth_starts_term(0) => {
                let token = self.bump();
                Term {
                    kind: TermKind::Literal(Literal::String(w)),
                    span: token.span,
                }
            }
            _ => self.term()?,
        };
        Ok(Property {
            name,
            value,
            span: self.span_from(start),
        })
    }

    /// `USING (TTL v | TIMESTAMP v) (AND ...)*`, when present.
    pub(crate) fn using_clause(&mut self) -> PResult<Vec<UsingParam>> {
        let mut params = Vec::new();
        if !self.eat_word("using") {
            return Ok(params);
        }
        loop {
            if self.eat_word("ttl") {
                params.push(UsingParam::Ttl(self.int_value()?));
            } else if self.eat_word("timestamp") {
                params.push(UsingParam::Timestamp(self.int_value()?));
            } else {
                return Err(self.unexpected(&["TTL", "TIMESTAMP"]));
            }
            if !self.eat_word("and") {
                return Ok(params);
            }
        }
    }

    /// An integer literal or a bind marker (`LIMIT`, `USING TTL`, ...).
    pub(crate) fn int_value(&mut self) -> PResult<Term> {
        match &self.peek().kind {
            TokenKind::Integer(_) | TokenKind::Punct(Punct::QMark | Punct::Colon) => {
                self.simple_term()
            }
            _ => Err(self.unexpected(&["integer", "bind marker"])),
        }
    }
}
