//! The YAML subset `nodetool tablestats -F yaml` prints: SnakeYAML's block style
//! (nested maps by indentation, `- item` sequences at the key's indent or
//! deeper, `{}`/`[]` for empty collections, quoted or plain scalars), read into
//! a JSON value so JSON and YAML share one reader. Scalars stay strings; the
//! number reader decides what they mean. A line the subset cannot hold stops
//! the reading: what was read before it is kept, and the line is returned.

use serde_json::{Map, Value};

use crate::cursor::{Cursor, Line};
use crate::node_header::node_header;

/// Where the reading stopped early, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YamlStop {
    pub line: usize,
    pub span: std::ops::Range<usize>,
    pub message: String,
}

struct Reader<'a, 'c> {
    cursor: &'c mut Cursor<'a>,
    stop: Option<YamlStop>,
}

/// Reads a document from the cursor, up to a node header or the end.
pub(crate) fn read(cursor: &mut Cursor<'_>) -> (Value, Option<YamlStop>) {
    let mut r = Reader { cursor, stop: None };
    r.skip_blank();
    let indent = r.peek().map_or(0, |l| l.indent());
    let value = r.map(indent);
    if r.stop.is_none()
        && let Some(line) = r.peek()
    {
        r.fail(line, "a line outside the document's structure");
    }
    (value, r.stop)
}

impl<'a> Reader<'a, '_> {
    /// The next significant line (blank lines, comments and `---` skipped).
    fn peek(&mut self) -> Option<Line<'a>> {
        self.skip_blank();
        let line = self.cursor.peek()?;
        if node_header(line.text).is_some() {
            return None;
        }
        Some(line)
    }

    fn skip_blank(&mut self) {
        while let Some(l) = self.cursor.peek() {
            let t = l.text.trim();
            if node_header(l.text).is_none() && (t.is_empty() || t.starts_with('#') || t == "---") {
                self.cursor.advance();
            } else {
                break;
            }
        }
    }

    fn fail(&mut self, line: Line<'_>, message: &str) {
        if self.stop.is_none() {
            self.stop = Some(YamlStop {
                line: line.no,
                span: line.span(),
                message: format!("{message}: `{}`", line.text.trim()),
            });
        }
    }

    /// `key: value` lines at exactly `indent`.
    fn map(&mut self, indent: usize) -> Value {
        let mut out = Map::new();
        while self.stop.is_none() {
            let Some(line) = self.peek() else { break };
            if line.indent() < indent {
                break;
            }
            if line.indent() > indent {
                self.fail(line, "unexpected indentation");
                break;
            }
            let Some((key, rest)) = split_key(line.text.trim()) else {
                self.fail(line, "expected `key: value`");
                break;
            };
            self.cursor.advance();
            let value = if rest.is_empty() {
                self.nested(indent)
            } else {
                scalar_or_flow(rest)
            };
            out.insert(key, value);
        }
        Value::Object(out)
    }

    /// The value of a `key:` line: a deeper map, or a sequence at the same indent or deeper.
    fn nested(&mut self, indent: usize) -> Value {
        let Some(next) = self.peek() else {
            return Value::Null;
        };
        let is_item = next.text.trim_start().starts_with("- ") || next.text.trim() == "-";
        if is_item && next.indent() >= indent {
            return self.sequence(next.indent());
        }
        if next.indent() > indent {
            return self.map(next.indent());
        }
        Value::Null
    }

    /// `- scalar` items at `indent` (nodetool's sequences hold scalars only).
    fn sequence(&mut self, indent: usize) -> Value {
        let mut items = Vec::new();
        while self.stop.is_none() {
            let Some(line) = self.peek() else { break };
            let t = line.text.trim();
            if line.indent() != indent || !(t.starts_with("- ") || t == "-") {
                break;
            }
            self.cursor.advance();
            items.push(scalar_or_flow(t.trim_start_matches('-').trim()));
        }
        Value::Array(items)
    }
}

/// `key: rest`, the key unquoted; the separator is the first `: ` (or a final
/// `:`) outside quotes.
fn split_key(text: &str) -> Option<(String, &str)> {
    if let Some(q) = text.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let end = text.get(1..)?.find(q)? + 1;
        let key = text.get(1..end)?.to_string();
        let rest = text.get(end + 1..)?.trim_start().strip_prefix(':')?;
        return Some((key, rest.trim()));
    }
    if let Some(i) = text.find(": ") {
        return Some((text.get(..i)?.to_string(), text.get(i + 2..)?.trim()));
    }
    text.strip_suffix(':').map(|k| (k.to_string(), ""))
}

fn scalar_or_flow(text: &str) -> Value {
    match text {
        "{}" => return Value::Object(Map::new()),
        "[]" => return Value::Array(Vec::new()),
        "~" | "null" | "Null" | "NULL" => return Value::Null,
        _ => {}
    }
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return Value::Array(inner.split(',').map(|s| scalar(s.trim())).collect());
    }
    scalar(text)
}

fn scalar(text: &str) -> Value {
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return Value::String(inner.replace("''", "'"));
    }
    if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return Value::String(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    Value::String(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_maps_sequences_and_quoted_scalars() {
        let text = "total_number_of_tables: 1\niot:\n  read_count: 5\n  tables:\n    readings:\n      sstables_in_each_level:\n      - '1'\n      - 0\n      top_size_partitions: {}\n      local_read_latency_ms: '0.125'\n      twcs: null\n";
        let mut c = Cursor::new(text);
        let (v, stop) = read(&mut c);
        assert_eq!(stop, None);
        assert_eq!(
            v["iot"]["tables"]["readings"]["local_read_latency_ms"],
            "0.125"
        );
        assert_eq!(
            v["iot"]["tables"]["readings"]["sstables_in_each_level"][0],
            "1"
        );
        assert!(v["iot"]["tables"]["readings"]["twcs"].is_null());
    }

    #[test]
    fn a_broken_line_stops_the_reading_and_keeps_what_was_read() {
        let text = "a: 1\nb:\n  c: 2\n  this is not yaml\n";
        let mut c = Cursor::new(text);
        let (v, stop) = read(&mut c);
        assert_eq!(v["a"], "1");
        assert_eq!(v["b"]["c"], "2");
        assert_eq!(stop.map(|s| s.line), Some(4));
    }
}
