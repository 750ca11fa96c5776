//! `design --out` never replaces or deletes what cqlmodel did not write: a
//! file, a device or a foreign directory is refused (exit 2, nothing touched);
//! `--force` replaces only the design's files; a killed run's staging directory
//! is cleaned up; names from the input never leave the output directory and
//! come out as CQL that reads back as the designed names.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use insta_cmd::get_cargo_bin;

const MODEL: &str = "CREATE TABLE devices (device_id text PRIMARY KEY, label text);\n\
CREATE TABLE readings (device_id text REFERENCES devices, ts timestamptz, temp float8,\n\
    PRIMARY KEY (device_id, ts));\n";

/// Runs `cqlmodel design model.sql ARGS` in `dir`.
fn design(dir: &Path, args: &[&str]) -> Output {
    Command::new(get_cargo_bin("cqlmodel"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .arg("design")
        .arg("model.sql")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn workdir(model: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    fs::write(dir.path().join("model.sql"), model).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Every file under `root` (relative path → bytes), hidden ones included.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
        {
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().to_string())
                .unwrap_or_default();
            if path.is_dir() {
                out.insert(format!("{relative}/"), Vec::new());
                stack.push(path);
            } else {
                out.insert(relative, fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn an_existing_file_is_refused_and_left_alone() {
    let dir = workdir(MODEL);
    fs::write(dir.path().join("notes"), "mine\n").unwrap_or_else(|e| panic!("{e}"));
    let before = snapshot(dir.path());
    let o = design(dir.path(), &["--out", "notes", "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("notes: not a directory"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        snapshot(dir.path()),
        before,
        "nothing renamed, nothing left behind"
    );
}

#[test]
fn a_device_is_refused() {
    let dir = workdir(MODEL);
    let o = design(dir.path(), &["--out", "/dev/null", "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let null = fs::symlink_metadata("/dev/null").unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !null.is_dir() && !null.is_file(),
        "/dev/null is still a device"
    );
}

#[test]
fn a_symbolic_link_is_refused() {
    let dir = workdir(MODEL);
    let real = dir.path().join("real");
    fs::create_dir(&real).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap_or_else(|e| panic!("{e}"));
    let o = design(dir.path(), &["--out", "link"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(fs::read_dir(&real).map(Iterator::count).unwrap_or(99), 0);
}

#[test]
fn a_foreign_directory_is_refused_and_forced_keeps_unrelated_files() {
    let dir = workdir(MODEL);
    let out = dir.path().join("out");
    fs::create_dir_all(out.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    fs::write(out.join(".hidden"), "h").unwrap_or_else(|e| panic!("{e}"));
    fs::write(out.join("notes.txt"), "n").unwrap_or_else(|e| panic!("{e}"));
    fs::write(out.join("sub/keep"), "k").unwrap_or_else(|e| panic!("{e}"));
    let before = snapshot(dir.path());
    let o = design(dir.path(), &["--out", "out"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(snapshot(dir.path()), before);

    let o = design(dir.path(), &["--out", "out", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = snapshot(&out);
    for kept in [".hidden", "notes.txt", "sub/keep"] {
        assert_eq!(
            after.get(kept),
            before.get(&format!("out/{kept}")),
            "{kept}"
        );
    }
    assert!(after.contains_key("schema.cql") && after.contains_key(".cqlmodel-manifest"));
}

#[test]
fn a_rerun_replaces_only_the_files_of_the_previous_design() {
    let dir = workdir(MODEL);
    let out = dir.path().join("out");
    let o = design(dir.path(), &["--out", "out"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    fs::write(out.join("my-notes.md"), "mine").unwrap_or_else(|e| panic!("{e}"));
    fs::write(out.join("diagrams/mine.svg"), "mine").unwrap_or_else(|e| panic!("{e}"));
    let first = snapshot(&out);
    // The second model has no readings: its diagram goes, the user's files stay.
    fs::write(
        dir.path().join("model.sql"),
        "CREATE TABLE devices (device_id text PRIMARY KEY);\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = design(dir.path(), &["--out", "out"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let second = snapshot(&out);
    assert_eq!(second.get("my-notes.md"), Some(&b"mine".to_vec()));
    assert_eq!(second.get("diagrams/mine.svg"), Some(&b"mine".to_vec()));
    let gone: Vec<_> = first.keys().filter(|k| !second.contains_key(*k)).collect();
    assert!(
        !gone.is_empty() && gone.iter().all(|k| k.starts_with("diagrams/reading")),
        "{gone:?}"
    );
}

#[test]
fn a_killed_runs_staging_directory_is_removed() {
    let dir = workdir(MODEL);
    // u32::MAX is no running process's id: a run that was killed.
    let stale = dir.path().join(format!(".out.cqlmodel-tmp-{}", u32::MAX));
    fs::create_dir_all(stale.join("diagrams")).unwrap_or_else(|e| panic!("{e}"));
    fs::write(stale.join("schema.cql"), "partial").unwrap_or_else(|e| panic!("{e}"));
    fs::write(stale.join("diagrams/t.svg"), "partial").unwrap_or_else(|e| panic!("{e}"));
    let o = design(dir.path(), &["--out", "out"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<String> = snapshot(dir.path())
        .keys()
        .filter(|k| !k.contains('/') || k.ends_with('/') && k.matches('/').count() == 1)
        .cloned()
        .collect();
    assert_eq!(names, ["model.sql", "out/"], "no staging directory is left");
}

const HOSTILE: &str = "CREATE TABLE \"../../../pwned\" (id int PRIMARY KEY, \"we ird.col\" text,\n\
    \"Quote\"\"d\" int, \"名前\" text);\n\
CREATE TABLE \"Order Items\" (id int PRIMARY KEY, \"select\" text, \"a|b`c\" int);\n\
CREATE TABLE \"line\nbreak\" (id int PRIMARY KEY);\n";

#[test]
fn names_from_the_input_stay_inside_the_output_and_read_back_as_cql() {
    let dir = workdir(HOSTILE);
    let nested = dir.path().join("a/b/c");
    fs::create_dir_all(&nested).unwrap_or_else(|e| panic!("{e}"));
    fs::write(nested.join("model.sql"), HOSTILE).unwrap_or_else(|e| panic!("{e}"));
    let o = design(&nested, &["--out", "out"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let everything = snapshot(dir.path());
    for path in everything.keys() {
        assert!(
            path == "model.sql" || path.starts_with("a/"),
            "written outside: {path}"
        );
    }
    let out = nested.join("out");
    // The designed schema and statements pass the review: every name is a
    // table name Cassandra accepts, every identifier quoted where it must be.
    let review = Command::new(get_cargo_bin("cqlmodel"))
        .current_dir(&out)
        .args([
            "review",
            "schema.cql",
            "--queries",
            "queries.cql",
            "--format",
            "json",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let json: serde_json::Value =
        serde_json::from_slice(&review.stdout).unwrap_or_else(|e| panic!("{e}"));
    let errors: Vec<_> = json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(review.status.code(), Some(0), "{}", stderr(&review));
    // Each `-- @name` is one word and the comment ends at its line.
    let queries = fs::read_to_string(out.join("queries.cql")).unwrap_or_default();
    for line in queries.lines().filter(|l| l.starts_with("-- @name")) {
        assert_eq!(line.split_whitespace().count(), 3, "{line}");
    }
    let report = fs::read_to_string(out.join("report.md")).unwrap_or_default();
    assert!(
        !report.contains("line\nbreak"),
        "a name cannot break a report line"
    );
    // Every row of a Markdown table has its header's cells: a name cannot add one.
    let mut header_cells = None;
    for line in report.lines() {
        if !line.starts_with('|') {
            header_cells = None;
            continue;
        }
        let cells = line.replace("\\|", "").matches('|').count();
        match header_cells {
            None => header_cells = Some(cells),
            Some(n) => assert_eq!(cells, n, "a name cannot add a table cell: {line}"),
        }
    }
}
