//! `cqlmodel migrate OLD NEW`: the plan from the schema you have to the one you
//! need (the analysis is `cqlmodel-migrate`'s; this module reads the inputs,
//! writes the output directory atomically and renders the summary).

use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceMap, render_human, render_json};
use cqlmodel_migrate::{
    AppStatement, ColumnRename, Layout, MigrateInput, Target, dry_run, output_files, plan,
};
use cqlmodel_schema::Origin;
use serde_json::{Value, json};

use crate::input::read_source;
use crate::outcome::Output;
use crate::output::Model;
use crate::schema_load::{LoadedSchema, load_schema, load_stats_file, parse_diagnostics};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TargetArg {
    Cassandra,
    Scylla,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LayoutArg {
    /// `001_alter_ks_t.cql`, `002_…`: version-numbered scripts.
    Numbered,
    /// cqlmigrate: `bootstrap.cql`, then `YYYY-MM-DD-HH:MM-description.cql`.
    Cqlmigrate,
}

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Self {
        match t {
            TargetArg::Cassandra => Target::Cassandra,
            TargetArg::Scylla => Target::Scylla,
        }
    }
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Self {
        match l {
            LayoutArg::Numbered => Layout::Numbered,
            LayoutArg::Cqlmigrate => Layout::Cqlmigrate,
        }
    }
}

/// The arguments of `cqlmodel migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// `OLD NEW`: the schema you have and the one you need (each a CQL file or a
    /// directory of `*.cql`); with --cluster, only NEW (OLD is the deployed schema).
    #[arg(value_name = "OLD NEW", num_args = 1..=2, required = true)]
    pub schemas: Vec<PathBuf>,
    #[command(flatten)]
    pub cluster: crate::cluster_args::ClusterArgs,
    /// The application's statements on OLD's tables (`-- @name q @cl LOCAL_QUORUM`):
    /// their dual writes and switched reads are written for the rebuilt tables.
    #[arg(long)]
    pub queries: Option<PathBuf>,
    /// Workload statistics of OLD's tables (TOML; docs/stats.md): sizes the backfill.
    #[arg(long)]
    pub stats: Option<PathBuf>,
    /// Write runbook.md, the CQL scripts per phase and the backfill configurations here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How the CQL scripts are named.
    #[arg(long, value_enum, default_value_t = LayoutArg::Numbered)]
    pub layout: LayoutArg,
    /// The database the plan is for.
    #[arg(long, value_enum, default_value_t = TargetArg::Cassandra)]
    pub target: TargetArg,
    /// A regular column OLD has and NEW names differently (`KS.TABLE.OLD=NEW`,
    /// repeatable): Cassandra refuses the RENAME, so the table is rebuilt with the
    /// column copied; without it the plan drops the old column and adds the new one.
    #[arg(long = "rename", value_name = "KS.TABLE.OLD=NEW")]
    pub renames: Vec<String>,
}

fn fail(diagnostics: &[Diagnostic], sources: &SourceMap, json_out: bool, color: bool) -> Output {
    if json_out {
        let v = json!({ "errors": render_json(diagnostics, sources) });
        return Output {
            stdout: format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default()),
            stderr: String::new(),
            code: 2,
        };
    }
    Output {
        stdout: String::new(),
        stderr: format!(
            "{}\nnothing planned: fix the input first\n",
            render_human(diagnostics, sources, color)
        ),
        code: 2,
    }
}

fn plain(message: String, json_out: bool, color: bool) -> Output {
    fail(
        &[Diagnostic::error("input", message)],
        &SourceMap::new(),
        json_out,
        color,
    )
}

pub(crate) fn load(path: &Path, sources: &mut SourceMap) -> Result<LoadedSchema, Vec<Diagnostic>> {
    let loaded = load_schema(&[path.to_path_buf()], sources)
        .map_err(|e| vec![Diagnostic::error("input", e.to_string())])?;
    let errors: Vec<Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .cloned()
        .collect();
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

fn load_app_statements(
    path: &Path,
    old: &LoadedSchema,
    sources: &mut SourceMap,
) -> Result<Vec<AppStatement>, Vec<Diagnostic>> {
    let file =
        read_source(path, sources).map_err(|e| vec![Diagnostic::error("input", e.to_string())])?;
    let text = sources
        .get(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    let parsed = cqlmodel_cql::parse(&text);
    let mut errors = parse_diagnostics(&parsed.errors, file);
    let keyspace = old.session_keyspace(None);
    let (queries, diags) =
        cqlmodel_review::load_queries(&old.schema, file, &parsed, keyspace.as_deref(), 1);
    errors.extend(diags.into_iter().filter(|d| d.severity == Severity::Error));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(queries
        .into_iter()
        .map(|q| AppStatement {
            name: q.name,
            statement: q.statement,
            consistency: q.consistency,
            rate: q.rate,
        })
        .collect())
}

/// The `--rename` flags, each checked against both schemas.
fn parse_renames(
    given: &[String],
    old: &LoadedSchema,
    new: &LoadedSchema,
) -> Result<Vec<ColumnRename>, cqlmodel_migrate::RenameError> {
    given
        .iter()
        .map(|g| {
            let r: ColumnRename = g.parse()?;
            r.check(&old.schema, &new.schema)?;
            Ok(r)
        })
        .collect()
}

/// Runs `cqlmodel migrate`. `epoch_seconds` dates cqlmigrate file names.
pub fn run(args: &MigrateArgs, json_out: bool, color: bool, epoch_seconds: u64) -> Output {
    run_once(args, json_out, color, epoch_seconds, &mut Model::unwanted())
}

/// [`run`], also filling `model` with the JSON document for the HTML page.
pub fn run_once(
    args: &MigrateArgs,
    json_out: bool,
    color: bool,
    epoch_seconds: u64,
    model: &mut Model,
) -> Output {
    let mut sources = SourceMap::new();
    let live = !args.cluster.cluster.is_empty();
    let (old_path, new_path) = match schema_paths(args, live) {
        Ok(paths) => paths,
        Err(message) => return plain(message.to_string(), json_out, color),
    };
    let (old, new) = match load_old_and_new(args, old_path, new_path, &mut sources) {
        Ok(both) => both,
        Err(d) => return fail(&d, &sources, json_out, color),
    };
    let queries = match &args.queries {
        Some(p) => match load_app_statements(p, &old, &mut sources) {
            Ok(q) => q,
            Err(d) => return fail(&d, &sources, json_out, color),
        },
        None => Vec::new(),
    };
    let stats = match &args.stats {
        Some(p) => match load_stats_file(p, &old.schema, &mut sources) {
            Ok(s) => Some(s),
            Err(d) => return fail(&d, &sources, json_out, color),
        },
        None => None,
    };
    let source = |o: &Origin| {
        sources
            .get(o.file)
            .and_then(|f| f.text.get(o.span.range()))
            .map(str::to_string)
    };
    let target = Target::from(args.target);
    let renames = match parse_renames(&args.renames, &old, &new) {
        Ok(r) => r,
        Err(e) => return plain(e.to_string(), json_out, color),
    };
    let input = MigrateInput {
        old: &old.schema,
        new: &new.schema,
        target,
        queries: &queries,
        stats: stats.as_ref(),
        source: &source,
        renames: &renames,
    };
    let p = plan(&input);
    let dry = dry_run(&old.schema, &new.schema, &p);
    let layout = Layout::from(args.layout);
    let files = output_files(&p, &dry, layout, epoch_seconds);
    let mut written = None;
    if let Some(out) = &args.out
        && !p.is_empty()
    {
        let inputs: Vec<&Path> = [
            old_path,
            Some(new_path),
            args.queries.as_deref(),
            args.stats.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        match write_atomically(out, &inputs, &files) {
            Ok(()) => written = Some(out.clone()),
            Err(e) => return plain(e.to_string(), json_out, color),
        }
    }
    let code = if !dry.ok() || p.flagged().next().is_some() {
        1
    } else {
        0
    };
    let stdout = render(&p, &dry, &files, written.as_deref(), json_out, model);
    Output {
        stdout,
        stderr: String::new(),
        code,
    }
}

/// OLD's and NEW's paths (OLD is `None` with `--cluster`: the deployed
/// schema), or what is wrong with the arguments.
fn schema_paths(args: &MigrateArgs, live: bool) -> Result<(Option<&Path>, &Path), &'static str> {
    match (args.schemas.as_slice(), live) {
        ([old, new], false) => Ok((Some(old.as_path()), new.as_path())),
        ([new], true) => Ok((None, new.as_path())),
        ([_], false) => Err("give OLD and NEW, or --cluster HOST and NEW"),
        _ => Err("with --cluster, give only NEW: OLD is the deployed schema"),
    }
}

/// OLD (a file, or the cluster's deployed schema) and NEW, loaded.
fn load_old_and_new(
    args: &MigrateArgs,
    old_path: Option<&Path>,
    new_path: &Path,
    sources: &mut SourceMap,
) -> Result<(LoadedSchema, LoadedSchema), Vec<Diagnostic>> {
    let mut old = match old_path {
        Some(path) => load(path, sources)?,
        None => crate::live_schema::load_live_schema(&args.cluster.options(), sources)
            .map_err(|e| vec![Diagnostic::error("input", e)])?,
    };
    let new = load(new_path, sources)?;
    // The cluster holds every keyspace; NEW describes the ones being changed.
    // Keyspaces NEW does not name are left out of OLD, never planned as drops.
    if old_path.is_none() {
        old.schema
            .keyspaces
            .retain(|name, _| new.schema.keyspaces.contains_key(name));
    }
    Ok((old, new))
}

/// The summary (text) or the plan (JSON: the changes, each also under `table`,
/// the dry run, and the files written).
fn render(
    p: &cqlmodel_migrate::Plan,
    dry: &cqlmodel_migrate::DryRun,
    files: &[cqlmodel_migrate::OutputFile],
    written: Option<&Path>,
    json_out: bool,
    model: &mut Model,
) -> String {
    let document = model.document(json_out, || {
        let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
        if let Some(changes) = v.get_mut("changes").and_then(Value::as_array_mut) {
            for c in changes {
                let object = c.get("object").cloned().unwrap_or(Value::Null);
                if let Some(m) = c.as_object_mut() {
                    m.insert("table".into(), object);
                }
            }
        }
        if let Some(m) = v.as_object_mut() {
            m.insert(
                "dry_run".into(),
                serde_json::to_value(dry).unwrap_or(Value::Null),
            );
            m.insert(
                "files".into(),
                json!(
                    written
                        .as_ref()
                        .map(|_| files.iter().map(|f| f.path.clone()).collect::<Vec<_>>())
                ),
            );
        }
        v
    });
    document.unwrap_or_else(|| {
        let mut s = cqlmodel_migrate::summary::summary(p, dry);
        if let Some(out) = &written {
            s.push_str(&format!(
                "wrote {} files to {}\n",
                files.len(),
                out.display()
            ));
        }
        s
    })
}

/// Why the output directory was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    #[error("--out {out}: it holds, or lies inside, the input {input}; choose another directory")]
    HoldsInput { out: String, input: String },
    #[error("--out {0}: a file of that name exists; give a directory")]
    NotADirectory(String),
    #[error(
        "--out {0}: the directory holds files but no runbook.md: not a previous migrate output, left alone"
    )]
    NotOurs(String),
    #[error("--out {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutError + '_ {
    move |source| OutError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The absolute form of a path that may not exist yet (its parent must).
fn absolute(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let parent = parent
        .canonicalize()
        .unwrap_or_else(|_| parent.to_path_buf());
    match path.file_name() {
        Some(name) => parent.join(name),
        None => parent,
    }
}

/// Writes every file into a fresh directory next to `out`, then swaps it into
/// place: a reader never sees half a plan, and a failure leaves `out` as it was.
/// Refuses a directory that holds an input, and one that is not a previous output.
pub fn write_atomically(
    out: &Path,
    inputs: &[&Path],
    files: &[cqlmodel_migrate::OutputFile],
) -> Result<(), OutError> {
    let out_abs = absolute(out);
    for input in inputs {
        let input_abs = absolute(input);
        // Nor inside an input directory: the plan would become part of the schema.
        let inside_input_dir = input_abs.is_dir() && out_abs.starts_with(&input_abs);
        if input_abs.starts_with(&out_abs) || inside_input_dir {
            return Err(OutError::HoldsInput {
                out: out.display().to_string(),
                input: input.display().to_string(),
            });
        }
    }
    if out_abs.is_file() {
        return Err(OutError::NotADirectory(out.display().to_string()));
    }
    if out_abs.is_dir() {
        let mut entries = std::fs::read_dir(&out_abs).map_err(io(out))?;
        if entries.next().is_some() && !out_abs.join("runbook.md").is_file() {
            return Err(OutError::NotOurs(out.display().to_string()));
        }
    }
    let parent = out_abs.parent().unwrap_or(Path::new("."));
    let name = out_abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "migrate".into());
    let temp = parent.join(format!(".{name}.migrate-tmp-{}", std::process::id()));
    if temp.exists() {
        std::fs::remove_dir_all(&temp).map_err(io(&temp))?;
    }
    for f in files {
        let path = temp.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::write(&path, &f.contents).map_err(io(&path))?;
    }
    if out_abs.exists() {
        let old = parent.join(format!(".{name}.migrate-old-{}", std::process::id()));
        std::fs::rename(&out_abs, &old).map_err(io(out))?;
        std::fs::rename(&temp, &out_abs).map_err(io(out))?;
        std::fs::remove_dir_all(&old).map_err(io(&old))?;
    } else {
        std::fs::rename(&temp, &out_abs).map_err(io(out))?;
    }
    Ok(())
}

/// Now, for cqlmigrate's file names: `SOURCE_DATE_EPOCH` when set (reproducible
/// output, as in reproducible builds), else the clock.
pub fn epoch_seconds() -> u64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}
