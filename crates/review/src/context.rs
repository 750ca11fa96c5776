//! What every rule sees: the schema, the query list with access paths, the
//! configuration and the sources (for excerpts and fixes).

use std::collections::{BTreeMap, HashMap};

use crate::stats::{SizeEstimate, Stats, TableStats};
use cqlmodel_diagnostics::SourceMap;
use cqlmodel_schema::{Schema, Table};

use crate::config::Config;
use crate::query::Query;

pub struct Context<'a> {
    pub schema: &'a Schema,
    pub queries: &'a [Query],
    pub config: &'a Config,
    pub sources: &'a SourceMap,
    /// False when no query list was given: rules that need one stay silent.
    pub has_queries: bool,
    /// The workload statistics file (`--stats`), when given: rules use its numbers
    /// instead of their name-and-type heuristics.
    pub stats: Option<&'a Stats>,
    /// Partition size estimates (by `ks.t`) of the tables the statistics describe,
    /// computed once against the review's thresholds (see [`size_estimates`]).
    pub estimates: BTreeMap<String, SizeEstimate>,
    /// The positions in `queries` of the queries on each table (`ks.t`), built
    /// once by [`queries_by_table`] so that per-table lookups do not walk the
    /// whole list (10,000 tables × 50,000 queries).
    pub by_table: HashMap<String, Vec<usize>>,
    /// Tables by their partition-key columns, for the rules that look for a
    /// table serving a query.
    pub partition_keys: crate::derive_key::PartitionKeyIndex,
    /// The query list by table and column, built once for every rule.
    pub index: crate::query_index::QueryIndex<'a>,
}

/// The positions of the queries on each table: the table its access path
/// names, and each table a batch writes.
pub fn queries_by_table(queries: &[Query]) -> HashMap<String, Vec<usize>> {
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, q) in queries.iter().enumerate() {
        let mut seen: Vec<&str> = Vec::new();
        for t in q.path.table.iter().chain(&q.path.tables) {
            if !seen.contains(&t.as_str()) {
                seen.push(t);
                out.entry(t.clone()).or_default().push(i);
            }
        }
    }
    out
}

impl<'a> Context<'a> {
    /// Base tables and views, in keyspace then name order.
    pub fn tables(&self) -> impl Iterator<Item = &'a Table> {
        self.schema.tables()
    }

    /// The queries that target `table` (`ks.t`); a batch counts for each table it writes.
    pub fn queries_on(&self, table: &Table) -> impl Iterator<Item = &'a Query> + use<'a, '_> {
        self.queries_on_name(&table.qualified_name())
    }

    /// [`Self::queries_on`] by qualified name, in list order.
    pub fn queries_on_name(&self, table: &str) -> impl Iterator<Item = &'a Query> + use<'a, '_> {
        let queries = self.queries;
        self.by_table
            .get(table)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(move |i| queries.get(*i))
    }

    /// What the statistics file says about `table`, if anything.
    pub fn table_stats(&self, table: &Table) -> Option<&'a TableStats> {
        self.stats?.table(&table.qualified_name())
    }

    /// The partition size estimate of `table`, when the statistics describe it.
    pub fn estimate(&self, table: &Table) -> Option<&SizeEstimate> {
        self.estimates.get(&table.qualified_name())
    }

    /// Whether the rule named `rule` runs (not configured `off`): a rule that
    /// leaves a case to another asks this, by the other's name, instead of
    /// importing it.
    pub fn rule_enabled(&self, rule: &str) -> bool {
        self.config.level(rule) != Some(crate::config::Level::Off)
    }

    /// The source text of a table's CREATE statement, for fixes that rewrite it.
    pub fn source_of(&self, table: &Table) -> Option<&'a str> {
        let file = self.sources.get(table.origin.file)?;
        file.text.get(table.origin.span.range())
    }
}

/// The review's partition limits in the statistics crate's terms: the review
/// configuration (`cqlmodel.toml` `[thresholds]`) decides, not the statistics file.
pub fn stats_thresholds(config: &Config) -> crate::stats::Thresholds {
    crate::stats::Thresholds {
        partition_bytes: config.thresholds.partition_bytes as f64,
        partition_rows: config.thresholds.partition_rows as f64,
    }
}

/// Estimates every table that `stats` describes (tables it does not name get no
/// estimate: the rules fall back to their heuristics for them).
pub fn size_estimates(
    schema: &Schema,
    stats: Option<&Stats>,
    config: &Config,
) -> BTreeMap<String, SizeEstimate> {
    let Some(stats) = stats else {
        return BTreeMap::new();
    };
    let thresholds = stats_thresholds(config);
    schema
        .tables()
        .filter_map(|table| {
            let name = table.qualified_name();
            let table_stats = stats.table(&name)?;
            Some((
                name,
                crate::stats::estimate_table(table, table_stats, &thresholds),
            ))
        })
        .collect()
}
