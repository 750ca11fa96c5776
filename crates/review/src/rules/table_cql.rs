//! CREATE TABLE text for fixes: a table of the schema, changed (a bucket added to
//! the partition key, a column moved out of the key) or a new table derived from it
//! (a lookup table), printed the way people write them: one column a line, the key
//! last, aligned.

use cqlmodel_cql::ast::{Ident, Order};
use cqlmodel_schema::{ColumnKind, Table};

/// A column of a sketched table.
#[derive(Debug, Clone, PartialEq)]
pub struct SketchColumn {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
    /// Printed as `-- comment` after the column.
    pub comment: Option<String>,
}

/// A table to print: columns, key and options.
#[derive(Debug, Clone, PartialEq)]
pub struct TableSketch {
    pub keyspace: String,
    pub name: String,
    pub columns: Vec<SketchColumn>,
    pub partition_key: Vec<String>,
    pub clustering: Vec<(String, Order)>,
    /// `name = value` properties of the WITH clause (CLUSTERING ORDER aside).
    pub options: Vec<String>,
    /// Printed as a `-- comment` line above the statement.
    pub header: Option<String>,
}

fn quoted(name: &str) -> String {
    Ident::new(name).to_string()
}

impl TableSketch {
    /// The table as the schema has it, with its options.
    pub fn of(table: &Table) -> Self {
        let mut clustering: Vec<(usize, String, Order)> = Vec::new();
        let mut partition: Vec<(usize, String)> = Vec::new();
        for c in &table.columns {
            match c.kind {
                ColumnKind::PartitionKey(i) => partition.push((i, c.name.clone())),
                ColumnKind::Clustering(i, order) => clustering.push((i, c.name.clone(), order)),
                ColumnKind::Static | ColumnKind::Regular => {}
            }
        }
        partition.sort();
        clustering.sort_by_key(|(i, ..)| *i);
        TableSketch {
            keyspace: table.keyspace.clone(),
            name: table.name.clone(),
            columns: table
                .columns
                .iter()
                .map(|c| SketchColumn {
                    name: c.name.clone(),
                    ty: c.ty.to_string(),
                    is_static: c.is_static(),
                    comment: None,
                })
                .collect(),
            partition_key: partition.into_iter().map(|(_, n)| n).collect(),
            clustering: clustering.into_iter().map(|(_, n, o)| (n, o)).collect(),
            options: table
                .options
                .raw
                .iter()
                .map(|(name, value)| format!("{} = {value}", quoted(name)))
                .collect(),
            header: None,
        }
    }

    /// An empty table named `keyspace.name`.
    pub fn new(keyspace: &str, name: &str) -> Self {
        TableSketch {
            keyspace: keyspace.to_string(),
            name: name.to_string(),
            columns: Vec::new(),
            partition_key: Vec::new(),
            clustering: Vec::new(),
            options: Vec::new(),
            header: None,
        }
    }

    pub fn has_column(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c.name == name)
    }

    /// `base`, or `base_bucket`, `base_2`, ... when the table has a column of that name.
    pub fn fresh_column_name(&self, base: &str) -> String {
        if !self.has_column(base) {
            return base.to_string();
        }
        let suffixed = format!("{base}_bucket");
        if !self.has_column(&suffixed) {
            return suffixed;
        }
        (2..)
            .map(|n| format!("{base}_{n}"))
            .find(|n| !self.has_column(n))
            .unwrap_or_else(|| format!("{base}_x"))
    }

    /// Adds a column (after the partition-key columns when it joins the key).
    pub fn add_column(&mut self, name: &str, ty: &str, comment: Option<String>) {
        if self.has_column(name) {
            return;
        }
        self.columns.push(SketchColumn {
            name: name.to_string(),
            ty: ty.to_string(),
            is_static: false,
            comment,
        });
    }

    /// Copies a column of `table` (name and type) if it has one.
    pub fn copy_column(&mut self, table: &Table, name: &str) {
        if let Some(c) = table.column(name) {
            self.add_column(&c.name, &c.ty.to_string(), None);
        }
    }

    fn key_rank(&self, name: &str) -> usize {
        if let Some(i) = self.partition_key.iter().position(|n| n == name) {
            return i;
        }
        if let Some(i) = self.clustering.iter().position(|(n, _)| n == name) {
            return self.partition_key.len() + i;
        }
        usize::MAX
    }

    /// The CREATE TABLE statement, ending with `;`.
    pub fn cql(&self) -> String {
        let mut columns: Vec<&SketchColumn> = self.columns.iter().collect();
        // Key columns first, in key order (as DESCRIBE lists them); the rest keep their order.
        columns.sort_by_key(|c| self.key_rank(&c.name));
        let width = columns
            .iter()
            .map(|c| quoted(&c.name).len())
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        if let Some(h) = &self.header {
            for line in h.lines() {
                out.push_str("-- ");
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "CREATE TABLE {}.{} (\n",
            quoted(&self.keyspace),
            quoted(&self.name)
        ));
        for c in columns {
            let mut line = format!("    {:<width$} {}", quoted(&c.name), c.ty);
            if c.is_static {
                line.push_str(" STATIC");
            }
            line.push(',');
            if let Some(comment) = &c.comment {
                line.push_str(&format!("  -- {comment}"));
            }
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("    PRIMARY KEY (");
        let pk: Vec<String> = self.partition_key.iter().map(|n| quoted(n)).collect();
        if pk.len() == 1 {
            out.push_str(&pk.join(", "));
        } else {
            out.push_str(&format!("({})", pk.join(", ")));
        }
        for (name, _) in &self.clustering {
            out.push_str(", ");
            out.push_str(&quoted(name));
        }
        out.push_str(")\n)");
        let mut with: Vec<String> = Vec::new();
        if self.clustering.iter().any(|(_, o)| *o == Order::Desc) {
            let order: Vec<String> = self
                .clustering
                .iter()
                .map(|(n, o)| format!("{} {}", quoted(n), o.keyword()))
                .collect();
            with.push(format!("CLUSTERING ORDER BY ({})", order.join(", ")));
        }
        with.extend(self.options.iter().cloned());
        for (i, w) in with.iter().enumerate() {
            out.push_str(if i == 0 { " WITH " } else { "\n    AND " });
            out.push_str(w);
        }
        out.push(';');
        out
    }
}

/// `orders_by_day` → `orders_by_<suffix>`; `users` → `users_by_<suffix>`.
pub fn derived_table_name(table: &str, suffix: &str) -> String {
    match table.find("_by_") {
        Some(at) => format!("{}_by_{suffix}", table.get(..at).unwrap_or(table)),
        None => format!("{table}_by_{suffix}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(cql: &str) -> Table {
        let parsed = cqlmodel_cql::parse(cql);
        let build = cqlmodel_schema::build_schema(0, &parsed.statements);
        assert!(build.errors.is_empty(), "{:?}", build.errors);
        build
            .schema
            .tables()
            .next()
            .cloned()
            .unwrap_or_else(|| panic!("no table in {cql}"))
    }

    #[test]
    fn prints_what_it_was_given_and_parses_back() {
        let t = table(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
             CREATE TABLE ks.t (a text, b timestamp, c double, \"Odd\" int, PRIMARY KEY (a, b))
             WITH CLUSTERING ORDER BY (b DESC) AND default_time_to_live = 60;",
        );
        let mut sketch = TableSketch::of(&t);
        sketch.add_column("day", "date", Some("date of b".into()));
        sketch.partition_key.push("day".into());
        let cql = sketch.cql();
        assert_eq!(
            cql,
            "CREATE TABLE ks.t (\n    a     text,\n    day   date,  -- date of b\n    b     timestamp,\n    c     double,\n    \"Odd\" int,\n    PRIMARY KEY ((a, day), b)\n) WITH CLUSTERING ORDER BY (b DESC)\n    AND default_time_to_live = 60;"
        );
        let reparsed = cqlmodel_cql::parse(&cql);
        assert!(reparsed.errors.is_empty(), "{:?}", reparsed.errors);
    }

    #[test]
    fn fresh_names_avoid_existing_columns() {
        let mut s = TableSketch::new("ks", "t");
        s.add_column("day", "date", None);
        assert_eq!(s.fresh_column_name("month"), "month");
        assert_eq!(s.fresh_column_name("day"), "day_bucket");
    }

    #[test]
    fn derived_names() {
        assert_eq!(
            derived_table_name("orders_by_day", "order_id"),
            "orders_by_order_id"
        );
        assert_eq!(derived_table_name("users", "email"), "users_by_email");
    }
}
