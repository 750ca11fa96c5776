//! `--html FILE` and `--format html` run the command once: the page and stdout
//! come from one run. Each command reads one of its inputs from a pipe
//! (`/dev/stdin`, or `-` for diagnose), which can be read only once: a second
//! run would find it empty and fail, so an identical stdout proves one run.

mod html_support;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use html_support::{EXAMPLES, root};

/// Each example with the argument that is read from the pipe instead of its file.
const PIPED: &[(&str, &str, &str)] = &[
    ("design", "examples/design/social/queries.sql", "/dev/stdin"),
    ("review", "examples/shop/queries.cql", "/dev/stdin"),
    ("size", "examples/iot-stats.toml", "/dev/stdin"),
    ("ring", "examples/orders-stats.toml", "/dev/stdin"),
    (
        "diagnose",
        "tests/data/nodetool/cassandra-5.0-written/tablestats.txt",
        "-",
    ),
    (
        "migrate",
        "crates/migrate/tests/data/day_bucket/queries.cql",
        "/dev/stdin",
    ),
];

/// Runs cqlmodel with `args`, the piped file's bytes on stdin.
fn run_piped(args: &[String], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cqlmodel");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin).expect("write stdin");
    drop(pipe);
    child.wait_with_output().expect("wait")
}

/// The example's arguments with the piped file replaced and `{out}` set.
fn args_of(name: &str, out: &Path) -> (Vec<String>, Vec<u8>) {
    let example = EXAMPLES
        .iter()
        .find(|e| e.name == name)
        .expect("an example");
    let (_, file, pipe) = PIPED
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("a piped file");
    let bytes = std::fs::read(root().join(file)).expect("read the piped file");
    let args = example
        .args
        .iter()
        .map(|a| {
            if a == file {
                pipe.to_string()
            } else {
                a.replace("{out}", &out.to_string_lossy())
            }
        })
        .collect();
    (args, bytes)
}

#[test]
fn html_file_and_text_stdout_come_from_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, _, _) in PIPED {
        let (args, stdin) = args_of(name, &dir.path().join(format!("{name}-out")));
        let plain = run_piped(&args, &stdin);
        assert!(
            matches!(plain.status.code(), Some(0 | 1)),
            "{name}: {}",
            String::from_utf8_lossy(&plain.stderr)
        );
        let page = dir.path().join(format!("{name}.html"));
        let mut with_html = args.clone();
        with_html.extend(["--html".to_string(), page.to_string_lossy().into_owned()]);
        let once = run_piped(&with_html, &stdin);
        assert_eq!(
            String::from_utf8_lossy(&plain.stdout),
            String::from_utf8_lossy(&once.stdout),
            "{name}: stdout with --html is the plain run's (a second run would read an empty pipe)"
        );
        assert_eq!(plain.stderr, once.stderr, "{name}: stderr");
        assert_eq!(plain.status.code(), once.status.code(), "{name}: exit code");
        let html = std::fs::read_to_string(&page).expect("the page is written");
        assert!(html.starts_with("<!DOCTYPE html>"), "{name}");
    }
}

#[test]
fn html_file_and_json_stdout_come_from_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, _, _) in PIPED {
        let (mut args, stdin) = args_of(name, &dir.path().join(format!("{name}-out")));
        args.extend(["--format".to_string(), "json".to_string()]);
        let plain = run_piped(&args, &stdin);
        let page = dir.path().join(format!("{name}.html"));
        args.extend(["--html".to_string(), page.to_string_lossy().into_owned()]);
        let once = run_piped(&args, &stdin);
        assert_eq!(
            String::from_utf8_lossy(&plain.stdout),
            String::from_utf8_lossy(&once.stdout),
            "{name}"
        );
        assert!(page.is_file(), "{name}: the page is written");
    }
}

#[test]
fn format_html_writes_the_page_to_stdout() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, _, _) in PIPED {
        let (mut args, stdin) = args_of(name, &dir.path().join(format!("{name}-out")));
        let page = dir.path().join(format!("{name}.html"));
        let plain = run_piped(&args, &stdin);
        args.extend(["--html".to_string(), page.to_string_lossy().into_owned()]);
        args.extend(["--format".to_string(), "html".to_string()]);
        let out = run_piped(&args, &stdin);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with("<!DOCTYPE html>"),
            "{name}: {stdout:.200}"
        );
        assert!(stdout.trim_end().ends_with("</html>"), "{name}");
        let file = std::fs::read_to_string(&page).expect("--html FILE still works");
        assert_eq!(stdout, file, "{name}: one page, to both");
        assert_eq!(out.status.code(), plain.status.code(), "{name}: exit code");
        assert_eq!(out.stderr, plain.stderr, "{name}: stderr is the text run's");
    }
}

#[test]
fn format_html_with_an_input_error_prints_no_page() {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(["size", "examples/iot.cql", "--stats", "examples/nope.toml"])
        .args(["--format", "html"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no half page on stdout");
    assert!(String::from_utf8_lossy(&out.stderr).contains("examples/nope.toml"));
}

#[test]
fn format_html_is_refused_where_there_is_no_page() {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(["token", "a", "--format", "html"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format html is for design"));
}

#[test]
fn html_file_and_sarif_stdout_come_from_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["review", "diagnose"] {
        let (mut args, stdin) = args_of(name, &dir.path().join(format!("{name}-out")));
        args.extend(["--format".to_string(), "sarif".to_string()]);
        let plain = run_piped(&args, &stdin);
        assert!(
            String::from_utf8_lossy(&plain.stdout).contains("\"runs\""),
            "{name}: SARIF"
        );
        let page = dir.path().join(format!("{name}.html"));
        args.extend(["--html".to_string(), page.to_string_lossy().into_owned()]);
        let once = run_piped(&args, &stdin);
        assert_eq!(
            String::from_utf8_lossy(&plain.stdout),
            String::from_utf8_lossy(&once.stdout),
            "{name}"
        );
        let html = std::fs::read_to_string(&page).expect("the page is written");
        assert!(html.contains("Findings by table"), "{name}");
    }
}
