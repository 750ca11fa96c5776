//! Small bounded tables read whole (issue 10 §4): a read with no predicate of
//! an entity the statistics bound to a few rows (plans, countries) is one
//! partition with a constant key, not a scan of every partition.

use std::collections::BTreeMap;

use cqlmodel_stats::{Stats, Volume};

use crate::derive::{KeyPart, OffPath, TableDesign, TableKind, add_columns};
use crate::querylist::{Body, QuerySpec};
use crate::relational::Model;
use crate::select::ColRef;
use crate::stats_keys::entity_key;

/// The most rows a table read whole may hold: far under the review's 100,000
/// rows per partition, so that growth by an order of magnitude still fits.
pub const WHOLE_TABLE_ROWS: f64 = 10_000.0;

/// The reason `table_for` gives a read with no predicate.
const NO_PREDICATE: &str = "no equality predicate";

/// Takes out of `off` every read with no predicate of one small entity and
/// returns its table: `bucket int` (always 0) as partition key, the entity's
/// primary key as clustering, the projected attributes as columns.
pub(super) fn whole_tables(
    model: &Model,
    specs: &[QuerySpec],
    stats: Option<&Stats>,
    off: &mut BTreeMap<String, OffPath>,
) -> Vec<TableDesign> {
    let mut out = Vec::new();
    for q in specs {
        let Body::Select(spec) = &q.body else {
            continue;
        };
        let Some(o) = off.get(&q.name) else { continue };
        let [entity] = spec.entities.as_slice() else {
            continue;
        };
        if !o.reason.starts_with(NO_PREDICATE)
            || !spec.ranges.is_empty()
            || !spec.ad_hoc.is_empty()
            || !spec.aggregates.is_empty()
        {
            continue;
        }
        let rows = match bounded_rows(stats, entity) {
            Ok(rows) => rows,
            Err(why) => {
                if let Some(o) = off.get_mut(&q.name) {
                    *o = unbounded(entity, &why);
                }
                continue;
            }
        };
        let Some(e) = model.entity(entity) else {
            continue;
        };
        if e.primary_key.is_empty() {
            continue;
        }
        let attr = |c: &str| ColRef {
            entity: entity.clone(),
            column: c.to_string(),
        };
        let mut t = TableDesign {
            name: q.table.clone().unwrap_or_default(),
            entity: entity.clone(),
            grain: vec![entity.clone()],
            kind: TableKind::Table,
            purpose: crate::derive::TablePurpose::Data,
            partition_key: vec![KeyPart::Whole],
            clustering: e
                .primary_key
                .iter()
                .map(|c| (KeyPart::Attr(attr(c)), false))
                .collect(),
            columns: Vec::new(),
            queries: vec![q.name.clone()],
            decisions: vec![format!(
                "`{entity}` read whole: the statistics bound it to {} rows (at most {} for a table read whole), so every row lives in one partition under a constant key `bucket` = 0 (bound 0 on every write); {} reads that one partition instead of every partition",
                super::trim_float(rows),
                super::trim_float(WHOLE_TABLE_ROWS),
                q.name
            )],
            compaction: String::new(),
            compaction_reason: String::new(),
            ttl: None,
            classes: Vec::new(),
            ordered: 0,
            ann: Vec::new(),
            value_set: false,
        };
        let wanted: Vec<ColRef> = spec
            .projection
            .iter()
            .filter(|c| c.entity == *entity)
            .cloned()
            .collect();
        add_columns(model, &mut t, &wanted, &[]);
        off.remove(&q.name);
        out.push(t);
    }
    out
}

/// The entity's row count when the statistics fix it at most at the bound;
/// else what the statistics say instead (the reason the read is refused).
fn bounded_rows(stats: Option<&Stats>, entity: &str) -> Result<f64, String> {
    let Some(stats) = stats else {
        return Err("no statistics file bounds it".to_string());
    };
    let Some(es) = stats.tables.get(&entity_key(entity)) else {
        return Err(format!("the statistics file does not describe `{entity}`"));
    };
    match es.volume {
        Volume::Fixed { rows } if rows <= WHOLE_TABLE_ROWS => Ok(rows),
        Volume::Fixed { rows } => Err(format!(
            "the statistics give it {} rows, over the {} a table read whole may hold",
            super::trim_float(rows),
            super::trim_float(WHOLE_TABLE_ROWS)
        )),
        Volume::Growth { rows_per_second } => Err(format!(
            "it grows ({}) by the statistics, so no bound holds",
            crate::numbers::rate_text(rows_per_second)
        )),
        Volume::Unspecified => Err(format!("the statistics give no `rows` for `{entity}`")),
    }
}

/// A read with no predicate of an entity nothing bounds: refused, with the
/// assumption the design will not make named, and what would change it.
fn unbounded(entity: &str, why: &str) -> OffPath {
    OffPath {
        reason: format!(
            "{NO_PREDICATE}: a read of every `{entity}` row, and {why}; the design does not assume it small (one constant partition holding a table that grows would pass the partition limits unseen), so every partition would be read"
        ),
        alternative: format!(
            "if `{entity}` is a small fixed list, give it `rows = N` (at most {}) in the statistics file: it is then read whole from one partition; otherwise cache the result, or compute it by a periodic job",
            super::trim_float(WHOLE_TABLE_ROWS)
        ),
    }
}

/// True for a table read whole (its partition key is the constant bucket).
pub(super) fn is_whole(t: &TableDesign) -> bool {
    t.partition_key == [KeyPart::Whole]
}
