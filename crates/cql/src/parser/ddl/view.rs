//! `CREATE MATERIALIZED VIEW ... AS SELECT ... FROM ... WHERE ... PRIMARY KEY (...)
//! [WITH ...]` and `ALTER MATERIALIZED VIEW ... WITH ...`.

use crate::ast::{AlterMaterializedView, CreateMaterializedView, TableOptions};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`.
    pub(crate) fn create_materialized_view(&mut self) -> PResult<CreateMaterializedView> {
        self.expect_word("materialized")?;
        self.expect_word("view")?;
        let if_not_exists = self.if_not_exists();
        let name = self.qualified_name_expecting("view name")?;
        self.expect_word("as")?;
        self.expect_word("select")?;
        let selection = self.selection()?;
        self.expect_word("from")?;
        let base_table = self.qualified_name_expecting("table name")?;
        let where_clause = if self.eat_word("where") {
            self.where_clause()?
        } else {
            Vec::new()
        };
        let primary_key = self.primary_key_clause()?;
        let options = if self.eat_word("with") {
            self.table_options()?
        } else {
            TableOptions::default()
        };
        Ok(CreateMaterializedView {
            if_not_exists,
            name,
            selection,
            base_table,
            where_clause,
            primary_key,
            options,
        })
    }

    /// After `ALTER`.
    pub(crate) fn alter_materialized_view(&mut self) -> PResult<AlterMaterializedView> {
        self.expect_word("materialized")?;
        self.expect_word("view")?;
        let if_exists = self.if_exists();
        let name = self.qualified_name_expecting("view name")?;
        self.expect_word("with")?;
        let options = self.table_options()?;
        Ok(AlterMaterializedView {
            if_exists,
            name,
            options,
        })
    }
}
