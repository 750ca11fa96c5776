//! How to reach a cluster: one definition of `--cluster`, `--username`,
//! `--password`, `--ssl`, `--ca-file`, `--cert`, `--key`, `--dc` and
//! `--connect-timeout`, flattened
//! into every command that reads a live cluster (diagnose, migrate, review, size).

use std::path::PathBuf;
use std::time::Duration;

use cqlmodel_cluster::ClusterOptions;

/// How to reach a cluster, as every `--cluster` command takes it.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ClusterArgs {
    /// Read a live cluster (repeatable): the deployed schema from `system_schema`, and
    /// what the command needs of each node's system tables, with read-only SELECTs.
    #[arg(long, value_name = "HOST[:PORT]")]
    pub cluster: Vec<String>,
    /// User for --cluster (default: $CQLMODEL_USERNAME).
    #[arg(long, requires = "cluster")]
    pub username: Option<String>,
    /// Password for --cluster (default: $CQLMODEL_PASSWORD).
    #[arg(long, requires = "cluster")]
    pub password: Option<String>,
    /// Connect to --cluster with TLS.
    #[arg(long, requires = "cluster")]
    pub ssl: bool,
    /// The CA certificate (PEM) that signed the nodes' certificates (implies --ssl).
    #[arg(long, value_name = "PEM", requires = "cluster")]
    pub ca_file: Option<PathBuf>,
    /// A client certificate (PEM) for nodes that require one (require_client_auth;
    /// implies --ssl; needs --key).
    #[arg(long, value_name = "PEM", requires_all = ["cluster", "key"])]
    pub cert: Option<PathBuf>,
    /// The private key (PEM, unencrypted) of --cert.
    #[arg(long, value_name = "PEM", requires_all = ["cluster", "cert"])]
    pub key: Option<PathBuf>,
    /// The local datacenter: requests go to its nodes, and only its nodes' tables are read.
    #[arg(long, value_name = "DATACENTER", requires = "cluster")]
    pub dc: Option<String>,
    /// Seconds to wait for the cluster before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    pub connect_timeout: u64,
}

impl ClusterArgs {
    /// A cluster was named.
    pub fn is_set(&self) -> bool {
        !self.cluster.is_empty()
    }

    /// The connection options; a missing user or password falls back to
    /// `$CQLMODEL_USERNAME` / `$CQLMODEL_PASSWORD`.
    pub fn options(&self) -> ClusterOptions {
        ClusterOptions {
            contact_points: self.cluster.clone(),
            username: self
                .username
                .clone()
                .or_else(|| std::env::var("CQLMODEL_USERNAME").ok()),
            password: self
                .password
                .clone()
                .or_else(|| std::env::var("CQLMODEL_PASSWORD").ok()),
            connect_timeout: Duration::from_secs(self.connect_timeout.max(1)),
            ssl: self.ssl,
            ca_file: self.ca_file.clone(),
            client_cert: self.cert.clone(),
            client_key: self.key.clone(),
            datacenter: self.dc.clone(),
        }
    }

    /// How the cluster is named in the output: `cluster 10.0.0.1, 10.0.0.2`.
    pub fn label(&self) -> String {
        format!("cluster {}", self.cluster.join(", "))
    }
}
