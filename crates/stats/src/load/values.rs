//! Reading typed values out of the spanned TOML tree, each failure an error that
//! points at the value.

use std::ops::Range;

use toml::Spanned;
use toml::de::DeValue;

use crate::distribution::Distribution;
use crate::error::{StatsError, StatsErrorKind};
use crate::model::BucketUnit;
use crate::units;

pub type Value<'i> = Spanned<DeValue<'i>>;

/// Collects errors while the walk goes on, so one run reports every problem.
#[derive(Default)]
pub struct Errors(pub Vec<StatsError>);

impl Errors {
    pub fn push(&mut self, kind: StatsErrorKind, span: Range<usize>) {
        self.0.push(StatsError::new(kind, span));
    }
}

pub fn type_name(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// The value as a finite number (integer or float), if it is one.
fn number(value: &DeValue<'_>) -> Option<f64> {
    match value {
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .ok()
            .map(|v| v as f64),
        DeValue::Float(f) => f.as_str().replace('_', "").parse::<f64>().ok(),
        _ => None,
    }
    .filter(|v| v.is_finite())
}

/// The largest value any statistic may take: more rows, bytes, or operations
/// per second than any cluster holds (an exabyte is 1e18 bytes). Larger finite
/// numbers (`1e300`) would print as `∞` or as 300 digits in the reports.
pub const MAX_VALUE: f64 = 1e18;

/// `v`, or an error at `value` when it is above [`MAX_VALUE`].
fn at_most_max(field: &str, v: f64, value: &Value<'_>, errors: &mut Errors) -> Option<f64> {
    if v > MAX_VALUE {
        errors.push(
            StatsErrorKind::OutOfRange {
                field: field.to_string(),
                value: format_number(v),
                requirement: "at most 1e18 (no cluster holds more)",
            },
            value.span(),
        );
        return None;
    }
    Some(v)
}

/// A number `>= min` (`min` is 0 or 1 in practice) and at most [`MAX_VALUE`].
pub fn read_number(field: &str, value: &Value<'_>, min: f64, errors: &mut Errors) -> Option<f64> {
    let v = read_finite(field, value, min, errors)?;
    at_most_max(field, v, value, errors)
}

/// A finite number `>= min`, without the upper cap (durations saturate to
/// `u64::MAX` seconds instead).
fn read_finite(field: &str, value: &Value<'_>, min: f64, errors: &mut Errors) -> Option<f64> {
    let Some(v) = number(value.get_ref()) else {
        let found = match value.get_ref() {
            DeValue::Float(_) => "a float that is not finite",
            other => type_name(other),
        };
        errors.push(
            StatsErrorKind::WrongType {
                field: field.to_string(),
                expected: "a number",
                found,
            },
            value.span(),
        );
        return None;
    };
    if v < min {
        let requirement = if min > 0.0 {
            "at least 1"
        } else {
            "zero or more (not negative)"
        };
        errors.push(
            StatsErrorKind::OutOfRange {
                field: field.to_string(),
                value: format_number(v),
                requirement,
            },
            value.span(),
        );
        return None;
    }
    Some(v)
}

/// A number that must be strictly positive.
pub fn read_positive(field: &str, value: &Value<'_>, errors: &mut Errors) -> Option<f64> {
    let v = read_number(field, value, 0.0, errors)?;
    if v == 0.0 {
        errors.push(
            StatsErrorKind::OutOfRange {
                field: field.to_string(),
                value: "0".into(),
                requirement: "greater than zero",
            },
            value.span(),
        );
        return None;
    }
    Some(v)
}

pub fn read_string<'a>(field: &str, value: &'a Value<'_>, errors: &mut Errors) -> Option<&'a str> {
    match value.get_ref() {
        DeValue::String(s) => Some(s.as_ref()),
        other => {
            errors.push(
                StatsErrorKind::WrongType {
                    field: field.to_string(),
                    expected: "a string",
                    found: type_name(other),
                },
                value.span(),
            );
            None
        }
    }
}

fn bad_value(field: &str, message: String, value: &Value<'_>, errors: &mut Errors) {
    errors.push(
        StatsErrorKind::BadValue {
            field: field.to_string(),
            message,
        },
        value.span(),
    );
}

/// A duration: `"365d"` or an integer number of seconds.
pub fn read_duration(field: &str, value: &Value<'_>, errors: &mut Errors) -> Option<u64> {
    if let DeValue::String(s) = value.get_ref() {
        return units::parse_duration(s)
            .map_err(|e| bad_value(field, e.0, value, errors))
            .ok();
    }
    let seconds = read_finite(field, value, 0.0, errors)?.round();
    // Under half a second would round to a duration of zero, which the unit form
    // ("0s") refuses too.
    if seconds < 1.0 {
        errors.push(
            StatsErrorKind::OutOfRange {
                field: field.to_string(),
                value: format_number(seconds),
                requirement: "at least 1 second",
            },
            value.span(),
        );
        return None;
    }
    Some(seconds as u64)
}

/// A byte size: a number of bytes or `"100MB"`.
pub fn read_bytes(field: &str, value: &Value<'_>, errors: &mut Errors) -> Option<f64> {
    if let DeValue::String(s) = value.get_ref() {
        return match units::parse_bytes(s) {
            Ok(v) if v > 0.0 => at_most_max(field, v, value, errors),
            Ok(_) => {
                bad_value(field, "must be greater than zero".into(), value, errors);
                None
            }
            Err(e) => {
                bad_value(field, e.0, value, errors);
                None
            }
        };
    }
    read_positive(field, value, errors)
}

/// A rate: a number per second or `"10/s"`.
pub fn read_rate(field: &str, value: &Value<'_>, errors: &mut Errors) -> Option<f64> {
    if let DeValue::String(s) = value.get_ref() {
        return units::parse_rate(s)
            .map_err(|e| bad_value(field, e.0, value, errors))
            .ok()
            .and_then(|v| at_most_max(field, v, value, errors));
    }
    read_positive(field, value, errors)
}

pub fn read_distribution(
    field: &str,
    value: &Value<'_>,
    errors: &mut Errors,
) -> Option<Distribution> {
    let text = read_string(field, value, errors)?;
    Distribution::parse(text)
        .map_err(|e| bad_value(field, e.0, value, errors))
        .ok()
}

pub fn read_bucket(field: &str, value: &Value<'_>, errors: &mut Errors) -> Option<BucketUnit> {
    let text = read_string(field, value, errors)?;
    let unit = BucketUnit::parse(text);
    if unit.is_none() {
        bad_value(
            field,
            format!("unknown bucket `{text}`: expected year, month, week, day, hour or minute"),
            value,
            errors,
        );
    }
    unit
}

/// `12000`, `1.5`, `1e+20`: a number as a person would write it back.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Edit distance, for "did you mean" suggestions.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(0);
            let left = row.get(j).copied().unwrap_or(0);
            let cost = usize::from(ca != *cb);
            let value = (prev + cost).min(above + 1).min(left + 1);
            prev = above;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = value;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

/// The candidate closest to `name`, if it is close enough to be a typo.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    candidates
        .into_iter()
        .map(|c| (levenshtein(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("device_id", "device_id"), 0);
        assert_eq!(
            suggest("devce_id", ["ts", "device_id"]),
            Some("device_id".into())
        );
        assert_eq!(suggest("zzz", ["ts", "device_id"]), None);
    }
}
