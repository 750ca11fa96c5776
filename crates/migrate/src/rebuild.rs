//! A rebuild: the new table, where each of its columns comes from in the old
//! one, and the runbook of the move (dual write, backfill, verify, switch).

use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{ColumnKind, Table};
use serde::Serialize;

use crate::backfill::Backfill;
pub use crate::column_map::{ColumnMap, ColumnSource};
use crate::dual_write::AppRewrite;

/// Everything the runbook says about one rebuilt table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rebuild {
    /// `ks.t`, the table that holds the data today.
    pub old_table: String,
    /// `ks.t_v2`: the table the plan creates.
    pub new_table: String,
    /// The name NEW gives it (differs from `new_table` when NEW reuses the old name).
    pub name_in_new: String,
    pub columns: Vec<ColumnMap>,
    /// The old columns the new table has no place for (not copied).
    pub not_copied: Vec<String>,
    /// The partition key is the same: the rows land in the same token ranges.
    pub same_partition_key: bool,
    /// The old table's partition key columns.
    pub old_key: Vec<String>,
    pub dual_writes: Vec<AppRewrite>,
    pub reads: Vec<AppRewrite>,
    pub backfill: Backfill,
}

/// How each column of `new` is filled from `old`; `declared` are the user's
/// renames `(old, new)` of regular columns.
pub fn map_columns(
    old: &Table,
    new: &Table,
    declared: &[(String, String)],
) -> (Vec<ColumnMap>, Vec<String>) {
    let renamed_from = |to: &str| {
        declared
            .iter()
            .find(|(from, t)| t == to && old.column(from).is_some())
            .map(|(from, _)| from.clone())
    };
    let columns = new
        .columns
        .iter()
        .map(|c| {
            let source = match old.column(&c.name) {
                None if renamed_from(&c.name).is_some() => ColumnSource::Renamed {
                    from: renamed_from(&c.name).unwrap_or_default(),
                },
                Some(o) if crate::type_rebuild::same_type(&o.ty, &c.ty) => ColumnSource::Same,
                Some(o) => ColumnSource::Converted {
                    from_type: o.ty.to_string(),
                },
                None => derive(old, &c.ty),
            };
            ColumnMap {
                column: c.name.clone(),
                ty: c.ty.to_string(),
                key: c.is_primary_key(),
                source,
            }
        })
        .collect();
    let not_copied = old
        .columns
        .iter()
        .filter(|o| new.column(&o.name).is_none())
        .filter(|o| !declared.iter().any(|(from, _)| *from == o.name))
        .filter(|o| {
            // A column a derived one reads is still used.
            !new.columns.iter().any(|c| {
                old.column(&c.name).is_none()
                    && matches!(derive(old, &c.ty), ColumnSource::Derived { ref from, .. } if *from == o.name)
            })
        })
        .map(|o| o.name.clone())
        .collect();
    (columns, not_copied)
}

/// A new column no old column has: a `date` is taken as the day of the old
/// table's timestamp (its clustering timestamp first) — the usual time bucket.
/// Anything else is the application's own function, which cqlmodel cannot see.
fn derive(old: &Table, ty: &CqlType) -> ColumnSource {
    if *ty != CqlType::Native(NativeType::Date) {
        return ColumnSource::Unknown;
    }
    let timestamp = |c: &&cqlmodel_schema::Column| c.ty == CqlType::Native(NativeType::Timestamp);
    let pick = old
        .columns
        .iter()
        .filter(timestamp)
        .find(|c| matches!(c.kind, ColumnKind::Clustering(..)))
        .or_else(|| old.columns.iter().find(timestamp));
    match pick {
        Some(ts) => ColumnSource::Derived {
            from: ts.name.clone(),
            expr: format!("todate({})", crate::cql_text::quote(&ts.name)),
        },
        None => ColumnSource::Unknown,
    }
}

/// A free name for the new table: `t_v2`, or `t_v(N+1)` for `t_vN`.
pub fn next_name(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let (stem, mut n) = match name.rsplit_once("_v") {
        Some((stem, num)) if !stem.is_empty() => match num.parse::<u32>() {
            Ok(v) => (stem.to_string(), v + 1),
            Err(_) => (name.to_string(), 2),
        },
        _ => (name.to_string(), 2),
    };
    loop {
        let candidate = format!("{stem}_v{n}");
        if !taken(&candidate) {
            return candidate;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::next_name;

    #[test]
    fn new_names_count_up() {
        let none = |_: &str| false;
        assert_eq!(next_name("temp", &none), "temp_v2");
        assert_eq!(next_name("temp_v2", &none), "temp_v3");
        assert_eq!(next_name("temp_vx", &none), "temp_vx_v2");
        let taken = |n: &str| n == "temp_v2";
        assert_eq!(next_name("temp", &taken), "temp_v3");
    }
}
