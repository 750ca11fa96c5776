//! `cqlmodel ring`: a token ring from flags or a topology file, each node's
//! ownership as `nodetool status` shows it, and — for a table with statistics — where
//! its data and requests land and which partitions are hottest.
//!
//! The table-load part takes its samples from the statistics engine
//! (`cqlmodel-stats`) at one call site, `table_samples`.

use std::fmt::Write as _;
use std::path::PathBuf;

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceMap, render_human, render_json};
use cqlmodel_ring::{
    Allocation, LoadReport, Ownership, Ring, Topology, TopologyError, TopologyErrorKind, ownership,
    parse_topology, place_load,
};
use serde_json::{Value, json};

use cqlmodel_schema::Schema;
use cqlmodel_stats::{KeySampler, Stats, TableStats, estimate_table};

use crate::input::read_source;
use crate::output::Model;
use crate::schema_load::{load_schema, load_stats_file};

/// The arguments of `cqlmodel ring`.
#[derive(Debug, Clone, clap::Args)]
pub struct RingArgs {
    /// Nodes in one datacenter `dc1`, one rack, SimpleStrategy.
    #[arg(
        long,
        required_unless_present = "topology",
        conflicts_with = "topology"
    )]
    pub nodes: Option<u32>,
    /// Vnodes per node (`num_tokens`).
    #[arg(long, default_value_t = 16, conflicts_with = "topology")]
    pub vnodes: u32,
    /// Replication factor (SimpleStrategy).
    #[arg(long, default_value_t = 3, conflicts_with = "topology")]
    pub rf: u32,
    /// Token allocation for `--nodes`.
    #[arg(long, value_enum, default_value_t = AllocationArg::Balanced, conflicts_with = "topology")]
    pub allocation: AllocationArg,
    /// A topology file (TOML; see docs/ring.md).
    #[arg(long, value_name = "FILE")]
    pub topology: Option<PathBuf>,
    /// Schema files or directories of `*.cql`, for the table's partition key
    /// (positional, as for the other commands).
    #[arg(value_name = "SCHEMA")]
    pub schema: Vec<PathBuf>,
    /// The schema as a flag (`--schema FILE`), as earlier versions took it.
    #[arg(long = "schema", value_name = "FILE", hide = true)]
    pub schema_flag: Vec<PathBuf>,
    /// The statistics file describing the table's keys and traffic.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// The table to place (`KS.T`).
    #[arg(long, value_name = "KS.T", requires = "stats")]
    pub table: Option<String>,
    /// How many keys to sample.
    #[arg(long, default_value_t = 1_000_000)]
    pub keys: usize,
    /// Seeds the key sampling and, with `--nodes`, the tokens (a topology file has its own `seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Default for RingArgs {
    fn default() -> Self {
        Self {
            nodes: None,
            vnodes: 16,
            rf: 3,
            allocation: AllocationArg::Balanced,
            topology: None,
            schema: Vec::new(),
            schema_flag: Vec::new(),
            stats: None,
            table: None,
            keys: 1_000_000,
            seed: 1,
        }
    }
}

/// `--allocation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AllocationArg {
    /// Uniform random tokens (Cassandra without the token allocator).
    Random,
    /// Evenly spaced, interleaved tokens: every node owns exactly its share.
    Balanced,
    /// Cassandra's NoReplicationTokenAllocator idea: each joining node splits the
    /// heaviest nodes' largest vnodes.
    Allocator,
}

impl From<AllocationArg> for Allocation {
    fn from(a: AllocationArg) -> Self {
        match a {
            AllocationArg::Random => Allocation::Random,
            AllocationArg::Balanced => Allocation::Balanced,
            AllocationArg::Allocator => Allocation::Allocator,
        }
    }
}

/// A table's load on the ring.
#[derive(Debug, Clone)]
pub struct TableLoad {
    pub table: String,
    pub report: LoadReport,
    /// The defaults and simplifications the sampling used, for the report.
    pub assumptions: Vec<String>,
}

/// Runs `cqlmodel ring`: (stdout, stderr, exit code). Exit 2 for bad input.
pub fn run(args: RingArgs, json: bool) -> (String, String, u8) {
    run_once(args, json, &mut Model::unwanted())
}

/// [`run`], also filling `model` with the JSON document for the HTML page.
pub fn run_once(mut args: RingArgs, json: bool, model: &mut Model) -> (String, String, u8) {
    let mut sources = SourceMap::new();
    let flagged = std::mem::take(&mut args.schema_flag);
    args.schema.extend(flagged);
    if args.stats.is_some() && args.schema.is_empty() {
        let d = Diagnostic::error(
            "usage",
            "--stats needs the schema: `ring SCHEMA... --stats FILE --table KS.T`",
        );
        return input_error(d, &sources, json);
    }
    let topology = match topology(&args, &mut sources) {
        Ok(t) => t,
        Err(d) => return input_error(*d, &sources, json),
    };
    let ring = match Ring::build(&topology) {
        Ok(r) => r,
        Err(e) => return input_error(topology_diagnostic(&e, None), &sources, json),
    };
    let owned = ownership(&ring);
    let load = match table_samples(&args, &ring, &mut sources) {
        Ok(load) => load,
        Err(diags) => return input_errors(diags, &sources, json),
    };
    let document = model.document(json, || {
        report_json(&ring, &topology, &owned, load.as_ref())
    });
    let out = document.unwrap_or_else(|| report_text(&ring, &topology, &owned, load.as_ref()));
    (out, String::new(), 0)
}

/// The topology from `--topology FILE`, or from `--nodes/--vnodes/--rf`; validated.
fn topology(args: &RingArgs, sources: &mut SourceMap) -> Result<Topology, Box<Diagnostic>> {
    let t = match (&args.topology, args.nodes) {
        (Some(path), _) => {
            let file = read_source(path, sources)
                .map_err(|e| Box::new(Diagnostic::error("input", e.to_string())))?;
            let text = sources
                .get(file)
                .map(|f| f.text.clone())
                .unwrap_or_default();
            let t =
                parse_topology(&text).map_err(|e| Box::new(topology_diagnostic(&e, Some(file))))?;
            t.validate()
                .map_err(|e| Box::new(topology_diagnostic(&e, Some(file))))?;
            t
        }
        (None, Some(nodes)) => {
            // Checked before the nodes are built: `--nodes 4194304` must not
            // allocate four million nodes to be told it is too many.
            let total = u64::from(nodes) * u64::from(args.vnodes);
            if nodes as usize > cqlmodel_ring::MAX_NODES || total > cqlmodel_ring::MAX_TOTAL_VNODES
            {
                return Err(Box::new(Diagnostic::error(
                    "topology",
                    format!(
                        "--nodes {nodes} --vnodes {} is more than this tool models (at most {} nodes and {} vnodes in total)",
                        args.vnodes,
                        cqlmodel_ring::MAX_NODES,
                        cqlmodel_ring::MAX_TOTAL_VNODES
                    ),
                )));
            }
            let t = Topology::uniform(
                nodes,
                args.vnodes,
                args.rf,
                args.allocation.into(),
                args.seed,
            );
            t.validate()
                .map_err(|e| Box::new(topology_diagnostic(&flag_error(e), None)))?;
            t
        }
        (None, None) => {
            return Err(Box::new(Diagnostic::error(
                "usage",
                "give --nodes N (with --vnodes, --rf) or --topology FILE",
            )));
        }
    };
    Ok(t)
}

/// Errors about the flag-built topology, in the flags' words.
fn flag_error(mut e: TopologyError) -> TopologyError {
    e.kind = match e.kind {
        TopologyErrorKind::ZeroVnodes { .. } => TopologyErrorKind::Invalid {
            message: "--vnodes must be at least 1".into(),
        },
        TopologyErrorKind::NoNodes => TopologyErrorKind::Invalid {
            message: "--nodes must be at least 1".into(),
        },
        TopologyErrorKind::NoReplicas => TopologyErrorKind::Invalid {
            message: "--rf must be at least 1".into(),
        },
        other => other,
    };
    e
}

fn topology_diagnostic(e: &TopologyError, file: Option<usize>) -> Diagnostic {
    let d = Diagnostic::error("topology", e.kind.to_string());
    match (file, &e.span) {
        (Some(file), Some(span)) => d.with_file(file).with_primary(span.clone(), "here"),
        (Some(file), None) => d.with_file(file),
        _ => d,
    }
}

fn input_error(d: Diagnostic, sources: &SourceMap, json: bool) -> (String, String, u8) {
    input_errors(vec![d], sources, json)
}

fn input_errors(diags: Vec<Diagnostic>, sources: &SourceMap, json: bool) -> (String, String, u8) {
    if json {
        let value = json!({ "errors": render_json(&diags, sources) });
        (
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n",
            String::new(),
            2,
        )
    } else {
        (String::new(), render_human(&diags, sources, false), 2)
    }
}

// ─── cqlmodel-stats plug-in point ────────────────────────────────────────────────
/// The table's load, when `--schema/--stats` ask for it: the schema and statistics
/// are loaded, `cqlmodel_stats::KeySampler` draws `--keys` partition keys of the table
/// from the declared distributions (seeded by `--seed`) and hashes them with Murmur3,
/// and [`place_load`] puts them on the ring. This is the one place the statistics
/// engine plugs into `ring`.
fn table_samples(
    args: &RingArgs,
    ring: &Ring,
    sources: &mut SourceMap,
) -> Result<Option<TableLoad>, Vec<Diagnostic>> {
    let Some(stats_path) = &args.stats else {
        if args.schema.is_empty() && args.table.is_none() {
            return Ok(None);
        }
        return Err(vec![Diagnostic::error(
            "usage",
            "--schema and --table place a table's keys only with --stats STATS.toml",
        )]);
    };
    let input = |e: &dyn std::fmt::Display| vec![Diagnostic::error("input", e.to_string())];
    let loaded = load_schema(&args.schema, sources).map_err(|e| input(&e))?;
    if loaded
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        return Err(loaded.diagnostics);
    }
    let stats = load_stats_file(stats_path, &loaded.schema, sources)?;
    let qualified =
        which_table(args.table.as_deref(), &loaded.schema, &stats).map_err(|m| input(&m))?;
    let (ks, name) = qualified.split_once('.').unwrap_or(("", &qualified));
    let table = loaded
        .schema
        .table(ks, name)
        .ok_or_else(|| input(&format!("--table {qualified}: no such table in the schema")))?;
    let default_stats = TableStats::default();
    let table_stats = stats.table(&qualified).unwrap_or(&default_stats);
    let mut sampler = KeySampler::new(table, table_stats, args.seed).map_err(|e| input(&e))?;
    let n = args.keys.max(1);
    let data_scale = sampler.total_rows() / n as f64;
    let request_scale = sampler.total_requests() / n as f64;
    let progress = crate::progress::Progress::counted(n as u64, "sampling partition keys");
    let samples = (0..n).map(|_| {
        progress.inc(1);
        let (token, data, requests) = sampler.next_key();
        (token, data * data_scale, requests * request_scale)
    });
    let report = place_load(ring, samples);

    let mut assumptions = vec![
        format!(
            "{} partition keys sampled from the declared distributions (seed {})",
            count(n as u64),
            args.seed
        ),
        "data share counts rows; every replica stores them".to_string(),
        "each request is served by its partition's replicas in equal parts (any consistency level \
         that picks replicas symmetrically gives the same shares)"
            .to_string(),
    ];
    // The sizing assumptions that shape the sample (rows, distributions, retention);
    // those about bytes, thresholds and fan-out do not bear on placement.
    const NOT_ABOUT_PLACEMENT: [&str; 4] = [
        "value sizes",
        "per-cell overhead",
        "read fan-out",
        "thresholds",
    ];
    assumptions.extend(
        estimate_table(table, table_stats, &stats.thresholds)
            .assumptions
            .into_iter()
            .filter(|a| !NOT_ABOUT_PLACEMENT.iter().any(|p| a.starts_with(p))),
    );
    Ok(Some(TableLoad {
        table: qualified,
        report,
        assumptions,
    }))
}
// ─────────────────────────────────────────────────────────────────────────────────

/// `--table`: `ks.table`, or a bare name only one keyspace has; without it, the only
/// table the statistics file describes.
fn which_table(table: Option<&str>, schema: &Schema, stats: &Stats) -> Result<String, String> {
    let Some(name) = table else {
        let described: Vec<&String> = stats.tables.keys().collect();
        return match described.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err("the statistics file describes no table: give --table KS.T".into()),
            many => Err(format!(
                "the statistics file describes {} tables: choose one with --table ({})",
                many.len(),
                many.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    };
    crate::schema_load::resolve_table(name, schema)
}

/// Percent with 4 decimals (JSON).
fn pct(fraction: f64) -> f64 {
    (fraction * 1_000_000.0).round() / 10_000.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The JSON report: per node `node`, `dc`, `rack`, `tokens`, `ownership` (primary, %),
/// `effective_ownership` (with replication, %), `data_share` and `request_share` (%,
/// null without a table); `imbalance` {ownership, data, requests} (max/mean);
/// `hottest_partitions`.
pub fn report_json(
    ring: &Ring,
    topology: &Topology,
    owned: &Ownership,
    load: Option<&TableLoad>,
) -> Value {
    let nodes: Vec<Value> = ring
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let own = owned.nodes.get(i);
            let share = load.and_then(|l| l.report.nodes.get(i));
            json!({
                "node": node.name,
                "dc": node.dc,
                "rack": node.rack,
                "tokens": node.tokens.len(),
                "ownership": own.map(|o| pct(o.primary)),
                "effective_ownership": own.map(|o| pct(o.effective)),
                "data_share": share.map(|s| pct(s.data_share)),
                "request_share": share.map(|s| pct(s.request_share)),
            })
        })
        .collect();
    let hottest: Vec<Value> = load
        .map(|l| {
            l.report
                .hottest
                .iter()
                .map(|h| {
                    json!({
                        "token": h.token.0,
                        "samples": h.samples,
                        "data_share": pct(h.data_share),
                        "request_share": pct(h.request_share),
                        "replicas": replica_names(ring, &h.replicas),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "topology": {
            "datacenters": ring.datacenters(),
            "nodes": ring.nodes().len(),
            "tokens": ring.range_count(),
            "allocation": ring.allocation().name(),
            "seed": topology.seed,
            "replication": ring.replication().describe(),
            "replicas_per_range": ring.replication_factor(),
        },
        "table": load.map(|l| l.table.clone()),
        "samples": load.map(|l| l.report.samples),
        "nodes": nodes,
        "imbalance": {
            "ownership": owned.imbalance.map(round4),
            "data": load.and_then(|l| l.report.imbalance.data).map(round4),
            "requests": load.and_then(|l| l.report.imbalance.requests).map(round4),
        },
        "hottest_partitions": hottest,
        "hottest_exact": load.map(|l| l.report.hottest_exact),
        "assumptions": load.map(|l| l.assumptions.clone()).unwrap_or_default(),
    })
}

fn replica_names(ring: &Ring, replicas: &[cqlmodel_ring::NodeId]) -> Vec<String> {
    replicas
        .iter()
        .filter_map(|n| ring.node(*n).map(|node| node.name.clone()))
        .collect()
}

/// Percent for people: one decimal, two below 1%.
fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    if p != 0.0 && p.abs() < 1.0 {
        format!("{p:.2}%")
    } else {
        format!("{p:.1}%")
    }
}

/// 950, 12.3k, 1.0M, 2.5G.
pub fn count(n: u64) -> String {
    let n = n as f64;
    match n {
        _ if n < 1e3 => format!("{n}"),
        _ if n < 1e6 => format!("{:.1}k", n / 1e3),
        _ if n < 1e9 => format!("{:.1}M", n / 1e6),
        _ => format!("{:.1}G", n / 1e9),
    }
}

/// Aligned columns, two spaces apart: `align` has an `l` (left) or `r` (right) per column.
fn table(header: &[&str], rows: &[Vec<String>], align: &str) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            if align.as_bytes().get(i) == Some(&b'l') {
                let _ = write!(line, "{cell:<w$}");
            } else {
                let _ = write!(line, "{cell:>w$}");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One datacenter's `nodetool status`-like table: each node's rack, tokens
/// and ownership, and with a table's load its data and request shares.
fn datacenter_table(
    out: &mut String,
    ring: &Ring,
    owned: &Ownership,
    load: Option<&TableLoad>,
    (dc, name): (usize, &String),
) {
    let title = format!("Datacenter: {name}");
    let _ = writeln!(out, "\n{title}\n{}", "=".repeat(title.chars().count()));
    let mut header = vec!["Node", "Rack", "Tokens", "Owns", "Owns (effective)"];
    if load.is_some() {
        header.extend(["Data", "Requests"]);
    }
    let rows: Vec<Vec<String>> = ring
        .dc_nodes(dc)
        .filter_map(|id| {
            let node = ring.node(id)?;
            let own = owned.nodes.get(id.index())?;
            let mut row = vec![
                node.name.clone(),
                node.rack.clone(),
                node.tokens.len().to_string(),
                percent(own.primary),
                percent(own.effective),
            ];
            if let Some(share) = load.and_then(|l| l.report.nodes.get(id.index())) {
                row.push(percent(share.data_share));
                row.push(percent(share.request_share));
            }
            Some(row)
        })
        .collect();
    out.push_str(&table(&header, &rows, "llrrrrr"));
}

/// The hottest sampled partitions of a table, with their replicas, and the
/// sampling's assumptions.
fn hottest_partitions(out: &mut String, ring: &Ring, l: &TableLoad) {
    let _ = writeln!(
        out,
        "\nHottest partitions{}:",
        if l.report.hottest_exact {
            ""
        } else {
            " (approximate: many distinct partitions)"
        }
    );
    let rows: Vec<Vec<String>> = l
        .report
        .hottest
        .iter()
        .map(|h| {
            vec![
                h.token.to_string(),
                count(h.samples),
                percent(h.data_share),
                percent(h.request_share),
                replica_names(ring, &h.replicas).join(", "),
            ]
        })
        .collect();
    out.push_str(&table(
        &["Token", "Samples", "Data", "Requests", "Replicas"],
        &rows,
        "rrrrl",
    ));
    for a in &l.assumptions {
        let _ = writeln!(out, "assumption: {a}");
    }
}

/// The text report: a `nodetool status`-like table per datacenter.
pub fn report_text(
    ring: &Ring,
    topology: &Topology,
    owned: &Ownership,
    load: Option<&TableLoad>,
) -> String {
    let mut out = String::new();
    let dcs = ring.datacenters().len();
    let _ = writeln!(
        out,
        "Ring: {} nodes, {} tokens, {} datacenter{} ({} allocation, seed {})",
        ring.nodes().len(),
        ring.range_count(),
        dcs,
        if dcs == 1 { "" } else { "s" },
        ring.allocation().name(),
        topology.seed
    );
    let _ = writeln!(out, "Replication: {}", ring.replication().describe());
    if let Some(l) = load {
        let _ = writeln!(
            out,
            "Table: {} ({} sampled keys)",
            l.table,
            count(l.report.samples)
        );
    }
    for (dc, name) in ring.datacenters().iter().enumerate() {
        datacenter_table(&mut out, ring, owned, load, (dc, name));
    }
    let ratio = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.2}"));
    let _ = write!(
        out,
        "\nImbalance (busiest node / mean): ownership {}",
        ratio(owned.imbalance)
    );
    if let Some(l) = load {
        let _ = write!(
            out,
            ", data {}, requests {}",
            ratio(l.report.imbalance.data),
            ratio(l.report.imbalance.requests)
        );
    }
    out.push('\n');
    if let Some(l) = load.filter(|l| !l.report.hottest.is_empty()) {
        hottest_partitions(&mut out, ring, l);
    }
    out
}
