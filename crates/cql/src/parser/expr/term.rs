//! Terms: literals, bind markers, collection/tuple/UDT literals, function calls,
//! type hints, negation and arithmetic (Cassandra's `term`).

use crate::ast::{
    ArithmeticOp, BindMarker, DataTypeKind, Literal, Span, SpecialFloat, Term, TermKind,
};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// A full term: `a + b * c`, `-x`, `[1, 2]`, `now()`, ...
    pub(crate) fn term(&mut self) -> PResult<Term> {
        self.nested(Self::term_addition)
    }

    /// Operator chains are parsed in a loop, but each operator nests the tree
    /// one level deeper (`((1 + 1) + 1) + …`), and everything that walks or
    /// drops the tree recurses: each operator counts as a nesting level, so a
    /// chain of 30,000 `+` is an error, not a stack overflow.
    fn term_addition(&mut self) -> PResult<Term> {
        let base = self.depth;
        let result = self.term_addition_chain();
        self.depth = base;
        result
    }

    fn term_addition_chain(&mut self) -> PResult<Term> {
        let mut left = self.term_multiplication()?;
        loop {
            let op = match self.peek().kind {
                TokenKind::Punct(Punct::Plus) => ArithmeticOp::Add,
                TokenKind::Punct(Punct::Minus) => ArithmeticOp::Sub,
                _ => break,
            };
            // `l = [1] + l` (list prepend) ends the term before `+ l`.
            if !self.nth_starts_term(1) {
                break;
            }
            self.deeper_by_one_operator()?;
            self.bump();
            let right = self.term_multiplication()?;
            left = binary(op, left, right);
        }
        Ok(left)
    }

    fn term_multiplication(&mut self) -> PResult<Term> {
        let base = self.depth;
        let result = self.term_multiplication_chain();
        self.depth = base;
        result
    }

    fn term_multiplication_chain(&mut self) -> PResult<Term> {
        let mut left = self.term_group()?;
        loop {
            let op = match self.peek().kind {
                TokenKind::Punct(Punct::Star) => ArithmeticOp::Mul,
                TokenKind::Punct(Punct::Slash) => ArithmeticOp::Div,
                TokenKind::Punct(Punct::Percent) => ArithmeticOp::Mod,
                _ => break,
            };
            if !self.nth_starts_term(1) {
                break;
            }
            self.deeper_by_one_operator()?;
            self.bump();
            let right = self.term_group()?;
            left = binary(op, left, right);
        }
        Ok(left)
    }

    /// `'-' simpleTerm | simpleTerm`. A minus before a positive number folds into a
    /// negative literal, as the AST keeps negative constants as literals.
    pub(crate) fn term_group(&mut self) -> PResult<Term> {
        if !self.at_punct(Punct::Minus) {
            return self.simple_term();
        }
        let start = self.bump().span.start;
        let inner = self.simple_term()?;
        let span = self.span_from(start);
        let kind = match inner.kind {
            TermKind::Literal(Literal::Integer(t)) if !t.starts_with('-') => {
                TermKind::Literal(Literal::Integer(format!("-{t}")))
            }
            TermKind::Literal(Literal::Float(t)) if !t.starts_with('-') => {
                TermKind::Literal(Literal::Float(format!("-{t}")))
            }
            TermKind::Literal(Literal::Duration(t)) if !t.starts_with('-') => {
                TermKind::Literal(Literal::Duration(format!("-{t}")))
            }
            TermKind::Literal(Literal::SpecialFloat(SpecialFloat::Infinity)) => {
                TermKind::Literal(Literal::SpecialFloat(SpecialFloat::NegativeInfinity))
            }
            TermKind::Literal(Literal::SpecialFloat(SpecialFloat::NaN)) => {
                TermKind::Literal(Literal::SpecialFloat(SpecialFloat::NaN))
            }
            kind => TermKind::Negate(Box::new(Term {
                kind,
                span: inner.span,
            })),
        };
        Ok(Term { kind, span })
    }

    /// A term without arithmetic: a value, a function call or a type hint.
    pub(crate) fn simple_term(&mut self) -> PResult<Term> {
        let token = self.peek().clone();
        let start = token.span.start;
        let literal = |lit: Literal| TermKind::Literal(lit);
        let kind = match token.kind {
            TokenKind::Str { value, .. } => literal(Literal::String(value)),
            TokenKind::Integer(t) => literal(Literal::Integer(t)),
            TokenKind::Float(t) => literal(Literal::Float(t)),
            TokenKind::Duration(t) => literal(Literal::Duration(t)),
            TokenKind::Uuid(t) => literal(Literal::Uuid(t)),
            TokenKind::Blob(t) => literal(Literal::Blob(t)),
            TokenKind::Boolean(b) => literal(Literal::Boolean(b)),
            TokenKind::SpecialFloat(s) => literal(Literal::SpecialFloat(s)),
            TokenKind::Word(w) if w.eq_ignore_ascii_case("null") => literal(Literal::Null),
            TokenKind::Punct(Punct::QMark) => TermKind::BindMarker(BindMarker::Anonymous),
            TokenKind::Punct(Punct::Colon) => {
                self.bump();
                let name = self.ident_expecting("bind marker name")?;
                return Ok(Term {
                    kind: TermKind::BindMarker(BindMarker::Named(name)),
                    span: self.span_from(start),
                });
            }
            TokenKind::Punct(Punct::LBracket) => return self.list_literal(),
            TokenKind::Punct(Punct::LBrace) => return self.brace_literal(),
            TokenKind::Punct(Punct::LParen) => return self.parenthesized_term(),
            _ if self.at_function_call() => return self.function_call(),
            _ => return Err(self.unexpected(&["term"])),
        };
        self.bump();
        Ok(Term {
            kind,
            span: self.span_from(start),
        })
    }

    /// True when the `n`-th token can begin a term.
    pub(crate) fn nth_starts_term(&self, n: usize) -> bool {
        match &self.nth(n).kind {
            TokenKind::Str { .. }
            | TokenKind::Integer(_)
            | TokenKind::Float(_)
            | TokenKind::Duration(_)
            | TokenKind::Uuid(_)
            | TokenKind::Blob(_)
            | TokenKind::Boolean(_)
            | TokenKind::SpecialFloat(_) => true,
            TokenKind::Punct(
                Punct::QMark
                | Punct::Colon
                | Punct::LBracket
                | Punct::LBrace
                | Punct::LParen
                | Punct::Minus,
            ) => true,
            TokenKind::Word(w) if w.eq_ignore_ascii_case("null") => true,
            TokenKind::Word(_) | TokenKind::QuotedIdent(_) => {
                let is_name = |k: usize| self.nth_is_ident(k) || self.nth_is_word(k, "token");
                (is_name(n) && self.nth_is_punct(n + 1, Punct::LParen))
                    || (self.nth_is_ident(n)
                        && self.nth_is_punct(n + 1, Punct::Dot)
                        && is_name(n + 2)
                        && self.nth_is_punct(n + 3, Punct::LParen))
            }
            _ => false,
        }
    }

    fn function_call(&mut self) -> PResult<Term> {
        let start = self.peek().span.start;
        let name = self.function_name()?;
        let args = self.parenthesized_list(|p| p.term())?;
        Ok(Term {
            kind: TermKind::FunctionCall { name, args },
            span: self.span_from(start),
        })
    }

    fn list_literal(&mut self) -> PResult<Term> {
        let start = self.expect_punct(Punct::LBracket)?.start;
        let mut items = Vec::new();
        if !self.at_punct(Punct::RBracket) {
            items = self.comma_separated(|p| p.term())?;
        }
        self.expect_punct(Punct::RBracket)?;
        Ok(Term {
            kind: TermKind::List(items),
            span: self.span_from(start),
        })
    }

    /// `{}` (empty map), `{k: v, ...}` (map), `{a, b}` (set) or `{field: v}` (UDT).
    fn brace_literal(&mut self) -> PResult<Term> {
        let start = self.expect_punct(Punct::LBrace)?.start;
        let kind = if self.at_punct(Punct::RBrace) {
            TermKind::Map(Vec::new())
        } else if self.at_ident() && self.nth_is_punct(1, Punct::Colon) {
            TermKind::Udt(self.comma_separated(|p| {
                let field = p.ident_expecting("field name")?;
                p.expect_punct(Punct::Colon)?;
                Ok((field, p.term()?))
            })?)
        } else {
            let first = self.term()?;
            if self.eat_punct(Punct::Colon) {
                let mut entries = vec![(first, self.term()?)];
                while self.eat_punct(Punct::Comma) {
                    let key = self.term()?;
                    self.expect_punct(Punct::Colon)?;
                    entries.push((key, self.term()?));
                }
                TermKind::Map(entries)
            } else {
                let mut items = vec![first];
                while self.eat_punct(Punct::Comma) {
                    items.push(self.term()?);
                }
                TermKind::Set(items)
            }
        };
        self.expect_punct(Punct::RBrace)?;
        Ok(Term {
            kind,
            span: self.span_from(start),
        })
    }

    /// `(type) term` (a type hint) or `(a, b)` (a tuple; `(a)` is a 1-tuple, as CQL
    /// has no grouping parentheses in terms).
    fn parenthesized_term(&mut self) -> PResult<Term> {
        let start = self.peek().span.start;
        let hinted = self.attempt(|p| {
            p.expect_punct(Punct::LParen)?;
            let ty = p.data_type()?;
            p.expect_punct(Punct::RParen)?;
            let term = p.nested(|p| p.simple_term())?;
            // `{('a'): :v}` is a map keyed by a 1-tuple, not a custom-type hint on `:v`.
            if matches!(ty.kind, DataTypeKind::Custom(_))
                && matches!(term.kind, TermKind::BindMarker(BindMarker::Named(_)))
            {
                return Err(p.unexpected(&["term"]));
            }
            Ok(TermKind::TypeHint {
                ty,
                term: Box::new(term),
            })
        })?;
        let kind = match hinted {
            Some(kind) => kind,
            None => {
                self.expect_punct(Punct::LParen)?;
                let items = self.comma_separated(|p| p.term())?;
                self.expect_punct(Punct::RParen)?;
                TermKind::Tuple(items)
            }
        };
        Ok(Term {
            kind,
            span: self.span_from(start),
        })
    }
}

impl Parser<'_> {
    /// One more operator in a chain: one level deeper, failing at the limit
    /// (the error points at the operator).
    pub(crate) fn deeper_by_one_operator(&mut self) -> PResult<()> {
        if self.depth >= crate::parser::MAX_DEPTH {
            return Err(crate::error::ParseError::new(
                crate::error::ParseErrorKind::NestingTooDeep {
                    limit: crate::parser::MAX_DEPTH,
                },
                self.peek().span,
            ));
        }
        self.depth += 1;
        Ok(())
    }
}

fn binary(op: ArithmeticOp, left: Term, right: Term) -> Term {
    let span: Span = left.span.to(right.span);
    Term {
        kind: TermKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
        span,
    }
}
