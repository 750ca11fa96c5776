//! `nodetool status`: per datacenter a `Datacenter: NAME` title, a legend, a
//! header (`--  Address  Load  Tokens  Owns (effective)  Host ID  Rack`) and one
//! row per node. Columns are separated by at least two spaces (the printer pads
//! each with `%-Ns  `), and are found by the header's names: `Tokens` is absent
//! with one token per node, `Owns` is `Owns (effective)` only with a keyspace.
//! `nodetool ring` opens with the same title; its rows are read by `ring`.

use crate::cursor::{Cursor, Line};
use crate::error::{ParseProblem, ProblemKind};
use crate::model::{NodeStatus, Origin};
use crate::node_header::node_header;
use crate::number::{parse_count, parse_value};

/// The datacenter a `Datacenter: NAME` line opens.
pub(crate) fn title(line: &str) -> Option<&str> {
    line.trim().strip_prefix("Datacenter:").map(str::trim)
}

fn columns(text: &str) -> Vec<&str> {
    text.split("  ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// A node row starts with its status and state letters: `UN`, `DN`, `UJ`, `?N`, ...
fn is_row(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() > 3
        && matches!(b.first(), Some(b'U' | b'D' | b'?'))
        && matches!(b.get(1), Some(b'N' | b'L' | b'J' | b'M'))
        && b.get(2) == Some(&b' ')
}

/// Reads one datacenter's table; the cursor is at its title line.
pub(crate) fn parse(
    cursor: &mut Cursor<'_>,
    file: usize,
    problems: &mut Vec<ParseProblem>,
) -> Vec<NodeStatus> {
    let Some(first) = cursor.next_line() else {
        return Vec::new();
    };
    let dc = title(first.text).unwrap_or("").to_string();
    let mut header: Option<Vec<String>> = None;
    let mut nodes = Vec::new();
    while let Some(line) = cursor.peek() {
        let text = line.text.trim();
        if node_header(line.text).is_some() || title(text).is_some() {
            break;
        }
        let legend = text.starts_with("Status=")
            || text.starts_with("|/")
            || text.starts_with("Note:")
            || (!text.is_empty() && text.bytes().all(|b| b == b'='));
        if crate::ring::is_header(text) {
            cursor.advance_over(line);
            nodes.extend(crate::ring::parse(cursor, &dc, file));
            break;
        }
        if text.starts_with("--") {
            header = Some(columns(text).into_iter().map(str::to_string).collect());
        } else if let (Some(h), true) = (&header, is_row(text)) {
            nodes.push(row(h, &dc, text, line, file, problems));
        } else if !(legend || text.is_empty()) {
            break;
        }
        cursor.advance_over(line);
    }
    nodes
}

fn row(
    header: &[String],
    dc: &str,
    text: &str,
    line: Line<'_>,
    file: usize,
    problems: &mut Vec<ParseProblem>,
) -> NodeStatus {
    let cells = columns(text);
    if cells.len() != header.len() {
        problems.push(ParseProblem {
            file,
            line: line.no,
            span: line.span(),
            kind: ProblemKind::ColumnCount {
                expected: header.len(),
                found: cells.len(),
            },
        });
    }
    let cell = |name: &str| {
        header
            .iter()
            .position(|h| h.starts_with(name))
            .and_then(|i| cells.get(i).copied())
    };
    let owns_header = header.iter().find(|h| h.starts_with("Owns"));
    NodeStatus {
        datacenter: dc.to_string(),
        state: cell("--").unwrap_or("").to_string(),
        address: cell("Address").unwrap_or("").to_string(),
        load_bytes: cell("Load").and_then(|v| parse_count(v).ok().flatten()),
        tokens: cell("Tokens").and_then(|v| parse_count(v).ok().flatten()),
        owns: cell("Owns").and_then(|v| parse_value(v).ok().flatten().map(|p| p / 100.0)),
        effective: owns_header.is_some_and(|h| h.contains("effective")),
        rack: cell("Rack").unwrap_or("").to_string(),
        origin: Origin {
            file,
            span: line.span(),
            line: line.no,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_by_the_header_names() {
        let text = "Datacenter: dc1\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n--  Address    Load        Tokens  Owns (effective)  Host ID                               Rack\nUN  10.0.0.1   1.5 GiB     16      45.2%             6b1e1b0a-8c50-4d5e-9d8f-1c2b3a4d5e6f  r1\nDN  10.0.0.2   ?           16      ?                 7c2f2c1b-9d61-4e6f-8e9a-2d3c4b5e6f70  r2\n";
        let mut c = Cursor::new(text);
        let mut problems = Vec::new();
        let nodes = parse(&mut c, 0, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].address, "10.0.0.1");
        assert_eq!(nodes[0].load_bytes, Some(1_610_612_736));
        assert_eq!(nodes[0].tokens, Some(16));
        assert!(nodes[0].owns.is_some_and(|o| (o - 0.452).abs() < 1e-9));
        assert!(nodes[0].effective);
        assert_eq!(nodes[1].state, "DN");
        assert_eq!(nodes[1].owns, None);
        assert_eq!(nodes[1].rack, "r2");
    }
}
