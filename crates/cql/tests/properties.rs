//! Property tests: the parser never panics, and generated trees print and parse
//! back to themselves.

mod common;
mod strategies;

use cqlmodel_cql::ast::SourceFile;
use cqlmodel_cql::{parse, parse_data_type, parse_statement, parse_term};
use proptest::prelude::*;

/// Pieces of CQL to build token soups from: keywords, punctuation, literals and
/// fragments that open strings, comments and quoted names.
const SOUP: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "INSERT",
    "INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE",
    "BEGIN",
    "BATCH",
    "APPLY",
    "UNLOGGED",
    "COUNTER",
    "CREATE",
    "ALTER",
    "DROP",
    "TABLE",
    "TYPE",
    "INDEX",
    "CUSTOM",
    "KEYSPACE",
    "MATERIALIZED",
    "VIEW",
    "FUNCTION",
    "AGGREGATE",
    "PRIMARY",
    "KEY",
    "WITH",
    "CLUSTERING",
    "ORDER",
    "BY",
    "ASC",
    "DESC",
    "IF",
    "NOT",
    "EXISTS",
    "IN",
    "CONTAINS",
    "LIKE",
    "IS",
    "NULL",
    "TOKEN",
    "USING",
    "TTL",
    "TIMESTAMP",
    "LIMIT",
    "PER",
    "PARTITION",
    "ALLOW",
    "FILTERING",
    "JSON",
    "DISTINCT",
    "AS",
    "CAST",
    "COUNT",
    "WRITETIME",
    "frozen",
    "list",
    "set",
    "map",
    "tuple",
    "vector",
    "int",
    "text",
    "STATIC",
    "MASKED",
    "DEFAULT",
    "ANN",
    "OF",
    "GROUP",
    "KEYS",
    "ENTRIES",
    "FULL",
    "USE",
    "TRUNCATE",
    "OR",
    "REPLACE",
    "SFUNC",
    "STYPE",
    "INITCOND",
    "RETURNS",
    "CALLED",
    "ON",
    "INPUT",
    "LANGUAGE",
    "a",
    "b",
    "k",
    "\"Q\"",
    "'s'",
    "1",
    "-1",
    "1.5",
    "1e3",
    "NaN",
    "-Infinity",
    "true",
    "0xff",
    "1h30m",
    "P1D",
    "01234567-89ab-cdef-0123-456789abcdef",
    "?",
    ":n",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "!=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ".",
    ":",
    "+=",
    "-=",
    "..",
    "'",
    "\"",
    "$$",
    "--",
    "/*",
    "*/",
    "\n",
    "é",
    "#",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(SOUP),
            prop::sample::select(vec!["", " "]),
        ),
        0..40,
    )
    .prop_map(|parts| {
        parts
            .into_iter()
            .map(|(t, sep)| format!("{t}{sep}"))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(src in any::<String>()) {
        let result = parse(&src);
        for e in &result.errors {
            prop_assert!(e.span.start <= e.span.end && (e.span.end as usize) <= src.len());
            prop_assert!(src.is_char_boundary(e.span.start as usize));
        }
        let _ = parse_statement(&src);
        let _ = parse_term(&src);
        let _ = parse_data_type(&src);
    }

    #[test]
    fn token_soup_never_panics(src in soup()) {
        let result = parse(&src);
        for stmt in &result.statements {
            prop_assert!((stmt.span.end as usize) <= src.len());
            // Whatever parsed also prints and parses back.
            common::assert_round_trip(stmt, &src);
        }
        let _ = parse_statement(&src);
        let _ = parse_term(&src);
        let _ = parse_data_type(&src);
    }
}

/// Runs `test` on `cases` values of `strategy` in a thread with a large stack:
/// generating deeply nested trees through proptest's combinators takes more stack
/// in debug builds than a test thread's default 2 MiB.
fn check<S>(
    strategy: impl FnOnce() -> S + Send + 'static,
    cases: u32,
    test: impl Fn(S::Value) -> Result<(), TestCaseError> + Send + 'static,
) where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let outcome = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            // PROPTEST_CASES (read by the default config) can raise the count.
            let defaults = ProptestConfig::default();
            let config = ProptestConfig {
                cases: cases.max(defaults.cases),
                ..defaults
            };
            let mut runner = proptest::test_runner::TestRunner::new(config);
            runner.run(&strategy(), test).map_err(|e| e.to_string())
        })
        .map_err(|e| e.to_string())
        .and_then(|handle| {
            handle
                .join()
                .map_err(|_| "test thread panicked".to_string())
        });
    if let Err(message) = outcome.and_then(|r| r) {
        panic!("{message}");
    }
}

#[test]
fn data_types_round_trip() {
    check(strategies::data_type, 1024, |ty| {
        let printed = ty.to_string();
        prop_assert_eq!(parse_data_type(&printed), Ok(ty), "{}", printed);
        Ok(())
    });
}

#[test]
fn terms_round_trip() {
    check(strategies::term, 1024, |term| {
        let printed = term.to_string();
        prop_assert_eq!(parse_term(&printed), Ok(term), "{}", printed);
        Ok(())
    });
}

#[test]
fn statements_round_trip() {
    check(strategies::statements::statement, 1024, |stmt| {
        let printed = stmt.to_string();
        prop_assert_eq!(parse_statement(&printed), Ok(stmt), "{}", printed);
        Ok(())
    });
}

#[test]
fn files_round_trip() {
    let files = || prop::collection::vec(strategies::statements::statement(), 0..4);
    check(files, 256, |statements| {
        let file = SourceFile { statements };
        let printed = file.to_string();
        let result = parse(&printed);
        prop_assert!(result.errors.is_empty(), "{:?}\n{}", result.errors, printed);
        prop_assert_eq!(result.into_source_file(), file);
        Ok(())
    });
}
