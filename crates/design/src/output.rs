//! Writing the design into `--out DIR`: everything goes into a fresh directory
//! next to DIR first and is renamed into place at the end, so a failure leaves
//! DIR as it was.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::plan::Design;
use crate::report::{flow_svg, json, report_md, table_svg};

/// The files of a design, by relative path.
pub fn files(d: &Design) -> Vec<(PathBuf, String)> {
    let mut out = vec![
        (PathBuf::from("schema.cql"), d.schema_cql()),
        (PathBuf::from("queries.cql"), d.queries_cql()),
        (PathBuf::from("report.md"), report_md(d)),
        (
            PathBuf::from("design.json"),
            serde_json::to_string_pretty(&json(d)).unwrap_or_default() + "\n",
        ),
        (PathBuf::from("diagrams/flow.svg"), flow_svg(d)),
    ];
    if !d.table_stats.tables.is_empty() {
        out.push((
            PathBuf::from("stats.toml"),
            format!(
                "# The statistics of the designed tables, derived by `cqlmodel design` from the\n# statistics of the relational model; for `cqlmodel review --stats` and `cqlmodel size`.\n\n{}",
                cqlmodel_stats::to_toml(&d.table_stats)
            ),
        ));
    }
    for t in &d.tables {
        out.push((
            PathBuf::from(format!("diagrams/{}.svg", t.name)),
            table_svg(t),
        ));
    }
    out
}

/// Writes the design to `dir`, replacing what the designer wrote there before.
/// Refuses a `dir` that is one of `inputs` or holds files other than a previous
/// design's.
pub fn write_design(d: &Design, dir: &Path, inputs: &[&Path]) -> io::Result<()> {
    let canonical = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let target = canonical(dir);
    for i in inputs {
        let i = canonical(i);
        if i == target || i.starts_with(&target) {
            return Err(io::Error::other(format!(
                "output directory {} holds the input file {}: choose another --out",
                dir.display(),
                i.display()
            )));
        }
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "design".into());
    let staging = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    let result = (|| {
        fs::create_dir_all(staging.join("diagrams"))?;
        for (rel, text) in files(d) {
            fs::write(staging.join(rel), text)?;
        }
        if dir.exists() {
            let old = parent.join(format!(".{name}.old-{}", std::process::id()));
            fs::rename(dir, &old)?;
            if let Err(e) = fs::rename(&staging, dir) {
                let _ = fs::rename(&old, dir);
                return Err(e);
            }
            fs::remove_dir_all(&old)
        } else {
            fs::rename(&staging, dir)
        }
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    result
}
