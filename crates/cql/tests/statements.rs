//! What the parser builds for specific inputs, statement family by family.

use cqlmodel_cql::ast::*;
use cqlmodel_cql::{ParseErrorKind, parse, parse_data_type, parse_statement, parse_term};

fn stmt(src: &str) -> StatementKind {
    match parse_statement(src) {
        Ok(s) => s.kind,
        Err(e) => panic!("{src}: {e}"),
    }
}

fn select(src: &str) -> Select {
    match stmt(src) {
        StatementKind::Select(s) => s,
        other => panic!("not a select: {other:?}"),
    }
}

fn update(src: &str) -> Update {
    match stmt(src) {
        StatementKind::Update(u) => u,
        other => panic!("not an update: {other:?}"),
    }
}

fn term(src: &str) -> TermKind {
    match parse_term(src) {
        Ok(t) => t.kind,
        Err(e) => panic!("{src}: {e}"),
    }
}

fn ty(src: &str) -> DataTypeKind {
    match parse_data_type(src) {
        Ok(t) => t.kind,
        Err(e) => panic!("{src}: {e}"),
    }
}

fn int(text: &str) -> TermKind {
    TermKind::Literal(Literal::Integer(text.into()))
}

fn t(kind: TermKind) -> Term {
    Term {
        kind,
        span: Span::default(),
    }
}

fn id(name: &str) -> Ident {
    Ident::new(name)
}

fn error_kind(src: &str) -> ParseErrorKind {
    match parse_statement(src) {
        Ok(s) => panic!("{src} parsed as {s:?}"),
        Err(e) => e.kind,
    }
}

// ----- identifiers -----------------------------------------------------------------

#[test]
fn unquoted_identifiers_are_lower_cased_and_quoted_ones_kept() {
    let s = select(r#"SELECT MyCol, "MyCol", "a""b" FROM Ks."Tbl""#);
    let Selection::Selectors(sel) = s.selection else {
        panic!("wildcard")
    };
    let names: Vec<SelectorKind> = sel.into_iter().map(|s| s.kind).collect();
    assert_eq!(
        names,
        vec![
            SelectorKind::Column(id("mycol")),
            SelectorKind::Column(id("MyCol")),
            SelectorKind::Column(id("a\"b")),
        ]
    );
    assert_eq!(s.table.keyspace, Some(id("ks")));
    assert_eq!(s.table.name, id("Tbl"));
}

#[test]
fn unreserved_keywords_are_identifiers() {
    let s = select("SELECT key, ttl, type, values, keys, count, writetime FROM t");
    let Selection::Selectors(sel) = s.selection else {
        panic!("wildcard")
    };
    assert_eq!(sel.len(), 7);
    assert!(
        sel.iter()
            .all(|s| matches!(s.kind, SelectorKind::Column(_)))
    );
}

#[test]
fn reserved_keywords_are_not_identifiers() {
    assert_eq!(
        error_kind("CREATE TABLE t (token int PRIMARY KEY)"),
        ParseErrorKind::ReservedKeyword {
            keyword: "token".into()
        }
    );
    assert!(parse_statement(r#"CREATE TABLE t ("token" int PRIMARY KEY)"#).is_ok());
}

#[test]
fn json_and_distinct_are_keywords_only_before_a_selection() {
    let s = select("SELECT json FROM t");
    assert!(!s.json);
    let s = select("SELECT JSON json FROM t");
    assert!(s.json && !s.distinct);
    let s = select("SELECT distinct, json FROM t");
    assert!(!s.json && !s.distinct);
    let s = select("SELECT DISTINCT distinct FROM t");
    assert!(s.distinct);
    let s = select("SELECT JSON DISTINCT a FROM t");
    assert!(s.json && s.distinct);
}

// ----- selectors ------------------------------------------------------------------------

#[test]
fn selector_forms() {
    let s = select(
        "SELECT count(*), COUNT(1) AS c, writetime(v), maxwritetime(v), ttl(v), token(k), \
         cast(v AS text), u.f.g, m['k'], l[1..2], l[..2], l[1..] FROM t",
    );
    let Selection::Selectors(sel) = s.selection else {
        panic!("wildcard")
    };
    let kinds: Vec<&SelectorKind> = sel.iter().map(|s| &s.kind).collect();
    assert_eq!(kinds[0], &SelectorKind::CountStar);
    assert!(matches!(kinds[1], SelectorKind::Function { name, args }
        if name.name.as_str() == "count" && args.len() == 1));
    assert_eq!(sel[1].alias, Some(id("c")));
    assert_eq!(kinds[2], &SelectorKind::WriteTime(id("v")));
    assert_eq!(kinds[3], &SelectorKind::MaxWriteTime(id("v")));
    assert_eq!(kinds[4], &SelectorKind::Ttl(id("v")));
    assert!(
        matches!(kinds[5], SelectorKind::Function { name, .. } if name.name.as_str() == "token")
    );
    assert!(matches!(kinds[6], SelectorKind::Cast { data_type, .. }
        if data_type.kind == DataTypeKind::Native(NativeType::Text)));
    let SelectorKind::Field { selector, field } = kinds[7] else {
        panic!("{:?}", kinds[7])
    };
    assert_eq!(field, &id("g"));
    assert!(matches!(&selector.kind, SelectorKind::Field { field, .. } if field == &id("f")));
    assert!(matches!(
        kinds[8],
        SelectorKind::Element {
            index: ElementIndex::Key(_),
            ..
        }
    ));
    assert!(matches!(
        kinds[9],
        SelectorKind::Element {
            index: ElementIndex::Slice(Some(_), Some(_)),
            ..
        }
    ));
    assert!(matches!(
        kinds[10],
        SelectorKind::Element {
            index: ElementIndex::Slice(None, Some(_)),
            ..
        }
    ));
    assert!(matches!(
        kinds[11],
        SelectorKind::Element {
            index: ElementIndex::Slice(Some(_), None),
            ..
        }
    ));
}

// ----- relations -------------------------------------------------------------------------

#[test]
fn relation_forms() {
    let s = select(
        "SELECT * FROM t WHERE a = 1 AND b IN (1, 2) AND c NOT IN ? AND m['k'] > 2 \
         AND (x, y) >= (1, 2) AND (x, y) IN ((1, 2)) AND token(a, b) < ? AND v IS NOT NULL \
         AND s CONTAINS KEY 'k' AND n LIKE 'a%'",
    );
    let kinds: Vec<RelationKind> = s.where_clause.into_iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds[0],
        RelationKind::Column {
            column: id("a"),
            op: Operator::Eq,
            value: t(int("1"))
        }
    );
    assert_eq!(
        kinds[1],
        RelationKind::ColumnIn {
            column: id("b"),
            negated: false,
            values: InValues::List(vec![t(int("1")), t(int("2"))])
        }
    );
    assert_eq!(
        kinds[2],
        RelationKind::ColumnIn {
            column: id("c"),
            negated: true,
            values: InValues::Marker(t(TermKind::BindMarker(BindMarker::Anonymous)))
        }
    );
    assert!(matches!(
        &kinds[3],
        RelationKind::MapEntry {
            op: Operator::Gt,
            ..
        }
    ));
    assert!(
        matches!(&kinds[4], RelationKind::MultiColumn { columns, op: Operator::Gte, value }
        if columns.len() == 2 && matches!(value.kind, TermKind::Tuple(_)))
    );
    assert!(
        matches!(&kinds[5], RelationKind::MultiColumnIn { values: InValues::List(v), .. } if v.len() == 1)
    );
    assert!(
        matches!(&kinds[6], RelationKind::Token { columns, op: Operator::Lt, .. } if columns.len() == 2)
    );
    assert_eq!(kinds[7], RelationKind::IsNotNull { column: id("v") });
    assert!(matches!(
        &kinds[8],
        RelationKind::Column {
            op: Operator::ContainsKey,
            ..
        }
    ));
    assert!(matches!(
        &kinds[9],
        RelationKind::Column {
            op: Operator::Like,
            ..
        }
    ));
}

#[test]
fn parenthesized_relations_are_flattened() {
    let s = select("SELECT * FROM t WHERE ((a = 1)) AND (b) = (2)");
    assert!(matches!(
        &s.where_clause[0].kind,
        RelationKind::Column { .. }
    ));
    assert!(
        matches!(&s.where_clause[1].kind, RelationKind::MultiColumn { columns, .. } if columns.len() == 1)
    );
}

#[test]
fn select_clauses() {
    let s = select(
        "SELECT * FROM t WHERE k = 1 GROUP BY k, c ORDER BY c DESC, d \
         PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING",
    );
    assert_eq!(s.group_by, vec![id("k"), id("c")]);
    assert_eq!(s.order_by.len(), 2);
    assert_eq!(s.order_by[0].order, Order::Desc);
    assert_eq!(s.order_by[1].order, Order::Asc);
    assert_eq!(s.per_partition_limit.map(|t| t.kind), Some(int("2")));
    assert!(matches!(
        s.limit.map(|t| t.kind),
        Some(TermKind::BindMarker(_))
    ));
    assert!(s.allow_filtering);
    let s = select("SELECT * FROM t ORDER BY v ANN OF [1.0, 2.0] LIMIT 3");
    assert!(
        matches!(&s.order_by[0].ann_of, Some(Term { kind: TermKind::List(v), .. }) if v.len() == 2)
    );
}

// ----- terms -----------------------------------------------------------------------------

#[test]
fn braces_make_maps_sets_and_udts() {
    assert_eq!(term("{}"), TermKind::Map(vec![]));
    assert_eq!(
        term("{1, 2}"),
        TermKind::Set(vec![t(int("1")), t(int("2"))])
    );
    assert_eq!(
        term("{1: 2}"),
        TermKind::Map(vec![(t(int("1")), t(int("2")))])
    );
    assert_eq!(term("{a: 2}"), TermKind::Udt(vec![(id("a"), t(int("2")))]));
    assert_eq!(
        term(r#"{"A": 2}"#),
        TermKind::Udt(vec![(id("A"), t(int("2")))])
    );
}

#[test]
fn parentheses_make_type_hints_and_tuples() {
    assert!(
        matches!(term("(int) ?"), TermKind::TypeHint { ty, .. } if ty.kind == DataTypeKind::Native(NativeType::Int))
    );
    assert!(
        matches!(term("(my_udt) {a: 1}"), TermKind::TypeHint { ty, .. } if matches!(ty.kind, DataTypeKind::Udt(_)))
    );
    assert_eq!(term("(1)"), TermKind::Tuple(vec![t(int("1"))]));
    assert!(matches!(term("(now(), 'a')"), TermKind::Tuple(items) if items.len() == 2));
}

#[test]
fn minus_folds_into_numbers_and_negates_the_rest() {
    assert_eq!(term("- 5"), int("-5"));
    assert_eq!(term("-5"), int("-5"));
    assert_eq!(
        term("- Infinity"),
        TermKind::Literal(Literal::SpecialFloat(SpecialFloat::NegativeInfinity))
    );
    assert_eq!(
        term("-?"),
        TermKind::Negate(Box::new(t(TermKind::BindMarker(BindMarker::Anonymous))))
    );
}

#[test]
fn arithmetic_has_precedence_and_left_associativity() {
    let TermKind::Binary { op, left, right } = term("1 + 2 * 3 - 4") else {
        panic!()
    };
    assert_eq!(op, ArithmeticOp::Sub);
    assert_eq!(right.kind, int("4"));
    let TermKind::Binary { op, right: mul, .. } = left.kind else {
        panic!()
    };
    assert_eq!(op, ArithmeticOp::Add);
    assert!(matches!(
        mul.kind,
        TermKind::Binary {
            op: ArithmeticOp::Mul,
            ..
        }
    ));
}

#[test]
fn literal_kinds() {
    let lit = |src: &str| match term(src) {
        TermKind::Literal(l) => l,
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(lit("'it''s'"), Literal::String("it's".into()));
    assert_eq!(lit("$$a'b$$"), Literal::String("a'b".into()));
    assert_eq!(lit("-12"), Literal::Integer("-12".into()));
    assert_eq!(lit("1.5E-3"), Literal::Float("1.5E-3".into()));
    assert_eq!(lit("NaN"), Literal::SpecialFloat(SpecialFloat::NaN));
    assert_eq!(lit("true"), Literal::Boolean(true));
    assert_eq!(lit("NULL"), Literal::Null);
    assert_eq!(lit("0xAB"), Literal::Blob("ab".into()));
    assert_eq!(lit("P1W"), Literal::Duration("P1W".into()));
    assert_eq!(
        lit("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"),
        Literal::Uuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11".into())
    );
}

#[test]
fn function_calls_nest_and_may_be_qualified() {
    let TermKind::FunctionCall { name, args } = term("ks.f(toTimestamp(now()), ?)") else {
        panic!()
    };
    assert_eq!(name.keyspace, Some(id("ks")));
    assert_eq!(name.name, id("f"));
    assert!(
        matches!(&args[0].kind, TermKind::FunctionCall { name, args } if name.name == id("totimestamp") && args.len() == 1)
    );
}

// ----- types --------------------------------------------------------------------------------

#[test]
fn data_types() {
    assert_eq!(ty("VARCHAR"), DataTypeKind::Native(NativeType::Varchar));
    assert!(
        matches!(ty("frozen<map<text, list<int>>>"), DataTypeKind::Frozen(inner)
        if matches!(&inner.kind, DataTypeKind::Map(k, v)
            if k.kind == DataTypeKind::Native(NativeType::Text) && matches!(v.kind, DataTypeKind::List(_))))
    );
    assert!(matches!(
        ty("vector<float, 768>"),
        DataTypeKind::Vector(_, 768)
    ));
    assert!(matches!(ty("tuple<int, text, blob>"), DataTypeKind::Tuple(items) if items.len() == 3));
    assert!(matches!(ty("ks.address"), DataTypeKind::Udt(name) if name.keyspace == Some(id("ks"))));
    assert!(matches!(ty("list"), DataTypeKind::Udt(name) if name.name == id("list")));
    assert_eq!(
        ty("'org.apache.cassandra.db.marshal.UTF8Type'"),
        DataTypeKind::Custom("org.apache.cassandra.db.marshal.UTF8Type".into())
    );
    assert!(parse_data_type("int garbage").is_err());
    assert!(parse_data_type("map<int>").is_err());
}

// ----- modifications ------------------------------------------------------------------------

#[test]
fn assignment_forms() {
    let u = update(
        "UPDATE t SET a = a + 1, b = b - ?, c = c -3, d += 2, e -= {'x'}, f = [1] + f, \
         m['k'] = 'v', u.f = 1, g = 5 WHERE k = 1",
    );
    let kinds: Vec<AssignmentKind> = u.assignments.into_iter().map(|a| a.kind).collect();
    assert!(matches!(
        &kinds[0],
        AssignmentKind::SelfOp {
            op: AssignOp::Add,
            compound: false,
            ..
        }
    ));
    assert!(matches!(
        &kinds[1],
        AssignmentKind::SelfOp {
            op: AssignOp::Sub,
            compound: false,
            ..
        }
    ));
    assert!(
        matches!(&kinds[2], AssignmentKind::SelfOp { op: AssignOp::Sub, value, .. } if value.kind == int("3"))
    );
    assert!(matches!(
        &kinds[3],
        AssignmentKind::SelfOp {
            op: AssignOp::Add,
            compound: true,
            ..
        }
    ));
    assert!(matches!(
        &kinds[4],
        AssignmentKind::SelfOp {
            op: AssignOp::Sub,
            compound: true,
            ..
        }
    ));
    assert!(matches!(&kinds[5], AssignmentKind::Prepend { column, .. } if column == &id("f")));
    assert!(matches!(
        &kinds[6],
        AssignmentKind::Set {
            target: ColumnRef::Element(..),
            ..
        }
    ));
    assert!(matches!(
        &kinds[7],
        AssignmentKind::Set {
            target: ColumnRef::Field(..),
            ..
        }
    ));
    assert!(
        matches!(&kinds[8], AssignmentKind::Set { target: ColumnRef::Column(_), value } if value.kind == int("5"))
    );
}

#[test]
fn self_references_must_name_the_assigned_column() {
    assert!(matches!(
        error_kind("UPDATE t SET a = b + 1 WHERE k = 1"),
        ParseErrorKind::InvalidSelfReference { .. }
    ));
}

#[test]
fn conditions() {
    let u = update("UPDATE t SET v = 1 WHERE k = 1 IF EXISTS");
    assert_eq!(u.conditions, Some(Conditions::IfExists));
    let u =
        update("UPDATE t SET v = 1 WHERE k = 1 IF exists = 2 AND m['a'] IN (1, 2) AND u.f != ?");
    let Some(Conditions::If(conds)) = u.conditions else {
        panic!()
    };
    assert_eq!(conds[0].target, ColumnRef::Column(id("exists")));
    assert_eq!(conds[1].op, Operator::In);
    assert!(matches!(&conds[1].value.kind, TermKind::Tuple(v) if v.len() == 2));
    assert!(matches!(&conds[2].target, ColumnRef::Field(c, f) if c == &id("u") && f == &id("f")));
}

#[test]
fn insert_forms() {
    let StatementKind::Insert(i) =
        stmt("INSERT INTO t (a, b) VALUES (1, ?) USING TTL 5 AND TIMESTAMP 6 IF NOT EXISTS")
    else {
        panic!()
    };
    assert!(i.if_not_exists);
    assert_eq!(
        i.using,
        vec![
            UsingParam::Ttl(t(int("5"))),
            UsingParam::Timestamp(t(int("6")))
        ]
    );
    let StatementKind::Insert(i) = stmt("INSERT INTO t JSON '{}' DEFAULT UNSET") else {
        panic!()
    };
    assert!(matches!(
        i.values,
        InsertValues::Json {
            default_unset: Some(true),
            ..
        }
    ));
}

#[test]
fn delete_forms() {
    let StatementKind::Delete(d) =
        stmt("DELETE a, m['k'], l[0], u.f FROM t USING TIMESTAMP 1 WHERE k = 1 IF a = 2")
    else {
        panic!()
    };
    assert_eq!(d.columns.len(), 4);
    assert!(matches!(d.columns[1], ColumnRef::Element(..)));
    assert!(matches!(d.columns[3], ColumnRef::Field(..)));
    assert_eq!(d.using, vec![UsingParam::Timestamp(t(int("1")))]);
    assert!(matches!(d.conditions, Some(Conditions::If(_))));
}

#[test]
fn batches_hold_member_statements_with_their_spans() {
    let src = "BEGIN UNLOGGED BATCH USING TIMESTAMP 1 INSERT INTO t (k) VALUES ($$;$$); DELETE FROM t WHERE k = 2 APPLY BATCH;";
    let result = parse(src);
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let StatementKind::Batch(b) = &result.statements[0].kind else {
        panic!()
    };
    assert_eq!(b.kind, BatchKind::Unlogged);
    assert_eq!(b.statements.len(), 2);
    assert_eq!(
        &src[b.statements[0].span.range()],
        "INSERT INTO t (k) VALUES ($$;$$)"
    );
    assert_eq!(
        &src[b.statements[1].span.range()],
        "DELETE FROM t WHERE k = 2"
    );
    assert!(matches!(
        error_kind("BEGIN BATCH SELECT * FROM t; APPLY BATCH"),
        ParseErrorKind::UnexpectedToken { .. }
    ));
}

// ----- DDL --------------------------------------------------------------------------------------

#[test]
fn primary_key_forms() {
    let table = |src: &str| match stmt(src) {
        StatementKind::CreateTable(t) => t,
        other => panic!("{other:?}"),
    };
    let t1 = table("CREATE TABLE t (a int PRIMARY KEY, b int)");
    assert!(t1.columns[0].primary_key && t1.primary_key.is_none());
    let t2 = table("CREATE TABLE t (a int, b int, c int, PRIMARY KEY ((a, b), c))");
    let pk = t2.primary_key.expect("pk");
    assert_eq!(pk.partition_key, vec![id("a"), id("b")]);
    assert_eq!(pk.clustering, vec![id("c")]);
    assert!(pk.parenthesized_partition);
    let t3 = table(
        "CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC) AND COMPACT STORAGE AND comment = 'x'",
    );
    let pk = t3.primary_key.expect("pk");
    assert!(!pk.parenthesized_partition);
    assert_eq!(t3.options.clustering_order[0].order, Order::Desc);
    assert!(t3.options.compact_storage);
    assert_eq!(t3.options.properties[0].name, id("comment"));
}

#[test]
fn column_options() {
    let StatementKind::CreateTable(t) = stmt(
        "CREATE TABLE t (k int, s text STATIC, m text MASKED WITH DEFAULT, n text MASKED WITH mask_inner(1, null), PRIMARY KEY (k))",
    ) else {
        panic!()
    };
    assert!(t.columns[1].is_static);
    assert_eq!(t.columns[2].mask, Some(ColumnMask::Default));
    assert!(
        matches!(&t.columns[3].mask, Some(ColumnMask::Function { args, .. }) if args.len() == 2)
    );
}

#[test]
fn index_targets_and_options() {
    let StatementKind::CreateIndex(i) = stmt(
        "CREATE CUSTOM INDEX IF NOT EXISTS i ON ks.t (keys(m), v) USING 'sai' WITH OPTIONS = {'a': 'b'}",
    ) else {
        panic!()
    };
    assert!(i.custom && i.if_not_exists);
    assert_eq!(i.name, Some(id("i")));
    assert_eq!(i.targets[0].kind, IndexTargetKind::Keys);
    assert_eq!(i.targets[1].kind, IndexTargetKind::Simple);
    assert_eq!(i.using.as_deref(), Some("sai"));
    assert_eq!(i.options[0].name, id("options"));
}

#[test]
fn drop_function_with_and_without_signature() {
    let StatementKind::DropFunction(d) = stmt("DROP FUNCTION IF EXISTS ks.f(int, text)") else {
        panic!()
    };
    assert!(d.if_exists);
    assert_eq!(d.arg_types.map(|v| v.len()), Some(2));
    let StatementKind::DropFunction(d) = stmt("DROP FUNCTION f") else {
        panic!()
    };
    assert_eq!(d.arg_types, None);
}

#[test]
fn property_values_may_be_unreserved_keywords() {
    let StatementKind::AlterTable(a) = stmt("ALTER TABLE t WITH x = ALL") else {
        panic!()
    };
    let AlterTableAction::With(options) = a.action else {
        panic!()
    };
    assert_eq!(
        options.properties[0].value.kind,
        TermKind::Literal(Literal::String("ALL".into()))
    );
}

// ----- files, spans, recovery ------------------------------------------------------------------

#[test]
fn statement_spans_exclude_the_semicolon() {
    let src = "  SELECT * FROM t ;\nUSE ks;";
    let result = parse(src);
    let texts: Vec<&str> = result
        .statements
        .iter()
        .map(|s| &src[s.span.range()])
        .collect();
    assert_eq!(texts, vec!["SELECT * FROM t", "USE ks"]);
}

#[test]
fn one_bad_statement_does_not_hide_the_rest() {
    let src = "SELECT * FRM t; INSERT INTO t (k) VALUES (1); CREATE TABLE (; UPDATE t SET v = 1 WHERE k = 1;";
    let result = parse(src);
    assert_eq!(result.errors.len(), 2);
    assert_eq!(result.statements.len(), 2);
    assert!(matches!(
        result.statements[0].kind,
        StatementKind::Insert(_)
    ));
    assert!(matches!(
        result.statements[1].kind,
        StatementKind::Update(_)
    ));
}

#[test]
fn recovery_skips_whole_batches() {
    let src = "BEGIN BATCH INSERT INTO t (k) VALUES (1); UPDATE t SET WHERE; DELETE FROM t WHERE k = 1; APPLY BATCH; USE ks;";
    let result = parse(src);
    assert_eq!(result.errors.len(), 1);
    assert_eq!(result.statements.len(), 1);
    assert!(matches!(result.statements[0].kind, StatementKind::Use(_)));
}

#[test]
fn parse_statement_takes_exactly_one_statement() {
    assert!(parse_statement("USE ks;").is_ok());
    assert!(parse_statement("USE ks; USE other").is_err());
    assert!(matches!(
        error_kind(""),
        ParseErrorKind::UnexpectedEof { .. }
    ));
    assert!(matches!(
        error_kind("-- only a comment"),
        ParseErrorKind::UnexpectedEof { .. }
    ));
}

#[test]
fn comments_come_back_in_order() {
    let result = parse("-- @name q1 @rate 200/s\nSELECT * FROM t; /* two */ USE ks; // three");
    let texts: Vec<&str> = result.comments.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, vec![" @name q1 @rate 200/s", " two ", " three"]);
    assert_eq!(result.statements.len(), 2);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = |open: &str, close: &str, inner: &str| {
        format!("{}{inner}{}", open.repeat(5000), close.repeat(5000))
    };
    let cases = [
        format!("SELECT * FROM t WHERE k = {}", deep("[", "]", "1")),
        format!("SELECT * FROM t WHERE k = {}", deep("(", ")", "1")),
        format!("SELECT * FROM t WHERE k = {}", deep("{", "}", "1")),
        format!("SELECT * FROM t WHERE k = {}", deep("f(", ")", "1")),
        format!("SELECT * FROM t WHERE k = {}", deep("(int) ", "", "1")),
        format!("SELECT {} FROM t", deep("f(", ")", "a")),
        format!("SELECT * FROM t WHERE {}", deep("(", ")", "a = 1")),
        format!(
            "CREATE TABLE t (k {} PRIMARY KEY)",
            deep("frozen<", ">", "int")
        ),
    ];
    for src in cases {
        let result = parse(&src);
        assert_eq!(result.errors.len(), 1, "{}", &src[..60]);
        assert!(
            matches!(
                result.errors[0].kind,
                ParseErrorKind::NestingTooDeep { limit: 128 }
            ),
            "{}: {}",
            &src[..60],
            result.errors[0]
        );
    }
}
