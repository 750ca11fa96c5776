//! Reading `WITH` properties as Cassandra's `PropertyDefinitions` does: every
//! constant is kept as its string form and parsed when an option is built, with
//! Java's number rules and Cassandra's messages.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{Literal, Property, Span, Term, TermKind};

use crate::error::SchemaErrorKind;

pub(crate) type PropResult<T> = Result<T, (SchemaErrorKind, Span)>;

/// A constant's string form: `'abc'` → `abc`, `10` → `10`, `true` → `true`.
pub(crate) fn constant(term: &Term) -> Option<String> {
    match &term.kind {
        TermKind::Literal(lit) => Some(match lit {
            Literal::String(s)
            | Literal::Integer(s)
            | Literal::Float(s)
            | Literal::Uuid(s)
            | Literal::Duration(s) => s.clone(),
            Literal::Blob(hex) => format!("0x{hex}"),
            Literal::Boolean(b) => b.to_string(),
            Literal::SpecialFloat(f) => match f {
                cqlmodel_cql::ast::SpecialFloat::NaN => "NaN".to_string(),
                cqlmodel_cql::ast::SpecialFloat::Infinity => "Infinity".to_string(),
                cqlmodel_cql::ast::SpecialFloat::NegativeInfinity => "-Infinity".to_string(),
            },
            Literal::Null => return None,
        }),
        _ => None,
    }
}

/// A map literal of constants: `{'class': 'X', 'replication_factor': 3}`.
pub(crate) fn map(term: &Term) -> Option<BTreeMap<String, String>> {
    match &term.kind {
        TermKind::Map(entries) => entries
            .iter()
            .map(|(k, v)| Some((constant(k)?, constant(v)?)))
            .collect(),
        _ => None,
    }
}

/// OPT-2: the parser refuses a property given twice (`PropertyDefinitions.addProperty`).
pub(crate) fn check_duplicates(properties: &[Property]) -> PropResult<()> {
    for (i, p) in properties.iter().enumerate() {
        if properties
            .iter()
            .take(i)
            .any(|q| q.name.value == p.name.value)
        {
            return Err((
                SchemaErrorKind::DuplicateProperty(p.name.value.clone()),
                p.name.span,
            ));
        }
    }
    Ok(())
}

/// OPT-1 / KS-1: a property name the statement does not know. Cassandra walks a
/// hash map; with several unknown names cqlmodel reports the first written.
pub(crate) fn check_known(properties: &[Property], known: &[&str]) -> PropResult<()> {
    match properties
        .iter()
        .find(|p| !known.contains(&p.name.value.as_str()))
    {
        Some(p) => Err((
            SchemaErrorKind::UnknownProperty(p.name.value.clone()),
            p.name.span,
        )),
        None => Ok(()),
    }
}

pub(crate) fn find<'a>(properties: &'a [Property], name: &str) -> Option<&'a Property> {
    properties.iter().find(|p| p.name.value == name)
}

/// `PropertyDefinitions.getString`: OPT-3 when the value is a map.
pub(crate) fn string(properties: &[Property], name: &str) -> PropResult<Option<String>> {
    let Some(p) = find(properties, name) else {
        return Ok(None);
    };
    match constant(&p.value) {
        Some(s) if !matches!(p.value.kind, TermKind::Map(_)) => Ok(Some(s)),
        _ => Err((
            SchemaErrorKind::PropertyNotString(name.to_string()),
            p.value.span,
        )),
    }
}

/// `PropertyDefinitions.getMap`: OPT-3 when the value is not a map.
pub(crate) fn map_property(
    properties: &[Property],
    name: &str,
) -> PropResult<Option<(BTreeMap<String, String>, Span)>> {
    let Some(p) = find(properties, name) else {
        return Ok(None);
    };
    match map(&p.value) {
        Some(m) => Ok(Some((m, p.value.span))),
        None => Err((
            SchemaErrorKind::PropertyNotMap(name.to_string()),
            p.value.span,
        )),
    }
}

/// `PropertyDefinitions.getInt`: `Integer.parseInt`, OPT-4 when it fails.
pub(crate) fn int(properties: &[Property], name: &str) -> PropResult<Option<i32>> {
    let Some(text) = string(properties, name)? else {
        return Ok(None);
    };
    text.parse::<i32>().map(Some).map_err(|_| {
        (
            SchemaErrorKind::InvalidInteger {
                value: text.clone(),
                property: name.to_string(),
            },
            span_of(properties, name),
        )
    })
}

/// `PropertyDefinitions.getDouble`: `Double.parseDouble`, OPT-5 when it fails.
pub(crate) fn double(properties: &[Property], name: &str) -> PropResult<Option<f64>> {
    let Some(text) = string(properties, name)? else {
        return Ok(None);
    };
    java_parse_double(&text).map(Some).ok_or_else(|| {
        (
            SchemaErrorKind::InvalidDouble {
                value: text.clone(),
                property: name.to_string(),
            },
            span_of(properties, name),
        )
    })
}

/// `PropertyDefinitions.getBoolean`: OPT-6 when the value is not one of the spellings.
pub(crate) fn boolean(properties: &[Property], name: &str) -> PropResult<Option<bool>> {
    let Some(text) = string(properties, name)? else {
        return Ok(None);
    };
    parse_boolean(&text).map(Some).ok_or_else(|| {
        (
            SchemaErrorKind::InvalidBoolean {
                value: text.clone(),
                property: name.to_string(),
            },
            span_of(properties, name),
        )
    })
}

/// `PropertyDefinitions.parseBoolean`: `1|true|yes` and `0|false|no`, any case.
pub(crate) fn parse_boolean(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" => Some(true),
        "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

fn span_of(properties: &[Property], name: &str) -> Span {
    find(properties, name).map_or_else(Span::default, |p| p.value.span)
}

/// Java's `Double.parseDouble`: surrounding whitespace is ignored, a `d`/`f`
/// suffix is allowed, and only `NaN` / `Infinity` spell the special values.
pub(crate) fn java_parse_double(text: &str) -> Option<f64> {
    let t = text.trim_matches(|c: char| c <= ' ');
    let unsigned = t.trim_start_matches(['+', '-']);
    if unsigned == "NaN" || unsigned == "Infinity" {
        let negative = t.starts_with('-');
        return Some(match (unsigned, negative) {
            ("NaN", _) => f64::NAN,
            (_, true) => f64::NEG_INFINITY,
            _ => f64::INFINITY,
        });
    }
    let body = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
    {
        return None;
    }
    body.parse::<f64>().ok()
}

/// Java's `Double.toString`, for the `(got %s)` of range messages: `2.0`,
/// `0.01`, `1.0E-5`, `1.0E7`.
pub(crate) fn java_double(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0.0"
        } else {
            "0.0"
        }
        .into();
    }
    let magnitude = value.abs();
    if (1e-3..1e7).contains(&magnitude) {
        let s = format!("{value}");
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    // Scientific notation: the shortest mantissa, with at least one decimal.
    let s = format!("{value:e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = if mantissa.contains('.') {
        mantissa.to_string()
    } else {
        format!("{mantissa}.0")
    };
    format!("{mantissa}E{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_doubles_print_like_java() {
        assert_eq!(java_double(2.0), "2.0");
        assert_eq!(java_double(-1.0), "-1.0");
        assert_eq!(java_double(0.01), "0.01");
        assert_eq!(java_double(1e-5), "1.0E-5");
        assert_eq!(java_double(1.5e7), "1.5E7");
        assert_eq!(java_double(0.0), "0.0");
    }

    #[test]
    fn java_double_parsing_accepts_what_java_accepts() {
        assert_eq!(java_parse_double(" 1.5 "), Some(1.5));
        assert_eq!(java_parse_double("2d"), Some(2.0));
        assert_eq!(java_parse_double("1e3"), Some(1000.0));
        assert!(java_parse_double("NaN").is_some_and(f64::is_nan));
        assert_eq!(java_parse_double("inf"), None);
        assert_eq!(java_parse_double("abc"), None);
        assert_eq!(java_parse_double(""), None);
    }

    #[test]
    fn booleans_have_three_spellings_each() {
        assert_eq!(parse_boolean("YES"), Some(true));
        assert_eq!(parse_boolean("0"), Some(false));
        assert_eq!(parse_boolean("maybe"), None);
    }
}
