//! Terms, literals and bind markers.

use std::fmt::{self, Display, Formatter};

use super::{FunctionName, comma, write_string};
use crate::ast::{ArithmeticOp, BindMarker, Literal, Operator, SpecialFloat, Term, TermKind};

impl Display for ArithmeticOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Display for Operator {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Display for Literal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Literal::String(value) => write_string(f, value),
            Literal::Integer(text)
            | Literal::Float(text)
            | Literal::Duration(text)
            | Literal::Uuid(text) => f.write_str(text),
            Literal::Boolean(value) => write!(f, "{value}"),
            Literal::SpecialFloat(special) => special.fmt(f),
            Literal::Blob(hex) => write!(f, "0x{hex}"),
            Literal::Null => f.write_str("null"),
        }
    }
}

impl Display for SpecialFloat {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecialFloat::NaN => "NaN",
            SpecialFloat::Infinity => "Infinity",
            SpecialFloat::NegativeInfinity => "-Infinity",
        })
    }
}

impl Display for BindMarker {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            BindMarker::Anonymous => f.write_str("?"),
            BindMarker::Named(name) => write!(f, ":{name}"),
        }
    }
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl Display for TermKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TermKind::Literal(literal) => literal.fmt(f),
            TermKind::BindMarker(marker) => marker.fmt(f),
            TermKind::List(items) => write!(f, "[{}]", comma(items)),
            TermKind::Set(items) => write!(f, "{{{}}}", comma(items)),
            TermKind::Map(entries) => {
                f.write_str("{")?;
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key}: {value}")?;
                }
                f.write_str("}")
            }
            TermKind::Tuple(items) => write!(f, "({})", comma(items)),
            TermKind::Udt(fields) => {
                f.write_str("{")?;
                for (i, (field, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{field}: {value}")?;
                }
                f.write_str("}")
            }
            TermKind::FunctionCall { name, args } => {
                write!(f, "{}({})", FunctionName(name), comma(args))
            }
            TermKind::TypeHint { ty, term } => write!(f, "({ty}) {term}"),
            TermKind::Negate(inner) => {
                let inner = inner.to_string();
                // `- -1`, not `--1` (a comment); `- 0xff`, not `-0xff` (which
                // would lex as a malformed negative number).
                let gap = if inner.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
                    " "
                } else {
                    ""
                };
                write!(f, "-{gap}{inner}")
            }
            TermKind::Binary { op, left, right } => write!(f, "{left} {} {right}", op.symbol()),
        }
    }
}
