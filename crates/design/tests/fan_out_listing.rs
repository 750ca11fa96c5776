//! A fan-out write's read-first step lists the rows it changes and must
//! return what the following statements need (issue 10 §3): revoking a
//! member's tokens deletes each from `tokens_by_kind`, keyed by `kind` and
//! `expires_at`, which the write does not bind. The first table by
//! `member_id` lists only the tokens' ids.

mod common;

use common::{design_fixture, design_inline, fixture_in, on, path};
use cqlmodel_design::report_md;

#[test]
fn the_listing_read_goes_to_a_table_that_holds_the_needed_columns() {
    let d = design_fixture("tokens", None, None);
    let revoke = path(&d, "revoke_all");
    let by_kind = on(revoke, "tokens_by_kind");
    assert_eq!(
        by_kind.tables_read().collect::<Vec<_>>(),
        ["tokens_by_member_expires_at"],
        "{by_kind:#?}"
    );
    let first = by_kind.reads_first.as_deref().unwrap_or_default();
    assert!(
        first.ends_with("; read from `tokens_by_member_expires_at`, which holds them (`tokens_by_member`, the first table by member_id, lacks `kind`, `expires_at`)"),
        "{first}"
    );
    // The delete of a token by id needs only the id: the first table serves.
    let by_id = on(revoke, "token_by_id");
    assert_eq!(
        by_id.tables_read().collect::<Vec<_>>(),
        ["tokens_by_member"]
    );
    assert!(report_md(&d).contains(first), "report.md lacks: {first}");
}

#[test]
fn without_such_a_table_the_rows_are_read_by_primary_key_from_their_record() {
    let queries = fixture_in("tokens", "queries.sql");
    let without = queries.replace(
        "-- @name tokens_of_member_by_expiry @rate 5/s\nSELECT token_id, kind, expires_at FROM tokens WHERE member_id = $1 ORDER BY expires_at DESC LIMIT 20;\n",
        "",
    );
    assert_ne!(queries, without);
    let d = design_inline(&fixture_in("tokens", "model.sql"), &without);
    let by_kind = on(path(&d, "revoke_all"), "tokens_by_kind");
    let reads: Vec<(Option<&str>, &[String])> = by_kind
        .reads
        .iter()
        .map(|r| (r.table.as_deref(), r.key.as_slice()))
        .collect();
    assert_eq!(
        reads,
        [
            (Some("tokens_by_member"), &["member_id".to_string()][..]),
            (Some("token_by_id"), &["token_id".to_string()][..]),
        ]
    );
    let first = by_kind.reads_first.as_deref().unwrap_or_default();
    assert!(
        first.ends_with("; `tokens_by_member` does not hold `kind`, `expires_at`: it gives each row's token_id, then read them from `token_by_id` by token_id, one read per listed row"),
        "{first}"
    );
    assert!(report_md(&d).contains(first), "report.md lacks: {first}");
}

/// At a low write rate the listing would become a materialized view, which
/// no read-first step reads: it stays a table, and says why.
#[test]
fn a_table_a_fan_out_lists_its_rows_from_stays_a_table() {
    let queries = fixture_in("tokens", "queries.sql");
    let slow = queries.replace("-- @name issue @rate 500/s", "-- @name issue @rate 10/s");
    assert_ne!(queries, slow);
    let d = design_inline(&fixture_in("tokens", "model.sql"), &slow);
    let listing = common::table(&d, "tokens_by_member");
    assert_eq!(
        listing.kind,
        cqlmodel_design::derive::TableKind::Table,
        "{:#?}",
        listing.decisions
    );
    assert!(
        listing.decisions.iter().any(|s| s == "stays a table, not a materialized view of `token_by_id`: `revoke_all` lists the rows it changes from it, and Cassandra keeps a view asynchronously (a row written moments before could be missing from the list and escape the change)"),
        "{:#?}",
        listing.decisions
    );
    let by_id = on(path(&d, "revoke_all"), "token_by_id");
    assert_eq!(
        by_id.tables_read().collect::<Vec<_>>(),
        ["tokens_by_member"]
    );
}
