//! The generated `pg_dump --schema-only` of the pg_dump bench and of the
//! `design_scale` example: one generator, so both measure the same input.
//!
//! The dump is in pg_dump's own layout: per table a CREATE TABLE, its OWNER
//! TO, a sequence with its OWNED BY and column default, a comment; then the
//! primary keys, the indexes and the foreign keys (each table references the
//! one before it).

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
