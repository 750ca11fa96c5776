//! Steps 2 and 3 of query-driven modeling: a PRIMARY KEY per query (equality →
//! partition key, range and ORDER BY → clustering, key attributes for
//! uniqueness, attributes of the partition alone → static), then tables with the
//! same key structure merged and queries served by another table's prefix absorbed.

use serde::Serialize;

use crate::pgtypes::is_time;
use crate::querylist::QuerySpec;
use crate::relational::Model;
use crate::select::{ColRef, SelectSpec};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    PartitionKey,
    ClusteringAsc,
    ClusteringDesc,
    Static,
    Regular,
}

/// A key part: an attribute (by its equivalence class representative) or a
/// time bucket cut from one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum KeyPart {
    Attr(ColRef),
    /// The start of the `unit` (day, hour, …) holding the attribute's time.
    Bucket(ColRef, String),
    /// `hash(partition key) % n`.
    Salt(u32),
    /// The `count` counter column of a counter table.
    Counter,
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

/// Join equalities as classes; each class's first member is its representative:
/// the attribute of `root` (the entity whose rows are returned) when there is one.
fn classes(spec: &SelectSpec, root: &str) -> Vec<Vec<ColRef>> {
    let mut out: Vec<Vec<ColRef>> = Vec::new();
    for (a, b) in &spec.joins {
        let ia = out.iter().position(|c| c.contains(a));
        let ib = out.iter().position(|c| c.contains(b));
        match (ia, ib) {
            (Some(i), Some(j)) if i != j => {
                let moved = out.remove(j.max(i));
                if let Some(keep) = out.get_mut(j.min(i)) {
                    keep.extend(moved);
                }
            }
            (Some(_), Some(_)) => {}
            (Some(i), None) => out.get_mut(i).into_iter().for_each(|c| c.push(b.clone())),
            (None, Some(j)) => out.get_mut(j).into_iter().for_each(|c| c.push(a.clone())),
            (None, None) => out.push(vec![a.clone(), b.clone()]),
        }
    }
    for class in &mut out {
        class.sort_by_key(|c| {
            (
                c.entity != root,
                spec.entities.iter().position(|e| *e == c.entity),
            )
        });
    }
    out
}

/// True when every column of one of `e`'s keys is joined to an attribute of
/// `f`: each row of `f` meets at most one row of `e`.
fn determines(model: &Model, classes: &[Vec<ColRef>], f: &str, e: &str) -> bool {
    let Some(entity) = model.entity(e) else {
        return false;
    };
    f != e
        && entity.keys().any(|k| {
            k.iter().all(|col| {
                class_of(
                    classes,
                    &ColRef {
                        entity: e.to_string(),
                        column: col.clone(),
                    },
                )
                .iter()
                .any(|m| m.entity == f)
            })
        })
}

/// The entities a result row stands for: those no other joined entity
/// determines (of two that determine each other, the first in FROM order).
pub(crate) fn grain_of(model: &Model, spec: &SelectSpec, classes: &[Vec<ColRef>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, e) in spec.entities.iter().enumerate() {
        let determined = spec.entities.iter().enumerate().any(|(j, f)| {
            j != i
                && determines(model, classes, f, e)
                && (!determines(model, classes, e, f) || j < i)
        });
        if !determined && !out.contains(e) {
            out.push(e.clone());
        }
    }
    if out.is_empty()
        && let Some(first) = spec.entities.first()
    {
        out.push(first.clone());
    }
    out
}

/// The entity a table is named after: of the grain, the one the query returns
/// most attributes of (a timeline of follows × posts shows posts); when the
/// grain is a pure link returned for none of its own attributes, the entity the
/// query returns most of (`videos` through `video_tags`).
fn row_entity(spec: &SelectSpec, grain: &[String]) -> String {
    let most = |among: &[String]| -> Option<(String, usize)> {
        let mut best: Option<(String, usize)> = None;
        for e in among {
            let n = spec.projection.iter().filter(|c| c.entity == *e).count();
            if best.as_ref().is_none_or(|(_, b)| n > *b) {
                best = Some((e.clone(), n));
            }
        }
        best
    };
    match most(grain) {
        Some((e, n)) if n > 0 => e,
        other => match most(&spec.entities) {
            Some((e, n)) if n > 0 => e,
            _ => other.map(|(e, _)| e).unwrap_or_default(),
        },
    }
}

fn rep(classes: &[Vec<ColRef>], c: &ColRef) -> ColRef {
    class_of(classes, c)
        .first()
        .cloned()
        .unwrap_or_else(|| c.clone())
}

/// The attributes the given ones determine: an entity whose key (primary or
/// unique) is known gives all its attributes; join equalities give their partners.
fn closure(
    model: &Model,
    spec: &SelectSpec,
    classes: &[Vec<ColRef>],
    known: &[ColRef],
) -> Vec<ColRef> {
    let mut set: Vec<ColRef> = Vec::new();
    let add = |set: &mut Vec<ColRef>, c: &ColRef| {
        for m in class_of(classes, c) {
            if !set.contains(&m) {
                set.push(m);
            }
        }
    };
    for c in known {
        add(&mut set, c);
    }
    loop {
        let before = set.len();
        for name in &spec.entities {
            let Some(e) = model.entity(name) else {
                continue;
            };
            let keyed = e.keys().any(|k| {
                k.iter().all(|col| {
                    set.contains(&ColRef {
                        entity: e.name.clone(),
                        column: col.clone(),
                    })
                })
            });
            if keyed {
                for a in &e.attributes {
                    add(
                        &mut set,
                        &ColRef {
                            entity: e.name.clone(),
                            column: a.name.clone(),
                        },
                    );
                }
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// The first-cut table for one read, or why it stays off the OLTP path.
pub fn table_for(model: &Model, q: &QuerySpec, spec: &SelectSpec) -> Result<TableDesign, OffPath> {
    if let Some(p) = q.path.as_deref().filter(|p| *p != "oltp") {
        return Err(OffPath {
            reason: format!("declared `@path {p}`: not an OLTP read"),
            alternative: "run it as a periodic job (Spark or a token-range scan at low priority) over the tables below, or feed an analytical store by CDC".into(),
        });
    }
    if !spec.ad_hoc.is_empty() {
        return Err(OffPath {
            reason: format!("ad-hoc filter no key can serve: {}", spec.ad_hoc.join(", ")),
            alternative: "stream the rows by CDC into a search or analytical store (Elasticsearch, ClickHouse) and query there; or filter a bounded single-partition read in the application".into(),
        });
    }
    let time_range = spec
        .ranges
        .first()
        .filter(|r| spec.ranges.len() == 1 && attr_type(model, r).is_some_and(|t| is_time(&t)));
    if spec.equalities.is_empty() && (!spec.aggregates.is_empty() || !spec.group_by.is_empty()) {
        return Err(OffPath {
            reason: "an aggregate across the whole dataset (no selective predicate)".into(),
            alternative: "a periodic job over a time-bucketed table writes the result into a small table (or a cache) that the application reads by key".into(),
        });
    }
    if spec.ranges.len() > 1 {
        return Err(OffPath {
            reason: format!(
                "ranges on {} attributes ({}): a partition's rows are sorted by one clustering order only",
                spec.ranges.len(),
                spec.ranges.iter().map(|r| format!("{}.{}", r.entity, r.column)).collect::<Vec<_>>().join(", ")
            ),
            alternative: "low-frequency: a periodic job over a bucketed table computes the answer and caches it (or an application-side alert table written when a reading crosses the threshold)".into(),
        });
    }
    if spec.equalities.is_empty() && time_range.is_none() {
        return Err(OffPath {
            reason: "no equality predicate: every partition would be read".into(),
            alternative: "cache the result, or compute it by a periodic job; if it must be online, give the query a selective attribute".into(),
        });
    }
    let first = spec.entities.first().cloned().unwrap_or_default();
    let grain = grain_of(model, spec, &classes(spec, &first));
    let root = row_entity(spec, &grain);
    let classes = classes(spec, &root);
    if is_counter_query(spec) {
        return Ok(counter_table(model, q, spec, &classes, root, grain));
    }
    let mut decisions = Vec::new();
    let mut partition_key: Vec<KeyPart> = Vec::new();
    let mut key_attrs: Vec<ColRef> = Vec::new();
    for (c, n) in &spec.equalities {
        let r = rep(&classes, c);
        if !key_attrs.contains(&r) {
            decisions.push(format!(
                "`{}` is bound by {} in {}: partition key",
                r.column,
                if *n > 1 { "IN" } else { "equality" },
                q.name
            ));
            partition_key.push(KeyPart::Attr(r.clone()));
            key_attrs.push(r);
        }
    }
    let mut clustering: Vec<(KeyPart, bool)> = Vec::new();
    if let (true, Some(t)) = (partition_key.is_empty(), time_range) {
        let r = rep(&classes, t);
        partition_key.push(KeyPart::Bucket(r.clone(), "day".into()));
        decisions.push(format!(
            "{} has only a time range on `{}`: the partition key is its day bucket (the range reads one partition per day it spans)",
            q.name, r.column
        ));
    }
    let desc_of = |c: &ColRef| {
        spec.order
            .iter()
            .find(|(o, _)| rep(&classes, o) == *c)
            .map(|(_, d)| *d)
    };
    for r in &spec.ranges {
        let r = rep(&classes, r);
        if !key_attrs.contains(&r) {
            let desc = desc_of(&r).unwrap_or(false);
            decisions.push(format!(
                "`{}` is bound by a range in {}: first clustering column, {}",
                r.column,
                q.name,
                if desc {
                    "DESC (the query orders newest first)"
                } else {
                    "ASC"
                }
            ));
            clustering.push((KeyPart::Attr(r.clone()), desc));
            key_attrs.push(r);
        }
    }
    for (o, desc) in &spec.order {
        let r = rep(&classes, o);
        if !key_attrs.contains(&r) {
            decisions.push(format!(
                "`{}` orders {}: clustering column {}",
                r.column,
                q.name,
                if *desc { "DESC" } else { "ASC" }
            ));
            clustering.push((KeyPart::Attr(r.clone()), *desc));
            key_attrs.push(r);
        }
    }
    let ordered = clustering.len();
    // Uniqueness: every entity whose rows the result multiplies adds its key.
    for name in &spec.entities {
        let known = closure(model, spec, &classes, &key_attrs);
        let Some(e) = model.entity(name) else {
            continue;
        };
        let keyed = e.keys().any(|k| {
            k.iter().all(|col| {
                known.contains(&ColRef {
                    entity: e.name.clone(),
                    column: col.clone(),
                })
            })
        });
        if keyed {
            continue;
        }
        for col in &e.primary_key {
            let r = rep(
                &classes,
                &ColRef {
                    entity: e.name.clone(),
                    column: col.clone(),
                },
            );
            if !key_attrs.contains(&r) {
                decisions.push(format!("`{}` (primary key of `{}`) added as clustering column so that each {} row stays unique", r.column, e.name, e.name));
                clustering.push((KeyPart::Attr(r.clone()), false));
                key_attrs.push(r);
            }
        }
    }
    let pk_attrs: Vec<ColRef> = partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    let by_partition = closure(model, spec, &classes, &pk_attrs);
    let mut table = TableDesign {
        name: q.table.clone().unwrap_or_default(),
        entity: root,
        grain,
        kind: TableKind::Table,
        partition_key,
        clustering,
        columns: Vec::new(),
        queries: vec![q.name.clone()],
        decisions,
        compaction: String::new(),
        compaction_reason: String::new(),
        ttl: None,
        classes: classes.clone(),
        ordered,
    };
    let mut wanted: Vec<ColRef> = spec.projection.iter().map(|c| rep(&classes, c)).collect();
    for extra in spec.group_by.iter().map(|c| rep(&classes, c)) {
        if !wanted.contains(&extra) {
            wanted.push(extra);
        }
    }
    add_columns(model, &mut table, &wanted, &by_partition);
    Ok(table)
}

/// `count(*)` (or `count(col)`) of the rows matching equalities only: a read
/// would count a whole partition on every execution.
fn is_counter_query(spec: &SelectSpec) -> bool {
    !spec.aggregates.is_empty()
        && spec
            .aggregates
            .iter()
            .all(|(f, _)| f.eq_ignore_ascii_case("count"))
        && spec.group_by.is_empty()
        && spec.ranges.is_empty()
        && !spec.equalities.is_empty()
}

/// A counter table keyed by the query's equalities, incremented by the writes
/// of the counted entity.
fn counter_table(
    model: &Model,
    q: &QuerySpec,
    spec: &SelectSpec,
    classes: &[Vec<ColRef>],
    root: String,
    grain: Vec<String>,
) -> TableDesign {
    let mut partition_key: Vec<KeyPart> = Vec::new();
    for (c, _) in &spec.equalities {
        let r = rep(classes, c);
        if !partition_key.contains(&KeyPart::Attr(r.clone())) {
            partition_key.push(KeyPart::Attr(r));
        }
    }
    let mut t = TableDesign {
        name: q.table.clone().unwrap_or_default(),
        entity: root.clone(),
        grain,
        kind: TableKind::Counter,
        partition_key,
        clustering: Vec::new(),
        columns: Vec::new(),
        queries: vec![q.name.clone()],
        decisions: vec![format!(
            "{} counts `{root}` rows by {}: a counter table, incremented when a row is inserted and decremented when one is deleted (counting the rows at read time would read the whole partition on every execution)",
            q.name,
            spec.equalities
                .iter()
                .map(|(c, _)| format!("`{}`", c.column))
                .collect::<Vec<_>>()
                .join(", ")
        )],
        compaction: String::new(),
        compaction_reason: String::new(),
        ttl: None,
        classes: classes.to_vec(),
        ordered: 0,
    };
    add_columns(model, &mut t, &[], &[]);
    t.columns.push(TableColumn {
        name: "count".into(),
        cql_type: "counter".into(),
        role: Role::Regular,
        part: KeyPart::Counter,
    });
    t
}

pub(crate) fn attr_type(model: &Model, c: &ColRef) -> Option<String> {
    model
        .entity(&c.entity)?
        .attribute(&c.column)
        .map(|a| a.cql_type.clone())
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
            && a.entity != t.entity
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
    t.columns = cols;
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
        KeyPart::Counter => ("count".into(), "counter".into()),
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

/// Key column names too generic to name a table by alone: `tags.name` keys
/// `videos_by_tag_name`, not `videos_by_name`.
const GENERIC: &[&str] = &["name", "id", "code", "slug", "key", "type", "kind", "value"];

/// `<entity>_by_<key>` from the partition key (`customer_id` → `customer`);
/// a counter table is `<entity>_count_by_<key>`.
pub fn default_name(t: &TableDesign) -> String {
    candidate_names(t)
        .into_iter()
        .next()
        .unwrap_or_else(|| t.entity.clone())
}

/// The names a table may take, best first: a partition that is one parent row
/// with its children (the parent's attributes static) is the parent's
/// (`order_by_id` holding the order's lines); else `<entity>_by_<key>`; then,
/// when another table of the same entity and key took that, the same with the
/// first clustering column (`orders_by_customer_total`).
pub fn candidate_names(t: &TableDesign) -> Vec<String> {
    let stem = |name: &str| match name.strip_suffix("_id") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    };
    let keys: Vec<String> = t
        .partition_key
        .iter()
        .filter(|p| !matches!(p, KeyPart::Salt(_)))
        .filter_map(|p| {
            let c = t.column_for(p)?;
            let s = stem(&c.name);
            Some(match p {
                KeyPart::Attr(a) if a.entity != t.entity && GENERIC.contains(&s.as_str()) => {
                    format!("{}_{s}", singular(&a.entity))
                }
                _ => s,
            })
        })
        .collect();
    let own = singular(&t.entity);
    let mut out = Vec::new();
    if t.kind == TableKind::Counter {
        let base = format!("{own}_count_by_{}", keys.join("_and_"));
        out.push(fit_name(&base));
        let others: Vec<String> = t
            .grain
            .iter()
            .filter(|g| **g != t.entity)
            .map(|g| singular(g))
            .collect();
        if !others.is_empty() {
            out.push(fit_name(&format!("{base}_with_{}", others.join("_"))));
        }
        return out;
    }
    if let Some(parent) = static_parent(t) {
        out.push(format!("{}_by_id", singular(&parent)));
    }
    // The entity's own key reads as `device_by_id`, as the seeds name it
    // (`post_by_id`, `order_by_id`), not `devices_by_device`.
    let base = match keys.as_slice() {
        [only] if *only == own || *only == "id" => format!("{own}_by_id"),
        _ => format!("{}_by_{}", t.entity, keys.join("_and_")),
    };
    out.push(base.clone());
    if base.ends_with("_by_id") {
        let cols: Vec<String> = t
            .partition_key
            .iter()
            .filter_map(|p| t.column_for(p).map(|c| c.name.clone()))
            .collect();
        out.push(format!("{}_by_{}", t.entity, cols.join("_and_")));
    }
    let ck: Vec<String> = t
        .clustering
        .iter()
        .take(t.ordered.max(1))
        .filter_map(|(p, _)| t.column_for(p).map(|c| stem(&c.name)))
        .collect();
    if !ck.is_empty() {
        out.push(format!("{base}_{}", ck.join("_")));
    }
    let all_ck: Vec<String> = t
        .clustering
        .iter()
        .filter_map(|(p, _)| t.column_for(p).map(|c| stem(&c.name)))
        .collect();
    if all_ck.len() > ck.len() {
        out.push(format!("{base}_{}", all_ck.join("_")));
    }
    if t.clustering.first().is_some_and(|(_, desc)| *desc) {
        out.push(format!("{base}_{}_desc", all_ck.join("_")));
    }
    let others: Vec<String> = t
        .grain
        .iter()
        .filter(|g| **g != t.entity)
        .map(|g| singular(g))
        .collect();
    if !others.is_empty() {
        out.push(format!("{base}_with_{}", others.join("_")));
    }
    out.into_iter().map(|n| fit_name(&n)).collect()
}

/// Cassandra's limit on table names (`SchemaConstants.NAME_LENGTH`).
pub const MAX_NAME: usize = 48;

/// A name within 48 characters: `_and_` shortened to `_`, then cut with a
/// hash of the whole name so that two long names stay distinct.
pub fn fit_name(name: &str) -> String {
    if name.len() <= MAX_NAME {
        return name.to_string();
    }
    let short = name.replace("_and_", "_");
    if short.len() <= MAX_NAME {
        return short;
    }
    // FNV-1a: stable across runs and platforms.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let head: String = short.chars().take(MAX_NAME - 9).collect();
    // `_h` + hex: a hash, never read as a collision number.
    format!("{}_h{:07x}", head.trim_end_matches('_'), hash & 0x0fff_ffff)
}

/// The entity whose key is the whole partition key and whose attributes are
/// the table's static columns, when it is not the table's row entity.
fn static_parent(t: &TableDesign) -> Option<String> {
    let statics: Vec<&ColRef> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::Static)
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a),
            _ => None,
        })
        .collect();
    let first = statics.first()?;
    let parent = class_of(&t.classes, first)
        .into_iter()
        .map(|m| m.entity)
        .find(|e| *e != t.entity)
        .unwrap_or_else(|| first.entity.clone());
    let all_parent = statics
        .iter()
        .all(|a| class_of(&t.classes, a).iter().any(|m| m.entity == parent));
    let pk_is_parent = !t.partition_key.is_empty()
        && t.partition_key.iter().all(|p| match p {
            KeyPart::Attr(a) => class_of(&t.classes, a).iter().any(|m| m.entity == parent),
            _ => false,
        });
    (parent != t.entity && all_parent && pk_is_parent).then_some(parent)
}

/// Step 3: one table per key structure, and a query whose equalities cover
/// another table's partition key plus a clustering prefix is served by it.
pub fn merge(mut tables: Vec<TableDesign>, model: &Model) -> Vec<TableDesign> {
    let mut out: Vec<TableDesign> = Vec::new();
    for t in tables.drain(..) {
        if let Some(same) = out.iter_mut().find(|o| {
            o.key_signature() == t.key_signature()
                && o.entity == t.entity
                && o.grain == t.grain
                && o.kind == t.kind
                && (t.name.is_empty() || o.name.is_empty() || o.name == t.name)
        }) {
            absorb(same, t, model, "has the same key structure");
        } else {
            out.push(t);
        }
    }
    // Later tables are absorbed into earlier ones first: the query listed
    // first keeps its table's clustering order, a later one reads it reversed.
    loop {
        let pair = (0..out.len()).rev().find_map(|i| {
            let x = out.get(i)?;
            (0..out.len())
                .filter(|&j| j != i)
                .find(|&j| out.get(j).is_some_and(|h| serves(h, x)))
                .map(|j| (i, j))
        });
        let Some((i, j)) = pair else { break };
        let x = out.remove(i);
        let j = if j > i { j - 1 } else { j };
        if let Some(h) = out.get_mut(j) {
            absorb(h, x, model, "is served by a prefix of its primary key");
        }
    }
    out
}

/// True when `host` answers `x`'s query: same rows (grain), host's partition
/// key within x's, x's other equality attributes a clustering prefix of host's,
/// then x's ordered clustering columns next in host's clustering (either
/// direction: a reversed read), and x's uniqueness columns anywhere in host's key.
fn serves(host: &TableDesign, x: &TableDesign) -> bool {
    // Two queries the user named different tables (`@table`) keep them.
    if !host.name.is_empty() && !x.name.is_empty() && host.name != x.name {
        return false;
    }
    if host.grain != x.grain
        || host.kind != TableKind::Table
        || x.kind != TableKind::Table
        || !host
            .partition_key
            .iter()
            .all(|p| x.partition_key.contains(p))
    {
        return false;
    }
    let mut extra: Vec<&KeyPart> = x
        .partition_key
        .iter()
        .filter(|p| !host.partition_key.contains(p))
        .collect();
    let host_ck: Vec<&KeyPart> = host.clustering.iter().map(|(p, _)| p).collect();
    let Some(prefix) = host_ck.get(..extra.len()) else {
        return false;
    };
    let mut prefix = prefix.to_vec();
    extra.sort();
    prefix.sort();
    if extra != prefix {
        return false;
    }
    let ordered: Vec<&KeyPart> = x
        .clustering
        .iter()
        .take(x.ordered)
        .map(|(p, _)| p)
        .collect();
    let next = host_ck.iter().skip(extra.len()).take(ordered.len());
    if !next.eq(ordered.iter()) {
        return false;
    }
    // A reversed read flips every clustering column: x's directions must all
    // match host's or all be opposite.
    let dirs: Vec<bool> = x
        .clustering
        .iter()
        .take(x.ordered)
        .zip(host.clustering.iter().skip(extra.len()))
        .map(|((_, a), (_, b))| a == b)
        .collect();
    if dirs.iter().any(|d| *d) && dirs.iter().any(|d| !*d) {
        return false;
    }
    let host_key: Vec<&KeyPart> = host
        .partition_key
        .iter()
        .chain(host_ck.iter().copied())
        .collect();
    x.clustering
        .iter()
        .skip(x.ordered)
        .all(|(p, _)| host_key.contains(&p))
}

fn absorb(host: &mut TableDesign, x: TableDesign, model: &Model, why: &str) {
    for q in &x.queries {
        if !host.queries.contains(q) {
            host.queries.push(q.clone());
        }
    }
    host.decisions.push(format!(
        "{} merged here: its table {why}",
        x.queries.join(", ")
    ));
    for class in x.classes {
        if !host.classes.contains(&class) {
            host.classes.push(class);
        }
    }
    let wanted: Vec<ColRef> = x
        .columns
        .iter()
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    let by_partition: Vec<ColRef> = host
        .columns
        .iter()
        .filter(|c| c.role == Role::Static)
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    if host.name.is_empty() {
        host.name = x.name;
    }
    add_columns(model, host, &wanted, &by_partition);
}
