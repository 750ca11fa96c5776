//! queries.cql gives a write path's logged batch as one `BEGIN BATCH … APPLY
//! BATCH`: before, its statements stood apart under `<path>_<n>`, the file
//! did not say what the application sends, and the design's own review
//! warned (CQL026) that the copies were written without a logged batch.

mod common;

use common::{design_example, design_fixture};

#[test]
fn a_logged_batch_is_one_batch_statement() {
    let d = design_fixture("tokens", None, None);
    let cql = d.queries_cql();
    let issue = "-- @name issue @rate 500/s @new-row\nBEGIN BATCH\n    INSERT INTO tokens.token_by_id (token_id, member_id, kind, secret, expires_at) VALUES (?, ?, ?, ?, ?);\n    INSERT INTO tokens.tokens_by_member (member_id, token_id) VALUES (?, ?);\n    INSERT INTO tokens.tokens_by_member_expires_at (member_id, expires_at, token_id, kind) VALUES (?, ?, ?, ?);\n    INSERT INTO tokens.tokens_by_kind (kind, expires_at, token_id) VALUES (?, ?, ?);\nAPPLY BATCH;\n";
    assert!(cql.contains(issue), "{cql}");
    assert!(!cql.contains("@name issue_1"), "{cql}");
}

#[test]
fn statements_outside_the_batch_keep_their_own_names() {
    // revoke_all: two deletes a worker repeats per token (from a queue), then
    // the member's two partitions in one logged batch.
    let d = design_fixture("tokens", None, None);
    let cql = d.queries_cql();
    for expected in [
        "-- @name revoke_all_1 @rate 1/s\nDELETE FROM tokens.token_by_id WHERE token_id = ?;\n",
        "-- @name revoke_all_2 @rate 1/s\nDELETE FROM tokens.tokens_by_kind WHERE kind = ? AND expires_at = ? AND token_id = ?;\n",
        "-- @name revoke_all_3 @rate 1/s\nBEGIN BATCH\n    DELETE FROM tokens.tokens_by_member WHERE member_id = ?;\n    DELETE FROM tokens.tokens_by_member_expires_at WHERE member_id = ?;\nAPPLY BATCH;\n",
    ] {
        assert!(cql.contains(expected), "lacks {expected}\nin\n{cql}");
    }
    assert!(!cql.contains("revoke_all_4"), "{cql}");
}

#[test]
fn the_own_review_finds_no_copies_written_apart() {
    for d in [
        design_fixture("tokens", None, None),
        design_example("video"),
        design_example("ecommerce"),
    ] {
        let apart: Vec<_> = d.review.iter().filter(|f| f.code == "CQL026").collect();
        assert!(apart.is_empty(), "{apart:#?}");
    }
}

/// An INSERT under the identifier the write just made (a uuid, a default)
/// is `@new-row`: the review then does not take its values for a
/// read-modify-write (ecommerce's `place_order` was a CQL019 warning: a
/// display read selects the order's `total`). An INSERT keyed by a parent's
/// id and a line number may replace a row, and is not marked.
#[test]
fn inserts_under_a_new_identifier_are_new_rows() {
    let d = design_example("ecommerce");
    let cql = d.queries_cql();
    assert!(
        cql.contains("-- @name place_order_1 @rate 3.5/s @cl LOCAL_QUORUM @new-row\n"),
        "{cql}"
    );
    let line = cql
        .lines()
        .find(|l| l.starts_with("-- @name add_order_line"))
        .unwrap_or_else(|| panic!("no add_order_line in {cql}"));
    assert!(!line.contains("@new-row"), "{line}");
    let rmw: Vec<_> = d
        .review
        .iter()
        .filter(|f| {
            f.code == "CQL019"
                && f.query
                    .as_deref()
                    .is_some_and(|q| q.starts_with("place_order"))
        })
        .collect();
    assert!(rmw.is_empty(), "{rmw:#?}");
}
