//! `schema.cql`: the keyspace and the tables as CQL DDL.

use cqlmodel_cql::keywords::quote_ident;

use crate::derive::{Role, TableDesign};

pub fn keyspace_cql(keyspace: &str) -> String {
    format!(
        "-- Replication is a placeholder: set one entry per datacenter (RF 3 each).\nCREATE KEYSPACE IF NOT EXISTS {} WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 3}};\n",
        quote_ident(keyspace)
    )
}

pub fn table_cql(keyspace: &str, t: &TableDesign) -> String {
    let width = t
        .columns
        .iter()
        .map(|c| quote_ident(&c.name).len())
        .max()
        .unwrap_or(0);
    let mut s = format!(
        "CREATE TABLE IF NOT EXISTS {}.{} (\n",
        quote_ident(keyspace),
        quote_ident(&t.name)
    );
    for c in &t.columns {
        let stat = if c.role == Role::Static {
            " STATIC"
        } else {
            ""
        };
        s.push_str(&format!(
            "    {:width$} {}{stat},\n",
            quote_ident(&c.name),
            c.cql_type
        ));
    }
    let names = |parts: &[crate::derive::KeyPart]| -> Vec<String> {
        parts
            .iter()
            .filter_map(|p| t.column_for(p))
            .map(|c| quote_ident(&c.name))
            .collect()
    };
    let pk = names(&t.partition_key);
    let pk_text = if pk.len() == 1 {
        pk.join("")
    } else {
        format!("({})", pk.join(", "))
    };
    let ck: Vec<String> = names(
        &t.clustering
            .iter()
            .map(|(p, _)| p.clone())
            .collect::<Vec<_>>(),
    );
    let mut key = vec![pk_text];
    key.extend(ck.iter().cloned());
    s.push_str(&format!("    PRIMARY KEY ({})\n)", key.join(", ")));
    let mut options = Vec::new();
    if !t.clustering.is_empty() {
        let orders: Vec<String> = t
            .clustering
            .iter()
            .filter_map(|(p, desc)| {
                t.column_for(p).map(|c| {
                    format!(
                        "{} {}",
                        quote_ident(&c.name),
                        if *desc { "DESC" } else { "ASC" }
                    )
                })
            })
            .collect();
        options.push(format!("CLUSTERING ORDER BY ({})", orders.join(", ")));
    }
    let compaction = match t.compaction.as_str() {
        "TimeWindowCompactionStrategy" => "{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}".to_string(),
        other => format!("{{'class': '{other}'}}"),
    };
    if !t.compaction.is_empty() {
        options.push(format!("compaction = {compaction}"));
    }
    if let Some(ttl) = t.ttl {
        options.push(format!("default_time_to_live = {ttl}"));
    }
    if options.is_empty() {
        s.push_str(";\n");
    } else {
        s.push_str(&format!("\n  WITH {};\n", options.join("\n   AND ")));
    }
    s
}
