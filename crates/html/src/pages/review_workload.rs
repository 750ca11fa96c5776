//! `review`: the workload's shape (`workload`, present with a query list):
//! the summary lines with each threshold crossed or within, the read shares
//! by partitions touched as a chart, and the queries off the OLTP path, with
//! Paxos and in batches by name.

use serde_json::Value;

use crate::chart::{Bar, Scale, bar_chart};
use crate::generic;
use crate::json::{list, number, text, text_or_empty, texts};
use crate::layout::Section;
use crate::markup::Markup;

/// The fields laid out here; any other shows under "Other fields".
const KNOWN: &[&str] = &[
    "basis",
    "lines",
    "reads",
    "writes",
    "single_partition",
    "few_partitions",
    "many_partitions",
    "many_queries",
    "off_path",
    "lwt",
    "lwt_queries",
    "batches",
    "batch_queries",
    "multi_partition_batches",
    "statements_per_batch",
];

/// The section, when the review had a query list.
pub fn section(workload: &Value) -> Option<Section> {
    if !workload.is_object() {
        return None;
    }
    let mut m = Markup::new();
    lines(&mut m, &texts(workload, "lines"));
    reads_chart(&mut m, workload);
    m.raw("<dl class=\"fields\">");
    for (key, term) in [
        ("basis", "shares count"),
        ("reads", "reads"),
        ("writes", "writes"),
        ("lwt", "lightweight transactions"),
        ("batches", "batches"),
        ("multi_partition_batches", "batches over several partitions"),
        ("statements_per_batch", "statements per batch"),
    ] {
        if let Some(v) = workload.get(key).filter(|v| !v.is_null()) {
            m.field(term, &crate::json::scalar(v));
        }
    }
    m.raw("</dl>");
    named_queries(&mut m, workload);
    generic::other_fields(&mut m, workload, KNOWN);
    Some(Section::new("workload", "The query list", m))
}

/// Each summary line; a closing `[threshold: crossed]` or `[…: within]`
/// marked in the warning or the ok colour.
fn lines(m: &mut Markup, lines: &[&str]) {
    if lines.is_empty() {
        return;
    }
    m.open("ul", &[("class", "notes")]);
    for line in lines {
        m.open("li", &[]);
        let verdict = line
            .strip_suffix("crossed]")
            .map(|head| (head, "crossed", "sev-warning"))
            .or_else(|| line.strip_suffix("within]").map(|h| (h, "within", "ok")));
        match verdict {
            Some((head, word, class)) => {
                m.text(head).el("span", &[("class", class)], word).text("]");
            }
            None => {
                m.text(line);
            }
        }
        m.close("li");
    }
    m.close("ul");
}

/// The reads by the partitions they touch, and off the path by reason.
fn reads_chart(m: &mut Markup, w: &Value) {
    let mut bars: Vec<Bar> = [
        ("single_partition", "one partition"),
        ("few_partitions", "2–10 partitions"),
        ("many_partitions", "more partitions"),
    ]
    .iter()
    .filter_map(|(key, label)| {
        Some(Bar {
            label: (*label).to_string(),
            value: number(w, key)?,
            series: 1,
            over: false,
        })
    })
    .collect();
    for off in list(w, "off_path") {
        if let Some(value) = number(off, "weight") {
            bars.push(Bar {
                label: text_or_empty(off, "reason").replace('_', " "),
                value,
                series: 3,
                over: false,
            });
        }
    }
    if bars.iter().all(|b| b.value <= 0.0) {
        return;
    }
    let basis = text(w, "basis").unwrap_or("reads").replace('_', " ");
    m.open("figure", &[])
        .raw(&bar_chart(
            "Reads by partitions touched",
            &bars,
            &[],
            Scale::Linear,
            &|v| format!("{}", (v * 100.0).round() / 100.0),
        ))
        .open("figcaption", &[])
        .text(&format!("Reads by partitions touched ({basis})"))
        .raw("<span class=\"legend\"> · <span><i class=\"s1\"></i>on the path</span><span><i class=\"s3\"></i>off the path</span></span>")
        .close("figcaption")
        .close("figure");
}

/// The queries each share names.
fn named_queries(m: &mut Markup, w: &Value) {
    let mut rows: Vec<(String, Vec<&str>)> = Vec::new();
    for off in list(w, "off_path") {
        let reason = text_or_empty(off, "reason").replace('_', " ");
        rows.push((format!("off the path: {reason}"), texts(off, "queries")));
    }
    rows.push(("over many partitions".into(), texts(w, "many_queries")));
    rows.push(("lightweight transactions".into(), texts(w, "lwt_queries")));
    rows.push(("in batches".into(), texts(w, "batch_queries")));
    rows.retain(|(_, q)| !q.is_empty());
    if rows.is_empty() {
        return;
    }
    m.raw("<dl class=\"fields\">");
    for (term, queries) in rows {
        m.field(&term, &queries.join(", "));
    }
    m.raw("</dl>");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_workload_is_laid_out_with_its_verdicts_and_names() {
        let w = json!({
            "basis": "query_count", "reads": 9.0, "writes": 6.0,
            "single_partition": 6.0, "few_partitions": 0.0, "many_partitions": 0.0,
            "many_queries": [], "lwt": 1.0, "lwt_queries": ["sign_up"],
            "batches": 1.0, "batch_queries": ["place_order"],
            "off_path": [{"queries": ["revenue_report"], "reason": "full_scan", "weight": 1.0}],
            "lines": ["reads 9 queries [scatter-share 10%: within]", "lwt: 16.7% [lwt-share 10%: crossed]"],
            "new_field": 3
        });
        let body = section(&w).expect("a section").body;
        assert!(
            body.contains("<span class=\"sev-warning\">crossed</span>]"),
            "{body}"
        );
        assert!(body.contains("<span class=\"ok\">within</span>]"));
        assert!(body.contains("<svg"), "the reads chart");
        assert!(body.contains("full scan"));
        assert!(body.contains("sign_up") && body.contains("place_order"));
        assert!(body.contains("new_field"), "unknown fields still show");
        assert!(
            !body.contains("many_queries"),
            "a known field is not dumped"
        );
    }

    #[test]
    fn no_query_list_no_section() {
        assert!(section(&Value::Null).is_none());
    }
}
