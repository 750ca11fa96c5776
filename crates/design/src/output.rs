//! Writing the design into `--out DIR`, never destroying what is not ours:
//!
//! - DIR must be missing, an empty directory, or a directory a previous design
//!   wrote (it holds `.cqlmodel-manifest`). Any other directory is refused
//!   unless forced; a file, a device or a symbolic link is always refused.
//! - Only the files the design writes are replaced (and the files the previous
//!   manifest lists that this design no longer writes are removed); everything
//!   else in DIR is left as it is, forced or not.
//! - The whole design is written first into a staging directory next to DIR
//!   (`.DIR.cqlmodel-tmp-PID`), so a failure while rendering or writing leaves
//!   DIR as it was; stale staging directories of killed runs are removed.

mod manifest;
mod staging;
mod target;

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use manifest::MANIFEST;
use manifest::manifest_text;
use staging::{remove_staging, remove_stale, staging_dir};
use target::{Target, inspect, parent_and_name};

use crate::plan::Design;
use crate::report::{flow_svg, json, report_md, table_file_stems, table_svg};

/// Why the design could not be written: each names the path and what was done
/// to it.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: not a directory; --out takes a directory (nothing was changed)", path.display())]
    NotADirectory { path: PathBuf },
    #[error(
        "{}: a symbolic link; give the directory itself as --out (nothing was changed)",
        path.display()
    )]
    Symlink { path: PathBuf },
    #[error(
        "{}: the directory holds {count} entries cqlmodel did not write ({sample}); \
         choose an empty or new directory, or pass --force to write the design's files \
         into it and leave the others alone",
        path.display()
    )]
    NotOurs {
        path: PathBuf,
        count: usize,
        sample: String,
    },
    #[error(
        "output directory {} holds the input file {}: choose another --out",
        dir.display(),
        input.display()
    )]
    HoldsInput { dir: PathBuf, input: PathBuf },
    #[error("{}: cannot {op}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl OutputError {
    fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        OutputError::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// True for a relative path the designer may write: a plain file name, or
/// `diagrams/` and a plain file name (no `..`, nothing absolute).
pub fn is_safe_relative(path: &Path) -> bool {
    manifest::is_our_shape(path)
}

/// How to treat an existing directory that cqlmodel did not write.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    /// Write into a non-empty directory without our manifest (only our files
    /// are replaced).
    pub force: bool,
}

/// The files of a design, by relative path. Table names become file names
/// through [`table_file_stems`]: never a path separator, `..` or a control
/// character, and two tables never share a file.
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
    for (t, stem) in d.tables.iter().zip(table_file_stems(d)) {
        out.push((PathBuf::from(format!("diagrams/{stem}.svg")), table_svg(t)));
    }
    out
}

/// Writes the design into `dir` (see the module documentation for what is
/// refused and what is replaced). `inputs` are the input files: an output
/// directory holding one of them is refused.
pub fn write_design(
    d: &Design,
    dir: &Path,
    inputs: &[&Path],
    options: WriteOptions,
) -> Result<(), OutputError> {
    write_design_with(d, dir, inputs, options, Vec::new())
}

/// [`write_design`] with more files written, listed and replaced with the
/// design's (`migration.md`, `migration/…` of `design --existing`). A file whose
/// path is not one of the shapes the manifest reads back is refused.
pub fn write_design_with(
    d: &Design,
    dir: &Path,
    inputs: &[&Path],
    options: WriteOptions,
    extra: Vec<(PathBuf, String)>,
) -> Result<(), OutputError> {
    if let Some((path, _)) = extra.iter().find(|(p, _)| !is_safe_relative(p)) {
        return Err(OutputError::io(
            "write",
            path,
            io::Error::other("not a path the design writes"),
        ));
    }
    refuse_inputs_inside(dir, inputs)?;
    let target = inspect(dir, options.force)?;
    let (parent, name) = parent_and_name(dir)?;
    fs::create_dir_all(&parent).map_err(|e| OutputError::io("create", &parent, e))?;
    remove_stale(&parent, &name);
    let staging = staging_dir(&parent, &name);
    remove_staging(&staging);
    let mut files = files(d);
    files.extend(extra);
    let result = stage(&staging, &files).and_then(|()| {
        let previous = match target {
            Target::Ours(previous) => previous,
            Target::Missing | Target::Empty | Target::Forced => Vec::new(),
        };
        move_into_place(&staging, dir, &files, &previous)
    });
    remove_staging(&staging);
    result
}

/// Refuses an output directory that is or holds one of the inputs.
fn refuse_inputs_inside(dir: &Path, inputs: &[&Path]) -> Result<(), OutputError> {
    let canonical = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let target = canonical(dir);
    for input in inputs {
        let input = canonical(input);
        if input.starts_with(&target) {
            return Err(OutputError::HoldsInput {
                dir: dir.to_path_buf(),
                input,
            });
        }
    }
    Ok(())
}

/// Writes every file of the design into a fresh staging directory.
fn stage(staging: &Path, files: &[(PathBuf, String)]) -> Result<(), OutputError> {
    fs::create_dir(staging).map_err(|e| OutputError::io("create", staging, e))?;
    let diagrams = staging.join("diagrams");
    fs::create_dir(&diagrams).map_err(|e| OutputError::io("create", &diagrams, e))?;
    for (relative, text) in files {
        let path = staging.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| OutputError::io("create", parent, e))?;
        }
        fs::write(&path, text).map_err(|e| OutputError::io("write", &path, e))?;
    }
    Ok(())
}

/// Moves the staged files into `dir`. The manifest is written first listing
/// both the previous and the new files, so that a run killed half-way still
/// leaves a directory the next run recognises as ours; it is narrowed to the
/// new files at the end, after the previous design's leftovers are removed.
fn move_into_place(
    staging: &Path,
    dir: &Path,
    files: &[(PathBuf, String)],
    previous: &[PathBuf],
) -> Result<(), OutputError> {
    ensure_real_dir(dir)?;
    ensure_real_dir(&dir.join("diagrams"))?;
    let new: BTreeSet<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let both: BTreeSet<PathBuf> = new.iter().chain(previous).cloned().collect();
    write_manifest(staging, dir, &both)?;
    for relative in &new {
        ensure_real_parents(dir, relative)?;
        let (from, to) = (staging.join(relative), dir.join(relative));
        if fs::symlink_metadata(&to).is_ok_and(|m| m.is_dir()) {
            return Err(OutputError::io(
                "replace",
                &to,
                io::Error::other("a directory is in the way"),
            ));
        }
        fs::rename(&from, &to).map_err(|e| OutputError::io("move into place", &to, e))?;
    }
    for old in previous.iter().filter(|p| !new.contains(*p)) {
        let path = dir.join(old);
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            fs::remove_file(&path).map_err(|e| OutputError::io("remove", &path, e))?;
        }
        // A migration that is no longer planned leaves no empty directories
        // (`remove_dir` refuses a directory that still holds anything).
        for parent in old
            .ancestors()
            .skip(1)
            .filter(|p| p.starts_with("migration"))
        {
            let _ = fs::remove_dir(dir.join(parent));
        }
    }
    write_manifest(staging, dir, &new)
}

/// Creates the directories between `dir` and `relative`'s file (`migration/cql/…`),
/// each a real directory, never a link out of `dir`.
fn ensure_real_parents(dir: &Path, relative: &Path) -> Result<(), OutputError> {
    let mut at = dir.to_path_buf();
    let parents: Vec<_> = relative.components().collect();
    for part in parents.iter().take(parents.len().saturating_sub(1)) {
        at.push(part);
        ensure_real_dir(&at)?;
    }
    Ok(())
}

/// Writes the manifest through the staging directory, so it is replaced whole.
fn write_manifest(
    staging: &Path,
    dir: &Path,
    files: &BTreeSet<PathBuf>,
) -> Result<(), OutputError> {
    let staged = staging.join(MANIFEST);
    fs::write(&staged, manifest_text(files)).map_err(|e| OutputError::io("write", &staged, e))?;
    let path = dir.join(MANIFEST);
    fs::rename(&staged, &path).map_err(|e| OutputError::io("move into place", &path, e))
}

/// Creates `dir` when missing; refuses a file or a symbolic link in its place
/// (a link named `diagrams` would lead the diagrams out of the directory).
fn ensure_real_dir(dir: &Path) -> Result<(), OutputError> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(OutputError::Symlink {
            path: dir.to_path_buf(),
        }),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(OutputError::NotADirectory {
            path: dir.to_path_buf(),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir(dir).map_err(|e| OutputError::io("create", dir, e))
        }
        Err(e) => Err(OutputError::io("inspect", dir, e)),
    }
}
