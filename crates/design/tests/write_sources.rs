//! Write paths only rely on rows they can find (issue 10 §3), for writes that
//! name many rows by a column that is not a key: the worker that repeats the
//! write once per row must list those rows from a designed table keyed by
//! what the write binds, kept by the entity's own inserts. Inline
//! pg_dump-style models of an API-token service.

mod common;

use common::{design_inline, on, path};
use cqlmodel_design::Design;
use cqlmodel_design::derive::{KeyPart, TableDesign, TableKind};

const TOKENS: &str = "
CREATE TABLE public.members (
    id bigint NOT NULL,
    team_id bigint NOT NULL,
    email text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
CREATE TABLE public.tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    member_id bigint NOT NULL,
    token_prefix text NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.members ADD CONSTRAINT members_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.members ADD CONSTRAINT members_team_id_email_key UNIQUE (team_id, email);
ALTER TABLE ONLY public.tokens ADD CONSTRAINT tokens_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.tokens ADD CONSTRAINT tokens_token_prefix_key UNIQUE (token_prefix);
ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.members(id);
";

const TOKEN_QUERIES: &str = "
-- @name token_by_prefix @rate 500/s
SELECT member_id, token_hash FROM tokens WHERE token_prefix = $1;
-- @name member_login @rate 20/s
SELECT id FROM members WHERE team_id = $1 AND email = $2;
-- @name issue_token @rate 2/s
INSERT INTO tokens (id, member_id, token_prefix, token_hash) VALUES ($1, $2, $3, $4);
-- @name revoke_member_tokens @rate 1/min
DELETE FROM tokens WHERE member_id = $1;
-- @name revoke_by_email @rate 1/min
DELETE FROM tokens USING members m
 WHERE tokens.member_id = m.id AND m.team_id = $1 AND m.email = $2;
";

fn partition_columns(t: &TableDesign) -> Vec<String> {
    t.partition_key
        .iter()
        .map(|p| match p {
            KeyPart::Attr(a) => a.column.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// The designed tables of `entity` keyed by exactly `columns`.
fn keyed_by<'d>(d: &'d Design, entity: &str, columns: &[&str]) -> Vec<&'d TableDesign> {
    d.tables
        .iter()
        .filter(|t| t.grain == [entity.to_string()] && partition_columns(t) == columns)
        .collect()
}

#[test]
fn a_delete_by_a_non_key_column_lists_its_rows_from_a_table_keyed_by_it() {
    let d = design_inline(TOKENS, TOKEN_QUERIES);
    let lookups = keyed_by(&d, "tokens", &["member_id"]);
    let [lookup] = lookups.as_slice() else {
        panic!(
            "no single `tokens` table keyed by member_id: {:?}",
            d.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
        );
    };
    assert!(
        lookup
            .clustering
            .iter()
            .any(|(p, _)| matches!(p, KeyPart::Attr(a) if a.column == "id")),
        "the lookup lists each token's id: {lookup:#?}"
    );
    assert!(
        lookup
            .decisions
            .iter()
            .any(|x| x.contains("revoke_member_tokens") || x.contains("revoke_by_email")),
        "{:?}",
        lookup.decisions
    );
    // Kept in step with every token: a materialized view of a table the
    // insert writes (the write rate is low), or a table the insert and both
    // deletes (by the column, and by a join that gives it) write.
    let insert = path(&d, "issue_token");
    match &lookup.kind {
        TableKind::View { base } => {
            assert!(on(insert, base).cql.starts_with("INSERT INTO fx."));
            assert!(
                insert.notes.iter().any(|n| n.contains(&lookup.name)),
                "{:?}",
                insert.notes
            );
        }
        TableKind::Table => {
            assert!(on(insert, &lookup.name).cql.starts_with("INSERT INTO fx."));
            for name in ["revoke_member_tokens", "revoke_by_email"] {
                let delete = on(path(&d, name), &lookup.name);
                assert!(delete.cql.starts_with("DELETE FROM fx."), "{}", delete.cql);
            }
        }
        TableKind::Counter => panic!("a counter lists no rows: {lookup:#?}"),
    }
    assert!(
        !d.warnings.iter().any(|w| w.contains("cannot be served")),
        "{:#?}",
        d.warnings
    );
}

#[test]
fn a_delete_by_a_column_some_table_is_already_keyed_by_adds_no_lookup() {
    let queries = format!(
        "{TOKEN_QUERIES}
-- @name tokens_of_member @rate 5/s
SELECT id, token_prefix, created_at FROM tokens WHERE member_id = $1;
"
    );
    let d = design_inline(TOKENS, &queries);
    let tables = keyed_by(&d, "tokens", &["member_id"]);
    assert_eq!(
        tables.len(),
        1,
        "{:?}",
        d.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    assert!(tables[0].queries.contains(&"tokens_of_member".to_string()));
}

#[test]
fn at_a_high_insert_rate_the_listing_is_a_table_every_write_keeps() {
    let queries = TOKEN_QUERIES.replace(
        "@name issue_token @rate 2/s",
        "@name issue_token @rate 400/s",
    );
    let d = design_inline(TOKENS, &queries);
    let lookups = keyed_by(&d, "tokens", &["member_id"]);
    let [lookup] = lookups.as_slice() else {
        panic!("{:?}", d.tables.iter().map(|t| &t.name).collect::<Vec<_>>());
    };
    assert_eq!(lookup.kind, TableKind::Table, "{lookup:#?}");
    let insert = on(path(&d, "issue_token"), &lookup.name);
    assert!(insert.cql.starts_with("INSERT INTO fx."), "{}", insert.cql);
    for name in ["revoke_member_tokens", "revoke_by_email"] {
        let delete = on(path(&d, name), &lookup.name);
        assert!(delete.cql.starts_with("DELETE FROM fx."), "{}", delete.cql);
    }
}

const QUOTES: &str = "
CREATE TABLE public.quotes (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    subtotal_cents bigint NOT NULL,
    tax_cents bigint DEFAULT 0 NOT NULL,
    total_cents bigint GENERATED ALWAYS AS ((subtotal_cents + tax_cents)) STORED,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.quotes ADD CONSTRAINT quotes_pkey PRIMARY KEY (id);
";

/// PostgreSQL computes a stored generated column on every insert; Cassandra
/// computes nothing, so an INSERT that (necessarily) omits it must still
/// write it wherever a read returns it, or the read returns null.
#[test]
fn a_stored_generated_column_is_written_by_the_insert_wherever_it_is_stored() {
    let d = design_inline(
        QUOTES,
        "
-- @name account_quotes @rate 50/s @page 20
SELECT id, total_cents, created_at FROM quotes WHERE account_id = $1
 ORDER BY created_at DESC LIMIT 20;
-- @name new_quote @rate 5/s
INSERT INTO quotes (id, account_id, subtotal_cents, tax_cents) VALUES ($1, $2, $3, $4);
",
    );
    let insert = path(&d, "new_quote");
    let holders: Vec<&str> = d
        .tables
        .iter()
        .filter(|t| t.columns.iter().any(|c| c.name == "total_cents"))
        .map(|t| t.name.as_str())
        .collect();
    assert!(!holders.is_empty(), "{:#?}", d.tables);
    for table in holders {
        let st = on(insert, table);
        assert!(st.cql.contains("total_cents"), "{}", st.cql);
    }
    assert!(
        insert.notes.iter().any(|n| n.contains("`total_cents`")
            && n.contains("generated")
            && n.contains("subtotal_cents + tax_cents")),
        "{:#?}",
        insert.notes
    );
}

/// An update of an input changes the generated value: every table storing it
/// gets the new value, including the tables that do not store the input.
#[test]
fn an_update_of_an_input_rewrites_the_generated_column_where_it_is_stored() {
    let d = design_inline(
        QUOTES,
        "
-- @name account_quotes @rate 50/s @page 20
SELECT id, total_cents, created_at FROM quotes WHERE account_id = $1
 ORDER BY created_at DESC LIMIT 20;
-- @name quote @rate 20/s
SELECT id, account_id, subtotal_cents, tax_cents, total_cents FROM quotes WHERE id = $1;
-- @name new_quote @rate 5/s
INSERT INTO quotes (id, account_id, subtotal_cents, tax_cents) VALUES ($1, $2, $3, $4);
-- @name set_tax @rate 1/s
UPDATE quotes SET tax_cents = $2 WHERE id = $1;
-- @name rename_account @rate 1/s
UPDATE quotes SET account_id = $2 WHERE id = $1;
",
    );
    let update = path(&d, "set_tax");
    for t in d
        .tables
        .iter()
        .filter(|t| t.columns.iter().any(|c| c.name == "total_cents"))
    {
        let st = on(update, &t.name);
        assert!(st.cql.contains("total_cents = ?"), "{}", st.cql);
    }
    assert!(
        update.notes.iter().any(|n| n.contains("`total_cents`")),
        "{:#?}",
        update.notes
    );
    // An update of no input leaves it alone.
    let other = path(&d, "rename_account");
    assert!(
        other
            .statements
            .iter()
            .all(|s| !s.cql.contains("total_cents = ?")),
        "{:#?}",
        other.statements
    );
}

const BOARDS: &str = "
CREATE TABLE public.boards (
    id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    title text NOT NULL
);
CREATE TABLE public.cards (
    id bigint NOT NULL,
    board_id bigint NOT NULL,
    title text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.boards ADD CONSTRAINT boards_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.cards ADD CONSTRAINT cards_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.cards
    ADD CONSTRAINT cards_board_id_fkey FOREIGN KEY (board_id) REFERENCES public.boards(id);
";

/// A card's table is partitioned by its board's workspace: the insert, which
/// has the board id, reads the workspace from a `boards` table by id first.
/// That table must exist (and, since no statement of the list writes boards,
/// the design says the rows come from outside it).
#[test]
fn a_partition_key_copied_from_a_parent_is_read_from_a_table_of_the_parent() {
    let d = design_inline(
        BOARDS,
        "
-- @name workspace_cards @rate 40/s @page 50
SELECT c.id, c.title, c.created_at FROM cards c JOIN boards b ON b.id = c.board_id
 WHERE b.workspace_id = $1 ORDER BY c.created_at DESC LIMIT 50;
-- @name add_card @rate 10/s
INSERT INTO cards (id, board_id, title) VALUES ($1, $2, $3);
",
    );
    let by_id = keyed_by(&d, "boards", &["id"]);
    let [boards] = by_id.as_slice() else {
        panic!(
            "no `boards` table by id: {:?}",
            d.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
        );
    };
    assert!(
        boards.columns.iter().any(|c| c.name == "workspace_id"),
        "{boards:#?}"
    );
    let sources = cqlmodel_design::plan::read_first_sources(&d.model, &d.tables, &d.write_paths);
    assert!(
        sources.iter().any(|s| s.path == "add_card"
            && s.entity == "boards"
            && s.table.as_deref() == Some(boards.name.as_str())),
        "{sources:#?}"
    );
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("add_card: reads a `boards` row first")),
        "{:#?}",
        d.warnings
    );
}

/// The table claiming a UNIQUE value holds the owner's primary key, so that
/// releasing the value (a delete retried from a queue, maybe after another
/// row claimed it) checks it is still this row's: `IF id = ?`, never a bare
/// `IF EXISTS` that would delete the new owner's claim.
#[test]
fn a_released_claim_checks_its_owner_not_only_that_it_exists() {
    let d = design_inline(TOKENS, TOKEN_QUERIES);
    let claims = keyed_by(&d, "tokens", &["token_prefix"]);
    let [claim] = claims.as_slice() else {
        panic!("{:?}", d.tables.iter().map(|t| &t.name).collect::<Vec<_>>());
    };
    assert!(claim.columns.iter().any(|c| c.name == "id"), "{claim:#?}");
    for name in ["revoke_member_tokens", "revoke_by_email"] {
        let release = on(path(&d, name), &claim.name);
        assert!(release.lwt, "{release:#?}");
        assert!(release.cql.ends_with(" IF id = ?"), "{}", release.cql);
    }
}
