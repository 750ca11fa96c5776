//! The application's SQL as ORMs and people write it: `WITH` inlined,
//! `IN (SELECT …)` and `EXISTS` read as the joins they mean, anti-joins and
//! recursive walks refused with a reason, `UPDATE … FROM` and
//! `DELETE … USING` read first, and every rewrite shown as a note.

use cqlmodel_design::{Design, DesignInput, design};

const MODEL: &str = "
CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, plan text NOT NULL, region text NOT NULL);
CREATE TABLE agents (id bigint PRIMARY KEY, account_id bigint NOT NULL REFERENCES accounts(id), email text NOT NULL, active boolean NOT NULL);
CREATE TABLE tickets (
    id bigint PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    assignee_id bigint REFERENCES agents(id),
    status text NOT NULL,
    priority int NOT NULL,
    subject text NOT NULL,
    opened_at timestamptz NOT NULL
);
CREATE TABLE comments (
    id bigint PRIMARY KEY,
    ticket_id bigint NOT NULL REFERENCES tickets(id),
    author_id bigint NOT NULL REFERENCES agents(id),
    body text NOT NULL,
    public boolean NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE TABLE categories (id bigint PRIMARY KEY, parent_id bigint REFERENCES categories(id), name text NOT NULL);
";

fn run(queries: &str) -> Design {
    let input = DesignInput {
        keyspace: "hd",
        model_sql: MODEL,
        queries_sql: Some(queries),
        stats_toml: None,
    };
    match design(&input) {
        Ok(d) => d,
        Err(e) => panic!("stopped (exit 2): {e}"),
    }
}

fn notes(d: &Design) -> Vec<String> {
    d.input_notes
        .iter()
        .filter(|n| n.code == "rewrite")
        .map(|n| format!("{}:{} {}", n.line, n.column, n.message))
        .collect()
}

fn errors(d: &Design) -> Vec<String> {
    d.errors
        .iter()
        .map(|e| format!("{}:{} {}", e.line, e.column, e.message))
        .collect()
}

fn table_of<'d>(d: &'d Design, query: &str) -> &'d cqlmodel_design::derive::TableDesign {
    match d
        .tables
        .iter()
        .find(|t| t.queries.iter().any(|q| q == query))
    {
        Some(t) => t,
        None => panic!("no table serves {query}: {:?}", errors(d)),
    }
}

fn key_columns(t: &cqlmodel_design::derive::TableDesign) -> Vec<String> {
    t.partition_key.iter().map(|p| format!("{p:?}")).collect()
}

#[test]
fn a_with_query_is_inlined_into_the_statement() {
    let d = run("-- @name open_by_account\n\
        WITH open_tickets AS (SELECT id, account_id, subject, opened_at FROM tickets WHERE status = 'open')\n\
        SELECT t.id, t.subject FROM open_tickets t WHERE t.account_id = $1 ORDER BY t.opened_at DESC;\n\
        -- @name plain\n\
        SELECT id, subject FROM tickets WHERE account_id = $1 AND status = 'open' ORDER BY opened_at DESC;\n");
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let n = notes(&d);
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(
        n[0].starts_with("3:29 open_by_account: WITH `open_tickets` inlined into the statement: its read of `tickets` and its filters (tickets.status =) join the statement's"),
        "{n:?}"
    );
    // Inlined, the statement asks what the plain one asks: one table serves both.
    assert_eq!(
        table_of(&d, "open_by_account").name,
        table_of(&d, "plain").name
    );
}

#[test]
fn several_with_queries_and_a_second_reference_read_the_same_rows() {
    let d = run("-- @name busy_agents\n\
        WITH team AS (SELECT id AS agent_id, email FROM agents WHERE account_id = :account),\n\
             mine AS (SELECT id, assignee_id, status FROM tickets WHERE status = :status)\n\
        SELECT m.id, tm.email FROM mine m JOIN team tm ON tm.agent_id = m.assignee_id\n\
        WHERE m.assignee_id IN (SELECT agent_id FROM team);\n");
    let n = notes(&d);
    assert!(n.iter().any(|x| x.contains("WITH `mine` inlined")), "{n:?}");
    assert!(n.iter().any(|x| x.contains("WITH `team` inlined")), "{n:?}");
    assert!(
        n.iter()
            .any(|x| x.contains("WITH `team` read again as `team`")),
        "{n:?}"
    );
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let spec = &d.specs[0];
    let cqlmodel_design::querylist::Body::Select(s) = &spec.body else {
        panic!("a select")
    };
    assert_eq!(s.entities, ["tickets", "agents"]);
}

#[test]
fn in_and_exists_subqueries_are_designed_as_joins() {
    let d = run("-- @name tickets_of_region\n\
        SELECT id, subject FROM tickets WHERE account_id IN (SELECT id FROM accounts WHERE region = $1) AND status = $2;\n\
        -- @name commented_by\n\
        SELECT t.id, t.subject FROM tickets t WHERE EXISTS (SELECT 1 FROM comments c WHERE c.ticket_id = t.id AND c.author_id = $1);\n");
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let n = notes(&d);
    assert!(
        n.iter().any(|x| x.contains("tickets_of_region: IN (SELECT …) read as the join tickets.account_id = accounts.id (a semi-join): each row matches at most one inner row")),
        "{n:?}"
    );
    assert!(
        n.iter().any(|x| x.contains("commented_by: EXISTS (SELECT …) read as the join comments.ticket_id = tickets.id (a semi-join): a row can match several inner rows")),
        "{n:?}"
    );
    // The inner filter is the key of the table serving the read.
    assert!(
        key_columns(table_of(&d, "tickets_of_region"))
            .iter()
            .any(|k| k.contains("region")),
        "{:?}",
        key_columns(table_of(&d, "tickets_of_region"))
    );
    assert!(
        key_columns(table_of(&d, "commented_by"))
            .iter()
            .any(|k| k.contains("author_id")),
        "{:?}",
        key_columns(table_of(&d, "commented_by"))
    );
}

#[test]
fn anti_joins_recursive_walks_and_aggregating_subqueries_are_refused_with_a_reason() {
    let d = run("-- @name unanswered\n\
        SELECT id FROM tickets t WHERE account_id = $1 AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.ticket_id = t.id);\n\
        -- @name idle_agents\n\
        SELECT id FROM agents WHERE account_id = $1 AND id NOT IN (SELECT assignee_id FROM tickets WHERE status = 'open');\n\
        -- @name tree\n\
        WITH RECURSIVE sub AS (SELECT id, parent_id FROM categories WHERE id = $1 UNION ALL SELECT c.id, c.parent_id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub;\n\
        -- @name busiest\n\
        SELECT id FROM agents WHERE id IN (SELECT assignee_id FROM tickets GROUP BY assignee_id);\n\
        -- @name ok\n\
        SELECT id FROM tickets WHERE account_id = $1;\n");
    let e = errors(&d);
    assert_eq!(e.len(), 4, "{e:?}");
    assert!(
        e[0].starts_with("2:64 NOT EXISTS (SELECT …) is an anti-join"),
        "{e:?}"
    );
    assert!(e[0].contains("a flag or a count of partners"), "{e:?}");
    assert!(
        e[1].starts_with("4:49 NOT IN (SELECT …) is an anti-join"),
        "{e:?}"
    );
    assert!(
        e[2].starts_with("6:1 WITH RECURSIVE is a graph walk"),
        "{e:?}"
    );
    assert!(e[2].contains("adjacency table"), "{e:?}");
    assert!(e[3].contains("IN (SELECT …) aggregates rows"), "{e:?}");
    // The rest is designed.
    table_of(&d, "ok");
}

#[test]
fn update_from_and_delete_using_read_the_other_table_first() {
    let d = run("-- @name reassign @rate 5/s\n\
        UPDATE tickets SET assignee_id = a.id FROM agents a WHERE a.email = $1 AND tickets.id = $2;\n\
        -- @name purge_closed_comments\n\
        DELETE FROM comments USING tickets t WHERE comments.ticket_id = t.id AND t.id = $1 AND comments.id = $2;\n\
        -- @name by_account\n\
        SELECT id, subject FROM tickets WHERE account_id = $1;\n");
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let n = notes(&d);
    assert!(
        n.iter().any(|x| x == "2:1 reassign: the other table is read first as `reassign_read` (SELECT id FROM agents WHERE email = $1), designed as a read of its own; then the update by the key it gives"),
        "{n:?}"
    );
    // The read is a query of the design, at the mutation's rate.
    let read = d.queries.iter().find(|q| q.name == "reassign_read");
    assert_eq!(read.map(|q| q.rate), Some(Some(5.0)));
    assert!(
        read.and_then(|q| q.cql.as_deref())
            .is_some_and(|c| c.contains("email = ?")),
        "{read:?}"
    );
    let path = d.write_paths.iter().find(|w| w.name == "reassign");
    let Some(path) = path else {
        panic!("no write path for reassign")
    };
    assert!(
        path.notes
            .iter()
            .any(|n| n.starts_with("reads first: `reassign_read`")),
        "{:?}",
        path.notes
    );
    assert!(
        path.statements.iter().all(|s| s.cql.contains("WHERE")),
        "{:?}",
        path.statements
    );
    let purge = d.specs.iter().find(|q| q.name == "purge_closed_comments");
    let Some(cqlmodel_design::querylist::Body::Mutation(m)) = purge.map(|q| &q.body) else {
        panic!("purge is a mutation")
    };
    assert_eq!(m.key, ["id"]);
    assert_eq!(
        m.read_first.as_ref().map(|r| r.binds.clone()),
        Some(vec!["ticket_id".to_string()])
    );
}

#[test]
fn a_with_query_never_read_is_noted_and_a_writable_one_refused() {
    let d = run("-- @name q1\n\
        WITH unused AS (SELECT id FROM agents) SELECT id FROM tickets WHERE account_id = $1;\n\
        -- @name q2\n\
        WITH gone AS (DELETE FROM comments WHERE id = $1 RETURNING id) SELECT id FROM tickets WHERE account_id = $2;\n");
    let n = notes(&d);
    assert_eq!(
        n,
        ["2:6 q1: WITH `unused` is never read by the statement: left out"]
    );
    let e = errors(&d);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("4:6 the WITH query `gone`, which is not a SELECT"),
        "{e:?}"
    );
}

#[test]
fn a_with_query_naming_itself_reads_the_table_of_that_name() {
    // Without RECURSIVE, `tickets` inside the WITH query `tickets` is the table.
    let d = run("-- @name q1\n\
        WITH tickets AS (SELECT id, account_id FROM tickets WHERE status = 'open') SELECT id FROM tickets WHERE account_id = $1;\n\
        -- @name q2\n\
        WITH a AS (SELECT id FROM b), b AS (SELECT id FROM a) SELECT id FROM b;\n");
    let e = errors(&d);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("4:27 unknown table `b`"), "{e:?}");
    assert!(
        notes(&d)
            .iter()
            .any(|n| n.contains("q1: WITH `tickets` inlined"))
    );
}

#[test]
fn an_update_from_whose_read_has_no_filter_is_still_designed_or_refused_alone() {
    // The read of `accounts` is bound by nothing but the join: which account
    // is known only from the ticket. The designer says what it makes of it.
    let d = run("-- @name copy_plan\n\
        UPDATE tickets SET subject = a.name FROM accounts a WHERE tickets.account_id = a.id AND tickets.id = $1;\n\
        -- @name ok\n\
        SELECT id FROM tickets WHERE account_id = $1;\n");
    let read = d.queries.iter().find(|q| q.name == "copy_plan_read");
    let Some(read) = read else {
        panic!("the read is planned: {:?}", errors(&d))
    };
    // Nothing binds the read: it is off the OLTP path, and says why.
    assert!(
        read.off_path
            .as_ref()
            .is_some_and(|o| o.reason.contains("no equality predicate")),
        "{read:?}"
    );
    assert!(d.write_paths.iter().any(|w| w.name == "copy_plan"));
}

#[test]
fn a_negated_subquery_in_a_mutation_says_to_read_the_keys_first() {
    let d = run("-- @name purge\n\
        DELETE FROM comments WHERE ticket_id NOT IN (SELECT id FROM tickets WHERE account_id = $1);\n");
    let e = errors(&d);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("2:28 a subquery in a mutation's WHERE"),
        "{e:?}"
    );
    assert!(e[0].contains("DELETE … USING"), "{e:?}");
}

/// `IN (SELECT …)` in a mutation's WHERE is the semi-join `DELETE … USING` /
/// `UPDATE … FROM` mean: the other table is read first (`<name>_read`, shown
/// with the user's own placeholders), then the write by the key it gives;
/// both rewrites are notes at the subquery.
#[test]
fn a_subquery_in_a_mutations_where_is_read_first() {
    let d = run("-- @name purge_account_comments\n\
        DELETE FROM comments WHERE ticket_id IN (SELECT id FROM tickets WHERE account_id = :account) AND id = :comment;\n\
        -- @name close_for_agent @rate 2/s\n\
        UPDATE tickets SET status = 'closed' WHERE assignee_id IN (SELECT id FROM agents WHERE email = %(email)s) AND id = %(ticket)s;\n\
        -- @name by_account\n\
        SELECT id, subject FROM tickets WHERE account_id = $1;\n");
    assert!(errors(&d).is_empty(), "{:?}", errors(&d));
    let n = notes(&d);
    assert!(
        n.iter().any(|x| x == "2:42 purge_account_comments: `ticket_id IN (SELECT id FROM tickets …)` is a semi-join: read as DELETE … USING tickets (the other table is read first, then the write by the key it gives)"),
        "{n:?}"
    );
    assert!(
        n.iter().any(|x| x == "2:1 purge_account_comments: the other table is read first as `purge_account_comments_read` (SELECT id FROM tickets WHERE account_id = :account), designed as a read of its own; then the delete by the key it gives"),
        "{n:?}"
    );
    assert!(
        n.iter().any(|x| x.starts_with("4:1 close_for_agent: the other table is read first as `close_for_agent_read` (SELECT id FROM agents WHERE email = %(email)s)")),
        "{n:?}"
    );
    let read = d.queries.iter().find(|q| q.name == "close_for_agent_read");
    assert_eq!(read.map(|q| q.rate), Some(Some(2.0)));
    let close = d.specs.iter().find(|q| q.name == "close_for_agent");
    let Some(cqlmodel_design::querylist::Body::Mutation(m)) = close.map(|q| &q.body) else {
        panic!("close_for_agent is a mutation")
    };
    assert_eq!(
        m.read_first.as_ref().map(|r| r.binds.clone()),
        Some(vec!["assignee_id".to_string()])
    );
    assert!(
        d.write_paths
            .iter()
            .any(|w| w.name == "purge_account_comments")
    );
}
