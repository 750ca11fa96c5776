//! Shared helpers: schemas from CQL text, statistics from TOML text.
#![allow(dead_code)]

use cqlmodel_schema::{Schema, Table};
use cqlmodel_stats::{Stats, StatsError, load_stats};

pub fn schema(cql: &str) -> Schema {
    let parsed = cqlmodel_cql::parse(cql);
    assert!(
        parsed.errors.is_empty(),
        "test CQL must parse: {:?}",
        parsed.errors
    );
    let build = cqlmodel_schema::build_schema(0, &parsed.statements);
    assert!(
        build.errors.is_empty(),
        "test CQL must be valid: {:?}",
        build.errors
    );
    build.schema
}

pub fn stats(schema: &Schema, toml: &str) -> Stats {
    match load_stats(toml, schema) {
        Ok(s) => s,
        Err(errors) => panic!("test statistics must load: {errors:#?}"),
    }
}

pub fn errors(schema: &Schema, toml: &str) -> Vec<StatsError> {
    match load_stats(toml, schema) {
        Ok(_) => panic!("statistics were expected to be refused"),
        Err(e) => e,
    }
}

pub fn table<'s>(schema: &'s Schema, qualified: &str) -> &'s Table {
    let (ks, t) = qualified.split_once('.').unwrap_or(("", qualified));
    schema
        .table(ks, t)
        .unwrap_or_else(|| panic!("no table {qualified}"))
}

/// 1-based (line, column) of a byte offset, columns in characters.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

pub const IOT_UNBUCKETED: &str = "
CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE iot.temp_by_device (
    device_id text,
    ts        timestamp,
    temp      double,
    PRIMARY KEY (device_id, ts)
) WITH CLUSTERING ORDER BY (ts DESC);
";

/// The Cassandra documentation's hotel example (data_modeling_refining.adoc).
pub const HOTEL: &str = "
CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE hotel.available_rooms_by_hotel_date (
    hotel_id text,
    date date,
    room_number smallint,
    is_available boolean,
    PRIMARY KEY ((hotel_id), date, room_number)
);
";

pub const ORDERS: &str = "
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE shop.orders_by_customer (
    customer_id text,
    order_id    text,
    amount      decimal,
    status      text,
    PRIMARY KEY (customer_id, order_id)
);
";
