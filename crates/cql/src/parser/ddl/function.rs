//! `CREATE [OR REPLACE] FUNCTION` and `CREATE [OR REPLACE] AGGREGATE`, in the form
//! DESCRIBE prints them.

use crate::ast::{CreateAggregate, CreateFunction, FunctionArg, StatementKind};
use crate::lexer::TokenKind;
use crate::parser::{PResult, Parser};

impl Parser<'_> {
    /// After `CREATE`.
    pub(crate) fn create_function_or_aggregate(&mut self) -> PResult<StatementKind> {
        let or_replace = self.eat_words(&["or", "replace"]);
        if self.eat_word("function") {
            return self
                .create_function(or_replace)
                .map(StatementKind::CreateFunction);
        }
        if self.eat_word("aggregate") {
            return self
                .create_aggregate(or_replace)
                .map(StatementKind::CreateAggregate);
        }
        Err(self.unexpected(&["FUNCTION", "AGGREGATE"]))
    }

    fn create_function(&mut self, or_replace: bool) -> PResult<CreateFunction> {
        let if_not_exists = self.if_not_exists();
        let name = self.function_name()?;
        let args = self.parenthesized_list(|p| {
            let name = p.ident_expecting("argument name")?;
            let data_type = p.data_type()?;
            Ok(FunctionArg { name, data_type })
        })?;
        let called_on_null_input = if self.eat_words(&["called", "on", "null", "input"]) {
            true
        } else if self.eat_words(&["returns", "null", "on", "null", "input"]) {
            false
        } else {
            return Err(self.unexpected(&["CALLED ON NULL INPUT", "RETURNS NULL ON NULL INPUT"]));
        };
        self.expect_word("returns")?;
        let returns = self.data_type()?;
        self.expect_word("language")?;
        let language = self.ident_expecting("language")?;
        self.expect_word("as")?;
        let (body, dollar_quoted) = match &self.peek().kind {
            TokenKind::Str { value, dollar } => {
                let body = (value.clone(), *dollar);
                self.bump();
                body
            }
            _ => return Err(self.unexpected(&["function body string"])),
        };
        Ok(CreateFunction {
            or_replace,
            if_not_exists,
            name,
            args,
            called_on_null_input,
            returns,
            language,
            body,
            dollar_quoted,
        })
    }

    fn create_aggregate(&mut self, or_replace: bool) -> PResult<CreateAggregate> {
        let if_not_exists = self.if_not_exists();
        let name = self.function_name()?;
        let arg_types = self.parenthesized_list(|p| p.data_type())?;
        self.expect_word("sfunc")?;
        let state_function = self.function_simple_name()?;
        self.expect_word("stype")?;
        let state_type = self.data_type()?;
        let final_function = if self.eat_word("finalfunc") {
            Some(self.function_simple_name()?)
        } else {
            None
        };
        let init_condition = if self.eat_word("initcond") {
            Some(self.term()?)
        } else {
            None
        };
        Ok(CreateAggregate {
            or_replace,
            if_not_exists,
            name,
            arg_types,
            state_function,
            state_type,
            final_function,
            init_condition,
        })
    }
}
