//! `nodetool tablestats -F json` and `-F yaml`: a map of keyspaces, each with
//! its `tables` map (`TableStatsHolder.convertAllToMap`), or, with `-s`, a map
//! of `ks.t` names to tables (`convertSortedFilteredSubsetToMap`). Numbers come
//! as numbers, as strings (`"0.125"`), as `"NaN"`, null, or a bare `NaN` that is
//! not JSON; ScyllaDB omits some keys. Every key is optional.

use serde_json::{Map, Value};

use crate::cursor::Cursor;
use crate::error::{ParseProblem, ProblemKind};
use crate::fields::Field;
use crate::locate::{Locations, locate};
use crate::model::{InputFormat, NodeStats, Origin, TableStats};
use crate::node_header::node_header;
use crate::number::parse_count;
use crate::yaml;

/// Reads a JSON document from the cursor up to a node header or the end.
pub(crate) fn parse_json(
    cursor: &mut Cursor<'_>,
    file: usize,
    node: &str,
    problems: &mut Vec<ParseProblem>,
) -> NodeStats {
    let origin = origin_here(cursor, file);
    let start = cursor.position();
    let first_line = cursor.line_no();
    while let Some(l) = cursor.peek() {
        if node_header(l.text).is_some() {
            break;
        }
        cursor.advance();
    }
    let body = cursor.text().get(start..cursor.position()).unwrap_or("");
    let cleaned = bare_non_numbers_to_null(body);
    let mut stats = NodeStats {
        node: node.to_string(),
        format: InputFormat::TablestatsJson,
        tables: Vec::new(),
        origin: origin.clone(),
    };
    match serde_json::from_str::<Value>(&cleaned) {
        Ok(v) => {
            let places = locate(body, file, start, first_line, true);
            stats.tables = tables_of(&v, &origin, &places);
        }
        Err(e) => {
            // serde_json puts an unexpected end on the line after the last newline.
            let lines_in_body = body.lines().count().max(1);
            let nth = e.line().clamp(1, lines_in_body) - 1;
            let line = first_line + nth;
            let kind = if e.is_eof() {
                ProblemKind::Truncated {
                    format: "tablestats JSON",
                    what: "the JSON document (nothing of it is used)".to_string(),
                }
            } else {
                ProblemKind::Syntax {
                    format: "tablestats JSON",
                    message: e.to_string(),
                }
            };
            problems.push(ParseProblem {
                file,
                line,
                span: line_span(cursor.text(), start, nth),
                kind,
            });
        }
    }
    stats
}

/// Reads a YAML document from the cursor up to a node header or the end.
pub(crate) fn parse_yaml(
    cursor: &mut Cursor<'_>,
    file: usize,
    node: &str,
    problems: &mut Vec<ParseProblem>,
) -> NodeStats {
    let origin = origin_here(cursor, file);
    let start = cursor.position();
    let first_line = cursor.line_no();
    let (value, stop) = yaml::read(cursor);
    let body = cursor.text().get(start..cursor.position()).unwrap_or("");
    let places = locate(body, file, start, first_line, false);
    if let Some(stop) = stop {
        problems.push(ParseProblem {
            file,
            line: stop.line,
            span: stop.span,
            kind: ProblemKind::Syntax {
                format: "tablestats YAML",
                message: format!("{}; what was read before is used", stop.message),
            },
        });
        // Skip the rest of this node's document.
        while let Some(l) = cursor.peek() {
            if node_header(l.text).is_some() {
                break;
            }
            cursor.advance();
        }
    }
    NodeStats {
        node: node.to_string(),
        format: InputFormat::TablestatsYaml,
        tables: tables_of(&value, &origin, &places),
        origin,
    }
}

fn origin_here(cursor: &Cursor<'_>, file: usize) -> Origin {
    let first = cursor.peek();
    Origin {
        file,
        span: first.map_or(0..0, |l| l.span()),
        line: first.map_or(1, |l| l.no),
    }
}

/// The span of the `nth` line (0-based) after byte `start`.
fn line_span(text: &str, start: usize, nth: usize) -> std::ops::Range<usize> {
    let mut c = Cursor::new(text.get(start..).unwrap_or(""));
    for _ in 0..nth {
        c.advance();
    }
    c.peek().map_or(start..start, |l| {
        start + l.start..start + l.start + l.text.len()
    })
}

/// Every table of the document, sorted by keyspace and name (the printers use
/// hash maps: their order means nothing).
fn tables_of(doc: &Value, origin: &Origin, places: &Locations) -> Vec<TableStats> {
    let Some(top) = doc.as_object() else {
        return Vec::new();
    };
    let mut tables = Vec::new();
    for (name, value) in top {
        let Some(obj) = value.as_object() else {
            continue;
        };
        match obj.get("tables").and_then(Value::as_object) {
            Some(ts) => {
                for (t, v) in ts {
                    if let Some(fields) = v.as_object() {
                        tables.push(table(name, t, fields, at(places, name, t, origin)));
                    }
                }
            }
            None => {
                if let Some((ks, t)) = name.split_once('.') {
                    tables.push(table(ks, t, obj, at(places, ks, t, origin)));
                }
            }
        }
    }
    tables.sort_by(|a, b| (&a.keyspace, &a.table).cmp(&(&b.keyspace, &b.table)));
    tables
}

/// The table's own line when it was located, else the document's.
fn at<'a>(places: &'a Locations, ks: &str, t: &str, doc: &'a Origin) -> &'a Origin {
    places.get(&(ks.to_string(), t.to_string())).unwrap_or(doc)
}

fn table(keyspace: &str, name: &str, fields: &Map<String, Value>, origin: &Origin) -> TableStats {
    let mut t = TableStats {
        keyspace: keyspace.to_string(),
        table: name.to_string(),
        is_index: name.contains('.'),
        origin: origin.clone(),
        ..TableStats::default()
    };
    for (key, value) in fields {
        if let Some(field) = Field::from_key(key) {
            // A value that is not a number leaves the field unknown, as NaN does.
            let _ = field.set(&mut t, &scalar_text(value));
        }
    }
    // scylla-nodetool's to_map() fills this key with the live-cells maximum: a
    // tombstone maximum equal to it cannot be trusted.
    if t.max_tombstones_per_slice.is_some()
        && t.max_tombstones_per_slice == t.max_live_cells_per_slice
    {
        t.max_tombstones_per_slice = None;
        t.max_tombstones_doubtful = true;
    }
    t.top_partitions_by_size = top_map(fields.get("top_size_partitions"));
    t.top_partitions_by_tombstones = top_map(fields.get("top_tombstone_partitions"));
    t
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

fn top_map(v: Option<&Value>) -> Vec<(String, u64)> {
    let Some(obj) = v.and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut rows: Vec<(String, u64)> = obj
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), parse_count(&scalar_text(v)).ok()??)))
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

/// Replaces `NaN`, `Infinity` and `-Infinity` outside strings by `null`: Java
/// JSON writers configured to allow them print them bare, which JSON forbids.
fn bare_non_numbers_to_null(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("NaN") && !text.contains("Infinity") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let replaced = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|w| rest.starts_with(w));
        if let Some(w) = replaced {
            out.push_str("null");
            rest = &rest[w.len()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_nan_becomes_null_but_strings_keep_it() {
        let fixed = bare_non_numbers_to_null(r#"{"a": NaN, "b": "NaN", "c": -Infinity}"#);
        assert_eq!(fixed, r#"{"a": null, "b": "NaN", "c": null}"#);
    }
}
