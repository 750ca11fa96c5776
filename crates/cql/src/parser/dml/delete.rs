//! `DELETE [cols] FROM t [USING TIMESTAMP n] WHERE relations [IF EXISTS | IF conditions]`.

use crate::ast::Delete;
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    pub(crate) fn delete(&mut self) -> PResult<Delete> {
        self.expect_word("delete")?;
        let columns = if self.at_word("from") {
            Vec::new()
        } else {
            self.comma_separated(|p| p.column_ref())?
        };
        self.expect_word("from")?;
        let table = self.qualified_name_expecting("table name")?;
        let using = self.using_clause()?;
        self.expect_word("where")?;
        let where_clause = self.where_clause()?;
        let conditions = self.conditions()?;
        Ok(Delete {
            columns,
            table,
            using,
            where_clause,
            conditions,
        })
    }
}
