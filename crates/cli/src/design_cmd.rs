//! `cqlmodel design MODEL.sql [--queries Q.sql] [--stats S.toml] --out DIR`.

use std::path::Path;

use cqlmodel_design::{DesignError, DesignInput, design, json, write_design};

/// Runs the designer: `(stdout, stderr, exit code)`. Exit 2 on any input error,
/// and then nothing is written to `out`.
pub fn run(
    model: &Path,
    queries: Option<&Path>,
    stats: Option<&Path>,
    out: &Path,
    json_output: bool,
    color: bool,
) -> (String, String, u8) {
    let read = |p: &Path| -> Result<String, String> {
        let bytes =
            std::fs::read(p).map_err(|e| format!("error: cannot read {}: {e}", p.display()))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("error: {} is not UTF-8", p.display()))?;
        if text.trim().is_empty() {
            return Err(format!("error: {} is empty", p.display()));
        }
        Ok(text)
    };
    let texts = (|| -> Result<_, String> {
        Ok((
            read(model)?,
            queries.map(read).transpose()?,
            stats.map(read).transpose()?,
        ))
    })();
    let (model_sql, queries_sql, stats_toml) = match texts {
        Ok(t) => t,
        Err(e) => return (String::new(), e + "\n", 2),
    };
    let keyspace = keyspace_name(model);
    let input = DesignInput {
        keyspace: &keyspace,
        model_sql: &model_sql,
        queries_sql: queries_sql.as_deref(),
        stats_toml: stats_toml.as_deref(),
    };
    let d = match design(&input) {
        Ok(d) => d,
        Err(e) => {
            let (path, text) = match e.source_file {
                cqlmodel_design::Source::Model => (model, model_sql.as_str()),
                cqlmodel_design::Source::Queries => (
                    queries.unwrap_or(model),
                    queries_sql.as_deref().unwrap_or(""),
                ),
                cqlmodel_design::Source::Stats => {
                    (stats.unwrap_or(model), stats_toml.as_deref().unwrap_or(""))
                }
            };
            return (
                String::new(),
                render_error(&e, path, text, color, json_output),
                2,
            );
        }
    };
    let mut inputs: Vec<&Path> = vec![model];
    inputs.extend(queries);
    inputs.extend(stats);
    if let Err(e) = write_design(&d, out, &inputs) {
        return (String::new(), format!("error: {e}\n"), 2);
    }
    let stdout = if json_output {
        serde_json::to_string_pretty(&json(&d)).unwrap_or_default() + "\n"
    } else {
        let served = d.queries.iter().filter(|q| q.table.is_some()).count();
        let mut s = format!(
            "{} tables, {} of {} queries served, {} write paths, {} warnings → {}\n",
            d.tables.len(),
            served,
            d.queries.len(),
            d.write_paths.len(),
            d.warnings.len(),
            out.display()
        );
        for q in &d.queries {
            match (&q.table, &q.off_path) {
                (Some(t), _) => s.push_str(&format!(
                    "  {} → {t} ({} partition(s))\n",
                    q.name,
                    q.partitions.map_or("?".into(), |p| p.to_string())
                )),
                (None, Some(o)) => {
                    s.push_str(&format!("  {} → off the OLTP path: {}\n", q.name, o.reason))
                }
                _ => {}
            }
        }
        s
    };
    (stdout, String::new(), 0)
}

/// The keyspace: the model file's stem, or its directory's name for `model.sql`.
fn keyspace_name(model: &Path) -> String {
    let stem = model
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let base = if stem == "model" || stem == "schema" {
        model
            .canonicalize()
            .ok()
            .and_then(|p| {
                p.parent()
                    .and_then(|d| d.file_name())
                    .map(|n| n.to_string_lossy().to_string())
            })
            .unwrap_or(stem)
    } else {
        stem
    };
    let mut name: String = base
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
        name = format!("ks_{name}");
    }
    name
}

fn render_error(
    e: &DesignError,
    path: &Path,
    text: &str,
    color: bool,
    json_output: bool,
) -> String {
    if json_output {
        return serde_json::to_string_pretty(&serde_json::json!({
            "error": e.message,
            "kind": format!("{:?}", e.kind),
            "file": path.display().to_string(),
            "line": e.line,
            "column": e.column,
        }))
        .unwrap_or_default()
            + "\n";
    }
    let (red, bold, reset) = if color {
        ("\x1b[31m", "\x1b[1m", "\x1b[0m")
    } else {
        ("", "", "")
    };
    let mut s = format!(
        "{red}{bold}error{reset}{bold}: {}{reset}\n  --> {}:{}:{}\n",
        e.message,
        path.display(),
        e.line,
        e.column
    );
    if let Some(line) = text.lines().nth(e.line.saturating_sub(1)) {
        let gutter = e.line.to_string().len();
        s.push_str(&format!(
            "{:gutter$} |\n{} | {line}\n{:gutter$} | {}^\n",
            "",
            e.line,
            "",
            " ".repeat(e.column.saturating_sub(1))
        ));
    }
    s
}
