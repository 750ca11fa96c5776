//! A `pg_dump --schema-only` read into the relational model: the statements
//! gathered ([`crate::pgdump`]), then shaped into entities
//! ([`crate::pgshape`]). Both steps keep going past a bad statement.

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::input_notes::InputNote;
use crate::pgdump::gather;
use crate::pgshape::{Shape, shape};
use crate::relational::Model;

/// A model read from a dump, with what was noted and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct ModelRead {
    pub model: Model,
    pub notes: Vec<InputNote>,
    /// Statements (or parts) left out of the model: the design goes on without them.
    pub errors: Vec<DesignError>,
}

/// Reads the whole dump; see [`ModelRead`] for what comes back.
pub fn read_model(text: &str) -> ModelRead {
    let (g, mut errors) = gather(text);
    let Shape {
        mut model,
        notes,
        errors: shape_errors,
    } = shape(g);
    model.index_entities();
    errors.extend(shape_errors);
    // With no table at all, say so, unless a statement's error already
    // explains it (a CREATE TABLE that did not parse).
    if model.entities.is_empty() && errors.is_empty() {
        errors.push(DesignError::new(
            DesignErrorKind::Model,
            Source::Model,
            (1, 1),
            "the model has no CREATE TABLE",
        ));
    }
    ModelRead {
        model,
        notes,
        errors,
    }
}

/// The model of a dump, stopping at its first problem; [`read_model`] reads
/// past every problem and notes what it skipped.
pub fn parse_model(text: &str) -> Result<Model, DesignError> {
    let read = read_model(text);
    match read.errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(read.model),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = r#"
SET statement_timeout = 0;
SELECT pg_catalog.set_config('search_path', '', false);
CREATE TYPE public.status AS ENUM ('new', 'paid');
CREATE TABLE public.customers (
    id bigint NOT NULL,
    email character varying(200) NOT NULL
);
ALTER TABLE public.customers OWNER TO app;
CREATE SEQUENCE public.customers_id_seq START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1;
CREATE TABLE public.orders (
    id bigint NOT NULL,
    customer_id bigint NOT NULL,
    status public.status,
    tags text[],
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.customers ADD CONSTRAINT customers_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.customers ADD CONSTRAINT customers_email_key UNIQUE (email);
ALTER TABLE ONLY public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customers(id);
COMMENT ON TABLE public.orders IS 'orders; all of them';
"#;

    #[test]
    fn reads_a_pg_dump_schema() {
        let model = parse_model(DUMP).map_err(|e| e.to_string());
        let model = model.as_ref().map_err(String::as_str);
        let Ok(model) = model else {
            panic!("{model:?}")
        };
        let orders = model
            .entity("orders")
            .cloned()
            .unwrap_or_else(|| panic!("orders"));
        assert_eq!(orders.primary_key, ["id"]);
        assert_eq!(orders.foreign_keys[0].table, "customers");
        assert_eq!(
            orders.attribute("status").map(|a| a.cql_type.as_str()),
            Some("text")
        );
        assert_eq!(
            orders.attribute("tags").map(|a| a.cql_type.as_str()),
            Some("list<text>")
        );
        let customers = model.entity("customers").map(|e| e.uniques.clone());
        assert_eq!(customers, Some(vec![vec!["email".to_string()]]));
    }

    #[test]
    fn a_syntax_error_names_line_and_column() {
        let err = parse_model("CREATE TABLE t (\n  id int PRIMARY KEY,\n  x int int\n);");
        let err = err.err().map(|e| (e.kind, e.line));
        assert_eq!(err, Some((DesignErrorKind::Syntax, 3)));
    }

    #[test]
    fn unsupported_statements_are_named() {
        let err = parse_model("CREATE TABLE t (id int PRIMARY KEY);\nDROP TABLE t;");
        let err = err
            .err()
            .map(|e| (e.kind, e.line, e.message.contains("DROP TABLE")));
        assert_eq!(err, Some((DesignErrorKind::Unsupported, 2, true)));
    }
}
