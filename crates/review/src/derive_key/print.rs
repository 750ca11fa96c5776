//! Printing `CREATE TABLE` statements for fixes, laid out as the seeds and `DESCRIBE` do.

use cqlmodel_cql::ast::{Ident, Order};
use cqlmodel_schema::Table;

/// What [`create_table_cql`] prints.
pub struct TableSpec<'a> {
    pub keyspace: &'a str,
    pub name: &'a str,
    /// (name, type, static)
    pub columns: Vec<(String, String, bool)>,
    pub partition_key: &'a [String],
    pub clustering: &'a [(String, Order)],
    /// `name = value` table properties, printed after the clustering order.
    pub options: Vec<String>,
    /// Print `CLUSTERING ORDER BY` even when every column is ascending (the default).
    pub explicit_order: bool,
}

/// Prints `CREATE TABLE`, one column per line, as the seeds and `DESCRIBE` lay it out.
pub fn create_table_cql(spec: &TableSpec<'_>) -> String {
    let ident = |n: &str| Ident::new(n).to_string();
    let mut out = format!(
        "CREATE TABLE {}.{} (\n",
        ident(spec.keyspace),
        ident(spec.name)
    );
    for (name, ty, is_static) in &spec.columns {
        let keyword = if *is_static { " static" } else { "" };
        out.push_str(&format!("    {} {ty}{keyword},\n", ident(name)));
    }
    let partition: Vec<String> = spec.partition_key.iter().map(|c| ident(c)).collect();
    let partition = match partition.as_slice() {
        [one] if !spec.clustering.is_empty() => one.clone(),
        [one] => one.clone(),
        many => format!("({})", many.join(", ")),
    };
    let mut key = vec![partition];
    key.extend(spec.clustering.iter().map(|(c, _)| ident(c)));
    out.push_str(&format!("    PRIMARY KEY ({})\n)", key.join(", ")));
    let mut with = Vec::new();
    if !spec.clustering.is_empty()
        && (spec.explicit_order || spec.clustering.iter().any(|(_, o)| *o == Order::Desc))
    {
        let orders: Vec<String> = spec
            .clustering
            .iter()
            .map(|(c, o)| format!("{} {}", ident(c), o.keyword()))
            .collect();
        with.push(format!("CLUSTERING ORDER BY ({})", orders.join(", ")));
    }
    with.extend(spec.options.iter().cloned());
    if !with.is_empty() {
        out.push_str(" WITH ");
        out.push_str(&with.join("\n    AND "));
    }
    out.push(';');
    out
}

/// The `CREATE TABLE` of a schema table, with the clustering orders given (same
/// columns in the same order, printed even when ascending) and its options as written.
pub fn table_create_cql(table: &Table, clustering: &[(String, Order)]) -> String {
    let partition_key: Vec<String> = table.partition_key().map(|c| c.name.clone()).collect();
    create_table_cql(&TableSpec {
        keyspace: &table.keyspace,
        name: &table.name,
        columns: table
            .columns
            .iter()
            .map(|c| (c.name.clone(), c.ty.to_string(), c.is_static()))
            .collect(),
        partition_key: &partition_key,
        clustering,
        options: table
            .options
            .raw
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect(),
        explicit_order: true,
    })
}
