//! `cqlmodel diagnose`'s arguments, apart from the command so that the live
//! reader (diagnose_live) takes them without importing the command.

use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Info,
    Warning,
    Error,
}

#[derive(Debug, Clone, clap::Args)]
pub struct DiagnoseArgs {
    /// Saved nodetool outputs: `tablestats`/`cfstats` (text, `-F json`, `-F yaml`) and
    /// `tablehistograms`/`cfhistograms`; several nodes as several files, or one file
    /// with `==> NODE <==` or `# node: NODE` headers; `nodetool status`; `-` reads stdin.
    #[arg(required_unless_present = "cluster")]
    pub inputs: Vec<PathBuf>,
    /// The live cluster (instead of or besides saved outputs): the deployed schema and
    /// each node's size estimates and metrics.
    #[command(flatten)]
    pub cluster: crate::cluster_args::ClusterArgs,
    /// The schema (CQL DDL, e.g. DESCRIBE output): gives each problem its key, the
    /// reason in terms of it, and the changed CREATE TABLE.
    #[arg(long)]
    pub schema: Vec<PathBuf>,
    /// How long the tables have held data (e.g. `30d`), to size a time bucket for a
    /// table without TTL.
    #[arg(long, value_name = "DURATION")]
    pub data_age: Option<String>,
    /// Exit 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
}
