//! The staging directory: the design is written in full into
//! `.NAME.cqlmodel-tmp-PID` next to the output directory, then moved into place
//! file by file. A run killed before the end leaves its staging directory
//! behind; the next run into the same output removes it, unless its process is
//! still running.

use std::fs;
use std::path::{Path, PathBuf};

use super::manifest::is_our_shape;

const MARK: &str = ".cqlmodel-tmp-";

/// This run's staging directory for the output named `name` in `parent`.
pub fn staging_dir(parent: &Path, name: &str) -> PathBuf {
    parent.join(format!(".{name}{MARK}{}", std::process::id()))
}

/// Removes the staging directories of earlier runs into `parent/name` whose
/// process is gone. Best effort: what cannot be removed stays, and is retried
/// next time.
pub fn remove_stale(parent: &Path, name: &str) {
    let prefix = format!(".{name}{MARK}");
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file_name.strip_prefix(&prefix) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            remove_staging(&entry.path());
        }
    }
}

/// Removes a staging directory, deleting only files of the shapes the designer
/// writes: anything else inside (which a run of ours never puts there) keeps
/// the directory, and a symbolic link in its place is not followed.
pub fn remove_staging(dir: &Path) {
    let is_real_dir = |p: &Path| fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    if !is_real_dir(dir) {
        return;
    }
    for sub in [Path::new(""), Path::new("diagrams")] {
        let Ok(entries) = fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let relative = sub.join(entry.file_name());
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            let ours = is_our_shape(&relative) || relative == Path::new(super::MANIFEST);
            if is_file && ours {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    if is_real_dir(&dir.join("diagrams")) {
        let _ = fs::remove_dir(dir.join("diagrams"));
    }
    remove_migration_tree(dir, Path::new("migration"));
    let _ = fs::remove_dir(dir);
}

/// Removes the staged `migration/` tree of `design --existing` (files of our
/// shape, then the directories left empty); links are never followed.
fn remove_migration_tree(staging: &Path, relative: &Path) {
    let path = staging.join(relative);
    if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
        return;
    }
    if let Ok(entries) = fs::read_dir(&path) {
        for entry in entries.flatten() {
            let inner = relative.join(entry.file_name());
            match entry.file_type() {
                Ok(t) if t.is_dir() => remove_migration_tree(staging, &inner),
                Ok(t) if t.is_file() && is_our_shape(&inner) => {
                    let _ = fs::remove_file(entry.path());
                }
                _ => {}
            }
        }
    }
    let _ = fs::remove_dir(&path);
}

/// Whether process `pid` is running. Where `/proc` does not exist it cannot be
/// told, and the staging directory counts as stale (an older run's).
fn process_alive(pid: u32) -> bool {
    Path::new("/proc/self").exists() && Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_runs_staging_is_removed_and_foreign_files_keep_theirs() {
        let root = std::env::temp_dir().join(format!("cqlmodel-staging-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        // u32::MAX is no running process's id.
        let stale = root.join(format!(".out{MARK}{}", u32::MAX));
        let foreign = root.join(format!(".out{MARK}{}", u32::MAX - 1));
        let _ = fs::create_dir_all(stale.join("diagrams"));
        let _ = fs::create_dir_all(foreign.join("mine"));
        let _ = fs::write(stale.join("schema.cql"), "x");
        let _ = fs::write(stale.join("diagrams/t.svg"), "x");
        let _ = fs::write(foreign.join("mine/keep.txt"), "x");
        let unrelated = root.join(".other.cqlmodel-tmp-1");
        let _ = fs::create_dir_all(&unrelated);
        remove_stale(&root, "out");
        let left = (
            stale.exists(),
            foreign.join("mine/keep.txt").exists(),
            unrelated.exists(),
        );
        let _ = fs::remove_dir_all(&root);
        assert_eq!(left, (false, true, true));
    }
}
