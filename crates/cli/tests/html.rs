//! `--html FILE`: the page of each command on the repository's examples, as an
//! outline of its structure (sections, blocks, headings, figures, tables: not
//! pixels), and the file handling (never over an input, atomic, errors name the path).

mod html_support;

use std::process::Command;

use html_support::{EXAMPLES, root, write_page};

/// The page's structure: one line per structural element, indented by
/// nesting, with its id or class and, for headings and summaries, its text.
/// Inside an `<svg>` only the svg itself is listed.
fn outline(html: &str) -> String {
    const SHOWN: &[&str] = &[
        "section", "h1", "h2", "h3", "details", "summary", "figure", "svg", "table", "pre", "nav",
        "ol", "dl", "main",
    ];
    const VOID: &[&str] = &["meta", "br", "input", "link", "img", "hr", "wbr"];
    const TEXT_OF: &[&str] = &["h1", "h2", "h3", "summary"];
    let mut out = String::new();
    // Whether each open element is listed.
    let mut open: Vec<bool> = Vec::new();
    // Nesting inside an `<svg>`: its content is not listed.
    let mut svg_depth = 0usize;
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag_text = &rest[..end];
        rest = &rest[end.min(rest.len())..];
        if let Some(name) = tag_text.strip_prefix('/') {
            if svg_depth > 0 {
                if name.trim() == "svg" {
                    svg_depth -= 1;
                }
                if svg_depth > 0 {
                    continue;
                }
            }
            open.pop();
            continue;
        }
        if tag_text.starts_with('!') {
            continue;
        }
        let name: String = tag_text
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name == "style" || name == "script" {
            let close = format!("</{name}>");
            rest = &rest[rest.find(&close).map_or(0, |i| i + close.len() - 1)..];
            continue;
        }
        if svg_depth > 0 {
            if name == "svg" && !tag_text.ends_with('/') {
                svg_depth += 1;
            }
            continue;
        }
        if VOID.contains(&name.as_str()) || tag_text.ends_with('/') {
            continue;
        }
        let listed = SHOWN.contains(&name.as_str()) || name == "li" && tag_text.contains("class=");
        if listed {
            let attr = |key: &str| {
                let pat = format!(" {key}=\"");
                tag_text
                    .find(&pat)
                    .map(|i| &tag_text[i + pat.len()..])
                    .and_then(|v| v.split('"').next())
                    .map(|v| format!(" {key}={v}"))
                    .unwrap_or_default()
            };
            let depth = open.iter().filter(|shown| **shown).count();
            let mut line = format!(
                "{}{name}{}{}",
                "  ".repeat(depth),
                attr("id"),
                attr("class")
            );
            if TEXT_OF.contains(&name.as_str()) {
                let text_end = rest.find("</").unwrap_or(0);
                let text: String = rest[1.min(rest.len())..text_end.max(1)]
                    .split('<')
                    .map(|part| part.split_once('>').map_or(part, |(_, t)| t))
                    .collect();
                line.push_str(&format!(": {}", text.trim()));
            }
            out.push_str(&line);
            out.push('\n');
        }
        if name == "svg" {
            svg_depth = 1;
        }
        open.push(listed);
    }
    out
}

#[test]
fn each_command_writes_its_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    for example in EXAMPLES {
        let (path, code) = write_page(example, dir.path());
        assert!(
            matches!(code, Some(0 | 1)),
            "{}: exit {code:?}",
            example.name
        );
        let html = std::fs::read_to_string(&path).expect("the page is written");
        assert!(html.starts_with("<!DOCTYPE html>"), "{}", example.name);
        assert!(!html.contains("http://") || html.matches("http://").all(|_| true));
        assert!(!html.contains("src=\"http"), "{}: no network", example.name);
        assert!(
            !html.contains("<link"),
            "{}: no external style",
            example.name
        );
        insta::assert_snapshot!(format!("html_{}", example.name), outline(&html));
    }
}

#[test]
fn the_page_says_what_the_json_says() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, _) = write_page(&EXAMPLES[1], dir.path());
    let html = std::fs::read_to_string(path).expect("page");
    let json = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(EXAMPLES[1].args)
        .args(["--format", "json"])
        .output()
        .expect("run");
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let findings = doc["findings"].as_array().expect("an array of findings");
    assert!(!findings.is_empty());
    for f in findings {
        let message = f["message"].as_str().expect("message");
        let escaped = message
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;");
        assert!(html.contains(&escaped), "missing: {message}");
    }
}

#[test]
fn stdout_is_unchanged_by_html() {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = &EXAMPLES[2];
    let plain = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(example.args)
        .output()
        .expect("run");
    let with = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(example.args)
        .arg("--html")
        .arg(dir.path().join("p.html"))
        .output()
        .expect("run");
    assert_eq!(plain.stdout, with.stdout);
    assert_eq!(plain.status.code(), with.status.code());
}

#[test]
fn an_input_is_never_overwritten() {
    let before = std::fs::read(root().join("examples/iot-stats.toml")).expect("read");
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args([
            "size",
            "examples/iot.cql",
            "--stats",
            "examples/iot-stats.toml",
        ])
        .args(["--html", "./examples/../examples/iot-stats.toml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--html ./examples/../examples/iot-stats.toml: is an input"),
        "{stderr}"
    );
    let after = std::fs::read(root().join("examples/iot-stats.toml")).expect("read");
    assert_eq!(before, after);
}

#[test]
fn an_unwritable_target_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("missing-dir/page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args([
            "size",
            "examples/iot.cql",
            "--stats",
            "examples/iot-stats.toml",
        ])
        .arg("--html")
        .arg(&target)
        .args(["--format", "json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("\"errors\"") && stdout.contains("page.html: cannot write"),
        "{stdout}"
    );
    assert!(!target.exists());
}

#[test]
fn an_input_error_writes_no_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args([
            "size",
            "examples/iot.cql",
            "--stats",
            "examples/no-such-stats.toml",
        ])
        .arg("--html")
        .arg(&target)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(!target.exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-stats.toml"));
}

#[test]
fn html_is_refused_where_there_is_no_page() {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(["token", "a", "--html", "/tmp/never-written.html"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--html is for design"));
}
