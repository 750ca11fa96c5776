//! PostgreSQL column types → CQL types (the table of `docs/design.md`).

/// The CQL type for a PostgreSQL type as `pg_dump` prints it (`integer`,
/// `character varying(80)`, `timestamp with time zone`, `text[]`, …), or `None`
/// when the type has no CQL counterpart. `enums` are the model's `CREATE TYPE …
/// AS ENUM` names, stored as `text`.
pub fn cql_type(pg: &str, enums: &[String]) -> Option<String> {
    let t = pg.trim().to_ascii_lowercase();
    if let Some(element) = t.strip_suffix("[]") {
        return cql_type(element, enums).map(|e| format!("list<{}>", frozen(e)));
    }
    if let Some(element) = t.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
        return cql_type(element, enums).map(|e| format!("list<{}>", frozen(e)));
    }
    let base = t.split('(').next().unwrap_or("").trim();
    let base = base.rsplit('.').next().unwrap_or(base);
    // `interval hour`, `interval day to second`: a duration all the same.
    let base = if base.starts_with("interval") {
        "interval"
    } else {
        base
    };
    if base == "vector" {
        return vector_dimensions(&t).map(|n| format!("vector<float, {n}>"));
    }
    if let Some(bound) = range_bound(base) {
        return Some(format!("tuple<{bound}, {bound}>"));
    }
    if let Some(bound) = base
        .strip_suffix("multirange")
        .and_then(|b| range_bound(&format!("{b}range")))
    {
        return Some(format!("list<frozen<tuple<{bound}, {bound}>>>"));
    }
    let mapped = match base {
        "smallint" | "int2" | "smallserial" | "serial2" => "smallint",
        "integer" | "int" | "int4" | "serial" | "serial4" => "int",
        "bigint" | "int8" | "bigserial" | "serial8" | "oid" => "bigint",
        "real" | "float4" => "float",
        "double precision" | "float8" | "double" | "float" => "double",
        "numeric" | "decimal" | "money" => "decimal",
        "boolean" | "bool" => "boolean",
        "text" | "varchar" | "character varying" | "char" | "character" | "bpchar" | "citext"
        | "name" | "json" | "jsonb" | "xml" | "jsonpath" | "cidr" | "macaddr" | "macaddr8"
        | "bit" | "bit varying" | "varbit" | "point" | "lseg" | "line" | "box" | "path"
        | "polygon" | "circle" | "tsvector" | "tsquery" | "pg_lsn" | "txid_snapshot"
        | "pg_snapshot" | "regclass" | "regtype" | "regproc" => "text",
        "interval" => "duration",
        "uuid" => "uuid",
        "timestamp"
        | "timestamptz"
        | "timestamp with time zone"
        | "timestamp without time zone" => "timestamp",
        "date" => "date",
        "time" | "timetz" | "time with time zone" | "time without time zone" => "time",
        "bytea" | "geometry" | "geography" => "blob",
        "inet" => "inet",
        _ if enums.iter().any(|e| e.eq_ignore_ascii_case(base)) => "text",
        _ => return None,
    };
    Some(mapped.to_string())
}

/// A collection nested in a collection is frozen in CQL.
fn frozen(element: String) -> String {
    if element.starts_with("list<") || element.starts_with("tuple<") || element.starts_with("set<")
    {
        format!("frozen<{element}>")
    } else {
        element
    }
}

/// pgvector's `vector(n)`: the dimension count (a vector without one has no CQL type).
fn vector_dimensions(t: &str) -> Option<u32> {
    let inside = t.split_once('(')?.1.split_once(')')?.0;
    inside.trim().parse().ok().filter(|n| *n > 0)
}

/// The CQL type of a built-in range type's bounds.
fn range_bound(base: &str) -> Option<&'static str> {
    Some(match base {
        "int4range" => "int",
        "int8range" => "bigint",
        "numrange" => "decimal",
        "tsrange" | "tstzrange" => "timestamp",
        "daterange" => "date",
        _ => return None,
    })
}

/// Why a PostgreSQL type's CQL counterpart loses or changes something, for the
/// types where it does (`None` where the mapping keeps the meaning whole).
pub fn mapping_note(pg: &str) -> Option<&'static str> {
    let t = pg.trim().to_ascii_lowercase();
    let t = t.trim_end_matches("[]");
    let base = t.split('(').next().unwrap_or("").trim();
    let base = base.rsplit('.').next().unwrap_or(base);
    let base = if base.starts_with("interval") {
        "interval"
    } else {
        base
    };
    Some(match base {
        "money" => {
            "money → decimal: the amount is kept, the currency symbol and locale formatting are the application's"
        }
        "interval" => {
            "interval → duration: the same months/days/nanoseconds; a duration cannot be a key column nor be ordered"
        }
        "cidr" | "macaddr" | "macaddr8" => {
            "network address → text in its PostgreSQL notation: CQL's inet holds a host address without a prefix length"
        }
        "inet" => {
            "inet → inet: a netmask stored with the address (`10.0.0.1/24`) is lost; use text if the application stores one"
        }
        "int4range" | "int8range" | "numrange" | "tsrange" | "tstzrange" | "daterange" => {
            "range → tuple<lower, upper>: the bounds as PostgreSQL canonicalizes them (lower inclusive, upper exclusive for discrete ranges), an unbounded side as null; range operators (&&, @>) are the application's"
        }
        "point" | "lseg" | "line" | "box" | "path" | "polygon" | "circle" => {
            "geometric type → text in PostgreSQL's notation: no geometric predicate in CQL"
        }
        "geometry" | "geography" => {
            "PostGIS geometry → blob holding WKB (or text holding WKT): spatial predicates (ST_DWithin, &&) are off the Cassandra path; serve them from a spatial store (PostGIS, Elasticsearch geo) fed by CDC"
        }
        "tsvector" | "tsquery" => {
            "full-text type → text: full-text search is off the Cassandra path; an SAI index on the text column (analyzed) or a search engine fed by CDC serves it"
        }
        "json" | "jsonb" | "xml" | "jsonpath" => {
            "document type → text: no predicate inside the document in CQL"
        }
        "citext" => {
            "citext → text: comparisons become case-sensitive; the application stores and looks up lower(value)"
        }
        "time with time zone" | "timetz" => "time with time zone → time: the offset is lost",
        "bit" | "bit varying" | "varbit" => "bit string → text of 0 and 1",
        "vector" => {
            "pgvector vector(n) → vector<float, n>: every designed table that holds it gets an SAI index on it in schema.cql (CREATE INDEX … USING 'sai'), so ANN reads (ORDER BY col ANN OF ? LIMIT k) work; a read's `ORDER BY col <-> $1 LIMIT k` (or `<=>`, `<#>`) becomes that ANN read, and its operator the index's similarity function"
        }
        "oid" | "regclass" | "regtype" | "regproc" | "pg_lsn" | "txid_snapshot" | "pg_snapshot" => {
            "PostgreSQL system type → a plain value: its meaning inside PostgreSQL does not carry over"
        }
        _ if base.ends_with("multirange") => "multirange → list of tuple<lower, upper>",
        _ => return None,
    })
}

/// True for the CQL types a time bucket can be cut from.
pub fn is_time(cql: &str) -> bool {
    matches!(cql, "timestamp" | "date" | "timeuuid")
}

/// How many values a domain's CHECK allows when it lists them
/// (`VALUE IN ('a', 'b')`, pg_dump's `VALUE = ANY (ARRAY['a'::text, …])`):
/// the number of string literals in the list; `None` for any other check.
pub(crate) fn listed_values(checks: &[String]) -> Option<usize> {
    checks.iter().find_map(|c| {
        let upper = c.to_ascii_uppercase();
        let start = upper
            .find("VALUE IN (")
            .or_else(|| upper.find("VALUE = ANY (ARRAY["))?;
        let list = c.get(start..)?;
        // Quotes come in pairs ('' inside a literal is a pair too, so a
        // literal with an escaped quote is counted twice: a bound, not exact).
        let literals = list.matches('\'').count() / 2;
        (literals > 0).then_some(literals)
    })
}

#[cfg(test)]
mod tests {
    use super::cql_type;

    #[test]
    fn maps_the_documented_types() {
        let none: [String; 0] = [];
        for (pg, cql) in [
            ("int4", "int"),
            ("integer", "int"),
            ("serial", "int"),
            ("bigserial", "bigint"),
            ("int8", "bigint"),
            ("character varying(80)", "text"),
            ("uuid", "uuid"),
            ("timestamp with time zone", "timestamp"),
            ("timestamp(3) without time zone", "timestamp"),
            ("date", "date"),
            ("numeric(10,2)", "decimal"),
            ("boolean", "boolean"),
            ("jsonb", "text"),
            ("bytea", "blob"),
            ("text[]", "list<text>"),
            ("INTEGER[]", "list<int>"),
            ("double precision", "double"),
            ("interval", "duration"),
            ("money", "decimal"),
            ("cidr", "text"),
            ("tstzrange", "tuple<timestamp, timestamp>"),
            ("int4multirange", "list<frozen<tuple<int, int>>>"),
            ("integer[][]", "list<frozen<list<int>>>"),
            ("public.vector(3)", "vector<float, 3>"),
            ("public.geometry(Point,4326)", "blob"),
            ("tsvector", "text"),
        ] {
            assert_eq!(cql_type(pg, &none).as_deref(), Some(cql), "{pg}");
        }
        assert_eq!(cql_type("public.mood", &none), None);
        assert_eq!(
            cql_type("public.mood", &["mood".into()]).as_deref(),
            Some("text")
        );
    }
}
