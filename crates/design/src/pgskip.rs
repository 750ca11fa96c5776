//! The statements of a `pg_dump --schema-only` (PostgreSQL 12–17) and of a
//! Rails/Django `structure.sql` that carry no meaning for a Cassandra data
//! model, recognized by their leading words before any parser sees them (so a
//! construct sqlparser does not know costs nothing), each with the reason it is
//! skipped.

/// Leading words (upper-case, any of them `*` for one word of any kind) and
/// why the statement is skipped.
const SKIPPED: &[(&[&str], &str)] = &[
    (&["SET"], "session settings"),
    (&["RESET"], "session settings"),
    (&["SELECT"], "session settings (set_config, setval)"),
    (&["BEGIN"], "transaction control"),
    (&["COMMIT"], "transaction control"),
    (&["START", "TRANSACTION"], "transaction control"),
    (&["COMMENT", "ON"], "comments (documentation, no structure)"),
    (&["SECURITY", "LABEL"], "security labels (access control)"),
    (&["GRANT"], "privileges (access control)"),
    (&["REVOKE"], "privileges (access control)"),
    (
        &["ALTER", "DEFAULT", "PRIVILEGES"],
        "default privileges (access control)",
    ),
    (&["CREATE", "ROLE"], "roles (access control)"),
    (&["CREATE", "USER"], "roles (access control)"),
    (
        &["CREATE", "POLICY"],
        "row-level security policies (access control)",
    ),
    (
        &["CREATE", "SCHEMA"],
        "schemas (every table goes into the one keyspace)",
    ),
    (
        &["CREATE", "EXTENSION"],
        "extensions (their types are mapped where used)",
    ),
    (
        &["CREATE", "SEQUENCE"],
        "sequences (Cassandra has none; identity and serial columns are noted where used)",
    ),
    (
        &["CREATE", "INDEX"],
        "non-unique indexes (the queries decide the tables)",
    ),
    (&["CREATE", "FUNCTION"], "functions (application logic)"),
    (
        &["CREATE", "OR", "REPLACE"],
        "functions, views and rules (application logic)",
    ),
    (&["CREATE", "PROCEDURE"], "procedures (application logic)"),
    (&["CREATE", "AGGREGATE"], "aggregates (application logic)"),
    (&["CREATE", "OPERATOR"], "operators (application logic)"),
    (&["CREATE", "CAST"], "casts (application logic)"),
    (&["CREATE", "CONVERSION"], "conversions (application logic)"),
    (&["CREATE", "LANGUAGE"], "procedural languages"),
    (&["CREATE", "TRANSFORM"], "transforms (application logic)"),
    (
        &["CREATE", "TRIGGER"],
        "triggers (application logic; writes they cause must be listed as statements)",
    ),
    (
        &["CREATE", "CONSTRAINT", "TRIGGER"],
        "triggers (application logic; writes they cause must be listed as statements)",
    ),
    (
        &["CREATE", "EVENT", "TRIGGER"],
        "event triggers (DDL hooks)",
    ),
    (&["CREATE", "RULE"], "rules (query rewriting)"),
    (
        &["CREATE", "VIEW"],
        "views (list the queries that read them instead)",
    ),
    (
        &["CREATE", "RECURSIVE", "VIEW"],
        "views (list the queries that read them instead)",
    ),
    (
        &["CREATE", "MATERIALIZED", "VIEW"],
        "materialized views (list the queries that read them instead)",
    ),
    (
        &["REFRESH", "MATERIALIZED", "VIEW"],
        "materialized views (list the queries that read them instead)",
    ),
    (&["CREATE", "STATISTICS"], "extended planner statistics"),
    (
        &["CREATE", "PUBLICATION"],
        "logical replication (publications)",
    ),
    (
        &["CREATE", "SUBSCRIPTION"],
        "logical replication (subscriptions)",
    ),
    (
        &["CREATE", "COLLATION"],
        "collations (a column's collation is noted where used)",
    ),
    (
        &["CREATE", "TEXT", "SEARCH"],
        "full-text search configurations",
    ),
    (&["CREATE", "ACCESS", "METHOD"], "access methods"),
    (&["CREATE", "SERVER"], "foreign data servers"),
    (&["CREATE", "FOREIGN", "DATA"], "foreign data wrappers"),
    (&["CREATE", "USER", "MAPPING"], "foreign data user mappings"),
    (
        &["CREATE", "FOREIGN", "TABLE"],
        "foreign tables (data kept outside this database)",
    ),
    (
        &["IMPORT", "FOREIGN", "SCHEMA"],
        "foreign tables (data kept outside this database)",
    ),
    (&["CREATE", "TABLESPACE"], "storage placement"),
    (
        &["CREATE", "DATABASE"],
        "databases (the keyspace is named by the model file)",
    ),
    (&["ALTER", "DATABASE"], "database settings"),
    (&["ALTER", "ROLE"], "roles (access control)"),
    (
        &["ALTER", "INDEX"],
        "indexes (partition index attachment, settings)",
    ),
    (
        &["ALTER", "SEQUENCE"],
        "sequences (Cassandra has none; identity and serial columns are noted where used)",
    ),
    (&["ALTER", "SCHEMA"], "schema ownership"),
    (&["ALTER", "FUNCTION"], "functions (application logic)"),
    (&["ALTER", "PROCEDURE"], "procedures (application logic)"),
    (&["ALTER", "AGGREGATE"], "aggregates (application logic)"),
    (&["ALTER", "OPERATOR"], "operators (application logic)"),
    (
        &["ALTER", "DOMAIN"],
        "domain ownership and settings (its base type and constraints are read from CREATE DOMAIN)",
    ),
    (&["ALTER", "TYPE"], "type ownership and settings"),
    (
        &["ALTER", "VIEW"],
        "views (list the queries that read them instead)",
    ),
    (
        &["ALTER", "MATERIALIZED", "VIEW"],
        "materialized views (list the queries that read them instead)",
    ),
    (&["ALTER", "STATISTICS"], "extended planner statistics"),
    (
        &["ALTER", "PUBLICATION"],
        "logical replication (publications)",
    ),
    (
        &["ALTER", "SUBSCRIPTION"],
        "logical replication (subscriptions)",
    ),
    (
        &["ALTER", "COLLATION"],
        "collations (a column's collation is noted where used)",
    ),
    (&["ALTER", "EVENT", "TRIGGER"], "event triggers (DDL hooks)"),
    (
        &["ALTER", "TEXT", "SEARCH"],
        "full-text search configurations",
    ),
    (&["ALTER", "EXTENSION"], "extensions"),
    (&["ALTER", "LARGE", "OBJECT"], "large objects"),
    (&["ALTER", "FOREIGN", "TABLE"], "foreign tables"),
    (&["ALTER", "SERVER"], "foreign data servers"),
    (&["ALTER", "TABLESPACE"], "storage placement"),
    (
        &["ALTER", "POLICY"],
        "row-level security policies (access control)",
    ),
    (
        &["ALTER", "TRIGGER"],
        "triggers (application logic; writes they cause must be listed as statements)",
    ),
    (&["ALTER", "RULE"], "rules (query rewriting)"),
    (&["ALTER", "LANGUAGE"], "procedural languages"),
    (&["ALTER", "CONVERSION"], "conversions (application logic)"),
    (&["CLUSTER"], "physical row order (CLUSTER)"),
    (&["ANALYZE"], "planner statistics"),
    (&["VACUUM"], "maintenance"),
    (&["DO"], "anonymous code blocks"),
    (&["CHECKPOINT"], "maintenance"),
];

/// Rails' and Django's migration bookkeeping tables: rows a `structure.sql`
/// inserts after the dump.
pub const BOOKKEEPING: &[&str] = &[
    "schema_migrations",
    "ar_internal_metadata",
    "django_migrations",
];

/// Why a statement is skipped, when it carries no modeling meaning. `words` are
/// the statement's leading words, upper-cased.
pub fn skip_reason(words: &[String]) -> Option<&'static str> {
    if let Some(reason) = alter_table_reason(words) {
        return Some(reason);
    }
    if words.first().is_some_and(|w| w == "INSERT") && words.get(1).is_some_and(|w| w == "INTO") {
        let table = words
            .get(2)
            .map(|t| t.trim_matches('"').to_ascii_lowercase());
        let table = table.as_deref().map(|t| t.rsplit('.').next().unwrap_or(t));
        if table.is_some_and(|t| BOOKKEEPING.contains(&t)) {
            return Some("migration bookkeeping rows (Rails/Django structure.sql)");
        }
        return None;
    }
    SKIPPED
        .iter()
        .find(|(prefix, _)| {
            prefix.len() <= words.len() && prefix.iter().zip(words).all(|(p, w)| p == w)
        })
        .map(|(_, reason)| *reason)
}

/// The forms of `ALTER TABLE` that say nothing about keys and columns.
fn alter_table_reason(words: &[String]) -> Option<&'static str> {
    if words.first().is_none_or(|w| w != "ALTER") || words.get(1).is_none_or(|w| w != "TABLE") {
        return None;
    }
    let rest: Vec<&str> = words.iter().skip(3).map(String::as_str).collect();
    let rest: &[&str] = match rest.first() {
        // `ALTER TABLE ONLY t …` and `ALTER TABLE IF EXISTS t …`: the name is one further.
        _ if words.get(2).is_some_and(|w| w == "ONLY" || w == "IF") => {
            let skip = if words.get(2).is_some_and(|w| w == "IF") {
                2
            } else {
                1
            };
            rest.get(skip..).unwrap_or_default()
        }
        _ => &rest,
    };
    match rest {
        ["OWNER", "TO", ..] => Some("ownership"),
        ["CLUSTER", "ON", ..] => Some("physical row order (CLUSTER ON)"),
        ["REPLICA", "IDENTITY", ..] => Some("logical replication (replica identity)"),
        ["ENABLE", ..] | ["DISABLE", ..] | ["FORCE", ..] | ["NO", "FORCE", ..] => {
            Some("row-level security and trigger switches")
        }
        ["SET", ..] | ["RESET", ..] => Some("storage and planner settings"),
        ["ALTER", "COLUMN", _, "SET", kind, ..] | ["ALTER", _, "SET", kind, ..]
            if *kind != "DEFAULT" =>
        {
            Some("column storage and statistics settings")
        }
        ["INHERIT", ..] => Some("inheritance is read from CREATE TABLE … INHERITS"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::skip_reason;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_ascii_uppercase).collect()
    }

    #[test]
    fn no_meaning_statements_are_recognized_by_their_leading_words() {
        for s in [
            "CREATE STATISTICS public.s (ndistinct) ON a, b FROM public.t",
            "ALTER TABLE public.posts CLUSTER ON posts_idx",
            "ALTER TABLE ONLY public.posts OWNER TO app",
            "SECURITY LABEL FOR selinux ON TABLE t IS 'x'",
            "CREATE EVENT TRIGGER e ON ddl_command_start EXECUTE FUNCTION f()",
            "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO r",
            "INSERT INTO \"schema_migrations\" (version) VALUES ('1')",
            "CREATE AGGREGATE public.total(text) (SFUNC = f, STYPE = bigint)",
        ] {
            assert!(skip_reason(&words(s)).is_some(), "{s}");
        }
        for s in [
            "CREATE TABLE t (id int)",
            "ALTER TABLE ONLY public.t ADD CONSTRAINT k PRIMARY KEY (id)",
            "ALTER TABLE public.t ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY",
            "INSERT INTO orders VALUES (1)",
            "DROP TABLE t",
        ] {
            assert_eq!(skip_reason(&words(s)), None, "{s}");
        }
    }
}
