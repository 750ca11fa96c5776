//! `nodetool tablestats` (`cfstats`) text, read by label: the keyspace-centric
//! form (`Keyspace : ks` in 4.0, `Keyspace: ks` in 4.1+, tables indented by two
//! tabs) and the sorted form (`-s`, `Table: ks.t` indented by one tab). Unknown
//! labels are skipped (every version adds some); the 4.1+ `Top partitions`
//! sections are read as key/value rows.

use crate::cursor::{Cursor, Line};
use crate::error::{ParseProblem, ProblemKind};
use crate::fields::Field;
use crate::model::{InputFormat, NodeStats, Origin, TableStats};
use crate::node_header::{is_comment, node_header};
use crate::number::parse_count;

const FORMAT: &str = "tablestats text";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TopKind {
    Size,
    Tombstones,
}

struct State {
    file: usize,
    keyspace: Option<String>,
    current: Option<TableStats>,
    /// The open `Top partitions` section and the indent of its title line.
    top: Option<(TopKind, usize)>,
    /// The last significant line was a `----------------` separator.
    ended: bool,
    last_line: Option<(usize, std::ops::Range<usize>)>,
}

impl State {
    fn close_table(&mut self, tables: &mut Vec<TableStats>) {
        self.top = None;
        if let Some(t) = self.current.take() {
            tables.push(t);
        }
    }
}

/// Reads from the cursor while lines are tablestats text; stops (without
/// consuming) at a node header or a line tablestats cannot hold.
pub(crate) fn parse(
    cursor: &mut Cursor<'_>,
    file: usize,
    node: &str,
    problems: &mut Vec<ParseProblem>,
) -> NodeStats {
    let first = cursor.peek();
    let origin = Origin {
        file,
        span: first.map_or(0..0, |l| l.span()),
        line: first.map_or(1, |l| l.no),
    };
    let mut st = State {
        file,
        keyspace: None,
        current: None,
        top: None,
        ended: false,
        last_line: None,
    };
    let mut tables = Vec::new();
    while let Some(line) = cursor.peek() {
        let t = line.text.trim();
        if node_header(t).is_some() || !accept(&mut st, &mut tables, line, t, problems) {
            break;
        }
        if !t.is_empty() && !is_comment(t) {
            st.last_line = Some((line.no, line.span()));
            st.ended = is_separator(t);
        }
        cursor.advance_over(line);
    }
    if let Some((no, span)) = st.last_line.clone()
        && !st.ended
    {
        let what = st.current.as_ref().map_or_else(
            || "the table list (no closing `----------------`)".to_string(),
            |t| format!("table {}", t.qualified_name()),
        );
        problems.push(ParseProblem {
            file,
            line: no,
            span,
            kind: ProblemKind::Truncated {
                format: FORMAT,
                what,
            },
        });
    }
    st.close_table(&mut tables);
    NodeStats {
        node: node.to_string(),
        format: InputFormat::TablestatsText,
        tables,
        origin,
    }
}

fn is_separator(t: &str) -> bool {
    t.len() >= 4 && t.bytes().all(|b| b == b'-')
}

/// Takes one line (`text` is it trimmed); false when the line is not tablestats text.
fn accept(
    st: &mut State,
    tables: &mut Vec<TableStats>,
    line: Line<'_>,
    text: &str,
    problems: &mut Vec<ParseProblem>,
) -> bool {
    if text.is_empty() {
        // A blank line ends a table's block.
        st.close_table(tables);
        return true;
    }
    if is_comment(text) {
        return true;
    }
    if is_separator(text) {
        st.close_table(tables);
        return true;
    }
    if let Some((kind, indent)) = st.top {
        if line.indent() > indent {
            top_row(st, kind, text);
            return true;
        }
        st.top = None;
    }
    if text.starts_with("Total number of tables") {
        st.close_table(tables);
        st.keyspace = None;
        return true;
    }
    if let Some(kind) = top_title(text) {
        st.top = Some((kind, line.indent()));
        return true;
    }
    let Some((label, value)) = text.split_once(':') else {
        return false;
    };
    // Only the keyspace line starts a line; table lines are indented. Anything
    // else unindented is another command's output (or an error message).
    let unindented = !line.text.starts_with(char::is_whitespace);
    let top_level = matches!(
        label.trim_end(),
        "Keyspace" | "Table" | "Table (index)" | "Column Family"
    );
    if unindented && !top_level {
        return false;
    }
    // `text` is trimmed: the label has no leading space, the value no trailing one.
    let (label, value) = (label.trim_end(), value.trim_start());
    match label {
        "Keyspace" => {
            st.close_table(tables);
            st.keyspace = Some(value.to_string());
        }
        "Table" | "Table (index)" | "Column Family" => {
            st.close_table(tables);
            st.current = Some(new_table(st, label, value, line));
        }
        _ => set_field(st, label, value, line, problems),
    }
    true
}

fn new_table(st: &State, label: &str, value: &str, line: Line<'_>) -> TableStats {
    let (keyspace, table) = match &st.keyspace {
        Some(ks) => (ks.clone(), value.to_string()),
        // The sorted form names tables `ks.t` without a Keyspace line.
        None => match value.split_once('.') {
            Some((ks, t)) => (ks.to_string(), t.to_string()),
            None => (String::new(), value.to_string()),
        },
    };
    TableStats {
        is_index: label == "Table (index)" || table.contains('.'),
        keyspace,
        table,
        origin: Origin {
            file: st.file,
            span: line.span(),
            line: line.no,
        },
        ..TableStats::default()
    }
}

fn set_field(
    st: &mut State,
    label: &str,
    value: &str,
    line: Line<'_>,
    problems: &mut Vec<ParseProblem>,
) {
    let (Some(table), Some(field)) = (st.current.as_mut(), Field::from_label(label)) else {
        // Keyspace totals, and labels cqlmodel does not use.
        return;
    };
    if field.set(table, value).is_err() {
        problems.push(ParseProblem {
            file: st.file,
            line: line.no,
            span: line.span(),
            kind: ProblemKind::BadNumber {
                label: label.to_string(),
                value: value.to_string(),
            },
        });
    }
}

fn top_title(text: &str) -> Option<TopKind> {
    if text.starts_with("Top partitions by size") {
        Some(TopKind::Size)
    } else if text.starts_with("Top partitions by tombstone count") {
        Some(TopKind::Tombstones)
    } else {
        None
    }
}

/// A `key  value` row of a Top partitions section (the `Key Size` header skipped).
/// Sizes carry a unit (`12.5 MiB`), so the value is the last one or two words.
fn top_row(st: &mut State, kind: TopKind, text: &str) {
    let Some(table) = st.current.as_mut() else {
        return;
    };
    let Some((rest, last)) = text.rsplit_once(char::is_whitespace) else {
        return;
    };
    let (key, value) = match last.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => {
            match rest.trim_end().rsplit_once(char::is_whitespace) {
                Some((key, number)) => (key.trim(), format!("{number} {last}")),
                None => return,
            }
        }
        _ => (rest.trim(), last.to_string()),
    };
    if key == "Key" || key.is_empty() {
        return;
    }
    let Ok(Some(v)) = parse_count(&value) else {
        return;
    };
    match kind {
        TopKind::Size => table.top_partitions_by_size.push((key.to_string(), v)),
        TopKind::Tombstones => table
            .top_partitions_by_tombstones
            .push((key.to_string(), v)),
    }
}
