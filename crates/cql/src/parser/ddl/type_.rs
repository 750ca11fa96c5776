//! `CREATE TYPE` and `ALTER TYPE`.

use crate::ast::{AlterType, AlterTypeAction, CreateType, FieldDef};
use crate::lexer::Punct;
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`: `TYPE [IF NOT EXISTS] name (field type, ...)`; a trailing
    /// comma before `)` is allowed, as in Cassandra.
    pub(crate) fn create_type(&mut self) -> PResult<CreateType> {
        self.expect_word("type")?;
        let if_not_exists = self.if_not_exists();
        let name = self.qualified_name_expecting("type name")?;
        self.expect_punct(Punct::LParen)?;
        let mut fields = vec![self.field_def()?];
        while self.eat_punct(Punct::Comma) {
            if self.at_punct(Punct::RParen) {
                break;
            }
            fields.push(self.field_def()?);
        }
        self.expect_punct(Punct::RParen)?;
        Ok(CreateType {
            if_not_exists,
            name,
            fields,
        })
    }

    fn field_def(&mut self) -> PResult<FieldDef> {
        let start = self.peek().span.start;
        let name = self.ident_expecting("field name")?;
        let data_type = self.data_type()?;
        Ok(FieldDef {
            name,
            data_type,
            span: self.span_from(start),
        })
    }

    /// After `ALTER`.
    pub(crate) fn alter_type(&mut self) -> PResult<AlterType> {
        self.expect_word("type")?;
        let if_exists = self.if_exists();
        let name = self.qualified_name_expecting("type name")?;
        let action = if self.eat_word("alter") {
            let field = self.ident_expecting("field name")?;
            self.expect_word("type")?;
            let data_type = self.data_type()?;
            AlterTypeAction::AlterFieldType { field, data_type }
        } else if self.eat_word("add") {
            let if_not_exists = self.if_not_exists();
            let field = self.field_def()?;
            AlterTypeAction::Add {
                if_not_exists,
                field,
            }
        } else if self.eat_word("rename") {
            let if_exists = self.if_exists();
            let renames = self.renames()?;
            AlterTypeAction::Rename { if_exists, renames }
        } else {
            return Err(self.unexpected(&["ALTER", "ADD", "RENAME"]));
        };
        Ok(AlterType {
            if_exists,
            name,
            action,
        })
    }

    /// `a TO b (AND c TO d)*`.
    pub(crate) fn renames(&mut self) -> PResult<Vec<(crate::ast::Ident, crate::ast::Ident)>> {
        let mut renames = Vec::new();
        loop {
            let from = self.ident()?;
            self.expect_word("to")?;
            let to = self.ident()?;
            renames.push((from, to));
            if !self.eat_word("and") {
                return Ok(renames);
            }
        }
    }
}
