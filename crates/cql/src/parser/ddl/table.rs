//! `CREATE TABLE` and `ALTER TABLE`, with the column, primary key and `WITH` option
//! syntax that materialized views share.

use crate::ast::{
    AlterTable, AlterTableAction, ClusteringOrder, ColumnDef, ColumnMask, CreateTable, Order,
    PrimaryKey, TableOptions,
};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`: `TABLE [IF NOT EXISTS] name (columns, [PRIMARY KEY (...)]) [WITH ...]`.
    pub(crate) fn create_table(&mut self) -> PResult<CreateTable> {
        self.bump(); // TABLE or COLUMNFAMILY
        let if_not_exists = self.if_not_exists();
        let name = self.qualified_name_expecting("table name")?;
        self.expect_punct(Punct::LParen)?;
        let mut columns = Vec::new();
        let mut primary_key = None;
        loop {
            if self.at_word("primary") && self.nth_is_word(1, "key") && primary_key.is_none() {
                primary_key = Some(self.primary_key_clause()?);
            } else {
                columns.push(self.column_def()?);
            }
            // Cassandra accepts a trailing comma before `)`.
            if !self.eat_punct(Punct::Comma) || self.at_punct(Punct::RParen) {
                break;
            }
        }
        self.expect_punct(Punct::RParen)?;
        let options = if self.eat_word("with") {
            self.table_options()?
        } else {
            TableOptions::default()
        };
        Ok(CreateTable {
            if_not_exists,
            name,
            columns,
            primary_key,
            options,
        })
    }

    /// `name type [STATIC] [MASKED WITH ...] [PRIMARY KEY]`.
    pub(crate) fn column_def(&mut self) -> PResult<ColumnDef> {
        let start = self.peek().span.start;
        let name = self.ident_expecting("column name")?;
        let data_type = self.data_type()?;
        let is_static = self.eat_word("static");
        let mask = self.column_mask()?;
        let primary_key = self.eat_words(&["primary", "key"]);
        Ok(ColumnDef {
            name,
            data_type,
            is_static,
            primary_key,
            mask,
            span: self.span_from(start),
        })
    }

    /// `MASKED WITH DEFAULT` or `MASKED WITH fn(args)` (Cassandra 5.0), when present.
    fn column_mask(&mut self) -> PResult<Option<ColumnMask>> {
        if !self.eat_words(&["masked", "with"]) {
            return Ok(None);
        }
        // `default.f()` and `default()` are functions; bare `DEFAULT` is the default mask.
        if self.at_word("default")
            && !self.nth_is_punct(1, Punct::Dot)
            && !self.nth_is_punct(1, Punct::LParen)
        {
            self.bump();
            return Ok(Some(ColumnMask::Default));
        }
        let name = self.function_name()?;
        let args = self.parenthesized_list(|p| p.term())?;
        Ok(Some(ColumnMask::Function { name, args }))
    }

    /// `PRIMARY KEY (pk | (pk1, pk2), ck1, ck2)`.
    pub(crate) fn primary_key_clause(&mut self) -> PResult<PrimaryKey> {
        let start = self.expect_word("primary")?.start;
        self.expect_word("key")?;
        self.expect_punct(Punct::LParen)?;
        let parenthesized_partition = self.at_punct(Punct::LParen);
        let partition_key = if parenthesized_partition {
            self.parenthesized_list(|p| p.ident_expecting("column name"))?
        } else {
            vec![self.ident_expecting("column name")?]
        };
        if partition_key.is_empty() {
            return Err(self.unexpected(&["column name"]));
        }
        let mut clustering = Vec::new();
        while self.eat_punct(Punct::Comma) {
            clustering.push(self.ident_expecting("column name")?);
        }
        self.expect_punct(Punct::RParen)?;
        Ok(PrimaryKey {
            partition_key,
            clustering,
            parenthesized_partition,
            span: self.span_from(start),
        })
    }

    /// `option (AND option)*` where an option is `CLUSTERING ORDER BY (...)`,
    /// `COMPACT STORAGE` or `name = value`.
    pub(crate) fn table_options(&mut self) -> PResult<TableOptions> {
        let mut options = TableOptions::default();
        loop {
            if self.at_word("clustering") && self.nth_is_word(1, "order") {
                self.bump();
                self.bump();
                self.expect_word("by")?;
                let orders = self.parenthesized_list(|p| p.clustering_order())?;
                options.clustering_order.extend(orders);
            } else if self.at_word("compact") && self.nth_is_word(1, "storage") {
                self.bump();
                self.bump();
                options.compact_storage = true;
            } else {
                options.properties.push(self.property()?);
            }
            if !self.eat_word("and") {
                return Ok(options);
            }
        }
    }

    fn clustering_order(&mut self) -> PResult<ClusteringOrder> {
        let start = self.peek().span.start;
        let column = self.ident_expecting("column name")?;
        let order = if self.eat_word("desc") {
            Order::Desc
        } else if self.eat_word("asc") {
            Order::Asc
        } else {
            return Err(self.unexpected(&["ASC", "DESC"]));
        };
        Ok(ClusteringOrder {
            column,
            order,
            span: self.span_from(start),
        })
    }

    /// After `ALTER`.
    pub(crate) fn alter_table(&mut self) -> PResult<AlterTable> {
        self.bump(); // TABLE or COLUMNFAMILY
        let if_exists = self.if_exists();
        let name = self.qualified_name_expecting("table name")?;
        let action = self.alter_table_action()?;
        Ok(AlterTable {
            if_exists,
            name,
            action,
        })
    }

    fn alter_table_action(&mut self) -> PResult<AlterTableAction> {
        if self.eat_word("alter") {
            let if_exists = self.if_exists();
            let column = self.ident_expecting("column name")?;
            if !if_exists && self.eat_word("type") {
                let data_type = self.data_type()?;
                return Ok(AlterTableAction::AlterColumnType { column, data_type });
            }
            let mask = if self.eat_words(&["drop", "masked"]) {
                None
            } else {
                match self.column_mask()? {
                    Some(mask) => Some(mask),
                    None => return Err(self.unexpected(&["TYPE", "MASKED WITH", "DROP MASKED"])),
                }
            };
            return Ok(AlterTableAction::Mask {
                if_exists,
                column,
                mask,
            });
        }
        if self.eat_word("add") {
            let if_not_exists = self.if_not_exists();
            let columns = if self.at_punct(Punct::LParen) {
                self.parenthesized_list(|p| p.column_def())?
            } else {
                vec![self.column_def()?]
            };
            return Ok(AlterTableAction::Add {
                if_not_exists,
                columns,
            });
        }
        if self.at_word("drop") {
            self.bump();
            if self.eat_words(&["compact", "storage"]) {
                return Ok(AlterTableAction::DropCompactStorage);
            }
            let if_exists = self.if_exists();
            let columns = if self.at_punct(Punct::LParen) {
                self.parenthesized_list(|p| p.ident_expecting("column name"))?
            } else {
                vec![self.ident_expecting("column name")?]
            };
            let timestamp = if self.eat_words(&["using", "timestamp"]) {
                match self.peek().kind {
                    TokenKind::Integer(_) => Some(self.simple_term()?),
                    _ => return Err(self.unexpected(&["integer"])),
                }
            } else {
                None
            };
            return Ok(AlterTableAction::Drop {
                if_exists,
                columns,
                timestamp,
            });
        }
        if self.eat_word("rename") {
            let if_exists = self.if_exists();
            let renames = self.renames()?;
            return Ok(AlterTableAction::Rename { if_exists, renames });
        }
        if self.eat_word("with") {
            let start = self.peek().span.start;
            let options = self.table_options()?;
            // Cassandra's ALTER TABLE takes only `name = value` properties: the
            // clustering order and COMPACT STORAGE are fixed at CREATE.
            if !options.clustering_order.is_empty() || options.compact_storage {
                return Err(ParseError::new(
                    ParseErrorKind::AlterFixedOption {
                        option: if options.compact_storage {
                            "COMPACT STORAGE"
                        } else {
                            "CLUSTERING ORDER BY"
                        }
                        .into(),
                    },
                    self.span_from(start),
                ));
            }
            return Ok(AlterTableAction::With(options));
        }
        Err(self.unexpected(&["ALTER", "ADD", "DROP", "RENAME", "WITH"]))
    }
}
