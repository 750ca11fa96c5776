//! Which words can be identifiers without quotes.
//!
//! Cassandra reserves a fixed list of keywords (its `reserved_keywords.txt`); every
//! other keyword (`key`, `ttl`, `type`, `values`, `keys`, `count`, `writetime`, native
//! type names...) may name a column, table or keyspace unquoted. `true`, `false`,
//! `NaN` and `Infinity` are lexed as literals and so can never be bare names either.

/// Cassandra 5.0's reserved keywords, lower-case.
pub const RESERVED_KEYWORDS: &[&str] = &[
    "add",
    "allow",
    "alter",
    "and",
    "apply",
    "asc",
    "authorize",
    "batch",
    "begin",
    "by",
    "columnfamily",
    "create",
    "delete",
    "desc",
    "describe",
    "drop",
    "entries",
    "execute",
    "from",
    "full",
    "grant",
    "if",
    "in",
    "index",
    "infinity",
    "insert",
    "into",
    "is",
    "keyspace",
    "limit",
    "materialized",
    "modify",
    "nan",
    "norecursive",
    "not",
    "null",
    "of",
    "on",
    "or",
    "order",
    "primary",
    "rename",
    "revoke",
    "schema",
    "select",
    "set",
    "table",
    "to",
    "token",
    "truncate",
    "unlogged",
    "update",
    "use",
    "using",
    "view",
    "where",
    "with",
];

/// True when `word` (any case) is a reserved keyword.
pub fn is_reserved_keyword(word: &str) -> bool {
    RESERVED_KEYWORDS
        .iter()
        .any(|k| k.eq_ignore_ascii_case(word))
}

/// True when `ident` (a resolved identifier: the exact name) must be double-quoted
/// to be read back as itself.
pub fn needs_quoting(ident: &str) -> bool {
    let mut chars = ident.chars();
    let well_formed = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    !well_formed || is_reserved_keyword(ident) || ident == "true" || ident == "false"
}

/// `ident` as CQL source: bare when possible, otherwise `"quoted"` with `"` doubled.
pub fn quote_ident(ident: &str) -> String {
    if needs_quoting(ident) {
        format!("\"{}\"", ident.replace('"', "\"\""))
    } else {
        ident.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreserved_keywords_stay_bare() {
        for word in [
            "key",
            "ttl",
            "type",
            "values",
            "keys",
            "count",
            "writetime",
            "text",
        ] {
            assert_eq!(quote_ident(word), word);
        }
    }

    #[test]
    fn reserved_words_literals_and_odd_names_are_quoted() {
        assert_eq!(quote_ident("select"), "\"select\"");
        assert_eq!(quote_ident("true"), "\"true\"");
        assert_eq!(quote_ident("nan"), "\"nan\"");
        assert_eq!(quote_ident("MyCol"), "\"MyCol\"");
        assert_eq!(quote_ident("_x"), "\"_x\"");
        assert_eq!(quote_ident("1a"), "\"1a\"");
        assert_eq!(quote_ident(""), "\"\"");
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
    }
}
