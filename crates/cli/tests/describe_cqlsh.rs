//! Real `cqlsh` output (tests/data/describe/5.0-cqlsh/, captured from a Cassandra 5.0.9
//! node by scripts/capture-describe.sh): `review` and `explain` read the keyspace's
//! DESCRIBE without an input error (exit 0 or 1, never 2), and every object the
//! node printed is in the schema they built.

use std::path::PathBuf;
use std::process::Command;

use insta_cmd::get_cargo_bin;

fn data(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/describe/5.0-cqlsh"
    ))
    .join(name)
}

fn run(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = Command::new(get_cargo_bin("cqlmodel"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn review_reads_the_captured_describe_keyspace() {
    let file = data("describe-keyspace-lending.cql");
    let (code, stdout, stderr) = run(&[
        "review".as_ref(),
        file.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {stderr}{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let findings = json["findings"].as_array().expect("findings");
    // The node's tables are all there: findings name only tables it printed.
    let printed = [
        "lending.members",
        "lending.loans_by_member",
        "lending.loans_by_book",
        "lending.book_counters",
    ];
    for f in findings {
        if let Some(t) = f["table"].as_str() {
            assert!(printed.contains(&t), "{t} is not in the capture");
        }
    }
}

#[test]
fn explain_reads_the_captured_describe_keyspace() {
    let file = data("describe-keyspace-lending.cql");
    let dir = std::env::temp_dir().join(format!("cqlmodel-describe-cqlsh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let queries = dir.join("queries.cql");
    std::fs::write(
        &queries,
        "SELECT * FROM lending.members WHERE member_id = ?;\n\
         SELECT * FROM lending.loans_by_member WHERE member_id = ? AND loaned_at > ?;\n\
         SELECT * FROM lending.loans_by_book WHERE book_id = ?;\n\
         SELECT * FROM lending.members WHERE email = ?;\n\
         SELECT * FROM lending.members ORDER BY taste ANN OF [0.1, 0.2, 0.3, 0.4] LIMIT 5;\n\
         UPDATE lending.book_counters SET times_loaned = times_loaned + 1 WHERE book_id = ?;\n",
    )
    .expect("queries");
    let (code, stdout, stderr) = run(&[
        "explain".as_ref(),
        file.as_os_str(),
        "--queries".as_ref(),
        queries.as_os_str(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {stderr}{stdout}"
    );
    assert!(!stdout.contains("error["), "{stdout}");
}

#[test]
fn review_sets_aside_the_system_keyspaces_of_describe_full_schema() {
    let file = data("describe-full-schema.cql");
    let (code, stdout, stderr) = run(&[
        "review".as_ref(),
        file.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {stderr}{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let all: Vec<&serde_json::Value> = ["findings", "input"]
        .iter()
        .filter_map(|k| json[*k].as_array())
        .flatten()
        .collect();
    let text = |v: &serde_json::Value| v.to_string();
    assert!(
        all.iter()
            .any(|d| text(d).contains("system-keyspaces") && text(d).contains("system_auth")),
        "no system-keyspaces info: {stdout}"
    );
    for d in &all {
        if let Some(t) = d["table"].as_str() {
            assert!(!t.starts_with("system"), "a system table is reviewed: {t}");
        }
        assert_ne!(d["severity"].as_str(), Some("error"), "{d}");
    }
}

#[test]
fn explain_reads_describe_full_schema() {
    let file = data("describe-full-schema.cql");
    let (code, stdout, stderr) = run(&[
        "explain".as_ref(),
        file.as_os_str(),
        "--query".as_ref(),
        "SELECT * FROM lending.members WHERE member_id = ?".as_ref(),
    ]);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {stderr}{stdout}"
    );
}

#[test]
fn a_raw_capture_with_cqlshs_version_warning_reads() {
    // `cqlsh -e "DESCRIBE KEYSPACE lending" > file` keeps the warning cqlsh prints
    // on stdout before the output; the fixture holds it as a comment, so put it back.
    let captured = std::fs::read_to_string(data("describe-keyspace-lending.cql")).expect("fixture");
    let raw = format!(
        "WARNING: cqlsh was built against 5.0.0, but this server is 5.0.9.  All features may not work!\n{captured}"
    );
    let dir = std::env::temp_dir().join(format!("cqlmodel-raw-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("describe.cql");
    std::fs::write(&file, raw).expect("write");
    let (code, stdout, stderr) = run(&["review".as_ref(), file.as_os_str()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {stderr}{stdout}"
    );
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("info[cqlsh-output]"), "{all}");
    assert!(!all.contains("error["), "{all}");
}
