//! What the target refuses, in its own words. Cassandra 5.0's messages are the
//! schema crate's (`SchemaErrorKind`, checked character for character against
//! `AlterTableStatement`); ScyllaDB's are those of its
//! `cql3/statements/alter_table_statement.cc`.

use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{ColumnKind, SchemaErrorKind};

use serde::Serialize;

/// The database the plan is for: where ScyllaDB accepts or refuses a change
/// Cassandra 5.0 does not, the plan follows the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    #[default]
    Cassandra,
    Scylla,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Cassandra => "Cassandra 5.0",
            Target::Scylla => "ScyllaDB",
        }
    }
}

/// A refusal: the statement a user would try and the target's message.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub attempted: String,
    pub message: String,
}

/// `ALTER TABLE t ALTER c TYPE new`: Cassandra 4.0+ refuses every one; ScyllaDB
/// accepts a type whose values the old bytes still read as (`None` = accepted).
pub fn alter_type(
    target: Target,
    table: &str,
    column: &str,
    kind: ColumnKind,
    old: &CqlType,
    new: &CqlType,
) -> Option<Refusal> {
    let attempted = format!("ALTER TABLE {table} ALTER {column} TYPE {new};");
    match target {
        Target::Cassandra => Some(Refusal {
            attempted,
            message: SchemaErrorKind::AlterColumnType.to_string(),
        }),
        Target::Scylla => {
            let clustering = matches!(kind, ColumnKind::Clustering(..));
            let ok = if clustering {
                scylla_order_compatible(old, new)
            } else {
                scylla_value_compatible(old, new)
            };
            (!ok).then(|| Refusal {
                attempted,
                message: format!(
                    "Cannot change {column} from type {old} to type {new}: types are {}.",
                    if clustering {
                        "not order-compatible"
                    } else {
                        "incompatible"
                    }
                ),
            })
        }
    }
}

fn native(t: &CqlType) -> Option<NativeType> {
    match t {
        CqlType::Native(n) => Some(*n),
        _ => None,
    }
}

/// ScyllaDB's `is_value_compatible_with`, for the pairs cqlmodel models: blob
/// from anything, text from ascii, varint from int or bigint, timestamp from
/// bigint, uuid from timeuuid.
pub fn scylla_value_compatible(old: &CqlType, new: &CqlType) -> bool {
    use NativeType as N;
    if old == new {
        return true;
    }
    match (native(old), native(new)) {
        (_, Some(N::Blob)) => true,
        (Some(o), Some(n)) => matches!(
            (o, n),
            (N::Ascii, N::Text)
                | (N::Int | N::Bigint, N::Varint)
                | (N::Bigint, N::Timestamp)
                | (N::Timeuuid, N::Uuid)
        ),
        _ => false,
    }
}

/// ScyllaDB's `is_compatible_with` (the sort order too), for clustering columns:
/// text from ascii, blob from ascii or text, uuid from timeuuid.
pub fn scylla_order_compatible(old: &CqlType, new: &CqlType) -> bool {
    use NativeType as N;
    if old == new {
        return true;
    }
    matches!(
        (native(old), native(new)),
        (Some(N::Ascii), Some(N::Text))
            | (Some(N::Ascii | N::Text), Some(N::Blob))
            | (Some(N::Timeuuid), Some(N::Uuid))
    )
}

pub fn drop_primary_key(target: Target, table: &str, column: &str) -> Refusal {
    Refusal {
        attempted: format!("ALTER TABLE {table} DROP {column};"),
        message: match target {
            Target::Cassandra => SchemaErrorKind::DropPrimaryKeyColumn(column.into()).to_string(),
            Target::Scylla => format!("Cannot drop PRIMARY KEY part {column}"),
        },
    }
}

pub fn rename_regular(target: Target, table: &str, from: &str, to: &str) -> Refusal {
    Refusal {
        attempted: format!("ALTER TABLE {table} RENAME {from} TO {to};"),
        message: match target {
            Target::Cassandra => SchemaErrorKind::RenameNonPrimaryKey(from.into()).to_string(),
            Target::Scylla => format!("Cannot rename non PRIMARY KEY part {from}"),
        },
    }
}

/// Adding a counter to a table of other columns, or the reverse.
pub fn counter_mix(
    target: Target,
    keyspace: &str,
    table: &str,
    column: &str,
    ty: &CqlType,
    counter_table: bool,
) -> Refusal {
    let attempted = format!("ALTER TABLE {keyspace}.{table} ADD {column} {ty};");
    let (keyspace, table, column) = (keyspace.to_string(), table.to_string(), column.to_string());
    let message = match (target, counter_table) {
        (Target::Scylla, false) => {
            format!("Cannot add a counter column ({column}) in a non counter column family")
        }
        (_, false) => SchemaErrorKind::CounterInNonCounterTable {
            keyspace,
            table,
            column,
        }
        .to_string(),
        (_, true) => SchemaErrorKind::NonCounterInCounterTable {
            keyspace,
            table,
            column,
        }
        .to_string(),
    };
    Refusal { attempted, message }
}

/// ALT-5: a column's kind (static or regular) cannot change through DROP and ADD,
/// because `system_schema.dropped_columns` remembers the old kind.
pub fn readd_other_kind(table: &str, column: &str, old_static: bool, ty: &CqlType) -> Refusal {
    let kind = |s: bool| if s { "STATIC" } else { "REGULAR" };
    Refusal {
        attempted: format!(
            "ALTER TABLE {table} DROP {column}; ALTER TABLE {table} ADD {column} {ty}{};",
            if old_static { "" } else { " static" }
        ),
        message: format!(
            "Cannot re-add previously dropped column '{column}' of kind {}, incompatible with previous kind {}",
            kind(!old_static),
            kind(old_static)
        ),
    }
}

/// ALT-9.
pub fn drop_non_frozen_udt(table: &str, column: &str, udt: &str) -> Refusal {
    Refusal {
        attempted: format!("ALTER TABLE {table} DROP {column};"),
        message: SchemaErrorKind::DropNonFrozenUdtColumn {
            column: column.into(),
            ty: udt.into(),
        }
        .to_string(),
    }
}

/// ALT-11 (Cassandra: any view on the table blocks every drop; ScyllaDB: only a
/// view that holds the column). `view` is a view that holds it, if any.
pub fn drop_with_views(
    target: Target,
    keyspace: &str,
    table: &str,
    column: &str,
    has_views: bool,
    view: Option<&str>,
) -> Option<Refusal> {
    let attempted = format!("ALTER TABLE {keyspace}.{table} DROP {column};");
    match target {
        Target::Cassandra => has_views.then(|| Refusal {
            attempted,
            message: SchemaErrorKind::DropColumnWithViews {
                column: column.into(),
                table: table.into(),
            }
            .to_string(),
        }),
        Target::Scylla => view.map(|v| Refusal {
            attempted,
            message: format!(
                "Cannot drop column {column} from base table {keyspace}.{table}: materialized view {v} needs this column"
            ),
        }),
    }
}

/// ALT-10: an indexed column cannot be dropped before its indexes.
pub fn drop_indexed(table: &str, column: &str, indexes: Vec<String>) -> Refusal {
    Refusal {
        attempted: format!("ALTER TABLE {table} DROP {column};"),
        message: SchemaErrorKind::DropIndexedColumn {
            column: column.into(),
            indexes,
        }
        .to_string(),
    }
}

/// ALT-15: a key column cannot be renamed while an index uses it.
pub fn rename_indexed(table: &str, from: &str, to: &str, indexes: Vec<String>) -> Refusal {
    Refusal {
        attempted: format!("ALTER TABLE {table} RENAME {from} TO {to};"),
        message: SchemaErrorKind::RenameIndexedColumn {
            column: from.into(),
            indexes,
        }
        .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scylla_accepts_only_compatible_types() {
        let t = |n| CqlType::Native(n);
        assert!(scylla_value_compatible(
            &t(NativeType::Ascii),
            &t(NativeType::Text)
        ));
        assert!(!scylla_value_compatible(
            &t(NativeType::Text),
            &t(NativeType::Int)
        ));
        assert!(!scylla_order_compatible(
            &t(NativeType::Int),
            &t(NativeType::Varint)
        ));
        let refused = alter_type(
            Target::Scylla,
            "ks.t",
            "v",
            ColumnKind::Regular,
            &t(NativeType::Text),
            &t(NativeType::Int),
        );
        assert_eq!(
            refused.map(|r| r.message),
            Some("Cannot change v from type text to type int: types are incompatible.".into())
        );
        let cassandra = alter_type(
            Target::Cassandra,
            "ks.t",
            "v",
            ColumnKind::Regular,
            &t(NativeType::Ascii),
            &t(NativeType::Text),
        );
        assert_eq!(
            cassandra.map(|r| r.message),
            Some("Altering column types is no longer supported".into())
        );
    }
}
