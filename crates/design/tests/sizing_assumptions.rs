//! Sizing says what it assumed (issue 10 §5, "nothing the tool decides may
//! be silent"), on the growth fixture (a real `pg_dump --schema-only` of
//! tests/data/growth/ddl.sql): a foreign key whose count is kept as given,
//! or defaulted, is stated in the report even where no table is keyed by
//! it; a read by time alone of an entity of fixed size is sized too.

mod common;

use common::{decisions, design_fixture, fixture_in};
use cqlmodel_design::{Design, report_md};

fn fixture(name: &str) -> String {
    fixture_in("growth", name)
}

fn growth(stats: &str) -> Design {
    design_fixture("growth", Some(stats), None)
}

fn with(from: &str, to: &str) -> String {
    let s = fixture("stats.toml");
    assert!(s.contains(from), "the fixture no longer holds {from:?}");
    s.replace(from, to)
}

/// Plays expire after 90 days: `plays.episode_id` to the growing episodes
/// keeps a count, stated under "Foreign keys over the horizon".
const EXPIRING_PLAYS: (&str, &str) = (
    "[table.plays]\nrows_per_second = 2000\nretention = \"unbounded\"",
    "[table.plays]\nrows_per_second = 2000\nretention = \"90d\"",
);

#[test]
fn a_given_foreign_key_count_has_its_line_in_the_report() {
    let stats = with(EXPIRING_PLAYS.0, EXPIRING_PLAYS.1).replace(
        "[table.plays.column.episode_id]\ndistribution = \"zipf(1.1)\"",
        "[table.plays.column.episode_id]\ndistinct = 5000000\ndistribution = \"zipf(1.1)\"",
    );
    let d = growth(&stats);
    let report = report_md(&d);
    let section = report
        .split("### Foreign keys over the horizon")
        .nth(1)
        .and_then(|s| s.split("\n| query |").next())
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        section.contains("| `plays.episode_id` | `episodes` | given, ")
            && section.contains("- `plays.episode_id` refers to `episodes`, which grows, but one side expires (retention), so the ratio of the growth rates does not count the parents live rows refer to: the statistics' count (5M values) is kept as given, about 3.11k `plays` rows per value at 90d"),
        "{section}"
    );
}

#[test]
fn a_foreign_key_with_no_count_to_keep_says_what_it_assumed() {
    // Before: the reference was skipped and sizing used the parent's rows
    // silently.
    let d = growth(&with(EXPIRING_PLAYS.0, EXPIRING_PLAYS.1));
    let g = d
        .foreign_key_growth
        .iter()
        .find(|g| g.entity == "plays" && g.column == "episode_id")
        .unwrap_or_else(|| panic!("{:?}", d.foreign_key_growth));
    assert_eq!(g.per_parent, "default");
    // Episodes at 2/s over the 3y horizon.
    assert_eq!(g.distinct, 189_216_000.0);
    let said = "`plays.episode_id` refers to `episodes`, which grows, but one side expires (retention), so the ratio of the growth rates does not count the parents live rows refer to, and the statistics give no `distinct`: every `episodes` row is assumed to have children, 189M values (the parent's rows at its horizon)";
    assert!(report_md(&d).contains(said), "{}", report_md(&d));
    assert!(
        decisions(&d, "plays_by_episode").contains(said),
        "{}",
        decisions(&d, "plays_by_episode")
    );
}

/// Plays as a fixed set of rows (an archive), read by time alone.
fn fixed_plays(rows: u64) -> Design {
    growth(&with(
        "[table.plays]\nrows_per_second = 2000\nretention = \"unbounded\"",
        &format!("[table.plays]\nrows = {rows}"),
    ))
}

#[test]
fn a_read_by_time_alone_of_a_small_fixed_entity_is_one_partition_and_says_so() {
    let d = fixed_plays(50_000);
    let q = d
        .queries
        .iter()
        .find(|q| q.name == "recent_plays")
        .unwrap_or_else(|| panic!("no recent_plays"));
    let table = q.table.clone().unwrap_or_default();
    assert_eq!(
        q.cql.as_deref(),
        Some(format!("SELECT play_id, episode_id, listener_id, played_at FROM growth.{table} WHERE bucket = 0 AND played_at >= ? AND played_at < ? LIMIT 100").as_str())
    );
    assert_eq!(q.partitions, Some(1));
    let said = decisions(&d, &table);
    assert!(
        said.contains("sizing: read by time alone, but `plays` holds a fixed 50k rows (the statistics' `rows`): one partition suffices, 50k rows, 3.2 MB (within the partition limits)"),
        "{said}"
    );
    let errors: Vec<_> = d.review.iter().filter(|f| f.severity == "error").collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_read_by_time_alone_of_a_large_fixed_entity_gets_a_sized_bucket_and_the_assumption() {
    let d = fixed_plays(50_000_000);
    let q = d
        .queries
        .iter()
        .find(|q| q.name == "recent_plays")
        .unwrap_or_else(|| panic!("no recent_plays"));
    let table = q.table.clone().unwrap_or_default();
    let said = decisions(&d, &table);
    assert!(
        said.contains("sizing: read by time alone; `plays` holds a fixed 50M rows (the statistics' `rows`), 3.2 GB in one partition: over partition-bytes, partition-rows; the statistics do not say how the rows spread over time, so, assuming them spread evenly over 3y, a `day` bucket holds about 45.7k rows; a page of 100 reads about 2 bucket(s)"),
        "{said}"
    );
    assert!(
        d.warnings.iter().any(|w| w
            .contains("read by time alone over a fixed 50M rows that do not fit one partition")),
        "{:?}",
        d.warnings
    );
}

/// The ledger (tests/data/verdict-ledger): two entries per transfer at
/// 300/s kept for ever; `entries.transfer_id` is a uuid the application
/// generates, and the statistics give no `distinct` for it.
fn ledger(stats: &str) -> Design {
    design_fixture("verdict-ledger", Some(stats), None)
}

fn ledger_stats() -> String {
    fixture_in("verdict-ledger", "stats.toml")
}

fn partition_key(d: &Design, name: &str) -> Vec<String> {
    common::table(d, name)
        .columns
        .iter()
        .filter(|c| c.role == cqlmodel_design::derive::Role::PartitionKey)
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn a_generated_identifier_without_a_count_has_one_value_per_row_and_says_so() {
    // Before: `transfer_id` got the size command's constant 1,000 values, so
    // each held 28.4M entries at 3y and the table was salted 64 ways (a
    // read of one transfer ran 64 statements) while still "over the limits".
    let d = ledger(&ledger_stats());
    assert_eq!(
        partition_key(&d, "entries_by_transfer"),
        vec!["transfer_id"]
    );
    let said = decisions(&d, "entries_by_transfer");
    assert!(
        said.contains("sizing: `transfer_id` (`entries.transfer_id`, a uuid the application generates) has no `distinct` in the statistics: one value per `entries` row, 28.4G at 3y (default: a generated identifier is new for each row; give `distinct` when several rows share one)")
            && said.contains("sizing: largest partition 1 rows"),
        "{said}"
    );
    let q = d
        .queries
        .iter()
        .find(|q| q.name == "entries_of_transfer")
        .unwrap_or_else(|| panic!("no entries_of_transfer"));
    assert_eq!((q.partitions, q.rows_read), (Some(1), Some(1.0)));
    assert!(
        !d.warnings
            .iter()
            .any(|w| w.starts_with("entries_by_transfer")),
        "{:?}",
        d.warnings
    );
    let report = report_md(&d);
    assert!(
        report.contains("### Identifiers without a count")
            && report.contains(
                "| `entries.transfer_id` | a uuid | 28.4G | 3y | `entries_by_transfer` |"
            ),
        "{report}"
    );
}

#[test]
fn a_given_count_for_a_generated_identifier_is_used_and_no_default_is_said() {
    // Two legs per transfer: half as many transfers as entries (3y at 300/s).
    let stats = format!(
        "{}\n[table.\"public.entries\".column.transfer_id]\ndistinct = 14_191_200_000\n",
        ledger_stats()
    );
    let d = ledger(&stats);
    let said = decisions(&d, "entries_by_transfer");
    assert!(
        !said.contains("has no `distinct`") && said.contains("sizing: largest partition 2 rows"),
        "{said}"
    );
    assert!(!report_md(&d).contains("### Identifiers without a count"));
}

/// Events read by their kind: `kind` is free text, no statistics count it,
/// and it neither is generated nor refers to anything.
const EVENTS_MODEL: &str = "
CREATE TABLE public.events (
    event_id uuid NOT NULL,
    kind text NOT NULL,
    happened_at timestamp with time zone NOT NULL,
    payload text
);
ALTER TABLE ONLY public.events ADD CONSTRAINT events_pkey PRIMARY KEY (event_id);
";

const EVENTS_QUERIES: &str = "
-- @name events_of_kind @rate 20/s
SELECT event_id, happened_at, payload FROM events WHERE kind = $1
    ORDER BY happened_at DESC LIMIT 50;

-- @name record_event @rate 10/s
INSERT INTO events (event_id, kind, happened_at, payload) VALUES ($1, $2, $3, $4);
";

fn events(stats: &str) -> Design {
    cqlmodel_design::design(&cqlmodel_design::DesignInput {
        keyspace: "fx",
        model_sql: EVENTS_MODEL,
        queries_sql: Some(EVENTS_QUERIES),
        stats_toml: Some(stats),
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_key_column_nothing_counts_states_the_constant_default() {
    // Before: the 1,000 values the size command assumes were used silently.
    let d = events("[table.events]\nrows_per_second = 10\n");
    let said = decisions(&d, "events_by_kind");
    assert!(
        said.contains("sizing: `kind` (`events.kind`) has no `distinct` in the statistics and nothing else counts its values (not a generated identifier, not a foreign key to an entity with statistics): the size command's default of 1k values is assumed; give `distinct` for it"),
        "{said}"
    );
    let given = events(
        "[table.events]\nrows_per_second = 10\n\n[table.events.column.kind]\ndistinct = 40\n",
    );
    assert!(
        !decisions(&given, "events_by_kind").contains("has no `distinct`"),
        "{}",
        decisions(&given, "events_by_kind")
    );
}

/// Tickets numbered by a sequence, and their lines keyed by (ticket, line):
/// `ticket_lines.batch` is a uuid the lines of one batch share as part of
/// the composite key (batch, line_no), so it is not one value per row.
const TICKETS_MODEL: &str = "
CREATE TABLE public.tickets (
    ticket_no bigint DEFAULT nextval('public.tickets_ticket_no_seq'::regclass) NOT NULL,
    desk_code text NOT NULL,
    opened_at timestamp with time zone NOT NULL
);
ALTER TABLE ONLY public.tickets ADD CONSTRAINT tickets_pkey PRIMARY KEY (desk_code, ticket_no);
CREATE TABLE public.ticket_lines (
    batch uuid NOT NULL,
    line_no integer NOT NULL,
    body text NOT NULL
);
ALTER TABLE ONLY public.ticket_lines ADD CONSTRAINT ticket_lines_pkey PRIMARY KEY (batch, line_no);
";

const TICKETS_QUERIES: &str = "
-- @name tickets_by_number @rate 20/s
SELECT desk_code, opened_at FROM tickets WHERE ticket_no = $1;

-- @name lines_of_batch @rate 20/s
SELECT line_no, body FROM ticket_lines WHERE batch = $1 ORDER BY line_no;

-- @name open_ticket @rate 5/s
INSERT INTO tickets (desk_code, opened_at) VALUES ($1, $2);

-- @name add_line @rate 50/s
INSERT INTO ticket_lines (batch, line_no, body) VALUES ($1, $2, $3);
";

/// The table serving the read `name`.
fn served_by(d: &Design, name: &str) -> String {
    common::query(d, name)
        .table
        .clone()
        .unwrap_or_else(|| panic!("{name} has no table"))
}

#[test]
fn a_serial_has_one_value_per_row_and_a_part_of_a_composite_key_does_not() {
    let d = cqlmodel_design::design(&cqlmodel_design::DesignInput {
        keyspace: "fx",
        model_sql: TICKETS_MODEL,
        queries_sql: Some(TICKETS_QUERIES),
        stats_toml: Some(
            "[table.tickets]\nrows_per_second = 5\n\n[table.ticket_lines]\nrows_per_second = 50\n",
        ),
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let by_number = served_by(&d, "tickets_by_number");
    let said = decisions(&d, &by_number);
    assert!(
        said.contains("sizing: `ticket_no` (`tickets.ticket_no`, a serial number the application generates) has no `distinct` in the statistics: one value per `tickets` row, 473M at 3y"),
        "{said}"
    );
    let lines = served_by(&d, "lines_of_batch");
    let said = decisions(&d, &lines);
    assert!(
        !said.contains("the application generates")
            && said.contains("the size command's default of 1k values"),
        "{said}"
    );
}

/// A partition-key column whose type lists its values (here an enum of 4
/// statuses) has that many values, not the size command's default of 1,000:
/// 2 orders a second over 3 years in 50 stores × 4 statuses is 946k rows a
/// partition, which needs a time bucket; with 1,000 statuses assumed it
/// looked like 3.8k rows and got none. The assumption is stated.
#[test]
fn a_key_column_of_an_enum_has_the_enums_values_and_says_so() {
    let stats = fixture_in("enum-key", "stats.toml");
    let d = design_fixture("enum-key", Some(&stats), None);
    let t = d
        .tables
        .iter()
        .find(|t| t.name == "orders_by_store_and_status")
        .unwrap_or_else(|| panic!("no orders_by_store_and_status"));
    let key: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| c.role == cqlmodel_design::derive::Role::PartitionKey)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(key, ["store_id", "status", "month"], "{:?}", t.decisions);
    let said = decisions(&d, "orders_by_store_and_status");
    assert!(
        said.contains("sizing: `status` has no `distinct` in the statistics and its type lists its values (`orders.status` enum `order_status`: 4 values): 4 values assumed"),
        "{said}"
    );
    assert!(!said.contains("the size command's default"), "{said}");
}
