//! `--html FILE` and `--format html`: the command's JSON model rendered as one
//! self-contained HTML page (crates/html), written atomically to FILE, or to
//! stdout in place of the command's usual output.
//!
//! The page is rendered from exactly the JSON the command prints with `--format
//! json` (one model, two renderers). The command runs once: it renders its
//! result for stdout and hands the same result's JSON document to the page
//! through [`Model`] (the run is an `FnOnce`: it cannot run twice). The page is
//! not written when the run is an input error (exit 2), and never over one of
//! the command's input files.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, SourceMap, render_json};
use cqlmodel_html::{Page, Sources, render};
use serde_json::Value;

use crate::outcome::Output;
use crate::output::Model;

/// Where the page goes.
#[derive(Debug, Clone, Copy)]
pub struct PageTarget<'a> {
    pub page: Page,
    /// `--html FILE`.
    pub file: Option<&'a Path>,
    /// `--format html`: the page is the stdout.
    pub stdout: bool,
}

impl PageTarget<'_> {
    /// Whether a page is asked for (`--html FILE` or `--format html`).
    pub fn wanted(&self) -> bool {
        self.file.is_some() || self.stdout
    }
}

/// Runs the command once, writing its HTML page where `target` says. `json`:
/// the user's stdout format is JSON (for the format of an error). `inputs`:
/// the files the command reads (the page is never written over one). `run`
/// renders its stdout and fills the model when the model is wanted.
pub fn run_with_html(
    target: PageTarget,
    inputs: &[&Path],
    json: bool,
    run: impl FnOnce(&mut Model) -> Output,
) -> Output {
    if !target.wanted() {
        return run(&mut Model::unwanted());
    }
    if let Some(file) = target.file
        && let Err(message) = check_target(file, inputs)
    {
        return error(&message, json);
    }
    let mut model = Model::wanted();
    let mut output = run(&mut model);
    let sources = model.sources();
    let value = match model.take() {
        Some(value) if output.code != 2 => value,
        // An input error: nothing to show. With `--format html` the errors
        // are on stderr and stdout stays empty, never half a report.
        _ => {
            if target.stdout {
                output.stdout.clear();
            }
            return output;
        }
    };
    let page_html = render(target.page, &value, &sources_of(&value, sources));
    if let Some(file) = target.file
        && let Err(message) = write_atomically(file, page_html.as_bytes())
    {
        return error(&message, json);
    }
    if target.stdout {
        output.stdout = page_html;
    }
    output
}

/// The HTML file must not be one of the inputs, nor a directory.
fn check_target(html: &Path, inputs: &[&Path]) -> Result<(), String> {
    if html.is_dir() {
        return Err(format!(
            "--html {}: is a directory; give a file name",
            html.display()
        ));
    }
    let target = canonical(html);
    for input in inputs {
        if canonical(input) == target {
            return Err(format!(
                "--html {}: is an input of this command; give another file name",
                html.display()
            ));
        }
    }
    Ok(())
}

/// The absolute, symlink-free path when it exists; else its parent's, joined
/// with the name (the file the page would create).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (parent.canonicalize(), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`: a reader never sees half a page, and a failed write leaves the old
/// file as it was.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail =
        |what: &str, e: std::io::Error| format!("--html {}: cannot {what}: {e}", path.display());
    let name = path
        .file_name()
        .ok_or_else(|| format!("--html {}: not a file name", path.display()))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".cqlmodel-tmp-{}", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = fs::File::create(&temp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(fail("write", e));
    }
    fs::rename(&temp, path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        fail("move into place", e)
    })
}

/// The files the findings point into, for their source excerpts: the text the
/// run read (`given`), else the file read now (a file that cannot be read
/// shows no excerpt).
fn sources_of(model: &Value, mut given: Sources) -> Sources {
    let findings = match model {
        Value::Array(items) => items.as_slice(),
        other => other
            .get("findings")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice),
    };
    for f in findings {
        let Some(file) = f.get("file").and_then(Value::as_str) else {
            continue;
        };
        if given.contains_key(file) {
            continue;
        }
        if let Ok(text) = fs::read_to_string(file) {
            given.insert(file.to_string(), text);
        }
    }
    given
}

/// An output error as the commands report them: text on stderr, or
/// `{"errors": [...]}` on stdout. Exit 2.
fn error(message: &str, json: bool) -> Output {
    if json {
        let d = Diagnostic::error("output", message);
        let value = serde_json::json!({ "errors": render_json(&[d], &SourceMap::new()) });
        Output {
            stdout: serde_json::to_string_pretty(&value).unwrap_or_default() + "\n",
            stderr: String::new(),
            code: 2,
        }
    } else {
        Output {
            stdout: String::new(),
            stderr: format!("error: {message}\n"),
            code: 2,
        }
    }
}
