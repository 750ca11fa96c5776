//! Differential test against the Python `cassandra-driver`.
//!
//! A seeded generator makes thousands of partition keys: random byte strings (with many
//! bytes >= 0x80, where Cassandra's Murmur3 differs from the reference hash), typed values
//! of every native key type, frozen collections, tuples, UDTs, vectors, and composite keys
//! of 2-4 components. Each typed value is written both as a CQL term (serialized here by
//! `serialize_term`) and as a plain description that `tests/py/tokens.py` turns into a
//! Python value and serializes with the driver's own `cqltypes` serializers. The test
//! checks that the bytes agree and that our token equals the driver's
//! `Murmur3Token.hash_fn`.
//!
//! Known, deliberate differences from the driver, checked explicitly:
//! - the empty key: Cassandra's `Murmur3Partitioner.getToken` returns the minimum token
//!   (`i64::MIN`), the driver hashes it to 0;
//! - set elements and map keys: the driver writes them in the order given, Cassandra
//!   sorts them by the element comparator and drops duplicates. `tokens.py` sorts with its
//!   own sort keys before calling the driver.
//!
//! Python is `$CQLMODEL_PYTHON` or `<repo>/.venv/bin/python` (made by `scripts/py-venv.sh`).

mod generate;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use cqlmodel_ring::{partition_key_bytes, serialize_term, token_of_key};
use serde_json::{Value, json};

use generate::{Rng, gen_key_type, gen_value, hex, type_json};

fn python() -> PathBuf {
    let check = |python: &PathBuf| {
        Command::new(python)
            .args([
                "-c",
                "import cassandra; from cassandra.cmurmur3 import murmur3",
            ])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    let mut tried = Vec::new();
    if let Some(p) = std::env::var_os("CQLMODEL_PYTHON") {
        let p = PathBuf::from(p);
        if check(&p) {
            return p;
        }
        tried.push(p);
    }
    let manifest = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let venv = manifest.join("../../.venv/bin/python");
    if check(&venv) {
        return venv;
    }
    tried.push(venv);
    panic!(
        "no Python with cassandra-driver (and its murmur3 extension) found; tried {tried:?}. \
         Run scripts/py-venv.sh at the repository root, or set CQLMODEL_PYTHON."
    );
}

/// Sends one JSON line per case to tokens.py and returns its answers in order.
fn ask_driver(cases: &[Value]) -> Vec<Value> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/py/tokens.py");
    let mut child = Command::new(python())
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start tokens.py");
    let mut stdin = child.stdin.take().expect("stdin");
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().expect("stdout");
    let answers: Vec<Value> = BufReader::new(stdout)
        .lines()
        .map(|line| serde_json::from_str(&line.expect("read line")).expect("JSON answer"))
        .collect();
    writer.join().expect("writer thread").expect("write cases");
    assert!(child.wait().expect("wait").success(), "tokens.py failed");
    assert_eq!(answers.len(), cases.len(), "one answer per case");
    answers
}

fn driver_token(answer: &Value, case: &Value) -> i64 {
    if let Some(err) = answer.get("error") {
        panic!("driver could not handle {case}: {err}");
    }
    answer["token"].as_i64().expect("token")
}

/// Our token must equal the driver's, except for the empty key (see the module docs).
fn assert_same_token(key: &[u8], driver: i64, what: &dyn std::fmt::Display) {
    let ours = token_of_key(key).0;
    if key.is_empty() {
        assert_eq!(driver, 0, "driver hashes the empty key to 0 ({what})");
        assert_eq!(
            ours,
            i64::MIN,
            "Cassandra gives the empty key the minimum token"
        );
    } else {
        assert_eq!(ours, driver, "token of {what} (key {})", hex(key));
    }
}

#[test]
fn raw_byte_keys_hash_like_the_driver() {
    let mut rng = Rng::new(0x5eed_0001);
    let mut keys: Vec<Vec<u8>> = Vec::new();
    for len in 0..=64 {
        // Every length, with bytes drawn mostly from the high half.
        for _ in 0..40 {
            keys.push((0..len).map(|_| rng.byte_biased_high()).collect());
        }
    }
    // Tails made only of 0x80 / 0xff bytes, after 0, 1 and 2 full blocks.
    for blocks in 0..3 {
        for tail in 1..16 {
            for fill in [0x80u8, 0xff, 0x7f] {
                let mut key = vec![0x41u8; blocks * 16];
                key.extend(std::iter::repeat_n(fill, tail));
                keys.push(key);
            }
        }
    }
    let cases: Vec<Value> = keys.iter().map(|k| json!({ "raw": hex(k) })).collect();
    let answers = ask_driver(&cases);
    let mut high_tail_keys = 0;
    for ((key, case), answer) in keys.iter().zip(&cases).zip(&answers) {
        assert_same_token(
            key,
            driver_token(answer, case),
            &format!("raw key {}", hex(key)),
        );
        if key.len() % 16 != 0 && key.iter().rev().take(key.len() % 16).any(|&b| b >= 0x80) {
            high_tail_keys += 1;
        }
    }
    assert!(
        high_tail_keys > 1000,
        "the sign-extension path must be well covered"
    );
}

/// Serializes every part with our code, asks the driver for its serialization and token,
/// and compares both.
fn check_typed_cases(seed: u64, count: usize, parts_per_key: impl Fn(&mut Rng) -> usize) {
    let mut rng = Rng::new(seed);
    let mut ours: Vec<(Vec<Vec<u8>>, String)> = Vec::new();
    let mut cases = Vec::new();
    for _ in 0..count {
        let n = parts_per_key(&mut rng);
        let mut bytes = Vec::new();
        let mut described = Vec::new();
        let mut shown = Vec::new();
        for _ in 0..n {
            let ty = gen_key_type(&mut rng, 0);
            let (term, py) = gen_value(&mut rng, &ty, true);
            let serialized = serialize_term(&ty, &term)
                .unwrap_or_else(|e| panic!("serialize {term:?} as {ty}: {e}"));
            shown.push(format!("{ty} {}", generate::term_to_cql(&term)));
            bytes.push(serialized);
            described.push(json!({ "type": type_json(&ty), "value": py }));
        }
        cases.push(json!({ "parts": described }));
        ours.push((bytes, shown.join(", ")));
    }
    let answers = ask_driver(&cases);
    for (((parts, shown), case), answer) in ours.iter().zip(&cases).zip(&answers) {
        let token = driver_token(answer, case);
        let driver_parts: Vec<&str> = answer["parts"]
            .as_array()
            .expect("parts")
            .iter()
            .map(|p| p.as_str().expect("hex"))
            .collect();
        for (i, (ours, theirs)) in parts.iter().zip(&driver_parts).enumerate() {
            assert_eq!(hex(ours), *theirs, "part {i} of ({shown})");
        }
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let key = partition_key_bytes(&refs);
        assert_eq!(
            hex(&key),
            answer["key"].as_str().expect("key"),
            "key of ({shown})"
        );
        assert_same_token(&key, token, shown);
    }
}

#[test]
fn single_component_typed_keys_match_the_driver() {
    check_typed_cases(0x5eed_0002, 4000, |_| 1);
}

#[test]
fn composite_keys_match_the_driver() {
    check_typed_cases(0x5eed_0003, 1500, |rng| 2 + rng.below(3) as usize);
}
