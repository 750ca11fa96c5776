//! A table keyed by a UNIQUE key is where a write claims the value (`INSERT …
//! IF NOT EXISTS`) and releases it (`DELETE … IF <owner> = ?`). The release
//! must check the value is still this row's: a delete retried later, after
//! another row claimed the value, would otherwise remove the new owner's
//! claim. So the table holds the owner's primary key, whatever the reads
//! select.

use crate::derive::{KeyPart, TableDesign, TableKind, add_columns};
use crate::relational::{Entity, Model};
use crate::select::ColRef;

/// Adds the owner's primary-key columns to every table of one entity's rows
/// keyed by exactly one of its UNIQUE keys.
pub fn hold_claim_owners(model: &Model, tables: &mut [TableDesign]) {
    for t in tables.iter_mut() {
        let Some(e) = model.entity(&t.entity) else {
            continue;
        };
        if !keyed_by_unique(t, e) {
            continue;
        }
        let owner: Vec<ColRef> = e
            .primary_key
            .iter()
            .map(|c| ColRef {
                entity: e.name.clone(),
                column: c.clone(),
            })
            .collect();
        if owner.iter().all(|c| t.column_of(c).is_some()) {
            continue;
        }
        // Kept columns stay; the owner's join them as regular columns.
        add_columns(model, t, &owner, &[]);
        t.decisions.push(format!(
            "holds `{}` ({}): a claimed value is released only while it is still this row's (`DELETE … IF {} = ?`)",
            e.name,
            e.primary_key.join(", "),
            e.primary_key.join(" = ? AND ")
        ));
    }
}

/// One entity's rows, one per partition, the partition key one UNIQUE key.
fn keyed_by_unique(t: &TableDesign, e: &Entity) -> bool {
    if t.kind != TableKind::Table || t.grain != [e.name.clone()] || !t.clustering.is_empty() {
        return false;
    }
    let columns: Vec<&str> = t
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(a) if a.entity == e.name => Some(a.column.as_str()),
            _ => None,
        })
        .collect();
    columns.len() == t.partition_key.len()
        && e.uniques
            .iter()
            .any(|u| u.len() == columns.len() && u.iter().all(|c| columns.contains(&c.as_str())))
}
