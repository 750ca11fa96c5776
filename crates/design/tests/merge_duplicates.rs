//! Issue 10 §3: two reads of the same rows with the same key get one table.
//! The designer derives a table per read; when two of them have the same
//! partition key, the same clustering and the same rows (one entity, one
//! filter), the second is merged into the first, which then serves both
//! reads, and the table's decisions say why.

use cqlmodel_design::derive::TableDesign;
use cqlmodel_design::{Design, DesignInput, design};

const LIBRARY: &str = "
CREATE TABLE members (member_id bigint PRIMARY KEY, full_name text NOT NULL, branch text NOT NULL);
CREATE TABLE loans (loan_id bigint PRIMARY KEY,
                    member_id bigint NOT NULL REFERENCES members(member_id),
                    branch text NOT NULL, title text NOT NULL, due_on date NOT NULL,
                    lent_at timestamptz NOT NULL);
";

fn run(queries: &str) -> Design {
    design(&DesignInput {
        keyspace: "library",
        model_sql: LIBRARY,
        queries_sql: Some(queries),
        stats_toml: None,
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The tables holding `loans` rows (grain `loans`) that serve a read.
fn loan_tables(d: &Design) -> Vec<&TableDesign> {
    d.tables
        .iter()
        .filter(|t| t.grain == ["loans"] && !t.queries.is_empty())
        .collect()
}

fn cql_of<'a>(d: &'a Design, query: &str) -> &'a str {
    d.queries
        .iter()
        .find(|q| q.name == query)
        .and_then(|q| q.cql.as_deref())
        .unwrap_or_else(|| panic!("no CQL for {query}"))
}

#[test]
fn equalities_written_in_another_order_share_one_table() {
    let d = run("
-- @name loans_of_member_at_branch @rate 40/s
SELECT title, due_on FROM loans WHERE member_id = $1 AND branch = $2;
-- @name overdue_check @rate 5/s
SELECT loan_id, due_on FROM loans WHERE branch = $1 AND member_id = $2;
");
    let tables = loan_tables(&d);
    assert_eq!(tables.len(), 1, "one table for both reads: {tables:#?}");
    let t = tables[0];
    assert_eq!(t.queries, ["loans_of_member_at_branch", "overdue_check"]);
    assert!(
        t.decisions.iter().any(|line| line
            == "overdue_check merged here: its table has the same partition key, clustering columns and rows (its partition key columns in another order): one table serves both"),
        "decisions: {:#?}",
        t.decisions
    );
    // Both reads are served by the merged table, each with its own columns.
    let first = cql_of(&d, "loans_of_member_at_branch");
    let second = cql_of(&d, "overdue_check");
    assert!(
        first.contains(&format!("FROM library.{} ", t.name)),
        "{first}"
    );
    assert!(
        second.contains(&format!("FROM library.{} ", t.name)),
        "{second}"
    );
    assert!(second.starts_with("SELECT loan_id, due_on "), "{second}");
    // Every column either read selects is in the one table.
    for column in ["title", "due_on", "loan_id"] {
        assert!(
            t.columns.iter().any(|c| c.name == column),
            "{column} missing from {:?}",
            t.columns.iter().map(|c| &c.name).collect::<Vec<_>>()
        );
    }
}

#[test]
fn the_same_filter_selecting_other_columns_shares_one_table() {
    let d = run("
-- @name titles_of_member @rate 40/s
SELECT title FROM loans WHERE member_id = $1;
-- @name due_dates_of_member @rate 10/s
SELECT loan_id, due_on FROM loans WHERE member_id = $1;
");
    let tables = loan_tables(&d);
    assert_eq!(tables.len(), 1, "{tables:#?}");
    assert_eq!(
        tables[0].queries,
        ["titles_of_member", "due_dates_of_member"]
    );
    assert!(
        tables[0]
            .decisions
            .iter()
            .any(|line| line
                == "due_dates_of_member merged here: its table has the same key structure"),
        "{:#?}",
        tables[0].decisions
    );
}

#[test]
fn the_same_partition_with_other_rows_is_not_merged() {
    // Loans of a member and the member's own row share the partition key
    // column's value but not the rows: two tables.
    let d = run("
-- @name loans_of_member @rate 40/s
SELECT title FROM loans WHERE member_id = $1;
-- @name member_profile @rate 40/s
SELECT full_name FROM members WHERE member_id = $1;
");
    assert_eq!(loan_tables(&d).len(), 1);
    let member_tables: Vec<&TableDesign> = d
        .tables
        .iter()
        .filter(|t| t.queries.iter().any(|q| q == "member_profile"))
        .collect();
    assert_eq!(member_tables.len(), 1);
    assert!(
        !member_tables[0]
            .queries
            .iter()
            .any(|q| q == "loans_of_member")
    );
}

#[test]
fn a_different_clustering_is_not_a_duplicate() {
    // Same partition, but one read ranges over lent_at: its table clusters
    // by lent_at, the other by loan_id alone; the ranged table serves both
    // (a prefix), and its decision says so rather than calling it a duplicate.
    let d = run("
-- @name recent_loans_of_member @rate 40/s
SELECT title FROM loans WHERE member_id = $1 AND lent_at > $2 ORDER BY lent_at DESC;
-- @name loans_of_member @rate 10/s
SELECT title FROM loans WHERE member_id = $1;
");
    let tables = loan_tables(&d);
    assert_eq!(tables.len(), 1, "{tables:#?}");
    let decisions = &tables[0].decisions;
    assert!(
        decisions.iter().any(|line| line
            == "loans_of_member merged here: its table is served by a prefix of its primary key"),
        "{decisions:#?}"
    );
    assert!(
        !decisions
            .iter()
            .any(|line| line.contains("same partition key, clustering"))
    );
}

#[test]
fn reads_the_user_gave_different_table_names_stay_apart() {
    let d = run("
-- @name loans_of_member_at_branch @table loans_by_member_branch
SELECT title FROM loans WHERE member_id = $1 AND branch = $2;
-- @name branch_member_loans @table loans_by_branch_member
SELECT title FROM loans WHERE branch = $1 AND member_id = $2;
");
    let names: Vec<&str> = loan_tables(&d).iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["loans_by_member_branch", "loans_by_branch_member"]);
}

#[test]
fn the_same_rows_read_in_the_other_direction_share_one_table() {
    let d = run("
-- @name latest_loans_of_member @rate 40/s
SELECT title, lent_at FROM loans WHERE member_id = $1 AND lent_at > $2 ORDER BY lent_at DESC;
-- @name loans_of_member_since @rate 1/s
SELECT title, lent_at FROM loans WHERE member_id = $1 AND lent_at >= $2;
");
    let tables = loan_tables(&d);
    assert_eq!(tables.len(), 1, "{tables:#?}");
    assert!(
        tables[0].decisions.iter().any(|line| line
            == "loans_of_member_since merged here: its table has the same partition key, clustering columns and rows (read in the other clustering direction): one table serves both"),
        "{:#?}",
        tables[0].decisions
    );
}
