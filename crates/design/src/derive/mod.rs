//! Steps 2 and 3 of query-driven modeling: a PRIMARY KEY per query (equality →
//! partition key, range and ORDER BY → clustering, key attributes for
//! uniqueness, attributes of the partition alone → static), then tables with the
//! same key structure merged and queries served by another table's prefix absorbed.
//!
//! This module holds the table model and its columns; `per_query` derives a
//! table per read, `merge` merges them, `names` names them.

mod merge;
mod names;
mod per_query;

use serde::Serialize;

use crate::relational::Model;
use crate::select::ColRef;

pub use crate::safe_names::MAX_NAME;
pub use merge::merge;
pub use names::{candidate_names, default_name, fit_name};
pub use per_query::table_for;

pub use crate::chebotko::Role;

/// A key part: an attribute (by its equivalence class representative) or a
/// time bucket cut from one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum KeyPart {
    Attr(ColRef),
    /// The start of the `unit` (day, hour, …) holding the attribute's time.
    Bucket(ColRef, String),
    /// `hash(partition key) % n`.
    Salt(u32),
    /// A constant partition key (`bucket int`, always 0): a small, bounded
    /// table read whole from one partition.
    Whole,
    /// The `count` counter column of a counter table.
    Counter,
    /// The `sum_<column>` counter column of a counter table: `sum(column)`.
    Sum(ColRef),
}

/// What kind of CQL object a designed table is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum TableKind {
    /// A table the application writes.
    Table,
    /// A counter table: the key and one `count counter` column.
    Counter,
    /// A materialized view Cassandra keeps from `base`.
    View { base: String },
}

/// Why a designed table exists, so later stages recognise a table by what
/// it is for, not by its name. design.json shows it for every table that
/// is not an ordinary one (`purpose`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case", tag = "role")]
pub enum TablePurpose {
    /// Serves the query list's reads (or keeps an entity's rows).
    #[default]
    Data,
    /// Keyed by what a write has, to find the rows it changes.
    Lookup,
    /// The entity's row of record by its primary key, added for the writes
    /// (durability, a claim of the key, a lookup by it), not for a read.
    Record,
    /// Keyed by a UNIQUE key alone: where an insert claims the value.
    Claim,
    /// Counters the write paths keep (`n = n + ?`, `count(*)`, `sum`).
    Counters,
    /// One row per distinct value (a `count(DISTINCT x)`).
    ValueSet,
    /// The per-key hybrid's widths of `of` (key, `since` DESC, `width`).
    HybridWidths { of: String },
    /// The per-key hybrid's count of each cold key's rows of `of`.
    HybridKeyRows { of: String },
}

impl TablePurpose {
    pub fn is_data(&self) -> bool {
        *self == TablePurpose::Data
    }

    /// The bucketed table a per-key hybrid's bookkeeping table serves.
    pub fn hybrid_of(&self) -> Option<&str> {
        match self {
            TablePurpose::HybridWidths { of } | TablePurpose::HybridKeyRows { of } => Some(of),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableColumn {
    pub name: String,
    pub cql_type: String,
    pub role: Role,
    pub part: KeyPart,
}

/// A table of the design before naming conflicts are settled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableDesign {
    pub name: String,
    pub entity: String,
    /// The entities one row of the table stands for: one row per combination of
    /// their rows (`[posts, follows]` for a timeline: a post once per follower).
    pub grain: Vec<String>,
    pub kind: TableKind,
    #[serde(skip_serializing_if = "TablePurpose::is_data")]
    pub purpose: TablePurpose,
    pub partition_key: Vec<KeyPart>,
    /// With `true` for DESC.
    pub clustering: Vec<(KeyPart, bool)>,
    pub columns: Vec<TableColumn>,
    pub queries: Vec<String>,
    /// Why each key part is there, in words.
    pub decisions: Vec<String>,
    /// `SizeTieredCompactionStrategy`, `LeveledCompactionStrategy` or
    /// `TimeWindowCompactionStrategy`, and why.
    pub compaction: String,
    pub compaction_reason: String,
    /// `default_time_to_live` in seconds, from the entity's retention.
    pub ttl: Option<u64>,
    /// Every attribute equivalence the table's queries rely on (join equalities).
    #[serde(skip)]
    pub classes: Vec<Vec<ColRef>>,
    /// How many leading clustering columns a query ranges over or orders by; the
    /// rest are there only to keep rows unique, in any order.
    #[serde(skip)]
    pub ordered: usize,
    /// The vector columns ANN reads rank by, with their SAI similarity
    /// function (from the model, so every table holding the column agrees).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ann: Vec<(String, String)>,
    /// A set of distinct values (a `count(DISTINCT x)`): one row stands for
    /// every entity row with that value, so deleting a row leaves it. Set
    /// where the set is designed, never guessed from the key's shape (a key
    /// reached through a unique join looks the same).
    #[serde(skip)]
    pub value_set: bool,
}

impl TableDesign {
    pub fn column_for(&self, part: &KeyPart) -> Option<&TableColumn> {
        self.columns.iter().find(|c| &c.part == part)
    }

    /// The table column holding an attribute (or an attribute equal to it).
    pub fn column_of(&self, c: &ColRef) -> Option<&TableColumn> {
        let class = class_of(&self.classes, c);
        self.columns.iter().find(|col| match &col.part {
            KeyPart::Attr(a) => a == c || class.contains(a),
            _ => false,
        })
    }

    /// The entity whose attribute the column copies into rows of other
    /// entities (a parent's name beside a child, or a key column such as the
    /// parent's workspace a child's partition is keyed by): a write of the
    /// table's own rows reads it from that entity first. `None` for the
    /// table's own attributes, those equal to one of them by a join, and the
    /// bucket, salt and counter parts.
    pub fn copied_from<'c>(&self, col: &'c TableColumn) -> Option<&'c str> {
        let KeyPart::Attr(a) = &col.part else {
            return None;
        };
        if self.grain.contains(&a.entity) {
            return None;
        }
        let own = class_of(&self.classes, a)
            .iter()
            .any(|x| self.grain.contains(&x.entity));
        (!own).then_some(a.entity.as_str())
    }

    /// True when the table holds `e`'s rows keyed by `e`'s primary key: the
    /// partition key made of primary-key columns (no bucket, no salt) and the
    /// rest of the primary key clustering. A read or a conditional write by
    /// the full primary key finds one row in one partition.
    pub fn rows_by_primary_key(&self, e: &crate::relational::Entity) -> bool {
        // The cheap tests first: this runs for every (entity, table) pair.
        if self.kind != TableKind::Table || !matches!(self.grain.as_slice(), [g] if *g == e.name) {
            return false;
        }
        let own = |p: &KeyPart| match p {
            KeyPart::Attr(a) => class_of(&self.classes, a)
                .iter()
                .chain(std::iter::once(a))
                .find(|x| x.entity == e.name)
                .map(|x| x.column.clone()),
            _ => None,
        };
        let partition: Vec<Option<String>> = self.partition_key.iter().map(own).collect();
        let clustering: Vec<Option<String>> = self.clustering.iter().map(|(p, _)| own(p)).collect();
        !partition.is_empty()
            && partition
                .iter()
                .all(|c| c.as_ref().is_some_and(|c| e.primary_key.contains(c)))
            && e.primary_key.iter().all(|k| {
                partition
                    .iter()
                    .chain(&clustering)
                    .any(|c| c.as_ref() == Some(k))
            })
    }

    pub fn key_signature(&self) -> (Vec<KeyPart>, Vec<(KeyPart, bool)>) {
        (self.partition_key.clone(), self.clustering.clone())
    }
}

/// Why a read is not given a table, and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OffPath {
    pub reason: String,
    pub alternative: String,
}

pub(crate) fn class_of(classes: &[Vec<ColRef>], c: &ColRef) -> Vec<ColRef> {
    classes
        .iter()
        .find(|cl| cl.contains(c))
        .cloned()
        .unwrap_or_else(|| vec![c.clone()])
}

pub(crate) fn attr_type(model: &Model, c: &ColRef) -> Option<String> {
    model
        .entity(&c.entity)?
        .attribute(&c.column)
        .map(|a| a.cql_type.clone())
}

/// A regular or static vector column of a table (a view cannot be indexed,
/// a key column needs no index).
pub(crate) fn is_ann_column(c: &TableColumn) -> bool {
    matches!(c.role, Role::Regular | Role::Static) && c.cql_type.starts_with("vector<")
}

/// The table's key columns rebuilt from its partition key and clustering
/// (after sizing adds a bucket or a salt, or changes a bucket's unit), its
/// static and regular columns kept as they are. The old key columns need no
/// separate dropping: [`add_columns`] builds the key columns afresh and keeps
/// only the static and regular ones.
pub(crate) fn rebuild_key_columns(model: &Model, t: &mut TableDesign) {
    add_columns(model, t, &[], &[]);
}

/// Sets the table's columns: key columns first, then `wanted` as static (when
/// the partition key determines them and there are clustering columns) or regular.
pub(crate) fn add_columns(
    model: &Model,
    t: &mut TableDesign,
    wanted: &[ColRef],
    by_partition: &[ColRef],
) {
    let mut cols: Vec<TableColumn> = Vec::new();
    for p in &t.partition_key {
        cols.push(key_column(model, p, Role::PartitionKey));
    }
    for (p, desc) in &t.clustering {
        cols.push(key_column(
            model,
            p,
            if *desc {
                Role::ClusteringDesc
            } else {
                Role::ClusteringAsc
            },
        ));
    }
    let mut existing: Vec<TableColumn> = t
        .columns
        .iter()
        .filter(|c| matches!(c.role, Role::Static | Role::Regular))
        .cloned()
        .collect();
    for w in wanted {
        if cols
            .iter()
            .chain(&existing)
            .any(|c| c.part == KeyPart::Attr(w.clone()))
        {
            continue;
        }
        let role = if !t.clustering.is_empty() && by_partition.contains(w) {
            Role::Static
        } else {
            Role::Regular
        };
        existing.push(TableColumn {
            name: w.column.clone(),
            cql_type: attr_type(model, w).unwrap_or_else(|| "text".into()),
            role,
            part: KeyPart::Attr(w.clone()),
        });
    }
    cols.extend(existing);
    index_vectors(model, t, &cols);
    distinct_names(&t.entity, &mut cols);
    t.columns = cols;
}

/// The table's vector columns get an SAI index of their similarity
/// function, and a decision saying why.
fn index_vectors(model: &Model, t: &mut TableDesign, cols: &[TableColumn]) {
    t.ann.clear();
    for c in cols.iter().filter(|c| is_ann_column(c)) {
        if let KeyPart::Attr(a) = &c.part
            && let Some(f) = model
                .vector_similarity
                .get(&(a.entity.clone(), a.column.clone()))
        {
            t.ann.push((c.name.clone(), f.clone()));
        }
        let why = format!(
            "`{}` is a {}: schema.cql gives it an SAI index so ANN reads work (pgvector's `ORDER BY {0} <-> $1 LIMIT k` is `ORDER BY {0} ANN OF ? LIMIT k`)",
            c.name, c.cql_type
        );
        if !t.decisions.contains(&why) {
            t.decisions.push(why);
        }
    }
}

/// Column names stay distinct within the table.
fn distinct_names(entity: &str, cols: &mut [TableColumn]) {
    // Two attributes with one name (`users.id`, `posts.id`): the one of another
    // entity than the table's gets its entity's name as prefix.
    let names: Vec<String> = cols.iter().map(|c| c.name.clone()).collect();
    for (i, c) in cols.iter_mut().enumerate() {
        let clash = names
            .iter()
            .enumerate()
            .any(|(j, n)| j != i && *n == c.name);
        if let KeyPart::Attr(a) = &c.part
            && clash
            && a.entity != entity
        {
            c.name = format!("{}_{}", singular(&a.entity), a.column);
        }
    }
    // A prefixed name can meet another column's own name (`posts.id` as
    // `post_id` next to `orders.post_id`): the later one takes its entity's
    // full name, then a number, so the table's column names stay distinct.
    let mut seen: Vec<String> = Vec::new();
    for c in cols.iter_mut() {
        if seen.contains(&c.name) {
            let base = match &c.part {
                KeyPart::Attr(a) => format!("{}_{}", a.entity, a.column),
                _ => c.name.clone(),
            };
            let mut name = base.clone();
            let mut n = 2;
            while seen.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            c.name = name;
        }
        seen.push(c.name.clone());
    }
}

fn key_column(model: &Model, p: &KeyPart, role: Role) -> TableColumn {
    let (name, cql_type) = match p {
        KeyPart::Attr(c) => (
            c.column.clone(),
            attr_type(model, c).unwrap_or_else(|| "text".into()),
        ),
        KeyPart::Bucket(_, unit) => (
            unit.clone(),
            if matches!(unit.as_str(), "hour" | "minute") {
                "timestamp".into()
            } else {
                "date".into()
            },
        ),
        KeyPart::Salt(_) => ("salt".into(), "int".into()),
        KeyPart::Whole => ("bucket".into(), "int".into()),
        KeyPart::Counter => ("count".into(), "counter".into()),
        KeyPart::Sum(c) => (format!("sum_{}", c.column), "counter".into()),
    };
    TableColumn {
        name,
        cql_type,
        role,
        part: p.clone(),
    }
}

/// `orders` → `order`, `categories` → `category`; used for prefixes only.
pub fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else if word.ends_with("ss") {
        word.to_string()
    } else {
        word.strip_suffix('s').unwrap_or(word).to_string()
    }
}
