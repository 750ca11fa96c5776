//! One table seen from every node: its tablestats per node and its histograms,
//! with the cluster-wide measures the checks read (the worst node's percentile,
//! the sum of counts).

use std::collections::HashMap;

use crate::model::{InputFormat, NodeStats, Percentile, TableHistogram, TableStats};

pub use cqlmodel_schema::is_system_keyspace;

#[derive(Debug, Clone)]
pub struct TableView<'a> {
    pub keyspace: String,
    pub table: String,
    /// Node name → that node's tablestats line for the table.
    pub nodes: Vec<(&'a str, &'a TableStats)>,
    pub histograms: Vec<&'a TableHistogram>,
    /// The per-node numbers were read from a live cluster's system tables, not
    /// from tablestats: findings name that source.
    pub live: bool,
}

impl<'a> TableView<'a> {
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.keyspace, self.table)
    }

    /// The worst node's value at percentile `p` of a histogram column.
    pub fn histogram_max(
        &self,
        p: Percentile,
        column: impl Fn(&crate::model::HistogramRow) -> Option<f64>,
    ) -> Option<(f64, &'a str)> {
        self.histograms
            .iter()
            .filter_map(|h| Some((column(h.row(p)?)?, h.node.as_str())))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The largest value of a tablestats field over the nodes, with its node.
    pub fn stats_max(&self, field: impl Fn(&TableStats) -> Option<f64>) -> Option<(f64, &'a str)> {
        self.nodes
            .iter()
            .filter_map(|(n, t)| Some((field(t)?, *n)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The mean of a tablestats field over the nodes that report it.
    pub fn stats_mean(&self, field: impl Fn(&TableStats) -> Option<f64>) -> Option<f64> {
        let values: Vec<f64> = self.nodes.iter().filter_map(|(_, t)| field(t)).collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The sum of a count over the nodes.
    pub fn stats_sum(&self, field: impl Fn(&TableStats) -> Option<u64>) -> u64 {
        self.nodes
            .iter()
            .filter_map(|(_, t)| field(t))
            .fold(0u64, u64::saturating_add)
    }

    /// Where a finding points: the first node's table line, else the first histogram's.
    pub fn origin(&self) -> Option<&'a crate::model::Origin> {
        self.nodes
            .first()
            .map(|(_, t)| &t.origin)
            .or_else(|| self.histograms.first().map(|h| &h.origin))
    }
}

/// Every user table, in name order, gathered from every node's outputs. A node
/// that appears twice for a table (two outputs under one name) counts once: the
/// later output wins.
pub fn table_views<'a>(
    stats: &'a [NodeStats],
    histograms: &'a [TableHistogram],
) -> Vec<TableView<'a>> {
    let mut index: HashMap<(&'a str, &'a str), usize> = HashMap::new();
    let mut views: Vec<TableView<'a>> = Vec::new();
    let mut slot = |ks: &'a str, t: &'a str| -> usize {
        *index.entry((ks, t)).or_insert_with(|| {
            views.push(empty(ks, t));
            views.len() - 1
        })
    };
    let mut node_rows: Vec<(usize, &'a str, &'a TableStats, bool)> = Vec::new();
    for node in stats {
        let live = node.format == InputFormat::Cluster;
        for t in &node.tables {
            if !is_system_keyspace(&t.keyspace) && !t.is_index {
                node_rows.push((slot(&t.keyspace, &t.table), node.node.as_str(), t, live));
            }
        }
    }
    let hist_rows: Vec<(usize, &'a TableHistogram)> = histograms
        .iter()
        .filter(|h| !is_system_keyspace(&h.keyspace))
        .map(|h| (slot(&h.keyspace, &h.table), h))
        .collect();
    for (i, node, t, live) in node_rows {
        if let Some(view) = views.get_mut(i) {
            view.live |= live;
            view.nodes.retain(|(n, _)| *n != node);
            view.nodes.push((node, t));
        }
    }
    for (i, h) in hist_rows {
        if let Some(view) = views.get_mut(i) {
            view.histograms.retain(|x| x.node != h.node);
            view.histograms.push(h);
        }
    }
    views.sort_by(|a, b| (&a.keyspace, &a.table).cmp(&(&b.keyspace, &b.table)));
    views
}

fn empty<'a>(keyspace: &str, table: &str) -> TableView<'a> {
    TableView {
        keyspace: keyspace.to_string(),
        table: table.to_string(),
        nodes: Vec::new(),
        histograms: Vec::new(),
        live: false,
    }
}
