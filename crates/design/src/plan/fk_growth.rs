//! Foreign keys over the growth horizon (issue 10 §5): how many children a
//! parent has at the age a growing child is sized at.
//!
//! A `distinct` count is one moment's count. When the child and its parent
//! both grow for ever, the parents the children refer to grow with them: the
//! mean number of children per parent is the ratio of the two rates, the same
//! in year one and year three. A fixed `distinct` would instead make every
//! parent's children grow with the horizon (video tags 5 → 16 at 3 years).
//! When the parent does not grow (`rows = N`) or has no statistics, the
//! children per parent do grow with time, as the statistics say.

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
    /// count, so the parent's rows (every parent has children) are used.
    pub per_parent: &'static str,
    /// The statistics' own `distinct` for the column, if given.
    pub given_distinct: Option<f64>,
    /// The distinct values the design sizes with, at the child's age.
    pub distinct: f64,
    /// Mean children per parent at that age.
    pub children_per_parent: f64,
    /// The age (seconds) the child is sized at.
    pub age: u64,
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
        let age = cqlmodel_stats::units::format_duration(self.age);
        let (col, parent) = (&self.column, &self.parent);
        let per = self.per_text();
        match self.per_parent {
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
                        age,
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
                        age,
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
                        age,
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

/// report.md's "Foreign keys over the horizon" table: every foreign key of a
/// growing entity and whether its children per parent stay or grow.
pub fn foreign_keys_md(growth: &[ForeignKeyGrowth]) -> String {
    use crate::safe_names::md_code;
    if growth.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "### Foreign keys over the horizon\n\nA growing entity's foreign key to a parent that grows too has as many values as the parent has rows at the child's age (children per parent constant: the ratio of the growth rates; a `distinct` in the statistics is one moment's count and is not kept fixed). To a parent that does not grow, each parent's children grow with the age. A reference to the entity itself, or from or to an entity that expires, keeps the statistics' count (given), or without one assumes every parent row has children (default).\n\n| foreign key | parent | children per parent | distinct values (given) | at |\n|---|---|---|---|---|\n",
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
            cqlmodel_stats::units::format_duration(g.age)
        ));
    }
    s.push('\n');
    // A kept or defaulted count is an assumption the rates do not make:
    // say each, with its reason, even where no table is keyed by it.
    let assumed: Vec<&ForeignKeyGrowth> = growth
        .iter()
        .filter(|g| matches!(g.per_parent, "given" | "default"))
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
