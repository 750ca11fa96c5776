//! SELECT selectors: columns, `count(*)`, `writetime(c)`, `ttl(c)`, `CAST`,
//! function calls, UDT field access, collection element and slice selection,
//! constant terms, negation and arithmetic (`c + 1`, `-c`, `a * b`).

use crate::ast::{ArithmeticOp, ElementIndex, Selection, Selector, SelectorKind, Term, TermKind};
use crate::lexer::{Punct, TokenKind};
use crate::parser::{PResult, Parser};

impl Parser<'_> {
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
        // A selector level (with its arithmetic chain) takes about twice the
        // stack of a term level: it counts as two against the nesting limit,
        // so 64 nested function calls in a selection are the most.
        self.nested(|p| p.nested(Self::selector_addition))
    }

    /// `selectionAddition` / `selectionMultiplication`: left-associative
    /// chains, `*` `/` `%` binding tighter than `+` `-`. A selector without an
    /// operator takes no extra stack frame (function arguments nest 128 deep).
    /// Each operator counts as a nesting level (see [`Parser::term`]), so a
    /// 30,000-operator chain is an error, not a stack overflow.
    fn selector_addition(&mut self) -> PResult<Selector> {
        let first = if self.at_negation() {
            self.selector_group()?
        } else {
            self.unaliased_selector_inner()?
        };
        if arithmetic_op(&self.peek().kind).is_none() {
            return Ok(first);
        }
        let base = self.depth;
        let result = self.selector_chain(first);
        self.depth = base;
        result
    }

    fn selector_chain(&mut self, first: Selector) -> PResult<Selector> {
        let start = first.span.start;
        let mut left = self.multiplications(first)?;
        while let Some(op @ (ArithmeticOp::Add | ArithmeticOp::Sub)) =
            arithmetic_op(&self.peek().kind)
        {
            self.deeper_by_one_operator()?;
            self.bump();
            let group = self.selector_group()?;
            let right = self.multiplications(group)?;
            left = self.binary_selector(op, left, right, start);
        }
        Ok(left)
    }

    /// `first (('*' | '/' | '%') group)*`.
    fn multiplications(&mut self, first: Selector) -> PResult<Selector> {
        let start = first.span.start;
        let mut left = first;
        while let Some(op @ (ArithmeticOp::Mul | ArithmeticOp::Div | ArithmeticOp::Mod)) =
            arithmetic_op(&self.peek().kind)
        {
            self.deeper_by_one_operator()?;
            self.bump();
            let right = self.selector_group()?;
            left = self.binary_selector(op, left, right, start);
        }
        Ok(left)
    }

    fn binary_selector(
        &self,
        op: ArithmeticOp,
        left: Selector,
        right: Selector,
        start: u32,
    ) -> Selector {
        Selector {
            kind: SelectorKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            alias: None,
            span: self.span_from(start),
        }
    }

    /// `selectionGroup`: `-group` (a minus before a number stays a negative
    /// literal), or a selector with its `.field` / `[index]` modifiers.
    fn selector_group(&mut self) -> PResult<Selector> {
        if !self.at_negation() {
            return self.unaliased_selector_inner();
        }
        let start = self.bump().span.start;
        let inner = self.nested(Self::selector_group)?;
        Ok(Selector {
            kind: SelectorKind::Negate(Box::new(inner)),
            alias: None,
            span: self.span_from(start),
        })
    }

    /// At `-` before something other than a number (which is a negative literal).
    fn at_negation(&self) -> bool {
        self.at_punct(Punct::Minus)
            && !matches!(
                self.nth(1).kind,
                TokenKind::Integer(_)
                    | TokenKind::Float(_)
                    | TokenKind::Duration(_)
                    | TokenKind::SpecialFloat(_)
            )
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
        if self.at_punct(Punct::LParen) {
            return self.parenthesized_selector();
        }
        if self.at_punct(Punct::LBracket) || self.at_punct(Punct::LBrace) {
            // All constants: a term, as before; else a collection of selectors.
            if let Some(term) = self.attempt(|p| p.nested(Self::term_group))? {
                return Ok(SelectorKind::Term(term));
            }
            return self.nested(Self::selector_collection);
        }
        if self.nth_starts_term(0) {
            // Without arithmetic: `1 - c * 2` is the selectors' chain, so that
            // precedence holds across constants and columns.
            return Ok(SelectorKind::Term(self.nested(Self::term_group)?));
        }
        Err(self.unexpected(&["selector", "'*'"]))
    }

    /// At `(`: a type hint `(type) group` (`selectionTypeHint`, tried first as
    /// Cassandra's grammar does), a constant tuple `(1, 'a')` (a term), or a
    /// selector in parentheses, which only groups: `(c + 1) * 2` is the tree
    /// of `c + 1` times 2, and `Display` prints the parentheses it needs.
    fn parenthesized_selector(&mut self) -> PResult<SelectorKind> {
        if let Some(hint) = self.attempt(Self::type_hint_selector)? {
            return Ok(hint);
        }
        if let Some(term) = self.attempt(Self::constant_tuple)? {
            return Ok(SelectorKind::Term(term));
        }
        self.expect_punct(Punct::LParen)?;
        let inner = self.unaliased_selector()?;
        if !self.at_punct(Punct::Comma) {
            self.expect_punct(Punct::RParen)?;
            return Ok(inner.kind);
        }
        let mut items = vec![inner];
        while self.eat_punct(Punct::Comma) {
            items.push(self.unaliased_selector()?);
        }
        self.expect_punct(Punct::RParen)?;
        Ok(SelectorKind::Tuple(items))
    }

    /// `[a, b]`, `{a, b}`, `{k: v, ...}` or `{}` whose items are selectors
    /// (`selectionList`, `selectionMapOrSet`).
    fn selector_collection(&mut self) -> PResult<SelectorKind> {
        if self.eat_punct(Punct::LBracket) {
            let mut items = Vec::new();
            if !self.at_punct(Punct::RBracket) {
                items.push(self.unaliased_selector()?);
                while self.eat_punct(Punct::Comma) {
                    items.push(self.unaliased_selector()?);
                }
            }
            self.expect_punct(Punct::RBracket)?;
            return Ok(SelectorKind::List(items));
        }
        self.expect_punct(Punct::LBrace)?;
        if self.eat_punct(Punct::RBrace) {
            return Ok(SelectorKind::Set(Vec::new()));
        }
        let first = self.unaliased_selector()?;
        if !self.eat_punct(Punct::Colon) {
            let mut items = vec![first];
            while self.eat_punct(Punct::Comma) {
                items.push(self.unaliased_selector()?);
            }
            self.expect_punct(Punct::RBrace)?;
            return Ok(SelectorKind::Set(items));
        }
        let mut pairs = vec![(first, self.unaliased_selector()?)];
        while self.eat_punct(Punct::Comma) {
            let key = self.unaliased_selector()?;
            self.expect_punct(Punct::Colon)?;
            pairs.push((key, self.unaliased_selector()?));
        }
        self.expect_punct(Punct::RBrace)?;
        Ok(SelectorKind::Map(pairs))
    }

    /// A tuple of two or more constants. One value in parentheses is not a
    /// tuple in a selection (`selectionTupleOrNestedSelector`): `(1)` is `1`.
    fn constant_tuple(&mut self) -> PResult<Term> {
        let term = self.nested(Self::term_group)?;
        match &term.kind {
            TermKind::Tuple(items) if items.len() >= 2 => Ok(term),
            _ => Err(self.unexpected(&["','"])),
        }
    }

    /// `(type) group`; a hint on a constant or bind marker is the term
    /// `(type) value`, as in WHERE clauses and VALUES.
    fn type_hint_selector(&mut self) -> PResult<SelectorKind> {
        let start = self.expect_punct(Punct::LParen)?.start;
        let data_type = self.data_type()?;
        self.expect_punct(Punct::RParen)?;
        // `(u.f) AS x`, `(t) FROM`: a parenthesized name, not a hint on a
        // column named `as` or `from`.
        if self.at_word("as") || self.at_word("from") {
            return Err(self.unexpected(&["selector"]));
        }
        let inner_start = self.peek().span.start;
        let kind = self.nested(Self::selector_base)?;
        let selector = Selector {
            kind,
            alias: None,
            span: self.span_from(inner_start),
        };
        Ok(match selector.kind {
            SelectorKind::Term(term) => SelectorKind::Term(Term {
                kind: TermKind::TypeHint {
                    ty: data_type,
                    term: Box::new(term),
                },
                span: self.span_from(start),
            }),
            _ => SelectorKind::TypeHint {
                data_type,
                selector: Box::new(selector),
            },
        })
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

fn arithmetic_op(kind: &TokenKind) -> Option<ArithmeticOp> {
    match kind {
        TokenKind::Punct(Punct::Plus) => Some(ArithmeticOp::Add),
        TokenKind::Punct(Punct::Minus) => Some(ArithmeticOp::Sub),
        TokenKind::Punct(Punct::Star) => Some(ArithmeticOp::Mul),
        TokenKind::Punct(Punct::Slash) => Some(ArithmeticOp::Div),
        TokenKind::Punct(Punct::Percent) => Some(ArithmeticOp::Mod),
        _ => None,
    }
}
