//! Reading `WITH` properties: constants and map literals as Cassandra's
//! `PropertyDefinitions` reads them (every constant as its string form).

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{Literal, Property, Term, TermKind};

use crate::error::SchemaErrorKind;

/// A constant's string form: `'abc'` → `abc`, `10` → `10`, `true` → `true`.
pub fn constant(term: &Term) -> Option<String> {
    match &term.kind {
        TermKind::Literal(lit) => Some(match lit {
            Literal::String(s)
            | Literal::Integer(s)
            | Literal::Float(s)
            | Literal::Uuid(s)
            | Literal::Duration(s) => s.clone(),
            Literal::Blob(hex) => format!("0x{hex}"),
            Literal::Boolean(b) => b.to_string(),
            Literal::SpecialFloat(f) => format!("{f:?}"),
            Literal::Null => return None,
        }),
        _ => None,
    }
}

/// A map literal of constants: `{'class': 'X', 'replication_factor': 3}`.
pub fn map(term: &Term) -> Option<BTreeMap<String, String>> {
    match &term.kind {
        TermKind::Map(entries) => entries
            .iter()
            .map(|(k, v)| Some((constant(k)?, constant(v)?)))
            .collect(),
        _ => None,
    }
}

/// Checks that no property is given twice and every name is one of `known`.
pub fn check_names(properties: &[Property], known: &[&str]) -> Result<(), (SchemaErrorKind, cqlmodel_cql::ast::Span)> {
    let mut seen = std::collections::BTreeSet::new();
    for p in properties {
        let name = p.name.value.as_str();
        if !seen.insert(name) {
            return Err((SchemaErrorKind::DuplicateProperty(name.to_string()), p.name.span));
        }
        if !known.contains(&name) {
            return Err((SchemaErrorKind::UnknownProperty(name.to_string()), p.name.span));
        }
    }
    Ok(())
}

pub fn find<'a>(properties: &'a [Property], name: &str) -> Option<&'a Property> {
    properties.iter().find(|p| p.name.value == name)
}

/// An integer property; `what` names it in the error.
pub fn integer(p: &Property) -> Result<i64, (SchemaErrorKind, cqlmodel_cql::ast::Span)> {
    constant(&p.value)
        .and_then(|s| s.parse::<i64>().ok())
        .ok_or_else(|| {
            (
                SchemaErrorKind::InvalidProperty(format!(
                    "Invalid value for property '{}'. It must be an integer",
                    p.name.value
                )),
                p.value.span,
            )
        })
}
