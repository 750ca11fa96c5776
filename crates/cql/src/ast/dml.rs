use super::{ArithmeticOp, DataType, Ident, Operator, Order, QualifiedName, Span, Statement, Term};

/// The projection of a SELECT (or of a materialized view).
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    /// `*`
    Wildcard(Span),
    Selectors(Vec<Selector>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    pub kind: SelectorKind,
    pub alias: Option<Ident>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SelectorKind {
    Column(Ident),
    /// `count(*)` (also `COUNT(1)` is an ordinary function call on a literal).
    CountStar,
    /// `WRITETIME(c)`, `MAXWRITETIME(c)`, `TTL(c)`.
    WriteTime(Ident),
    MaxWriteTime(Ident),
    Ttl(Ident),
    /// `fn(a, b)`, including `token(a, b)`, aggregates (`min`, `max`, `sum`, `avg`),
    /// and `toJson(c)`.
    Function {
        name: QualifiedName,
        args: Vec<Selector>,
    },
    /// `CAST(s AS type)`.
    Cast {
        selector: Box<Selector>,
        data_type: DataType,
    },
    /// `s.field` on a UDT.
    Field {
        selector: Box<Selector>,
        field: Ident,
    },
    /// `s[k]` or `s[a..b]` on a collection (Cassandra 4.0+).
    Element {
        selector: Box<Selector>,
        index: ElementIndex,
    },
    /// A constant or bind marker in the projection (`SELECT 1 FROM ...`) or a collection of them.
    Term(Term),
    /// `-s` on a selector that is not a number literal (Cassandra 5.0 `selectionGroup`).
    Negate(Box<Selector>),
    /// `(type) s` on a selector that is not a constant or bind marker (a hint
    /// on those is [`crate::ast::TermKind::TypeHint`] inside [`SelectorKind::Term`]).
    TypeHint {
        data_type: DataType,
        selector: Box<Selector>,
    },
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a % b` between selectors
    /// (`selectionAddition` / `selectionMultiplication`), left-associative.
    Binary {
        op: ArithmeticOp,
        left: Box<Selector>,
        right: Box<Selector>,
    },
    /// `(a, b)`: two or more selectors (`selectionTupleOrNestedSelector`;
    /// `(a)` only groups). All constants is a [`SelectorKind::Term`].
    Tuple(Vec<Selector>),
    /// `[a, b]` (`selectionList`) holding a column or another selector that
    /// is not a constant.
    List(Vec<Selector>),
    /// `{a, b}` (`selectionSet`).
    Set(Vec<Selector>),
    /// `{k: v, ...}` (`selectionMap`): a map, or a UDT literal when the keys
    /// name the fields of a UDT the selection is cast or hinted to.
    Map(Vec<(Selector, Selector)>),
}

impl SelectorKind {
    /// The selectors a tuple or collection selector holds, in written order
    /// (a map's keys and values interleaved); empty for the other kinds.
    pub fn items(&self) -> Vec<&Selector> {
        match self {
            SelectorKind::Tuple(items) | SelectorKind::List(items) | SelectorKind::Set(items) => {
                items.iter().collect()
            }
            SelectorKind::Map(pairs) => pairs.iter().flat_map(|(k, v)| [k, v]).collect(),
            _ => Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ElementIndex {
    Key(Term),
    /// `[from..to]`, either bound optional.
    Slice(Option<Term>, Option<Term>),
}

/// One relation of a WHERE clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    pub kind: RelationKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RelationKind {
    /// `c op value`, for every operator but IN / NOT IN.
    Column {
        column: Ident,
        op: Operator,
        value: Term,
    },
    /// `c IN (a, b)`, `c IN ?`, `c NOT IN (...)`.
    ColumnIn {
        column: Ident,
        negated: bool,
        values: InValues,
    },
    /// `m[key] op value` (map element restriction).
    MapEntry {
        column: Ident,
        key: Term,
        op: Operator,
        value: Term,
    },
    /// `(a, b) op (x, y)` or `(a, b) op ?`; `value` is a tuple term or a bind marker.
    MultiColumn {
        columns: Vec<Ident>,
        op: Operator,
        value: Term,
    },
    /// `(a, b) IN ((x, y), (z, w))` or `(a, b) IN ?`.
    MultiColumnIn {
        columns: Vec<Ident>,
        values: InValues,
    },
    /// `token(a, b) op value`.
    Token {
        columns: Vec<Ident>,
        op: Operator,
        value: Term,
    },
    /// `c IS NOT NULL` (materialized views).
    IsNotNull { column: Ident },
}

/// The right-hand side of IN: a parenthesized list or one bind marker for the whole list.
#[derive(Debug, Clone, PartialEq)]
pub enum InValues {
    List(Vec<Term>),
    Marker(Term),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ordering {
    pub column: Ident,
    pub order: Order,
    /// `ORDER BY v ANN OF [..]` (Cassandra 5.0 vector search); `order` is then `Asc`.
    pub ann_of: Option<Term>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    pub json: bool,
    pub distinct: bool,
    pub selection: Selection,
    pub table: QualifiedName,
    pub where_clause: Vec<Relation>,
    pub group_by: Vec<Ident>,
    pub order_by: Vec<Ordering>,
    pub per_partition_limit: Option<Term>,
    pub limit: Option<Term>,
    pub allow_filtering: bool,
}

/// `USING TTL t AND TIMESTAMP ts`.
#[derive(Debug, Clone, PartialEq)]
pub enum UsingParam {
    Ttl(Term),
    Timestamp(Term),
}

#[derive(Debug, Clone, PartialEq)]
pub enum InsertValues {
    /// `(c1, c2) VALUES (v1, v2)`.
    Values {
        columns: Vec<Ident>,
        values: Vec<Term>,
    },
    /// `JSON '...' [DEFAULT NULL|UNSET]`.
    Json {
        value: Term,
        default_unset: Option<bool>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Insert {
    pub table: QualifiedName,
    pub values: InsertValues,
    pub if_not_exists: bool,
    pub using: Vec<UsingParam>,
}

/// The left-hand side of an assignment or condition: `c`, `c[k]`, `c.field`.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnRef {
    Column(Ident),
    Element(Ident, Term),
    Field(Ident, Ident),
}

impl ColumnRef {
    pub fn column(&self) -> &Ident {
        match self {
            ColumnRef::Column(c) | ColumnRef::Element(c, _) | ColumnRef::Field(c, _) => c,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub kind: AssignmentKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AssignmentKind {
    /// `c = v`, `c[k] = v`, `c.f = v`.
    Set { target: ColumnRef, value: Term },
    /// `c = c + v` / `c = c - v` (counters, collection append/remove), also written `c += v`.
    SelfOp {
        column: Ident,
        op: AssignOp,
        value: Term,
        /// written as `c += v` / `c -= v`
        compound: bool,
    },
    /// `c = v + c` (list prepend).
    Prepend { column: Ident, value: Term },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssignOp {
    Add,
    Sub,
}

/// `IF EXISTS`, `IF NOT EXISTS` is on Insert, or `IF cond AND cond`.
#[derive(Debug, Clone, PartialEq)]
pub enum Conditions {
    IfExists,
    If(Vec<Condition>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub target: ColumnRef,
    pub op: Operator,
    /// For `IN`, a [`crate::ast::TermKind::Tuple`] of the listed values or a bind marker.
    pub value: Term,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    pub table: QualifiedName,
    pub using: Vec<UsingParam>,
    pub assignments: Vec<Assignment>,
    pub where_clause: Vec<Relation>,
    pub conditions: Option<Conditions>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Delete {
    /// Empty: the whole row (or rows, or partition).
    pub columns: Vec<ColumnRef>,
    pub table: QualifiedName,
    pub using: Vec<UsingParam>,
    pub where_clause: Vec<Relation>,
    pub conditions: Option<Conditions>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BatchKind {
    Logged,
    Unlogged,
    Counter,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub kind: BatchKind,
    pub using: Vec<UsingParam>,
    /// INSERT, UPDATE and DELETE statements only.
    pub statements: Vec<Statement>,
}
