use super::{DataType, Ident, QualifiedName, Span};

/// A value expression: a literal, a bind marker, a collection, a function call.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TermKind {
    Literal(Literal),
    BindMarker(BindMarker),
    /// `[a, b]`
    List(Vec<Term>),
    /// `{a, b}` (a non-empty set; `{}` is an empty [`TermKind::Map`], as in Cassandra's grammar)
    Set(Vec<Term>),
    /// `{k: v, ...}`
    Map(Vec<(Term, Term)>),
    /// `(a, b)`
    Tuple(Vec<Term>),
    /// `{field: v, ...}` where each key is an identifier.
    Udt(Vec<(Ident, Term)>),
    /// `fn(args)`, e.g. `now()`, `uuid()`, `toTimestamp(now())`, `ks.my_fn(?)`.
    FunctionCall {
        name: QualifiedName,
        args: Vec<Term>,
    },
    /// `(type) term`: a type hint.
    TypeHint {
        ty: DataType,
        term: Box<Term>,
    },
    /// `-term` applied to a non-literal (a negative literal stays a literal).
    Negate(Box<Term>),
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a % b` (Cassandra 4.0+ arithmetic on terms).
    Binary {
        op: ArithmeticOp,
        left: Box<Term>,
        right: Box<Term>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithmeticOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl ArithmeticOp {
    /// `*` `/` `%` bind tighter (2) than `+` `-` (1).
    pub fn precedence(self) -> u8 {
        match self {
            ArithmeticOp::Add | ArithmeticOp::Sub => 1,
            ArithmeticOp::Mul | ArithmeticOp::Div | ArithmeticOp::Mod => 2,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            ArithmeticOp::Add => "+",
            ArithmeticOp::Sub => "-",
            ArithmeticOp::Mul => "*",
            ArithmeticOp::Div => "/",
            ArithmeticOp::Mod => "%",
        }
    }
}

/// A constant. Numbers keep their source text so that `varint` and `decimal`
/// values of any size survive unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    /// The string's value (quotes removed, `''` un-doubled; `$$...$$` bodies verbatim).
    String(String),
    /// An integer as written, optionally with a leading `-`.
    Integer(String),
    /// A float as written (`1.5`, `-2e10`, `1.5E-3`).
    Float(String),
    Boolean(bool),
    /// `NaN`, `-NaN`, `Infinity`, `-Infinity` as written (canonical case).
    SpecialFloat(SpecialFloat),
    /// A UUID, lower-cased, in 8-4-4-4-12 form.
    Uuid(String),
    /// A blob: the hex digits after `0x`, lower-cased.
    Blob(String),
    /// A duration as written (`1h30m`, `P1DT2H`, `-3d`), upper/lower case preserved.
    Duration(String),
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecialFloat {
    NaN,
    Infinity,
    NegativeInfinity,
}

/// `?` or `:name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BindMarker {
    Anonymous,
    Named(Ident),
}

/// Comparison and membership operators of WHERE clauses and IF conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    Eq,
    Lt,
    Lte,
    Gt,
    Gte,
    Neq,
    In,
    NotIn,
    Contains,
    ContainsKey,
    NotContains,
    NotContainsKey,
    Like,
}

impl Operator {
    /// The operator as CQL writes it (upper-case keywords).
    pub fn symbol(self) -> &'static str {
        match self {
            Operator::Eq => "=",
            Operator::Lt => "<",
            Operator::Lte => "<=",
            Operator::Gt => ">",
            Operator::Gte => ">=",
            Operator::Neq => "!=",
            Operator::In => "IN",
            Operator::NotIn => "NOT IN",
            Operator::Contains => "CONTAINS",
            Operator::ContainsKey => "CONTAINS KEY",
            Operator::NotContains => "NOT CONTAINS",
            Operator::NotContainsKey => "NOT CONTAINS KEY",
            Operator::Like => "LIKE",
        }
    }

    /// `<`, `<=`, `>`, `>=`.
    pub fn is_slice(self) -> bool {
        matches!(
            self,
            Operator::Lt | Operator::Lte | Operator::Gt | Operator::Gte
        )
    }
}
