//! proptest strategies generating ASTs in the shapes the parser produces
//! (canonical trees): for instance a negative number is a literal, never
//! `Negate(literal)`, and arithmetic trees are left-associative.
#![allow(dead_code)]

use cqlmodel_cql::ast::*;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

pub mod access;
pub mod statements;

pub const UNRESERVED_KEYWORDS: &[&str] = &[
    "key",
    "keys",
    "ttl",
    "type",
    "values",
    "count",
    "writetime",
    "maxwritetime",
    "json",
    "distinct",
    "cast",
    "as",
    "filtering",
    "static",
    "frozen",
    "list",
    "map",
    "tuple",
    "vector",
    "custom",
    "options",
    "exists",
    "contains",
    "like",
    "per",
    "partition",
    "group",
    "default",
    "unset",
    "masked",
    "ann",
    "clustering",
    "compact",
    "storage",
    "text",
    "timestamp",
    "int",
    "date",
    "role",
    "function",
    "language",
    "input",
    "called",
    "sfunc",
    "stype",
    "finalfunc",
    "initcond",
    "returns",
    "replace",
    "access",
    "trigger",
];

pub const RESERVED_WORDS: &[&str] = &[
    "select", "from", "where", "and", "token", "primary", "set", "null", "nan", "infinity", "true",
    "false", "if", "not", "in", "is", "order", "by", "limit", "with", "on", "to",
];

fn span() -> Span {
    Span::default()
}

/// Any identifier: plain, keyword-like, reserved (printed quoted), or odd.
pub fn ident_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_]{0,7}",
        2 => select(UNRESERVED_KEYWORDS).prop_map(str::to_string),
        1 => select(RESERVED_WORDS).prop_map(str::to_string),
        1 => "[A-Za-z0-9_ \"'.;é-]{0,6}",
    ]
}

pub fn ident() -> impl Strategy<Value = Ident> {
    ident_value().prop_map(Ident::new)
}

pub fn qualified_name() -> impl Strategy<Value = QualifiedName> {
    (proptest::option::of(ident()), ident()).prop_map(|(keyspace, name)| QualifiedName {
        keyspace,
        name,
        span: span(),
    })
}

/// A type name: never a native type name or one Cassandra reserves for types.
fn udt_name() -> impl Strategy<Value = QualifiedName> {
    qualified_name().prop_filter("native or reserved type name", |q| {
        NativeType::from_name(q.name.as_str()).is_none()
            && ![
                "byte",
                "complex",
                "enum",
                "date",
                "interval",
                "macaddr",
                "bitstring",
            ]
            .contains(&q.name.as_str())
    })
}

pub fn data_type() -> impl Strategy<Value = DataType> {
    let leaf = prop_oneof![
        6 => select(NativeType::ALL.to_vec()).prop_map(DataTypeKind::Native),
        2 => udt_name().prop_map(DataTypeKind::Udt),
        1 => "[A-Za-z.' ]{1,20}".prop_map(DataTypeKind::Custom),
    ];
    leaf.prop_map(|kind| DataType { kind, span: span() })
        .prop_recursive(4, 24, 3, |inner| {
            let b = |t: DataType| Box::new(t);
            prop_oneof![
                inner.clone().prop_map(move |t| DataTypeKind::List(b(t))),
                inner.clone().prop_map(move |t| DataTypeKind::Set(b(t))),
                inner.clone().prop_map(move |t| DataTypeKind::Frozen(b(t))),
                (inner.clone(), inner.clone())
                    .prop_map(move |(k, v)| DataTypeKind::Map(b(k), b(v))),
                vec(inner.clone(), 1..4).prop_map(DataTypeKind::Tuple),
                (inner, any::<u32>()).prop_map(move |(t, n)| DataTypeKind::Vector(b(t), n)),
            ]
            .prop_map(|kind| DataType { kind, span: span() })
        })
}

fn lit(literal: Literal) -> Term {
    Term {
        kind: TermKind::Literal(literal),
        span: span(),
    }
}

pub fn term_of(kind: TermKind) -> Term {
    Term { kind, span: span() }
}

fn duration_text() -> impl Strategy<Value = String> {
    let unit = select(vec![
        "y", "mo", "w", "d", "h", "m", "s", "ms", "us", "µs", "ns", "H", "MS",
    ]);
    prop_oneof![
        ("-?", vec(("[0-9]{1,3}", unit), 1..4)).prop_map(|(sign, parts)| {
            let body: String = parts.into_iter().map(|(n, u)| format!("{n}{u}")).collect();
            format!("{sign}{body}")
        }),
        "-?P[0-9]{1,3}W",
        "-?P[0-9]{1,2}Y([0-9]{1,2}M)?([0-9]{1,2}D)?(T[0-9]{1,2}H)?",
        "-?PT[0-9]{1,2}M([0-9]{1,2}S)?",
        "-?P[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}",
    ]
}

/// Every literal kind.
pub fn literal() -> impl Strategy<Value = Literal> {
    prop_oneof![
        any::<String>().prop_map(Literal::String),
        "-?[0-9]{1,25}".prop_map(Literal::Integer),
        prop_oneof![
            "-?[0-9]{1,5}\\.[0-9]{0,5}",
            "-?[0-9]{1,3}(\\.[0-9]{1,3})?[eE][+-]?[0-9]{1,3}",
        ]
        .prop_map(Literal::Float),
        any::<bool>().prop_map(Literal::Boolean),
        select(vec![
            SpecialFloat::NaN,
            SpecialFloat::Infinity,
            SpecialFloat::NegativeInfinity
        ])
        .prop_map(Literal::SpecialFloat),
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}".prop_map(Literal::Uuid),
        "[0-9a-f]{0,16}".prop_map(Literal::Blob),
        duration_text().prop_map(Literal::Duration),
        Just(Literal::Null),
    ]
}

pub fn bind_marker() -> impl Strategy<Value = Term> {
    prop_oneof![
        Just(BindMarker::Anonymous),
        ident().prop_map(BindMarker::Named),
    ]
    .prop_map(|m| term_of(TermKind::BindMarker(m)))
}

fn is_numeric(term: &Term) -> bool {
    matches!(
        term.kind,
        TermKind::Literal(
            Literal::Integer(_)
                | Literal::Float(_)
                | Literal::Duration(_)
                | Literal::SpecialFloat(_)
        )
    )
}

/// Terms; `function_calls` false leaves out function calls (a function call in a
/// selection is a selector, not a term).
pub fn term_with(function_calls: bool) -> BoxedStrategy<Term> {
    let leaf = prop_oneof![
        3 => literal().prop_map(lit),
        1 => bind_marker(),
    ];
    leaf.prop_recursive(3, 32, 4, move |inner| {
        let simple = inner.clone().prop_filter("simple term", |t| {
            !matches!(t.kind, TermKind::Binary { .. } | TermKind::Negate(_))
        });
        let mut options: Vec<BoxedStrategy<TermKind>> = vec![
            vec(inner.clone(), 0..4).prop_map(TermKind::List).boxed(),
            vec(inner.clone(), 1..4).prop_map(TermKind::Set).boxed(),
            vec((inner.clone(), inner.clone()), 0..4)
                .prop_map(TermKind::Map)
                .boxed(),
            vec(inner.clone(), 1..4).prop_map(TermKind::Tuple).boxed(),
            vec((ident(), inner.clone()), 1..4)
                .prop_map(TermKind::Udt)
                .boxed(),
            (data_type(), simple.clone())
                .prop_filter(
                    "custom-type hint on a named marker reads as a tuple",
                    |(ty, t)| {
                        !(matches!(ty.kind, DataTypeKind::Custom(_))
                            && matches!(t.kind, TermKind::BindMarker(BindMarker::Named(_))))
                    },
                )
                .prop_map(|(ty, t)| TermKind::TypeHint {
                    ty,
                    term: Box::new(t),
                })
                .boxed(),
            simple
                .clone()
                .prop_filter("numbers fold into literals", |t| !is_numeric(t))
                .prop_map(|t| TermKind::Negate(Box::new(t)))
                .boxed(),
            arithmetic(simple).boxed(),
        ];
        if function_calls {
            options.push(
                (qualified_name(), vec(inner, 0..3))
                    .prop_map(|(name, args)| TermKind::FunctionCall { name, args })
                    .boxed(),
            );
        }
        proptest::strategy::Union::new(options).prop_map(term_of)
    })
    .boxed()
}

pub fn term() -> BoxedStrategy<Term> {
    term_with(true)
}

/// Left-associative arithmetic with the usual precedence, as the parser builds it.
fn arithmetic(operand: impl Strategy<Value = Term> + Clone) -> impl Strategy<Value = TermKind> {
    let additive = select(vec![ArithmeticOp::Add, ArithmeticOp::Sub]);
    let multiplicative = select(vec![
        ArithmeticOp::Mul,
        ArithmeticOp::Div,
        ArithmeticOp::Mod,
    ]);
    let any_op = select(vec![
        ArithmeticOp::Add,
        ArithmeticOp::Sub,
        ArithmeticOp::Mul,
        ArithmeticOp::Div,
        ArithmeticOp::Mod,
    ]);
    let bin = |op, left: Term, right: Term| TermKind::Binary {
        op,
        left: Box::new(left),
        right: Box::new(right),
    };
    prop_oneof![
        (any_op.clone(), operand.clone(), operand.clone())
            .prop_map(move |(op, l, r)| bin(op, l, r)),
        // `a * b + c`, `a + b - c`
        (
            any_op,
            additive.clone(),
            operand.clone(),
            operand.clone(),
            operand.clone()
        )
            .prop_map(move |(inner_op, op, a, b, c)| bin(
                op,
                term_of(bin(inner_op, a, b)),
                c
            )),
        // `a + b * c`
        (
            additive,
            multiplicative,
            operand.clone(),
            operand.clone(),
            operand
        )
            .prop_map(move |(op, inner_op, a, b, c)| bin(
                op,
                a,
                term_of(bin(inner_op, b, c))
            )),
    ]
}

/// An integer literal or a bind marker (LIMIT, TTL, TIMESTAMP).
pub fn int_value() -> impl Strategy<Value = Term> {
    prop_oneof![
        "-?[0-9]{1,12}".prop_map(|t| lit(Literal::Integer(t))),
        bind_marker(),
    ]
}
