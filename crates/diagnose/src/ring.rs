//! `nodetool ring`: per datacenter the same `Datacenter: NAME` title as status,
//! then a header (`Address  Rack  Status  State  Load  Owns  Token`), the ring's
//! last token alone on a line, and one row per token (a node with 16 vnodes has
//! 16 rows). Rows are folded into one [`NodeStatus`] per address: its token
//! count, load, ownership (`Owns`, `?` without a keyspace when replication
//! differs) and state letters (`Up`/`Down`, `Normal`/`Leaving`/...).

use std::collections::BTreeMap;

use crate::cursor::{Cursor, Line};
use crate::model::{NodeStatus, Origin};
use crate::node_header::node_header;
use crate::number::{parse_count, parse_value};

/// The ring header: `Address` first and a `Token` column.
pub(crate) fn is_header(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("Address") && t.split_whitespace().any(|w| w == "Token")
}

/// The lines ring prints besides rows: the lone first token, warnings and notes.
fn is_aside(text: &str) -> bool {
    let lone_token = !text.is_empty()
        && text
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit());
    lone_token
        || text.starts_with("Warning:")
        || text.starts_with("Note:")
        || text.starts_with("To view")
}

fn state_letters(status: &str, state: &str) -> String {
    let s = match status {
        "Up" => 'U',
        "Down" => 'D',
        _ => '?',
    };
    let t = state.chars().next().unwrap_or('?');
    format!("{s}{t}")
}

/// Reads the rows after the header (the cursor is on the line after it) up to
/// the next datacenter, node header or a line that is no part of a ring.
pub(crate) fn parse(cursor: &mut Cursor<'_>, dc: &str, file: usize) -> Vec<NodeStatus> {
    let mut nodes: BTreeMap<String, NodeStatus> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    while let Some(line) = cursor.peek() {
        let text = line.text.trim();
        if node_header(line.text).is_some() || text.starts_with("Datacenter:") {
            break;
        }
        if text.is_empty() || is_aside(text) {
            cursor.advance_over(line);
            continue;
        }
        let cells: Vec<&str> = text.split_whitespace().collect();
        // Address Rack Status State Load (a number and a unit) Owns Token
        let [address, rack, status, state, rest @ ..] = cells.as_slice() else {
            break;
        };
        if !matches!(*status, "Up" | "Down" | "?") || rest.len() < 3 {
            break;
        }
        let (load, owns) = match rest {
            [value, unit, owns, _token] => (format!("{value} {unit}"), *owns),
            [value, owns, _token] => (value.to_string(), *owns),
            _ => break,
        };
        let node = nodes.entry(address.to_string()).or_insert_with(|| {
            order.push(address.to_string());
            first_row(dc, address, rack, status, state, &load, owns, line, file)
        });
        node.tokens = Some(node.tokens.unwrap_or(0) + 1);
        cursor.advance_over(line);
    }
    order.into_iter().filter_map(|a| nodes.remove(&a)).collect()
}

#[allow(clippy::too_many_arguments)]
fn first_row(
    dc: &str,
    address: &str,
    rack: &str,
    status: &str,
    state: &str,
    load: &str,
    owns: &str,
    line: Line<'_>,
    file: usize,
) -> NodeStatus {
    NodeStatus {
        datacenter: dc.to_string(),
        state: state_letters(status, state),
        address: address.to_string(),
        load_bytes: parse_count(load).ok().flatten(),
        tokens: Some(0),
        owns: parse_value(owns).ok().flatten().map(|p| p / 100.0),
        effective: false,
        rack: rack.to_string(),
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
    fn token_rows_fold_into_one_node_each() {
        let text = "                                          9000\n\
10.0.0.1  r1  Up    Normal  1.5 GiB  60.00%  -9000\n\
10.0.0.2  r2  Down  Normal  ?        40.00%  -1\n\
10.0.0.1  r1  Up    Normal  1.5 GiB  60.00%  9000\n\
\n  Warning: \"nodetool ring\" is used to output all the tokens of a node.\n";
        let mut cursor = Cursor::new(text);
        let nodes = parse(&mut cursor, "dc1", 0);
        assert_eq!(nodes.len(), 2, "{nodes:?}");
        assert_eq!(nodes[0].address, "10.0.0.1");
        assert_eq!(nodes[0].tokens, Some(2));
        assert_eq!(nodes[0].state, "UN");
        assert_eq!(nodes[0].load_bytes, Some(1_610_612_736));
        assert!(nodes[0].owns.is_some_and(|o| (o - 0.6).abs() < 1e-9));
        assert_eq!(nodes[1].state, "DN");
        assert_eq!(nodes[1].load_bytes, None);
        assert_eq!(nodes[1].tokens, Some(1));
        assert!(cursor.peek().is_none(), "the warning is part of the ring");
    }
}
