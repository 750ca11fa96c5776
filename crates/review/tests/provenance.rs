//! `mutable-primary-key` (CQL020) with and without the producer's column
//! provenance ([`cqlmodel_review::Provenance`]), and the cap on the
//! statements one finding lists.

mod common_keys;

use common_keys::review_configured;
use cqlmodel_review::{Attribute, Config, Provenance};

const RULE: &[&str] = &["mutable-primary-key"];

/// Two entities that both have a `parent_id bigint`; a table of shelves keyed
/// by a shelf's parent.
const SCHEMA: &str = "
CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};
CREATE TABLE app.shelves (id bigint PRIMARY KEY, parent_id bigint, label text);
CREATE TABLE app.boxes (id bigint PRIMARY KEY, parent_id bigint, label text);
CREATE TABLE app.shelves_by_parent (
    parent_id bigint,
    id bigint,
    label text,
    PRIMARY KEY (parent_id, id)
);
";

const QUERIES: &str = "
-- @name shelves_in
SELECT * FROM app.shelves_by_parent WHERE parent_id = ?;
-- @name move_box @rate 3/s
UPDATE app.boxes SET parent_id = ? WHERE id = ?;
";

fn config(entries: &[(&str, &str, &str, &str)]) -> Config {
    let mut provenance = Provenance::new();
    for (table, column, entity, attribute) in entries {
        provenance.insert(table, column, Attribute::new(*entity, *attribute));
    }
    Config {
        provenance: Some(provenance),
        ..Config::default()
    }
}

fn cql020_messages(config: Config) -> Vec<String> {
    review_configured(SCHEMA, Some(QUERIES), None, RULE, config)
        .diagnostics
        .into_iter()
        .filter(|d| d.code == "CQL020")
        .map(|d| d.message)
        .collect()
}

#[test]
fn without_provenance_the_rule_matches_by_name_and_type() {
    let found = cql020_messages(Config::default());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("move_box (3/s)"), "{found:#?}");
}

#[test]
fn another_entitys_attribute_of_the_same_name_is_not_a_copy() {
    let found = cql020_messages(config(&[
        ("app.shelves_by_parent", "parent_id", "shelves", "parent_id"),
        ("app.shelves", "parent_id", "shelves", "parent_id"),
        ("app.boxes", "parent_id", "boxes", "parent_id"),
    ]));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_same_attribute_is_a_copy() {
    let found = cql020_messages(config(&[
        ("app.shelves_by_parent", "parent_id", "boxes", "parent_id"),
        ("app.boxes", "parent_id", "boxes", "parent_id"),
    ]));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("move_box"), "{found:#?}");
}

#[test]
fn an_unknown_column_falls_back_to_name_and_type() {
    // The key column is known, the UPDATE's column is not: as for user CQL.
    let found = cql020_messages(config(&[(
        "app.shelves_by_parent",
        "parent_id",
        "shelves",
        "parent_id",
    )]));
    assert_eq!(found.len(), 1, "{found:#?}");
}

#[test]
fn the_statements_a_finding_lists_are_capped() {
    let schema = "
CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};
CREATE TABLE app.users (user_id uuid PRIMARY KEY, email text, name text);
CREATE TABLE app.orders_by_email (
    email text, order_id timeuuid, amount decimal, PRIMARY KEY (email, order_id)
);
";
    let mut queries =
        String::from("-- @name orders_of\nSELECT * FROM app.orders_by_email WHERE email = ?;\n");
    for i in 0..8 {
        queries.push_str(&format!(
            "-- @name change_email_{i}\nUPDATE app.users SET email = ? WHERE user_id = ?;\n"
        ));
    }
    let reviewed = review_configured(schema, Some(&queries), None, RULE, Config::default());
    let messages: Vec<&str> = reviewed
        .diagnostics
        .iter()
        .filter(|d| d.code == "CQL020")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(
        messages[0].ends_with(
            "change_email_0, change_email_1, change_email_2, change_email_3, change_email_4 and 3 more"
        ),
        "{messages:#?}"
    );
    assert!(!messages[0].contains("change_email_5"), "{messages:#?}");
}

#[test]
fn a_rate_under_one_a_second_reads_with_two_decimals() {
    let queries = "
-- @name shelves_in
SELECT * FROM app.shelves_by_parent WHERE parent_id = ?;
-- @name move_box @rate 10/min
UPDATE app.boxes SET parent_id = ? WHERE id = ?;
";
    let found: Vec<String> =
        review_configured(SCHEMA, Some(queries), None, RULE, Config::default())
            .diagnostics
            .into_iter()
            .filter(|d| d.code == "CQL020")
            .map(|d| d.message)
            .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].ends_with("move_box (0.17/s)"), "{found:#?}");
}

/// `copies-out-of-sync` (CQL026): a playlist's items hold the video's title,
/// the playlist holds its own; both are `title text` in tables named after
/// playlists, keyed by `playlist_id`.
const PLAYLISTS: &str = "
CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};
CREATE TABLE app.playlist_by_id (playlist_id uuid PRIMARY KEY, title text);
CREATE TABLE app.playlist_items_by_playlist (
    playlist_id uuid, video_id uuid, title text, PRIMARY KEY (playlist_id, video_id)
);
";

const PLAYLIST_QUERIES: &str = "
-- @name new_playlist @rate 2/s
INSERT INTO app.playlist_by_id (playlist_id, title) VALUES (?, ?);
-- @name add_item @rate 20/s
INSERT INTO app.playlist_items_by_playlist (playlist_id, video_id, title) VALUES (?, ?, ?);
-- @name retitle_video_in_playlist @rate 1/s
UPDATE app.playlist_items_by_playlist SET title = ? WHERE playlist_id = ? AND video_id = ?;
";

fn cql026_messages(config: Config) -> Vec<String> {
    review_configured(
        PLAYLISTS,
        Some(PLAYLIST_QUERIES),
        None,
        &["copies-out-of-sync"],
        config,
    )
    .diagnostics
    .into_iter()
    .filter(|d| d.code == "CQL026")
    .map(|d| d.message)
    .collect()
}

#[test]
fn copies_without_provenance_match_by_name_and_type() {
    let found = cql026_messages(Config::default());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("the copy in `app.playlist_by_id` keeps the old value"),
        "{found:#?}"
    );
}

#[test]
fn another_entitys_attribute_is_not_a_stale_copy() {
    let found = cql026_messages(config(&[
        (
            "app.playlist_by_id",
            "playlist_id",
            "playlists",
            "playlist_id",
        ),
        ("app.playlist_by_id", "title", "playlists", "title"),
        (
            "app.playlist_items_by_playlist",
            "playlist_id",
            "playlists",
            "playlist_id",
        ),
        ("app.playlist_items_by_playlist", "title", "videos", "title"),
    ]));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_same_attribute_in_two_tables_is_a_stale_copy() {
    let found = cql026_messages(config(&[
        ("app.playlist_by_id", "title", "playlists", "title"),
        (
            "app.playlist_items_by_playlist",
            "title",
            "playlists",
            "title",
        ),
    ]));
    assert_eq!(found.len(), 1, "{found:#?}");
}
