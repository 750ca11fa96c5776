//! The rest of a write's meaning (issues 10 and 20): a cascade into
//! time-bucketed or salted child tables, a partial unique index's re-claim,
//! the drift bound of a `count(DISTINCT)` set, the static-per-bucket
//! alternative stated from the numbers, and Cassandra's top-K rules for ANN
//! reads. Fixtures: the video example and the sizing fixture (real
//! `pg_dump --schema-only` output), and small pg_dump-style models inline.

mod common;

use common::{design_inline, off_path_reason, on, path, query};
use cqlmodel_design::{Design, DesignInput, design};

const PASSAGES: &str = "
CREATE TABLE public.passages (
    passage_id uuid NOT NULL,
    book_id uuid NOT NULL,
    body text NOT NULL,
    embedding public.vector(4) NOT NULL
);
ALTER TABLE ONLY public.passages ADD CONSTRAINT passages_pkey PRIMARY KEY (passage_id);
";

/// The video example: `comments.video_id` is `ON DELETE CASCADE`, and the
/// comments of a video live in `comments_by_video`, one partition per
/// (video, week). Deleting a video deletes every week bucket from the video's
/// creation to now, bounded by the sizing horizon, after the other tables'
/// deletes have read the comment keys from those partitions.
#[test]
fn a_cascade_into_a_time_bucketed_child_table_deletes_every_bucket_from_the_parents_creation() {
    let d = common::design_example("video");
    let delete = path(&d, "delete_video");
    let buckets = on(delete, "comments_by_video");
    assert_eq!(
        buckets.cql,
        "DELETE FROM video.comments_by_video WHERE video_id = ? AND bucket = ?"
    );
    let repeat = buckets.repeat.as_deref().unwrap_or_default();
    assert!(
        repeat.contains("once per `week` bucket of `created_at` from the deleted `videos`'s `published_at` bucket to now")
            && repeat.contains("at most 158 `week` buckets (the `videos` row's age, up to 3y (no retention: the design's horizon, default), / 1 week, + the current one): at most 158 partition deletes per `videos`"),
        "{repeat}"
    );
    // The range starts at the parent's creation time, read by its key.
    assert_eq!(buckets.reads[0].entity, "videos");
    assert_eq!(buckets.reads[0].key, ["video_id"]);
    assert_eq!(buckets.reads[0].table.as_deref(), Some("video_by_id"));
    // The comments' other tables find their keys in those partitions, so the
    // partition deletes run last.
    let by_id = on(delete, "comment_by_id");
    assert_eq!(
        by_id.tables_read().collect::<Vec<_>>(),
        ["comments_by_video"]
    );
    assert!(
        by_id
            .reads_first
            .as_deref()
            .is_some_and(|r| r.contains("`week` bucket by `week` bucket")),
        "{by_id:?}"
    );
    let position = |table: &str| delete.statements.iter().position(|s| s.table == table);
    assert!(position("comment_by_id") < position("comments_by_video"));
    assert!(
        delete.notes.iter().any(
            |n| n.starts_with("ON DELETE CASCADE on `comments.video_id`")
                && n.contains("found in `comments_by_video`")
        ),
        "{:#?}",
        delete.notes
    );
}

/// `UPDATE … SET closed_at = NULL` brings an account back into the partial
/// unique index's set: PostgreSQL refused it when another open account had
/// taken the email meanwhile. The design claims the email again first, and
/// the other statements run only if that claim applied.
#[test]
fn an_update_that_brings_a_row_back_into_a_partial_unique_index_claims_again() {
    let model = "
CREATE TABLE public.accounts (
    account_id uuid NOT NULL,
    email text NOT NULL,
    full_name text NOT NULL,
    closed_at timestamp with time zone
);
ALTER TABLE ONLY public.accounts ADD CONSTRAINT accounts_pkey PRIMARY KEY (account_id);
CREATE UNIQUE INDEX accounts_open_email ON public.accounts USING btree (email) WHERE (closed_at IS NULL);
";
    let queries = "
-- @name sign_up @rate 5/s
INSERT INTO accounts (account_id, email, full_name) VALUES ($1, $2, $3);

-- @name account_by_email @rate 50/s
SELECT account_id, full_name FROM accounts WHERE email = $1;

-- @name account @rate 50/s
SELECT email, full_name, closed_at FROM accounts WHERE account_id = $1;

-- @name restore_account @rate 1/min
UPDATE accounts SET closed_at = NULL WHERE account_id = $1;
";
    let d = design_inline(model, queries);
    let restore = path(&d, "restore_account");
    let first = restore
        .statements
        .first()
        .unwrap_or_else(|| panic!("empty path"));
    assert_eq!(
        first.cql,
        "INSERT INTO fx.accounts_by_email (email, account_id, full_name) VALUES (?, ?, ?) IF NOT EXISTS",
        "{:#?}",
        restore.statements
    );
    assert!(first.lwt);
    assert!(
        first
            .only_when
            .as_deref()
            .is_some_and(|w| w.contains("matches `WHERE (closed_at IS NULL)`")
                && w.contains("the old one did not")),
        "{:?}",
        first.only_when
    );
    assert_eq!(first.reads[0].key, ["account_id"]);
    // The row of record changes only if the claim applied.
    let record = restore
        .statements
        .iter()
        .find(|s| s.cql.starts_with("UPDATE fx.account_by_id"))
        .unwrap_or_else(|| panic!("{:#?}", restore.statements));
    assert!(
        record.only_when.as_deref().is_some_and(|w| w.contains(
            "the re-claim of `email` on `accounts_by_email` applied (`[applied]` = true"
        )),
        "{:?}",
        record.only_when
    );
    // Leaving the set still releases, last.
    assert!(
        restore
            .statements
            .last()
            .is_some_and(|s| s.cql.starts_with("DELETE FROM fx.accounts_by_email")),
        "{:#?}",
        restore.statements
    );
    assert!(
        restore
            .notes
            .iter()
            .any(|n| n.contains("claimed again first")),
        "{:?}",
        restore.notes
    );
    let errors: Vec<_> = d.review.iter().filter(|f| f.is_error()).collect();
    assert!(errors.is_empty(), "the design's own review: {errors:#?}");
}

/// The drift of a `count(DISTINCT x)` whose values a CHECK lists is bounded:
/// the count is high by at most the other values a key can hold.
#[test]
fn count_distinct_drift_is_bounded_by_the_values_a_check_lists() {
    let model = "
CREATE TABLE public.tickets (
    ticket_id bigint NOT NULL,
    team_id bigint NOT NULL,
    priority text NOT NULL,
    CONSTRAINT tickets_priority_check CHECK ((priority = ANY (ARRAY['low'::text, 'normal'::text, 'high'::text, 'urgent'::text])))
);
ALTER TABLE ONLY public.tickets ADD CONSTRAINT tickets_pkey PRIMARY KEY (ticket_id);
";
    let queries = "
-- @name open_ticket @rate 5/s
INSERT INTO tickets (ticket_id, team_id, priority) VALUES ($1, $2, $3);

-- @name priorities_of_team @rate 20/s
SELECT count(DISTINCT priority) FROM tickets WHERE team_id = $1;

-- @name close_ticket @rate 5/s
DELETE FROM tickets WHERE ticket_id = $1;
";
    let d = design_inline(model, queries);
    let close = path(&d, "close_ticket");
    assert!(
        close.notes.iter().any(|n| n.contains(
            "the count stays high by the values whose last row went: at most 3 per key: the values a key can ever hold (CHECK"
        ) && n.contains("lists 4)")),
        "{:#?}",
        close.notes
    );
}

/// Cassandra does not page a top-K (ANN) read, refuses a LIMIT over 1,000
/// and serial consistency, and downgrades any other level to ONE/LOCAL_ONE:
/// each with Cassandra's own message.
#[test]
fn an_ann_read_is_not_paged_and_its_limit_and_consistency_follow_cassandras_rules() {
    let queries = "
-- @name similar_passages @rate 20/s @page 5 @cl LOCAL_QUORUM
SELECT passage_id, body FROM passages WHERE book_id = $1 ORDER BY embedding <=> $2 LIMIT 10;

-- @name next_similar_passages @rate 5/s
SELECT passage_id, body FROM passages WHERE book_id = $1 ORDER BY embedding <=> $2 LIMIT 10 OFFSET $3;

-- @name many_similar_passages @rate 1/s
SELECT passage_id FROM passages WHERE book_id = $1 ORDER BY embedding <=> $2 LIMIT 2000;

-- @name serial_similar_passages @rate 1/s @cl SERIAL
SELECT passage_id FROM passages WHERE book_id = $1 ORDER BY embedding <=> $2 LIMIT 5;
";
    let d = design_inline(PASSAGES, queries);
    let paged = query(&d, "similar_passages");
    assert_eq!(
        paged.cql.as_deref(),
        Some(
            "SELECT passage_id, body FROM fx.passages_by_book WHERE book_id = ? ORDER BY embedding ANN OF ? LIMIT 10"
        )
    );
    assert!(
        paged.notes.iter().any(|n| n.contains(
            "not paged: `@page 5` is under the LIMIT, so Cassandra reads the 10 rows in one page and warns \"Top-K queries do not support paging and the page size is set to 5, which is less than LIMIT 10. The page size has been set to 10 to match the LIMIT.\""
        ) && n.contains("Downgrading the consistency level to LOCAL_ONE.")),
        "{:#?}",
        paged.notes
    );
    let offset = off_path_reason(&d, "next_similar_passages").unwrap_or_default();
    assert!(
        offset.contains("OFFSET: an ANN read is not paged") && offset.contains("CQL has no OFFSET"),
        "{offset}"
    );
    let many = off_path_reason(&d, "many_similar_passages").unwrap_or_default();
    assert!(
        many.contains("\"Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000. LIMIT was 2000\""),
        "{many}"
    );
    let serial = off_path_reason(&d, "serial_similar_passages").unwrap_or_default();
    assert!(
        serial.contains("Consistency level SERIAL was used."),
        "{serial}"
    );
}

/// The sizing fixture: `channels.title` is read with `channel_events_by_channel`
/// (hour buckets) and `memberships_by_channel` (64 salts), and kept once in
/// `channel_by_id`. Renaming a channel says what a static in every bucket
/// would cost instead, from the numbers, next to the one statement it writes.
#[test]
fn an_update_of_a_value_kept_out_of_split_tables_states_the_static_per_bucket_alternative() {
    let stats = common::fixture_in("sizing", "stats.toml");
    let d = common::design_fixture("sizing", Some(&stats), None);
    let rename = path(&d, "rename_channel");
    assert_eq!(
        rename
            .statements
            .iter()
            .map(|s| s.cql.as_str())
            .collect::<Vec<_>>(),
        ["UPDATE sizing.channel_by_id SET title = ? WHERE channel_id = ?"]
    );
    let note = |table: &str| {
        rename
            .notes
            .iter()
            .find(|n| n.contains(&format!("not as a static of `{table}`")))
            .unwrap_or_else(|| panic!("no alternative for {table}: {:#?}", rename.notes))
            .clone()
    };
    let events = note("channel_events_by_channel");
    assert!(
        events.starts_with("`title` of `channels`, read with `channel_events_by_channel`'s rows, is kept once in `channel_by_id`")
            && events.contains("(a `hour` bucket of `happened_at`): a static in every bucket would write each change to up to 26.3k partitions (the `hour` buckets in 3y (no retention: the design's horizon, default)), 26.3k statements a second at this path's 1/s")
            && events.contains("chosen: 1 statement per change"),
        "{events}"
    );
    let members = note("memberships_by_channel");
    assert!(
        members.contains("(salt 64): a static in every bucket would write each change to 64 partitions (one per salt value), 64 statements a second"),
        "{members}"
    );
}

/// Every statement of the named write paths parses and Cassandra's rules
/// accept it on the design's own schema.
fn assert_write_paths_valid(d: &Design, names: &[&str]) {
    let parsed = cqlmodel_cql::parse(&d.schema_cql());
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let settings = cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        ..cqlmodel_schema::Settings::default()
    };
    let build = cqlmodel_schema::build_schema_with(settings, 0, &parsed.statements);
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    for name in names {
        for s in &path(d, name).statements {
            let one = cqlmodel_cql::parse(&s.cql);
            assert!(
                one.errors.is_empty(),
                "{name}: `{}`: {:?}",
                s.cql,
                one.errors
            );
            let statement = one
                .statements
                .first()
                .unwrap_or_else(|| panic!("{name}: `{}` holds no statement", s.cql));
            let analysed =
                cqlmodel_schema::access::analyze(&build.schema, statement, Some(&d.keyspace));
            assert!(
                analysed.error.is_none(),
                "{name}: `{}`: {:?}",
                s.cql,
                analysed.error
            );
        }
    }
}

#[test]
fn the_new_write_path_statements_are_accepted_by_the_designs_own_schema() {
    let video = common::design_example("video");
    assert_write_paths_valid(&video, &["delete_video"]);
    let model = "
CREATE TABLE public.accounts (
    account_id uuid NOT NULL,
    email text NOT NULL,
    full_name text NOT NULL,
    closed_at timestamp with time zone
);
ALTER TABLE ONLY public.accounts ADD CONSTRAINT accounts_pkey PRIMARY KEY (account_id);
CREATE UNIQUE INDEX accounts_open_email ON public.accounts USING btree (email) WHERE (closed_at IS NULL);
";
    let queries = "
-- @name sign_up @rate 5/s
INSERT INTO accounts (account_id, email, full_name) VALUES ($1, $2, $3);

-- @name account_by_email @rate 50/s
SELECT account_id, full_name FROM accounts WHERE email = $1;

-- @name restore_account @rate 1/min
UPDATE accounts SET closed_at = NULL WHERE account_id = $1;
";
    assert_write_paths_valid(&design_inline(model, queries), &["restore_account"]);
}

/// A parent with no creation time: the cascade reaches every bucket the
/// child's rows can be in (over the sizing horizon: no retention, so no TTL
/// expires them), and says so with the count.
#[test]
fn a_cascade_into_buckets_without_a_parent_creation_time_reaches_every_bucket_of_the_horizon() {
    let model = "
CREATE TABLE public.devices (
    device_id uuid NOT NULL,
    label text NOT NULL
);
ALTER TABLE ONLY public.devices ADD CONSTRAINT devices_pkey PRIMARY KEY (device_id);
CREATE TABLE public.readings (
    device_id uuid NOT NULL,
    taken_at timestamp with time zone NOT NULL,
    value double precision NOT NULL
);
ALTER TABLE ONLY public.readings ADD CONSTRAINT readings_pkey PRIMARY KEY (device_id, taken_at);
ALTER TABLE ONLY public.readings
    ADD CONSTRAINT readings_device_id_fkey FOREIGN KEY (device_id) REFERENCES public.devices(device_id) ON DELETE CASCADE;
";
    let queries = "
-- @name device @rate 10/s
SELECT label FROM devices WHERE device_id = $1;

-- @name recent_readings @rate 50/s
SELECT taken_at, value FROM readings WHERE device_id = $1 AND taken_at > $2 ORDER BY taken_at DESC LIMIT 100;

-- @name add_reading @rate 5000/s
INSERT INTO readings (device_id, taken_at, value) VALUES ($1, $2, $3);

-- @name remove_device @rate 1/h
DELETE FROM devices WHERE device_id = $1;
";
    let stats = "
[table.devices]
rows = 1000

[table.readings]
rows_per_second = 5000

[table.readings.column.device_id]
distinct = 1000
";
    let d = design(&DesignInput {
        keyspace: "fx",
        model_sql: model,
        queries_sql: Some(queries),
        stats_toml: Some(stats),
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let remove = path(&d, "remove_device");
    let buckets = remove
        .statements
        .iter()
        .find(|s| s.table.starts_with("readings_by_device"))
        .unwrap_or_else(|| {
            panic!(
                "{:#?}\n{:#?}\n{:#?}",
                remove.statements,
                remove.notes,
                d.tables
                    .iter()
                    .map(|t| (&t.name, &t.partition_key, &t.ttl))
                    .collect::<Vec<_>>()
            )
        });
    let repeat = buckets.repeat.as_deref().unwrap_or_default();
    assert!(
        repeat.contains("over every bucket that can hold rows: `devices` has no creation time")
            && repeat.contains("up to 3y (no retention: the design's horizon, default)"),
        "{}\n{repeat}",
        buckets.cql
    );
    assert!(
        buckets.reads.is_empty(),
        "nothing to read first: {buckets:?}"
    );
}
