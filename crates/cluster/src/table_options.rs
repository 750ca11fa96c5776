//! The table options the typed schema query does not read (comment, bloom
//! filter, CRC check chance, speculative retry, index intervals, ...), read with
//! `SELECT *` so that a column one version lacks (Cassandra 4.0 has no
//! `allow_auto_snapshot`, ScyllaDB no `additional_write_policy`) is simply not
//! there rather than a failed query. Values equal to Cassandra's default are
//! left out, as a user would have written the table.

use std::collections::HashMap;

use scylla::client::session::Session;
use scylla::value::{CqlValue, Row};

use crate::ClusterError;

pub(crate) const TABLE_OPTIONS: &str = "SELECT * FROM system_schema.tables";

/// (keyspace, table) → `name = literal` pairs, in [`SCALAR`] order.
pub(crate) type ScalarOptions = HashMap<(String, String), Vec<(String, String)>>;

/// The scalar options rebuilt, with Cassandra 5.0's default (`TableParams`).
const SCALAR: &[(&str, Default)] = &[
    ("comment", Default::Text("")),
    ("bloom_filter_fp_chance", Default::Number(0.01)),
    ("crc_check_chance", Default::Number(1.0)),
    ("speculative_retry", Default::Text("99p")),
    ("additional_write_policy", Default::Text("99p")),
    ("read_repair", Default::Text("BLOCKING")),
    ("memtable_flush_period_in_ms", Default::Number(0.0)),
    ("min_index_interval", Default::Number(128.0)),
    ("max_index_interval", Default::Number(2048.0)),
    ("cdc", Default::Bool(false)),
    ("allow_auto_snapshot", Default::Bool(true)),
    ("incremental_backups", Default::Bool(true)),
];

#[derive(Debug, Clone, Copy)]
enum Default {
    Text(&'static str),
    Number(f64),
    Bool(bool),
}

/// The option's CQL literal, `None` when it is null, the default, or of a type
/// this reader does not rebuild.
fn literal(value: &CqlValue, default: Default) -> Option<String> {
    match (value, default) {
        (CqlValue::Text(s) | CqlValue::Ascii(s), Default::Text(d)) => {
            (!s.eq_ignore_ascii_case(d)).then(|| format!("'{}'", s.replace('\'', "''")))
        }
        (CqlValue::Double(v), Default::Number(d)) => ((v - d).abs() > 1e-12).then(|| v.to_string()),
        (CqlValue::Float(v), Default::Number(d)) => {
            ((f64::from(*v) - d).abs() > 1e-9).then(|| v.to_string())
        }
        (CqlValue::Int(v), Default::Number(d)) => (f64::from(*v) != d).then(|| v.to_string()),
        (CqlValue::BigInt(v), Default::Number(d)) => ((*v as f64) != d).then(|| v.to_string()),
        (CqlValue::Boolean(v), Default::Bool(d)) => (*v != d).then(|| v.to_string()),
        _ => None,
    }
}

/// Reads every table's scalar options through any node.
pub(crate) async fn read(session: &Session) -> Result<ScalarOptions, ClusterError> {
    let failed = |message: String| ClusterError::Query {
        query: TABLE_OPTIONS.to_string(),
        message,
    };
    let result = session
        .query_unpaged(TABLE_OPTIONS, &[])
        .await
        .map_err(|e| failed(e.to_string()))?
        .into_rows_result()
        .map_err(|e| failed(e.to_string()))?;
    let names: Vec<String> = result
        .column_specs()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let at = |name: &str| names.iter().position(|n| n == name);
    let (Some(ks_at), Some(table_at)) = (at("keyspace_name"), at("table_name")) else {
        return Ok(ScalarOptions::new());
    };
    let wanted: Vec<(usize, &str, Default)> = SCALAR
        .iter()
        .filter_map(|(name, default)| at(name).map(|i| (i, *name, *default)))
        .collect();
    let mut out = ScalarOptions::new();
    for row in result.rows::<Row>().map_err(|e| failed(e.to_string()))? {
        let row = row.map_err(|e| failed(e.to_string()))?;
        let text = |i: usize| match row.columns.get(i) {
            Some(Some(CqlValue::Text(s))) => Some(s.clone()),
            _ => None,
        };
        let (Some(ks), Some(table)) = (text(ks_at), text(table_at)) else {
            continue;
        };
        let options: Vec<(String, String)> = wanted
            .iter()
            .filter_map(|(i, name, default)| {
                let value = row.columns.get(*i)?.as_ref()?;
                literal(value, *default).map(|l| (name.to_string(), l))
            })
            .collect();
        if !options.is_empty() {
            out.insert((ks, table), options);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_left_out_and_the_rest_quoted_as_cql() {
        let text = |s: &str| CqlValue::Text(s.to_string());
        assert_eq!(literal(&text(""), Default::Text("")), None);
        assert_eq!(
            literal(&text("it's hot"), Default::Text("")),
            Some("'it''s hot'".to_string())
        );
        assert_eq!(literal(&text("99p"), Default::Text("99p")), None);
        assert_eq!(
            literal(&text("ALWAYS"), Default::Text("99p")),
            Some("'ALWAYS'".into())
        );
        assert_eq!(
            literal(&CqlValue::Double(0.01), Default::Number(0.01)),
            None
        );
        assert_eq!(
            literal(&CqlValue::Double(0.1), Default::Number(0.01)),
            Some("0.1".to_string())
        );
        assert_eq!(literal(&CqlValue::Int(128), Default::Number(128.0)), None);
        assert_eq!(
            literal(&CqlValue::Int(256), Default::Number(128.0)),
            Some("256".into())
        );
        assert_eq!(
            literal(&CqlValue::Boolean(true), Default::Bool(false)),
            Some("true".into())
        );
        assert_eq!(
            literal(&CqlValue::Int(1), Default::Text("")),
            None,
            "a type not rebuilt"
        );
    }
}
