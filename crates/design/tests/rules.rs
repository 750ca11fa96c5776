//! The mapping rules one at a time, on the smallest models that show them:
//! keys per query, grain and names, merging, counters, views, and what each
//! kind of mutation writes.

use cqlmodel_design::derive::TableKind;
use cqlmodel_design::{Design, DesignError, DesignErrorKind, DesignInput, design};

const SOCIAL: &str = "
CREATE TABLE users (user_id uuid PRIMARY KEY, username text UNIQUE, display_name text);
CREATE TABLE posts (post_id uuid PRIMARY KEY, author_id uuid NOT NULL REFERENCES users(user_id),
                    body text, created_at timestamptz NOT NULL);
CREATE TABLE follows (follower_id uuid REFERENCES users(user_id), followee_id uuid REFERENCES users(user_id),
                      created_at timestamptz, PRIMARY KEY (follower_id, followee_id));
";

fn run(model: &str, queries: &str, stats: Option<&str>) -> Result<Design, DesignError> {
    design(&DesignInput {
        keyspace: "app",
        model_sql: model,
        queries_sql: Some(queries),
        stats_toml: stats,
    })
}

fn ok(model: &str, queries: &str) -> Design {
    run(model, queries, None).unwrap_or_else(|e| panic!("{e}"))
}

fn table<'a>(d: &'a Design, name: &str) -> &'a cqlmodel_design::derive::TableDesign {
    d.tables.iter().find(|t| t.name == name).unwrap_or_else(|| {
        panic!(
            "no table {name}: {:?}",
            d.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
        )
    })
}

fn key(d: &Design, name: &str) -> (Vec<String>, Vec<(String, bool)>) {
    let t = table(d, name);
    let col = |p| t.column_for(p).map(|c| c.name.clone()).unwrap_or_default();
    (
        t.partition_key.iter().map(col).collect(),
        t.clustering
            .iter()
            .map(|(p, desc)| (col(p), *desc))
            .collect(),
    )
}

fn path<'a>(d: &'a Design, name: &str) -> &'a cqlmodel_design::writes::WritePath {
    d.write_paths
        .iter()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("no write path {name}"))
}

fn tables_written(d: &Design, name: &str) -> Vec<String> {
    path(d, name)
        .statements
        .iter()
        .map(|s| s.table.clone())
        .collect()
}

#[test]
fn equality_is_the_partition_key_and_the_range_clusters_in_the_query_order() {
    let d = ok(
        SOCIAL,
        "-- @name posts_of_user
         SELECT post_id, body FROM posts WHERE author_id = $1 AND created_at < $2 ORDER BY created_at DESC;",
    );
    assert_eq!(
        key(&d, "posts_by_author"),
        (
            vec!["author_id".into()],
            vec![("created_at".into(), true), ("post_id".into(), false)]
        ),
        "created_at DESC for the ORDER BY, post_id ASC for uniqueness"
    );
}

#[test]
fn attributes_of_the_partition_alone_are_static() {
    let model = "
CREATE TABLE orders (order_id uuid PRIMARY KEY, status text);
CREATE TABLE order_items (order_id uuid REFERENCES orders(order_id), line_no int, qty int,
                          PRIMARY KEY (order_id, line_no));";
    let d = ok(
        model,
        "-- @name order_by_id
         SELECT o.order_id, o.status, i.line_no, i.qty FROM orders o JOIN order_items i ON i.order_id = o.order_id
          WHERE o.order_id = $1;",
    );
    // The partition is the order with its lines: named after the order.
    let t = table(&d, "order_by_id");
    let status = t.columns.iter().find(|c| c.name == "status");
    assert_eq!(
        status.map(|c| c.role),
        Some(cqlmodel_design::derive::Role::Static)
    );
    assert_eq!(t.grain, vec!["order_items".to_string()]);
}

#[test]
fn a_timeline_holds_posts_times_follows_and_is_named_after_the_posts() {
    let d = ok(
        SOCIAL,
        "-- @name home
         SELECT p.post_id, p.body, p.created_at FROM follows f JOIN posts p ON p.author_id = f.followee_id
          WHERE f.follower_id = $1 ORDER BY p.created_at DESC;",
    );
    let t = table(&d, "posts_by_follower");
    let mut grain = t.grain.clone();
    grain.sort();
    assert_eq!(grain, vec!["follows".to_string(), "posts".to_string()]);
    assert_eq!(t.entity, "posts");
}

#[test]
fn a_link_joined_for_its_parent_is_named_after_the_link() {
    let d = ok(
        SOCIAL,
        "-- @name followers
         SELECT u.user_id, u.username, f.created_at FROM follows f JOIN users u ON u.user_id = f.follower_id
          WHERE f.followee_id = $1 ORDER BY f.created_at DESC;",
    );
    let t = table(&d, "follows_by_followee");
    assert_eq!(
        t.grain,
        vec!["follows".to_string()],
        "users is determined by follows"
    );
}

#[test]
fn a_count_by_equality_is_a_counter_table_kept_by_the_counted_entity() {
    let d = ok(
        SOCIAL,
        "-- @name follower_count
         SELECT count(*) FROM follows WHERE followee_id = $1;
         -- @name follow
         INSERT INTO follows (follower_id, followee_id, created_at) VALUES ($1, $2, $3);
         -- @name unfollow
         DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2;",
    );
    let t = table(&d, "follow_count_by_followee");
    assert_eq!(t.kind, TableKind::Counter);
    assert_eq!(
        d.queries[0].cql.as_deref(),
        Some("SELECT count FROM app.follow_count_by_followee WHERE followee_id = ?")
    );
    let follow = path(&d, "follow");
    let counter = follow
        .statements
        .iter()
        .find(|s| s.table == "follow_count_by_followee");
    assert_eq!(
        counter.map(|s| s.cql.as_str()),
        Some("UPDATE app.follow_count_by_followee SET count = count + 1 WHERE followee_id = ?")
    );
    assert_eq!(
        counter.map(|s| s.mechanism.as_str()),
        Some("counter update")
    );
    assert!(
        path(&d, "unfollow")
            .statements
            .iter()
            .any(|s| s.cql.contains("count = count - 1"))
    );
}

#[test]
fn a_query_is_served_by_a_table_whose_clustering_prefix_it_binds() {
    let model = "CREATE TABLE readings (device_id text, ts timestamptz, temp float8, PRIMARY KEY (device_id, ts));";
    let d = ok(
        model,
        "-- @name last_day
         SELECT ts, temp FROM readings WHERE device_id = $1 AND ts > $2 ORDER BY ts DESC;
         -- @name at
         SELECT temp FROM readings WHERE device_id = $1 AND ts = $2;",
    );
    assert_eq!(d.tables.len(), 1, "{:?}", d.tables);
    assert_eq!(d.queries[1].table.as_deref(), Some("readings_by_device"));
}

#[test]
fn a_reversed_order_is_served_but_a_different_clustering_order_is_not() {
    let model = "CREATE TABLE readings (device_id text, ts timestamptz, temp float8, PRIMARY KEY (device_id, ts));";
    let reversed = ok(
        model,
        "-- @name newest
         SELECT ts FROM readings WHERE device_id = $1 ORDER BY ts DESC;
         -- @name oldest
         SELECT ts FROM readings WHERE device_id = $1 ORDER BY ts ASC;",
    );
    assert_eq!(reversed.tables.len(), 1);
    assert!(
        reversed.queries[1]
            .cql
            .as_deref()
            .is_some_and(|c| c.ends_with("ORDER BY ts ASC"))
    );
    let other = ok(
        model,
        "-- @name by_time
         SELECT ts, temp FROM readings WHERE device_id = $1 ORDER BY ts DESC;
         -- @name by_temp
         SELECT ts, temp FROM readings WHERE device_id = $1 ORDER BY temp DESC;",
    );
    assert_eq!(
        other.tables.len(),
        2,
        "two orders of one partition need two tables"
    );
    let names: Vec<&str> = other.tables.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.iter().all(|n| !n.ends_with("_2")),
        "collisions take a clustering suffix, not a number: {names:?}"
    );
}

#[test]
fn inserting_a_parent_writes_only_its_own_tables() {
    let d = ok(
        SOCIAL,
        "-- @name home
         SELECT p.post_id, u.username, p.body FROM follows f JOIN posts p ON p.author_id = f.followee_id
           JOIN users u ON u.user_id = p.author_id WHERE f.follower_id = $1 ORDER BY p.created_at DESC;
         -- @name user_by_id
         SELECT username, display_name FROM users WHERE user_id = $1;
         -- @name sign_up
         INSERT INTO users (user_id, username, display_name) VALUES ($1, $2, $3);
         -- @name rename
         UPDATE users SET username = $2 WHERE user_id = $1;
         -- @name publish
         INSERT INTO posts (post_id, author_id, body, created_at) VALUES ($1, $2, $3, $4);",
    );
    // `username` is UNIQUE and the insert supplies it: claimed in a table
    // keyed by it (Cassandra has no unique constraint), first.
    assert_eq!(
        tables_written(&d, "sign_up"),
        vec!["users_by_username".to_string(), "user_by_id".to_string()]
    );
    // The copy of `username` in every timeline row is rewritten, and said to be costly.
    let rename = tables_written(&d, "rename");
    assert!(
        rename.contains(&"posts_by_follower".to_string()),
        "{rename:?}"
    );
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("rename: posts_by_follower copies `users`"))
    );
    // Publishing fans out once per follower, after the write of record, from a queue.
    let publish = path(&d, "publish");
    let fan = publish
        .statements
        .iter()
        .find(|s| s.table == "posts_by_follower");
    assert!(
        fan.and_then(|s| s.repeat.as_deref())
            .is_some_and(|r| r.contains("once per `follows` row"))
    );
    assert!(
        fan.and_then(|s| s.reads_first.as_deref())
            .is_some_and(|r| r.contains("username"))
    );
    assert_eq!(
        fan.map(|s| s.mechanism.as_str()),
        Some("application write with retry from a queue")
    );
}

#[test]
fn changing_a_key_column_moves_the_row_and_a_unique_key_is_claimed_first() {
    let d = ok(
        SOCIAL,
        "-- @name by_username
         SELECT user_id, display_name FROM users WHERE username = $1;
         -- @name user_by_id
         SELECT username FROM users WHERE user_id = $1;
         -- @name rename
         UPDATE users SET username = $2 WHERE user_id = $1;",
    );
    let rename = path(&d, "rename");
    let cqls: Vec<&str> = rename.statements.iter().map(|s| s.cql.as_str()).collect();
    assert!(
        cqls[0].starts_with("INSERT INTO app.users_by_username")
            && cqls[0].ends_with("IF NOT EXISTS"),
        "{cqls:?}"
    );
    assert!(
        cqls.iter()
            .any(|c| c.starts_with("DELETE FROM app.users_by_username WHERE username = ?"))
    );
    assert!(
        cqls.iter()
            .any(|c| c.starts_with("UPDATE app.user_by_id SET username = ?"))
    );
}

#[test]
fn a_slowly_written_re_keyed_table_becomes_a_view_and_a_fast_one_does_not() {
    let model = "
CREATE TABLE sites (site_id uuid PRIMARY KEY);
CREATE TABLE devices (device_id text PRIMARY KEY, site_id uuid REFERENCES sites(site_id), model text);";
    let queries = |rate: &str| {
        format!(
            "-- @name device_by_id
             SELECT site_id, model FROM devices WHERE device_id = $1;
             -- @name devices_of_site
             SELECT device_id, model FROM devices WHERE site_id = $1;
             -- @name add_device @rate {rate}
             INSERT INTO devices (device_id, site_id, model) VALUES ($1, $2, $3);"
        )
    };
    let slow = ok(model, &queries("5/s"));
    assert_eq!(
        table(&slow, "devices_by_site").kind,
        TableKind::View {
            base: "device_by_id".into()
        }
    );
    assert!(slow.schema_cql().contains(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS app.devices_by_site AS\n    SELECT site_id, device_id, model FROM app.device_by_id"
    ));
    assert_eq!(
        tables_written(&slow, "add_device"),
        vec!["device_by_id".to_string()]
    );
    let fast = ok(model, &queries("5000/s"));
    assert_eq!(table(&fast, "devices_by_site").kind, TableKind::Table);
    assert_eq!(tables_written(&fast, "add_device").len(), 2);
}

#[test]
fn a_rate_the_statistics_contradict_is_an_annotation_error() {
    let model = "CREATE TABLE readings (device_id text, ts timestamptz, temp float8, PRIMARY KEY (device_id, ts));";
    let queries = "-- @name last_day @rate 200/s
SELECT ts FROM readings WHERE device_id = $1 ORDER BY ts DESC;";
    let stats = "[query.last_day]\nrate_per_second = 300\n";
    let err = run(model, queries, Some(stats)).err();
    assert_eq!(
        err.as_ref().map(|e| &e.kind),
        Some(&DesignErrorKind::Annotation)
    );
    assert_eq!(err.as_ref().map(|e| e.line), Some(2));
    let agreeing = "[query.last_day]\nrate_per_second = 200\n";
    assert!(run(model, queries, Some(agreeing)).is_ok());
}

#[test]
fn fan_out_sizing_multiplies_the_posts_by_the_followers() {
    let stats = "
[table.users]
rows = 1_000_000
[table.users.column.user_id]
distinct = 1_000_000
[table.posts]
rows_per_second = 100
[table.posts.column.author_id]
distinct = 1_000_000
[table.follows]
rows = 200_000_000
[table.follows.column.followee_id]
distinct = 1_000_000
[table.follows.column.follower_id]
distinct = 1_000_000
";
    let queries = "-- @name home
         SELECT p.post_id, p.body, p.created_at FROM follows f JOIN posts p ON p.author_id = f.followee_id
          WHERE f.follower_id = $1 ORDER BY p.created_at DESC;
         -- @name publish @rate 100/s
         INSERT INTO posts (post_id, author_id, body, created_at) VALUES ($1, $2, $3, $4);";
    let d = run(SOCIAL, queries, Some(stats)).unwrap_or_else(|e| panic!("{e}"));
    // 100 posts/s × 200 followers each = 20,000 timeline rows/s over 1 M
    // followers: 1.7 M rows a year per follower, so the timeline is bucketed.
    let t = table(&d, "posts_by_follower");
    assert!(
        t.partition_key
            .iter()
            .any(|p| matches!(p, cqlmodel_design::derive::KeyPart::Bucket(..))),
        "{:?}",
        t.decisions
    );
    assert_eq!(path(&d, "publish").write_amplification, Some(200.0));
}

#[test]
fn a_heavy_tail_of_followers_switches_the_timeline_to_hybrid() {
    let stats = |zipf: &str| {
        format!(
            "
[table.posts]
rows_per_second = 100
[table.posts.column.author_id]
distinct = 1_000_000
[table.follows]
rows = 50_000_000
[table.follows.column.followee_id]
distinct = 1_000_000
distribution = \"{zipf}\"
"
        )
    };
    let queries = "-- @name home
         SELECT p.post_id, p.body, p.created_at FROM follows f JOIN posts p ON p.author_id = f.followee_id
          WHERE f.follower_id = $1 ORDER BY p.created_at DESC;
         -- @name posts_of_user
         SELECT post_id, body, created_at FROM posts WHERE author_id = $1 ORDER BY created_at DESC;
         -- @name publish @rate 100/s
         INSERT INTO posts (post_id, author_id, body, created_at) VALUES ($1, $2, $3, $4);";
    let hybrid = |d: &Design| {
        path(d, "publish")
            .statements
            .iter()
            .any(|s| s.hybrid && s.table == "posts_by_follower")
    };
    // zipf(1.0) over 1 M accounts: the most followed has 50 M / H(1 M, 1) ≈ 3.5 M followers.
    let skewed = run(SOCIAL, queries, Some(&stats("zipf(1.0)"))).unwrap_or_else(|e| panic!("{e}"));
    assert!(hybrid(&skewed));
    let home = skewed.queries.iter().find(|q| q.name == "home");
    assert!(
        home.is_some_and(|q| q
            .notes
            .iter()
            .any(|n| n.starts_with("hybrid") && n.contains("posts_by_author"))),
        "{home:?}"
    );
    // Uniform: every account has 50 followers, fan-out on write for all.
    let even = run(SOCIAL, queries, Some(&stats("uniform"))).unwrap_or_else(|e| panic!("{e}"));
    assert!(!hybrid(&even));
}

#[test]
fn a_mixed_order_is_never_served_by_reversing_a_table() {
    let model = "CREATE TABLE events (device_id uuid, ts timestamptz, seq int, msg text,
                 PRIMARY KEY (device_id, ts, seq));";
    let d = ok(
        model,
        "-- @name newest
         SELECT ts, msg FROM events WHERE device_id = $1 AND ts > $2 ORDER BY ts DESC;
         -- @name asc
         SELECT ts, seq, msg FROM events WHERE device_id = $1 ORDER BY ts ASC, seq ASC;
         -- @name mixed
         SELECT ts, seq, msg FROM events WHERE device_id = $1 ORDER BY ts DESC, seq ASC;",
    );
    // Cassandra reverses every clustering column or none: `mixed` needs a
    // table clustered (ts DESC, seq ASC) or (ts ASC, seq DESC).
    let mixed = d.queries.iter().find(|q| q.name == "mixed");
    let t = table(&d, mixed.and_then(|q| q.table.as_deref()).unwrap_or(""));
    let dirs: Vec<bool> = t.clustering.iter().map(|(_, desc)| *desc).collect();
    assert!(
        dirs == [true, false] || dirs == [false, true],
        "{}: {dirs:?}",
        t.name
    );
}

#[test]
fn a_key_postgresql_generates_is_bound_by_the_application() {
    let model = "CREATE TABLE products (product_id bigserial PRIMARY KEY, sku text NOT NULL UNIQUE, name text);";
    let d = ok(
        model,
        "-- @name by_sku
         SELECT product_id, name FROM products WHERE sku = $1;
         -- @name add_product
         INSERT INTO products (sku, name) VALUES ($1, $2);",
    );
    let add = path(&d, "add_product");
    assert!(
        add.notes
            .iter()
            .any(|n| n.contains("`product_id`") && n.contains("application generates it"))
    );
    assert!(
        add.statements.iter().all(|s| s.cql.contains("product_id")),
        "every statement binds the generated key: {:?}",
        add.statements.iter().map(|s| &s.cql).collect::<Vec<_>>()
    );
}
