//! `@new-row` on an INSERT: the row is written under a key the application
//! has just generated, so `read-before-write` (CQL019) does not pair it with
//! a read of the same table (a display read of an order's `total` is not the
//! source of a new order's `total`). `@after` still pairs it.

mod common_keys;

use common_keys::review_with;

const SCHEMA: &str = "
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};
CREATE TABLE shop.order_by_id (order_id uuid PRIMARY KEY, customer_id uuid, total decimal);
";

fn cql019(queries: &str) -> Vec<String> {
    review_with(SCHEMA, Some(queries), None, &["read-before-write"])
        .diagnostics
        .into_iter()
        .filter(|d| d.code == "CQL019")
        .map(|d| d.message)
        .collect()
}

const READ: &str = "-- @name order_page @rate 50/s
SELECT customer_id, total FROM shop.order_by_id WHERE order_id = ?;
";

#[test]
fn without_the_annotation_the_insert_is_paired_with_the_read() {
    let found = cql019(&format!(
        "{READ}-- @name place_order @rate 3/s\nINSERT INTO shop.order_by_id (order_id, customer_id, total) VALUES (?, ?, ?);\n"
    ));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("`order_page` reads `total`"),
        "{found:#?}"
    );
}

#[test]
fn a_new_row_is_not_a_read_modify_write() {
    let single = format!(
        "{READ}-- @name place_order @rate 3/s @new-row\nINSERT INTO shop.order_by_id (order_id, customer_id, total) VALUES (?, ?, ?);\n"
    );
    assert!(cql019(&single).is_empty(), "{:#?}", cql019(&single));
    let batch = format!(
        "{READ}-- @name place_order @rate 3/s @new-row\nBEGIN BATCH\n    INSERT INTO shop.order_by_id (order_id, customer_id, total) VALUES (?, ?, ?);\nAPPLY BATCH;\n"
    );
    assert!(cql019(&batch).is_empty(), "{:#?}", cql019(&batch));
}

#[test]
fn after_still_pairs_a_new_row() {
    let found = cql019(&format!(
        "{READ}-- @name place_order @new-row @after order_page\nINSERT INTO shop.order_by_id (order_id, customer_id, total) VALUES (?, ?, ?);\n"
    ));
    assert_eq!(found.len(), 1, "{found:#?}");
}

#[test]
fn the_annotation_is_known_and_a_misspelling_is_not() {
    let schema = cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(SCHEMA).statements).schema;
    let queries = format!(
        "{READ}-- @name a @new-row\nINSERT INTO shop.order_by_id (order_id, total) VALUES (?, ?);\n-- @name b @new-rwo\nINSERT INTO shop.order_by_id (order_id, total) VALUES (?, ?);\n"
    );
    let (_, diagnostics) =
        cqlmodel_review::load_queries(&schema, 1, &cqlmodel_cql::parse(&queries), None, 1);
    let said: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].starts_with("unknown annotation `@new-rwo` (did you mean `@new-row`?)"),
        "{said:#?}"
    );
}
