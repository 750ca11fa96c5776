//! `CREATE KEYSPACE [IF NOT EXISTS] ks WITH ...` and `ALTER KEYSPACE [IF EXISTS] ks WITH ...`.

use crate::ast::{AlterKeyspace, CreateKeyspace};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`.
    pub(crate) fn create_keyspace(&mut self) -> PResult<CreateKeyspace> {
        self.bump(); // KEYSPACE or SCHEMA
        let if_not_exists = self.if_not_exists();
        let name = self.ident_expecting("keyspace name")?;
        self.expect_word("with")?;
        let properties = self.properties()?;
        Ok(CreateKeyspace {
            if_not_exists,
            name,
            properties,
        })
    }

    /// After `ALTER`.
    pub(crate) fn alter_keyspace(&mut self) -> PResult<AlterKeyspace> {
        self.bump(); // KEYSPACE or SCHEMA
        let if_exists = self.if_exists();
        let name = self.ident_expecting("keyspace name")?;
        self.expect_word("with")?;
        let properties = self.properties()?;
        Ok(AlterKeyspace {
            if_exists,
            name,
            properties,
        })
    }
}
