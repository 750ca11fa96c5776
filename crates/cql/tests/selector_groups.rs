//! Parentheses and type hints in selectors (Cassandra 5.0's
//! `selectionTupleOrNestedSelector` and `selectionTypeHint`).

mod common;

use common::assert_round_trip;
use cqlmodel_cql::ast::*;
use cqlmodel_cql::parse_statement;

fn selectors(src: &str) -> Vec<Selector> {
    let statement = match parse_statement(src) {
        Ok(s) => s,
        Err(e) => panic!("{src}: {e}"),
    };
    assert_round_trip(&statement, src);
    match statement.kind {
        StatementKind::Select(Select {
            selection: Selection::Selectors(selectors),
            ..
        }) => selectors,
        other => panic!("not a select with selectors: {other:?}"),
    }
}

fn printed(src: &str) -> String {
    match parse_statement(src) {
        Ok(s) => s.to_string(),
        Err(e) => panic!("{src}: {e}"),
    }
}

#[test]
fn parentheses_group_arithmetic() {
    let [s] = selectors("SELECT (c + 1) * 2 FROM t")
        .try_into()
        .expect("one");
    let SelectorKind::Binary { op, left, .. } = s.kind else {
        panic!("not binary: {:?}", s.kind);
    };
    assert_eq!(op, ArithmeticOp::Mul);
    assert!(
        matches!(
            left.kind,
            SelectorKind::Binary {
                op: ArithmeticOp::Add,
                ..
            }
        ),
        "{left:?}"
    );
    assert_eq!(
        printed("SELECT (c + 1) * 2 FROM t"),
        "SELECT (c + 1) * 2 FROM t"
    );
    assert_eq!(
        printed("SELECT a - (b - c) FROM t"),
        "SELECT a - (b - c) FROM t"
    );
    assert_eq!(printed("SELECT -(a + b) FROM t"), "SELECT -(a + b) FROM t");
}

#[test]
fn redundant_parentheses_are_not_kept() {
    assert_eq!(printed("SELECT (c) FROM t"), "SELECT c FROM t");
    assert_eq!(
        printed("SELECT ((a * b)) + c FROM t"),
        "SELECT a * b + c FROM t"
    );
    assert_eq!(
        printed("SELECT (a + b)['k'] FROM t"),
        "SELECT (a + b)['k'] FROM t"
    );
}

#[test]
fn a_parenthesized_group_takes_modifiers() {
    let [s] = selectors("SELECT (u).f FROM t").try_into().expect("one");
    assert!(matches!(s.kind, SelectorKind::Field { .. }), "{:?}", s.kind);
}

#[test]
fn type_hints_on_constants_markers_and_columns() {
    for src in [
        "SELECT (int) ? FROM t",
        "SELECT (text) 'a' FROM t",
        "SELECT (bigint) c FROM t",
        "SELECT (int) ? + 1 FROM t",
    ] {
        let s = selectors(src);
        assert_eq!(s.len(), 1, "{src}");
    }
    let [s] = selectors("SELECT (bigint) c FROM t")
        .try_into()
        .expect("one");
    assert!(
        matches!(s.kind, SelectorKind::TypeHint { .. }),
        "{:?}",
        s.kind
    );
}

#[test]
fn tuples_of_constants_stay_terms() {
    let [s] = selectors("SELECT (1, 'a') FROM t").try_into().expect("one");
    assert!(matches!(s.kind, SelectorKind::Term(_)), "{:?}", s.kind);
}

#[test]
fn constant_groups_and_aliases_in_parentheses() {
    for (src, canonical) in [
        ("SELECT (1 + 2) * c FROM t", "SELECT (1 + 2) * c FROM t"),
        ("SELECT c * (1 - 2) FROM t", "SELECT c * (1 - 2) FROM t"),
        ("SELECT (c) AS x FROM t", "SELECT c AS x FROM t"),
        ("SELECT (u.f) AS x FROM t", "SELECT u.f AS x FROM t"),
    ] {
        selectors(src);
        assert_eq!(printed(src), canonical);
    }
}

/// Found by the round-trip property: `(ascii) as + a` and `(ascii) as()`
/// read back as the group `(ascii)` with an alias, so a hinted selector that
/// starts with the word `as` prints in parentheses.
#[test]
fn a_hinted_selector_starting_with_as_prints_grouped_and_reads_back() {
    for (src, expected) in [
        (
            "SELECT a + (ascii) \"as\" + a FROM t",
            "SELECT a + (ascii) (as) + a FROM t",
        ),
        (
            "SELECT (ascii) \"as\"() FROM t",
            "SELECT (ascii) (as()) FROM t",
        ),
        ("SELECT (ascii) asset FROM t", "SELECT (ascii) asset FROM t"),
    ] {
        let text = printed(src);
        assert_eq!(text, expected);
        assert_eq!(selectors(&text), selectors(src));
    }
}

/// Found by the round-trip property: `SELECT json - a …` reads as
/// `SELECT JSON -a …` (Cassandra's grammar takes JSON when a selection
/// follows), so a first column named `json` before an operator is quoted.
#[test]
fn a_first_column_named_json_before_an_operator_prints_quoted() {
    let text = printed("SELECT \"json\" - a + a FROM t");
    assert_eq!(text, "SELECT \"json\" - a + a FROM t");
    selectors(&text);
    assert_eq!(
        printed("SELECT json AS j, a FROM t"),
        "SELECT json AS j, a FROM t"
    );
    assert_eq!(printed("SELECT json, a FROM t"), "SELECT json, a FROM t");
}

/// `(a, b)`, `[a, b]`, `{a, b}` and `{k: v}` holding columns are selectors
/// of their own (`selectionTupleOrNestedSelector`, `selectionList`,
/// `selectionMapOrSet`); all constants stay a term; `(a)` only groups.
#[test]
fn tuples_and_collections_of_columns() {
    let got = selectors(
        "SELECT (a, b), [a, b + 1], {a, 'x'}, {a: b, 'k': writetime(c)}, (a) AS g FROM t",
    );
    let kinds: Vec<&SelectorKind> = got.iter().map(|s| &s.kind).collect();
    assert!(
        matches!(kinds[0], SelectorKind::Tuple(items) if items.len() == 2),
        "{:?}",
        kinds[0]
    );
    assert!(
        matches!(kinds[1], SelectorKind::List(items) if items.len() == 2),
        "{:?}",
        kinds[1]
    );
    assert!(
        matches!(kinds[1], SelectorKind::List(items)
            if matches!(items[1].kind, SelectorKind::Binary { .. })),
        "{:?}",
        kinds[1]
    );
    assert!(
        matches!(kinds[2], SelectorKind::Set(items) if items.len() == 2),
        "{:?}",
        kinds[2]
    );
    assert!(
        matches!(kinds[3], SelectorKind::Map(pairs) if pairs.len() == 2),
        "{:?}",
        kinds[3]
    );
    assert!(
        matches!(kinds[4], SelectorKind::Column(c) if c.value == "a"),
        "{:?}",
        kinds[4]
    );
    assert_eq!(kinds[3].items().len(), 4);

    let constants = selectors("SELECT [1, 2], {'k': 1}, (1, 'a') FROM t");
    assert!(
        constants
            .iter()
            .all(|s| matches!(s.kind, SelectorKind::Term(_))),
        "{constants:?}"
    );
    assert_eq!(
        printed("SELECT (int) [a,b], ( a , b ).f, {}, [ ] FROM t"),
        "SELECT (int) [a, b], (a, b).f, {}, [] FROM t"
    );
}
