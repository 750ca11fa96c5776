//! SELECT selectors: columns, `count(*)`, `writetime(c)`, `ttl(c)`, `CAST`,
//! function calls, UDT field access, collection element and slice selection, and
//! constant terms.

use crate::ast::{ElementIndex, Selection, Selector, SelectorKind};
use crate::lexer::Punct;
use crate::parser::{PResult, Parser};

impl Parser {
    /// `*` or `selector [AS alias] (',' ...)*`.
    pub(crate) fn selection(&mut self) -> PResult<Selection> {
        if self.at_punct(Punct::Star) {
            return Ok(Selection::Wildcard(self.bump().span));
        }
        Ok(Selection::Selectors(
            self.comma_separated(|p| p.selector())?,
        ))
    }

    fn selector(&mut self) -> PResult<Selector> {
        let start = self.peek().span.start;
        let mut selector = self.unaliased_selector()?;
        if self.eat_word("as") {
            selector.alias = Some(self.ident_expecting("alias")?);
            selector.span = self.span_from(start);
        }
        Ok(selector)
    }

    fn unaliased_selector(&mut self) -> PResult<Selector> {
        self.nested(Self::unaliased_selector_inner)
    }

    fn unaliased_selector_inner(&mut self) -> PResult<Selector> {
        let start = self.peek().span.start;
        let kind = self.selector_base()?;
        let mut selector = Selector {
            kind,
            alias: None,
            span: self.span_from(start),
        };
        loop {
            let kind = if self.eat_punct(Punct::Dot) {
                let field = self.ident_expecting("field name")?;
                SelectorKind::Field {
                    selector: Box::new(selector),
                    field,
                }
            } else if self.eat_punct(Punct::LBracket) {
                let index = self.element_index()?;
                self.expect_punct(Punct::RBracket)?;
                SelectorKind::Element {
                    selector: Box::new(selector),
                    index,
                }
            } else {
                return Ok(selector);
            };
            selector = Selector {
                kind,
                alias: None,
                span: self.span_from(start),
            };
        }
    }

    fn selector_base(&mut self) -> PResult<SelectorKind> {
        let call = self.nth_is_punct(1, Punct::LParen);
        if call
            && self.at_word("count")
            && self.nth_is_punct(2, Punct::Star)
            && self.nth_is_punct(3, Punct::RParen)
        {
            for _ in 0..4 {
                self.bump();
            }
            return Ok(SelectorKind::CountStar);
        }
        for (word, make) in [
            ("writetime", SelectorKind::WriteTime as fn(_) -> _),
            ("maxwritetime", SelectorKind::MaxWriteTime),
            ("ttl", SelectorKind::Ttl),
        ] {
            if call && self.at_word(word) {
                self.bump();
                self.bump();
                let column = self.ident_expecting("column name")?;
                self.expect_punct(Punct::RParen)?;
                return Ok(make(column));
            }
        }
        if call && self.at_word("cast") {
            self.bump();
            self.bump();
            let selector = self.unaliased_selector()?;
            self.expect_word("as")?;
            let data_type = self.data_type()?;
            self.expect_punct(Punct::RParen)?;
            return Ok(SelectorKind::Cast {
                selector: Box::new(selector),
                data_type,
            });
        }
        if self.at_function_call() {
            let name = self.function_name()?;
            let args = self.parenthesized_list(|p| p.unaliased_selector())?;
            return Ok(SelectorKind::Function { name, args });
        }
        if self.at_ident() {
            return Ok(SelectorKind::Column(self.ident_expecting("column name")?));
        }
        if self.nth_starts_term(0) {
            return Ok(SelectorKind::Term(self.term()?));
        }
        Err(self.unexpected(&["selector", "'*'"]))
    }

    /// Inside `[...]`: `key`, `from..to`, `from..` or `..to`.
    fn element_index(&mut self) -> PResult<ElementIndex> {
        if self.eat_punct(Punct::Range) {
            return Ok(ElementIndex::Slice(None, Some(self.term()?)));
        }
        let first = self.term()?;
        if !self.eat_punct(Punct::Range) {
            return Ok(ElementIndex::Key(first));
        }
        if self.at_punct(Punct::RBracket) {
            Ok(ElementIndex::Slice(Some(first), None))
        } else {
            Ok(ElementIndex::Slice(Some(first), Some(self.term()?)))
        }
    }
}
