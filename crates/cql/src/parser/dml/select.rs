//! `SELECT [JSON] [DISTINCT] ... FROM ... [WHERE ...] [GROUP BY ...] [ORDER BY ...]
//! [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]`.

use crate::ast::{Order, Ordering, Select, Selection};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    pub(crate) fn select(&mut self) -> PResult<Select> {
        self.expect_word("select")?;
        // `json` and `distinct` are also valid column names: they are keywords only
        // when a selection and FROM follow them.
        let (json, (distinct, selection)) = match self.attempt(|p| {
            p.expect_word("json")?;
            p.distinct_and_selection()
        })? {
            Some(head) => (true, head),
            None => (false, self.distinct_and_selection()?),
        };
        self.expect_word("from")?;
        let table = self.qualified_name_expecting("table name")?;
        let where_clause = if self.eat_word("where") {
            self.where_clause()?
        } else {
            Vec::new()
        };
        let group_by = if self.eat_words(&["group", "by"]) {
            self.comma_separated(|p| p.ident_expecting("column name"))?
        } else {
            Vec::new()
        };
        let order_by = if self.eat_words(&["order", "by"]) {
            self.comma_separated(|p| p.ordering())?
        } else {
            Vec::new()
        };
        let per_partition_limit = if self.eat_words(&["per", "partition", "limit"]) {
            Some(self.int_value()?)
        } else {
            None
        };
        let limit = if self.eat_word("limit") {
            Some(self.int_value()?)
        } else {
            None
        };
        let allow_filtering = self.eat_words(&["allow", "filtering"]);
        Ok(Select {
            json,
            distinct,
            selection,
            table,
            where_clause,
            group_by,
            order_by,
            per_partition_limit,
            limit,
            allow_filtering,
        })
    }

    fn distinct_and_selection(&mut self) -> PResult<(bool, Selection)> {
        let distinct = self.attempt(|p| {
            p.expect_word("distinct")?;
            let selection = p.selection()?;
            if p.at_word("from") {
                Ok(selection)
            } else {
                Err(p.unexpected(&["FROM"]))
            }
        })?;
        if let Some(selection) = distinct {
            return Ok((true, selection));
        }
        let selection = self.selection()?;
        if !self.at_word("from") {
            return Err(self.unexpected(&["FROM", "','", "AS"]));
        }
        Ok((false, selection))
    }

    fn ordering(&mut self) -> PResult<Ordering> {
        let start = self.peek().span.start;
        let column = self.ident_expecting("column name")?;
        let ann_of = if self.eat_words(&["ann", "of"]) {
            Some(self.term()?)
        } else {
            None
        };
        let order = if self.eat_word("desc") {
            Order::Desc
        } else {
            self.eat_word("asc");
            Order::Asc
        };
        Ok(Ordering {
            column,
            order,
            ann_of,
            span: self.span_from(start),
        })
    }
}
