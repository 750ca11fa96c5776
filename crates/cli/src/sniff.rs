//! What a file that is not CQL looks like, so that a Python script, a JSON
//! document, a TOML file or a pg_dump given where CQL belongs gets one clear
//! error naming what it looks like and which command takes it, instead of a
//! cascade of syntax errors.

/// A kind of file that is not CQL, and where it belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    Json,
    Toml,
    PostgreSql,
    /// Relational DDL that is not a pg_dump (MySQL, hand-written SQL).
    Sql,
    /// `nodetool` output (status, tablestats, tablehistograms, …).
    Nodetool,
}

impl Language {
    /// "looks like …: …" — what the file seems to be and what to do with it.
    pub fn advice(self) -> &'static str {
        match self {
            Language::Python => {
                "looks like Python, not CQL: give the CQL schema (e.g. DESCRIBE KEYSPACE output)"
            }
            Language::Json => {
                "looks like JSON, not CQL: give the CQL schema (e.g. DESCRIBE KEYSPACE output)"
            }
            Language::Toml => {
                "looks like TOML, not CQL: statistics go to `--stats` (review, size, ring), a topology to `ring --topology`"
            }
            Language::PostgreSql => {
                "looks like PostgreSQL DDL (pg_dump), not CQL: `cqlmodel design MODEL.sql` turns a relational model into a Cassandra design"
            }
            Language::Sql => {
                "looks like relational SQL DDL (foreign keys, lengths on types, NOT NULL), not CQL: `cqlmodel design MODEL.sql` turns a relational model into a Cassandra design"
            }
            Language::Nodetool => {
                "looks like nodetool output, not CQL: `cqlmodel diagnose FILE` reads it (with `--schema` for the CQL schema)"
            }
        }
    }
}

/// What `text` looks like when it is clearly one of the other languages; `None`
/// when it may well be (broken) CQL.
pub fn sniff(text: &str) -> Option<Language> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(200)
        .collect();
    let trimmed = text.trim();
    if (trimmed.starts_with('{') && trimmed.ends_with('}'))
        || (trimmed.starts_with('[') && trimmed.ends_with(']') && trimmed.contains('"'))
    {
        return Some(Language::Json);
    }
    let first = lines.first().copied().unwrap_or_default();
    let python = first.starts_with("#!") && first.contains("python")
        || lines.iter().any(|l| {
            (l.starts_with("def ") || l.starts_with("class ")) && l.ends_with(':')
                || l.starts_with("import ") && !l.contains(';')
                || l.starts_with("from ") && l.contains(" import ")
                || l.starts_with("if __name__")
        });
    if python {
        return Some(Language::Python);
    }
    let postgres_markers = [
        "PostgreSQL database dump",
        "pg_catalog.",
        "SET statement_timeout",
        "ALTER TABLE ONLY",
        "OWNER TO ",
        "CREATE SEQUENCE",
        "nextval(",
        "timestamptz",
        "character varying",
        " serial",
        "bigserial",
    ];
    if postgres_markers.iter().any(|m| text.contains(m)) {
        return Some(Language::PostgreSql);
    }
    if looks_like_nodetool(&lines) {
        return Some(Language::Nodetool);
    }
    if looks_like_relational_sql(text) {
        return Some(Language::Sql);
    }
    let is_section = |l: &&str| {
        l.starts_with('[')
            && l.ends_with(']')
            && !l.contains(';')
            && l.len() > 2
            && l.chars()
                .all(|c| c.is_alphanumeric() || "[]._-\" ".contains(c))
    };
    let code: Vec<&&str> = lines.iter().filter(|l| !l.starts_with('#')).collect();
    if code.iter().any(|l| is_section(l))
        && code
            .iter()
            .all(|l| is_section(l) || (l.contains('=') && !l.contains(';')) || l.starts_with(']'))
    {
        return Some(Language::Toml);
    }
    None
}

/// Lines only nodetool prints: `tablestats`' `Keyspace : ks` / `Table: t`
/// blocks, `status`' legend, `tablehistograms`' header, `info`'s fields.
fn looks_like_nodetool(lines: &[&str]) -> bool {
    const MARKERS: &[&str] = &[
        "Status=Up/Down",
        "SSTable count:",
        "Space used (live):",
        "Compacted partition maximum bytes:",
        "Percentile  ",
        "Load                 :",
        "Pending Flushes:",
    ];
    lines.iter().any(|l| MARKERS.iter().any(|m| l.contains(m)))
        && !lines.iter().any(|l| {
            let upper = l.to_ascii_uppercase();
            upper.starts_with("CREATE ") || upper.starts_with("SELECT ")
        })
}

/// DDL words CQL does not have: foreign keys, type lengths, NOT NULL
/// columns, MySQL's table options.
fn looks_like_relational_sql(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    let markers = [
        "FOREIGN KEY",
        " REFERENCES ",
        "AUTO_INCREMENT",
        "ENGINE=",
        "VARCHAR(",
        "CHAR(",
        "NUMERIC(",
        "DECIMAL(",
        " NOT NULL,",
        " NOT NULL\n",
        "UNIQUE (",
    ];
    upper.contains("CREATE TABLE") && markers.iter().any(|m| upper.contains(m))
}

/// Whether `text` reads as CQL rather than relational SQL: keyspaces,
/// CQL-only types and options. For the commands that take SQL (`design`), so
/// that a CQL schema given there gets one message instead of syntax errors.
pub fn looks_like_cql(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    [
        "CREATE KEYSPACE",
        "WITH REPLICATION",
        "CLUSTERING ORDER BY",
        "COMPACT STORAGE",
        "FROZEN<",
        "MAP<",
        "SET<",
        "LIST<",
        "TIMEUUID",
        "USING TTL",
        "COMPACTION = {",
        "ALLOW FILTERING",
    ]
    .iter()
    .any(|m| upper.contains(m))
}

/// The message for a CQL file given to `design`, which reads relational SQL.
pub const CQL_TO_DESIGN: &str = "looks like CQL, not relational SQL: `cqlmodel design` reads a PostgreSQL model (pg_dump --schema-only, or the application's SQL); give CQL to `cqlmodel review`, `explain` or `size`";

/// The one `wrong-language` error for a file in another language: `this file
/// {advice}` under its first line, labelled `label`.
pub fn wrong_language_error(
    text: &str,
    file: usize,
    advice: &str,
    label: &str,
) -> cqlmodel_diagnostics::Diagnostic {
    let first_line = text.find('\n').unwrap_or(text.len());
    cqlmodel_diagnostics::Diagnostic::error("wrong-language", format!("this file {advice}"))
        .with_file(file)
        .with_primary(0..first_line, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_languages_are_recognised() {
        let python = "import os\n\ndef main():\n    print('x')\n";
        assert_eq!(sniff(python), Some(Language::Python));
        assert_eq!(sniff("{\"a\": [1, 2]}\n"), Some(Language::Json));
        let toml = "# stats\n[tables.\"ks.t\"]\nrows = 10\n";
        assert_eq!(sniff(toml), Some(Language::Toml));
        let dump = "--\n-- PostgreSQL database dump\n--\nCREATE TABLE public.t (id integer);\n";
        assert_eq!(sniff(dump), Some(Language::PostgreSql));
    }

    #[test]
    fn relational_sql_and_nodetool_output_are_recognised() {
        let mysql = "CREATE TABLE users (\n  id INT NOT NULL AUTO_INCREMENT,\n  email VARCHAR(255) NOT NULL,\n  PRIMARY KEY (id)\n) ENGINE=InnoDB;\n";
        assert_eq!(sniff(mysql), Some(Language::Sql));
        let sql = "CREATE TABLE orders (\n  id integer PRIMARY KEY,\n  user_id integer REFERENCES users (id)\n);\n";
        assert_eq!(sniff(sql), Some(Language::Sql));
        let tablestats = "Total number of tables: 40\n----------------\nKeyspace : shop\n\tRead Count: 10\n\t\tTable: orders\n\t\tSSTable count: 4\n\t\tSpace used (live): 1024\n";
        assert_eq!(sniff(tablestats), Some(Language::Nodetool));
        let status = "Datacenter: dc1\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n--  Address    Load       Tokens  Owns    Host ID   Rack\nUN  10.0.0.1   1.2 GiB    16      ?       abc       r1\n";
        assert_eq!(sniff(status), Some(Language::Nodetool));
        let histograms = "ks/t histograms\nPercentile  Read Latency     Write Latency\n50%            35.43              20.50\n";
        assert_eq!(sniff(histograms), Some(Language::Nodetool));
        for advice in [Language::Sql, Language::Nodetool].map(Language::advice) {
            assert!(advice.contains("cqlmodel "), "{advice}");
        }
    }

    #[test]
    fn cql_given_to_design_is_recognised() {
        assert!(looks_like_cql(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'};"
        ));
        assert!(looks_like_cql(
            "CREATE TABLE t (k int, c timeuuid, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);"
        ));
        assert!(!looks_like_cql(
            "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL);"
        ));
        assert!(!looks_like_cql(
            "SELECT * FROM orders o JOIN users u ON u.id = o.user_id WHERE u.id = $1;"
        ));
    }

    #[test]
    fn cql_is_not_mistaken_for_another_language() {
        for cql in [
            "CREATE TABLE ks.t (k int PRIMARY KEY, m map<text, text>);",
            "INSERT INTO t (k, l) VALUES (1, [1, 2]);",
            "SELECT * FROM t WHERE k = 1;",
            "-- @name q\nSELECT \"from\" FROM t WHERE k IN (1, 2);",
            "CREATE MATERIALIZED VIEW ks.v AS SELECT * FROM ks.t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (c, k);",
            "CREATE TABLE ks.t (k int PRIMARY KEY, c decimal, v varchar) WITH comment = 'Load                 : no';",
        ] {
            assert_eq!(sniff(cql), None, "{cql}");
        }
    }
}
