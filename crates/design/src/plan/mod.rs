//! The whole design: parse, derive, merge, size, choose compaction, plan reads
//! and writes.

mod bucket_statics;
mod compaction;
mod counter_reads;
mod derived;
mod fk_growth;
mod hybrid;
mod hybrid_build;
mod hybrid_text;
mod key_cost;
mod key_values;
mod limits;
mod per_key;
mod point_reads;
mod read_first;
mod read_plans;
mod salt_search;
mod sizing;
mod time_only;
mod whole_tables;
mod write_cql;
mod write_reads;

use std::collections::{BTreeMap, HashSet};

use cqlmodel_stats::Stats;
use serde::Serialize;

use crate::derive::{KeyPart, OffPath, TableDesign, default_name, merge, table_for};
use crate::error::{DesignError, DesignErrorKind, Source};
pub use crate::horizon::Horizon;
use crate::input_notes::InputNote;
use crate::querylist::{Body, QueryList, QuerySpec, parse_queries};
use crate::reads::QueryPlan;
use crate::relational::Model;
use crate::schema_out::{keyspace_cql, table_cql};
use crate::writes::{WritePath, write_paths};
use compaction::{choose_compaction, refine_compaction};
use sizing::{load_entity_stats, size_tables};

pub(crate) use crate::numbers::{rate_text, trim_float};
pub(crate) use crate::stats_keys::entity_key;
pub use fk_growth::ForeignKeyGrowth;
pub use hybrid::{CHECKS_PER_THRESHOLD, HybridBuild, WIDTH_CACHE_SECONDS, bookkeeping_share};
pub use key_cost::{KeyCost, KeySide, cost_json, horizon_json, key_costs_md};
pub use limits::{DEFAULT_HORIZON, SALT_CAP, SALT_FANOUT_WARNING, SKEW_WARNING};
pub use per_key::{KeyWidth, PerKeyPlan};
pub use read_first::{ReadFirst, read_first_sources};
pub use sizing::MODEL_KEYSPACE;

/// What `design` reads.
#[derive(Debug, Clone, Copy)]
pub struct DesignInput<'a> {
    pub keyspace: &'a str,
    /// PostgreSQL DDL (`pg_dump --schema-only`).
    pub model_sql: &'a str,
    /// The annotated query list, if any.
    pub queries_sql: Option<&'a str>,
    /// The statistics file, keyed by the model's table names.
    pub stats_toml: Option<&'a str>,
}

/// How the design is sized beyond what the statistics file says.
#[derive(Debug, Clone, Copy, Default)]
pub struct DesignOptions {
    /// The age (seconds) at which an entity that grows with no retention is
    /// sized, unless its statistics give a `horizon`; `None`: [`DEFAULT_HORIZON`].
    pub horizon: Option<u64>,
}

/// Everything `design` decides.
#[derive(Debug, Clone, Serialize)]
pub struct Design {
    pub keyspace: String,
    pub tables: Vec<TableDesign>,
    pub queries: Vec<QueryPlan>,
    pub write_paths: Vec<WritePath>,
    pub warnings: Vec<String>,
    /// The age growing entities with no retention are sized at.
    #[serde(skip)]
    pub horizon: Horizon,
    /// What sizing assumed of each foreign key of a growing entity: children
    /// per parent constant (both grow) or growing (the parent is fixed).
    #[serde(skip)]
    pub foreign_key_growth: Vec<ForeignKeyGrowth>,
    /// Bucketed tables whose typical and hottest key one width cannot both
    /// serve: the trade-off, and the per-key hybrid (built where sound).
    #[serde(skip)]
    pub per_key: Vec<PerKeyPlan>,
    /// Per read served by a sized table: the typical and the hottest key's cost.
    #[serde(skip)]
    pub key_costs: Vec<KeyCost>,
    /// The review of the design's own schema and queries (`crates/review`):
    /// an error here makes the run a partial result (exit 1).
    #[serde(skip)]
    pub review: Vec<crate::self_review::SelfFinding>,
    /// The statements of the query list the designer could not translate: the
    /// rest is designed without them (the command exits 1).
    #[serde(skip)]
    pub errors: Vec<DesignError>,
    /// What the designer did with input it did not model as written (skipped
    /// statements, type mappings, generated keys): info diagnostics.
    #[serde(skip)]
    pub input_notes: Vec<InputNote>,
    #[serde(skip)]
    pub model: Model,
    #[serde(skip)]
    pub specs: Vec<QuerySpec>,
    /// The statistics carried over to the designed tables (for `review --stats`).
    #[serde(skip)]
    pub table_stats: Stats,
    /// The statistics of the relational entities, as given (for the fit verdict).
    #[serde(skip)]
    pub entity_stats: Option<Stats>,
    /// The query list's `BEGIN … COMMIT` groups.
    #[serde(skip)]
    pub transactions: Vec<crate::querylist::Transaction>,
}

impl Design {
    /// `cqlmodel review` on the design's own schema, queries and statistics.
    fn own_review(&self) -> Vec<crate::self_review::SelfFinding> {
        crate::self_review::review_output(&crate::self_review::Output {
            keyspace: &self.keyspace,
            schema_cql: &self.schema_cql(),
            queries_cql: &self.queries_cql(),
            stats: &self.table_stats,
            tables: &self.tables,
        })
    }

    pub fn schema_cql(&self) -> String {
        let mut s = keyspace_cql(&self.keyspace);
        // A view after every table: its base must exist first.
        let (views, plain): (Vec<&TableDesign>, Vec<&TableDesign>) = self
            .tables
            .iter()
            .partition(|t| matches!(t.kind, crate::derive::TableKind::View { .. }));
        for t in plain.into_iter().chain(views) {
            s.push('\n');
            s.push_str(&table_cql(&self.keyspace, t));
        }
        s
    }

    /// The reads with their `@name` annotations, and the write-path statements.
    pub fn queries_cql(&self) -> String {
        let mut s = String::new();
        for q in &self.queries {
            let Some(cql) = &q.cql else { continue };
            s.push_str(&annotation(
                &q.name,
                q.rate,
                q.consistency.as_deref(),
                q.page,
            ));
            s.push_str(cql);
            s.push_str(";\n\n");
        }
        for r in write_reads::write_path_reads(&self.keyspace, &self.tables, &self.write_paths) {
            s.push_str(&annotation(&r.name, r.rate, None, None));
            s.push_str(&r.cql);
            s.push_str(";\n\n");
        }
        for (name, rate, cql) in
            hybrid::hybrid_reads(&self.per_key, &self.queries, &self.write_paths)
        {
            s.push_str(&annotation(&name, rate, None, None));
            s.push_str(&cql);
            s.push_str(";\n\n");
        }
        for w in &self.write_paths {
            for st in write_cql::write_path_cql(w, &self.per_key) {
                let mut note = annotation(&st.name, st.rate, st.consistency.as_deref(), None);
                if st.new_row {
                    // Before the annotation line's closing newline.
                    note.insert_str(note.len() - 1, " @new-row");
                }
                s.push_str(&note);
                s.push_str(&st.cql);
                s.push_str(";\n\n");
            }
        }
        s
    }
}

fn annotation(name: &str, rate: Option<f64>, cl: Option<&str>, page: Option<u64>) -> String {
    let mut s = format!("-- @name {name}");
    if let Some(r) = rate {
        s.push_str(&format!(" @rate {}", rate_text(r)));
    }
    if let Some(c) = cl {
        s.push_str(&format!(" @cl {c}"));
    }
    if let Some(p) = page {
        s.push_str(&format!(" @page {p}"));
    }
    s.push('\n');
    s
}

pub fn design(input: &DesignInput<'_>) -> Result<Design, DesignError> {
    design_with(input, &DesignOptions::default())
}

/// [`design`] with the sizing options (`--horizon`). The stages, in order:
/// read the inputs, derive one table per read and merge them, keep every
/// write, size, plan the reads, plan the writes, then review the output.
pub fn design_with(
    input: &DesignInput<'_>,
    options: &DesignOptions,
) -> Result<Design, DesignError> {
    let horizon = Horizon::of(options.horizon);
    let Inputs {
        mut model,
        mut specs,
        input_notes,
        errors,
        transactions,
        entity_stats,
        foreign_key_growth,
    } = read_inputs(input, &horizon)?;
    let mut warnings = Vec::new();
    let meaning = crate::meaning::decide(&mut model, &mut specs);
    if let Some(stats) = &entity_stats {
        reconcile_rates(&mut specs, stats, &mut warnings)?;
    }
    let (mut tables, mut off) = table_stage(
        &model,
        &specs,
        &meaning,
        entity_stats.as_ref(),
        &mut warnings,
    )?;
    let Sized {
        mut table_stats,
        moved_statics,
        mut per_key,
    } = size_stage(
        &SizeStage {
            model: &model,
            keyspace: input.keyspace,
            specs: &specs,
            entity_stats: entity_stats.as_ref(),
            horizon: &horizon,
            growth: &foreign_key_growth,
        },
        &mut tables,
        &mut warnings,
    )?;
    // Per-key widths rename the bucket before reads and writes name it.
    let prepared = hybrid::prepare(input.keyspace, &per_key, &mut tables, &mut table_stats);
    choose_compaction(&model, &specs, entity_stats.as_ref(), &mut tables);

    let mut queries = read_stage(
        &ReadStage {
            keyspace: input.keyspace,
            model: &model,
            specs: &specs,
            meaning: &meaning,
            table_stats: &table_stats,
            entity_stats: entity_stats.as_ref(),
            moved_statics: &moved_statics,
        },
        &mut tables,
        &mut off,
    );
    let write_paths = write_stage(
        &WriteInput {
            model: &model,
            specs: &specs,
            meaning: &meaning,
            keyspace: input.keyspace,
            entity_stats: entity_stats.as_ref(),
            horizon: &horizon,
        },
        &prepared,
        &mut Planned {
            tables: &mut tables,
            table_stats: &mut table_stats,
            queries: &mut queries,
            per_key: &mut per_key,
            warnings: &mut warnings,
        },
    );
    let mut d = Design {
        keyspace: input.keyspace.to_string(),
        tables,
        queries,
        write_paths,
        warnings,
        horizon,
        foreign_key_growth,
        per_key,
        key_costs: Vec::new(),
        review: Vec::new(),
        errors,
        input_notes,
        model,
        specs,
        table_stats,
        entity_stats,
        transactions,
    };
    cost_stage(&mut d);
    d.review = d.own_review();
    Ok(d)
}

/// The tables: one per read, merged and named; the lookups the writes
/// need; every write kept (canonical tables); the cascades' lookups.
fn table_stage(
    model: &Model,
    specs: &[QuerySpec],
    meaning: &crate::meaning::Meaning,
    entity_stats: Option<&Stats>,
    warnings: &mut Vec<String>,
) -> Result<(Vec<TableDesign>, BTreeMap<String, OffPath>), DesignError> {
    let (candidates, off) = candidate_tables(model, specs, entity_stats, warnings);
    let mut tables = merge(candidates, model);
    same_table_names(&tables, specs)?;
    name_tables(&mut tables);
    crate::lookups::lookups_for_writes(model, specs, &mut tables);
    crate::claim_owners::hold_claim_owners(model, &mut tables);
    warnings.extend(crate::records::keep_every_write(
        model,
        specs,
        meaning,
        &mut tables,
    ));
    crate::lookups::cascade_lookups(model, specs, entity_stats, &mut tables);
    crate::fan_out_lookups::fan_out_lookups(model, specs, &mut tables);
    Ok((tables, off))
}

/// What the read-planning stage reads.
struct ReadStage<'a> {
    keyspace: &'a str,
    model: &'a Model,
    specs: &'a [QuerySpec],
    meaning: &'a crate::meaning::Meaning,
    table_stats: &'a Stats,
    entity_stats: Option<&'a Stats>,
    moved_statics: &'a [bucket_statics::MovedStatics],
}

/// The reads' plans on the sized tables, normalized reads, statics read
/// from their owner, views for rarely written tables, counter reads.
fn read_stage(
    st: &ReadStage<'_>,
    tables: &mut Vec<TableDesign>,
    off: &mut BTreeMap<String, OffPath>,
) -> Vec<QueryPlan> {
    let mut queries = read_plans::plan_reads(
        &read_plans::ReadInput {
            keyspace: st.keyspace,
            specs: st.specs,
            tables,
            table_stats: st.table_stats,
            entity_stats: st.entity_stats,
        },
        off,
    );
    crate::reads::normalized_reads(st.model, tables, &mut queries);
    bucket_statics::note_reads(st.moved_statics, st.specs, &mut queries);
    crate::views::choose_views(st.model, st.specs, tables);
    counter_reads::counter_reads(st.keyspace, st.meaning, st.specs, tables, &mut queries);
    queries
}

/// The queries' rates carried to the designed tables' statistics, and the
/// cost per key of every read (both need the statistics: none without).
fn cost_stage(d: &mut Design) {
    if d.entity_stats.is_none() {
        return;
    }
    carry_query_stats(
        &d.keyspace,
        &d.queries,
        d.entity_stats.as_ref(),
        &mut d.table_stats,
    );
    d.key_costs = key_cost::key_costs(
        &d.keyspace,
        &d.tables,
        &d.specs,
        &d.queries,
        &d.table_stats,
        &d.per_key,
    );
}

/// What the sizing stage reads.
struct SizeStage<'a> {
    model: &'a Model,
    keyspace: &'a str,
    specs: &'a [QuerySpec],
    entity_stats: Option<&'a Stats>,
    horizon: &'a Horizon,
    growth: &'a [ForeignKeyGrowth],
}

/// The sizing stage's results: the designed tables' statistics, the statics
/// moved out of bucketed tables, and the per-key trade-offs.
struct Sized {
    table_stats: Stats,
    moved_statics: Vec<bucket_statics::MovedStatics>,
    per_key: Vec<PerKeyPlan>,
}

/// Buckets and salts from the statistics (none without them), statics kept
/// out of split partitions, and point reads routed to unsalted tables.
fn size_stage(
    st: &SizeStage<'_>,
    tables: &mut Vec<TableDesign>,
    warnings: &mut Vec<String>,
) -> Result<Sized, DesignError> {
    let SizeStage {
        model,
        keyspace,
        specs,
        entity_stats,
        horizon,
        growth,
    } = *st;
    let mut table_stats = Stats::default();
    let mut moved_statics = Vec::new();
    let mut per_key = Vec::new();
    if let Some(stats) = entity_stats {
        table_stats.thresholds = stats.thresholds;
        size_tables(
            &sizing::SizingInput {
                model,
                keyspace,
                stats,
                horizon,
                growth,
                specs,
            },
            tables,
            &mut table_stats,
            &mut per_key,
            warnings,
        )?;
        moved_statics = bucket_statics::move_statics(
            model,
            keyspace,
            specs,
            stats,
            tables,
            &mut table_stats,
            warnings,
        );
    }
    point_reads::route_point_reads(
        model,
        keyspace,
        specs,
        entity_stats,
        tables,
        &mut table_stats,
    );
    Ok(Sized {
        table_stats,
        moved_statics,
        per_key,
    })
}

/// The model, the query list and the statistics, with what reading them noted.
struct Inputs {
    model: Model,
    specs: Vec<QuerySpec>,
    input_notes: Vec<InputNote>,
    /// The model's and the queries' per-statement errors: the design goes on.
    errors: Vec<DesignError>,
    transactions: Vec<crate::querylist::Transaction>,
    entity_stats: Option<Stats>,
    foreign_key_growth: Vec<ForeignKeyGrowth>,
}

/// Reads the dump, the query list and the statistics; stops only when the
/// dump has no table (or a stage refuses the input as a whole).
fn read_inputs(input: &DesignInput<'_>, horizon: &Horizon) -> Result<Inputs, DesignError> {
    let read = crate::pgread::read_model(input.model_sql);
    if read.model.entities.is_empty() {
        return Err(DesignError::stop(read.errors));
    }
    let (mut model, mut input_notes, model_errors) = (read.model, read.notes, read.errors);
    let QueryList {
        specs,
        errors: query_errors,
        transactions,
        notes: query_notes,
    } = match input.queries_sql {
        Some(text) => parse_queries(&model, text)?,
        None => QueryList::default(),
    };
    input_notes.extend(query_notes);
    crate::duration_keys::durations_in_query_keys(&mut model, &specs, &mut input_notes);
    let (entity_stats, foreign_key_growth) = match input.stats_toml {
        Some(text) => {
            let (stats, growth) = load_entity_stats(&model, text, horizon.seconds)?;
            (Some(stats), growth)
        }
        None => (None, Vec::new()),
    };
    Ok(Inputs {
        model,
        specs,
        input_notes,
        errors: model_errors.into_iter().chain(query_errors).collect(),
        transactions,
        entity_stats,
        foreign_key_growth,
    })
}

/// One table per read (or the reason it has none), whole-table reads, and with
/// no read at all one table per entity by its primary key.
fn candidate_tables(
    model: &Model,
    specs: &[QuerySpec],
    entity_stats: Option<&Stats>,
    warnings: &mut Vec<String>,
) -> (Vec<TableDesign>, BTreeMap<String, OffPath>) {
    let mut candidates = Vec::new();
    let mut off: BTreeMap<String, OffPath> = BTreeMap::new();
    for q in specs {
        if let Body::Select(spec) = &q.body {
            match table_for(model, q, spec) {
                Ok(t) => candidates.push(t),
                Err(o) => {
                    off.insert(q.name.clone(), o);
                }
            }
        }
    }
    candidates.extend(whole_tables::whole_tables(
        model,
        specs,
        entity_stats,
        &mut off,
    ));
    if specs.iter().all(|q| !matches!(q.body, Body::Select(_))) {
        warnings.push("no SELECT in the query list: one table per entity, keyed by its primary key (list the queries to get query-driven tables)".into());
        for e in &model.entities {
            candidates.push(crate::writes::by_primary_key(model, e));
        }
    }
    (candidates, off)
}

/// What the write-path stage reads.
struct WriteInput<'a> {
    model: &'a Model,
    specs: &'a [QuerySpec],
    meaning: &'a crate::meaning::Meaning,
    keyspace: &'a str,
    entity_stats: Option<&'a Stats>,
    horizon: &'a Horizon,
}

/// What the stages before the writes planned, which the writes complete.
struct Planned<'a> {
    tables: &'a mut Vec<TableDesign>,
    table_stats: &'a mut Stats,
    queries: &'a mut Vec<QueryPlan>,
    per_key: &'a mut Vec<PerKeyPlan>,
    warnings: &'a mut Vec<String>,
}

/// The write paths, the compaction their rates refine, the reads of a
/// fan-out hybrid, and the per-key widths built on the prepared tables.
fn write_stage(w: &WriteInput<'_>, prepared: &[String], p: &mut Planned<'_>) -> Vec<WritePath> {
    let mut write_paths = plan_writes(w, p.tables, p.table_stats, p.warnings);
    refine_compaction(w.model, w.specs, &write_paths, p.tables);
    hybrid_reads(p.tables, &write_paths, p.queries);
    hybrid::build(
        &hybrid::BuildInput {
            keyspace: w.keyspace,
            prepared,
        },
        p.per_key,
        p.tables,
        p.table_stats,
        p.queries,
        &mut write_paths,
        p.warnings,
    );
    write_paths
}

/// The write paths; a read-first step no table serves gets the entity's table
/// by primary key, and the paths are planned again so that they keep it.
fn plan_writes(
    w: &WriteInput<'_>,
    tables: &mut Vec<TableDesign>,
    table_stats: &mut Stats,
    warnings: &mut Vec<String>,
) -> Vec<WritePath> {
    let before_paths = warnings.len();
    let plan = |tables: &[TableDesign], warnings: &mut Vec<String>| {
        write_paths(
            w.model,
            w.specs,
            w.meaning,
            tables,
            w.keyspace,
            (w.entity_stats, w.horizon),
            warnings,
        )
    };
    let mut paths = plan(tables, warnings);
    let mut sources = read_first_sources(w.model, tables, &paths);
    let tables_before = tables.len();
    if read_first::add_missing_lookups(w.model, &sources, tables) {
        warnings.truncate(before_paths);
        paths = plan(tables, warnings);
        sources = read_first_sources(w.model, tables, &paths);
        if let Some(stats) = w.entity_stats {
            let added = tables.get(tables_before..).unwrap_or_default();
            sizing::stats_for_new_tables(w.model, w.keyspace, stats, added, table_stats);
        }
    }
    let inferred = paths.iter().all(|p| p.inferred);
    warnings.extend(read_first::read_first_warnings(&sources, inferred));
    paths
}

/// Two reads given one `@table` name whose keys differ cannot share a table:
/// the second CREATE TABLE IF NOT EXISTS would silently do nothing.
fn same_table_names(tables: &[TableDesign], specs: &[QuerySpec]) -> Result<(), DesignError> {
    for (i, t) in tables.iter().enumerate() {
        if t.name.is_empty() {
            continue;
        }
        let Some(other) = tables.iter().skip(i + 1).find(|o| o.name == t.name) else {
            continue;
        };
        let q = specs.iter().find(|q| other.queries.contains(&q.name));
        return Err(DesignError::new(
            DesignErrorKind::Annotation,
            Source::Queries,
            q.map_or((1, 1), |q| (q.line, q.column)),
            format!(
                "`@table {}` names the tables of {} and {}, whose primary keys differ: give them different names",
                t.name,
                t.queries.join(", "),
                other.queries.join(", ")
            ),
        ));
    }
    Ok(())
}

/// `@table` names first, then each table's best free candidate name; a
/// number only when every candidate is taken.
fn name_tables(tables: &mut [TableDesign]) {
    // A set, not a list: a search of every name taken so far per table made
    // naming a 10,000-table design quadratic.
    let mut used: HashSet<String> = tables
        .iter()
        .filter(|t| !t.name.is_empty())
        .map(|t| t.name.clone())
        .collect();
    // Tables with fewer names to choose from choose first.
    let mut order: Vec<(usize, Vec<String>)> = tables
        .iter()
        .enumerate()
        .filter(|(_, t)| t.name.is_empty())
        .map(|(i, t)| (i, crate::derive::candidate_names(t)))
        .collect();
    order.sort_by_key(|(i, c)| (c.len(), *i));
    for (i, candidates) in order {
        let Some(t) = tables.get_mut(i) else { continue };
        if let Some(free) = candidates.iter().find(|c| !used.contains(*c)) {
            t.name = free.clone();
            used.insert(free.clone());
            continue;
        }
        let base = candidates
            .first()
            .cloned()
            .unwrap_or_else(|| default_name(t));
        let mut name = base.clone();
        let mut n = 2;
        while used.contains(&name) {
            name = crate::derive::fit_name(&format!("{base}_{n}"));
            n += 1;
        }
        used.insert(name.clone());
        t.name = name;
    }
}

/// The reads of a table filled by a hybrid fan-out also pull the heaviest
/// sources' rows: from a table of the row entity keyed by the source, when the
/// design has one.
fn hybrid_reads(tables: &[TableDesign], paths: &[WritePath], queries: &mut [QueryPlan]) {
    // Collected once: a scan of every statement per table is quadratic.
    let hybrid: std::collections::HashSet<&str> = paths
        .iter()
        .flat_map(|w| &w.statements)
        .filter(|s| s.hybrid)
        .map(|s| s.table.as_str())
        .collect();
    for t in tables {
        if !hybrid.contains(t.name.as_str()) {
            continue;
        }
        // The source: the row entity's attribute joined to the other grain entity.
        let source = t.classes.iter().find_map(|class| {
            let mine = class.iter().find(|c| c.entity == t.entity)?;
            class
                .iter()
                .any(|c| c.entity != t.entity && t.grain.contains(&c.entity))
                .then_some(mine.clone())
        });
        let pull = source.as_ref().and_then(|src| {
            tables.iter().find(|p| {
                p.grain == [t.entity.clone()]
                    && matches!(p.partition_key.first(), Some(KeyPart::Attr(a)) if a == src)
            })
        });
        let note = match (source, pull) {
            (Some(src), Some(p)) => format!(
                "hybrid: the page also reads the newest rows of the heavy `{}` values the reader follows from `{}` and merges them (those sources are not fanned out)",
                src.column, p.name
            ),
            _ => "hybrid: the page also reads the heaviest sources' newest rows where they are written and merges them (those sources are not fanned out)".to_string(),
        };
        for q in queries
            .iter_mut()
            .filter(|q| q.table.as_deref() == Some(t.name.as_str()))
        {
            q.notes.push(note.clone());
        }
    }
}

/// A query's rate given twice (`@rate` and `[query.NAME] rate_per_second`) must
/// agree; given once, it is the query's rate. A `[query.NAME]` that names no
/// statement of the list is a warning (a renamed or deleted query).
fn reconcile_rates(
    specs: &mut [QuerySpec],
    stats: &Stats,
    warnings: &mut Vec<String>,
) -> Result<(), DesignError> {
    for (name, qs) in &stats.queries {
        let Some(q) = specs.iter_mut().find(|q| q.name == *name) else {
            warnings.push(format!(
                "the statistics file's [query.{name}] names no statement of the query list"
            ));
            continue;
        };
        match (q.rate, qs.rate_per_second) {
            (Some(a), Some(b)) if (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1.0) => {
                return Err(DesignError::new(
                    DesignErrorKind::Annotation,
                    Source::Queries,
                    (q.line, q.column),
                    format!(
                        "`@rate {}/s` of {name} contradicts the statistics file's [query.{name}] rate_per_second = {}: give one rate, or make them agree",
                        trim_float(a),
                        trim_float(b)
                    ),
                ));
            }
            (None, Some(b)) => q.rate = Some(b),
            _ => {}
        }
    }
    Ok(())
}

/// The query list's rates and spans as `[query.*]` sections of the designed
/// tables, so that `review --stats` and `size` weigh the tables by the queries
/// that read them (the loader's rule: a table's request rate is the sum of its
/// queries' rates, its read span the widest of their spans).
fn carry_query_stats(
    keyspace: &str,
    queries: &[QueryPlan],
    entity_stats: Option<&Stats>,
    out: &mut Stats,
) {
    for q in queries {
        let Some(table) = &q.table else { continue };
        let key = format!("{keyspace}.{table}");
        let span = entity_stats
            .and_then(|s| s.queries.get(&q.name))
            .and_then(|qs| qs.span);
        out.queries.insert(
            q.name.clone(),
            cqlmodel_stats::QueryStats {
                rate_per_second: q.rate,
                table: Some(key.clone()),
                span,
            },
        );
        if let Some(ts) = out.tables.get_mut(&key) {
            if let Some(rate) = q.rate {
                ts.request_rate = Some(ts.request_rate.unwrap_or(0.0) + rate);
            }
            if let Some(span) = span {
                ts.query_span = Some(ts.query_span.map_or(span, |s| s.max(span)));
            }
        }
    }
}
