//! `schema.cql`: the keyspace, the tables and the views as CQL DDL.

use cqlmodel_cql::keywords::quote_ident;

use crate::derive::{KeyPart, Role, TableDesign, TableKind, is_ann_column};

pub fn keyspace_cql(keyspace: &str) -> String {
    format!(
        "-- Replication is a placeholder: set one entry per datacenter (RF 3 each).\nCREATE KEYSPACE IF NOT EXISTS {} WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 3}};\n",
        quote_ident(keyspace)
    )
}

/// `CREATE TABLE`, or `CREATE MATERIALIZED VIEW` for a view.
pub fn table_cql(keyspace: &str, t: &TableDesign) -> String {
    if let TableKind::View { base } = &t.kind {
        return view_cql(keyspace, t, base);
    }
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
    s.push_str(&format!("    PRIMARY KEY ({})\n)", primary_key(t)));
    let mut options = shared_options(t);
    if let Some(ttl) = t.ttl {
        options.push(format!("default_time_to_live = {ttl}"));
    }
    s.push_str(&with_clause(&options));
    s.push_str(&ann_indexes_cql(keyspace, t));
    s
}

/// An SAI index on each regular vector column: without one Cassandra refuses
/// `ORDER BY col ANN OF ? LIMIT k` (pgvector's `ORDER BY col <-> $1 LIMIT k`).
/// SAI is Cassandra 5.0's only index that serves ANN.
fn ann_indexes_cql(keyspace: &str, t: &TableDesign) -> String {
    let mut s = String::new();
    for c in t.columns.iter().filter(|c| is_ann_column(c)) {
        // The similarity function its ANN reads rank by; none read: SAI's default.
        let options = t
            .ann
            .iter()
            .find(|(n, _)| *n == c.name)
            .map(|(_, f)| format!(" WITH OPTIONS = {{'similarity_function': '{f}'}}"))
            .unwrap_or_default();
        s.push_str(&format!(
            "-- ANN reads of `{col}` (ORDER BY {col} ANN OF ? LIMIT k) need this SAI index.\nCREATE INDEX IF NOT EXISTS {index} ON {}.{} ({col}) USING 'sai'{options};\n",
            quote_ident(keyspace),
            quote_ident(&t.name),
            col = quote_ident(&c.name),
            index = quote_ident(&format!("{}_{}_ann", t.name, c.name)),
        ));
    }
    s
}

/// `CREATE MATERIALIZED VIEW`: every primary key column `IS NOT NULL`, as
/// Cassandra requires; no TTL (a view's rows expire with its base's).
fn view_cql(keyspace: &str, t: &TableDesign, base: &str) -> String {
    let columns: Vec<String> = t.columns.iter().map(|c| quote_ident(&c.name)).collect();
    let not_null: Vec<String> = key_names(t, &t.partition_key)
        .into_iter()
        .chain(key_names(t, &clustering_parts(t)))
        .map(|c| format!("{c} IS NOT NULL"))
        .collect();
    let mut s = format!(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS {ks}.{view} AS\n    SELECT {} FROM {ks}.{base}\n    WHERE {}\n    PRIMARY KEY ({})",
        columns.join(", "),
        not_null.join(" AND "),
        primary_key(t),
        ks = quote_ident(keyspace),
        view = quote_ident(&t.name),
        base = quote_ident(base),
    );
    s.push_str(&with_clause(&shared_options(t)));
    s
}

fn key_names(t: &TableDesign, parts: &[KeyPart]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|p| t.column_for(p))
        .map(|c| quote_ident(&c.name))
        .collect()
}

fn clustering_parts(t: &TableDesign) -> Vec<KeyPart> {
    t.clustering.iter().map(|(p, _)| p.clone()).collect()
}

/// `(pk1, pk2), ck1, ck2` (a single partition key column without parentheses).
fn primary_key(t: &TableDesign) -> String {
    let pk = key_names(t, &t.partition_key);
    let pk_text = if pk.len() == 1 {
        pk.join("")
    } else {
        format!("({})", pk.join(", "))
    };
    let mut key = vec![pk_text];
    key.extend(key_names(t, &clustering_parts(t)));
    key.join(", ")
}

/// The clustering order and the compaction: what tables and views share.
fn shared_options(t: &TableDesign) -> Vec<String> {
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
    match t.compaction.as_str() {
        "" => {}
        "TimeWindowCompactionStrategy" => {
            let (unit, size) = twcs_window(t.ttl);
            options.push(format!(
                "compaction = {{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '{unit}', 'compaction_window_size': {size}}}"
            ));
        }
        other => options.push(format!("compaction = {{'class': '{other}'}}")),
    }
    options
}

fn with_clause(options: &[String]) -> String {
    if options.is_empty() {
        ";\n".to_string()
    } else {
        format!("\n  WITH {};\n", options.join("\n   AND "))
    }
}

/// About 30 windows per TTL (the usual TWCS guidance: tens of windows, so a
/// window's SSTable is dropped whole when its rows expire): hours under a day,
/// else days.
pub fn twcs_window(ttl: Option<u64>) -> (&'static str, u64) {
    let window = ttl.unwrap_or(86_400 * 30) / 30;
    if window < 86_400 {
        ("HOURS", window.div_ceil(3_600).max(1))
    } else {
        ("DAYS", window.div_ceil(86_400))
    }
}

#[cfg(test)]
mod tests {
    use super::twcs_window;

    #[test]
    fn twcs_windows_are_about_a_thirtieth_of_the_ttl() {
        assert_eq!(twcs_window(Some(30 * 86_400)), ("DAYS", 1));
        assert_eq!(twcs_window(Some(90 * 86_400)), ("DAYS", 3));
        assert_eq!(twcs_window(Some(7 * 86_400)), ("HOURS", 6));
        assert_eq!(twcs_window(Some(3_600)), ("HOURS", 1));
        assert_eq!(twcs_window(None), ("DAYS", 1));
    }
}
