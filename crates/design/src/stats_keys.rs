//! How the statistics file names the relational entities, and what it says
//! about a join: a leaf module shared by sizing and the write paths.

use cqlmodel_stats::{Stats, Volume};

use crate::derive::TableDesign;

/// The keyspace the statistics file's entity names resolve in: PostgreSQL's
/// default schema, so that `"public.readings"` and `readings` both work.
pub const MODEL_KEYSPACE: &str = "public";

pub(crate) fn entity_key(entity: &str) -> String {
    format!("{MODEL_KEYSPACE}.{entity}")
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
