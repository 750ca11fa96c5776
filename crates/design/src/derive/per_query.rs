//! Step 2: the first-cut table of one read, its key from the query's
//! predicates and its rows from the joined entities (or a counter table for a count).

use super::{
    KeyPart, OffPath, Role, TableColumn, TableDesign, TableKind, TablePurpose, add_columns,
    attr_type, class_of,
};
use crate::pgtypes::is_time;
use crate::querylist::QuerySpec;
use crate::relational::Model;
use crate::select::{ColRef, SelectSpec};

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

/// Fewer distinct values than this in a read's only equalities (booleans,
/// enums, listed CHECK values) and the design refuses them as the partition
/// key: a few partitions would hold every row. At 100 or more, each holds about
/// 1% of the rows or less, and the sizing stage judges the partition as any other.
pub const TINY_DOMAIN_PARTITIONS: usize = 100;

/// When every equality of the read is on a column with a handful of values (a
/// boolean, a `CREATE TYPE … AS ENUM`), each described with its number of
/// values (`` `orders.status` enum `order_status`: 4 values ``); else `None`.
fn tiny_domains(model: &Model, spec: &SelectSpec) -> Option<Vec<(String, usize)>> {
    spec.equalities
        .iter()
        .map(|(c, _)| crate::listed_values::listed_values(model, c))
        .collect()
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
fn grain_of(model: &Model, spec: &SelectSpec, classes: &[Vec<ColRef>]) -> Vec<String> {
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

/// Why the read stays off the OLTP path, if it does; else its one time
/// range, when it has one and nothing else bounds it.
fn off_path<'s>(
    model: &Model,
    q: &QuerySpec,
    spec: &'s SelectSpec,
) -> Result<Option<&'s ColRef>, OffPath> {
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
    // A read ordered by time gets its partitions cut into time buckets by the
    // sizing stage, so a tiny domain plus a bucket is bounded; without either,
    // the domain alone is the whole partition key.
    let time_ordered = spec
        .order
        .iter()
        .any(|(c, _)| attr_type(model, c).is_some_and(|t| is_time(&t)));
    if time_range.is_none()
        && !time_ordered
        && let Some(domains) = tiny_domains(model, spec)
        && let partitions = domains
            .iter()
            .fold(1usize, |acc, (_, n)| acc.saturating_mul(*n))
        && partitions < TINY_DOMAIN_PARTITIONS
    {
        let names: Vec<String> = domains.iter().map(|(d, _)| d.clone()).collect();
        return Err(OffPath {
            reason: format!(
                "only tiny-domain equalities ({}): as the partition key they would put every row in at most {partitions} partitions, fewer than {TINY_DOMAIN_PARTITIONS} (the review's hot and unbounded partition); the design refuses such a key",
                names.join(", ")
            ),
            alternative: "add a selective equality (an owner, a tenant) or a time range to the read; else an SAI index on the column of the entity's table, read with a LIMIT, or a periodic job that writes the matching rows' ids into bucketed partitions".into(),
        });
    }
    Ok(time_range)
}

/// A read's primary key as it is built, with the decision behind each part.
#[derive(Default)]
struct Key {
    partition_key: Vec<KeyPart>,
    clustering: Vec<(KeyPart, bool)>,
    key_attrs: Vec<ColRef>,
    decisions: Vec<String>,
}

impl Key {
    /// Equalities (and IN) are the partition key; a read with only a time
    /// range gets a day bucket of it.
    fn partition(
        &mut self,
        q: &QuerySpec,
        spec: &SelectSpec,
        classes: &[Vec<ColRef>],
        time_range: Option<&ColRef>,
    ) {
        for (c, n) in &spec.equalities {
            let r = rep(classes, c);
            if !self.key_attrs.contains(&r) {
                self.decisions.push(format!(
                    "`{}` is bound by {} in {}: partition key",
                    r.column,
                    if *n > 1 { "IN" } else { "equality" },
                    q.name
                ));
                self.partition_key.push(KeyPart::Attr(r.clone()));
                self.key_attrs.push(r);
            }
        }
        if let (true, Some(t)) = (self.partition_key.is_empty(), time_range) {
            let r = rep(classes, t);
            self.partition_key
                .push(KeyPart::Bucket(r.clone(), "day".into()));
            self.decisions.push(format!(
            "{} has only a time range on `{}`: the partition key is a time bucket of it (a day; with statistics, sizing sets the width and any salt), and the range reads one partition per bucket it spans",
            q.name, r.column
        ));
        }
    }

    /// The range, then the keyset bound, then the ORDER BY columns cluster
    /// the partition, in the query's direction.
    fn clustering(&mut self, q: &QuerySpec, spec: &SelectSpec, classes: &[Vec<ColRef>]) {
        let desc_of = |c: &ColRef| {
            spec.order
                .iter()
                .find(|(o, _)| rep(classes, o) == *c)
                .map(|(_, d)| *d)
        };
        for r in &spec.ranges {
            let r = rep(classes, r);
            if !self.key_attrs.contains(&r) {
                let desc = desc_of(&r).unwrap_or(false);
                self.decisions.push(format!(
                    "`{}` is bound by a range in {}: first clustering column, {}",
                    r.column,
                    q.name,
                    if desc {
                        "DESC (the query orders newest first)"
                    } else {
                        "ASC"
                    }
                ));
                self.clustering.push((KeyPart::Attr(r.clone()), desc));
                self.key_attrs.push(r);
            }
        }
        for k in spec.keyset.iter().flat_map(|(cols, _)| cols) {
            let r = rep(classes, k);
            if !self.key_attrs.contains(&r) {
                let desc = desc_of(&r).unwrap_or(false);
                self.decisions.push(format!(
                "`{}` is in {}'s keyset bound (a row-value comparison): clustering column {}, in the bound's order (CQL's multi-column slice)",
                r.column,
                q.name,
                if desc { "DESC" } else { "ASC" }
            ));
                self.clustering.push((KeyPart::Attr(r.clone()), desc));
                self.key_attrs.push(r);
            }
        }
        for (o, desc) in &spec.order {
            let r = rep(classes, o);
            if !self.key_attrs.contains(&r) {
                self.decisions.push(format!(
                    "`{}` orders {}: clustering column {}",
                    r.column,
                    q.name,
                    if *desc { "DESC" } else { "ASC" }
                ));
                self.clustering.push((KeyPart::Attr(r.clone()), *desc));
                self.key_attrs.push(r);
            }
        }
    }

    /// Uniqueness: every entity whose rows the result multiplies adds its key.
    fn uniqueness(&mut self, model: &Model, spec: &SelectSpec, classes: &[Vec<ColRef>]) {
        for name in &spec.entities {
            let known = closure(model, spec, classes, &self.key_attrs);
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
                    classes,
                    &ColRef {
                        entity: e.name.clone(),
                        column: col.clone(),
                    },
                );
                if !self.key_attrs.contains(&r) {
                    self.decisions.push(format!("`{}` (primary key of `{}`) added as clustering column so that each {} row stays unique", r.column, e.name, e.name));
                    self.clustering.push((KeyPart::Attr(r.clone()), false));
                    self.key_attrs.push(r);
                }
            }
        }
    }
}

/// The first-cut table for one read, or why it stays off the OLTP path.
pub fn table_for(model: &Model, q: &QuerySpec, spec: &SelectSpec) -> Result<TableDesign, OffPath> {
    let time_range = off_path(model, q, spec)?;
    let first = spec.entities.first().cloned().unwrap_or_default();
    let grain = grain_of(model, spec, &classes(spec, &first));
    let root = row_entity(spec, &grain);
    let classes = classes(spec, &root);
    if let Some(x) = &spec.count_distinct {
        return Ok(value_set(model, q, spec, &classes, root, grain, x));
    }
    if is_counter_query(model, spec) {
        return Ok(counter_table(model, q, spec, &classes, root, grain));
    }
    let mut key = Key::default();
    key.partition(q, spec, &classes, time_range);
    key.clustering(q, spec, &classes);
    let ordered = key.clustering.len();
    key.uniqueness(model, spec, &classes);
    let Key {
        partition_key,
        clustering,
        decisions,
        ..
    } = key;
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
        purpose: TablePurpose::Data,
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
        ann: Vec::new(),
        value_set: false,
    };
    let mut wanted: Vec<ColRef> = spec.projection.iter().map(|c| rep(&classes, c)).collect();
    // The vector an ANN read ranks by lives in its table (it is not returned).
    for extra in spec
        .group_by
        .iter()
        .chain(spec.ann.as_deref())
        .map(|c| rep(&classes, c))
    {
        if !wanted.contains(&extra) {
            wanted.push(extra);
        }
    }
    add_columns(model, &mut table, &wanted, &by_partition);
    Ok(table)
}

/// The set of distinct `x` per key of a `count(DISTINCT x)`: the equalities
/// are the partition key, `x` the only clustering column, so rows with the
/// same value are one row and the partition's row count is the answer.
fn value_set(
    model: &Model,
    q: &QuerySpec,
    spec: &SelectSpec,
    classes: &[Vec<ColRef>],
    root: String,
    grain: Vec<String>,
    x: &ColRef,
) -> TableDesign {
    let mut partition_key = Vec::new();
    for (c, _) in &spec.equalities {
        let r = rep(classes, c);
        if !partition_key.contains(&KeyPart::Attr(r.clone())) {
            partition_key.push(KeyPart::Attr(r));
        }
    }
    let value = rep(classes, x);
    let keys: Vec<String> = partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(a) => Some(format!("`{}`", a.column)),
            _ => None,
        })
        .collect();
    // `event_kinds_by_username`: the name says it holds values, not rows.
    let name = q.table.clone().unwrap_or_else(|| {
        let by: Vec<String> = keys
            .iter()
            .map(|k| k.trim_matches('`').to_string())
            .collect();
        super::fit_name(&format!(
            "{}_{}s_by_{}",
            super::singular(&root),
            value.column,
            by.join("_and_")
        ))
    });
    let mut t = TableDesign {
        name,
        entity: root,
        grain,
        kind: TableKind::Table,
        purpose: TablePurpose::ValueSet,
        partition_key,
        clustering: vec![(KeyPart::Attr(value.clone()), false)],
        columns: Vec::new(),
        queries: vec![q.name.clone()],
        decisions: vec![format!(
            "{}'s `count(DISTINCT {c})`: a set of the distinct `{c}` per {}, one row per value (rows with the same `{c}` write one row), so counting the partition counts the distinct values; not a counter, which would count every row, nor a read of every row of the key. Chosen over a counter gated by the set's INSERT … IF NOT EXISTS, which reads one cell but costs a Paxos round per insert and drifts on deletes just the same",
            q.name,
            keys.join(", "),
            c = value.column
        )],
        compaction: String::new(),
        compaction_reason: String::new(),
        ttl: None,
        classes: classes.to_vec(),
        ordered: 1,
        ann: Vec::new(),
        value_set: true,
    };
    add_columns(model, &mut t, &[], &[]);
    t
}

/// `count(*)` (or `count(col)`) of the rows matching equalities only: a read
/// would count a whole partition on every execution.
/// `sum(x)` of a whole-number attribute is a counter too (added on insert,
/// subtracted on delete).
fn is_counter_query(model: &Model, spec: &SelectSpec) -> bool {
    !spec.aggregates.is_empty()
        && spec.aggregates.iter().all(|(f, arg)| {
            f.eq_ignore_ascii_case("count")
                || (f.eq_ignore_ascii_case("sum")
                    && arg.as_ref().is_some_and(|a| {
                        attr_type(model, a)
                            .is_some_and(|t| matches!(t.as_str(), "int" | "bigint" | "smallint"))
                    }))
        })
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
        purpose: TablePurpose::Counters,
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
        ann: Vec::new(),
        value_set: false,
    };
    add_columns(model, &mut t, &[], &[]);
    let mut parts: Vec<KeyPart> = Vec::new();
    for (f, arg) in &spec.aggregates {
        let part = match (f.as_str(), arg) {
            ("sum", Some(a)) => KeyPart::Sum(rep(classes, a)),
            _ => KeyPart::Counter,
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    for part in parts {
        let (name, cql_type) = match &part {
            KeyPart::Sum(c) => (format!("sum_{}", c.column), "counter".to_string()),
            _ => ("count".to_string(), "counter".to_string()),
        };
        if let KeyPart::Sum(c) = &part {
            t.decisions.push(format!(
                "`sum({})` is the counter `{name}`: added on insert, subtracted on delete, moved by the difference on update",
                c.column
            ));
        }
        t.columns.push(TableColumn {
            name,
            cql_type,
            role: Role::Regular,
            part,
        });
    }
    t
}
