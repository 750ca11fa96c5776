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
