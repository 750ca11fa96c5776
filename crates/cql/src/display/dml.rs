//! Data manipulation statements, selectors, relations, assignments and conditions.

use std::fmt::{self, Display, Formatter};

use super::{FunctionName, Sep, comma};
use crate::ast::{
    AssignOp, Assignment, AssignmentKind, Batch, BatchKind, ColumnRef, Condition, Conditions,
    Delete, ElementIndex, InValues, Insert, InsertValues, Ordering, Relation, RelationKind, Select,
    Selection, Selector, SelectorKind, Update, UsingParam,
};

impl Display for Selection {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Selection::Wildcard(_) => f.write_str("*"),
            Selection::Selectors(selectors) => comma(selectors).fmt(f),
        }
    }
}

impl Display for Selector {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)?;
        if let Some(alias) = &self.alias {
            write!(f, " AS {alias}")?;
        }
        Ok(())
    }
}

impl Display for SelectorKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SelectorKind::Column(column) => column.fmt(f),
            SelectorKind::CountStar => f.write_str("COUNT(*)"),
            SelectorKind::WriteTime(column) => write!(f, "WRITETIME({column})"),
            SelectorKind::MaxWriteTime(column) => write!(f, "MAXWRITETIME({column})"),
            SelectorKind::Ttl(column) => write!(f, "TTL({column})"),
            SelectorKind::Function { name, args } => {
                write!(f, "{}({})", FunctionName(name), comma(args))
            }
            SelectorKind::Cast {
                selector,
                data_type,
            } => write!(f, "CAST({selector} AS {data_type})"),
            SelectorKind::Field { selector, field } => {
                write!(f, "{}.{field}", Grouped(selector, is_operation))
            }
            SelectorKind::Element { selector, index } => {
                write!(f, "{}[{index}]", Grouped(selector, is_operation))
            }
            SelectorKind::Term(term) => term.fmt(f),
            SelectorKind::Negate(inner) => {
                let inner = Grouped(inner, is_binary).to_string();
                // `- -1`, not `--1` (a comment).
                let gap = if inner.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
                    " "
                } else {
                    ""
                };
                write!(f, "-{gap}{inner}")
            }
            // The hint applies to one group without modifiers: anything more is
            // parenthesized.
            // `(ascii) as + a` and `(ascii) as()` read as a group `(ascii)`
            // aliased `AS …`: a hinted selector that starts with the word
            // `as` is parenthesized (a group is transparent).
            SelectorKind::TypeHint {
                data_type,
                selector,
            } if starts_with_as(&selector.kind.to_string()) => {
                write!(f, "({data_type}) ({})", selector.kind)
            }
            SelectorKind::TypeHint {
                data_type,
                selector,
            } => write!(
                f,
                "({data_type}) {}",
                Grouped(selector, |s| is_operation(s)
                    || matches!(
                        s.kind,
                        SelectorKind::Field { .. } | SelectorKind::Element { .. }
                    ))
            ),
            SelectorKind::Tuple(items) => write!(f, "({})", comma(items)),
            SelectorKind::List(items) => write!(f, "[{}]", comma(items)),
            SelectorKind::Set(items) => write!(f, "{{{}}}", comma(items)),
            SelectorKind::Map(pairs) => {
                f.write_str("{")?;
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key}: {value}")?;
                }
                f.write_str("}")
            }
            // Left-associative, `*` binding tighter: parentheses only where
            // the tree differs from that reading.
            SelectorKind::Binary { op, left, right } => {
                let prec = op.precedence();
                let loose_left = |s: &Selector| binary_precedence(s).is_some_and(|p| p < prec);
                let loose_right = |s: &Selector| binary_precedence(s).is_some_and(|p| p <= prec);
                write!(
                    f,
                    "{} {} {}",
                    Grouped(left, loose_left),
                    op.symbol(),
                    Grouped(right, loose_right)
                )
            }
        }
    }
}

/// Whether `text` starts with the word `as` (the alias keyword).
fn starts_with_as(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('a' | 'A'), Some('s' | 'S'))
    ) && !chars
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// A selector, in parentheses when `needs(selector)`.
struct Grouped<'a, F: Fn(&Selector) -> bool>(&'a Selector, F);

impl<F: Fn(&Selector) -> bool> Display for Grouped<'_, F> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if (self.1)(self.0) {
            write!(f, "({})", self.0.kind)
        } else {
            self.0.kind.fmt(f)
        }
    }
}

fn binary_precedence(selector: &Selector) -> Option<u8> {
    match &selector.kind {
        SelectorKind::Binary { op, .. } => Some(op.precedence()),
        _ => None,
    }
}

fn is_binary(selector: &Selector) -> bool {
    binary_precedence(selector).is_some()
}

/// Arithmetic or negation: a `.field` or `[key]` after it would bind to its last operand.
fn is_operation(selector: &Selector) -> bool {
    matches!(
        selector.kind,
        SelectorKind::Binary { .. } | SelectorKind::Negate(_)
    )
}

impl Display for ElementIndex {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ElementIndex::Key(key) => key.fmt(f),
            ElementIndex::Slice(from, to) => {
                if let Some(from) = from {
                    // `1. ..2`: a float ending in `.` must not merge with `..`.
                    let from = from.to_string();
                    let gap = if from.ends_with('.') { " " } else { "" };
                    write!(f, "{from}{gap}")?;
                }
                f.write_str("..")?;
                if let Some(to) = to {
                    to.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl Display for InValues {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            InValues::List(values) => write!(f, "({})", comma(values)),
            InValues::Marker(marker) => marker.fmt(f),
        }
    }
}

impl Display for Relation {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl Display for RelationKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RelationKind::Column { column, op, value } => {
                write!(f, "{column} {} {value}", op.symbol())
            }
            RelationKind::ColumnIn {
                column,
                negated,
                values,
            } => {
                let op = if *negated { "NOT IN" } else { "IN" };
                write!(f, "{column} {op} {values}")
            }
            RelationKind::MapEntry {
                column,
                key,
                op,
                value,
            } => write!(f, "{column}[{key}] {} {value}", op.symbol()),
            RelationKind::MultiColumn { columns, op, value } => {
                write!(f, "({}) {} {value}", comma(columns), op.symbol())
            }
            RelationKind::MultiColumnIn { columns, values } => {
                write!(f, "({}) IN {values}", comma(columns))
            }
            RelationKind::Token { columns, op, value } => {
                write!(f, "TOKEN({}) {} {value}", comma(columns), op.symbol())
            }
            RelationKind::IsNotNull { column } => write!(f, "{column} IS NOT NULL"),
        }
    }
}

impl Display for Ordering {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.column.fmt(f)?;
        match &self.ann_of {
            Some(vector) => {
                write!(f, " ANN OF {vector}")?;
                if self.order == crate::ast::Order::Desc {
                    f.write_str(" DESC")?;
                }
                Ok(())
            }
            None => write!(f, " {}", self.order.keyword()),
        }
    }
}

impl Display for Select {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("SELECT ")?;
        if self.json {
            f.write_str("JSON ")?;
        }
        if self.distinct {
            f.write_str("DISTINCT ")?;
        }
        let selection = self.selection.to_string();
        // A first column named `json` or `distinct` followed by more of the
        // selector (`[`, `.`, `(`, or an operator: `json - a`) would read as
        // the keyword: quote it.
        let shadowed = [
            ("json", !self.json && !self.distinct),
            ("distinct", !self.distinct),
        ]
        .into_iter()
        .find(|(word, applies)| {
            *applies
                && selection.strip_prefix(word).is_some_and(|rest| {
                    let next = rest.trim_start();
                    rest.starts_with(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        && !next.is_empty()
                        && !next.starts_with(',')
                        && !next.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("as "))
                })
        });
        match shadowed {
            Some((word, _)) => write!(f, "\"{word}\"{}", &selection[word.len()..])?,
            None => f.write_str(&selection)?,
        }
        write!(f, " FROM {}", self.table)?;
        if !self.where_clause.is_empty() {
            write!(f, " WHERE {}", Sep(&self.where_clause, " AND "))?;
        }
        if !self.group_by.is_empty() {
            write!(f, " GROUP BY {}", comma(&self.group_by))?;
        }
        if !self.order_by.is_empty() {
            write!(f, " ORDER BY {}", comma(&self.order_by))?;
        }
        if let Some(limit) = &self.per_partition_limit {
            write!(f, " PER PARTITION LIMIT {limit}")?;
        }
        if let Some(limit) = &self.limit {
            write!(f, " LIMIT {limit}")?;
        }
        if self.allow_filtering {
            f.write_str(" ALLOW FILTERING")?;
        }
        Ok(())
    }
}

impl Display for UsingParam {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            UsingParam::Ttl(ttl) => write!(f, "TTL {ttl}"),
            UsingParam::Timestamp(timestamp) => write!(f, "TIMESTAMP {timestamp}"),
        }
    }
}

/// ` USING a AND b` when there is anything to say.
fn write_using(f: &mut Formatter<'_>, using: &[UsingParam]) -> fmt::Result {
    if using.is_empty() {
        Ok(())
    } else {
        write!(f, " USING {}", Sep(using, " AND "))
    }
}

/// What follows the table name: `(cols) VALUES (terms)` or `JSON ...`.
impl Display for InsertValues {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            InsertValues::Values { columns, values } => {
                write!(f, "({}) VALUES ({})", comma(columns), comma(values))
            }
            InsertValues::Json {
                value,
                default_unset,
            } => {
                write!(f, "JSON {value}")?;
                match default_unset {
                    Some(true) => f.write_str(" DEFAULT UNSET"),
                    Some(false) => f.write_str(" DEFAULT NULL"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl Display for Insert {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "INSERT INTO {} {}", self.table, self.values)?;
        if self.if_not_exists {
            f.write_str(" IF NOT EXISTS")?;
        }
        write_using(f, &self.using)
    }
}

impl Display for ColumnRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ColumnRef::Column(column) => column.fmt(f),
            ColumnRef::Element(column, key) => write!(f, "{column}[{key}]"),
            ColumnRef::Field(column, field) => write!(f, "{column}.{field}"),
        }
    }
}

impl Display for AssignOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AssignOp::Add => "+",
            AssignOp::Sub => "-",
        })
    }
}

impl Display for Assignment {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl Display for AssignmentKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            AssignmentKind::Set { target, value } => write!(f, "{target} = {value}"),
            AssignmentKind::SelfOp {
                column,
                op,
                value,
                compound,
            } => {
                if *compound {
                    write!(f, "{column} {op}= {value}")
                } else {
                    write!(f, "{column} = {column} {op} {value}")
                }
            }
            AssignmentKind::Prepend { column, value } => write!(f, "{column} = {value} + {column}"),
        }
    }
}

impl Display for Condition {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.target, self.op.symbol(), self.value)
    }
}

impl Display for Conditions {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Conditions::IfExists => f.write_str("IF EXISTS"),
            Conditions::If(conditions) => write!(f, "IF {}", Sep(conditions, " AND ")),
        }
    }
}

impl Display for Update {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "UPDATE {}", self.table)?;
        write_using(f, &self.using)?;
        write!(
            f,
            " SET {} WHERE {}",
            comma(&self.assignments),
            Sep(&self.where_clause, " AND ")
        )?;
        if let Some(conditions) = &self.conditions {
            write!(f, " {conditions}")?;
        }
        Ok(())
    }
}

impl Display for Delete {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("DELETE ")?;
        if !self.columns.is_empty() {
            write!(f, "{} ", comma(&self.columns))?;
        }
        write!(f, "FROM {}", self.table)?;
        write_using(f, &self.using)?;
        write!(f, " WHERE {}", Sep(&self.where_clause, " AND "))?;
        if let Some(conditions) = &self.conditions {
            write!(f, " {conditions}")?;
        }
        Ok(())
    }
}

/// The batch type as a word (`LOGGED` is the default and never written in CQL).
impl Display for BatchKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BatchKind::Logged => "LOGGED",
            BatchKind::Unlogged => "UNLOGGED",
            BatchKind::Counter => "COUNTER",
        })
    }
}

impl Display for Batch {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.kind {
            BatchKind::Logged => f.write_str("BEGIN BATCH")?,
            kind => write!(f, "BEGIN {kind} BATCH")?,
        }
        write_using(f, &self.using)?;
        for statement in &self.statements {
            write!(f, " {statement};")?;
        }
        f.write_str(" APPLY BATCH")
    }
}
