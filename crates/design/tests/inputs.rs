//! The pg_dump fixtures under tests/data/pg-*/ (dumped with PostgreSQL 15 by
//! scripts/pg-fixtures.sh, or written by hand in pg_dump's style where Debian
//! has no package for the extension): each designs without stopping, and its
//! diagnostics (errors and info notes) are snapshotted.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cqlmodel_design::{Design, DesignInput, design};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn run(name: &str) -> Design {
    let d = dir(name);
    let model = std::fs::read_to_string(d.join("model.sql")).unwrap_or_default();
    let queries = std::fs::read_to_string(d.join("queries.sql")).ok();
    let input = DesignInput {
        keyspace: "fx",
        model_sql: &model,
        queries_sql: queries.as_deref(),
        stats_toml: None,
    };
    match design(&input) {
        Ok(d) => d,
        Err(e) => panic!("{name} stopped (exit 2): {e}"),
    }
}

/// Errors and notes, one line each, in the order the CLI shows them.
fn diagnostics(d: &Design) -> String {
    let mut s = String::new();
    for e in &d.errors {
        let _ = writeln!(
            s,
            "error[{}] {}:{}:{}: {}",
            e.kind.code(),
            e.source_file.label(),
            e.line,
            e.column,
            e.message
        );
    }
    for n in &d.input_notes {
        let _ = writeln!(s, "info[{}] model:{}: {}", n.code, n.line, n.message);
    }
    for q in &d.queries {
        let _ = writeln!(
            s,
            "query {} -> {}",
            q.name,
            q.table.clone().unwrap_or_else(|| "off path".into())
        );
    }
    s
}

fn entity_names(d: &Design) -> Vec<String> {
    let mut names: Vec<String> = d.model.entities.iter().map(|e| e.name.clone()).collect();
    names.sort();
    names
}

#[test]
fn identity_domains_partitions_and_inheritance_are_read() {
    let d = run("pg-identity");
    assert_eq!(
        entity_names(&d),
        [
            "audit_log",
            "contracts",
            "documents",
            "events",
            "invoices",
            "tenants"
        ],
        "one entity per partitioned table, none per partition"
    );
    let contracts = d.model.entity("contracts").cloned();
    let contracts = contracts.unwrap_or_else(|| panic!("contracts"));
    assert_eq!(contracts.primary_key, ["doc_id"], "the parent's key");
    assert!(
        contracts.attribute("title").is_some(),
        "the parent's columns"
    );
    let tenants = d.model.entity("tenants").cloned();
    let contact = tenants.and_then(|t| t.attribute("contact").cloned());
    assert_eq!(
        contact.map(|a| (a.cql_type, a.not_null)),
        Some(("text".to_string(), true)),
        "a domain is its base type and its NOT NULL"
    );
    assert!(
        d.model
            .identities
            .contains(&("invoices".to_string(), "invoice_no".to_string()))
    );
    let audit = d.model.entity("audit_log").map(|e| e.primary_key.clone());
    assert_eq!(audit, Some(vec!["row_id".to_string()]), "a generated key");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    insta::assert_snapshot!(diagnostics(&d));
}

#[test]
fn objects_without_modeling_meaning_are_skipped_with_notes() {
    let d = run("pg-objects");
    assert_eq!(entity_names(&d), ["authors", "posts"]);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    for reason in [
        "extended planner statistics",
        "publications",
        "subscriptions",
        "CLUSTER ON",
        "event triggers",
        "default privileges",
        "aggregates",
    ] {
        assert!(
            d.input_notes.iter().any(|n| n.message.contains(reason)),
            "{reason}"
        );
    }
    insta::assert_snapshot!(diagnostics(&d));
}

#[test]
fn every_built_in_type_maps_or_is_refused_alone() {
    let d = run("pg-types");
    let samples = d.model.entity("samples").cloned();
    let samples = samples.unwrap_or_else(|| panic!("samples"));
    let ty = |c: &str| samples.attribute(c).map(|a| a.cql_type.clone());
    assert_eq!(ty("wait").as_deref(), Some("duration"));
    assert_eq!(ty("wait_hours").as_deref(), Some("duration"));
    assert_eq!(ty("span").as_deref(), Some("tuple<int, int>"));
    assert_eq!(ty("price").as_deref(), Some("decimal"));
    assert_eq!(ty("net").as_deref(), Some("text"));
    // pg_dump writes `integer[]` for `integer[][]`: PostgreSQL keeps no dimensions.
    assert_eq!(ty("grid").as_deref(), Some("list<int>"));
    let views = d.model.entity("page_views").map(|e| e.primary_key.clone());
    assert_eq!(views, Some(vec!["row_id".to_string()]));
    let links = d.model.entity("tag_links").map(|e| e.primary_key.clone());
    assert_eq!(
        links,
        Some(vec!["sample_id".to_string(), "tag".to_string()]),
        "the natural key: unique and not null"
    );
    insta::assert_snapshot!(diagnostics(&d));
}

#[test]
fn a_rails_structure_sql_and_question_mark_placeholders() {
    let d = run("pg-rails");
    assert_eq!(
        entity_names(&d),
        ["comments", "users"],
        "bookkeeping tables skipped"
    );
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    assert!(d.queries.iter().all(|q| q.table.is_some()));
    insta::assert_snapshot!(diagnostics(&d));
}

#[test]
fn pgvector_and_full_text_columns() {
    let d = run("pg-vector");
    let docs = d.model.entity("documents").cloned();
    let docs = docs.unwrap_or_else(|| panic!("documents"));
    let ty = |c: &str| docs.attribute(c).map(|a| a.cql_type.clone());
    assert_eq!(ty("embedding").as_deref(), Some("vector<float, 3>"));
    assert_eq!(ty("tsv").as_deref(), Some("text"));
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let search = d.queries.iter().find(|q| q.name == "search_text");
    assert!(
        search.is_some_and(|q| q.table.is_none() && q.off_path.is_some()),
        "full-text search is off path"
    );
    let schema = d.schema_cql();
    assert!(
        schema.contains(
            "CREATE INDEX IF NOT EXISTS documents_by_doc_embedding_ann ON fx.documents_by_doc (embedding) USING 'sai' WITH OPTIONS = {'similarity_function': 'euclidean'};"
        ),
        "{schema}"
    );
    let by_doc = d.tables.iter().find(|t| t.name == "documents_by_doc");
    assert!(
        by_doc.is_some_and(|t| t.decisions.iter().any(|x| x.contains("SAI index"))),
        "the index is a decision of the table"
    );
    let errors: Vec<_> = d.review.iter().filter(|f| f.is_error()).collect();
    assert!(errors.is_empty(), "the design's own review: {errors:#?}");
    // pgvector's `<->` is an ANN read ranked by euclidean distance.
    let similar = d.queries.iter().find(|q| q.name == "similar_in_collection");
    assert_eq!(
        similar.and_then(|q| q.cql.as_deref()),
        Some(
            "SELECT doc_id, title FROM fx.documents_by_collection WHERE collection = ? ORDER BY embedding ANN OF ? LIMIT 5"
        )
    );
    insta::assert_snapshot!(diagnostics(&d));
}

#[test]
fn postgis_columns_are_wkb_and_spatial_predicates_off_path() {
    let d = run("pg-postgis");
    let shops = d.model.entity("shops").cloned();
    let shops = shops.unwrap_or_else(|| panic!("shops"));
    assert_eq!(
        shops.attribute("location").map(|a| a.cql_type.as_str()),
        Some("blob")
    );
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let near = d.queries.iter().find(|q| q.name == "shops_near");
    assert!(
        near.is_some_and(|q| q.off_path.is_some()),
        "ST_DWithin is off path"
    );
    assert!(
        d.input_notes
            .iter()
            .any(|n| n.message.contains("spatial store")),
        "the note points to a spatial store"
    );
    insta::assert_snapshot!(diagnostics(&d));
}

fn design_inline(model: &str, queries: &str) -> Design {
    let input = DesignInput {
        keyspace: "fx",
        model_sql: model,
        queries_sql: Some(queries),
        stats_toml: None,
    };
    design(&input).unwrap_or_else(|e| panic!("stopped (exit 2): {e}"))
}

const TICKETS: &str = "
CREATE TYPE public.ticket_status AS ENUM ('open', 'pending', 'solved', 'closed');
CREATE TABLE public.tickets (
    ticket_id uuid NOT NULL,
    team_id uuid NOT NULL,
    status public.ticket_status NOT NULL,
    urgent boolean NOT NULL,
    subject text NOT NULL
);
ALTER TABLE ONLY public.tickets ADD CONSTRAINT tickets_pkey PRIMARY KEY (ticket_id);
";

#[test]
fn an_enum_alone_is_refused_as_partition_key_with_its_number_of_values() {
    let queries = "
-- @name by_status @rate 5/s
SELECT ticket_id, subject FROM tickets WHERE status = $1;

-- @name urgent_by_status @rate 5/s
SELECT ticket_id, subject FROM tickets WHERE status = $1 AND urgent = true;

-- @name team_by_status @rate 5/s
SELECT ticket_id, subject FROM tickets WHERE team_id = $1 AND status = $2;
";
    let d = design_inline(TICKETS, queries);
    let reason = |name: &str| {
        let q = d.queries.iter().find(|q| q.name == name);
        let q = q.unwrap_or_else(|| panic!("{name}"));
        assert_eq!(q.table.is_none(), q.off_path.is_some(), "{name}");
        q.off_path.as_ref().map(|o| o.reason.clone())
    };
    let by_status = reason("by_status").unwrap_or_default();
    assert!(
        by_status.contains("`tickets.status` enum `ticket_status`: 4 values")
            && by_status.contains("at most 4 partitions"),
        "{by_status}"
    );
    let urgent = reason("urgent_by_status").unwrap_or_default();
    assert!(
        urgent.contains("boolean: 2 values") && urgent.contains("at most 8 partitions"),
        "{urgent}"
    );
    assert_eq!(
        reason("team_by_status"),
        None,
        "a team id makes it selective"
    );
}

#[test]
fn page_zero_is_paging_off_as_in_the_review() {
    let queries = "
-- @name team_tickets @rate 5/s @page 0
SELECT ticket_id, subject FROM tickets WHERE team_id = $1;
";
    let d = design_inline(TICKETS, queries);
    let q = d.queries.iter().find(|q| q.name == "team_tickets");
    assert!(q.is_some_and(|q| q.page == Some(0) && q.table.is_some()));
    assert!(
        d.queries_cql()
            .contains("-- @name team_tickets @rate 5/s @page 0\n"),
        "{}",
        d.queries_cql()
    );
    let errors: Vec<_> = d.review.iter().filter(|f| f.is_error()).collect();
    assert!(errors.is_empty(), "the design's own review: {errors:#?}");
    let bad = DesignInput {
        keyspace: "fx",
        model_sql: TICKETS,
        queries_sql: Some("-- @name q @page -1\nSELECT subject FROM tickets WHERE team_id = $1;"),
        stats_toml: None,
    };
    let err = design(&bad)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("@page takes a whole number (0: paging off)"),
        "{err}"
    );
}

#[test]
fn a_domain_whose_check_lists_its_values_is_a_tiny_domain_too() {
    let model = "
CREATE DOMAIN public.priority AS text
    CONSTRAINT priority_check CHECK ((VALUE = ANY (ARRAY['low'::text, 'normal'::text, 'high'::text])));
CREATE TABLE public.tasks (
    task_id uuid NOT NULL,
    priority public.priority NOT NULL,
    title text NOT NULL
);
ALTER TABLE ONLY public.tasks ADD CONSTRAINT tasks_pkey PRIMARY KEY (task_id);
";
    let queries = "
-- @name by_priority @rate 5/s
SELECT task_id, title FROM tasks WHERE priority = $1;
";
    let d = design_inline(model, queries);
    let q = d.queries.iter().find(|q| q.name == "by_priority");
    let reason = q
        .and_then(|q| q.off_path.as_ref())
        .map(|o| o.reason.clone());
    let reason = reason.unwrap_or_default();
    assert!(
        reason.contains("`tasks.priority` domain `priority`, its CHECK lists 3 values")
            && reason.contains("at most 3 partitions"),
        "{reason}"
    );
}
