//! pg_dump-sized inputs of `design` (issue 12 and 16), with their targets:
//! - a 2,000-table `pg_dump --schema-only` loads (read into the model) in < 1 s;
//! - `design` on a 10,000-table dump with one query per table: < 10 s.
//!
//! The dump is generated in pg_dump's own layout: per table a CREATE TABLE,
//! its OWNER TO, a sequence with its OWNED BY and column default, a comment;
//! then the primary keys, the indexes and the foreign keys (each table
//! references the one before it).
//!
//! Run: `cargo bench -p cqlmodel --bench pg_dump`.

use std::time::Duration;

use cqlmodel_design::{DesignInput, design, pgread::read_model};
use criterion::{Criterion, criterion_group, criterion_main};

/// A dump of `n` tables as pg_dump writes it.
pub fn dump(n: usize) -> String {
    let mut s = String::from(
        "SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\nSELECT pg_catalog.set_config('search_path', '', false);\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "CREATE TABLE public.t{i} (\n    id bigint NOT NULL,\n    parent_id bigint,\n    name character varying(80) NOT NULL,\n    created_at timestamp with time zone DEFAULT now() NOT NULL,\n    price numeric(10,2),\n    tags text[]\n);\n\
             ALTER TABLE public.t{i} OWNER TO app;\n\
             COMMENT ON TABLE public.t{i} IS 'table {i}';\n\
             CREATE SEQUENCE public.t{i}_id_seq\n    START WITH 1\n    INCREMENT BY 1\n    NO MINVALUE\n    NO MAXVALUE\n    CACHE 1;\n\
             ALTER SEQUENCE public.t{i}_id_seq OWNED BY public.t{i}.id;\n\
             ALTER TABLE ONLY public.t{i} ALTER COLUMN id SET DEFAULT nextval('public.t{i}_id_seq'::regclass);\n"
        ));
    }
    for i in 0..n {
        s.push_str(&format!(
            "ALTER TABLE ONLY public.t{i}\n    ADD CONSTRAINT t{i}_pkey PRIMARY KEY (id);\n\
             CREATE INDEX t{i}_name_idx ON public.t{i} USING btree (name);\n"
        ));
    }
    for i in 1..n {
        s.push_str(&format!(
            "ALTER TABLE ONLY public.t{i}\n    ADD CONSTRAINT t{i}_parent_fkey FOREIGN KEY (parent_id) REFERENCES public.t{}(id);\n",
            i - 1
        ));
    }
    s
}

/// One read per table, by its parent key.
pub fn queries(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "-- @name q{i} @rate 10/s\nSELECT id, name, created_at FROM t{i} WHERE parent_id = $1;\n"
            )
        })
        .collect()
}

fn pg_dump(c: &mut Criterion) {
    let mut group = c.benchmark_group("pg_dump");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let two_thousand = dump(2_000);
    group.bench_function("load 2,000 tables", |b| {
        b.iter(|| std::hint::black_box(read_model(&two_thousand).model.entities.len()))
    });
    let ten_thousand = dump(10_000);
    let ten_thousand_queries = queries(10_000);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("design 10,000 tables", |b| {
        b.iter(|| {
            let input = DesignInput {
                keyspace: "big",
                model_sql: &ten_thousand,
                queries_sql: Some(&ten_thousand_queries),
                stats_toml: None,
            };
            let d = design(&input).unwrap_or_else(|e| panic!("{e}"));
            std::hint::black_box(d.tables.len())
        })
    });
    group.finish();
}

criterion_group!(benches, pg_dump);
criterion_main!(benches);
