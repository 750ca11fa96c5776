//! Where each attribute of each entity lives in the design: the tables (and
//! their columns) that store it. An attribute stored nowhere is a write the
//! design loses, so the list is part of the report and the JSON.

use serde::Serialize;

use crate::derive::TableDesign;
use crate::relational::Model;
use crate::select::ColRef;
use crate::tables_by_entity::TablesByEntity;

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
///
/// Each entity looks only at the tables that name it (in a column or a join
/// equivalence), in design order: a 10,000-table design does not scan every
/// table for every attribute.
pub fn placements(model: &Model, tables: &[TableDesign]) -> Vec<EntityPlacement> {
    let by_entity = TablesByEntity::new(tables);
    model
        .entities
        .iter()
        .map(|e| {
            let holding: Vec<&TableDesign> = by_entity
                .naming(&e.name)
                .iter()
                .filter_map(|&i| tables.get(i))
                .collect();
            EntityPlacement {
                entity: e.name.clone(),
                columns: e
                    .attributes
                    .iter()
                    .map(|a| Placement {
                        column: a.name.clone(),
                        stored_in: stored_in(holding.iter().copied(), &e.name, &a.name),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `table.column` of every table holding the attribute (a view holds what
/// its base gave it).
pub fn stored_in<'a>(
    tables: impl IntoIterator<Item = &'a TableDesign>,
    entity: &str,
    column: &str,
) -> Vec<String> {
    let attr = ColRef {
        entity: entity.to_string(),
        column: column.to_string(),
    };
    tables
        .into_iter()
        .filter_map(|t| t.column_of(&attr).map(|c| format!("{}.{}", t.name, c.name)))
        .collect()
}
