//! How many values a partition-key column has when the statistics do not
//! count them (issue 10 §5): a leaf of the sizing stage, used by the derived
//! statistics (the number) and by sizing (the sentence that states it).
//!
//! An identifier the application generates (a uuid, a serial or identity
//! number) is drawn afresh for each row it is generated for, so it has as
//! many values as its entity has rows. The size command's constant default
//! (1,000 values) would put a 300/s ledger's 28.4G entries into 1,000
//! partitions of 28.4M rows each and salt them 64 ways, for a key whose
//! partitions hold one or two rows.

use cqlmodel_stats::units::{format_count, format_duration};
use cqlmodel_stats::{Distribution, Retention, Stats, TableStats, Volume};

use crate::derive::{KeyPart, Role, TableDesign};
use crate::identifiers::{generated_identifier, is_foreign_key};
use crate::relational::Model;
use crate::safe_names::md_code;
use crate::select::ColRef;
use crate::stats_keys::entity_key;

/// True when the statistics count the attribute's values (a `distinct` or a
/// distribution).
fn counted_in_stats(stats: &Stats, a: &ColRef) -> bool {
    stats
        .tables
        .get(&entity_key(&a.entity))
        .and_then(|s| s.column(&a.column))
        .is_some_and(|c| c.distinct.is_some() || c.distribution.is_some())
}

/// The rows of an entity at the age it is sized at (its retention, else its
/// horizon), from its own statistics.
fn rows_at_age(ts: &TableStats) -> Option<(f64, Option<u64>)> {
    match ts.volume {
        Volume::Fixed { rows } => Some((rows, None)),
        Volume::Growth { rows_per_second } => {
            let horizon = ts.horizon.unwrap_or(super::limits::DEFAULT_HORIZON);
            let age = match ts.retention {
                Retention::Seconds(s) => s.min(horizon),
                _ => horizon,
            };
            Some((rows_per_second * age as f64, Some(age)))
        }
        Volume::Unspecified => None,
    }
}

/// A generated identifier of the table's partition key with no `distinct`
/// in the statistics, with its entity's rows: the values it has.
struct Generated {
    attribute: ColRef,
    why: &'static str,
    rows: f64,
    age: Option<u64>,
}

/// The generated identifier a partition-key column holds (it, or an
/// attribute its joins make equal to it), when its statistics give no count.
fn generated_of(model: &Model, t: &TableDesign, stats: &Stats, a: &ColRef) -> Option<Generated> {
    let given = |x: &ColRef| counted_in_stats(stats, x);
    // A foreign key has its parent's rows (derived.rs, foreign_key_values),
    // said with the foreign keys' growth.
    if is_foreign_key(model, a) {
        return None;
    }
    let class = crate::derive::class_of(&t.classes, a);
    if class.iter().any(given) {
        return None;
    }
    class.into_iter().find_map(|x| {
        let why = generated_identifier(model, &x)?;
        let (rows, age) = rows_at_age(stats.tables.get(&entity_key(&x.entity))?)?;
        Some(Generated {
            attribute: x,
            why,
            rows: rows.max(1.0).round(),
            age,
        })
    })
}

/// Sets the distinct count of each partition-key column holding a generated
/// identifier the statistics do not count: its entity's rows at its age.
pub(super) fn generated_key_values(
    model: &Model,
    t: &TableDesign,
    stats: &Stats,
    ts: &mut TableStats,
) {
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        let Some(g) = generated_of(model, t, stats, a) else {
            continue;
        };
        let cs = ts.columns.entry(c.name.clone()).or_default();
        if cs.distinct.is_none() && !matches!(cs.distribution, Some(Distribution::Time { .. })) {
            cs.distinct = Some(g.rows);
        }
    }
}

/// The sizing decisions stating the values assumed for each partition-key
/// column holding a generated identifier the statistics do not count.
pub(super) fn generated_key_decisions(
    model: &Model,
    t: &TableDesign,
    stats: &Stats,
) -> Vec<String> {
    let mut said = Vec::new();
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        let Some(g) = generated_of(model, t, stats, a) else {
            continue;
        };
        let at = g
            .age
            .map_or_else(String::new, |s| format!(" at {}", format_duration(s)));
        said.push(format!(
            "sizing: `{}` (`{}.{}`, {} the application generates) has no `distinct` in the statistics: one value per `{}` row, {}{at} (default: a generated identifier is new for each row; give `distinct` when several rows share one)",
            c.name,
            g.attribute.entity,
            g.attribute.column,
            g.why,
            g.attribute.entity,
            format_count(g.rows)
        ));
    }
    said
}

/// The sizing decisions stating the size command's constant default for a
/// partition-key column nothing counts: no `distinct` in the statistics, not
/// a generated identifier, not a type of few values (boolean, tinyint,
/// smallint) and not a time. A foreign key to an entity the statistics do
/// not size is said as one (which parent, what to give).
pub(super) fn constant_default_decisions(
    model: &Model,
    stats: &Stats,
    t: &TableDesign,
    ts: &TableStats,
) -> Vec<String> {
    let single_row_key = t.clustering.is_empty();
    let mut said = Vec::new();
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        let cs = ts.columns.get(&c.name);
        let counted = cs.is_some_and(|s| {
            s.distinct.is_some()
                || s.bucket.is_some()
                || matches!(s.distribution, Some(Distribution::Time { .. }))
        });
        let few_values = matches!(c.cql_type.as_str(), "boolean" | "tinyint" | "smallint");
        if counted || few_values || single_row_key {
            continue;
        }
        let reference = crate::derive::class_of(&t.classes, a)
            .into_iter()
            .chain(std::iter::once(a.clone()))
            .find_map(|x| {
                let parent = super::fk_growth::unsized_parent(model, stats, &x)?;
                Some(super::fk_growth::unsized_parent_sentence(
                    &x.entity, &x.column, parent,
                ))
            });
        said.push(reference.unwrap_or_else(|| format!(
            "sizing: `{}` (`{}.{}`) has no `distinct` in the statistics and nothing else counts its values (not a generated identifier, not a foreign key to an entity with statistics): the size command's default of {} values is assumed; give `distinct` for it",
            c.name,
            a.entity,
            a.column,
            format_count(cqlmodel_stats::DEFAULT_DISTINCT)
        )));
    }
    said
}

/// report.md's "Identifiers without a count" section: every generated
/// identifier (not its entity's own key) that keys a designed table and
/// whose count the statistics do not give, with the count assumed.
pub fn generated_keys_md(model: &Model, tables: &[TableDesign], stats: Option<&Stats>) -> String {
    let Some(stats) = stats else {
        return String::new();
    };
    let mut rows: Vec<(Generated, Vec<&str>)> = Vec::new();
    for t in tables {
        for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
            let KeyPart::Attr(a) = &c.part else { continue };
            let Some(g) = generated_of(model, t, stats, a) else {
                continue;
            };
            let own_key = model.entity(&g.attribute.entity).is_some_and(|e| {
                e.keys()
                    .any(|k| k.as_slice() == std::slice::from_ref(&g.attribute.column))
            });
            if own_key {
                continue;
            }
            match rows.iter_mut().find(|r| r.0.attribute == g.attribute) {
                Some(r) => r.1.push(&t.name),
                None => rows.push((g, vec![&t.name])),
            }
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "### Identifiers without a count\n\nA partition-key column holding an identifier the application generates (a uuid, a serial, an identity) whose `distinct` the statistics do not give is assumed new for each row of its entity: as many values as the entity has rows (default). Give `distinct` when several rows share one value.\n\n| identifier | kind | distinct values (default) | at | tables keyed by it |\n|---|---|---|---|---|\n",
    );
    for (g, tables) in rows {
        let tables: Vec<String> = tables.iter().map(|t| md_code(t)).collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            md_code(&format!("{}.{}", g.attribute.entity, g.attribute.column)),
            g.why,
            format_count(g.rows),
            g.age.map_or_else(|| "—".to_string(), format_duration),
            tables.join(", ")
        ));
    }
    s.push('\n');
    s
}

/// The partition-key columns whose type lists their values (a boolean, a
/// CHECK list, a domain, an enum), with where the number comes from. The
/// size command's default of 1,000 would spread a 4-value status over 250
/// times as many partitions as it can have, and hide the hot partitions it
/// makes.
fn listed_of<'t>(model: &Model, t: &'t TableDesign) -> Vec<(&'t str, &'t ColRef, String, usize)> {
    t.columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .filter_map(|c| {
            let KeyPart::Attr(a) = &c.part else {
                return None;
            };
            let (why, n) = crate::listed_values::listed_values(model, a)?;
            Some((c.name.as_str(), a, why, n))
        })
        .collect()
}

/// Sets the distinct count of each partition-key column whose type lists its
/// values, when nothing else counted it (run last).
pub(super) fn listed_key_values(model: &Model, t: &TableDesign, ts: &mut TableStats) {
    for (name, _, _, n) in listed_of(model, t) {
        let cs = ts.columns.entry(name.to_string()).or_default();
        if cs.distinct.is_none() && cs.distribution.is_none() && cs.bucket.is_none() {
            cs.distinct = Some(n as f64);
        }
    }
}

/// The sizing decisions stating the values assumed for each partition-key
/// column whose type lists them and that the statistics do not count (`ts`:
/// the table's derived statistics).
pub(super) fn listed_key_decisions(
    model: &Model,
    t: &TableDesign,
    stats: &Stats,
    ts: &TableStats,
) -> Vec<String> {
    listed_of(model, t)
        .into_iter()
        .filter(|(name, a, _, n)| {
            let given = counted_in_stats(stats, a);
            let assumed = ts.columns.get(*name).and_then(|c| c.distinct) == Some(*n as f64);
            !given && assumed
        })
        .map(|(name, _, why, n)| {
            format!(
                "sizing: `{name}` has no `distinct` in the statistics and its type lists its values ({why}): {n} values assumed, so at most {n} partitions for each value of the rest of the key (give `distinct` if fewer are used)"
            )
        })
        .collect()
}
