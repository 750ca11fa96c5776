//! Reading the user's files: UTF-8 text, not empty, each registered in the
//! source map so every later message can point into it.

use std::path::Path;

use cqlmodel_diagnostics::{SourceFile, SourceMap};

/// A problem with an input file itself (before its content is looked at).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: not valid UTF-8 (byte {byte:#04x} at offset {offset})")]
    NotUtf8 {
        path: String,
        line: usize,
        column: usize,
        byte: u8,
        offset: usize,
    },
    #[error("{path}: the file is empty")]
    Empty { path: String },
    #[error("{path}: the directory holds no *.cql file: nothing to read")]
    NoCqlFiles { path: String },
}

/// Reads `path` into the source map and returns its index.
pub fn read_source(path: &Path, sources: &mut SourceMap) -> Result<usize, InputError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| InputError::Read {
        path: name.clone(),
        source,
    })?;
    add_source(name, bytes, sources)
}

/// Registers text given in memory (e.g. `--query`).
pub fn add_source(
    name: String,
    bytes: Vec<u8>,
    sources: &mut SourceMap,
) -> Result<usize, InputError> {
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            let prefix = bytes.get(..offset).unwrap_or_default();
            let line = prefix.iter().filter(|b| **b == b'\n').count() + 1;
            let line_start = prefix
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |p| p + 1);
            let column = String::from_utf8_lossy(prefix.get(line_start..).unwrap_or_default())
                .chars()
                .count()
                + 1;
            return Err(InputError::NotUtf8 {
                path: name,
                line,
                column,
                byte: bytes.get(offset).copied().unwrap_or(0),
                offset,
            });
        }
    };
    if text.trim().is_empty() {
        return Err(InputError::Empty { path: name });
    }
    Ok(sources.add(SourceFile::new(name, text)))
}
