//! The topology file (TOML): datacenters → racks → nodes, vnodes, token allocation,
//! seed and replication. The format is documented in `docs/ring.md`; a commented
//! example is `examples/topology-3dc.toml`.
//!
//! ```toml
//! num_tokens = 16                 # default 16 (Cassandra 4.0+)
//! allocation = "balanced"         # "random" | "balanced" (default) | "allocator"
//! seed = 42                       # default 0
//! replication = { class = "NetworkTopologyStrategy", dc1 = 3, dc2 = 2 }
//!
//! [datacenter.dc1]
//! rack.r1 = ["a1", "a2"]
//! rack.r2 = ["b1", { name = "b2", tokens = [0, 4611686018427387904] }]
//! rack.r3 = ["c1"]
//!
//! [datacenter.dc2]
//! nodes = 4                       # dc2-n1 .. dc2-n4
//! racks = 2                       # round-robin over rack1, rack2 (default 1)
//! ```

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::{Spanned, Value};

use crate::token::Token;
use crate::topology::{
    Allocation, DEFAULT_NUM_TOKENS, DcReplication, NodeSpec, Replication, Topology, TopologyError,
    TopologyErrorKind,
};

/// The replication factor a datacenter gets when the file has no `replication`
/// (capped at the datacenter's node count).
pub const DEFAULT_DC_RF: u32 = 3;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRoot {
    num_tokens: Option<Spanned<i64>>,
    allocation: Option<Spanned<String>>,
    seed: Option<Spanned<i64>>,
    replication: Option<Spanned<BTreeMap<Spanned<String>, Spanned<Value>>>>,
    #[serde(default)]
    datacenter: BTreeMap<Spanned<String>, Spanned<FileDc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDc {
    num_tokens: Option<Spanned<i64>>,
    nodes: Option<Spanned<i64>>,
    racks: Option<Spanned<i64>>,
    rack: Option<BTreeMap<Spanned<String>, Vec<Spanned<Value>>>>,
}

/// A topology file that cannot be read or used, positioned in the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}{}: {message}", position(*line, *column))]
pub struct TopologyFileError {
    pub path: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

/// Reads, parses and validates a topology file.
pub fn load_topology(path: &Path) -> Result<Topology, TopologyFileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| TopologyFileError {
        path: name.clone(),
        line: None,
        column: None,
        message: format!("cannot read: {e}"),
    })?;
    parse_topology(&text)
        .and_then(|t| t.validate().map(|()| t))
        .map_err(|e| locate(&name, &text, &e))
}

/// Turns an error's byte span into `path:line:column`.
pub fn locate(path: &str, text: &str, error: &TopologyError) -> TopologyFileError {
    let (line, column) = match &error.span {
        Some(span) => {
            let (l, c) = line_column(text, span.start);
            (Some(l), Some(c))
        }
        None => (None, None),
    };
    TopologyFileError {
        path: path.to_string(),
        line,
        column,
        message: error.kind.to_string(),
    }
}

/// 1-based line and column (in characters) of byte `offset`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

fn invalid(message: impl Into<String>, span: Range<usize>) -> TopologyError {
    TopologyError::new(
        TopologyErrorKind::Invalid {
            message: message.into(),
        },
        Some(span),
    )
}

/// Parses topology-file text (not yet validated: see [`Topology::validate`]). Error
/// spans are byte ranges of `text`.
pub fn parse_topology(text: &str) -> Result<Topology, TopologyError> {
    let root: FileRoot = toml::from_str(text).map_err(|e| {
        TopologyError::new(
            TopologyErrorKind::Invalid {
                message: e.message().trim().to_string(),
            },
            e.span(),
        )
    })?;
    let default_tokens = match &root.num_tokens {
        Some(n) => vnode_count(n)?,
        None => DEFAULT_NUM_TOKENS,
    };
    let allocation = match &root.allocation {
        None => Allocation::Balanced,
        Some(a) => match a.get_ref().as_str() {
            "random" => Allocation::Random,
            "balanced" => Allocation::Balanced,
            "allocator" => Allocation::Allocator,
            other => {
                return Err(invalid(
                    format!(
                        "allocation must be \"random\", \"balanced\" or \"allocator\", not \"{other}\""
                    ),
                    a.span(),
                ));
            }
        },
    };
    if root.datacenter.is_empty() {
        return Err(invalid(
            "the topology has no datacenter: add `[datacenter.NAME]` with `nodes = N` or `rack.NAME = [...]`",
            0..0,
        ));
    }
    let mut nodes = Vec::new();
    for (dc_name, dc) in &root.datacenter {
        nodes.extend(dc_nodes(dc_name, dc, default_tokens)?);
    }
    let (replication, replication_span) = match &root.replication {
        Some(r) => (
            parse_replication(r.get_ref(), r.span(), &nodes)?,
            Some(r.span()),
        ),
        None => (default_replication(&nodes), None),
    };
    Ok(Topology {
        nodes,
        allocation,
        seed: root.seed.map_or(0, |s| *s.get_ref() as u64),
        replication,
        replication_span,
    })
}

fn vnode_count(n: &Spanned<i64>) -> Result<u32, TopologyError> {
    match u32::try_from(*n.get_ref()) {
        Ok(0) | Err(_) => Err(invalid(
            format!(
                "num_tokens must be a positive number of vnodes, not {}",
                n.get_ref()
            ),
            n.span(),
        )),
        Ok(v) => Ok(v),
    }
}

fn dc_nodes(
    name: &Spanned<String>,
    dc: &Spanned<FileDc>,
    default_tokens: u32,
) -> Result<Vec<NodeSpec>, TopologyError> {
    let dc_name = name.get_ref().clone();
    let body = dc.get_ref();
    let num_tokens = match &body.num_tokens {
        Some(n) => vnode_count(n)?,
        None => default_tokens,
    };
    let mut out = Vec::new();
    match (&body.nodes, &body.rack) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                format!(
                    "datacenter '{dc_name}': give either `nodes` (a count) or `rack.NAME = [...]` lists, not both"
                ),
                dc.span(),
            ));
        }
        (None, None) => {
            return Err(invalid(
                format!(
                    "datacenter '{dc_name}' has no nodes: add `nodes = N` or `rack.NAME = [\"node\", ...]`"
                ),
                dc.span(),
            ));
        }
        (Some(count), None) => {
            let n = positive(count, "nodes")?;
            let racks = match &body.racks {
                Some(r) => positive(r, "racks")?,
                None => 1,
            };
            for i in 0..n {
                out.push(NodeSpec {
                    name: format!("{dc_name}-n{}", i + 1),
                    dc: dc_name.clone(),
                    rack: format!("rack{}", i % racks + 1),
                    num_tokens,
                    tokens: None,
                    span: Some(count.span()),
                });
            }
        }
        (None, Some(racks)) => {
            if let Some(r) = &body.racks {
                return Err(invalid(
                    "`racks` goes with `nodes = N`; named racks are listed as `rack.NAME`",
                    r.span(),
                ));
            }
            for (rack, members) in racks {
                if members.is_empty() {
                    return Err(invalid(
                        format!("rack '{}' has no nodes", rack.get_ref()),
                        rack.span(),
                    ));
                }
                for member in members {
                    out.push(parse_node(member, &dc_name, rack.get_ref(), num_tokens)?);
                }
            }
        }
    }
    Ok(out)
}

fn positive(n: &Spanned<i64>, what: &str) -> Result<u32, TopologyError> {
    match u32::try_from(*n.get_ref()) {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(invalid(
            format!("`{what}` must be a positive count, not {}", n.get_ref()),
            n.span(),
        )),
    }
}

fn parse_node(
    value: &Spanned<Value>,
    dc: &str,
    rack: &str,
    num_tokens: u32,
) -> Result<NodeSpec, TopologyError> {
    let span = value.span();
    let mut node = NodeSpec {
        name: String::new(),
        dc: dc.to_string(),
        rack: rack.to_string(),
        num_tokens,
        tokens: None,
        span: Some(span.clone()),
    };
    match value.get_ref() {
        Value::String(name) => node.name = name.clone(),
        Value::Table(table) => {
            for (key, v) in table {
                match (key.as_str(), v) {
                    ("name", Value::String(name)) => node.name = name.clone(),
                    ("num_tokens", Value::Integer(n)) => {
                        node.num_tokens = vnode_count(&Spanned::new(span.clone(), *n))?;
                    }
                    ("tokens", Value::Array(items)) => {
                        let tokens = items
                            .iter()
                            .map(|t| parse_token(t, span.clone()))
                            .collect::<Result<Vec<_>, _>>()?;
                        node.tokens = Some(tokens);
                    }
                    ("name" | "num_tokens" | "tokens", other) => {
                        return Err(invalid(
                            format!("node `{key}` has the wrong type ({})", other.type_str()),
                            span,
                        ));
                    }
                    _ => {
                        return Err(invalid(
                            format!(
                                "unknown node key `{key}`, expected `name`, `tokens` or `num_tokens`"
                            ),
                            span,
                        ));
                    }
                }
            }
            if node.name.is_empty() {
                return Err(invalid("a node table needs a `name`", span));
            }
        }
        other => {
            return Err(invalid(
                format!(
                    "a node is a name or a table {{ name = ..., tokens = [...] }}, not a {}",
                    other.type_str()
                ),
                span,
            ));
        }
    }
    Ok(node)
}

/// A token: a TOML integer, or a string holding one (as `initial_token` writes them).
fn parse_token(value: &Value, span: Range<usize>) -> Result<Token, TopologyError> {
    match value {
        Value::Integer(t) => Ok(Token(*t)),
        Value::String(s) => s.trim().parse::<i64>().map(Token).map_err(|_| {
            invalid(
                format!("token \"{s}\" is not a Murmur3 token (a signed 64-bit integer)"),
                span,
            )
        }),
        other => Err(invalid(
            format!("a token is an integer, not a {}", other.type_str()),
            span,
        )),
    }
}

fn parse_replication(
    options: &BTreeMap<Spanned<String>, Spanned<Value>>,
    span: Range<usize>,
    nodes: &[NodeSpec],
) -> Result<Replication, TopologyError> {
    let class = options
        .iter()
        .find(|(k, _)| k.get_ref() == "class")
        .ok_or_else(|| {
            invalid(
                "replication needs a `class` (SimpleStrategy or NetworkTopologyStrategy)",
                span.clone(),
            )
        })?
        .1;
    let Value::String(class_name) = class.get_ref() else {
        return Err(invalid(
            "replication `class` must be a string",
            class.span(),
        ));
    };
    let short = class_name
        .strip_prefix("org.apache.cassandra.locator.")
        .unwrap_or(class_name);
    let factors = options.iter().filter(|(k, _)| k.get_ref() != "class");
    match short {
        "SimpleStrategy" => {
            let mut rf = None;
            for (key, value) in factors {
                if key.get_ref() != "replication_factor" {
                    return Err(invalid(
                        format!(
                            "SimpleStrategy takes only `replication_factor`, not `{}`",
                            key.get_ref()
                        ),
                        key.span(),
                    ));
                }
                rf = Some(replication_factor(value)?);
            }
            let rf =
                rf.ok_or_else(|| invalid("SimpleStrategy needs `replication_factor`", span))?;
            Ok(Replication::Simple { rf })
        }
        "NetworkTopologyStrategy" => {
            let mut datacenters: Vec<DcReplication> = Vec::new();
            let mut every_dc = None;
            for (key, value) in factors {
                let rf = replication_factor(value)?;
                if key.get_ref() == "replication_factor" {
                    every_dc = Some((rf, key.span()));
                } else {
                    datacenters.push(DcReplication {
                        dc: key.get_ref().clone(),
                        rf,
                        span: Some(key.span()),
                    });
                }
            }
            // Cassandra 4.0+ expands `replication_factor` to every datacenter not named.
            if let Some((rf, at)) = every_dc {
                for node in nodes {
                    if !datacenters.iter().any(|d| d.dc == node.dc) {
                        datacenters.push(DcReplication {
                            dc: node.dc.clone(),
                            rf,
                            span: Some(at.clone()),
                        });
                    }
                }
            }
            if datacenters.is_empty() {
                return Err(invalid(
                    "NetworkTopologyStrategy needs at least one datacenter: `dc1 = 3`",
                    span,
                ));
            }
            Ok(Replication::NetworkTopology { datacenters })
        }
        other => Err(invalid(
            format!(
                "unknown replication class '{other}': use SimpleStrategy or NetworkTopologyStrategy"
            ),
            class.span(),
        )),
    }
}

fn replication_factor(value: &Spanned<Value>) -> Result<u32, TopologyError> {
    let bad = |text: String| {
        invalid(
            format!("replication factor must be a whole number of replicas, not {text}"),
            value.span(),
        )
    };
    match value.get_ref() {
        Value::Integer(n) => u32::try_from(*n).map_err(|_| bad(n.to_string())),
        Value::String(s) if s.contains('/') => Err(invalid(
            format!("transient replication ('{s}') is not modelled"),
            value.span(),
        )),
        Value::String(s) => s.trim().parse::<u32>().map_err(|_| bad(format!("'{s}'"))),
        other => Err(bad(format!("a {}", other.type_str()))),
    }
}

/// NetworkTopologyStrategy with [`DEFAULT_DC_RF`] in every datacenter, capped at its
/// node count.
fn default_replication(nodes: &[NodeSpec]) -> Replication {
    let mut datacenters: Vec<DcReplication> = Vec::new();
    for node in nodes {
        match datacenters.iter_mut().find(|d| d.dc == node.dc) {
            Some(d) => d.rf = (d.rf + 1).min(DEFAULT_DC_RF),
            None => datacenters.push(DcReplication {
                dc: node.dc.clone(),
                rf: 1,
                span: None,
            }),
        }
    }
    Replication::NetworkTopology { datacenters }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_at(text: &str) -> (usize, usize, String) {
        let err = parse_topology(text)
            .and_then(|t| t.validate().map(|()| t))
            .expect_err("this input is refused");
        let located = locate("t.toml", text, &err);
        (
            located.line.unwrap_or(0),
            located.column.unwrap_or(0),
            located.message,
        )
    }

    #[test]
    fn full_example_parses() {
        let text = r#"
num_tokens = 8
allocation = "random"
seed = 5
replication = { class = "NetworkTopologyStrategy", dc1 = 3, dc2 = "2" }

[datacenter.dc1]
rack.r1 = ["a1", "a2"]
rack.r2 = ["b1", { name = "b2", tokens = [0, "100"] }]
rack.r3 = [{ name = "c1", num_tokens = 4 }]

[datacenter.dc2]
nodes = 4
racks = 2
"#;
        let t = parse_topology(text).expect("the topology parses");
        assert_eq!(t.validate(), Ok(()));
        assert_eq!(t.seed, 5);
        assert_eq!(t.allocation, Allocation::Random);
        let names: Vec<&str> = t.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "a1", "a2", "b1", "b2", "c1", "dc2-n1", "dc2-n2", "dc2-n3", "dc2-n4"
            ]
        );
        assert_eq!(t.nodes[3].tokens, Some(vec![Token(0), Token(100)]));
        assert_eq!(t.nodes[4].num_tokens, 4);
        assert_eq!(t.nodes[0].num_tokens, 8);
        let racks: Vec<&str> = t.nodes[5..].iter().map(|n| n.rack.as_str()).collect();
        assert_eq!(racks, ["rack1", "rack2", "rack1", "rack2"]);
        assert_eq!(t.replication.rf_for("dc2"), 2);
    }

    #[test]
    fn defaults() {
        let t = parse_topology("[datacenter.east]\nnodes = 2\n[datacenter.west]\nnodes = 5\n")
            .expect("the topology parses");
        assert_eq!(t.allocation, Allocation::Balanced);
        assert_eq!(t.seed, 0);
        assert!(t.nodes.iter().all(|n| n.num_tokens == DEFAULT_NUM_TOKENS));
        assert_eq!(t.replication.rf_for("east"), 2);
        assert_eq!(t.replication.rf_for("west"), 3);
    }

    #[test]
    fn replication_factor_option_expands_to_every_dc() {
        let t = parse_topology(
            "replication = { class = 'NetworkTopologyStrategy', replication_factor = 2, b = 1 }\n\
             [datacenter.a]\nnodes = 3\n[datacenter.b]\nnodes = 3\n",
        )
        .expect("the topology parses");
        assert_eq!(t.replication.rf_for("a"), 2);
        assert_eq!(t.replication.rf_for("b"), 1);
    }

    #[test]
    fn rf_above_nodes_points_at_the_entry() {
        let text = "replication = { class = \"NetworkTopologyStrategy\", dc1 = 3 }\n\n[datacenter.dc1]\nnodes = 2\n";
        let (line, col, message) = error_at(text);
        assert_eq!((line, col), (1, 52), "{message}");
        assert!(
            message.contains("replication factor 3 in datacenter 'dc1' is more than its 2 nodes")
        );
    }

    #[test]
    fn unknown_dc_and_duplicate_names_are_located() {
        let text = "replication = { class = \"NetworkTopologyStrategy\", dc9 = 1 }\n[datacenter.dc1]\nnodes = 1\n";
        let (line, _, message) = error_at(text);
        assert_eq!(line, 1);
        assert!(message.contains("datacenter 'dc9'"), "{message}");

        let text = "[datacenter.dc1]\nrack.r1 = [\"x\"]\nrack.r2 = [\n  \"y\",\n  \"x\",\n]\n";
        let (line, col, message) = error_at(text);
        assert_eq!((line, col), (5, 3));
        assert!(message.contains("'x' is declared twice"), "{message}");
    }

    #[test]
    fn syntax_and_schema_errors_are_located() {
        let (line, _, message) = error_at("num_tokens = 16\nseed = = 3\n");
        assert_eq!(line, 2, "{message}");
        let (line, col, message) = error_at("num_tokens = 16\n\n  vnodes = 3\n");
        assert_eq!((line, col), (3, 3), "{message}");
        assert!(message.contains("vnodes"), "{message}");
        let (line, _, message) = error_at("num_tokens = 0\n[datacenter.a]\nnodes = 1\n");
        assert_eq!(line, 1);
        assert!(message.contains("positive"), "{message}");
        let (line, _, message) = error_at("allocation = \"even\"\n[datacenter.a]\nnodes = 1\n");
        assert_eq!(line, 1);
        assert!(
            message.contains("\"random\", \"balanced\" or \"allocator\""),
            "{message}"
        );
    }

    #[test]
    fn bad_replication_values() {
        let dc = "\n[datacenter.a]\nnodes = 3\n";
        let cases = [
            (
                "replication = { class = 'SimpleStrategy' }",
                "needs `replication_factor`",
            ),
            (
                "replication = { class = 'Everywhere', a = 1 }",
                "unknown replication class",
            ),
            (
                "replication = { class = 'NetworkTopologyStrategy', a = -1 }",
                "whole number",
            ),
            (
                "replication = { class = 'NetworkTopologyStrategy', a = '3/1' }",
                "transient",
            ),
            ("replication = { a = 1 }", "needs a `class`"),
            (
                "replication = { class = 'NetworkTopologyStrategy', a = 0 }",
                "places no replica",
            ),
        ];
        for (line, expected) in cases {
            let (_, _, message) = error_at(&format!("{line}{dc}"));
            assert!(message.contains(expected), "{line}: {message}");
        }
    }

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("ab\ncé d", 7), (2, 4));
        assert_eq!(line_column("x", 99), (1, 2));
    }
}
