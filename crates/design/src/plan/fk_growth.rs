//! Foreign keys over the growth horizon (issue 10 §5): how many children a
//! parent has at the age a growing child is sized at.
//!
//! A `distinct` count is one moment's count. When the child and its parent
//! both grow for ever, the parents the children refer to grow with them: the
//! mean number of children per parent is the ratio of the two rates, the same
//! in year one and year three. A fixed `distinct` would instead make every
//! parent's children grow with the horizon (video tags 5 → 16 at 3 years).
//! When the parent does not grow (`rows = N`), the children per parent do
//! grow with time, as the statistics say. When the statistics do not size
//! the parent at all, nothing counts the reference's values: the size
//! command's constant default is assumed, and said as a foreign key (which
//! parent, what to give) rather than as an anonymous column.

use cqlmodel_stats::units::format_count;
use cqlmodel_stats::{Retention, Stats, TableStats, Volume};
use serde::Serialize;

use crate::numbers::trim_float;
use crate::relational::Model;
use crate::stats_keys::entity_key;

/// What the design assumes of one foreign-key column of a growing entity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForeignKeyGrowth {
    /// The child entity and its referencing column.
    pub entity: String,
    pub column: String,
    /// The referenced entity.
    pub parent: String,
    /// `constant`: the parent grows too, children per parent are the ratio of
    /// the rates; `growing`: the parent is fixed, so each parent's children
    /// grow with the child's age; `given`: the parent grows but the reference
    /// is to the entity itself or one side expires, and the statistics'
    /// count is kept; `default`: the same, but the statistics give no
    /// count, so the parent's rows (every parent has children) are used;
    /// `unsized`: the statistics size neither the parent nor the column, so
    /// the size command's default count is assumed.
    pub per_parent: &'static str,
    /// The statistics' own `distinct` for the column, if given.
    pub given_distinct: Option<f64>,
    /// The distinct values the design sizes with, at the child's age.
    pub distinct: f64,
    /// Mean children per parent at that age.
    pub children_per_parent: f64,
    /// The age (seconds) the child is sized at; `None` for a child of fixed
    /// size (only an `unsized` reference lists one).
    pub age: Option<u64>,
}

impl ForeignKeyGrowth {
    /// `5`, `1.6`, `3.78k`: children per parent as the text writes them.
    pub fn per_text(&self) -> String {
        if self.children_per_parent < 100.0 {
            trim_float((self.children_per_parent * 10.0).round() / 10.0)
        } else {
            format_count(self.children_per_parent)
        }
    }

    /// Why the ratio of the growth rates is not the children per parent.
    fn why_not_constant(&self) -> &'static str {
        if self.entity == self.parent {
            "it is a reference to its own entity (few rows have children)"
        } else {
            "one side expires (retention), so the ratio of the growth rates does not count the parents live rows refer to"
        }
    }

    /// The sentence a table keyed by the column carries as a decision.
    pub fn sentence(&self) -> String {
        // Only an `unsized` reference has no age (a child of fixed size).
        let age = self
            .age
            .map_or_else(String::new, cqlmodel_stats::units::format_duration);
        let (col, parent) = (&self.column, &self.parent);
        let per = self.per_text();
        match self.per_parent {
            "unsized" => format!(
                "{}, about {per} `{}` rows per value{}",
                unsized_parent_sentence(&self.entity, col, parent),
                self.entity,
                self.age.map_or_else(String::new, |_| format!(" at {age}"))
            ),
            "constant" => {
                let given = self.given_distinct.map_or_else(String::new, |d| {
                    format!(
                        "; the statistics' `distinct = {}` is one moment's count and is not kept fixed",
                        format_count(d)
                    )
                });
                format!(
                    "sizing: `{}.{col}` refers to `{parent}`, which grows too: its distinct values grow with `{parent}` ({} at {age}){given}, so each `{parent}` has about {per} `{}` rows however old the data (children per parent constant: the ratio of the two growth rates)",
                    self.entity,
                    format_count(self.distinct),
                    self.entity
                )
            }
            "given" => format!(
                "sizing: `{}.{col}` refers to `{parent}`, which grows, but {}: the statistics' count ({} values) is kept as given, about {per} `{}` rows per value at {age}",
                self.entity,
                self.why_not_constant(),
                format_count(self.distinct),
                self.entity
            ),
            "default" => format!(
                "sizing: `{}.{col}` refers to `{parent}`, which grows, but {}, and the statistics give no `distinct`: every `{parent}` row is assumed to have children, {} values (the parent's rows at its horizon), about {per} `{}` rows per value at {age} (give `distinct` for the column if fewer parents have children)",
                self.entity,
                self.why_not_constant(),
                format_count(self.distinct),
                self.entity
            ),
            _ => format!(
                "sizing: `{}.{col}` refers to `{parent}`, which does not grow in the statistics ({} values): each `{parent}` gathers more `{}` rows with time, about {per} at {age} (children per parent grow with the horizon)",
                self.entity,
                format_count(self.distinct),
                self.entity
            ),
        }
    }
}

/// The age a growing table is sized at: its retention, else its horizon.
fn age_of(ts: &TableStats) -> Option<u64> {
    match (ts.volume, ts.retention) {
        (Volume::Growth { .. }, Retention::Seconds(s)) => Some(s.min(ts.horizon.unwrap_or(s))),
        (Volume::Growth { .. }, _) => ts.horizon,
        _ => None,
    }
}

/// Rewrites, in the entity statistics, the distinct count of every
/// single-column foreign key of an entity that grows for ever to a parent
/// that grows for ever: the parent's rows at the child's age (every parent's
/// children counted). Returns what it assumed for every foreign key of a
/// growing entity, for the decisions of the tables keyed by it.
pub(super) fn grow_foreign_keys(model: &Model, stats: &mut Stats) -> Vec<ForeignKeyGrowth> {
    let mut out = Vec::new();
    for e in &model.entities {
        let Some(child) = stats.tables.get(&entity_key(&e.name)).cloned() else {
            continue;
        };
        out.extend(unsized_references(e, &child, stats));
        let (Volume::Growth { rows_per_second }, Some(age)) = (child.volume, age_of(&child)) else {
            continue;
        };
        let forever = !matches!(child.retention, Retention::Seconds(_));
        let child_rows = rows_per_second * age as f64;
        for fk in &e.foreign_keys {
            let [column] = fk.columns.as_slice() else {
                continue;
            };
            let given = child.column(column).and_then(|c| c.distinct);
            let parent = stats.tables.get(&entity_key(&fk.table));
            // A reference to the entity itself (a reply's parent comment)
            // grows at the entity's own rate: "one child per parent" would
            // erase what the statistics' count says, that few rows have
            // children. Nor is a ratio of rates the count of parents live
            // children refer to when either side expires. Those counts stay
            // as given, and the table says so.
            let same_entity = fk.table == e.name;
            let growth = match parent.map(|p| (p.volume, p.retention)) {
                Some((
                    Volume::Growth {
                        rows_per_second: rate,
                    },
                    _,
                )) if same_entity || !forever => {
                    // Without a count, sizing takes the parent's rows at its
                    // horizon (derived.rs, foreign_key_values): said here.
                    let (distinct, per_parent) = match given {
                        Some(d) => (d, "given"),
                        None => {
                            let horizon = parent
                                .and_then(|p| p.horizon)
                                .unwrap_or(super::limits::DEFAULT_HORIZON);
                            ((rate * horizon as f64).max(1.0).round(), "default")
                        }
                    };
                    ForeignKeyGrowth {
                        entity: e.name.clone(),
                        column: column.clone(),
                        parent: fk.table.clone(),
                        per_parent,
                        given_distinct: given,
                        distinct,
                        children_per_parent: child_rows / distinct.max(1.0),
                        age: Some(age),
                    }
                }
                Some((
                    Volume::Growth {
                        rows_per_second: rate,
                    },
                    retention,
                )) if !matches!(retention, Retention::Seconds(_)) => {
                    let distinct = (rate * age as f64).max(1.0).round();
                    ForeignKeyGrowth {
                        entity: e.name.clone(),
                        column: column.clone(),
                        parent: fk.table.clone(),
                        per_parent: "constant",
                        given_distinct: given,
                        distinct,
                        children_per_parent: rows_per_second / rate.max(f64::MIN_POSITIVE),
                        age: Some(age),
                    }
                }
                Some((Volume::Fixed { rows }, _)) => {
                    let distinct = given.unwrap_or(rows).max(1.0);
                    ForeignKeyGrowth {
                        entity: e.name.clone(),
                        column: column.clone(),
                        parent: fk.table.clone(),
                        per_parent: "growing",
                        given_distinct: given,
                        distinct,
                        children_per_parent: child_rows / distinct,
                        age: Some(age),
                    }
                }
                _ => continue,
            };
            if growth.per_parent == "constant"
                && let Some(ts) = stats.tables.get_mut(&entity_key(&e.name))
            {
                // Left unset, every consumer (sizing, the cascade bound)
                // counts one value per parent row at the child's age.
                ts.columns.entry(column.clone()).or_default().distinct = None;
            }
            out.push(growth);
        }
    }
    out
}

/// True when the statistics do not size `entity`: no table of it, or no
/// `rows` nor `rows_per_second`.
fn not_sized(stats: &Stats, entity: &str) -> bool {
    stats
        .tables
        .get(&entity_key(entity))
        .is_none_or(|p| matches!(p.volume, Volume::Unspecified))
}

/// The parent `c` (one column of its entity) refers to, when the statistics
/// size neither that parent nor count the column: nothing but the size
/// command's constant default gives its values.
pub(super) fn unsized_parent<'m>(
    model: &'m Model,
    stats: &Stats,
    c: &crate::select::ColRef,
) -> Option<&'m str> {
    let e = model.entity(&c.entity)?;
    let fk = e
        .foreign_keys
        .iter()
        .find(|f| f.columns.as_slice() == std::slice::from_ref(&c.column))?;
    let counted = stats
        .tables
        .get(&entity_key(&c.entity))
        .and_then(|s| s.column(&c.column))
        .is_some_and(|s| s.distinct.is_some());
    (!counted && not_sized(stats, &fk.table)).then_some(fk.table.as_str())
}

/// How a reference to an entity the statistics do not size is stated: as
/// a foreign key, with the two ways to count it.
pub(super) fn unsized_parent_sentence(entity: &str, column: &str, parent: &str) -> String {
    format!(
        "sizing: `{entity}.{column}` refers to `{parent}`, which the statistics do not size: {} values assumed (give `rows` for `{parent}` or `distinct` for the column)",
        format_count(cqlmodel_stats::DEFAULT_DISTINCT)
    )
}

/// The single-column references of `e` (sized by `child`, growing or
/// fixed) to an entity the statistics do not size, with no `distinct` of
/// their own.
fn unsized_references(
    e: &crate::relational::Entity,
    child: &TableStats,
    stats: &Stats,
) -> Vec<ForeignKeyGrowth> {
    let (rows, age) = match (child.volume, age_of(child)) {
        (Volume::Growth { rows_per_second }, Some(age)) => {
            (rows_per_second * age as f64, Some(age))
        }
        (Volume::Fixed { rows }, _) => (rows, None),
        _ => return Vec::new(),
    };
    let distinct = cqlmodel_stats::DEFAULT_DISTINCT;
    e.foreign_keys
        .iter()
        .filter_map(|fk| {
            let [column] = fk.columns.as_slice() else {
                return None;
            };
            let counted = child.column(column).is_some_and(|c| c.distinct.is_some());
            (!counted && not_sized(stats, &fk.table)).then(|| ForeignKeyGrowth {
                entity: e.name.clone(),
                column: column.clone(),
                parent: fk.table.clone(),
                per_parent: "unsized",
                given_distinct: None,
                distinct,
                children_per_parent: rows / distinct,
                age,
            })
        })
        .collect()
}

/// report.md's "Foreign keys over the horizon" table: every foreign key of a
/// growing entity and whether its children per parent stay or grow.
pub fn foreign_keys_md(growth: &[ForeignKeyGrowth]) -> String {
    use crate::safe_names::md_code;
    if growth.is_empty() {
        return String::new();
    }
    // The legend names the unsized kind only where the table shows it.
    let unsized_words = if growth.iter().any(|g| g.per_parent == "unsized") {
        " A reference to an entity the statistics do not size, with no `distinct` of its own, has the size command's default count (unsized): give the parent's `rows` or the column's `distinct`."
    } else {
        ""
    };
    let mut s = format!(
        "### Foreign keys over the horizon\n\nA growing entity's foreign key to a parent that grows too has as many values as the parent has rows at the child's age (children per parent constant: the ratio of the growth rates; a `distinct` in the statistics is one moment's count and is not kept fixed). To a parent that does not grow, each parent's children grow with the age. A reference to the entity itself, or from or to an entity that expires, keeps the statistics' count (given), or without one assumes every parent row has children (default).{}\n\n| foreign key | parent | children per parent | distinct values (given) | at |\n|---|---|---|---|---|\n",
        unsized_words
    );
    for g in growth {
        s.push_str(&format!(
            "| {} | {} | {}, {} | {} ({}) | {} |\n",
            md_code(&format!("{}.{}", g.entity, g.column)),
            md_code(&g.parent),
            g.per_parent,
            g.per_text(),
            format_count(g.distinct),
            g.given_distinct.map_or("—".to_string(), format_count),
            g.age
                .map_or_else(|| "—".into(), cqlmodel_stats::units::format_duration)
        ));
    }
    s.push('\n');
    // A kept or defaulted count is an assumption the rates do not make:
    // say each, with its reason, even where no table is keyed by it.
    let assumed: Vec<&ForeignKeyGrowth> = growth
        .iter()
        .filter(|g| matches!(g.per_parent, "given" | "default" | "unsized"))
        .collect();
    for g in &assumed {
        let sentence = g.sentence();
        let said = sentence.strip_prefix("sizing: ").unwrap_or(&sentence);
        s.push_str(&format!("- {said}\n"));
    }
    if !assumed.is_empty() {
        s.push('\n');
    }
    s
}
