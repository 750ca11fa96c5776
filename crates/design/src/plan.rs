//! The whole design: parse, derive, merge, size, choose compaction, plan reads
//! and writes.

use std::collections::BTreeMap;

use cqlmodel_stats::{
    BucketUnit, ColumnStats, Distribution, RecommendationKind, Retention, Stats, TableStats,
    Volume, estimate_table, load_stats,
};
use serde::Serialize;

use crate::derive::{KeyPart, OffPath, Role, TableDesign, default_name, merge, table_for};
use crate::error::{DesignError, DesignErrorKind, Source};
use crate::querylist::{Body, QuerySpec, parse_queries};
use crate::reads::{QueryPlan, select_cql};
use crate::relational::{Model, parse_model};
use crate::schema_out::{keyspace_cql, table_cql};
use crate::split::line_col;
use crate::writes::{WritePath, write_paths};

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

/// Everything `design` decides.
#[derive(Debug, Clone, Serialize)]
pub struct Design {
    pub keyspace: String,
    pub tables: Vec<TableDesign>,
    pub queries: Vec<QueryPlan>,
    pub write_paths: Vec<WritePath>,
    pub warnings: Vec<String>,
    #[serde(skip)]
    pub model: Model,
    #[serde(skip)]
    pub specs: Vec<QuerySpec>,
    /// The statistics carried over to the designed tables (for `review --stats`).
    #[serde(skip)]
    pub table_stats: Stats,
}

impl Design {
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
        for w in &self.write_paths {
            for (i, st) in w.statements.iter().enumerate() {
                let name = if w.statements.len() == 1 {
                    w.name.clone()
                } else {
                    format!("{}_{}", w.name, i + 1)
                };
                s.push_str(&annotation(&name, w.rate, w.consistency.as_deref(), None));
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

/// The keyspace the statistics file's entity names resolve in: PostgreSQL's
/// default schema, so that `"public.readings"` and `readings` both work.
pub const MODEL_KEYSPACE: &str = "public";

pub(crate) fn entity_key(entity: &str) -> String {
    format!("{MODEL_KEYSPACE}.{entity}")
}

pub(crate) fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A rate as an annotation writes it, in the unit that keeps it readable:
/// `300/s`, `12/min`, `1/h`, `20/day`.
pub(crate) fn rate_text(per_second: f64) -> String {
    for (unit, seconds) in [("s", 1.0), ("min", 60.0), ("h", 3_600.0)] {
        let r = per_second * seconds;
        if r >= 1.0 || unit == "h" && per_second * 86_400.0 < 1.0 {
            return format!("{}/{unit}", trim_float(r));
        }
    }
    format!("{}/day", trim_float(per_second * 86_400.0))
}

pub fn design(input: &DesignInput<'_>) -> Result<Design, DesignError> {
    let model = parse_model(input.model_sql)?;
    let specs = match input.queries_sql {
        Some(text) => parse_queries(&model, text)?,
        None => Vec::new(),
    };
    let entity_stats = match input.stats_toml {
        Some(text) => Some(load_entity_stats(&model, text)?),
        None => None,
    };
    let mut warnings = Vec::new();
    let mut specs = specs;
    if let Some(stats) = &entity_stats {
        reconcile_rates(&mut specs, stats, &mut warnings)?;
    }
    let mut candidates = Vec::new();
    let mut off: BTreeMap<String, OffPath> = BTreeMap::new();
    for q in &specs {
        if let Body::Select(spec) = &q.body {
            match table_for(&model, q, spec) {
                Ok(t) => candidates.push(t),
                Err(o) => {
                    off.insert(q.name.clone(), o);
                }
            }
        }
    }
    if specs.iter().all(|q| !matches!(q.body, Body::Select(_))) {
        warnings.push("no SELECT in the query list: one table per entity, keyed by its primary key (list the queries to get query-driven tables)".into());
        for e in &model.entities {
            candidates.push(crate::writes::by_primary_key(&model, e));
        }
    }
    let mut tables = merge(candidates, &model);
    same_table_names(&tables, &specs)?;
    name_tables(&mut tables);
    crate::lookups::lookups_for_writes(&model, &specs, &mut tables);
    let mut table_stats = Stats::default();
    if let Some(stats) = &entity_stats {
        table_stats.thresholds = stats.thresholds;
        size_tables(
            &model,
            input.keyspace,
            stats,
            &mut tables,
            &mut table_stats,
            &mut warnings,
        )?;
    }
    choose_compaction(&model, &specs, entity_stats.as_ref(), &mut tables);

    let mut queries = Vec::new();
    for q in &specs {
        let Body::Select(spec) = &q.body else {
            continue;
        };
        if let Some(o) = off.remove(&q.name) {
            queries.push(QueryPlan {
                name: q.name.clone(),
                table: None,
                cql: None,
                partitions: None,
                statements: 0,
                rows_read: None,
                rate: q.rate,
                consistency: q.consistency.clone(),
                page: q.page,
                off_path: Some(o),
                notes: Vec::new(),
            });
            continue;
        }
        let Some(t) = tables.iter().find(|t| t.queries.contains(&q.name)) else {
            continue;
        };
        let ts = table_stats
            .tables
            .get(&format!("{}.{}", input.keyspace, t.name));
        let fanout = entity_stats
            .as_ref()
            .and_then(|s| s.queries.get(&q.name))
            .and_then(|qs| qs.span)
            .or_else(|| ts.and_then(|s| s.query_span))
            .unwrap_or(86_400);
        let width = t.partition_key.iter().find_map(|p| match p {
            KeyPart::Bucket(_, unit) => BucketUnit::parse(unit).map(BucketUnit::seconds),
            _ => None,
        });
        let bucket_fanout = width.map_or(1, |w| cqlmodel_stats::time_fanout(fanout, w));
        let rows_pp = rows_per_partition(input.keyspace, t, &table_stats);
        queries.push(select_cql(
            input.keyspace,
            t,
            q,
            spec,
            bucket_fanout,
            rows_pp,
        ));
    }
    crate::views::choose_views(&model, &specs, &mut tables);
    let write_paths = write_paths(
        &model,
        &specs,
        &tables,
        input.keyspace,
        entity_stats.as_ref(),
        &mut warnings,
    );
    hybrid_reads(&tables, &write_paths, &mut queries);
    if entity_stats.is_some() {
        carry_query_stats(
            input.keyspace,
            &queries,
            entity_stats.as_ref(),
            &mut table_stats,
        );
    }
    Ok(Design {
        keyspace: input.keyspace.to_string(),
        tables,
        queries,
        write_paths,
        warnings,
        model,
        specs,
        table_stats,
    })
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
    let mut used: Vec<String> = tables
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
        if let Some(free) = candidates.iter().find(|c| !used.contains(c)) {
            t.name = free.clone();
            used.push(free.clone());
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
        used.push(name.clone());
        t.name = name;
    }
}

/// The reads of a table filled by a hybrid fan-out also pull the heaviest
/// sources' rows: from a table of the row entity keyed by the source, when the
/// design has one.
fn hybrid_reads(tables: &[TableDesign], paths: &[WritePath], queries: &mut [QueryPlan]) {
    for t in tables {
        let hybrid = paths
            .iter()
            .flat_map(|w| &w.statements)
            .any(|s| s.hybrid && s.table == t.name);
        if !hybrid {
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

/// The conceptual schema (one CQL table per entity, keyed by its primary key),
/// only to read the statistics file with the size command's own loader.
fn load_entity_stats(model: &Model, text: &str) -> Result<Stats, DesignError> {
    use cqlmodel_cql::keywords::quote_ident;
    let keyspace = MODEL_KEYSPACE;
    let mut ddl = format!(
        "CREATE KEYSPACE {} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};\n",
        quote_ident(keyspace)
    );
    for e in &model.entities {
        let cols: Vec<String> = e
            .attributes
            .iter()
            .map(|a| format!("{} {}", quote_ident(&a.name), a.cql_type))
            .collect();
        let pk: Vec<String> = e.primary_key.iter().map(|c| quote_ident(c)).collect();
        ddl.push_str(&format!(
            "CREATE TABLE {}.{} ({}, PRIMARY KEY (({})));\n",
            quote_ident(keyspace),
            quote_ident(&e.name),
            cols.join(", "),
            pk.join(", ")
        ));
    }
    let schema = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(&ddl).statements).schema;
    load_stats(text, &schema).map_err(|errors| {
        let first = errors.first();
        let at = first.map_or((1, 1), |e| line_col(text, e.span.start));
        let message = first.map_or_else(|| "statistics file error".to_string(), |e| e.to_string());
        DesignError::new(DesignErrorKind::Stats, Source::Stats, at, message)
    })
}

/// The grain's statistics renamed to the table's columns. A table of several
/// entities' rows (a timeline: posts × follows) holds the growing one's rows
/// times the mean number of rows of each other one that meets a row of it.
fn derived_stats(model: &Model, t: &TableDesign, stats: &Stats) -> TableStats {
    let of = |e: &str| stats.tables.get(&entity_key(e));
    let grain: Vec<&String> = if t.grain.is_empty() {
        vec![&t.entity]
    } else {
        t.grain.iter().collect()
    };
    let base_entity = grain
        .iter()
        .find(|e| of(e).is_some_and(|s| matches!(s.volume, Volume::Growth { .. })))
        .or(grain.first())
        .map_or(t.entity.as_str(), |e| e.as_str());
    let base = of(base_entity).cloned().unwrap_or_default();
    let mut ts = TableStats {
        columns: BTreeMap::new(),
        span: None,
        request_rate: None,
        ..base
    };
    if t.kind == crate::derive::TableKind::Counter {
        // One row per key value: as many as the key's distinct values, when known.
        let distinct: Option<f64> = t
            .partition_key
            .iter()
            .map(|p| match p {
                KeyPart::Attr(a) => of(&a.entity)
                    .and_then(|s| s.column(&a.column))
                    .and_then(|c| c.distinct),
                _ => None,
            })
            .product();
        ts.volume = distinct.map_or(Volume::Unspecified, |rows| Volume::Fixed { rows });
        ts.retention = Retention::Unbounded;
    }
    for other in grain.iter().filter(|e| e.as_str() != base_entity) {
        let Some(m) = rows_per_join_value(t, stats, other) else {
            continue;
        };
        ts.volume = match ts.volume {
            Volume::Fixed { rows } => Volume::Fixed { rows: rows * m },
            Volume::Growth { rows_per_second } => Volume::Growth {
                rows_per_second: rows_per_second * m,
            },
            Volume::Unspecified => Volume::Unspecified,
        };
    }
    for c in &t.columns {
        let cs = match &c.part {
            KeyPart::Attr(a) => stats
                .tables
                .get(&entity_key(&a.entity))
                .and_then(|s| s.column(&a.column))
                .cloned(),
            KeyPart::Bucket(_, unit) => Some(ColumnStats {
                bucket: BucketUnit::parse(unit),
                ..ColumnStats::default()
            }),
            KeyPart::Salt(n) => Some(ColumnStats {
                distinct: Some(f64::from(*n)),
                distribution: Some(Distribution::Uniform),
                ..ColumnStats::default()
            }),
            KeyPart::Counter => None,
        };
        if let Some(cs) = cs {
            ts.columns.insert(c.name.clone(), cs);
        }
    }
    key_values_per_row(model, t, &mut ts);
    ts
}

/// The entity whose key (primary or UNIQUE) the partition key holds, when the
/// table holds that entity's rows alone: each partition is one row.
fn one_row_per_partition(model: &Model, t: &TableDesign) -> Option<String> {
    let [entity] = t.grain.as_slice() else {
        return None;
    };
    let e = model.entity(entity)?;
    let held: Vec<String> = t
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
                .into_iter()
                .find(|x| x.entity == *entity)
                .map(|x| x.column),
            _ => None,
        })
        .collect();
    e.keys()
        .any(|k| k.iter().all(|c| held.contains(c)))
        .then(|| entity.clone())
}

/// A partition-key column that is its rows' own single-column key (a post's
/// `post_id`) has one value per row: as many distinct values as the table has
/// rows (at the sizing age), not the documented default of 1,000, which would
/// make one-row partitions look huge.
fn key_values_per_row(model: &Model, t: &TableDesign, ts: &mut TableStats) {
    let [entity] = t.grain.as_slice() else { return };
    let Some(e) = model.entity(entity) else {
        return;
    };
    let rows = match ts.volume {
        Volume::Fixed { rows } => rows,
        Volume::Growth { rows_per_second } => {
            let live = match ts.retention {
                Retention::Seconds(s) => s.min(ts.horizon.unwrap_or(365 * 86_400)),
                _ => ts.horizon.unwrap_or(365 * 86_400),
            };
            rows_per_second * live as f64
        }
        Volume::Unspecified => return,
    };
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        let own = crate::derive::class_of(&t.classes, a)
            .into_iter()
            .find(|x| x.entity == *entity);
        let unique = own.is_some_and(|o| {
            e.keys()
                .any(|k| matches!(k.as_slice(), [only] if *only == o.column))
        });
        if unique {
            let cs = ts.columns.entry(c.name.clone()).or_default();
            if cs.distinct.is_none() {
                cs.distinct = Some(rows.max(1.0).round());
            }
        }
    }
}

/// The mean number of `entity` rows that share the value of its attribute
/// joined to another entity of the table (`follows` rows per `followee_id`).
pub(crate) fn rows_per_join_value(t: &TableDesign, stats: &Stats, entity: &str) -> Option<f64> {
    let es = stats.tables.get(&entity_key(entity))?;
    let rows = match es.volume {
        Volume::Fixed { rows } => rows,
        _ => return None,
    };
    let join = t.classes.iter().find_map(|class| {
        let mine = class.iter().find(|c| c.entity == entity)?;
        class.iter().any(|c| c.entity != entity).then_some(mine)
    })?;
    let distinct = es.column(&join.column)?.distinct?;
    Some(rows / distinct.max(1.0))
}

fn build_one(keyspace: &str, t: &TableDesign) -> Option<cqlmodel_schema::Schema> {
    let ddl = format!("{}\n{}", keyspace_cql(keyspace), table_cql(keyspace, t));
    let build = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(&ddl).statements);
    build.errors.is_empty().then_some(build.schema)
}

/// Sizes every table with the size command's estimator; a partition over the
/// limits gets the recommended time bucket or salt.
fn size_tables(
    model: &Model,
    keyspace: &str,
    stats: &Stats,
    tables: &mut Vec<TableDesign>,
    out: &mut Stats,
    warnings: &mut Vec<String>,
) -> Result<(), DesignError> {
    let mut extra = Vec::new();
    for t in tables.iter_mut() {
        let ts = derived_stats(model, t, stats);
        let Some(schema) = build_one(keyspace, t) else {
            continue;
        };
        let Some(table) = schema.table(keyspace, &t.name) else {
            continue;
        };
        let estimate = estimate_table(table, &ts, &stats.thresholds);
        if let Some(entity) = one_row_per_partition(model, t) {
            t.decisions.push(format!(
                "sizing: the partition key holds the key of `{entity}`: one row per partition ({} bytes), nothing to bucket",
                trim_float(estimate.sizes.bytes.max.round())
            ));
            out.tables.insert(format!("{keyspace}.{}", t.name), ts);
            continue;
        }
        if estimate.exceeds.is_empty() {
            t.decisions.push(format!(
                "sizing: largest partition {} rows, {} bytes: within the limits",
                trim_float(estimate.sizes.rows.max.round()),
                trim_float(estimate.sizes.bytes.max.round())
            ));
        } else if let Some(rec) = &estimate.recommendation {
            let over: Vec<&str> = estimate.exceeds.iter().map(|e| e.name()).collect();
            match rec.kind {
                RecommendationKind::TimeBucket(unit) => {
                    let source = t.clustering.iter().find_map(|(p, _)| match p {
                        KeyPart::Attr(c)
                            if crate::derive::attr_type(model, c)
                                .is_some_and(|ty| crate::pgtypes::is_time(&ty)) =>
                        {
                            Some(c.clone())
                        }
                        _ => None,
                    });
                    if let Some(src) = source {
                        t.partition_key
                            .push(KeyPart::Bucket(src.clone(), unit.name().into()));
                        t.decisions.push(format!(
                            "sizing: partitions exceed {} ({}); a `{}` bucket of `{}` joins the partition key: {}",
                            over.join(", "), rec.summary, unit.name(), src.column, rec.summary
                        ));
                        let rows = estimate.sizes.rows;
                        if rows.p50 > 0.0 && rows.max / rows.p50 > SKEW_WARNING {
                            warnings.push(format!(
                                "{}: the `{}` bucket is sized for the largest key ({} rows against the median key's {} before bucketing): ordinary keys then read many nearly empty partitions; a bucket width per key (stored with the key, read first) lets the few large keys use `{}` and the rest a coarser one",
                                t.name,
                                unit.name(),
                                cqlmodel_stats::units::format_count(rows.max),
                                cqlmodel_stats::units::format_count(rows.p50),
                                unit.name()
                            ));
                        }
                    } else {
                        let n = capped_salt(salt_that_fits(model, keyspace, t, stats), t, warnings);
                        t.partition_key.push(KeyPart::Salt(n));
                        t.decisions.push(format!(
                            "sizing: partitions exceed {} and no clustering column holds time to bucket by; salt {n} joins the partition key, so a read of one key fans out to {n} partitions",
                            over.join(", ")
                        ));
                        extra.extend(single_grain(t));
                    }
                }
                RecommendationKind::Salt(n) => {
                    let n = capped_salt(n, t, warnings);
                    t.partition_key.push(KeyPart::Salt(n));
                    t.decisions.push(format!(
                        "sizing: partitions exceed {} (a skewed key runs hot); salt {n} joins the partition key, so a read of one key fans out to {n} partitions: {}",
                        over.join(", "), rec.summary
                    ));
                    extra.extend(single_grain(t));
                }
            }
            if let Some(n) = t.partition_key.iter().find_map(|p| match p {
                KeyPart::Salt(n) if *n > SALT_FANOUT_WARNING => Some(*n),
                _ => None,
            }) {
                warnings.push(format!(
                    "{}: salt {n} is sized for the largest key, and every read of every key fans out to {n} partitions; when a few keys are that large, give them their own table or a per-key bucket width (stored with the key) and keep ordinary keys unsalted",
                    t.name
                ));
            }
            let wanted: Vec<_> = t
                .columns
                .iter()
                .filter(|c| matches!(c.role, Role::Static | Role::Regular))
                .filter_map(|c| match &c.part {
                    KeyPart::Attr(a) => Some(a.clone()),
                    _ => None,
                })
                .collect();
            let statics: Vec<_> = Vec::new();
            crate::derive::add_columns(model, t, &wanted, &statics);
        } else {
            warnings.push(format!(
                "{}: partitions exceed {:?} and no bucket or salt fixes them",
                t.name, estimate.exceeds
            ));
        }
        out.tables.insert(
            format!("{keyspace}.{}", t.name),
            derived_stats(model, t, stats),
        );
    }
    // A salted key loses its one-partition path: the entity's own table keeps it.
    for entity in extra {
        let why = format!("`{entity}` rows are salted elsewhere");
        if let Some(i) = crate::lookups::ensure_lookup(model, &entity, tables, &why)
            && let Some(t) = tables.get(i)
        {
            out.tables.insert(
                format!("{keyspace}.{}", t.name),
                derived_stats(model, t, stats),
            );
        }
    }
    Ok(())
}

/// A largest partition this many times the median one: the bucket that fits
/// the largest key is far too fine for the others.
pub const SKEW_WARNING: f64 = 100.0;

/// The most salt buckets the design uses: every read of a key runs once per
/// bucket, so more would turn each read into a scatter over the cluster.
pub const SALT_CAP: u32 = 64;

fn capped_salt(n: u32, t: &TableDesign, warnings: &mut Vec<String>) -> u32 {
    if n <= SALT_CAP {
        return n;
    }
    warnings.push(format!(
        "{}: the largest keys need {n} salt buckets; the salt is capped at {SALT_CAP} (a read runs once per bucket), so those keys still exceed the limits: give them their own table, or bound them (a time bucket, a TTL)",
        t.name
    ));
    SALT_CAP
}

/// Above this many salt buckets a read's fan-out is worth a warning.
pub const SALT_FANOUT_WARNING: u32 = 16;

/// The entity whose rows a table holds, when it holds one entity's rows.
fn single_grain(t: &TableDesign) -> Option<String> {
    match t.grain.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// The smallest power-of-two salt that brings the table's partitions within the limits.
fn salt_that_fits(model: &Model, keyspace: &str, t: &TableDesign, stats: &Stats) -> u32 {
    let mut n: u32 = 2;
    while n < (1 << 20) {
        let mut salted = t.clone();
        salted.partition_key.push(KeyPart::Salt(n));
        salted.columns.insert(
            0,
            crate::derive::TableColumn {
                name: "salt".into(),
                cql_type: "int".into(),
                role: Role::PartitionKey,
                part: KeyPart::Salt(n),
            },
        );
        let ts = derived_stats(model, &salted, stats);
        let fits = build_one(keyspace, &salted).is_some_and(|schema| {
            schema.table(keyspace, &salted.name).is_some_and(|table| {
                estimate_table(table, &ts, &stats.thresholds)
                    .exceeds
                    .is_empty()
            })
        });
        if fits {
            return n;
        }
        n *= 2;
    }
    n
}

fn rows_per_partition(keyspace: &str, t: &TableDesign, stats: &Stats) -> Option<f64> {
    let ts = stats.tables.get(&format!("{keyspace}.{}", t.name))?;
    let schema = build_one(keyspace, t)?;
    let table = schema.table(keyspace, &t.name)?;
    Some(
        estimate_table(table, ts, &stats.thresholds)
            .sizes
            .rows
            .mean
            .round()
            .max(1.0),
    )
}

/// TWCS for append-only time series with a TTL, LCS for read-heavy or
/// update-heavy tables, STCS otherwise.
fn choose_compaction(
    model: &Model,
    specs: &[QuerySpec],
    stats: Option<&Stats>,
    tables: &mut [TableDesign],
) {
    for t in tables.iter_mut() {
        let retention = stats
            .and_then(|s| s.tables.get(&entity_key(&t.entity)))
            .map(|s| s.retention);
        t.ttl = match retention {
            // Cassandra refuses default_time_to_live on a counter table.
            Some(Retention::Seconds(_)) if t.kind == crate::derive::TableKind::Counter => {
                t.decisions.push(format!(
                    "no default_time_to_live: a counter cannot expire; the count includes `{}` rows older than their retention unless a job decrements it",
                    t.entity
                ));
                None
            }
            Some(Retention::Seconds(s)) => Some(s),
            _ => None,
        };
        let mutations: Vec<&crate::querylist::MutationSpec> = specs
            .iter()
            .filter_map(|q| match &q.body {
                Body::Mutation(m) if m.entity == t.entity || t.grain.contains(&m.entity) => Some(m),
                _ => None,
            })
            .collect();
        let rate_of = |kind: crate::querylist::MutationKind| -> f64 {
            specs
                .iter()
                .filter_map(|q| match &q.body {
                    Body::Mutation(m)
                        if (m.entity == t.entity || t.grain.contains(&m.entity))
                            && m.kind == kind =>
                    {
                        Some(q.rate.unwrap_or(0.0))
                    }
                    _ => None,
                })
                .sum()
        };
        let inserts = rate_of(crate::querylist::MutationKind::Insert);
        let updates = rate_of(crate::querylist::MutationKind::Update)
            + rate_of(crate::querylist::MutationKind::Delete);
        let reads: f64 = specs
            .iter()
            .filter(|q| t.queries.contains(&q.name))
            .filter_map(|q| q.rate)
            .sum();
        // Append-only: nothing but inserts, or (with rates) updates and deletes
        // under 1% of the inserts, e.g. a rare erasure request: TWCS copes with
        // those, and the TTL expires the rest.
        let append_only = !mutations.is_empty()
            && (mutations
                .iter()
                .all(|m| m.kind == crate::querylist::MutationKind::Insert)
                || (inserts > 0.0 && updates <= 0.01 * inserts));
        let time_clustered = t.clustering.first().is_some_and(|(p, _)| matches!(p, KeyPart::Attr(c) if crate::derive::attr_type(model, c).is_some_and(|ty| crate::pgtypes::is_time(&ty))));
        let growing = stats
            .and_then(|s| s.tables.get(&entity_key(&t.entity)))
            .is_some_and(|s| matches!(s.volume, Volume::Growth { .. }));
        let (class, reason) = if t.ttl.is_some() && append_only && time_clustered {
            (
                "TimeWindowCompactionStrategy",
                "append-only time series with a TTL: whole SSTables expire by time window"
                    .to_string(),
            )
        } else if reads > 0.0 && reads >= inserts + updates {
            (
                "LeveledCompactionStrategy",
                format!(
                    "read-heavy ({}/s reads vs {}/s writes): LCS bounds the SSTables a read touches",
                    trim_float(reads),
                    trim_float(inserts + updates)
                ),
            )
        } else if updates > 0.0 && updates >= inserts {
            (
                "LeveledCompactionStrategy",
                format!(
                    "update-heavy ({}/s updates and deletes vs {}/s inserts): LCS keeps a row's versions together",
                    trim_float(updates),
                    trim_float(inserts)
                ),
            )
        } else {
            (
                "SizeTieredCompactionStrategy",
                if growing {
                    "write-heavy or rates unknown: STCS, the default".into()
                } else {
                    "no read- or update-heavy signal: STCS, the default".into()
                },
            )
        };
        t.compaction = class.into();
        t.compaction_reason = reason;
        if let Some(ttl) = t.ttl {
            t.decisions.push(format!(
                "default_time_to_live {ttl} s from the retention of `{}`",
                t.entity
            ));
        }
    }
}
