//! `UPDATE t [USING ...] SET assignments WHERE relations [IF EXISTS | IF conditions]`.

use crate::ast::{
    AssignOp, Assignment, AssignmentKind, ColumnRef, Literal, Term, TermKind, Update,
};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    pub(crate) fn update(&mut self) -> PResult<Update> {
        self.expect_word("update")?;
        let table = self.qualified_name_expecting("table name")?;
        let using = self.using_clause()?;
        self.expect_word("set")?;
        let assignments = self.comma_separated(|p| p.assignment())?;
        self.expect_word("where")?;
        let where_clause = self.where_clause()?;
        let conditions = self.conditions()?;
        Ok(Update {
            table,
            using,
            assignments,
            where_clause,
            conditions,
        })
    }

    fn assignment(&mut self) -> PResult<Assignment> {
        let start = self.peek().span.start;
        let kind = self.assignment_kind()?;
        Ok(Assignment {
            kind,
            span: self.span_from(start),
        })
    }

    fn assignment_kind(&mut self) -> PResult<AssignmentKind> {
        let target = self.column_ref()?;
        let column = match target {
            ColumnRef::Column(column) => column,
            target => {
                self.expect_punct(Punct::Eq)?;
                let value = self.term()?;
                return Ok(AssignmentKind::Set { target, value });
            }
        };
        for (punct, op) in [
            (Punct::PlusEq, AssignOp::Add),
            (Punct::MinusEq, AssignOp::Sub),
        ] {
            if self.eat_punct(punct) {
                let value = self.term()?;
                return Ok(AssignmentKind::SelfOp {
                    column,
                    op,
                    value,
                    compound: true,
                });
            }
        }
        self.expect_punct(Punct::Eq)?;
        // A bare column after `=` (not a function call) is `c = c + v` or `c = c - v`.
        if self.at_ident() && !self.nth_starts_term(0) {
            let other = self.ident_expecting("column name")?;
            if other.value != column.value {
                return Err(self.self_reference_error(&column.value, &other.value, other.span));
            }
            return self.self_operation(column);
        }
        let value = self.term()?;
        if self.at_punct(Punct::Plus) && self.nth_is_ident(1) {
            self.bump();
            let other = self.ident_expecting("column name")?;
            if other.value != column.value {
                return Err(self.self_reference_error(&column.value, &other.value, other.span));
            }
            return Ok(AssignmentKind::Prepend { column, value });
        }
        Ok(AssignmentKind::Set {
            target: ColumnRef::Column(column),
            value,
        })
    }

    /// After `c = c`: `+ v`, `- v`, or a negative integer (`c = c -3` lexes the
    /// `-3` as one token, as in Cassandra).
    fn self_operation(&mut self, column: crate::ast::Ident) -> PResult<AssignmentKind> {
        let op = if self.eat_punct(Punct::Plus) {
            AssignOp::Add
        } else if self.eat_punct(Punct::Minus) {
            AssignOp::Sub
        } else if let TokenKind::Integer(text) = &self.peek().kind {
            let Some(magnitude) = text.strip_prefix('-').map(str::to_string) else {
                return Err(self.unexpected(&["'+'", "'-'"]));
            };
            let span = self.bump().span;
            let value = Term {
                kind: TermKind::Literal(Literal::Integer(magnitude)),
                span: crate::ast::Span {
                    start: span.start + 1,
                    end: span.end,
                },
            };
            return Ok(AssignmentKind::SelfOp {
                column,
                op: AssignOp::Sub,
                value,
                compound: false,
            });
        } else {
            return Err(self.unexpected(&["'+'", "'-'"]));
        };
        let value = self.term()?;
        Ok(AssignmentKind::SelfOp {
            column,
            op,
            value,
            compound: false,
        })
    }

    fn self_reference_error(
        &self,
        column: &str,
        found: &str,
        span: crate::ast::Span,
    ) -> ParseError {
        ParseError::new(
            ParseErrorKind::InvalidSelfReference {
                column: column.to_string(),
                found: format!("column {found}"),
            },
            span,
        )
    }
}
