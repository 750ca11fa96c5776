//! `cqlmodel design --horizon`: the age growth with no retention is sized at,
//! stated in the report and design.json; a zero or unreadable horizon is a
//! usage error (exit 2).

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../design/tests/data/sizing")
        .join(name)
}

fn design(out: &Path, horizon: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cqlmodel"));
    cmd.arg("design")
        .arg(fixture("model.sql"))
        .arg("--queries")
        .arg(fixture("queries.sql"))
        .arg("--stats")
        .arg(fixture("stats.toml"))
        .arg("--out")
        .arg(out)
        .arg("--force");
    if let Some(h) = horizon {
        cmd.args(["--horizon", h]);
    }
    cmd.output().unwrap_or_else(|e| panic!("cqlmodel: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cqlmodel-horizon-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_horizon_flag_changes_the_sizing_age_and_says_so() {
    let out = scratch("flag");
    let run = design(&out, Some("5y"));
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap_or_default();
    assert!(
        report.contains("sized at a horizon of 5y (--horizon)"),
        "{report}"
    );
    assert!(report.contains("at the 5y (--horizon) horizon"), "{report}");
    let json = std::fs::read_to_string(out.join("design.json")).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(v["horizon"]["text"], "5y");
    assert_eq!(v["horizon"]["source"], "--horizon");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_zero_or_unreadable_horizon_is_a_usage_error() {
    for bad in ["0", "soon"] {
        let out = scratch(bad);
        let run = design(&out, Some(bad));
        assert_eq!(run.status.code(), Some(2), "--horizon {bad}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("--horizon"));
        assert!(!out.exists(), "--horizon {bad} wrote {}", out.display());
    }
}
