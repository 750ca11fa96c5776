//! Tokens: `SELECT token(k0, ...)` on the node equals cqlmodel-ring's token for generated
//! keys of every partition-key type: each native key type, frozen lists / sets / maps,
//! tuples (some written shorter than their type), UDTs, vectors, nested two levels, and
//! composite keys of 2-4 components. The keys and values come from the seeded generator the
//! ring crate's driver differential test uses (shared by path, not copied).
//!
//! Each value is written as CQL text; cqlmodel parses that same text with its own parser,
//! serializes and hashes it, and the node stores it. A literal both refuse (an empty key,
//! `{}` written for a UDT) is an agreement; one refused by only one side is a failure.
//!
//! The node's token is read by scanning the table (`SELECT token(..), v`), not by a `WHERE`
//! on the literal: Cassandra 5.0 turns a map or set literal with duplicate keys (`{1: 'a',
//! 1: 'b'}`, or decimals equal at another scale) into a different value in a `WHERE`
//! restriction than in an `INSERT`, so the lookup misses the row it just wrote. cqlmodel
//! follows the `INSERT` (what is stored decides where the partition lives).

#[allow(dead_code)]
#[path = "../../ring/tests/generate/mod.rs"]
mod generate;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use cqlmodel_cql::ast::{Term, TermKind};
use cqlmodel_livetest::{Node, Verdict};
use cqlmodel_ring::{partition_key_bytes, serialize_term, token_of_key};
use cqlmodel_schema::types::{CqlType, UdtDef};
use generate::{Rng, gen_key_type, gen_value};

const KEYSPACE: &str = "cqlmodel_tokens";
const VALUES_PER_TABLE: usize = 12;

/// Gives every UDT in `ty` a fresh name (the generator reuses names with other fields) and
/// returns the CREATE TYPE statements for them, innermost first.
fn name_udts(ty: &CqlType, counter: &mut usize, creates: &mut Vec<String>) -> CqlType {
    match ty {
        CqlType::Native(_) | CqlType::Custom(_) => ty.clone(),
        CqlType::List { element, frozen } => CqlType::List {
            element: Box::new(name_udts(element, counter, creates)),
            frozen: *frozen,
        },
        CqlType::Set { element, frozen } => CqlType::Set {
            element: Box::new(name_udts(element, counter, creates)),
            frozen: *frozen,
        },
        CqlType::Map { key, value, frozen } => CqlType::Map {
            key: Box::new(name_udts(key, counter, creates)),
            value: Box::new(name_udts(value, counter, creates)),
            frozen: *frozen,
        },
        CqlType::Tuple(items) => CqlType::Tuple(
            items
                .iter()
                .map(|t| name_udts(t, counter, creates))
                .collect(),
        ),
        CqlType::Vector { element, dimension } => CqlType::Vector {
            element: Box::new(name_udts(element, counter, creates)),
            dimension: *dimension,
        },
        CqlType::Udt { def, frozen } => {
            let fields: Vec<(String, CqlType)> = def
                .fields
                .iter()
                .map(|(n, t)| (n.clone(), name_udts(t, counter, creates)))
                .collect();
            *counter += 1;
            let name = format!("u{counter}");
            let columns: Vec<String> = fields.iter().map(|(n, t)| format!("{n} {t}")).collect();
            creates.push(format!(
                "CREATE TYPE {KEYSPACE}.{name} ({})",
                columns.join(", ")
            ));
            CqlType::Udt {
                def: Arc::new(UdtDef {
                    keyspace: KEYSPACE.into(),
                    name,
                    fields,
                }),
                frozen: *frozen,
            }
        }
    }
}

/// The key types to test: every native key type alone, then generated types (nested and
/// composite) until `tables` distinct keys.
fn key_types(rng: &mut Rng, tables: usize) -> Vec<Vec<CqlType>> {
    let mut seen = BTreeSet::new();
    let mut keys = Vec::new();
    while keys.len() < tables {
        let components = if keys.len() < tables * 3 / 4 {
            1
        } else {
            2 + rng.below(3) as usize
        };
        let key: Vec<CqlType> = (0..components).map(|_| gen_key_type(rng, 0)).collect();
        let shown: Vec<String> = key.iter().map(ToString::to_string).collect();
        if seen.insert(shown.join(",")) {
            keys.push(key);
        }
    }
    keys
}

struct Tally {
    agreed: usize,
    overwritten: usize,
    duplicate_choice: Vec<String>,
    both_refused: Vec<String>,
    tables_refused: Vec<String>,
    failures: Vec<String>,
}

async fn check_table(node: &Node, index: usize, key: &[CqlType], rng: &mut Rng, tally: &mut Tally) {
    let table = format!("{KEYSPACE}.t{index}");
    let columns: Vec<String> = key
        .iter()
        .enumerate()
        .map(|(i, t)| format!("k{i} {t}"))
        .collect();
    let names = (0..key.len())
        .map(|i| format!("k{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let create = format!(
        "CREATE TABLE {table} ({}, v int, PRIMARY KEY (({names})))",
        columns.join(", ")
    );
    if let Verdict::Rejected(r) = node.run(&create).await.expect("node answers") {
        tally.tables_refused.push(format!("{create}\n    {r}"));
        return;
    }
    // Row v = i holds value i; our token of the literal is compared with the token the node
    // stored for row i (a scan, not a WHERE on the literal: see the module docs).
    let mut expected: BTreeMap<i32, (i64, String, bool)> = BTreeMap::new();
    for i in 0..VALUES_PER_TABLE as i32 {
        let literals: Vec<String> = key
            .iter()
            .map(|t| gen_value(rng, t, true).0.to_string())
            .collect();
        let ours = our_token(key, &literals);
        let duplicates = has_duplicates(key, &literals);
        let insert = format!(
            "INSERT INTO {table} ({names}, v) VALUES ({}, {i})",
            literals.join(", ")
        );
        let verdict = node.run(&insert).await.expect("node answers");
        match (verdict, ours) {
            (Verdict::Accepted { .. }, Ok(token)) => {
                expected.insert(i, (token, insert, duplicates));
            }
            (Verdict::Rejected(r), Err(ours)) => {
                tally
                    .both_refused
                    .push(format!("{insert}\n    node: {r}\n    cqlmodel: {ours}"));
            }
            (Verdict::Accepted { .. }, Err(ours)) => tally.failures.push(format!(
                "{insert}\n    node accepts, cqlmodel refuses: {ours}"
            )),
            (Verdict::Rejected(r), Ok(_)) => tally
                .failures
                .push(format!("{insert}\n    node refuses: {r}")),
        }
    }
    let scan = format!("SELECT token({names}), v FROM {table}");
    let stored = stored_tokens(node, &scan).await;
    for (v, (ours, insert, duplicates)) in expected {
        match stored.get(&v) {
            Some(theirs) if *theirs == ours => tally.agreed += 1,
            Some(theirs) if duplicates => tally
                .duplicate_choice
                .push(format!("{insert}\n    node {theirs}, cqlmodel {ours}")),
            Some(theirs) => tally
                .failures
                .push(format!("{insert}\n    node {theirs}, cqlmodel {ours}")),
            // A later value with the same key overwrote this row; its own check covers it.
            None => tally.overwritten += 1,
        }
    }
}

/// Our token for the key written as `literals`: parsed by cqlmodel's parser from the same
/// text the node receives, then serialized and hashed.
fn our_token(key: &[CqlType], literals: &[String]) -> Result<i64, String> {
    let mut parts = Vec::with_capacity(key.len());
    for (ty, literal) in key.iter().zip(literals) {
        let term = cqlmodel_cql::parse_term(literal).map_err(|e| format!("parse: {e}"))?;
        parts.push(serialize_term(ty, &term).map_err(|e| e.to_string())?);
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let bytes = partition_key_bytes(&refs);
    if bytes.is_empty() {
        // Cassandra refuses to store an empty key (and cqlmodel's token of it is the
        // minimum token, which no row can have).
        return Err("empty partition key".into());
    }
    Ok(token_of_key(&bytes).0)
}

/// Whether a set or map literal anywhere in the key repeats an element (or key) that the
/// type's comparator deems equal: its serialized element count is below its item count.
fn has_duplicates(key: &[CqlType], literals: &[String]) -> bool {
    key.iter().zip(literals).any(|(ty, literal)| {
        cqlmodel_cql::parse_term(literal).is_ok_and(|term| term_has_duplicates(ty, &term))
    })
}

fn term_has_duplicates(ty: &CqlType, term: &Term) -> bool {
    let count = |items: usize| {
        serialize_term(ty, term).is_ok_and(|bytes| {
            bytes
                .get(..4)
                .is_some_and(|n| i32::from_be_bytes([n[0], n[1], n[2], n[3]]) < items as i32)
        })
    };
    match (ty, &term.kind) {
        (CqlType::Set { element, .. }, TermKind::Set(items)) => {
            count(items.len()) || items.iter().any(|t| term_has_duplicates(element, t))
        }
        (CqlType::Map { key, value, .. }, TermKind::Map(entries)) => {
            count(entries.len())
                || entries
                    .iter()
                    .any(|(k, v)| term_has_duplicates(key, k) || term_has_duplicates(value, v))
        }
        (
            CqlType::List { element, .. } | CqlType::Vector { element, .. },
            TermKind::List(items),
        ) => items.iter().any(|t| term_has_duplicates(element, t)),
        (CqlType::Tuple(types), TermKind::Tuple(items)) => types
            .iter()
            .zip(items)
            .any(|(t, item)| term_has_duplicates(t, item)),
        (CqlType::Udt { def, .. }, TermKind::Udt(fields)) => fields.iter().any(|(name, item)| {
            def.fields
                .iter()
                .find(|(n, _)| *n == name.value)
                .is_some_and(|(_, t)| term_has_duplicates(t, item))
        }),
        _ => false,
    }
}

async fn stored_tokens(node: &Node, scan: &str) -> BTreeMap<i32, i64> {
    let result = node
        .session()
        .query_unpaged(scan, ())
        .await
        .unwrap_or_else(|e| panic!("{scan}: {e}"));
    let rows = result.into_rows_result().expect("rows");
    rows.rows::<(i64, i32)>()
        .expect("token, v")
        .map(|row| {
            let (token, v) = row.expect("row");
            (v, token)
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh, or CQLMODEL_TEST_CONTACT=host:port cargo test -p cqlmodel-livetest -- --ignored"]
async fn tokens_match_the_node_for_every_key_type() {
    let node = Node::from_env().await.expect("a node to test against");
    node.fresh_keyspace(KEYSPACE).await.expect("test keyspace");
    let mut rng = Rng::new(0x70ce_0001);
    let mut counter = 0;
    let mut tally = Tally {
        agreed: 0,
        overwritten: 0,
        duplicate_choice: Vec::new(),
        both_refused: Vec::new(),
        tables_refused: Vec::new(),
        failures: Vec::new(),
    };
    for (index, key) in key_types(&mut rng, 72).into_iter().enumerate() {
        let mut creates = Vec::new();
        let key: Vec<CqlType> = key
            .iter()
            .map(|t| name_udts(t, &mut counter, &mut creates))
            .collect();
        for create in &creates {
            node.must_run(create).await.expect("CREATE TYPE");
        }
        check_table(&node, index, &key, &mut rng, &mut tally).await;
    }
    println!(
        "tokens: {} keys agree with {} ({} overwritten by an equal key, {} refused by both), {} differ, \
         {} differ only in which of two equal collection elements survives, {} key types refused by the node",
        tally.agreed,
        node.contact(),
        tally.overwritten,
        tally.both_refused.len(),
        tally.failures.len(),
        tally.duplicate_choice.len(),
        tally.tables_refused.len()
    );
    for differs in &tally.duplicate_choice {
        println!("  duplicate elements: {differs}");
    }
    for refused in &tally.both_refused {
        println!("  refused by both: {refused}");
    }
    for refused in &tally.tables_refused {
        println!("  key type refused: {refused}");
    }
    assert!(tally.agreed > 500, "too few keys checked: {}", tally.agreed);
    assert!(
        tally.failures.is_empty(),
        "{} keys differ:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
}
