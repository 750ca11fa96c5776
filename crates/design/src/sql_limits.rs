//! A bound on SQL expressions before sqlparser sees them. sqlparser parses an
//! operator chain (`1 + 1 + …`, `a = 1 AND b = 2 AND …`) in a loop, but builds
//! a tree one level deeper per operator, and dropping or walking that tree
//! recurses: 30,000 `+` overflow the stack. Real queries hold a few dozen
//! operators; a statement with more than [`MAX_OPERATORS`] is refused with an
//! error at the operator past the limit.

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::tokenizer::{Token, Tokenizer};

/// The most binary operators one statement may hold.
pub const MAX_OPERATORS: usize = 1000;

/// The 1-based line and column (within `sql`) of the operator past the limit,
/// and the message, when `sql` holds too many operators. Text the tokenizer
/// rejects passes: sqlparser reports it with its own message.
pub fn too_many_operators(sql: &str) -> Option<((usize, usize), String)> {
    let dialect = PostgreSqlDialect {};
    let tokens = Tokenizer::new(&dialect, sql)
        .tokenize_with_location()
        .ok()?;
    let mut count = 0usize;
    for t in &tokens {
        let operator = match &t.token {
            Token::Plus
            | Token::Minus
            | Token::Mul
            | Token::Div
            | Token::Mod
            | Token::StringConcat
            | Token::Eq
            | Token::Neq
            | Token::Lt
            | Token::Gt
            | Token::LtEq
            | Token::GtEq => true,
            Token::Word(w) => {
                w.quote_style.is_none()
                    && (w.value.eq_ignore_ascii_case("and") || w.value.eq_ignore_ascii_case("or"))
            }
            _ => false,
        };
        if operator {
            count += 1;
            if count > MAX_OPERATORS {
                let at = (t.span.start.line as usize, t.span.start.column as usize);
                return Some((
                    at,
                    format!(
                        "the statement holds more than {MAX_OPERATORS} operators: too long an expression to design from"
                    ),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_chain_is_refused_at_the_operator_past_the_limit() {
        let sql = format!("SELECT * FROM t WHERE id = {}", vec!["1"; 30_000].join("+"));
        let found = too_many_operators(&sql);
        assert!(found.is_some());
        assert!(too_many_operators("SELECT a + b FROM t WHERE x = 1 AND y > 2").is_none());
        assert!(too_many_operators("SELECT 'unclosed").is_none());
    }
}
