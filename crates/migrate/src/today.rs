//! The other direction of the dual-write rewriting: given a write on the new
//! table (a write path of `cqlmodel design`), the statement that does the same
//! on the old table today, through the rebuild's column mapping read backwards
//! (a renamed column takes its old name, a derived key column such as a day
//! bucket has no old counterpart and is left out). When the old table's key is
//! not given by the new statement, there is no such statement: the error says
//! which columns are missing.

use cqlmodel_cql::ast::{
    AssignmentKind, ColumnRef, Ident, InsertValues, QualifiedName, Relation, RelationKind,
    Statement, StatementKind,
};
use cqlmodel_schema::Table;

use crate::column_map::{ColumnMap, ColumnSource};

/// The old table's column giving new column `column`, when one gives it as is.
fn old_name<'a>(columns: &'a [ColumnMap], column: &str) -> Option<&'a str> {
    let m = columns.iter().find(|m| m.column == column)?;
    match &m.source {
        ColumnSource::Same | ColumnSource::Converted { .. } => Some(&m.column),
        ColumnSource::Renamed { from } => Some(from),
        ColumnSource::Derived { .. } | ColumnSource::Unknown => None,
    }
}

fn on_old(name: &mut QualifiedName, old: &Table) {
    name.keyspace = Some(Ident::new(old.keyspace.as_str()));
    name.name = Ident::new(old.name.as_str());
}

fn ident_of(r: &mut ColumnRef) -> &mut Ident {
    match r {
        ColumnRef::Column(c) | ColumnRef::Element(c, _) | ColumnRef::Field(c, _) => c,
    }
}

fn relation_column(r: &mut Relation) -> Option<&mut Ident> {
    match &mut r.kind {
        RelationKind::Column { column, .. }
        | RelationKind::ColumnIn { column, .. }
        | RelationKind::MapEntry { column, .. } => Some(column),
        _ => None,
    }
}

/// Renames `ident` to its old column, `false` when the old table has none.
fn to_old(ident: &mut Ident, columns: &[ColumnMap]) -> bool {
    match old_name(columns, &ident.value) {
        Some(old) => {
            *ident = Ident::new(old);
            true
        }
        None => false,
    }
}

fn where_to_old(relations: &mut Vec<Relation>, columns: &[ColumnMap]) {
    relations.retain_mut(|r| relation_column(r).is_none_or(|c| to_old(c, columns)));
}

/// The columns the statement names in its key position (WHERE, or INSERT's list).
fn key_given(s: &StatementKind) -> Vec<String> {
    let of_where = |w: &[Relation]| {
        w.iter()
            .filter_map(|r| match &r.kind {
                RelationKind::Column { column, .. }
                | RelationKind::ColumnIn { column, .. }
                | RelationKind::MapEntry { column, .. } => Some(column.value.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    match s {
        StatementKind::Insert(i) => match &i.values {
            InsertValues::Values { columns, .. } => {
                columns.iter().map(|c| c.value.clone()).collect()
            }
            InsertValues::Json { .. } => Vec::new(),
        },
        StatementKind::Update(u) => of_where(&u.where_clause),
        StatementKind::Delete(d) => of_where(&d.where_clause),
        _ => Vec::new(),
    }
}

/// The statement on `old` that writes what `new_write` writes on the new table.
/// `Err` says why there is none.
pub fn today_statement(
    new_write: &Statement,
    old: &Table,
    columns: &[ColumnMap],
) -> Result<String, String> {
    let mut s = new_write.clone();
    let mut dropped = Vec::new();
    match &mut s.kind {
        StatementKind::Insert(i) => {
            on_old(&mut i.table, old);
            match &mut i.values {
                InsertValues::Values {
                    columns: cs,
                    values,
                } => {
                    let mut kept = Vec::new();
                    for (c, v) in cs.iter().zip(values.iter()) {
                        let mut c = c.clone();
                        if to_old(&mut c, columns) {
                            kept.push((c, v.clone()));
                        } else {
                            dropped.push(c.value.clone());
                        }
                    }
                    (*cs, *values) = kept.into_iter().unzip();
                }
                InsertValues::Json { .. } => {
                    return Err(
                        "an INSERT … JSON: the document names the new table's columns".into(),
                    );
                }
            }
        }
        StatementKind::Update(u) => {
            on_old(&mut u.table, old);
            u.assignments.retain_mut(|a| {
                let c = match &mut a.kind {
                    AssignmentKind::Set { target, .. } => ident_of(target),
                    AssignmentKind::SelfOp { column, .. }
                    | AssignmentKind::Prepend { column, .. } => column,
                };
                let name = c.value.clone();
                let kept = to_old(c, columns);
                if !kept {
                    dropped.push(name);
                }
                kept
            });
            if u.assignments.is_empty() {
                return Err(format!(
                    "it sets only {}, which the old table does not have",
                    dropped.join(", ")
                ));
            }
            where_to_old(&mut u.where_clause, columns);
        }
        StatementKind::Delete(d) => {
            on_old(&mut d.table, old);
            let whole_row = d.columns.is_empty();
            d.columns.retain_mut(|c| to_old(ident_of(c), columns));
            if !whole_row && d.columns.is_empty() {
                return Err("it deletes only columns the old table does not have".into());
            }
            where_to_old(&mut d.where_clause, columns);
        }
        _ => return Err("not an INSERT, UPDATE or DELETE".into()),
    }
    let given = key_given(&s.kind);
    // A DELETE may remove a whole partition (or a slice of it): it needs only the
    // partition key; INSERT and UPDATE write one row and need all of the key.
    let needed = |c: &&cqlmodel_schema::Column| match s.kind {
        StatementKind::Delete(_) => matches!(c.kind, cqlmodel_schema::ColumnKind::PartitionKey(_)),
        _ => c.is_primary_key(),
    };
    let missing: Vec<&str> = old
        .columns
        .iter()
        .filter(|c| needed(c) && !given.contains(&c.name))
        .map(|c| c.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the old table's key needs {}, which the design's write does not give",
            missing.join(", ")
        ));
    }
    Ok(format!("{s};"))
}

#[cfg(test)]
mod tests {
    use super::today_statement;
    use crate::column_map::{ColumnMap, ColumnSource};

    fn old_table() -> cqlmodel_schema::Table {
        let cql = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
            CREATE TABLE iot.temp (device_id text, ts timestamp, temp double, note text,
            PRIMARY KEY (device_id, ts));";
        let schema = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(cql).statements).schema;
        schema.table("iot", "temp").cloned().expect("the table")
    }

    fn map(column: &str, key: bool, source: ColumnSource) -> ColumnMap {
        ColumnMap {
            column: column.into(),
            ty: String::new(),
            key,
            source,
        }
    }

    /// temp_by_day (device_id, day = todate(ts), ts, temp, remark = note).
    fn columns() -> Vec<ColumnMap> {
        vec![
            map("device_id", true, ColumnSource::Same),
            map(
                "day",
                true,
                ColumnSource::Derived {
                    from: "ts".into(),
                    expr: "todate(ts)".into(),
                },
            ),
            map("ts", true, ColumnSource::Same),
            map("temp", false, ColumnSource::Same),
            map(
                "remark",
                false,
                ColumnSource::Renamed {
                    from: "note".into(),
                },
            ),
        ]
    }

    fn today(cql: &str) -> Result<String, String> {
        let s = cqlmodel_cql::parse(cql).statements.remove(0);
        today_statement(&s, &old_table(), &columns())
    }

    #[test]
    fn a_derived_key_column_is_left_out_and_a_renamed_one_takes_its_old_name() {
        assert_eq!(
            today(
                "INSERT INTO iot.temp_by_day (device_id, day, ts, temp, remark) VALUES (?, ?, ?, ?, ?)"
            ),
            Ok("INSERT INTO iot.temp (device_id, ts, temp, note) VALUES (?, ?, ?, ?);".into())
        );
        assert_eq!(
            today(
                "UPDATE iot.temp_by_day SET remark = ? WHERE device_id = ? AND day = ? AND ts = ?"
            ),
            Ok("UPDATE iot.temp SET note = ? WHERE device_id = ? AND ts = ?;".into())
        );
    }

    #[test]
    fn a_partition_delete_needs_only_the_partition_key_and_a_row_write_all_of_it() {
        assert_eq!(
            today("DELETE FROM iot.temp_by_day WHERE device_id = ? AND day = ?"),
            Ok("DELETE FROM iot.temp WHERE device_id = ?;".into())
        );
        let missing = today("UPDATE iot.temp_by_day SET temp = ? WHERE device_id = ? AND day = ?");
        assert_eq!(
            missing,
            Err("the old table's key needs ts, which the design's write does not give".into())
        );
    }
}
