//! The changed table as CREATE TABLE text: the schema's table under a new name,
//! one column added to the partition key, everything else as it was. The text is
//! checked the way Cassandra would: parsed with crates/cql and created, beside
//! the old table, in the schema with crates/schema.

use cqlmodel_cql::ast::{Ident, Order};
use cqlmodel_schema::{ColumnKind, Schema, SchemaBuilder, Table};

/// A column that joins the partition key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyColumn {
    pub name: String,
    pub ty: String,
    /// Printed after the column as `-- comment`.
    pub comment: String,
}

fn quoted(name: &str) -> String {
    Ident::new(name).to_string()
}

/// A name no column of `table` has: `base`, else `base_bucket`, `base_2`, ...
pub fn fresh_column(table: &Table, base: &str) -> String {
    if table.column(base).is_none() {
        return base.to_string();
    }
    std::iter::once(format!("{base}_bucket"))
        .chain((2..100).map(|n| format!("{base}_{n}")))
        .find(|n| table.column(n).is_none())
        .unwrap_or_else(|| format!("{base}_x"))
}

/// `CREATE TABLE ks.new_name (...)` with `added` as the last partition-key column.
pub fn create_table(table: &Table, new_name: &str, added: &KeyColumn) -> String {
    let mut partition: Vec<(usize, &str)> = Vec::new();
    let mut clustering: Vec<(usize, &str, Order)> = Vec::new();
    for c in &table.columns {
        match c.kind {
            ColumnKind::PartitionKey(i) => partition.push((i, &c.name)),
            ColumnKind::Clustering(i, o) => clustering.push((i, &c.name, o)),
            ColumnKind::Static | ColumnKind::Regular => {}
        }
    }
    partition.sort_by_key(|(i, _)| *i);
    clustering.sort_by_key(|(i, ..)| *i);
    let width = table
        .columns
        .iter()
        .map(|c| quoted(&c.name).len())
        .chain([quoted(&added.name).len()])
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "CREATE TABLE {}.{} (\n",
        quoted(&table.keyspace),
        quoted(new_name)
    );
    let added_at = table.partition_key_len();
    for (i, c) in table.columns.iter().enumerate() {
        if i == added_at {
            push_added(&mut out, added, width);
        }
        let stat = if c.is_static() { " STATIC" } else { "" };
        out.push_str(&format!(
            "    {:<width$} {}{stat},\n",
            quoted(&c.name),
            c.ty
        ));
    }
    if added_at >= table.columns.len() {
        push_added(&mut out, added, width);
    }
    let mut pk: Vec<String> = partition.iter().map(|(_, n)| quoted(n)).collect();
    pk.push(quoted(&added.name));
    out.push_str(&format!("    PRIMARY KEY (({})", pk.join(", ")));
    for (_, n, _) in &clustering {
        out.push_str(&format!(", {}", quoted(n)));
    }
    out.push_str(")\n)");
    let mut with: Vec<String> = Vec::new();
    if clustering.iter().any(|(.., o)| *o == Order::Desc) {
        let order: Vec<String> = clustering
            .iter()
            .map(|(_, n, o)| format!("{} {}", quoted(n), o.keyword()))
            .collect();
        with.push(format!("CLUSTERING ORDER BY ({})", order.join(", ")));
    }
    with.extend(
        table
            .options
            .raw
            .iter()
            .map(|(name, value)| format!("{} = {value}", quoted(name))),
    );
    for (i, w) in with.iter().enumerate() {
        out.push_str(if i == 0 { " WITH " } else { "\n    AND " });
        out.push_str(w);
    }
    out.push(';');
    out
}

fn push_added(out: &mut String, added: &KeyColumn, width: usize) {
    out.push_str(&format!(
        "    {:<width$} {},  -- {}\n",
        quoted(&added.name),
        added.ty,
        added.comment
    ));
}

/// Parses `cql` and creates it in `schema`: the errors Cassandra would answer
/// with, if any.
pub fn validate(cql: &str, schema: &Schema) -> Result<(), String> {
    let parsed = cqlmodel_cql::parse(cql);
    if let Some(e) = parsed.errors.first() {
        return Err(format!("does not parse: {e}"));
    }
    let mut builder = SchemaBuilder::with_schema(schema.clone());
    builder.add_statements(0, &parsed.statements);
    match builder.errors().first() {
        Some(e) => Err(format!("Cassandra would reject it: {e}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqlmodel_schema::build_schema;

    fn schema(ddl: &str) -> Schema {
        let build = build_schema(0, &cqlmodel_cql::parse(ddl).statements);
        assert!(build.errors.is_empty(), "{:?}", build.errors);
        build.schema
    }

    const DDL: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
        CREATE TABLE ks.\"Events\" (\"Tenant\" text, day int, seq int, owner text STATIC, body blob,
            PRIMARY KEY ((\"Tenant\"), seq)) WITH gc_grace_seconds = 3600;";

    #[test]
    fn quoted_names_static_columns_and_options_survive_and_validate() {
        let s = schema(DDL);
        let table = s.table("ks", "Events").expect("table");
        let name = fresh_column(table, "day");
        assert_eq!(name, "day_bucket", "the table has a `day` column already");
        let added = KeyColumn {
            name,
            ty: "timestamp".into(),
            comment: "start of the day".into(),
        };
        let cql = create_table(table, "Events_by_day", &added);
        assert!(
            cql.starts_with("CREATE TABLE ks.\"Events_by_day\" ("),
            "{cql}"
        );
        assert!(cql.contains("owner      text STATIC,"), "{cql}");
        assert!(
            cql.contains("PRIMARY KEY ((\"Tenant\", day_bucket), seq)"),
            "{cql}"
        );
        assert!(cql.contains("WITH gc_grace_seconds = 3600;"), "{cql}");
        assert_eq!(validate(&cql, &s), Ok(()));
    }

    #[test]
    fn a_table_cassandra_rejects_is_said_to_be_rejected() {
        let s = schema(DDL);
        // Creating the old table again under its own name: it exists.
        let table = s.table("ks", "Events").expect("table");
        let added = KeyColumn {
            name: "b".into(),
            ty: "int".into(),
            comment: "salt".into(),
        };
        let cql = create_table(table, "Events", &added);
        assert!(validate(&cql, &s).is_err_and(|e| e.starts_with("Cassandra would reject it")));
        assert!(validate("CREATE TABLE (", &s).is_err_and(|e| e.starts_with("does not parse")));
    }
}
