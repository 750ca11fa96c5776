//! What the node-backed comparison tests share: a checked statement, the agreement count,
//! and the list of known disagreements (`known-disagreements.toml`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use cqlmodel_livetest::Agreement;
use serde::Deserialize;

#[derive(Deserialize)]
struct Known {
    disagreement: Vec<KnownDisagreement>,
}

#[derive(Deserialize)]
struct KnownDisagreement {
    id: String,
    kind: String,
    why: String,
}

/// One statement checked: its case id, text, and how the verdicts compare.
pub struct Checked {
    pub id: String,
    pub cql: String,
    pub agreement: Agreement,
    /// A difference besides the verdict: client warnings, or the error class.
    pub extra: Option<String>,
}

impl Checked {
    pub fn agrees(&self) -> bool {
        self.agreement.agrees() && self.extra.is_none()
    }
}

pub fn repo_file(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn report(label: &str, checked: &[Checked]) -> usize {
    let agreed = checked.iter().filter(|c| c.agrees()).count();
    println!(
        "explain agreement, {label}: {agreed} of {} statements",
        checked.len()
    );
    agreed
}

/// Fails on a disagreement not listed in known-disagreements.toml, and on a listed one
/// that now agrees.
pub fn assert_only_known(checked: &[Checked]) {
    let known: Known = toml::from_str(&repo_file("crates/livetest/known-disagreements.toml"))
        .expect("known-disagreements.toml");
    let known: BTreeMap<&str, &str> = known
        .disagreement
        .iter()
        .inspect(|k| assert!(matches!(k.kind.as_str(), "bug" | "exception"), "{}", k.id))
        .map(|k| (k.id.as_str(), k.why.as_str()))
        .collect();
    let mut unexplained = Vec::new();
    let mut seen = BTreeSet::new();
    for c in checked.iter().filter(|c| !c.agrees()) {
        let mut line = format!("{} {}\n    {}", c.id, c.cql, c.agreement.describe());
        if let Some(extra) = &c.extra {
            line.push_str(&format!("\n    {extra}"));
        }
        match known.get(c.id.as_str()) {
            Some(why) => {
                seen.insert(c.id.as_str());
                println!("  known: {line}\n    why: {why}");
            }
            None => unexplained.push(line),
        }
    }
    let ids: BTreeSet<&str> = checked.iter().map(|c| c.id.as_str()).collect();
    let stale: Vec<&&str> = known
        .keys()
        .filter(|id| ids.contains(*id) && !seen.contains(*id))
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} disagreements not in known-disagreements.toml:\n{}\nlisted but now agreeing: {stale:?}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
