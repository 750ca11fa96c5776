//! `cqlmodel.toml`: turn rules off, change their severity, set thresholds.
//!
//! ```toml
//! [rules]
//! allow-filtering = "error"     # off | info | warning | error
//! unused-table = "off"
//!
//! [thresholds]
//! scatter_gather_partitions = 10
//! high_rate_per_second = 1000
//! ```

use std::collections::BTreeMap;

use cqlmodel_diagnostics::Severity;
use serde::Deserialize;

/// A rule's configured level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

/// Numbers the rules compare against. Every field has a documented default.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// `scatter-gather`: partitions one IN may name before it is a scatter-gather read.
    pub scatter_gather_partitions: u64,
    /// Executions per second from which a query is on a high-rate path
    /// (`scatter-gather`, `lwt-hot-path`, `compaction-mismatch` for LCS).
    pub high_rate_per_second: f64,
    /// `materialized-view-write-heavy`: writes per second to a base table above which a view is a warning.
    pub view_write_rate_per_second: f64,
    /// `large-partition`: bytes.
    pub partition_bytes: u64,
    /// `large-partition`: rows.
    pub partition_rows: u64,
    /// `multi-partition-batch`: partitions a LOGGED batch may span before it is a warning.
    pub logged_batch_partitions: u64,
    /// `hot-partition`: a partition key with at most this many distinct values (by
    /// statistics) concentrates data and requests on a few replicas. Default 100.
    pub hot_partition_keys: u64,
    /// `large-value`: bytes from which one value (a blob, a collection) is large. Default 1 MiB.
    pub large_value_bytes: u64,
    /// `large-value`: elements from which a non-frozen collection is large. Default 1,000.
    pub collection_elements: u64,
    /// `secondary-index-misuse`: UPDATEs per second of an indexed column from which it
    /// is frequently updated (each one leaves a tombstone in a legacy index). Default 100.
    pub index_update_rate_per_second: f64,
    /// `scatter-gather`: the cluster's `partition_keys_in_select_warn_threshold`
    /// guardrail (cassandra.yaml). Cassandra 5.0 ships it off (-1); set it to
    /// the cluster's value to have the review say what the cluster will warn.
    pub partition_keys_in_select_warn_threshold: Option<u64>,
    /// `scatter-gather`: the cluster's `partition_keys_in_select_fail_threshold`
    /// guardrail: a SELECT naming more partition keys is refused (an error).
    pub partition_keys_in_select_fail_threshold: Option<u64>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            scatter_gather_partitions: 10,
            high_rate_per_second: 1000.0,
            view_write_rate_per_second: 300.0,
            partition_bytes: 100 * 1024 * 1024,
            partition_rows: 100_000,
            logged_batch_partitions: 5,
            hot_partition_keys: 100,
            large_value_bytes: 1024 * 1024,
            collection_elements: 1_000,
            index_update_rate_per_second: 100.0,
            partition_keys_in_select_warn_threshold: None,
            partition_keys_in_select_fail_threshold: None,
        }
    }
}

/// Which deployment the schema is reviewed for: `production` keeps the
/// replication findings on every keyspace; `auto` (the default) treats keyspaces
/// named like a development or test sandbox (`dev`, `test`, `sandbox`, `local`,
/// `demo`, `tutorial`) as such (their replication findings are info).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    #[default]
    Auto,
    Production,
}

/// What the schema cannot show about one table (`[tables."ks.t"]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableHints {
    /// The TTL the application writes rows with (`"30d"`, `"12h"`, `"3600s"`):
    /// rows expire even though the table has no `default_time_to_live`.
    pub ttl: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Config {
    pub levels: BTreeMap<String, Level>,
    pub thresholds: Thresholds,
    pub profile: Profile,
    /// Per-table hints by `ks.t`, TTLs already converted to seconds.
    pub table_ttls: BTreeMap<String, u64>,
    /// The schema was read from a live cluster (`review --cluster`): there is no
    /// schema file, so advice never points at annotations above a CREATE TABLE.
    pub deployed: bool,
    /// What the producer of the CQL knows of its columns (`cqlmodel design`
    /// reviewing its own output); `None` for user CQL (never from the file).
    pub provenance: Option<crate::provenance::Provenance>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    rules: BTreeMap<String, String>,
    #[serde(default)]
    thresholds: Thresholds,
    #[serde(default)]
    profile: Profile,
    #[serde(default)]
    tables: BTreeMap<String, TableHints>,
}

/// `"30d"`, `"12h"`, `"90m"`, `"3600s"`, `"2w"`, `"1y"` or a bare number of
/// seconds, as seconds.
pub fn parse_duration(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "" | "s" => 1,
        "m" | "min" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        "y" => 365 * 86_400,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// A bad configuration file, with the byte range of the problem.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    pub message: String,
    pub span: Option<std::ops::Range<usize>>,
}

impl Config {
    /// Parses `cqlmodel.toml`; `known` are the rule names that may be configured.
    pub fn parse(text: &str, known: &[&str]) -> Result<Self, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError {
            message: e.message().to_string(),
            span: e.span(),
        })?;
        let mut levels = BTreeMap::new();
        for (name, level) in raw.rules {
            if !known.contains(&name.as_str()) {
                return Err(ConfigError {
                    message: format!("unknown rule `{name}` in [rules] (see `cqlmodel rules`)"),
                    span: find_key(text, &name),
                });
            }
            let level = match level.to_ascii_lowercase().as_str() {
                "off" => Level::Off,
                "info" => Level::On(Severity::Info),
                "warning" | "warn" => Level::On(Severity::Warning),
                "error" => Level::On(Severity::Error),
                other => {
                    return Err(ConfigError {
                        message: format!(
                            "rule `{name}`: level must be off, info, warning or error, got `{other}`"
                        ),
                        span: find_key(text, &name),
                    });
                }
            };
            levels.insert(name, level);
        }
        let mut table_ttls = BTreeMap::new();
        for (table, hints) in raw.tables {
            let Some(ttl) = hints.ttl else { continue };
            let Some(seconds) = parse_duration(&ttl) else {
                return Err(ConfigError {
                    message: format!(
                        "table `{table}`: ttl must be a duration such as \"30d\", \"12h\" or \"3600s\", got `{ttl}`"
                    ),
                    span: find_key(text, &table),
                });
            };
            table_ttls.insert(table, seconds);
        }
        Ok(Self {
            levels,
            thresholds: raw.thresholds,
            profile: raw.profile,
            table_ttls,
            deployed: false,
            provenance: None,
        })
    }

    pub fn level(&self, rule: &str) -> Option<Level> {
        self.levels.get(rule).copied()
    }
}

fn find_key(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    text.find(key).map(|start| start..start + key.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_seconds() {
        assert_eq!(parse_duration("30d"), Some(2_592_000));
        assert_eq!(parse_duration("12h"), Some(43_200));
        assert_eq!(parse_duration("3600"), Some(3_600));
        assert_eq!(parse_duration("90 min"), Some(5_400));
        assert_eq!(parse_duration("ten days"), None);
        assert_eq!(parse_duration("5x"), None);
    }

    #[test]
    fn table_ttls_and_profile_are_read() {
        let text = "profile = \"production\"\n[tables.\"app.events\"]\nttl = \"7d\"\n";
        let config = Config::parse(text, &[]).expect("valid");
        assert_eq!(config.profile, Profile::Production);
        assert_eq!(config.table_ttls.get("app.events"), Some(&604_800));
        let bad = Config::parse("[tables.\"app.events\"]\nttl = \"soon\"\n", &[]);
        assert!(bad.is_err_and(|e| e.message.contains("app.events")));
    }
}
