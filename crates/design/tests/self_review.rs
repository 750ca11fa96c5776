//! The design's review of its own output knows which attribute each column
//! holds: two entities that both have a `parent_id bigint` are not copies of
//! one another, so CQL020 (mutable-primary-key) does not tie a table keyed by
//! one entity's `parent_id` to the UPDATEs of the other's. (The same
//! attribute is still matched: `crates/review/tests/provenance.rs`; a design
//! keeps boxes by parent as a view here, which CQL020 does not review.)

mod common;

use common::design_inline;

const MODEL: &str = "
CREATE TABLE public.shelves (
    id bigint NOT NULL,
    parent_id bigint,
    label character varying(80) NOT NULL
);
CREATE TABLE public.boxes (
    id bigint NOT NULL,
    parent_id bigint,
    label character varying(80) NOT NULL
);
ALTER TABLE ONLY public.shelves ADD CONSTRAINT shelves_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.boxes ADD CONSTRAINT boxes_pkey PRIMARY KEY (id);
";

const QUERIES: &str = "
-- @name shelves_in @rate 10/s
SELECT id, label FROM shelves WHERE parent_id = $1;
-- @name boxes_in @rate 10/s
SELECT id, label FROM boxes WHERE parent_id = $1;
-- @name move_box @rate 1/s
UPDATE boxes SET parent_id = $2 WHERE id = $1;
";

#[test]
fn same_named_columns_of_two_entities_are_not_copies() {
    let d = design_inline(MODEL, QUERIES);
    let shelves_key = d
        .tables
        .iter()
        .find(|t| t.entity == "shelves" && t.name.contains("parent"))
        .unwrap_or_else(|| panic!("no table of shelves by parent: {:#?}", d.tables));
    let shelves_table = format!("fx.{}", shelves_key.name);
    let cross: Vec<_> = d
        .review
        .iter()
        .filter(|f| f.code == "CQL020" && f.table.as_deref() == Some(shelves_table.as_str()))
        .collect();
    assert!(
        cross.is_empty(),
        "`{shelves_table}` is keyed by shelves.parent_id; no UPDATE of boxes changes it: {cross:#?}"
    );
}
