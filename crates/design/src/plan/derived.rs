//! The statistics of one designed table, derived from the statistics of the
//! relational entities it holds: a leaf of the sizing stage, shared by
//! sizing, time-only tables, point reads, statics and the cost per key.

use std::collections::BTreeMap;

use cqlmodel_stats::{BucketUnit, ColumnStats, Distribution, Retention, Stats, TableStats, Volume};

use crate::derive::{KeyPart, Role, TableDesign};
use crate::relational::Model;
use crate::schema_out::{keyspace_cql, table_cql};
use crate::stats_keys::{entity_key, rows_per_join_value};

/// The grain's statistics renamed to the table's columns. A table of several
/// entities' rows (a timeline: posts × follows) holds the growing one's rows
/// times the mean number of rows of each other one that meets a row of it.
pub(crate) fn derived_stats(model: &Model, t: &TableDesign, stats: &Stats) -> TableStats {
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
            KeyPart::Whole => Some(ColumnStats {
                distinct: Some(1.0),
                distribution: Some(Distribution::Uniform),
                ..ColumnStats::default()
            }),
            KeyPart::Counter | KeyPart::Sum(_) => None,
        };
        if let Some(cs) = cs {
            ts.columns.insert(c.name.clone(), cs);
        }
    }
    keyed_through_parent(model, t, stats, &mut ts);
    foreign_key_values(model, t, stats, &mut ts);
    key_values_per_row(model, t, &mut ts);
    super::key_values::generated_key_values(model, t, stats, &mut ts);
    super::key_values::listed_key_values(model, t, &mut ts);
    ts
}

/// A partition-key column that is a foreign key and whose distinct count the
/// statistics do not give has, at most and by default, as many values as the
/// referenced table has rows (every parent has children), not the loader's
/// constant default.
fn foreign_key_values(model: &Model, t: &TableDesign, stats: &Stats, ts: &mut TableStats) {
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        let Some(e) = model.entity(&a.entity) else {
            continue;
        };
        let Some(fk) = e
            .foreign_keys
            .iter()
            .find(|f| f.columns.as_slice() == [a.column.clone()])
        else {
            continue;
        };
        let Some(parent) = stats.tables.get(&entity_key(&fk.table)) else {
            continue;
        };
        let rows = match parent.volume {
            Volume::Fixed { rows } => rows,
            Volume::Growth { rows_per_second } => {
                rows_per_second * parent.horizon.unwrap_or(super::limits::DEFAULT_HORIZON) as f64
            }
            Volume::Unspecified => continue,
        };
        let cs = ts.columns.entry(c.name.clone()).or_default();
        if cs.distinct.is_none() {
            cs.distinct = Some(rows.max(1.0).round());
        }
    }
}

/// A partition key that is a parent's unique attribute (`tags.name` keying
/// `videos_by_tag_name`) spreads the rows as the grain's foreign key to that
/// parent does (`video_tags.tag_id`, zipf): one name, one tag. The parent's own
/// statistics (one row per name) would say nothing of the skew.
fn keyed_through_parent(model: &Model, t: &TableDesign, stats: &Stats, ts: &mut TableStats) {
    for c in t.columns.iter().filter(|c| c.role == Role::PartitionKey) {
        let KeyPart::Attr(a) = &c.part else { continue };
        if t.grain.contains(&a.entity) {
            continue;
        }
        let Some(parent) = model.entity(&a.entity) else {
            continue;
        };
        let unique = parent
            .keys()
            .any(|k| matches!(k.as_slice(), [only] if *only == a.column));
        let [pk] = parent.primary_key.as_slice() else {
            continue;
        };
        if !unique {
            continue;
        }
        let pk_ref = crate::select::ColRef {
            entity: parent.name.clone(),
            column: pk.clone(),
        };
        let via = crate::derive::class_of(&t.classes, &pk_ref)
            .into_iter()
            .find(|x| t.grain.contains(&x.entity));
        let Some(fk) = via.and_then(|x| {
            stats
                .tables
                .get(&entity_key(&x.entity))
                .and_then(|s| s.column(&x.column))
                .cloned()
        }) else {
            continue;
        };
        if fk.distinct.is_some() || fk.distribution.is_some() {
            let cs = ts.columns.entry(c.name.clone()).or_default();
            cs.distinct = fk.distinct.or(cs.distinct);
            cs.distribution = fk.distribution.or(cs.distribution);
        }
    }
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
                Retention::Seconds(s) => {
                    s.min(ts.horizon.unwrap_or(super::limits::DEFAULT_HORIZON))
                }
                _ => ts.horizon.unwrap_or(super::limits::DEFAULT_HORIZON),
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

pub(crate) fn build_one(keyspace: &str, t: &TableDesign) -> Option<cqlmodel_schema::Schema> {
    let ddl = format!("{}\n{}", keyspace_cql(keyspace), table_cql(keyspace, t));
    let build = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(&ddl).statements);
    build.errors.is_empty().then_some(build.schema)
}
