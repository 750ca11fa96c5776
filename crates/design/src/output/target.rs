//! What `--out DIR` points at, decided before anything is written: a new or
//! empty directory, a directory a previous design wrote (it holds our
//! manifest), a foreign directory (refused unless forced), or something that is
//! not a directory at all (always refused: a file, a device such as
//! `/dev/null`, a symbolic link).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::OutputError;
use super::manifest::{MANIFEST, read_manifest};

/// The state of the output directory before the run.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing there yet: the directory is created.
    Missing,
    /// An empty directory.
    Empty,
    /// A directory with our manifest: the files it lists are ours to replace.
    Ours(Vec<PathBuf>),
    /// A non-empty directory without our manifest, accepted with `--force`:
    /// only the files the design writes are replaced, nothing else is touched.
    Forced,
}

/// Classifies `dir`, refusing whatever is not ours to write into.
pub fn inspect(dir: &Path, force: bool) -> Result<Target, OutputError> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::Missing),
        Err(e) => return Err(OutputError::io("inspect", dir, e)),
    };
    if meta.file_type().is_symlink() {
        return Err(OutputError::Symlink {
            path: dir.to_path_buf(),
        });
    }
    if !meta.is_dir() {
        return Err(OutputError::NotADirectory {
            path: dir.to_path_buf(),
        });
    }
    let mut names = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| OutputError::io("list", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| OutputError::io("list", dir, e))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    if names.is_empty() {
        return Ok(Target::Empty);
    }
    if names.iter().any(|n| n == MANIFEST) {
        return Ok(Target::Ours(read_manifest(&dir.join(MANIFEST))?));
    }
    if force {
        return Ok(Target::Forced);
    }
    names.sort();
    let count = names.len();
    let mut sample = names.into_iter().take(3).collect::<Vec<_>>().join(", ");
    if count > 3 {
        sample.push_str(", …");
    }
    Err(OutputError::NotOurs {
        path: dir.to_path_buf(),
        count,
        sample,
    })
}

/// The directory that holds `dir` and `dir`'s own name, both resolved
/// (`--out .` names the current directory, `--out out/` the `out` in it).
pub fn parent_and_name(dir: &Path) -> Result<(PathBuf, String), OutputError> {
    let absolute = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| OutputError::io("find the current directory for", dir, e))?
            .join(dir)
    };
    // Resolve `.` and `..` lexically first, so that `out/..` is not taken for `out`.
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::ParentDir => {
                clean.pop();
            }
            std::path::Component::CurDir => {}
            other => clean.push(other),
        }
    }
    let name = clean
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| OutputError::NotADirectory {
            path: clean.clone(),
        })?;
    let parent = clean
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    Ok((parent, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_directory_and_trailing_parts_resolve_to_a_name() {
        let (parent, name) = parent_and_name(Path::new("/a/b/out/.")).unwrap_or_default();
        assert_eq!((parent, name.as_str()), (PathBuf::from("/a/b"), "out"));
        let (parent, name) = parent_and_name(Path::new("/a/b/out/../x")).unwrap_or_default();
        assert_eq!((parent, name.as_str()), (PathBuf::from("/a/b"), "x"));
        assert!(
            parent_and_name(Path::new("/")).is_err(),
            "the root has no name"
        );
    }

    #[test]
    fn a_device_is_not_a_directory() {
        let err = inspect(Path::new("/dev/null"), true);
        assert!(
            matches!(err, Err(OutputError::NotADirectory { .. })),
            "{err:?}"
        );
    }
}
