//! The deployed schema rebuilt as CQL DDL from `system_schema` rows: keyspaces
//! with their replication, user types, tables with their key, clustering order,
//! TTL, gc_grace_seconds, compaction, compression and caching, their indexes
//! (secondary, SAI, custom) and materialized views. The other scalar options
//! (comment, bloom filter, speculative retry, ...) come from `table_options`.

use std::collections::{BTreeMap, HashMap};

use crate::table_options::ScalarOptions;

pub(crate) const KEYSPACES: &str = "SELECT keyspace_name, replication FROM system_schema.keyspaces";
pub(crate) const TYPES: &str =
    "SELECT keyspace_name, type_name, field_names, field_types FROM system_schema.types";
pub(crate) const TABLES: &str = "SELECT keyspace_name, table_name, default_time_to_live, gc_grace_seconds, compaction, compression, caching FROM system_schema.tables";
pub(crate) const COLUMNS: &str = "SELECT keyspace_name, table_name, column_name, clustering_order, kind, position, type FROM system_schema.columns";
pub(crate) const INDEXES: &str =
    "SELECT keyspace_name, table_name, index_name, kind, options FROM system_schema.indexes";
pub(crate) const VIEWS: &str =
    "SELECT keyspace_name, view_name, base_table_name, where_clause FROM system_schema.views";

type Map = HashMap<String, String>;
pub(crate) type KeyspaceRow = (String, Map);
pub(crate) type TypeRow = (String, String, Vec<String>, Vec<String>);
/// keyspace, table, default_time_to_live, gc_grace_seconds, compaction, compression, caching
pub(crate) type TableRow = (
    String,
    String,
    Option<i32>,
    Option<i32>,
    Option<Map>,
    Option<Map>,
    Option<Map>,
);
/// keyspace, table, index, kind (`COMPOSITES`, `KEYS`, `CUSTOM`), options (`target`, `class_name`, ...)
pub(crate) type IndexRow = (String, String, String, String, Option<Map>);
/// keyspace, view, base table, where clause
pub(crate) type ViewRow = (String, String, String, Option<String>);
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

/// `{'k': 'v', ...}` with `class` first and the rest sorted.
fn map_literal(map: &Map) -> String {
    let mut entries: Vec<(&String, &String)> = map.iter().collect();
    entries.sort_by_key(|(k, _)| (k.as_str() != "class", k.as_str()));
    let items: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{}: {}", literal(k), literal(v)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

pub(crate) fn ddl(
    keyspaces: &[KeyspaceRow],
    types: &[TypeRow],
    tables: &[TableRow],
    scalar: &ScalarOptions,
    columns: &[ColumnRow],
    indexes: &[IndexRow],
    views: &[ViewRow],
) -> String {
    let mut out = String::new();
    for (ks, replication) in keyspaces.iter().filter(|(k, _)| !is_system(k)) {
        out.push_str(&format!(
            "CREATE KEYSPACE {} WITH replication = {};\n",
            ident(ks),
            map_literal(replication)
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
    // A view's columns are in system_schema.columns too, under the view's name.
    for ((ks, t), cols) in &by_table {
        if let Some(options) = tables.iter().find(|r| r.0 == *ks && r.1 == *t) {
            let more = scalar.get(&(ks.to_string(), t.to_string()));
            out.push_str(&create_table(ks, t, cols.clone(), Some(options), more));
        }
    }
    for i in indexes.iter().filter(|i| !is_system(&i.0)) {
        out.push_str(&create_index(i));
    }
    for v in views.iter().filter(|v| !is_system(&v.0)) {
        if let Some(cols) = by_table.get(&(v.0.as_str(), v.1.as_str())) {
            out.push_str(&create_view(v, cols.clone()));
        }
    }
    out
}

/// `CREATE INDEX` (or `CREATE CUSTOM INDEX ... USING` for SAI and custom classes).
fn create_index((ks, t, name, kind, options): &IndexRow) -> String {
    let options = options.clone().unwrap_or_default();
    // The target is a column name as stored (quoted when it needs quotes) or
    // `keys(m)`, `values(s)`, `entries(m)`, `full(f)`: valid CQL as it is.
    let target = options.get("target").cloned().unwrap_or_default();
    match (kind.as_str(), options.get("class_name")) {
        ("CUSTOM", Some(class)) => {
            let rest: Map = options
                .iter()
                .filter(|(k, _)| k.as_str() != "target" && k.as_str() != "class_name")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let with = if rest.is_empty() {
                String::new()
            } else {
                format!(" WITH OPTIONS = {}", map_literal(&rest))
            };
            format!(
                "CREATE CUSTOM INDEX {} ON {}.{} ({target}) USING {}{with};\n",
                ident(name),
                ident(ks),
                ident(t),
                literal(class)
            )
        }
        _ => format!(
            "CREATE INDEX {} ON {}.{} ({target});\n",
            ident(name),
            ident(ks),
            ident(t)
        ),
    }
}

/// `CREATE MATERIALIZED VIEW` from the view's row and its columns.
fn create_view((ks, view, base, where_clause): &ViewRow, mut cols: Vec<&ColumnRow>) -> String {
    cols.sort_by_key(|c| (kind_rank(&c.4), c.5, c.2.clone()));
    let selected: Vec<String> = cols.iter().map(|c| ident(&c.2)).collect();
    let (key, order) = key_and_order(&cols);
    let with = if order.is_empty() {
        String::new()
    } else {
        format!(" WITH {order}")
    };
    format!(
        "CREATE MATERIALIZED VIEW {}.{} AS SELECT {} FROM {}.{} WHERE {} PRIMARY KEY {key}{with};\n",
        ident(ks),
        ident(view),
        selected.join(", "),
        ident(ks),
        ident(base),
        where_clause.as_deref().unwrap_or("")
    )
}

/// `((pk...), ck...)` and, when any clustering column is descending, `CLUSTERING ORDER BY (...)`.
fn key_and_order(cols: &[&ColumnRow]) -> (String, String) {
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
    let order = if ck.iter().any(|c| c.3.eq_ignore_ascii_case("desc")) {
        let order: Vec<String> = ck
            .iter()
            .map(|c| format!("{} {}", ident(&c.2), c.3.to_ascii_uppercase()))
            .collect();
        format!("CLUSTERING ORDER BY ({})", order.join(", "))
    } else {
        String::new()
    };
    (key, order)
}

/// `default_time_to_live` when a table sets none.
const DEFAULT_TTL: i32 = 0;
/// `gc_grace_seconds` when a table sets none (ten days).
const DEFAULT_GC_GRACE: i32 = 864_000;

fn create_table(
    ks: &str,
    t: &str,
    mut cols: Vec<&ColumnRow>,
    options: Option<&TableRow>,
    scalar: Option<&Vec<(String, String)>>,
) -> String {
    cols.sort_by_key(|c| (kind_rank(&c.4), c.5, c.2.clone()));
    let defs: Vec<String> = cols
        .iter()
        .map(|c| {
            let stat = if c.4 == "static" { " STATIC" } else { "" };
            format!("{} {}{stat}", ident(&c.2), c.6)
        })
        .collect();
    let (key, order) = key_and_order(&cols);
    let mut with: Vec<String> = Vec::new();
    if !order.is_empty() {
        with.push(order);
    }
    if let Some((_, _, ttl, gc, compaction, compression, caching)) = options {
        // Cassandra's defaults (no TTL, ten days of grace) are left out, as a user
        // would have written the table: a fix printed from it then shows only what
        // the deployed table sets.
        if let Some(ttl) = ttl.filter(|t| *t != DEFAULT_TTL) {
            with.push(format!("default_time_to_live = {ttl}"));
        }
        if let Some(gc) = gc.filter(|g| *g != DEFAULT_GC_GRACE) {
            with.push(format!("gc_grace_seconds = {gc}"));
        }
        for (name, map) in [
            ("compaction", compaction),
            ("compression", compression),
            ("caching", caching),
        ] {
            if let Some(map) = map.as_ref().and_then(|m| without_defaults(name, m)) {
                with.push(format!("{name} = {}", map_literal(&map)));
            }
        }
    }
    for (name, value) in scalar.into_iter().flatten() {
        with.push(format!("{name} = {value}"));
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

/// The option as the user would have written it: the entries Cassandra fills in
/// (`max_threshold` 32, `min_threshold` 4) are left out, and the whole option when
/// it is Cassandra's default (size-tiered compaction, LZ4 in 16 KiB chunks, keys
/// cached and rows not). `None`: nothing to write.
fn without_defaults(option: &str, map: &Map) -> Option<Map> {
    let class = map
        .get("class")
        .map(|c| c.rsplit('.').next().unwrap_or(c).to_string());
    let mut kept: Map = map
        .iter()
        .filter(|(k, v)| {
            !(option == "compaction"
                && ((k.as_str() == "max_threshold" && v.as_str() == "32")
                    || (k.as_str() == "min_threshold" && v.as_str() == "4")))
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let is_default = match option {
        "compaction" => class.as_deref() == Some("SizeTieredCompactionStrategy") && kept.len() == 1,
        "compression" => {
            class.as_deref() == Some("LZ4Compressor")
                && kept.get("chunk_length_in_kb").is_none_or(|c| c == "16")
                && kept.len() <= 2
        }
        "caching" => {
            kept.get("keys").map(String::as_str) == Some("ALL")
                && kept.get("rows_per_partition").map(String::as_str) == Some("NONE")
                && kept.len() == 2
        }
        _ => false,
    };
    if is_default || kept.is_empty() {
        return None;
    }
    if let Some(c) = class {
        kept.insert("class".to_string(), c);
    }
    Some(kept)
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

    /// A keyspace of ours and a system one (left out of the DDL).
    fn keyspace_rows() -> Vec<KeyspaceRow> {
        vec![
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
        ]
    }

    /// A table with TTL, TWCS and compression options.
    fn table_rows() -> Vec<TableRow> {
        vec![(
            "iot".to_string(),
            "readings".to_string(),
            Some(7_776_000),
            Some(864_000),
            Some(HashMap::from([
                (
                    "class".to_string(),
                    "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy".to_string(),
                ),
                ("compaction_window_size".to_string(), "1".to_string()),
                ("compaction_window_unit".to_string(), "DAYS".to_string()),
                ("max_threshold".to_string(), "32".to_string()),
                ("min_threshold".to_string(), "4".to_string()),
            ])),
            Some(HashMap::from([
                (
                    "class".to_string(),
                    "org.apache.cassandra.io.compress.LZ4Compressor".to_string(),
                ),
                ("chunk_length_in_kb".to_string(), "16".to_string()),
            ])),
            None,
        )]
    }

    /// An SAI index on the table.
    fn index_rows() -> Vec<IndexRow> {
        vec![(
            "iot".to_string(),
            "readings".to_string(),
            "readings_temperature".to_string(),
            "CUSTOM".to_string(),
            Some(HashMap::from([
                ("target".to_string(), "temperature".to_string()),
                (
                    "class_name".to_string(),
                    "org.apache.cassandra.index.sai.StorageAttachedIndex".to_string(),
                ),
            ])),
        )]
    }

    /// A materialized view of the table.
    fn view_rows() -> Vec<ViewRow> {
        vec![(
            "iot".to_string(),
            "readings_by_ts".to_string(),
            "readings".to_string(),
            Some("ts IS NOT NULL AND device_id IS NOT NULL".to_string()),
        )]
    }

    /// The table's and the view's columns, out of order as the system table may give them.
    fn column_rows() -> Vec<ColumnRow> {
        vec![
            col("readings", "temperature", "none", "regular", -1, "double"),
            col("readings", "ts", "desc", "clustering", 0, "timestamp"),
            col("readings", "device_id", "none", "partition_key", 0, "text"),
            col(
                "readings_by_ts",
                "ts",
                "none",
                "partition_key",
                0,
                "timestamp",
            ),
            col(
                "readings_by_ts",
                "device_id",
                "asc",
                "clustering",
                0,
                "text",
            ),
        ]
    }

    /// Options read one by one (comment, bloom filter).
    fn scalar_options() -> crate::table_options::ScalarOptions {
        crate::table_options::ScalarOptions::from([(
            ("iot".to_string(), "readings".to_string()),
            vec![
                ("comment".to_string(), "'sensor readings'".to_string()),
                ("bloom_filter_fp_chance".to_string(), "0.1".to_string()),
            ],
        )])
    }

    /// The DDL rebuilt from all the rows above.
    fn rebuilt_ddl() -> String {
        ddl(
            &keyspace_rows(),
            &[],
            &table_rows(),
            &scalar_options(),
            &column_rows(),
            &index_rows(),
            &view_rows(),
        )
    }

    #[test]
    fn rows_become_the_ddl_that_made_them() {
        let text = rebuilt_ddl();
        assert_eq!(
            text,
            "CREATE KEYSPACE iot WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '3'};\n\
             CREATE TABLE iot.readings (device_id text, ts timestamp, temperature double, PRIMARY KEY ((device_id), ts)) WITH CLUSTERING ORDER BY (ts DESC) AND default_time_to_live = 7776000 AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': '1', 'compaction_window_unit': 'DAYS'} AND comment = 'sensor readings' AND bloom_filter_fp_chance = 0.1;\n\
             CREATE CUSTOM INDEX readings_temperature ON iot.readings (temperature) USING 'org.apache.cassandra.index.sai.StorageAttachedIndex';\n\
             CREATE MATERIALIZED VIEW iot.readings_by_ts AS SELECT ts, device_id FROM iot.readings WHERE ts IS NOT NULL AND device_id IS NOT NULL PRIMARY KEY ((ts), device_id);\n"
        );
    }

    #[test]
    fn the_rebuilt_ddl_parses_and_builds_with_its_options() {
        let text = rebuilt_ddl();
        // The text is CQL Cassandra accepts.
        let parsed = cqlmodel_cql::parse(&text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        // The cluster has views, so they are enabled there.
        let mut builder =
            cqlmodel_schema::SchemaBuilder::with_settings(cqlmodel_schema::Settings {
                materialized_views_enabled: true,
                ..cqlmodel_schema::Settings::default()
            });
        builder.add_statements(0, &parsed.statements);
        let build = builder.finish();
        assert!(build.errors.is_empty(), "{:?}", build.errors);
        let t = build.schema.table("iot", "readings").expect("the table");
        assert_eq!(t.options.default_time_to_live, Some(7_776_000));
        assert_eq!(t.options.comment.as_deref(), Some("sensor readings"));
    }

    #[test]
    fn a_table_at_the_defaults_has_no_with_clause() {
        let cols = [col("plain", "k", "none", "partition_key", 0, "int")];
        let row = (
            "ks".to_string(),
            "plain".to_string(),
            Some(0),
            Some(864_000),
            None,
            None,
            None,
        );
        let text = create_table("ks", "plain", cols.iter().collect(), Some(&row), None);
        assert_eq!(text, "CREATE TABLE ks.plain (k int, PRIMARY KEY ((k)));\n");
        let shorter = (
            row.0.clone(),
            row.1.clone(),
            Some(60),
            Some(3_600),
            None,
            None,
            None,
        );
        let text = create_table("ks", "plain", cols.iter().collect(), Some(&shorter), None);
        assert!(
            text.contains("WITH default_time_to_live = 60 AND gc_grace_seconds = 3600"),
            "{text}"
        );
    }
}
