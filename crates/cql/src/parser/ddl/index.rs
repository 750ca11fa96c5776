//! `CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (targets) [USING 'class']
//! [WITH OPTIONS = {...}]`.

use crate::ast::{CreateIndex, IndexTarget, IndexTargetKind};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`.
    pub(crate) fn create_index(&mut self) -> PResult<CreateIndex> {
        let custom = self.eat_word("custom");
        self.expect_word("index")?;
        let if_not_exists = self.if_not_exists();
        let name = if self.at_word("on") {
            None
        } else {
            Some(self.ident_expecting("index name")?)
        };
        self.expect_word("on")?;
        let table = self.qualified_name_expecting("table name")?;
        let targets = self.parenthesized_list(|p| p.index_target())?;
        let using = if self.eat_word("using") {
            match &self.peek().kind {
                TokenKind::Str { value, .. } => {
                    let value = value.clone();
                    self.bump();
                    Some(value)
                }
                _ => return Err(self.unexpected(&["index class string"])),
            }
        } else {
            None
        };
        let options = if self.eat_word("with") {
            self.properties()?
        } else {
            Vec::new()
        };
        Ok(CreateIndex {
            custom,
            if_not_exists,
            name,
            table,
            targets,
            using,
            options,
        })
    }

    fn index_target(&mut self) -> PResult<IndexTarget> {
        let start = self.peek().span.start;
        let kind = [
            ("keys", IndexTargetKind::Keys),
            ("values", IndexTargetKind::Values),
            ("entries", IndexTargetKind::Entries),
            ("full", IndexTargetKind::Full),
        ]
        .into_iter()
        .find(|(word, _)| self.at_word(word) && self.nth_is_punct(1, Punct::LParen))
        .map(|(_, kind)| kind);
        let (kind, column) = match kind {
            Some(kind) => {
                self.bump();
                self.bump();
                let column = self.ident_expecting("column name")?;
                self.expect_punct(Punct::RParen)?;
                (kind, column)
            }
            None => (
                IndexTargetKind::Simple,
                self.ident_expecting("column name")?,
            ),
        };
        Ok(IndexTarget {
            kind,
            column,
            span: self.span_from(start),
        })
    }
}
