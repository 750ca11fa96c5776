//! Statement strategies: SELECT, INSERT, UPDATE, DELETE, BATCH, CREATE TABLE,
//! CREATE TYPE and CREATE INDEX.

use cqlmodel_cql::ast::*;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use super::{
    bind_marker, data_type, ident, int_value, literal, qualified_name, term, term_of, term_with,
};

fn span() -> Span {
    Span::default()
}

fn stmt(kind: StatementKind) -> Statement {
    Statement { kind, span: span() }
}

fn comparison() -> impl Strategy<Value = Operator> {
    select(vec![
        Operator::Eq,
        Operator::Lt,
        Operator::Lte,
        Operator::Gt,
        Operator::Gte,
        Operator::Neq,
    ])
}

fn single_column_operator() -> impl Strategy<Value = Operator> {
    select(vec![
        Operator::Eq,
        Operator::Lt,
        Operator::Lte,
        Operator::Gt,
        Operator::Gte,
        Operator::Neq,
        Operator::Contains,
        Operator::ContainsKey,
        Operator::NotContains,
        Operator::NotContainsKey,
        Operator::Like,
    ])
}

fn tuple_or_marker() -> impl Strategy<Value = Term> {
    prop_oneof![
        vec(term(), 1..3).prop_map(|items| term_of(TermKind::Tuple(items))),
        bind_marker(),
    ]
}

fn in_values(item: impl Strategy<Value = Term>) -> impl Strategy<Value = InValues> {
    prop_oneof![
        vec(item, 0..3).prop_map(InValues::List),
        bind_marker().prop_map(InValues::Marker),
    ]
}

pub fn relation() -> impl Strategy<Value = Relation> {
    let columns = || vec(ident(), 1..3);
    prop_oneof![
        (ident(), single_column_operator(), term())
            .prop_map(|(column, op, value)| RelationKind::Column { column, op, value }),
        (ident(), any::<bool>(), in_values(term())).prop_map(|(column, negated, values)| {
            RelationKind::ColumnIn {
                column,
                negated,
                values,
            }
        }),
        (ident(), term(), comparison(), term()).prop_map(|(column, key, op, value)| {
            RelationKind::MapEntry {
                column,
                key,
                op,
                value,
            }
        }),
        (columns(), comparison(), tuple_or_marker())
            .prop_map(|(columns, op, value)| RelationKind::MultiColumn { columns, op, value }),
        (columns(), in_values(tuple_or_marker()))
            .prop_map(|(columns, values)| RelationKind::MultiColumnIn { columns, values }),
        (columns(), comparison(), term()).prop_map(|(columns, op, value)| RelationKind::Token {
            columns,
            op,
            value
        }),
        ident().prop_map(|column| RelationKind::IsNotNull { column }),
    ]
    .prop_map(|kind| Relation { kind, span: span() })
}

/// Names that select a special selector when followed by `(`.
const SPECIAL_SELECTOR_FUNCTIONS: &[&str] = &["writetime", "maxwritetime", "ttl", "cast"];

/// A one-element tuple at the top of a selection term, or under its type
/// hints: a selection reads `(x)` as `x` in parentheses, not as a tuple.
fn groups_in_a_selection(term: &Term) -> bool {
    match &term.kind {
        TermKind::Tuple(items) => items.len() == 1,
        TermKind::TypeHint { term, .. } => groups_in_a_selection(term),
        _ => false,
    }
}

fn selector_kind() -> impl Strategy<Value = SelectorKind> {
    let function_name = qualified_name()
        .prop_filter("special selector", |n| {
            n.keyspace.is_some() || !SPECIAL_SELECTOR_FUNCTIONS.contains(&n.name.as_str())
        })
        .boxed();
    let leaf = prop_oneof![
        4 => ident().prop_map(SelectorKind::Column),
        1 => Just(SelectorKind::CountStar),
        1 => ident().prop_map(SelectorKind::WriteTime),
        1 => ident().prop_map(SelectorKind::MaxWriteTime),
        1 => ident().prop_map(SelectorKind::Ttl),
        // Arithmetic and negation at the top are selectors of their own.
        2 => term_with(false)
            .prop_filter("arithmetic is a selector", |t| {
                !matches!(t.kind, TermKind::Binary { .. } | TermKind::Negate(_))
            })
            // `(x)` in a selection groups; it is not a one-element tuple.
            .prop_filter("one-element tuple", |t| !groups_in_a_selection(t))
            .prop_map(SelectorKind::Term),
    ];
    leaf.prop_recursive(3, 16, 3, move |inner| {
        let unaliased = inner.prop_map(|kind| Selector {
            kind,
            alias: None,
            span: span(),
        });
        // Operations are operands anywhere: `Display` prints the parentheses
        // the tree needs (`(a + b) * c`, `-(a + b)`, `(a - b).f`).
        let group = unaliased.clone();
        // A constant followed by `.f` or `[i]` would not read back (`1.f`); a
        // hint on a constant is a term.
        let receiver = group.clone().prop_filter("constant receiver", |s| {
            !matches!(s.kind, SelectorKind::Term(_))
        });
        let ops = select(vec![
            ArithmeticOp::Add,
            ArithmeticOp::Sub,
            ArithmeticOp::Mul,
            ArithmeticOp::Div,
            ArithmeticOp::Mod,
        ]);
        let additive = select(vec![ArithmeticOp::Add, ArithmeticOp::Sub]);
        let binary = |op, left: Selector, right: Selector| SelectorKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        };
        let plain = |kind| Selector {
            kind,
            alias: None,
            span: span(),
        };
        let index = prop_oneof![
            term().prop_map(ElementIndex::Key),
            (option::of(term()), option::of(term()))
                .prop_filter("empty slice", |(a, b)| a.is_some() || b.is_some())
                .prop_map(|(a, b)| ElementIndex::Slice(a, b)),
        ];
        // Tuples and collections of selectors open with a column: all
        // constants would read back as a term.
        let column_first = move |rest: Vec<Selector>| {
            let mut items = vec![plain(SelectorKind::Column(Ident::new("c0")))];
            items.extend(rest);
            items
        };
        let collections = prop_oneof![
            vec(unaliased.clone(), 1..3).prop_map(move |r| SelectorKind::Tuple(column_first(r))),
            vec(unaliased.clone(), 0..3).prop_map(move |r| SelectorKind::List(column_first(r))),
            vec(unaliased.clone(), 0..3).prop_map(move |r| SelectorKind::Set(column_first(r))),
            vec((unaliased.clone(), unaliased.clone()), 0..2).prop_map(move |rest| {
                let first = plain(SelectorKind::Column(Ident::new("c0")));
                let mut pairs = vec![(first.clone(), first)];
                pairs.extend(rest);
                SelectorKind::Map(pairs)
            }),
        ];
        prop_oneof![
            collections,
            (function_name.clone(), vec(unaliased.clone(), 0..3))
                .prop_map(|(name, args)| SelectorKind::Function { name, args }),
            (unaliased, data_type()).prop_map(|(s, data_type)| SelectorKind::Cast {
                selector: Box::new(s),
                data_type
            }),
            (receiver.clone(), ident()).prop_map(|(s, field)| SelectorKind::Field {
                selector: Box::new(s),
                field
            }),
            (receiver.clone(), index).prop_map(|(s, index)| SelectorKind::Element {
                selector: Box::new(s),
                index
            }),
            (data_type(), receiver.clone()).prop_map(|(data_type, s)| SelectorKind::TypeHint {
                data_type,
                selector: Box::new(s)
            }),
            // `-c`: never before a constant (`-1` is a literal).
            receiver.prop_map(|s| SelectorKind::Negate(Box::new(s))),
            (ops.clone(), group.clone(), group.clone())
                .prop_map(move |(op, l, r)| binary(op, l, r)),
            // `a * b + c`, `a - b - c`: left-associative, `*` binding tighter.
            (ops, additive, group.clone(), group.clone(), group)
                .prop_map(move |(inner, op, a, b, c)| binary(op, plain(binary(inner, a, b)), c)),
        ]
    })
}

fn selection() -> impl Strategy<Value = Selection> {
    let selector = (selector_kind(), option::of(ident())).prop_map(|(kind, alias)| Selector {
        kind,
        alias,
        span: span(),
    });
    prop_oneof![
        1 => Just(Selection::Wildcard(span())),
        4 => vec(selector, 1..4).prop_map(Selection::Selectors),
    ]
}

fn ordering() -> impl Strategy<Value = Ordering> {
    (
        ident(),
        select(vec![Order::Asc, Order::Desc]),
        option::of(term()),
    )
        .prop_map(|(column, order, ann_of)| Ordering {
            column,
            order,
            ann_of,
            span: span(),
        })
}

pub fn select_statement() -> impl Strategy<Value = Select> {
    (
        (any::<bool>(), any::<bool>(), selection(), qualified_name()),
        (
            vec(relation(), 0..3),
            vec(ident(), 0..2),
            vec(ordering(), 0..2),
        ),
        (
            option::of(int_value()),
            option::of(int_value()),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (json, distinct, selection, table),
                (where_clause, group_by, order_by),
                (per_partition_limit, limit, allow_filtering),
            )| Select {
                json,
                distinct,
                selection,
                table,
                where_clause,
                group_by,
                order_by,
                per_partition_limit,
                limit,
                allow_filtering,
            },
        )
}

fn using() -> impl Strategy<Value = Vec<UsingParam>> {
    vec(
        prop_oneof![
            int_value().prop_map(UsingParam::Ttl),
            int_value().prop_map(UsingParam::Timestamp),
        ],
        0..3,
    )
}

pub fn insert_statement() -> impl Strategy<Value = Insert> {
    let values = prop_oneof![
        vec((ident(), term()), 1..4).prop_map(|pairs| {
            let (columns, values) = pairs.into_iter().unzip();
            InsertValues::Values { columns, values }
        }),
        (
            prop_oneof![
                any::<String>().prop_map(|s| term_of(TermKind::Literal(Literal::String(s)))),
                bind_marker(),
            ],
            option::of(any::<bool>())
        )
            .prop_map(|(value, default_unset)| InsertValues::Json {
                value,
                default_unset
            }),
    ];
    (qualified_name(), values, any::<bool>(), using()).prop_map(
        |(table, values, if_not_exists, using)| Insert {
            table,
            values,
            if_not_exists,
            using,
        },
    )
}

fn column_ref() -> impl Strategy<Value = ColumnRef> {
    prop_oneof![
        2 => ident().prop_map(ColumnRef::Column),
        1 => (ident(), term()).prop_map(|(c, k)| ColumnRef::Element(c, k)),
        1 => (ident(), ident()).prop_map(|(c, f)| ColumnRef::Field(c, f)),
    ]
}

fn assignment() -> impl Strategy<Value = Assignment> {
    let op = select(vec![AssignOp::Add, AssignOp::Sub]);
    prop_oneof![
        (column_ref(), term()).prop_map(|(target, value)| AssignmentKind::Set { target, value }),
        (ident(), op, term(), any::<bool>()).prop_map(|(column, op, value, compound)| {
            AssignmentKind::SelfOp {
                column,
                op,
                value,
                compound,
            }
        }),
        (ident(), term()).prop_map(|(column, value)| AssignmentKind::Prepend { column, value }),
    ]
    .prop_map(|kind| Assignment { kind, span: span() })
}

fn condition() -> impl Strategy<Value = Condition> {
    let in_value = prop_oneof![
        vec(term(), 0..3).prop_map(|items| term_of(TermKind::Tuple(items))),
        bind_marker(),
    ];
    prop_oneof![
        (column_ref(), comparison(), term()),
        (column_ref(), Just(Operator::In), in_value),
        (
            ident().prop_map(ColumnRef::Column),
            select(vec![Operator::Contains, Operator::ContainsKey]),
            term()
        ),
    ]
    .prop_map(|(target, op, value)| Condition {
        target,
        op,
        value,
        span: span(),
    })
}

fn conditions() -> impl Strategy<Value = Option<Conditions>> {
    option::of(prop_oneof![
        Just(Conditions::IfExists),
        vec(condition(), 1..3).prop_map(Conditions::If),
    ])
}

pub fn update_statement() -> impl Strategy<Value = Update> {
    (
        qualified_name(),
        using(),
        vec(assignment(), 1..3),
        vec(relation(), 1..3),
        conditions(),
    )
        .prop_map(
            |(table, using, assignments, where_clause, conditions)| Update {
                table,
                using,
                assignments,
                where_clause,
                conditions,
            },
        )
}

pub fn delete_statement() -> impl Strategy<Value = Delete> {
    (
        vec(column_ref(), 0..3),
        qualified_name(),
        using(),
        vec(relation(), 1..3),
        conditions(),
    )
        .prop_map(|(columns, table, using, where_clause, conditions)| Delete {
            columns,
            table,
            using,
            where_clause,
            conditions,
        })
}

pub fn batch_statement() -> impl Strategy<Value = Batch> {
    let member = prop_oneof![
        insert_statement().prop_map(StatementKind::Insert),
        update_statement().prop_map(StatementKind::Update),
        delete_statement().prop_map(StatementKind::Delete),
    ]
    .prop_map(stmt);
    (
        select(vec![
            BatchKind::Logged,
            BatchKind::Unlogged,
            BatchKind::Counter,
        ]),
        using(),
        vec(member, 0..3),
    )
        .prop_map(|(kind, using, statements)| Batch {
            kind,
            using,
            statements,
        })
}

fn property() -> impl Strategy<Value = Property> {
    let constant = prop_oneof![
        any::<String>().prop_map(Literal::String),
        "[0-9]{1,6}(\\.[0-9]{1,3})?".prop_map(|n| if n.contains('.') {
            Literal::Float(n)
        } else {
            Literal::Integer(n)
        }),
        any::<bool>().prop_map(Literal::Boolean),
    ]
    .prop_map(|l| term_of(TermKind::Literal(l)));
    let value = prop_oneof![
        3 => constant.clone(),
        1 => vec((constant.clone(), constant), 0..4).prop_map(|e| term_of(TermKind::Map(e))),
        1 => literal().prop_map(|l| term_of(TermKind::Literal(l))),
    ];
    (ident(), value).prop_map(|(name, value)| Property {
        name,
        value,
        span: span(),
    })
}

fn column_mask() -> impl Strategy<Value = ColumnMask> {
    prop_oneof![
        Just(ColumnMask::Default),
        (qualified_name(), vec(term(), 0..3))
            .prop_map(|(name, args)| ColumnMask::Function { name, args }),
    ]
}

fn column_def() -> impl Strategy<Value = ColumnDef> {
    (
        ident(),
        data_type(),
        any::<bool>(),
        any::<bool>(),
        option::of(column_mask()),
    )
        .prop_map(
            |(name, data_type, is_static, primary_key, mask)| ColumnDef {
                name,
                data_type,
                is_static,
                primary_key,
                mask,
                span: span(),
            },
        )
}

fn primary_key() -> impl Strategy<Value = PrimaryKey> {
    (vec(ident(), 1..3), vec(ident(), 0..3), any::<bool>()).prop_map(
        |(partition_key, clustering, parens)| PrimaryKey {
            parenthesized_partition: parens || partition_key.len() > 1,
            partition_key,
            clustering,
            span: span(),
        },
    )
}

fn table_options() -> impl Strategy<Value = TableOptions> {
    let order = (ident(), select(vec![Order::Asc, Order::Desc])).prop_map(|(column, order)| {
        ClusteringOrder {
            column,
            order,
            span: span(),
        }
    });
    (vec(order, 0..3), any::<bool>(), vec(property(), 0..4)).prop_map(
        |(clustering_order, compact_storage, properties)| TableOptions {
            clustering_order,
            compact_storage,
            properties,
        },
    )
}

pub fn create_table_statement() -> impl Strategy<Value = CreateTable> {
    (
        any::<bool>(),
        qualified_name(),
        vec(column_def(), 1..5),
        option::of(primary_key()),
        table_options(),
    )
        .prop_map(
            |(if_not_exists, name, columns, primary_key, options)| CreateTable {
                if_not_exists,
                name,
                columns,
                primary_key,
                options,
            },
        )
}

pub fn create_type_statement() -> impl Strategy<Value = CreateType> {
    let field = (ident(), data_type()).prop_map(|(name, data_type)| FieldDef {
        name,
        data_type,
        span: span(),
    });
    (any::<bool>(), qualified_name(), vec(field, 1..5)).prop_map(|(if_not_exists, name, fields)| {
        CreateType {
            if_not_exists,
            name,
            fields,
        }
    })
}

pub fn create_index_statement() -> impl Strategy<Value = CreateIndex> {
    let target = (
        select(vec![
            IndexTargetKind::Simple,
            IndexTargetKind::Keys,
            IndexTargetKind::Values,
            IndexTargetKind::Entries,
            IndexTargetKind::Full,
        ]),
        ident(),
    )
        .prop_map(|(kind, column)| IndexTarget {
            kind,
            column,
            span: span(),
        });
    (
        (
            any::<bool>(),
            any::<bool>(),
            option::of(ident()),
            qualified_name(),
        ),
        (
            vec(target, 0..3),
            option::of(any::<String>()),
            vec(property(), 0..2),
        ),
    )
        .prop_map(
            |((custom, if_not_exists, name, table), (targets, using, options))| CreateIndex {
                custom,
                if_not_exists,
                name,
                table,
                targets,
                using,
                options,
            },
        )
}

/// Any of the statements above.
pub fn statement() -> impl Strategy<Value = Statement> {
    prop_oneof![
        3 => select_statement().prop_map(StatementKind::Select),
        2 => insert_statement().prop_map(StatementKind::Insert),
        2 => update_statement().prop_map(StatementKind::Update),
        2 => delete_statement().prop_map(StatementKind::Delete),
        1 => batch_statement().prop_map(StatementKind::Batch),
        2 => create_table_statement().prop_map(StatementKind::CreateTable),
        1 => create_type_statement().prop_map(StatementKind::CreateType),
        1 => create_index_statement().prop_map(StatementKind::CreateIndex),
        2 => super::access::statement_kind(),
    ]
    .prop_map(stmt)
}
