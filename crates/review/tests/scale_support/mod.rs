//! The synthetic application of the scale test and benchmark: 10,000 tables
//! of five shapes and five queries each (`SCALE_TABLES` for a smaller one).
#![allow(dead_code)] // each user takes what it needs

use std::fmt::Write as _;

const TABLES: usize = 10_000;

/// `SCALE_TABLES=2000` runs a smaller instance (for profiling); the target
/// applies to the full size only.
pub fn tables() -> usize {
    std::env::var("SCALE_TABLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(TABLES)
}
pub const QUERIES_PER_TABLE: usize = 5;

/// Five table shapes in turn: an entity, a bucketed time series, a time series
/// without a bucket, an indexed table and a table of blobs.
pub fn schema() -> String {
    let mut s = String::from(
        "CREATE KEYSPACE big WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n",
    );
    for i in 0..tables() {
        let _ = match i % 5 {
            0 => writeln!(
                s,
                "CREATE TABLE big.t{i} (id uuid PRIMARY KEY, name text, email text, balance bigint);"
            ),
            1 => writeln!(
                s,
                "CREATE TABLE big.t{i} (device_id text, day date, ts timestamp, v double, PRIMARY KEY ((device_id, day), ts)) WITH default_time_to_live = 86400;"
            ),
            2 => writeln!(
                s,
                "CREATE TABLE big.t{i} (device_id text, ts timestamp, v double, PRIMARY KEY (device_id, ts));"
            ),
            3 => writeln!(
                s,
                "CREATE TABLE big.t{i} (id uuid PRIMARY KEY, status text, owner_id uuid);\nCREATE INDEX t{i}_status ON big.t{i} (status);"
            ),
            _ => writeln!(
                s,
                "CREATE TABLE big.t{i} (id uuid, part int, data blob, tags map<text, blob>, PRIMARY KEY (id, part));"
            ),
        };
    }
    s
}

pub fn queries() -> String {
    let mut q = String::new();
    for i in 0..tables() {
        let _ = match i % 5 {
            0 => writeln!(
                q,
                "-- @rate 100/s\nSELECT name, balance FROM big.t{i} WHERE id = ?;\n-- @rate 10/s\nUPDATE big.t{i} SET balance = ? WHERE id = ?;\nINSERT INTO big.t{i} (id, name, email) VALUES (?, ?, ?);\nSELECT * FROM big.t{i} WHERE email = ? ALLOW FILTERING;\nDELETE FROM big.t{i} WHERE id = ?;"
            ),
            1 => writeln!(
                q,
                "-- @rate 2000/s\nINSERT INTO big.t{i} (device_id, day, ts, v) VALUES (?, ?, ?, ?);\nSELECT ts, v FROM big.t{i} WHERE device_id = ? AND day = ?;\nSELECT ts, v FROM big.t{i} WHERE device_id = ? AND day IN (?, ?) AND ts > ?;\nSELECT v FROM big.t{i} WHERE device_id = ? AND day = ? AND ts = ?;\nSELECT count(*) FROM big.t{i} WHERE device_id = ? AND day = ?;"
            ),
            2 => writeln!(
                q,
                "INSERT INTO big.t{i} (device_id, ts, v) VALUES (?, ?, ?);\nSELECT ts, v FROM big.t{i} WHERE device_id = ? LIMIT 10;\nSELECT ts, v FROM big.t{i} WHERE device_id = ? AND ts > ?;\nDELETE FROM big.t{i} WHERE device_id = ? AND ts < ?;\nSELECT * FROM big.t{i};"
            ),
            3 => writeln!(
                q,
                "SELECT id FROM big.t{i} WHERE status = ?;\nUPDATE big.t{i} SET status = ? WHERE id = ?;\nSELECT * FROM big.t{i} WHERE id = ?;\nINSERT INTO big.t{i} (id, status, owner_id) VALUES (?, ?, ?) IF NOT EXISTS;\nSELECT owner_id FROM big.t{i} WHERE id IN (?, ?, ?);"
            ),
            _ => writeln!(
                q,
                "INSERT INTO big.t{i} (id, part, data) VALUES (?, ?, ?);\nSELECT data FROM big.t{i} WHERE id = ? AND part = ?;\nUPDATE big.t{i} SET tags[?] = ? WHERE id = ? AND part = ?;\nSELECT tags FROM big.t{i} WHERE id = ?;\nDELETE FROM big.t{i} WHERE id = ?;"
            ),
        };
    }
    q
}
