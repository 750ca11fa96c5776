//! PostgreSQL column types → CQL types (the table of `docs/design.md`).

/// The CQL type for a PostgreSQL type as `pg_dump` prints it (`integer`,
/// `character varying(80)`, `timestamp with time zone`, `text[]`, …), or `None`
/// when the type has no CQL counterpart. `enums` are the model's `CREATE TYPE …
/// AS ENUM` names, stored as `text`.
pub fn cql_type(pg: &str, enums: &[String]) -> Option<String> {
    let t = pg.trim().to_ascii_lowercase();
    if let Some(element) = t.strip_suffix("[]") {
        return cql_type(element, enums).map(|e| format!("list<{e}>"));
    }
    if let Some(element) = t.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
        return cql_type(element, enums).map(|e| format!("list<{e}>"));
    }
    let base = t.split('(').next().unwrap_or("").trim();
    let base = base.rsplit('.').next().unwrap_or(base);
    let mapped = match base {
        "smallint" | "int2" | "smallserial" | "serial2" => "smallint",
        "integer" | "int" | "int4" | "serial" | "serial4" => "int",
        "bigint" | "int8" | "bigserial" | "serial8" => "bigint",
        "real" | "float4" => "float",
        "double precision" | "float8" | "double" | "float" => "double",
        "numeric" | "decimal" | "money" => "decimal",
        "boolean" | "bool" => "boolean",
        "text" | "varchar" | "character varying" | "char" | "character" | "bpchar" | "citext"
        | "name" | "json" | "jsonb" | "xml" | "interval" => "text",
        "uuid" => "uuid",
        "timestamp"
        | "timestamptz"
        | "timestamp with time zone"
        | "timestamp without time zone" => "timestamp",
        "date" => "date",
        "time" | "timetz" | "time with time zone" | "time without time zone" => "time",
        "bytea" => "blob",
        "inet" | "cidr" => "inet",
        _ if enums.iter().any(|e| e.eq_ignore_ascii_case(base)) => "text",
        _ => return None,
    };
    Some(mapped.to_string())
}

/// True for the CQL types a time bucket can be cut from.
pub fn is_time(cql: &str) -> bool {
    matches!(cql, "timestamp" | "date" | "timeuuid")
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
        ] {
            assert_eq!(cql_type(pg, &none).as_deref(), Some(cql), "{pg}");
        }
        assert_eq!(cql_type("tsvector", &none), None);
        assert_eq!(
            cql_type("public.mood", &["mood".into()]).as_deref(),
            Some("text")
        );
    }
}
