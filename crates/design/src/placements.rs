//! Where each attribute of each entity lives in the design: the tables (and
//! their columns) that store it. An attribute stored nowhere is a write the
//! design loses, so the list is part of the report and the JSON.

use serde::Serialize;

use crate::derive::{TableDesign, TableKind};
use crate::relational::Model;
use crate::select::ColRef;

/// One attribute and the `table.column`s holding it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub column: String,
    pub stored_in: Vec<String>,
}

/// One entity's attributes, in model order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntityPlacement {
    pub entity: String,
    pub columns: Vec<Placement>,
}

/// Every entity's attributes with the tables that store them (a view counts:
/// Cassandra keeps it from its base).
pub fn placements(model: &Model, tables: &[TableDesign]) -> Vec<EntityPlacement> {
    model
        .entities
        .iter()
        .map(|e| EntityPlacement {
            entity: e.name.clone(),
            columns: e
                .attributes
                .iter()
                .map(|a| Placement {
                    column: a.name.clone(),
                    stored_in: stored_in(tables, &e.name, &a.name),
                })
                .collect(),
        })
        .collect()
}

/// `table.column` of every table holding the attribute.
pub fn stored_in(tables: &[TableDesign], entity: &str, column: &str) -> Vec<String> {
    let attr = ColRef {
        entity: entity.to_string(),
        column: column.to_string(),
    };
    tables
        .iter()
        .filter(|t| !matches!(t.kind, TableKind::View { .. }) || t.column_of(&attr).is_some())
        .filter_map(|t| t.column_of(&attr).map(|c| format!("{}.{}", t.name, c.name)))
        .collect()
}
