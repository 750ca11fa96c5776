//! WHERE relations and IF conditions.

use crate::ast::{
    ColumnRef, Condition, Conditions, Ident, InValues, Operator, Relation, RelationKind, Term,
    TermKind,
};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// `relation (AND relation)*`.
    pub(crate) fn where_clause(&mut self) -> PResult<Vec<Relation>> {
        let mut relations = vec![self.relation()?];
        while self.eat_word("and") {
            relations.push(self.relation()?);
        }
        Ok(relations)
    }

    fn relation(&mut self) -> PResult<Relation> {
        self.nested(Self::relation_inner)
    }

    fn relation_inner(&mut self) -> PResult<Relation> {
        let start = self.peek().span.start;
        let kind = if self.at_word("token") && self.nth_is_punct(1, Punct::LParen) {
            self.bump();
            let columns = self.tuple_of_identifiers()?;
            let op = self.comparison()?;
            let value = self.term()?;
            RelationKind::Token { columns, op, value }
        } else if self.at_punct(Punct::LParen) {
            match self.attempt(|p| p.tuple_of_identifiers())? {
                Some(columns) => self.multi_column_relation(columns)?,
                // `(relation)`: grouping parentheses around one relation.
                None => {
                    self.bump();
                    let inner = self.relation()?;
                    self.expect_punct(Punct::RParen)?;
                    inner.kind
                }
            }
        } else {
            let column = self.ident_expecting("column name")?;
            self.single_column_relation(column)?
        };
        Ok(Relation {
            kind,
            span: self.span_from(start),
        })
    }

    fn single_column_relation(&mut self, column: Ident) -> PResult<RelationKind> {
        if self.eat_punct(Punct::LBracket) {
            let key = self.term()?;
            self.expect_punct(Punct::RBracket)?;
            let op = self.comparison()?;
            let value = self.term()?;
            return Ok(RelationKind::MapEntry {
                column,
                key,
                op,
                value,
            });
        }
        if self.eat_words(&["is", "not", "null"]) {
            return Ok(RelationKind::IsNotNull { column });
        }
        if self.eat_word("in") {
            let values = self.in_values()?;
            return Ok(RelationKind::ColumnIn {
                column,
                negated: false,
                values,
            });
        }
        if self.eat_words(&["not", "in"]) {
            let values = self.in_values()?;
            return Ok(RelationKind::ColumnIn {
                column,
                negated: true,
                values,
            });
        }
        let op = if self.eat_word("like") {
            Operator::Like
        } else if let Some(op) = self.contains_operator() {
            op
        } else {
            self.comparison_or(&["IN", "NOT IN", "CONTAINS", "LIKE", "IS NOT NULL"])?
        };
        let value = self.term()?;
        Ok(RelationKind::Column { column, op, value })
    }

    fn multi_column_relation(&mut self, columns: Vec<Ident>) -> PResult<RelationKind> {
        if self.eat_word("in") {
            let values = self.in_values()?;
            return Ok(RelationKind::MultiColumnIn { columns, values });
        }
        let op = self.comparison_or(&["IN"])?;
        let value = self.term()?;
        Ok(RelationKind::MultiColumn { columns, op, value })
    }

    /// `[NOT] CONTAINS [KEY]`.
    fn contains_operator(&mut self) -> Option<Operator> {
        let negated = self.at_word("not") && self.nth_is_word(1, "contains");
        if negated {
            self.bump();
        }
        if !self.eat_word("contains") {
            return None;
        }
        // `CONTAINS key.f()` calls a function in keyspace `key`.
        let key = !self.nth_is_punct(1, Punct::Dot) && self.eat_word("key");
        Some(match (negated, key) {
            (false, false) => Operator::Contains,
            (false, true) => Operator::ContainsKey,
            (true, false) => Operator::NotContains,
            (true, true) => Operator::NotContainsKey,
        })
    }

    /// `'(' ident (',' ident)* ')'`.
    fn tuple_of_identifiers(&mut self) -> PResult<Vec<Ident>> {
        self.expect_punct(Punct::LParen)?;
        let columns = self.comma_separated(|p| p.ident_expecting("column name"))?;
        self.expect_punct(Punct::RParen)?;
        Ok(columns)
    }

    /// The values of IN: `(a, b, ...)` (possibly empty) or one bind marker.
    fn in_values(&mut self) -> PResult<InValues> {
        match self.peek().kind {
            TokenKind::Punct(Punct::QMark | Punct::Colon) => {
                Ok(InValues::Marker(self.simple_term()?))
            }
            TokenKind::Punct(Punct::LParen) => {
                Ok(InValues::List(self.parenthesized_list(|p| p.term())?))
            }
            _ => Err(self.unexpected(&["'('", "bind marker"])),
        }
    }

    fn comparison(&mut self) -> PResult<Operator> {
        self.comparison_or(&[])
    }

    /// `= < <= > >= !=`; on failure the error also lists `others`.
    fn comparison_or(&mut self, others: &[&str]) -> PResult<Operator> {
        let op = match self.peek().kind {
            TokenKind::Punct(Punct::Eq) => Operator::Eq,
            TokenKind::Punct(Punct::Lt) => Operator::Lt,
            TokenKind::Punct(Punct::Lte) => Operator::Lte,
            TokenKind::Punct(Punct::Gt) => Operator::Gt,
            TokenKind::Punct(Punct::Gte) => Operator::Gte,
            TokenKind::Punct(Punct::Neq) => Operator::Neq,
            _ => {
                let mut expected = vec!["'='", "'<'", "'<='", "'>'", "'>='", "'!='"];
                expected.extend_from_slice(others);
                return Err(self.unexpected(&expected));
            }
        };
        self.bump();
        Ok(op)
    }

    /// `IF EXISTS` or `IF condition (AND condition)*`, when present.
    pub(crate) fn conditions(&mut self) -> PResult<Option<Conditions>> {
        if !self.at_word("if") {
            return Ok(None);
        }
        // `IF exists = 1` is a condition on a column named `exists`.
        if self.nth_is_word(1, "exists") && !self.nth_continues_condition(2) {
            self.bump();
            self.bump();
            return Ok(Some(Conditions::IfExists));
        }
        self.bump();
        let mut conditions = vec![self.condition()?];
        while self.eat_word("and") {
            conditions.push(self.condition()?);
        }
        Ok(Some(Conditions::If(conditions)))
    }

    fn nth_continues_condition(&self, n: usize) -> bool {
        match &self.nth(n).kind {
            TokenKind::Punct(p) => matches!(
                p,
                Punct::Eq
                    | Punct::Lt
                    | Punct::Lte
                    | Punct::Gt
                    | Punct::Gte
                    | Punct::Neq
                    | Punct::LBracket
                    | Punct::Dot
            ),
            TokenKind::Word(w) => ["in", "contains", "not"]
                .iter()
                .any(|k| w.eq_ignore_ascii_case(k)),
            _ => false,
        }
    }

    fn condition(&mut self) -> PResult<Condition> {
        let start = self.peek().span.start;
        let target = self.column_ref()?;
        let (op, value) = if self.at_word("in") {
            self.bump();
            (Operator::In, self.condition_in_values()?)
        } else if let Some(op) = self.contains_operator() {
            (op, self.term()?)
        } else {
            let op = self.comparison_or(&["IN", "CONTAINS"])?;
            (op, self.term()?)
        };
        Ok(Condition {
            target,
            op,
            value,
            span: self.span_from(start),
        })
    }

    /// IN values of a condition, as the AST keeps them: a tuple term or a marker.
    fn condition_in_values(&mut self) -> PResult<Term> {
        let start = self.peek().span.start;
        match self.in_values()? {
            InValues::Marker(marker) => Ok(marker),
            InValues::List(items) => Ok(Term {
                kind: TermKind::Tuple(items),
                span: self.span_from(start),
            }),
        }
    }

    /// `c`, `c[term]` or `c.field`.
    pub(crate) fn column_ref(&mut self) -> PResult<ColumnRef> {
        let column = self.ident_expecting("column name")?;
        if self.eat_punct(Punct::LBracket) {
            let key = self.term()?;
            self.expect_punct(Punct::RBracket)?;
            Ok(ColumnRef::Element(column, key))
        } else if self.eat_punct(Punct::Dot) {
            let field = self.ident_expecting("field name")?;
            Ok(ColumnRef::Field(column, field))
        } else {
            Ok(ColumnRef::Column(column))
        }
    }
}
