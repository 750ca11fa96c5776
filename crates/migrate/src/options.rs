//! Table options compared by meaning: each written value reduced to a canonical
//! string (map keys sorted, class names without their package, numbers parsed),
//! and an option equal to Cassandra 5.0's default counted as absent, so that
//! `gc_grace_seconds = 864000` written on one side and omitted on the other is
//! no change.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{Literal, Term, TermKind};
use cqlmodel_schema::Table;

/// Cassandra 5.0's defaults (`TableParams`), as a canonical value and as the
/// CQL literal that resets an option NEW no longer sets.
const DEFAULTS: &[(&str, &str, &str)] = &[
    ("gc_grace_seconds", "864000", "864000"),
    ("default_time_to_live", "0", "0"),
    ("comment", "", "''"),
    ("bloom_filter_fp_chance", "0.01", "0.01"),
    ("crc_check_chance", "1", "1.0"),
    ("memtable_flush_period_in_ms", "0", "0"),
    ("min_index_interval", "128", "128"),
    ("max_index_interval", "2048", "2048"),
    ("speculative_retry", "99p", "'99p'"),
    ("additional_write_policy", "99p", "'99p'"),
    ("read_repair", "BLOCKING", "'BLOCKING'"),
    ("cdc", "false", "false"),
    (
        "caching",
        "keys=ALL,rows_per_partition=NONE",
        "{'keys': 'ALL', 'rows_per_partition': 'NONE'}",
    ),
    (
        "compaction",
        "class=SizeTieredCompactionStrategy",
        "{'class': 'SizeTieredCompactionStrategy'}",
    ),
    (
        "compression",
        "chunk_length_in_kb=16,class=LZ4Compressor",
        "{'chunk_length_in_kb': '16', 'class': 'LZ4Compressor'}",
    ),
];

/// The CQL literal that sets `option` back to Cassandra's default, when known.
pub fn default_literal(option: &str) -> Option<&'static str> {
    DEFAULTS
        .iter()
        .find(|(n, _, _)| *n == option)
        .map(|(_, _, lit)| *lit)
}

/// The options of a table by meaning: name → canonical value, defaults left out.
pub fn canonical(table: &Table) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, value) in &table.options.raw {
        let name = name.to_ascii_lowercase();
        if name == "id" {
            continue;
        }
        let value = canonical_term(value, &name);
        let is_default = DEFAULTS
            .iter()
            .any(|(n, canon, _)| *n == name && *canon == value);
        if !is_default {
            out.insert(name, value);
        }
    }
    out
}

/// The written value of an option, as NEW has it.
pub fn written(table: &Table, option: &str) -> Option<String> {
    table
        .options
        .raw
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(option))
        .map(|(_, v)| v.to_string())
}

fn canonical_term(term: &Term, key: &str) -> String {
    match &term.kind {
        TermKind::Literal(lit) => canonical_literal(lit, key),
        TermKind::Map(entries) => {
            let mut pairs: Vec<String> = entries
                .iter()
                .map(|(k, v)| {
                    let k = canonical_term(k, "").to_ascii_lowercase();
                    let v = canonical_term(v, &k);
                    format!("{k}={v}")
                })
                .collect();
            pairs.sort();
            pairs.join(",")
        }
        _ => term.to_string(),
    }
}

fn canonical_literal(lit: &Literal, key: &str) -> String {
    let number = |s: &str| {
        s.parse::<f64>()
            .map_or_else(|_| s.to_string(), |f| format!("{f}"))
    };
    match lit {
        Literal::String(s) if key == "class" => s.rsplit('.').next().unwrap_or(s).to_string(),
        Literal::String(s) => {
            // Numbers written as strings inside maps ('16') and outside (16) compare equal.
            if s.parse::<f64>().is_ok() {
                number(s)
            } else {
                s.clone()
            }
        }
        Literal::Integer(s) | Literal::Float(s) => number(s),
        Literal::Boolean(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

/// The options that differ: `(name, old canonical, new canonical)`.
pub fn differences(old: &Table, new: &Table) -> Vec<(String, Option<String>, Option<String>)> {
    let (a, b) = (canonical(old), canonical(new));
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| a.get(*n) != b.get(*n))
        .map(|n| (n.clone(), a.get(n).cloned(), b.get(n).cloned()))
        .collect()
}
