//! The deployed schema rebuilt as CQL DDL from `system_schema` rows: keyspaces
//! with their replication, user types, and tables with their key, clustering
//! order, TTL and gc_grace_seconds. Views, indexes and other options are not
//! rebuilt (the diagnosis does not need them); the caller says so.

use std::collections::{BTreeMap, HashMap};

pub(crate) type KeyspaceRow = (String, HashMap<String, String>);
pub(crate) type TypeRow = (String, String, Vec<String>, Vec<String>);
pub(crate) type TableRow = (String, String, Option<i32>, Option<i32>);
/// keyspace, table, column, clustering_order, kind, position, type
pub(crate) type ColumnRow = (String, String, String, String, String, i32, String);

pub(crate) fn is_system(keyspace: &str) -> bool {
    keyspace.starts_with("system") || keyspace == "dse_system"
}

/// An identifier as CQL needs it: bare when lower-case letters, digits and `_`.
fn ident(name: &str) -> String {
    let bare = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

fn literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

pub(crate) fn ddl(
    keyspaces: &[KeyspaceRow],
    types: &[TypeRow],
    tables: &[TableRow],
    columns: &[ColumnRow],
) -> String {
    let mut out = String::new();
    for (ks, replication) in keyspaces.iter().filter(|(k, _)| !is_system(k)) {
        let mut entries: Vec<(&String, &String)> = replication.iter().collect();
        entries.sort_by_key(|(k, _)| (k.as_str() != "class", k.as_str()));
        let map: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{}: {}", literal(k), literal(v)))
            .collect();
        out.push_str(&format!(
            "CREATE KEYSPACE {} WITH replication = {{{}}};\n",
            ident(ks),
            map.join(", ")
        ));
    }
    for (ks, name, fields, field_types) in types.iter().filter(|t| !is_system(&t.0)) {
        let body: Vec<String> = fields
            .iter()
            .zip(field_types)
            .map(|(f, t)| format!("{} {t}", ident(f)))
            .collect();
        out.push_str(&format!(
            "CREATE TYPE {}.{} ({});\n",
            ident(ks),
            ident(name),
            body.join(", ")
        ));
    }
    let mut by_table: BTreeMap<(&str, &str), Vec<&ColumnRow>> = BTreeMap::new();
    for c in columns.iter().filter(|c| !is_system(&c.0)) {
        by_table.entry((&c.0, &c.1)).or_default().push(c);
    }
    for ((ks, t), cols) in by_table {
        let options = tables.iter().find(|r| r.0 == ks && r.1 == t);
        out.push_str(&create_table(ks, t, cols, options));
    }
    out
}

fn create_table(
    ks: &str,
    t: &str,
    mut cols: Vec<&ColumnRow>,
    options: Option<&TableRow>,
) -> String {
    cols.sort_by_key(|c| (kind_rank(&c.4), c.5, c.2.clone()));
    let defs: Vec<String> = cols
        .iter()
        .map(|c| {
            let stat = if c.4 == "static" { " STATIC" } else { "" };
            format!("{} {}{stat}", ident(&c.2), c.6)
        })
        .collect();
    let pk: Vec<String> = cols
        .iter()
        .filter(|c| c.4 == "partition_key")
        .map(|c| ident(&c.2))
        .collect();
    let ck: Vec<&&ColumnRow> = cols.iter().filter(|c| c.4 == "clustering").collect();
    let mut key = format!("(({})", pk.join(", "));
    for c in &ck {
        key.push_str(&format!(", {}", ident(&c.2)));
    }
    key.push(')');
    let mut with: Vec<String> = Vec::new();
    if ck.iter().any(|c| c.3.eq_ignore_ascii_case("desc")) {
        let order: Vec<String> = ck
            .iter()
            .map(|c| format!("{} {}", ident(&c.2), c.3.to_ascii_uppercase()))
            .collect();
        with.push(format!("CLUSTERING ORDER BY ({})", order.join(", ")));
    }
    if let Some((_, _, ttl, gc)) = options {
        if let Some(ttl) = ttl {
            with.push(format!("default_time_to_live = {ttl}"));
        }
        if let Some(gc) = gc {
            with.push(format!("gc_grace_seconds = {gc}"));
        }
    }
    let with = if with.is_empty() {
        String::new()
    } else {
        format!(" WITH {}", with.join(" AND "))
    };
    format!(
        "CREATE TABLE {}.{} ({}, PRIMARY KEY {key}){with};\n",
        ident(ks),
        ident(t),
        defs.join(", ")
    )
}

fn kind_rank(kind: &str) -> u8 {
    match kind {
        "partition_key" => 0,
        "clustering" => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(t: &str, c: &str, order: &str, kind: &str, pos: i32, ty: &str) -> ColumnRow {
        (
            "iot".into(),
            t.into(),
            c.into(),
            order.into(),
            kind.into(),
            pos,
            ty.into(),
        )
    }

    #[test]
    fn rows_become_the_ddl_that_made_them() {
        let keyspaces = vec![
            (
                "iot".to_string(),
                HashMap::from([
                    (
                        "class".to_string(),
                        "org.apache.cassandra.locator.NetworkTopologyStrategy".to_string(),
                    ),
                    ("dc1".to_string(), "3".to_string()),
                ]),
            ),
            ("system".to_string(), HashMap::new()),
        ];
        let tables = vec![(
            "iot".to_string(),
            "readings".to_string(),
            Some(7_776_000),
            Some(864_000),
        )];
        let columns = vec![
            col("readings", "temperature", "none", "regular", -1, "double"),
            col("readings", "ts", "desc", "clustering", 0, "timestamp"),
            col("readings", "device_id", "none", "partition_key", 0, "text"),
        ];
        let text = ddl(&keyspaces, &[], &tables, &columns);
        // The text is CQL Cassandra accepts.
        let parsed = cqlmodel_cql::parse(&text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let build = cqlmodel_schema::build_schema(0, &parsed.statements);
        assert!(build.errors.is_empty(), "{:?}", build.errors);
        let t = build.schema.table("iot", "readings").expect("the table");
        assert_eq!(t.options.default_time_to_live, Some(7_776_000));
        assert_eq!(
            text,
            "CREATE KEYSPACE iot WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '3'};\n\
             CREATE TABLE iot.readings (device_id text, ts timestamp, temperature double, PRIMARY KEY ((device_id), ts)) WITH CLUSTERING ORDER BY (ts DESC) AND default_time_to_live = 7776000 AND gc_grace_seconds = 864000;\n"
        );
    }
}
