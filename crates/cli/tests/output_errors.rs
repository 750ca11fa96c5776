//! Every command and format, writing to a closed pipe and to a full disk: a
//! closed pipe ends the program quietly with exit 0 (as ripgrep does), a full
//! disk is an error message and exit 2. Never a panic.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use insta_cmd::get_cargo_bin;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each command with each of its formats, run from the workspace root.
fn cases(out_dir: &Path) -> Vec<Vec<String>> {
    let out = out_dir.to_string_lossy().to_string();
    let mut cases = Vec::new();
    let base: Vec<Vec<&str>> = vec![
        vec![
            "explain",
            "examples/iot.cql",
            "--queries",
            "examples/iot-queries.cql",
        ],
        vec![
            "review",
            "examples/iot.cql",
            "--queries",
            "examples/iot-queries.cql",
        ],
        vec![
            "size",
            "examples/iot.cql",
            "--stats",
            "examples/iot-stats.toml",
        ],
        vec!["ring", "--nodes", "200", "--vnodes", "16"],
        vec!["rules"],
        vec!["rules", "allow-filtering"],
        vec!["token", "--type", "int", "42"],
        vec![
            "design",
            "examples/design/iot/model.sql",
            "--out",
            &out,
            "--force",
        ],
        // An input error goes to stdout in JSON.
        vec!["explain", "examples/iot.cql", "--query", "SELEC"],
    ];
    for args in base {
        for format in ["text", "json"] {
            let mut case: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            case.extend(["--format".to_string(), format.to_string()]);
            cases.push(case);
        }
    }
    let mut sarif: Vec<String> = ["review", "examples/iot.cql", "--format", "sarif"]
        .map(String::from)
        .to_vec();
    cases.push(std::mem::take(&mut sarif));
    cases
}

fn run(args: &[String], stdout: Stdio) -> (Option<i32>, String) {
    let out = Command::new(get_cargo_bin("cqlmodel"))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
    drop(reader);
    Stdio::from(writer)
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for args in cases(&tmp.path().join("out")) {
        let (code, stderr) = run(&args, closed_pipe());
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_disk_is_an_error_with_exit_2() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for args in cases(&tmp.path().join("out")) {
        let full = File::options()
            .write(true)
            .open("/dev/full")
            .unwrap_or_else(|e| panic!("{e}"));
        let (code, stderr) = run(&args, Stdio::from(full));
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn the_hex_stream_stops_at_a_closed_pipe() {
    let mut child = Command::new(get_cargo_bin("cqlmodel"))
        .args(["token", "--hex", "-"])
        .stdin(Stdio::piped())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        // Enough lines to fill the stream's buffer; the write may fail once
        // the program has stopped, which is what is tested.
        let _ = stdin.write_all("00ff\n".repeat(300_000).as_bytes());
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
