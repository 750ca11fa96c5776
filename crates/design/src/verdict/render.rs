//! The verdict as report.md's first section, as the text summary's opening
//! lines, and as design.json's `verdict` object.

use serde_json::{Value, json};

use super::decide::{Fit, Line, Verdict};
use crate::safe_names::md_line;

/// The shape of the `verdict` object; raised when a field changes meaning or goes.
pub const JSON_VERSION: u32 = 1;

pub fn verdict_json(v: &Verdict) -> Value {
    let mut value = serde_json::to_value(v).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("version".into(), json!(JSON_VERSION));
    }
    value
}

/// `[off-path-share > 50% of the entity's reads: crossed]`
fn threshold_text(l: &Line) -> String {
    match (l.threshold, l.limit) {
        (Some(name), Some(limit)) => format!(
            " [{name} {limit}: {}]",
            if l.crossed { "crossed" } else { "within" }
        ),
        _ => String::new(),
    }
}

pub fn verdict_md(v: &Verdict) -> String {
    let mut s = format!(
        "## Fit verdict: {}\n\n{}.\n\nEach line names the threshold it is compared with (docs/verdict.md).\n\n",
        v.fit.words(),
        md_line(&v.summary)
    );
    for l in &v.lines {
        s.push_str(&format!(
            "- **{}**: {}{}\n",
            l.topic,
            md_line(&l.text),
            threshold_text(l)
        ));
    }
    if !v.strengths.is_empty() {
        s.push_str("\nWhere the workload plays to Cassandra's strengths:\n\n");
        for l in &v.strengths {
            s.push_str(&format!("- {}{}\n", md_line(&l.text), threshold_text(l)));
        }
    }
    if !v.entities.is_empty() {
        s.push_str("\n| entity | verdict |\n|---|---|\n");
        for e in &v.entities {
            s.push_str(&format!(
                "| `{}` | {} |\n",
                md_line(&e.entity),
                e.fit.words()
            ));
        }
        for e in &v.entities {
            s.push_str(&format!(
                "\n`{}` — {}:\n\n",
                md_line(&e.entity),
                e.fit.words()
            ));
            for l in &e.lines {
                s.push_str(&format!(
                    "- **{}**: {}{}\n",
                    l.topic,
                    md_line(&l.text),
                    threshold_text(l)
                ));
            }
        }
    }
    s.push('\n');
    s
}

/// The text summary's lines: the verdict, the crossed thresholds, each
/// entity whose verdict differs from the workload's.
pub fn verdict_text(v: &Verdict) -> String {
    let mut s = format!("verdict: {}\n", v.summary);
    for l in &v.lines {
        s.push_str(&format!("  {}: {}{}\n", l.topic, l.text, threshold_text(l)));
    }
    for l in &v.strengths {
        s.push_str(&format!("  strength: {}{}\n", l.text, threshold_text(l)));
    }
    // The entities that need more than Cassandra, and any whose numbers
    // crossed a threshold.
    for e in v
        .entities
        .iter()
        .filter(|_| v.fit != Fit::Undecided)
        .filter(|e| e.fit != Fit::Fits || e.lines.iter().any(|l| l.crossed))
    {
        s.push_str(&format!("  entity {}: {}\n", e.entity, e.fit.words()));
        for l in e.lines.iter().filter(|l| l.crossed) {
            s.push_str(&format!(
                "    {}: {}{}\n",
                l.topic,
                l.text,
                threshold_text(l)
            ));
        }
    }
    s
}
