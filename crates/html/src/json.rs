//! Reading the commands' JSON models. A missing or mistyped field reads as
//! absent (`None`, empty), never as a panic: the page shows what is there.

use serde_json::Value;

/// The string at `key`, if it is one.
pub fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The string at `key`, or `""`.
pub fn text_or_empty<'a>(v: &'a Value, key: &str) -> &'a str {
    text(v, key).unwrap_or_default()
}

/// The array at `key`, or an empty slice.
pub fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The strings of the array at `key` (other elements skipped).
pub fn texts<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    list(v, key).iter().filter_map(Value::as_str).collect()
}

/// The number at `key`, if it is one.
pub fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// Whether `key` holds `true`.
pub fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// A scalar as the page shows it: strings as they are, numbers as JSON writes
/// them, `null` as an em dash.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        other => other.to_string(),
    }
}

/// A number at `key` shown as JSON writes it, or an em dash.
pub fn number_text(v: &Value, key: &str) -> String {
    v.get(key).map_or_else(|| "—".into(), scalar)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{flag, list, number, scalar, text, texts};

    #[test]
    fn absent_and_mistyped_fields_read_as_absent() {
        let v = json!({"a": 1, "s": "x", "l": ["p", 2, "q"], "b": true});
        assert_eq!(text(&v, "a"), None);
        assert_eq!(text(&v, "s"), Some("x"));
        assert!(list(&v, "s").is_empty());
        assert_eq!(texts(&v, "l"), vec!["p", "q"]);
        assert_eq!(number(&v, "a"), Some(1.0));
        assert!(flag(&v, "b") && !flag(&v, "a"));
        assert_eq!(scalar(&json!(null)), "—");
        assert_eq!(scalar(&json!(2.5)), "2.5");
    }
}
