//! One input, any mix of formats: the format of each part is detected from its
//! first line, node headers name the node of what follows, and a line no format
//! explains is reported and skipped so the rest is still read.

use crate::cursor::{Cursor, Line};
use crate::error::{ParseProblem, ProblemKind};
use crate::histograms;
use crate::model::{NodeStats, NodeStatus, TableHistogram};
use crate::node_header::{is_comment, node_header};
use crate::status;
use crate::tablestats_text;
use crate::tablestats_tree;

/// Everything read from one input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub stats: Vec<NodeStats>,
    pub histograms: Vec<TableHistogram>,
    /// `nodetool status` rows, every datacenter.
    pub status: Vec<NodeStatus>,
    pub problems: Vec<ParseProblem>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start<'a> {
    NodeHeader(&'a str),
    Skip,
    Text,
    Json,
    Yaml,
    Histograms,
    Status,
    Unknown,
}

fn classify(text: &str) -> Start<'_> {
    if let Some(name) = node_header(text) {
        return Start::NodeHeader(name);
    }
    let t = text.trim();
    if t.is_empty() || is_comment(t) {
        return Start::Skip;
    }
    if histograms::title(t).is_some() {
        return Start::Histograms;
    }
    if t.starts_with('{') {
        return Start::Json;
    }
    if status::title(t).is_some() {
        return Start::Status;
    }
    let label = t.split(':').next().unwrap_or("").trim();
    if t.starts_with("Total number of tables")
        || matches!(
            label,
            "Keyspace" | "Table" | "Table (index)" | "Column Family"
        )
    {
        return Start::Text;
    }
    // YAML: an unindented `key:` opening a map, or the holder's own total.
    let unindented = !text.starts_with(char::is_whitespace);
    if unindented && (t.ends_with(':') || t.starts_with("total_number_of_tables:")) {
        return Start::Yaml;
    }
    Start::Unknown
}

/// Reads one input. `file` is the caller's index for it, `name` the node name
/// its outputs get until a node header names another.
pub fn parse_input(file: usize, name: &str, text: &str) -> Parsed {
    let mut out = Parsed::default();
    let mut cursor = Cursor::new(text);
    let mut node = name.to_string();
    let mut documents = 0usize;
    let mut in_unknown = false;
    while let Some(line) = cursor.peek() {
        let before = cursor.position();
        let start = classify(line.text);
        let doc_name = || match documents {
            0 => node.clone(),
            n => format!("{node}#{}", n + 1),
        };
        match start {
            Start::NodeHeader(n) => {
                node = n.to_string();
                documents = 0;
                cursor.advance();
            }
            Start::Skip => cursor.advance(),
            Start::Histograms => {
                if let Some(h) = histograms::parse(&mut cursor, file, &node, &mut out.problems) {
                    out.histograms.push(h);
                }
            }
            Start::Status => {
                let rows = status::parse(&mut cursor, file, &mut out.problems);
                out.status.extend(rows);
            }
            Start::Text => {
                let name = doc_name();
                documents += 1;
                let s = tablestats_text::parse(&mut cursor, file, &name, &mut out.problems);
                out.stats.push(s);
            }
            Start::Json => {
                let name = doc_name();
                documents += 1;
                let s = tablestats_tree::parse_json(&mut cursor, file, &name, &mut out.problems);
                out.stats.push(s);
            }
            Start::Yaml => {
                let name = doc_name();
                documents += 1;
                let s = tablestats_tree::parse_yaml(&mut cursor, file, &name, &mut out.problems);
                out.stats.push(s);
            }
            Start::Unknown => {
                if !in_unknown {
                    out.problems
                        .push(unexpected(file, line, last_format(&out), text.len()));
                }
                cursor.advance();
            }
        }
        in_unknown = start == Start::Unknown;
        if cursor.position() == before {
            // A parser that took nothing: never loop on the same line.
            if !in_unknown {
                out.problems
                    .push(unexpected(file, line, last_format(&out), text.len()));
            }
            in_unknown = true;
            cursor.advance();
        }
    }
    if out.stats.is_empty() && out.histograms.is_empty() && out.status.is_empty() {
        // One problem says it all: line-by-line complaints would only repeat it.
        out.problems = vec![ParseProblem {
            file,
            line: 1,
            span: 0..text.find('\n').unwrap_or(text.len()),
            kind: ProblemKind::UnknownFormat,
        }];
    }
    out
}

fn last_format(out: &Parsed) -> &'static str {
    match (out.stats.last(), out.histograms.last()) {
        (_, Some(h))
            if out
                .stats
                .last()
                .is_none_or(|s| s.origin.line < h.origin.line) =>
        {
            "tablehistograms"
        }
        (Some(s), _) => s.format.name(),
        _ => "nodetool",
    }
}

fn unexpected(file: usize, line: Line<'_>, format: &'static str, text_len: usize) -> ParseProblem {
    // A last line without its newline that no format explains was cut short.
    if line.start + line.text.len() == text_len {
        return ParseProblem {
            file,
            line: line.no,
            span: line.span(),
            kind: ProblemKind::Truncated {
                format,
                what: format!("a line cut short (`{}`)", line.text.trim()),
            },
        };
    }
    let mut text: String = line.text.trim().chars().take(80).collect();
    if line.text.trim().chars().count() > 80 {
        text.push('…');
    }
    ParseProblem {
        file,
        line: line.no,
        span: line.span(),
        kind: ProblemKind::UnexpectedLine { format, text },
    }
}
