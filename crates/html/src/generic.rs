//! Any JSON value as nested definition lists: the fallback for fields a page
//! does not know yet, so that a field added to a command's JSON shows in its
//! HTML at once (and a page can later give it a better form).

use serde_json::Value;

use crate::json::scalar;
use crate::markup::Markup;

/// Nesting deeper than this is shown as compact JSON text.
const MAX_DEPTH: usize = 6;

/// Writes `value`: a scalar as text, a multi-line string as a block, an array as
/// a list, an object as a `<dl>`.
pub fn value(m: &mut Markup, v: &Value) {
    write(m, v, 0);
}

fn write(m: &mut Markup, v: &Value, depth: usize) {
    if depth >= MAX_DEPTH {
        m.code(&v.to_string());
        return;
    }
    match v {
        Value::String(s) if s.contains('\n') => {
            m.pre("text", s);
        }
        Value::Array(items) if items.is_empty() => {
            m.text("none");
        }
        Value::Array(items) => {
            m.raw("<ul class=\"notes\">");
            for item in items {
                m.raw("<li>");
                write(m, item, depth + 1);
                m.raw("</li>");
            }
            m.raw("</ul>");
        }
        Value::Object(map) => {
            m.raw("<dl class=\"fields\">");
            for (key, item) in map {
                m.el("dt", &[], key).raw("<dd>");
                write(m, item, depth + 1);
                m.raw("</dd>");
            }
            m.raw("</dl>");
        }
        other => {
            m.text(&scalar(other));
        }
    }
}

/// The fields of `object` whose keys are not in `known`, as a `<dl>`; nothing
/// when every field is known.
pub fn other_fields(m: &mut Markup, object: &Value, known: &[&str]) {
    let Some(map) = object.as_object() else {
        return;
    };
    let extra: Vec<(&String, &Value)> = map
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .collect();
    if extra.is_empty() {
        return;
    }
    m.raw("<dl class=\"fields other\">");
    for (key, item) in extra {
        m.el("dt", &[], key).raw("<dd>");
        write(m, item, 1);
        m.raw("</dd>");
    }
    m.raw("</dl>");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{other_fields, value};
    use crate::markup::Markup;

    #[test]
    fn unknown_fields_show_with_their_names() {
        let mut m = Markup::new();
        other_fields(
            &mut m,
            &json!({"table": "t", "fit": {"verdict": "<ok>"}}),
            &["table"],
        );
        let html = m.into_string();
        assert!(
            html.contains("<dt>fit</dt>") && html.contains("&lt;ok&gt;"),
            "{html}"
        );
        assert!(!html.contains("<dt>table</dt>"));
    }

    #[test]
    fn deep_values_end_as_json_text() {
        let mut deep = json!("leaf");
        for _ in 0..20 {
            deep = json!([deep]);
        }
        let mut m = Markup::new();
        value(&mut m, &deep);
        assert!(m.into_string().contains("<code>[[[["));
    }
}
