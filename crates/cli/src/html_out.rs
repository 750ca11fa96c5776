//! `--html FILE`: the command's JSON model rendered as one self-contained HTML
//! page (crates/html), written atomically next to the command's usual output.
//!
//! The page is rendered from exactly the JSON the command prints with `--format
//! json` (one model, two renderers). The command runs once for that model and,
//! when stdout is text, once more for its text; inputs are files, so both runs
//! see the same data. The page is not written when the run is an input error
//! (exit 2), and never over one of the command's input files.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, SourceMap, render_json};
use cqlmodel_html::{Page, Sources, render};
use serde_json::Value;

use crate::review_cmd::Output;

/// A command's run: `json` selects `--format json`.
pub type Run<'a> = dyn Fn(bool) -> Output + 'a;

/// Runs the command, writing the HTML page to `html` when given. `json`: the
/// user's stdout format. `inputs`: the files the command reads (the page is
/// never written over one).
pub fn run_with_html(
    html: Option<&Path>,
    page: Page,
    inputs: &[&Path],
    json: bool,
    run: &Run,
) -> Output {
    let Some(html) = html else {
        return run(json);
    };
    if let Err(message) = check_target(html, inputs) {
        return error(&message, json);
    }
    let model_run = run(true);
    if model_run.code == 2 {
        return if json { model_run } else { run(false) };
    }
    let model: Value = match serde_json::from_str(&model_run.stdout) {
        Ok(v) => v,
        Err(e) => {
            return error(
                &format!(
                    "--html {}: the command's JSON could not be read back: {e}",
                    html.display()
                ),
                json,
            );
        }
    };
    let page_html = render(page, &model, &sources_of(&model));
    if let Err(message) = write_atomically(html, page_html.as_bytes()) {
        return error(&message, json);
    }
    if json { model_run } else { run(false) }
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

/// The files the findings point into, read for their source excerpts (a file
/// that cannot be read shows no excerpt).
fn sources_of(model: &Value) -> Sources {
    let findings = match model {
        Value::Array(items) => items.as_slice(),
        other => other
            .get("findings")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice),
    };
    let mut sources = Sources::new();
    for f in findings {
        let Some(file) = f.get("file").and_then(Value::as_str) else {
            continue;
        };
        if sources.contains_key(file) {
            continue;
        }
        if let Ok(text) = fs::read_to_string(file) {
            sources.insert(file.to_string(), text);
        }
    }
    sources
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
