//! `cqlmodel`: a workbench for Apache Cassandra and ScyllaDB data modeling.
//!
//! Exit codes: 0 ok, 1 findings or invalid statements, 2 usage or input errors.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use cqlmodel_cli::explain::{self, Queries};
use cqlmodel_cli::explain_out;
use cqlmodel_cli::html_out::{PageTarget, run_with_html};
use cqlmodel_cli::outcome;
use cqlmodel_cli::output::{
    Model, Streamed, emit, emit_streamed, emit_streaming, stdout_failed, write_stderr,
};
use cqlmodel_cli::review_cmd;
use cqlmodel_cli::token::{StreamError, hex_stream, typed_token};
use cqlmodel_diagnostics::{Diagnostic, Severity, escape_controls, render_human, render_json};
use cqlmodel_html::Page;

#[derive(Parser)]
#[command(
    name = "cqlmodel",
    version,
    about = "A workbench for Apache Cassandra and ScyllaDB data modeling"
)]
struct Cli {
    /// Output format: text and json for every command; sarif for `review` and
    /// `diagnose`; html (one self-contained page on stdout) for design, review,
    /// size, ring, diagnose and migrate; `token --hex` writes text only.
    #[arg(short = 'f', long, global = true, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Color in text output: auto (a terminal), always, never.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Print nothing but errors; the exit code tells the result.
    #[arg(short = 'q', long, global = true)]
    quiet: bool,
    /// Also write the result as one self-contained HTML page (design, review,
    /// size, ring, diagnose, migrate); stdout is unchanged. The command runs once
    /// for both.
    #[arg(long, global = true, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0 (review and diagnose), for GitHub code scanning.
    Sarif,
    /// One self-contained HTML page on stdout (design, review, size, ring,
    /// diagnose, migrate); errors and input notes as text on stderr.
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FailOn {
    Info,
    Warning,
    Error,
}

#[derive(Subcommand)]
enum Command {
    /// How Cassandra serves each statement: partitions read, filtering, index, order, or its error.
    Explain {
        /// Schema files (CQL DDL, e.g. DESCRIBE KEYSPACE output) or directories of `*.cql`.
        #[arg(required = true)]
        schema: Vec<PathBuf>,
        /// One statement to explain.
        #[arg(long, conflicts_with = "queries")]
        query: Option<String>,
        /// A file of statements (`-- @name NAME` comments name them).
        #[arg(long, required_unless_present = "query")]
        queries: Option<PathBuf>,
        /// The session keyspace for unqualified table names (default: the schema's
        /// only keyspace, or the last `USE`).
        #[arg(long)]
        keyspace: Option<String>,
    },
    /// Partition sizes per table from workload statistics: rows, bytes, growth, bucketing.
    Size(SizeCommand),
    /// Token ownership per node, and a table's data and request shares from its statistics.
    Ring(cqlmodel_cli::ring_cmd::RingArgs),
    /// The schema review: every table and query against the anti-pattern checklist.
    Review(ReviewCommand),
    /// From a relational model (PostgreSQL DDL) and its SQL queries to a Cassandra
    /// schema, queries, write paths and a report with Chebotko diagrams.
    Design(DesignCommand),
    /// Plan the change from the schema you have (OLD) to the one you need (NEW):
    /// in-place ALTERs, refusals with Cassandra's messages, phased rebuilds.
    Migrate(cqlmodel_cli::migrate_cmd::MigrateArgs),
    /// Saved nodetool tablestats/tablehistograms/status (or a live cluster): large, wide
    /// and skewed partitions, tombstones, SSTables per read, hot tables, and the key change.
    Diagnose(cqlmodel_cli::diagnose_cmd::DiagnoseArgs),
    /// List the review rules, or print one rule's documentation.
    Rules {
        /// A rule name or code.
        name: Option<String>,
    },
    /// Shell completions for bash, zsh, fish, elvish or PowerShell, on stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// The manual page (roff), on stdout: `cqlmodel man > cqlmodel.1`.
    Man,
    /// The Murmur3 token of a partition key.
    Token {
        /// CQL types of the key components, comma-separated (default: text).
        #[arg(long = "type", default_value = "text")]
        types: String,
        /// Read hex keys from FILE (`-`: stdin), one per line, components separated by `,`.
        #[arg(long, value_name = "FILE")]
        hex: Option<PathBuf>,
        /// The key's values, comma-separated (CQL literals; bare words are strings).
        #[arg(required_unless_present = "hex", conflicts_with = "hex")]
        values: Option<String>,
    },
}

// `review`'s arguments (a plain comment: a doc comment would become the
// subcommand's about text).
#[derive(clap::Args)]
struct ReviewCommand {
    /// Schema files (CQL DDL, e.g. DESCRIBE KEYSPACE output) or directories of `*.cql`.
    #[arg(required_unless_present = "cluster", conflicts_with = "cluster")]
    schema: Vec<PathBuf>,
    /// The application's statements, annotated (`-- @name q @rate 200/s @cl LOCAL_QUORUM`).
    #[arg(long)]
    queries: Option<PathBuf>,
    /// Workload statistics (TOML; see docs/stats.md): sizes, cardinalities, growth.
    #[arg(long)]
    stats: Option<PathBuf>,
    /// Rule levels and thresholds (default: ./cqlmodel.toml when present).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The session keyspace for unqualified table names in the queries; with
    /// --cluster, only this keyspace of the deployed schema is reviewed.
    #[arg(long)]
    keyspace: Option<String>,
    /// Exit 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Review the deployed schema of a live cluster instead of schema files.
    #[command(flatten)]
    cluster: cqlmodel_cli::cluster_args::ClusterArgs,
}

// `size`'s arguments.
#[derive(clap::Args)]
struct SizeCommand {
    /// Schema files or directories of `*.cql`.
    #[arg(required_unless_present = "cluster", conflicts_with = "cluster")]
    schema: Vec<PathBuf>,
    /// The statistics file (TOML; see docs/stats.md); with --cluster, its column sizes
    /// and thresholds correct the assumed row size (measured figures win).
    #[arg(long, required_unless_present = "cluster")]
    stats: Option<PathBuf>,
    /// Only this table (`ks.t`, or `t` when unambiguous).
    #[arg(long)]
    table: Option<String>,
    /// The keyspace of a schema that creates none (run as `cqlsh -k KS -f
    /// schema.cql`): its tables are read into KS, of unknown replication.
    #[arg(long, conflicts_with = "cluster")]
    keyspace: Option<String>,
    /// Measured sizes of a live cluster's tables instead of assumed statistics.
    #[command(flatten)]
    cluster: cqlmodel_cli::cluster_args::ClusterArgs,
}

// `design`'s arguments.
#[derive(clap::Args)]
struct DesignCommand {
    /// The relational model, as `pg_dump --schema-only` writes it.
    model: PathBuf,
    /// The SQL queries and mutations, annotated (`-- @name q @rate 200/s`).
    #[arg(long)]
    queries: Option<PathBuf>,
    /// Workload statistics of the relational entities (TOML; docs/stats.md).
    #[arg(long)]
    stats: Option<PathBuf>,
    /// The output directory (schema.cql, queries.cql, report.md, diagrams/): new,
    /// empty, or written by an earlier design (it holds `.cqlmodel-manifest`).
    #[arg(short = 'o', long)]
    out: PathBuf,
    /// Write into a non-empty directory cqlmodel did not write: only the
    /// design's files are replaced, every other file is left alone.
    #[arg(long)]
    force: bool,
    /// The schema deployed today (CQL file or directory): the migration from it
    /// to the design is written next to it (migration.md, migration/).
    #[arg(long)]
    existing: Option<PathBuf>,
    /// The age at which an entity that grows with no retention is sized
    /// (`3y`, `540d`); default 3y. An entity's
    /// `horizon` in the statistics file wins for that entity.
    #[arg(long, value_parser = parse_horizon)]
    horizon: Option<u64>,
    /// With --existing: a regular column CURRENT has and the design names
    /// differently (`KS.TABLE.OLD=NEW`, repeatable), as for `migrate --rename`.
    #[arg(
        long = "rename",
        value_name = "KS.TABLE.OLD=NEW",
        requires = "existing"
    )]
    renames: Vec<String>,
    /// With --existing: the database the migration is for.
    #[arg(long, value_enum, requires = "existing")]
    target: Option<cqlmodel_cli::migrate_cmd::TargetArg>,
    /// With --existing: how the migration's CQL scripts are named.
    #[arg(long, value_enum, requires = "existing")]
    layout: Option<cqlmodel_cli::migrate_cmd::LayoutArg>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    cqlmodel_cli::output::set_quiet(cli.quiet);
    if let Some(message) = unsupported_format(&cli.command, cli.format) {
        return ExitCode::from(usage(&message));
    }
    let html = cli.html.as_deref();
    let html_page = html_page(&cli.command);
    if html.is_some() && html_page.is_none() {
        return ExitCode::from(usage(
            "--html is for design, review, size, ring, diagnose and migrate",
        ));
    }
    let run = RunSettings {
        target: PageTarget {
            page: html_page.unwrap_or(Page::Review),
            file: html,
            stdout: cli.format == Format::Html,
        },
        format: cli.format,
        json: cli.format == Format::Json,
        color,
    };
    ExitCode::from(run_command(cli.command, &run))
}

/// What every command takes from the global flags.
struct RunSettings<'a> {
    /// Where the HTML page goes, if anywhere.
    target: PageTarget<'a>,
    format: Format,
    /// `--format json`.
    json: bool,
    color: bool,
}

/// Runs one command; returns the exit code.
fn run_command(command: Command, run: &RunSettings) -> u8 {
    match command {
        Command::Explain {
            schema,
            query,
            queries,
            keyspace,
        } => {
            let queries = match (query, queries) {
                (Some(q), _) => Queries::Inline(q),
                (None, Some(f)) => Queries::File(f),
                (None, None) => return usage("give --query or --queries"),
            };
            run_explain(
                &schema,
                &queries,
                keyspace.as_deref(),
                run.format,
                run.color,
            )
        }
        Command::Review(args) => run_review(&args, run),
        Command::Rules { name } => match run.format {
            Format::Json => emit_output(cqlmodel_cli::rules_json::rules_json(name.as_deref())),
            _ => emit_output(review_cmd::rules(name.as_deref())),
        },
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "cqlmodel", &mut out);
            emit(&String::from_utf8_lossy(&out), "", 0)
        }
        Command::Man => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => emit(&String::from_utf8_lossy(&out), "", 0),
                Err(e) => usage(&format!("cannot render the manual page: {e}")),
            }
        }
        Command::Migrate(args) => run_migrate(&args, run),
        Command::Diagnose(args) => run_diagnose(&args, run),
        Command::Design(args) => run_design(args, run),
        Command::Size(args) => run_size(&args, run),
        Command::Ring(args) => run_ring(&args, run),
        Command::Token { types, hex, values } => match (hex, values) {
            (Some(path), _) => run_hex_stream(&path),
            (None, Some(values)) => run_typed_token(&types, &values, run.format),
            (None, None) => usage("give the key's values, or --hex -"),
        },
    }
}

fn run_review(cli: &ReviewCommand, run: &RunSettings) -> u8 {
    let format = review_format(run.format);
    let args = |json: bool| review_cmd::ReviewArgs {
        schema: cli.schema.clone(),
        queries: cli.queries.clone(),
        stats: cli.stats.clone(),
        config: cli.config.clone(),
        keyspace: cli.keyspace.clone(),
        cluster: cli.cluster.clone(),
        fail_on: match cli.fail_on {
            FailOn::Info => Severity::Info,
            FailOn::Warning => Severity::Warning,
            FailOn::Error => Severity::Error,
        },
        format: if json {
            outcome::ReviewFormat::Json
        } else {
            format
        },
        color: run.color,
    };
    let mut inputs: Vec<&Path> = cli.schema.iter().map(PathBuf::as_path).collect();
    inputs.extend(
        [&cli.queries, &cli.stats, &cli.config]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path),
    );
    let json = run.json;
    if !run.target.wanted() {
        // No page: the report goes to stdout as it is rendered.
        let args = args(json);
        return match review_cmd::review_run(&args, &mut Model::unwanted()) {
            Ok(reviewed) => emit_streamed(&reviewed.stderr(&args), reviewed.code(), |out| {
                reviewed.write_stdout(&args, out)
            }),
            Err(out) => emit_output(out),
        };
    }
    let review = |model: &mut _| review_cmd::run_once(&args(json), model);
    emit_output(run_with_html(run.target, &inputs, json, review))
}

fn run_migrate(args: &cqlmodel_cli::migrate_cmd::MigrateArgs, run: &RunSettings) -> u8 {
    let epoch = cqlmodel_cli::migrate_cmd::epoch_seconds();
    let migrate = |model: &mut _| {
        cqlmodel_cli::migrate_cmd::run_once(args, run.json, run.color, epoch, model)
    };
    let mut inputs: Vec<&Path> = args.schemas.iter().map(PathBuf::as_path).collect();
    inputs.extend(
        [&args.queries, &args.stats]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path),
    );
    emit_output(run_with_html(run.target, &inputs, run.json, migrate))
}

fn run_diagnose(args: &cqlmodel_cli::diagnose_cmd::DiagnoseArgs, run: &RunSettings) -> u8 {
    let format = review_format(run.format);
    let diagnose =
        |model: &mut _| cqlmodel_cli::diagnose_cmd::run_once(args, format, run.color, model);
    let inputs: Vec<&Path> = args
        .inputs
        .iter()
        .chain(&args.schema)
        .map(PathBuf::as_path)
        .collect();
    emit_output(run_with_html(run.target, &inputs, run.json, diagnose))
}

fn run_design(cli: DesignCommand, run: &RunSettings) -> u8 {
    let migration = cqlmodel_cli::design_existing::MigrationOptions {
        renames: cli.renames,
        target: cli.target.map(Into::into).unwrap_or_default(),
        layout: cli.layout.map(Into::into).unwrap_or_default(),
    };
    let files = cqlmodel_cli::design_cmd::DesignFiles {
        model: &cli.model,
        queries: cli.queries.as_deref(),
        stats: cli.stats.as_deref(),
        existing: cli.existing.as_deref(),
        horizon: cli.horizon,
        migration: &migration,
    };
    let design = |model: &mut _| {
        let options = cqlmodel_design::WriteOptions { force: cli.force };
        let (stdout, stderr, code) = cqlmodel_cli::design_cmd::run_once(
            &files, &cli.out, options, run.json, run.color, model,
        );
        outcome::Output {
            stdout,
            stderr,
            code,
        }
    };
    let mut inputs: Vec<&Path> = vec![&cli.model];
    inputs.extend(
        [&cli.queries, &cli.stats]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path),
    );
    emit_output(run_with_html(run.target, &inputs, run.json, design))
}

fn run_size(cli: &SizeCommand, run: &RunSettings) -> u8 {
    let size = |model: &mut _| {
        let (stdout, stderr, code) = match &cli.stats {
            Some(stats) if !cli.cluster.is_set() => cqlmodel_cli::size::run_once(
                cqlmodel_cli::size::SizeInputs {
                    schema: &cli.schema,
                    stats,
                    table: cli.table.as_deref(),
                    keyspace: cli.keyspace.as_deref(),
                },
                run.json,
                run.color,
                model,
            ),
            _ => cqlmodel_cli::size_live::run_once(
                &cqlmodel_cli::size_live::SizeLiveArgs {
                    cluster: cli.cluster.clone(),
                    table: cli.table.clone(),
                    stats: cli.stats.clone(),
                },
                run.json,
                run.color,
                model,
            ),
        };
        outcome::Output {
            stdout,
            stderr,
            code,
        }
    };
    let mut inputs: Vec<&Path> = cli.schema.iter().map(PathBuf::as_path).collect();
    inputs.extend(cli.stats.as_deref());
    emit_output(run_with_html(run.target, &inputs, run.json, size))
}

fn run_ring(args: &cqlmodel_cli::ring_cmd::RingArgs, run: &RunSettings) -> u8 {
    let json = run.json;
    let ring = |model: &mut _| {
        let (out, err, code) = cqlmodel_cli::ring_cmd::run_once(args.clone(), json, model);
        // Ring text has no color: datacenter and node names from the
        // topology file are escaped with the rest.
        let stdout = if json {
            out
        } else {
            escape_controls(&out).into_owned()
        };
        outcome::Output {
            stdout,
            stderr: escape_controls(&err).into_owned(),
            code,
        }
    };
    let inputs: Vec<&Path> = [&args.topology, &args.stats]
        .into_iter()
        .flatten()
        .chain(args.schema.iter().chain(&args.schema_flag))
        .map(PathBuf::as_path)
        .collect();
    emit_output(run_with_html(run.target, &inputs, json, ring))
}

/// The HTML page of a command, `None` for the commands without one.
fn html_page(command: &Command) -> Option<Page> {
    match command {
        Command::Design(_) => Some(Page::Design),
        Command::Review(_) => Some(Page::Review),
        Command::Size(_) => Some(Page::Size),
        Command::Ring(_) => Some(Page::Ring),
        Command::Diagnose(_) => Some(Page::Diagnose),
        Command::Migrate(_) => Some(Page::Migrate),
        _ => None,
    }
}

fn review_format(format: Format) -> outcome::ReviewFormat {
    match format {
        Format::Text => outcome::ReviewFormat::Text,
        Format::Json => outcome::ReviewFormat::Json,
        Format::Sarif => outcome::ReviewFormat::Sarif,
        // The page is rendered from the JSON model; stdout's text is dropped
        // and stderr keeps the text diagnostics.
        Format::Html => outcome::ReviewFormat::Text,
    }
}

fn emit_output(out: outcome::Output) -> u8 {
    emit(&out.stdout, &out.stderr, out.code)
}

fn usage(message: &str) -> u8 {
    write_stderr(&format!("error: {message}\n"));
    2
}

fn run_explain(
    schema: &[PathBuf],
    queries: &Queries,
    keyspace: Option<&str>,
    format: Format,
    color: bool,
) -> u8 {
    match format {
        Format::Json | Format::Sarif => run_explain_json(schema, queries, keyspace),
        Format::Text | Format::Html => emit_streaming(|out| {
            // Each statement goes out once explained; after a write error
            // the rest is explained for the exit code only.
            let mut written = Ok(());
            let ending = explain::explain_each(schema, queries, keyspace, |e, sources| {
                if written.is_ok() {
                    written = explain_out::write_text(out, &e, sources, color);
                }
            });
            let ending = match ending {
                Ok(ending) => ending,
                Err(e) => return Streamed::failed(format!("error: {e}\n")),
            };
            if written.is_ok() {
                written = explain_out::write_text_tally(out, &ending.tally);
            }
            let mut err = String::new();
            if !ending.input_errors.is_empty() {
                err = render_human(&ending.input_errors, &ending.sources, color) + "\n";
            }
            Streamed {
                written,
                stderr: err,
                code: u8::try_from(ending.exit_code()).unwrap_or(2),
            }
        }),
    }
}

/// `explain --format json`: the rows are held as text (not as syntax trees)
/// until the end, when the document's shape is known.
fn run_explain_json(schema: &[PathBuf], queries: &Queries, keyspace: Option<&str>) -> u8 {
    let mut rows = explain_out::JsonRows::default();
    let ending = explain::explain_each(schema, queries, keyspace, |e, sources| {
        rows.push(&e, sources);
    });
    let ending = match ending {
        Ok(ending) => ending,
        Err(e) => return input_error(&e.to_string(), Format::Json),
    };
    let code = u8::try_from(ending.exit_code()).unwrap_or(2);
    emit_streamed("", code, |out| {
        rows.write_document(out, &ending.input_errors, &ending.sources)
    })
}

fn run_typed_token(types: &str, values: &str, format: Format) -> u8 {
    match typed_token(types, values) {
        Ok(t) => match format {
            Format::Json | Format::Sarif => emit(&json_text(&t), "", 0),
            Format::Text | Format::Html => emit(&format!("{}\n", t.token), "", 0),
        },
        Err(e) => input_error(&e.to_string(), format),
    }
}

/// Which formats each command writes; `None` when `format` is one of them.
fn unsupported_format(command: &Command, format: Format) -> Option<String> {
    if format == Format::Html && html_page(command).is_none() {
        return Some(
            "--format html is for design, review, size, ring, diagnose and migrate".into(),
        );
    }
    let name = match command {
        Command::Review(_) | Command::Diagnose(_) => return None,
        Command::Token { hex: Some(_), .. } if format != Format::Text => {
            return Some("`token --hex` writes one token per line: text only".into());
        }
        Command::Completions { .. } | Command::Man if format != Format::Text => {
            return Some("completions and the manual page are text only".into());
        }
        _ if format != Format::Sarif => return None,
        Command::Explain { .. } => "explain",
        Command::Size(_) => "size",
        Command::Ring(_) => "ring",
        Command::Design(_) => "design",
        Command::Rules { .. } => "rules",
        Command::Migrate(_) => "migrate",
        Command::Token { .. } => "token",
        Command::Completions { .. } | Command::Man => "this command",
    };
    Some(format!(
        "--format sarif is only for `review` and `diagnose`; `{name}` writes text or json"
    ))
}

fn run_hex_stream(path: &std::path::Path) -> u8 {
    let input: Box<dyn std::io::Read> = if path == std::path::Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                write_stderr(&format!("error: {}: cannot read: {e}\n", path.display()));
                return 2;
            }
        }
    };
    let stdout: Box<dyn std::io::Write> = if cqlmodel_cli::output::quiet() {
        Box::new(std::io::sink())
    } else {
        Box::new(std::io::stdout().lock())
    };
    match hex_stream(input, stdout) {
        Ok(_) => 0,
        Err(StreamError::Write(e)) => stdout_failed(&e),
        Err(e) => {
            write_stderr(&format!("error: {e}\n"));
            2
        }
    }
}

/// An input error: on stderr as text, on stdout as `{"errors": [...]}` in JSON. Exit 2.
fn input_error(message: &str, format: Format) -> u8 {
    match format {
        Format::Json | Format::Sarif => {
            let d = Diagnostic::error("input", message);
            let sources = cqlmodel_diagnostics::SourceMap::new();
            let value = serde_json::json!({ "errors": render_json(&[d], &sources) });
            emit(&json_text(&value), "", 2)
        }
        Format::Text | Format::Html => emit("", &format!("error: {message}\n"), 2),
    }
}

fn json_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// `--horizon 3y`: a duration as the statistics file writes one, in seconds.
fn parse_horizon(text: &str) -> Result<u64, String> {
    match cqlmodel_stats::units::parse_duration(text) {
        Ok(0) => Err("the horizon must be longer than zero".into()),
        Ok(s) => Ok(s),
        Err(e) => Err(e.to_string()),
    }
}
