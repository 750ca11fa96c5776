//! `BEGIN [UNLOGGED | COUNTER] BATCH [USING ...] stmt [;] ... APPLY BATCH`.

use crate::ast::{Batch, BatchKind};
use crate::lexer::Punct;
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    pub(crate) fn batch(&mut self) -> PResult<Batch> {
        self.expect_word("begin")?;
        let kind = if self.eat_word("unlogged") {
            BatchKind::Unlogged
        } else if self.eat_word("counter") {
            BatchKind::Counter
        } else {
            BatchKind::Logged
        };
        self.expect_word("batch")?;
        let using = self.using_clause()?;
        let mut statements = Vec::new();
        while !self.eat_words(&["apply", "batch"]) {
            if !["insert", "update", "delete"]
                .iter()
                .any(|w| self.at_word(w))
            {
                return Err(self.unexpected(&["INSERT", "UPDATE", "DELETE", "APPLY BATCH"]));
            }
            statements.push(self.statement()?);
            self.eat_punct(Punct::Semi);
        }
        Ok(Batch {
            kind,
            using,
            statements,
        })
    }
}
