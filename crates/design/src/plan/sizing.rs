//! Sizing: the statistics file read against the relational model, carried to
//! each designed table, and a time bucket or salt for partitions over the limits.

use cqlmodel_stats::{
    BucketUnit, RecommendationKind, Retention, Stats, TableStats, Volume, estimate_table,
    load_stats,
};

use super::derived::{build_one, derived_stats};
use super::fk_growth::ForeignKeyGrowth;
use super::limits::{SALT_CAP, SALT_FANOUT_WARNING, SKEW_WARNING};
use super::per_key::{Bucketed, PerKeyPlan, per_key_plan};
use super::trim_float;
use crate::derive::{KeyPart, TableDesign};
use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::Model;
use crate::split::line_col;
pub use crate::stats_keys::MODEL_KEYSPACE;

/// The conceptual schema (one CQL table per entity, keyed by its primary key),
/// only to read the statistics file with the size command's own loader.
pub(super) fn load_entity_stats(
    model: &Model,
    text: &str,
    horizon: u64,
) -> Result<(Stats, Vec<ForeignKeyGrowth>), DesignError> {
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
    let mut stats = load_stats(text, &schema).map_err(|errors| {
        let first = errors.first();
        let at = first.map_or((1, 1), |e| line_col(text, e.span.start));
        let message = first.map_or_else(|| "statistics file error".to_string(), |e| e.to_string());
        DesignError::new(DesignErrorKind::Stats, Source::Stats, at, message)
    })?;
    // Growth that nothing removes is sized at the design's horizon, unless
    // the entity's own statistics give one: every designed table inherits it
    // (and the stats.toml the design writes says it, for `review --stats`).
    for ts in stats.tables.values_mut() {
        let grows = matches!(ts.volume, Volume::Growth { .. });
        if grows && !matches!(ts.retention, Retention::Seconds(_)) && ts.horizon.is_none() {
            ts.horizon = Some(horizon);
        }
    }
    let growth = super::fk_growth::grow_foreign_keys(model, &mut stats);
    Ok((stats, growth))
}

/// The assumption about children per parent for each foreign-key column of
/// the table's partition key, as the table's decisions state it.
fn foreign_key_decisions(t: &mut TableDesign, growth: &[ForeignKeyGrowth]) {
    let mut said = Vec::new();
    for p in &t.partition_key {
        let KeyPart::Attr(a) = p else { continue };
        let class = crate::derive::class_of(&t.classes, a);
        for g in growth {
            let held = (a.entity == g.entity && a.column == g.column)
                || class
                    .iter()
                    .any(|x| x.entity == g.entity && x.column == g.column);
            // An unsized parent's reference is said where the constant
            // default is (key_values::constant_default_decisions).
            if held
                && t.grain.contains(&g.entity)
                && g.per_parent != "unsized"
                && !said.contains(&g.sentence())
            {
                said.push(g.sentence());
            }
        }
    }
    t.decisions.extend(said);
}

/// ` at the 3y horizon (default)` for a growing table that nothing bounds
/// (no retention): the age its partitions were sized at, stated.
fn at_horizon(ts: &TableStats, horizon: &super::Horizon) -> String {
    if !matches!(ts.volume, Volume::Growth { .. }) || matches!(ts.retention, Retention::Seconds(_))
    {
        return String::new();
    }
    match ts.horizon {
        Some(h) if h == horizon.seconds => format!(", at the {} horizon", horizon.text()),
        Some(h) => format!(
            ", at the {} horizon (the statistics' `horizon`)",
            cqlmodel_stats::units::format_duration(h)
        ),
        None => String::new(),
    }
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

/// What sizing reads: the model, the entity statistics and what the design
/// already decided about them.
pub(super) struct SizingInput<'a> {
    pub model: &'a Model,
    pub keyspace: &'a str,
    pub stats: &'a Stats,
    pub horizon: &'a super::Horizon,
    pub growth: &'a [ForeignKeyGrowth],
    pub specs: &'a [crate::querylist::QuerySpec],
}

/// Sizes every table with the size command's estimator; a partition over the
/// limits gets the recommended time bucket or salt.
pub(super) fn size_tables(
    input: &SizingInput<'_>,
    tables: &mut Vec<TableDesign>,
    out: &mut Stats,
    per_key: &mut Vec<PerKeyPlan>,
    warnings: &mut Vec<String>,
) -> Result<(), DesignError> {
    let SizingInput {
        model,
        keyspace,
        stats,
        horizon,
        growth,
        specs,
    } = *input;
    let mut extra = Vec::new();
    for t in tables.iter_mut() {
        foreign_key_decisions(t, growth);
        let ts = derived_stats(model, t, stats);
        let at = at_horizon(&ts, horizon);
        let Some(schema) = build_one(keyspace, t) else {
            continue;
        };
        let Some(table) = schema.table(keyspace, &t.name) else {
            continue;
        };
        let estimate = estimate_table(table, &ts, &stats.thresholds);
        if super::whole_tables::is_whole(t) {
            whole_table_fits(t, &estimate, warnings);
            out.tables.insert(format!("{keyspace}.{}", t.name), ts);
            continue;
        }
        let page = page_of(t, specs);
        if super::time_only::size_time_only(model, keyspace, stats, t, page, &at, warnings) {
            if t.partition_key
                .iter()
                .any(|p| matches!(p, KeyPart::Salt(_)))
            {
                extra.extend(single_grain(t));
            }
            out.tables.insert(
                format!("{keyspace}.{}", t.name),
                derived_stats(model, t, stats),
            );
            continue;
        }
        if let Some(entity) = one_row_per_partition(model, t) {
            t.decisions.push(format!(
                "sizing: the partition key holds the key of `{entity}`: one row per partition ({} bytes), nothing to bucket",
                trim_float(estimate.sizes.bytes.max.round())
            ));
            out.tables.insert(format!("{keyspace}.{}", t.name), ts);
            continue;
        }
        key_value_decisions(model, stats, t, &ts);
        if estimate.exceeds.is_empty() {
            t.decisions.push(format!(
                "sizing: largest partition {} rows, {} bytes{at}: within the limits",
                trim_float(estimate.sizes.rows.max.round()),
                trim_float(estimate.sizes.bytes.max.round())
            ));
        } else if let Some(rec) = &estimate.recommendation {
            let split = Split {
                ts: &ts,
                estimate: &estimate,
                rec,
                at: &at,
            };
            extra.extend(split_partitions(input, t, &split, per_key, warnings));
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

/// How the partition key's values were counted where the statistics do not
/// count them: generated identifiers, listed values, the constant default.
fn key_value_decisions(model: &Model, stats: &Stats, t: &mut TableDesign, ts: &TableStats) {
    use super::key_values::{
        constant_default_decisions, generated_key_decisions, listed_key_decisions,
    };
    let mut said = generated_key_decisions(model, t, stats);
    said.extend(listed_key_decisions(model, t, stats, ts));
    said.extend(constant_default_decisions(model, stats, t, ts));
    t.decisions.extend(said);
}

/// A table over the limits with the estimator's recommendation.
struct Split<'a> {
    ts: &'a TableStats,
    estimate: &'a cqlmodel_stats::SizeEstimate,
    rec: &'a cqlmodel_stats::Recommendation,
    at: &'a str,
}

/// Adds the recommended time bucket (cut from the first time clustering
/// column) or a salt to a table over the limits, with its decision; returns
/// the entity whose rows were salted (it keeps a table by primary key).
fn split_partitions(
    input: &SizingInput<'_>,
    t: &mut TableDesign,
    split: &Split<'_>,
    per_key: &mut Vec<PerKeyPlan>,
    warnings: &mut Vec<String>,
) -> Option<String> {
    let SizingInput {
        model,
        keyspace,
        stats,
        ..
    } = *input;
    let Split {
        ts,
        estimate,
        rec,
        at,
    } = *split;
    let mut salted = None;
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
                        "sizing: partitions exceed {}{at} ({}); a `{}` bucket of `{}` joins the partition key",
                        over.join(", "), rec.summary, unit.name(), src.column
                    ));
                skew_of_bucket(input, t, ts, &estimate.sizes, unit, per_key, warnings);
            } else {
                let n = capped_salt(salt_that_fits(model, keyspace, t, stats), t, warnings);
                t.partition_key.push(KeyPart::Salt(n));
                t.decisions.push(format!(
                        "sizing: partitions exceed {}{at} and no clustering column holds time to bucket by; salt {n} joins the partition key, so a read of one key fans out to {n} partitions",
                        over.join(", ")
                    ));
                salted = single_grain(t);
            }
        }
        RecommendationKind::Salt(wanted) => {
            let n = capped_salt(wanted, t, warnings);
            t.partition_key.push(KeyPart::Salt(n));
            // The estimator's summary speaks of the salt it wanted;
            // quote it only when that is the salt used.
            let why = if n == wanted {
                format!(": {}", rec.summary)
            } else {
                format!(" (the largest keys would need {wanted}; capped at {n})")
            };
            // The salt hashes a column that differs row by row (the
            // last clustering column), so one key's rows spread.
            let spread_by = t
                .clustering
                .last()
                .and_then(|(p, _)| t.column_for(p))
                .map_or_else(|| "a row's key".to_string(), |c| format!("`{}`", c.name));
            t.decisions.push(format!(
                    "sizing: partitions exceed {}{at}; salt {n} (hash of {spread_by} % {n}) joins the partition key, so a read of one key runs once per salt bucket, {n} partitions{why}",
                    over.join(", ")
                ));
            salted = single_grain(t);
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
    crate::derive::rebuild_key_columns(model, t);
    salted
}

/// A bucket sized for the hottest key while the median key is far smaller:
/// a warning, and the per-key trade-off (statements per page for each kind
/// of key, the keys over the threshold) as a decision and a plan.
fn skew_of_bucket(
    input: &SizingInput<'_>,
    t: &mut TableDesign,
    ts: &TableStats,
    unbucketed: &cqlmodel_stats::Sizes,
    unit: BucketUnit,
    per_key: &mut Vec<PerKeyPlan>,
    warnings: &mut Vec<String>,
) {
    let rows = unbucketed.rows;
    if rows.p50 <= 0.0 || rows.max / rows.p50 <= SKEW_WARNING {
        return;
    }
    warnings.push(format!(
        "{}: the `{}` bucket is sized for the largest key ({} rows against the median key's {} before bucketing): ordinary keys then read many nearly empty partitions; a bucket width per key (stored with the key, read first) lets the few large keys use `{}` and the rest a coarser one",
        t.name,
        unit.name(),
        cqlmodel_stats::units::format_count(rows.max),
        cqlmodel_stats::units::format_count(rows.p50),
        unit.name()
    ));
    let horizon = ts.horizon.unwrap_or(super::limits::DEFAULT_HORIZON);
    let live = match ts.retention {
        Retention::Seconds(s) => s.min(horizon),
        _ => horizon,
    };
    let plan = per_key_plan(&Bucketed {
        table: t,
        unit,
        unbucketed,
        stats: ts,
        all: input.stats,
        live,
        page: page_of(t, input.specs),
    });
    if let Some(p) = plan {
        t.decisions.push(format!(
            "sizing, per key: the design chooses {}. The alternative: {}",
            p.chosen, p.hybrid
        ));
        per_key.push(p);
    }
}

/// The smallest page (LIMIT, else `@page`) of the reads the table serves.
fn page_of(t: &TableDesign, specs: &[crate::querylist::QuerySpec]) -> Option<u64> {
    specs
        .iter()
        .filter(|q| t.queries.contains(&q.name))
        .filter_map(|q| match &q.body {
            crate::querylist::Body::Select(spec) => spec.limit.or(q.page_size()),
            _ => None,
        })
        .min()
}

/// A table read whole is one partition: it is never bucketed (a read would
/// then scan again); its size is stated against the limits, and a warning
/// says when the bound no longer holds.
fn whole_table_fits(
    t: &mut TableDesign,
    estimate: &cqlmodel_stats::SizeEstimate,
    warnings: &mut Vec<String>,
) {
    let (rows, bytes) = (
        trim_float(estimate.sizes.rows.max.round()),
        trim_float(estimate.sizes.bytes.max.round()),
    );
    if estimate.exceeds.is_empty() {
        t.decisions.push(format!(
            "sizing: the one partition holds every row, {rows} rows, {bytes} bytes: within the partition limits"
        ));
    } else {
        let over: Vec<&str> = estimate.exceeds.iter().map(|e| e.name()).collect();
        t.decisions.push(format!(
            "sizing: the one partition holds every row, {rows} rows, {bytes} bytes: over {}",
            over.join(", ")
        ));
        warnings.push(format!(
            "{}: read whole from one partition of {rows} rows, {bytes} bytes, over {}: read it by key, or cache it in the application",
            t.name,
            over.join(", ")
        ));
    }
}

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

/// The entity whose rows a table holds, when it holds one entity's rows.
fn single_grain(t: &TableDesign) -> Option<String> {
    match t.grain.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// The fewest salt that brings the table's partitions within the limits
/// (salt_search.rs says why the fewest); past `MAX_SALT_NEED` the need is
/// not counted further (the salt is capped far below it anyway).
fn salt_that_fits(model: &Model, keyspace: &str, t: &TableDesign, stats: &Stats) -> u32 {
    super::salt_search::fewest_salt(MAX_SALT_NEED, |n| {
        let mut salted = t.clone();
        salted.partition_key.push(KeyPart::Salt(n));
        crate::derive::rebuild_key_columns(model, &mut salted);
        let ts = derived_stats(model, &salted, stats);
        build_one(keyspace, &salted).is_some_and(|schema| {
            schema.table(keyspace, &salted.name).is_some_and(|table| {
                estimate_table(table, &ts, &stats.thresholds)
                    .exceeds
                    .is_empty()
            })
        })
    })
    .unwrap_or(MAX_SALT_NEED)
}

/// The largest salt need sizing counts (the estimator's own bound).
const MAX_SALT_NEED: u32 = 1 << 20;

pub(super) fn rows_per_partition(keyspace: &str, t: &TableDesign, stats: &Stats) -> Option<f64> {
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

/// Statistics for tables added after sizing (lookups a write path needs):
/// one row per partition, never bucketed.
pub(super) fn stats_for_new_tables(
    model: &Model,
    keyspace: &str,
    stats: &Stats,
    tables: &[TableDesign],
    out: &mut Stats,
) {
    for t in tables {
        let key = format!("{keyspace}.{}", t.name);
        out.tables
            .entry(key)
            .or_insert_with(|| derived_stats(model, t, stats));
    }
}
