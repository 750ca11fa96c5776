//! CQL text of schema objects as the plan writes them: keyspaces, types, tables,
//! indexes and views, always keyspace-qualified so that every script runs
//! without a `USE`.

use std::fmt::Write as _;

use cqlmodel_cql::ast::{Ident, QualifiedName, Statement, StatementKind};
use cqlmodel_schema::{
    ColumnKind, Index, IndexImpl, IndexTarget, Keyspace, Replication, Table, types::UdtDef,
};

/// A name as CQL needs it written (quoted when not a plain lower-case identifier).
pub fn quote(name: &str) -> String {
    Ident::new(name).to_string()
}

/// `ks.name`, each part quoted as needed.
pub fn qualified(keyspace: &str, name: &str) -> String {
    format!("{}.{}", quote(keyspace), quote(name))
}

fn string_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn map_literal<'a>(entries: impl Iterator<Item = (&'a str, String)>) -> String {
    let parts: Vec<String> = entries
        .map(|(k, v)| format!("{}: {v}", string_literal(k)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// The replication map of a keyspace.
pub fn replication(r: &Replication) -> String {
    match r {
        Replication::Simple { replication_factor } => map_literal(
            [
                ("class", string_literal("SimpleStrategy")),
                (
                    "replication_factor",
                    string_literal(&replication_factor.to_string()),
                ),
            ]
            .into_iter(),
        ),
        Replication::NetworkTopology { datacenters } => {
            let mut entries = vec![("class", string_literal("NetworkTopologyStrategy"))];
            entries.extend(
                datacenters
                    .iter()
                    .map(|(dc, rf)| (dc.as_str(), string_literal(&rf.to_string()))),
            );
            map_literal(entries.into_iter())
        }
        Replication::Other { class, options } => {
            let mut entries = vec![("class", string_literal(class))];
            entries.extend(options.iter().map(|(k, v)| (k.as_str(), string_literal(v))));
            map_literal(entries.into_iter())
        }
    }
}

pub fn create_keyspace(ks: &Keyspace) -> String {
    let mut s = format!(
        "CREATE KEYSPACE IF NOT EXISTS {} WITH replication = {}",
        quote(&ks.name),
        replication(&ks.replication)
    );
    if !ks.durable_writes {
        s.push_str(" AND durable_writes = false");
    }
    s.push(';');
    s
}

pub fn alter_keyspace(ks: &Keyspace) -> String {
    format!(
        "ALTER KEYSPACE {} WITH replication = {} AND durable_writes = {};",
        quote(&ks.name),
        replication(&ks.replication),
        ks.durable_writes
    )
}

pub fn create_type(udt: &UdtDef) -> String {
    let fields: Vec<String> = udt
        .fields
        .iter()
        .map(|(n, t)| format!("    {} {t}", quote(n)))
        .collect();
    format!(
        "CREATE TYPE IF NOT EXISTS {} (\n{}\n);",
        qualified(&udt.keyspace, &udt.name),
        fields.join(",\n")
    )
}

/// `CREATE TABLE`, one column a line, the key last, then the options as written in NEW.
/// `name` replaces the table's own name (a rebuild's new table).
pub fn create_table(table: &Table, name: &str) -> String {
    let mut s = format!(
        "CREATE TABLE IF NOT EXISTS {} (\n",
        qualified(&table.keyspace, name)
    );
    for c in &table.columns {
        let _ = writeln!(
            s,
            "    {} {}{},",
            quote(&c.name),
            c.ty,
            if c.is_static() { " STATIC" } else { "" }
        );
    }
    let partition: Vec<String> = table.partition_key().map(|c| quote(&c.name)).collect();
    let clustering: Vec<(String, &'static str)> = table
        .clustering()
        .filter_map(|c| match c.kind {
            ColumnKind::Clustering(_, order) => Some((quote(&c.name), order.keyword())),
            _ => None,
        })
        .collect();
    let pk = if partition.len() == 1 {
        partition.join(", ")
    } else {
        format!("({})", partition.join(", "))
    };
    let mut key = vec![pk];
    key.extend(clustering.iter().map(|(n, _)| n.clone()));
    let _ = write!(s, "    PRIMARY KEY ({})\n)", key.join(", "));
    let mut with: Vec<String> = Vec::new();
    if clustering.iter().any(|(_, o)| *o == "DESC") {
        let orders: Vec<String> = clustering.iter().map(|(n, o)| format!("{n} {o}")).collect();
        with.push(format!("CLUSTERING ORDER BY ({})", orders.join(", ")));
    }
    // A table id (DESCRIBE prints `ID = …`) belongs to the old table, never to a rebuild's.
    with.extend(
        table
            .options
            .raw
            .iter()
            .filter(|(n, _)| name == table.name || !n.eq_ignore_ascii_case("id"))
            .map(|(n, v)| format!("{} = {v}", quote(n))),
    );
    if !with.is_empty() {
        let _ = write!(s, " WITH {}", with.join("\n    AND "));
    }
    s.push(';');
    s
}

/// `CREATE [CUSTOM] INDEX` on `ks.table` (the table name may be a rebuild's new name).
pub fn create_index(keyspace: &str, table: &str, index: &Index, name: &str) -> String {
    let column = quote(&index.column);
    let target = match index.target {
        IndexTarget::Values => column,
        IndexTarget::Keys => format!("keys({column})"),
        IndexTarget::Entries => format!("entries({column})"),
        IndexTarget::Full => format!("full({column})"),
    };
    let class = match &index.implementation {
        IndexImpl::Legacy => None,
        IndexImpl::Sai => Some("sai".to_string()),
        IndexImpl::Sasi => Some("org.apache.cassandra.index.sasi.SASIIndex".to_string()),
        IndexImpl::Custom(c) => Some(c.clone()),
    };
    let custom =
        class.is_some() && (!index.options.is_empty() || index.implementation != IndexImpl::Sai);
    let mut s = format!(
        "CREATE {}INDEX IF NOT EXISTS {} ON {} ({target})",
        if custom { "CUSTOM " } else { "" },
        quote(name),
        qualified(keyspace, table)
    );
    if let Some(class) = class {
        let _ = write!(s, " USING {}", string_literal(&class));
    }
    if custom && !index.options.is_empty() {
        let _ = write!(
            s,
            " WITH OPTIONS = {}",
            map_literal(
                index
                    .options
                    .iter()
                    .map(|(k, v)| (k.as_str(), string_literal(v)))
            )
        );
    }
    s.push(';');
    s
}

pub fn drop_index(keyspace: &str, name: &str) -> String {
    format!("DROP INDEX IF EXISTS {};", qualified(keyspace, name))
}

pub fn drop_table(keyspace: &str, name: &str) -> String {
    format!("DROP TABLE IF EXISTS {};", qualified(keyspace, name))
}

pub fn drop_view(keyspace: &str, name: &str) -> String {
    format!(
        "DROP MATERIALIZED VIEW IF EXISTS {};",
        qualified(keyspace, name)
    )
}

/// The `CREATE MATERIALIZED VIEW` statement of a view, from the text that
/// defined it (the model keeps no WHERE clause), with its keyspace written out,
/// and renamed (view and base) when the plan gives them new names.
pub fn create_view(
    view: &Table,
    source: Option<&str>,
    view_name: &str,
    base_name: &str,
) -> Option<String> {
    let text = source?;
    let statement: Statement = cqlmodel_cql::parse_statement(text).ok()?;
    let StatementKind::CreateMaterializedView(mut mv) = statement.kind else {
        return None;
    };
    let qualify = |name: &str| QualifiedName {
        keyspace: Some(Ident::new(view.keyspace.clone())),
        name: Ident::new(name),
        span: Default::default(),
    };
    mv.if_not_exists = true;
    mv.name = qualify(view_name);
    mv.base_table = qualify(base_name);
    let rendered = Statement {
        kind: StatementKind::CreateMaterializedView(mv),
        span: statement.span,
    };
    Some(format!("{rendered};"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_only_when_needed() {
        assert_eq!(qualified("iot", "temp"), "iot.temp");
        assert_eq!(qualified("iot", "Temp"), "iot.\"Temp\"");
    }
}
