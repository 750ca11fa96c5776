//! Whether a literal can be assigned to a column's type: the checks of
//! `Constants.Literal.testAssignment` and the collection literals, with
//! Cassandra's messages (`Invalid STRING constant (x) for "ck1" of type int`).

use cqlmodel_cql::ast::{Literal, NativeType as N, Term, TermKind};

use crate::types::CqlType;

/// Checks `term` against the receiver `name` of type `ty`. Bind markers, function
/// calls and arithmetic are typed at execution and always pass here.
pub(crate) fn check_assignable(name: &str, ty: &CqlType, term: &Term) -> Result<(), String> {
    if let CqlType::Custom(_) = ty {
        return Ok(());
    }
    match &term.kind {
        TermKind::Literal(lit) => check_constant(name, ty, lit),
        TermKind::List(items) => match ty {
            CqlType::List { element, .. } => items
                .iter()
                .try_for_each(|t| check_assignable(&format!("value({name})"), element, t)),
            CqlType::Vector { element, dimension } => {
                if items.len() != *dimension as usize {
                    return Err(format!(
                        "Invalid vector literal for {name} of type {ty}; expected {dimension} elements, but given {}",
                        items.len()
                    ));
                }
                items
                    .iter()
                    .try_for_each(|t| check_assignable(name, element, t))
            }
            _ => Err(format!("Invalid list literal for {name} of type {ty}")),
        },
        TermKind::Set(items) => match ty {
            CqlType::Set { element, .. } => items
                .iter()
                .try_for_each(|t| check_assignable(&format!("value({name})"), element, t)),
            _ => Err(format!("Invalid set literal for {name} of type {ty}")),
        },
        TermKind::Map(entries) => match ty {
            CqlType::Map { key, value, .. } => entries.iter().try_for_each(|(k, v)| {
                check_assignable(&format!("key({name})"), key, k)?;
                check_assignable(&format!("value({name})"), value, v)
            }),
            // `{}` is also an empty set.
            CqlType::Set { .. } if entries.is_empty() => Ok(()),
            _ => Err(format!("Invalid map literal for {name} of type {ty}")),
        },
        TermKind::Tuple(items) => match ty {
            CqlType::Tuple(types) => {
                if items.len() > types.len() {
                    return Err(format!(
                        "Invalid tuple literal for {name}: too many elements. Type {ty} expects {} but got {}",
                        types.len(),
                        items.len()
                    ));
                }
                items
                    .iter()
                    .zip(types)
                    .enumerate()
                    .try_for_each(|(i, (t, ty))| check_assignable(&format!("{name}[{i}]"), ty, t))
            }
            _ => Err(format!(
                "Invalid tuple type literal for {name} of type {ty}"
            )),
        },
        TermKind::Udt(fields) => match ty {
            CqlType::Udt { def, .. } => fields.iter().try_for_each(|(f, t)| {
                match def.fields.iter().find(|(n, _)| *n == f.value) {
                    Some((_, fty)) => check_assignable(&format!("{name}.{}", f.value), fty, t),
                    None => Err(format!(
                        "Unknown field '{}' in value of user defined type {}",
                        f.value, def.name
                    )),
                }
            }),
            _ => Err(format!("Invalid user type literal for {name} of type {ty}")),
        },
        TermKind::BindMarker(_)
        | TermKind::FunctionCall { .. }
        | TermKind::TypeHint { .. }
        | TermKind::Negate(_)
        | TermKind::Binary { .. } => Ok(()),
    }
}

fn check_constant(name: &str, ty: &CqlType, lit: &Literal) -> Result<(), String> {
    let (kind, text): (&str, String) = match lit {
        Literal::Null => return Ok(()),
        Literal::String(s) => ("STRING", s.clone()),
        Literal::Integer(s) => ("INTEGER", s.clone()),
        Literal::Float(s) => ("FLOAT", s.clone()),
        Literal::SpecialFloat(f) => (
            "FLOAT",
            match f {
                cqlmodel_cql::ast::SpecialFloat::NaN => "NaN".to_string(),
                cqlmodel_cql::ast::SpecialFloat::Infinity => "Infinity".to_string(),
                cqlmodel_cql::ast::SpecialFloat::NegativeInfinity => "-Infinity".to_string(),
            },
        ),
        Literal::Boolean(b) => ("BOOLEAN", b.to_string()),
        Literal::Uuid(u) => ("UUID", u.clone()),
        Literal::Blob(h) => ("HEX", format!("0x{h}")),
        Literal::Duration(d) => ("DURATION", d.clone()),
    };
    let ok = match ty {
        CqlType::Native(n) => match kind {
            "STRING" => matches!(
                n,
                N::Ascii | N::Text | N::Varchar | N::Inet | N::Date | N::Time | N::Timestamp
            ),
            "INTEGER" => matches!(
                n,
                N::Bigint
                    | N::Counter
                    | N::Date
                    | N::Decimal
                    | N::Double
                    | N::Duration
                    | N::Float
                    | N::Int
                    | N::Smallint
                    | N::Time
                    | N::Timestamp
                    | N::Tinyint
                    | N::Varint
            ),
            "FLOAT" => matches!(n, N::Decimal | N::Double | N::Float),
            "BOOLEAN" => *n == N::Boolean,
            "UUID" => matches!(n, N::Uuid | N::Timeuuid),
            "HEX" => *n == N::Blob,
            "DURATION" => *n == N::Duration,
            _ => false,
        },
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "Invalid {kind} constant ({text}) for \"{name}\" of type {ty}"
        ))
    }
}
