//! Where each table's block starts in a JSON or YAML tablestats document, so a
//! finding points at the table rather than at the document. One pass over the
//! lines, reading only the keys that open a map: the pretty-printed layout the
//! printers use (Jackson's one key a line, SnakeYAML's block style). A document
//! laid out otherwise (minified JSON) locates nothing, and findings point at
//! the document's first line instead.

use std::collections::HashMap;

use crate::cursor::Cursor;
use crate::model::Origin;

/// `(keyspace, table)` → the origin of the line that opens the table's map.
pub(crate) type Locations = HashMap<(String, String), Origin>;

/// The key of a line that opens a map: `"name" : {` (JSON) or `name:` (YAML).
fn opening_key(text: &str, json: bool) -> Option<&str> {
    let t = text.trim();
    if json {
        let rest = t
            .strip_suffix('{')?
            .trim_end()
            .strip_suffix(':')?
            .trim_end();
        rest.strip_prefix('"')?.strip_suffix('"')
    } else {
        let key = t.strip_suffix(':')?;
        Some(
            key.strip_prefix('\'')
                .and_then(|k| k.strip_suffix('\''))
                .or_else(|| key.strip_prefix('"').and_then(|k| k.strip_suffix('"')))
                .unwrap_or(key),
        )
    }
}

/// Locates the tables of the document `text` (which starts at byte `base` of
/// input `file`, on line `first_line`).
pub(crate) fn locate(
    text: &str,
    file: usize,
    base: usize,
    first_line: usize,
    json: bool,
) -> Locations {
    let mut out = Locations::new();
    // The open keys, with the indentation (YAML) or depth (JSON) they opened at.
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut depth = 0usize;
    let mut cursor = Cursor::new(text);
    while let Some(line) = cursor.next_line() {
        let level = if json { depth } else { line.indent() };
        if !json {
            while stack.last().is_some_and(|(l, _)| *l >= level) && !line.text.trim().is_empty() {
                stack.pop();
            }
        }
        if let Some(key) = opening_key(line.text, json) {
            let origin = || Origin {
                file,
                span: base + line.start..base + line.start + line.text.len(),
                line: first_line + line.no - 1,
            };
            match stack.as_slice() {
                // `ks.t` at the top (the sorted form).
                [] => {
                    if let Some((ks, t)) = key.split_once('.') {
                        out.insert((ks.to_string(), t.to_string()), origin());
                    }
                }
                [(_, ks), (_, "tables")] => {
                    out.insert((ks.to_string(), key.to_string()), origin());
                }
                _ => {}
            }
            stack.push((level, key));
        }
        if json {
            let opens = line.text.matches('{').count();
            let closes = line.text.matches('}').count();
            depth = (depth + opens).saturating_sub(closes);
            while !stack.is_empty() && stack.len() >= depth {
                stack.pop();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_yaml_tables_are_found_by_their_opening_line() {
        let json = "{\n  \"total_number_of_tables\" : 2,\n  \"iot\" : {\n    \"read_count\" : 1,\n    \"tables\" : {\n      \"readings\" : {\n        \"top_size_partitions\" : { },\n        \"sstable_count\" : 3\n      },\n      \"devices\" : {\n        \"sstable_count\" : 1\n      }\n    }\n  }\n}\n";
        let found = locate(json, 0, 0, 1, true);
        assert_eq!(
            found
                .get(&("iot".into(), "readings".into()))
                .map(|o| o.line),
            Some(6)
        );
        assert_eq!(
            found.get(&("iot".into(), "devices".into())).map(|o| o.line),
            Some(10)
        );
        assert_eq!(found.len(), 2);

        let yaml = "total_number_of_tables: 2\niot:\n  read_count: 1\n  tables:\n    readings:\n      sstable_count: 3\n      top_size_partitions:\n        dev-1: 1 MiB\n    devices:\n      sstable_count: 1\n";
        let found = locate(yaml, 0, 0, 10, false);
        assert_eq!(
            found
                .get(&("iot".into(), "readings".into()))
                .map(|o| o.line),
            Some(14)
        );
        assert_eq!(
            found.get(&("iot".into(), "devices".into())).map(|o| o.line),
            Some(18)
        );
        assert_eq!(found.len(), 2);
    }
}
