//! `cqlmodel rules --format json`: the rule list, or one rule, as JSON.

use cqlmodel_review::{RULES, Rule, find_rule};
use serde_json::{Value, json};

use crate::outcome::Output;

fn rule_json(r: &Rule, with_doc: bool) -> Value {
    let mut v = json!({
        "code": r.code,
        "name": r.name,
        "default_severity": r.default_severity.to_string(),
        "summary": r.summary,
    });
    if with_doc && let Some(map) = v.as_object_mut() {
        map.insert("doc".into(), Value::String(r.doc.to_string()));
    }
    v
}

/// The rules as a JSON array, or one rule with its documentation.
pub fn rules_json(name: Option<&str>) -> Output {
    let value = match name {
        None => Value::Array(RULES.iter().map(|r| rule_json(r, false)).collect()),
        Some(n) => match find_rule(n) {
            Some(r) => rule_json(r, true),
            None => {
                let error = json!({ "errors": [{
                    "code": "input",
                    "severity": "error",
                    "message": format!("no rule named `{n}` (`cqlmodel rules` lists them)"),
                }]});
                return Output {
                    stdout: serde_json::to_string_pretty(&error).unwrap_or_default() + "\n",
                    stderr: String::new(),
                    code: 2,
                };
            }
        },
    };
    Output {
        stdout: serde_json::to_string_pretty(&value).unwrap_or_default() + "\n",
        stderr: String::new(),
        code: 0,
    }
}
