//! Hostile sizes: operator chains count as nesting, so a chain of 30,000 `+`
//! is a clean error, not a stack overflow when the tree is walked or dropped.

use cqlmodel_cql::{ParseErrorKind, parse};

fn chain(op: &str, n: usize) -> String {
    format!(
        "SELECT * FROM t WHERE k = {};\nSELECT * FROM t;",
        vec!["1"; n].join(op)
    )
}

#[test]
fn long_operator_chains_are_nesting_errors() {
    for op in ["+", "*", " - ", "/", "%"] {
        let parsed = parse(&chain(op, 30_000));
        assert!(
            matches!(
                parsed.errors.first().map(|e| &e.kind),
                Some(ParseErrorKind::NestingTooDeep { .. })
            ),
            "{op}: {:?}",
            parsed.errors.first()
        );
        assert_eq!(
            parsed.statements.len(),
            1,
            "the next statement still parses"
        );
    }
}

#[test]
fn mixed_chains_and_parentheses_are_bounded_too() {
    let mixed = format!(
        "SELECT * FROM t WHERE k = {};",
        vec!["(1*2)"; 20_000].join("+")
    );
    assert!(!parse(&mixed).errors.is_empty());
    let nested = format!(
        "SELECT * FROM t WHERE k = {}1{};",
        "(1+".repeat(10_000),
        ")".repeat(10_000)
    );
    assert!(!parse(&nested).errors.is_empty());
}

#[test]
fn ordinary_chains_still_parse_and_print() {
    let source = format!(
        "UPDATE t SET c = c + {} WHERE k = 1;",
        vec!["1"; 100].join(" + ")
    );
    let parsed = parse(&source);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let printed = parsed
        .statements
        .first()
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(parse(&printed).errors.is_empty());
}
