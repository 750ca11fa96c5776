//! `INSERT INTO t (cols) VALUES (terms) | INSERT INTO t JSON '...' [DEFAULT NULL|UNSET]`,
//! then `[IF NOT EXISTS] [USING ...]`.

use crate::ast::{Insert, InsertValues};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    pub(crate) fn insert(&mut self) -> PResult<Insert> {
        self.expect_word("insert")?;
        self.expect_word("into")?;
        let table = self.qualified_name_expecting("table name")?;
        let values = if self.eat_word("json") {
            let value = match self.peek().kind {
                TokenKind::Str { .. } | TokenKind::Punct(Punct::QMark | Punct::Colon) => {
                    self.simple_term()?
                }
                _ => return Err(self.unexpected(&["JSON string", "bind marker"])),
            };
            let default_unset = if self.eat_words(&["default", "unset"]) {
                Some(true)
            } else if self.eat_words(&["default", "null"]) {
                Some(false)
            } else {
                None
            };
            InsertValues::Json {
                value,
                default_unset,
            }
        } else {
            let columns = self.parenthesized_list(|p| p.ident_expecting("column name"))?;
            self.expect_word("values")?;
            let values = self.parenthesized_list(|p| p.term())?;
            InsertValues::Values { columns, values }
        };
        // Cassandra wants IF NOT EXISTS before USING; either order is accepted here.
        let mut if_not_exists = self.if_not_exists();
        let using = self.using_clause()?;
        if !if_not_exists {
            if_not_exists = self.if_not_exists();
        }
        Ok(Insert {
            table,
            values,
            if_not_exists,
            using,
        })
    }
}
