//! `.cqlmodel-manifest`: the list of files a design run wrote into its output
//! directory. Its presence marks the directory as ours; the next run replaces
//! exactly those files and leaves every other file alone.
//!
//! The manifest is read back from disk, so it is input like any other: an entry
//! that is not the shape of a file the designer writes (`schema.cql`,
//! `diagrams/NAME.svg`) is ignored, never followed (`../../etc/passwd`).

use std::fs;
use std::path::{Component, Path, PathBuf};

use super::OutputError;

/// The manifest's file name inside the output directory.
pub const MANIFEST: &str = ".cqlmodel-manifest";

const HEADER: &str = "# Written by `cqlmodel design`: the files below are replaced by the next\n\
# design into this directory; other files are left alone.\n";

/// The manifest's text for `files` (relative paths).
pub fn manifest_text<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> String {
    let mut out = HEADER.to_string();
    for f in files {
        out.push_str(&f.to_string_lossy());
        out.push('\n');
    }
    out
}

/// The entries of an existing manifest that have the shape of our files.
pub fn read_manifest(path: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let bytes = fs::read(path).map_err(|e| OutputError::io("read", path, e))?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(PathBuf::from)
        .filter(|p| is_our_shape(p))
        .collect())
}

/// True for a relative path of one of the shapes the designer writes: a plain
/// file name, `diagrams/` and a plain file name, or a path under `migration/`.
/// Nothing absolute, no `..`.
pub fn is_our_shape(path: &Path) -> bool {
    let parts: Vec<Component> = path.components().collect();
    let plain = |c: &Component| matches!(c, Component::Normal(n) if !n.is_empty());
    match parts.as_slice() {
        [file] => plain(file) && path != Path::new(MANIFEST),
        // `design --existing`: the migration's scripts, in their own tree.
        [Component::Normal(dir), rest @ ..] if *dir == "migration" && !rest.is_empty() => {
            rest.iter().all(plain)
        }
        [Component::Normal(dir), file] => *dir == "diagrams" && plain(file),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_shapes_are_read_back() {
        for ok in [
            "schema.cql",
            "diagrams/flow.svg",
            "stats.toml",
            "migration/cql/1-create/001_create_ks_t.cql",
        ] {
            assert!(is_our_shape(Path::new(ok)), "{ok}");
        }
        for bad in [
            "../x",
            "/etc/passwd",
            "diagrams/../../x",
            "a/b",
            "diagrams/a/b.svg",
            "migration/../x",
            "migration/a/../../x",
            MANIFEST,
            "",
            ".",
        ] {
            assert!(!is_our_shape(Path::new(bad)), "{bad}");
        }
    }

    #[test]
    fn a_manifest_round_trips_and_drops_hostile_lines() {
        let dir = std::env::temp_dir().join(format!("cqlmodel-manifest-{}", std::process::id()));
        let _ = fs::create_dir_all(&dir);
        let path = dir.join(MANIFEST);
        let files = [PathBuf::from("schema.cql"), PathBuf::from("diagrams/t.svg")];
        let text = manifest_text(&files) + "../../outside\n/etc/passwd\n";
        let _ = fs::write(&path, text);
        let read = read_manifest(&path).unwrap_or_default();
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(read, files);
    }
}
