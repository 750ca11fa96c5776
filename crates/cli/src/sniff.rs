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
    fn cql_is_not_mistaken_for_another_language() {
        for cql in [
            "CREATE TABLE ks.t (k int PRIMARY KEY, m map<text, text>);",
            "INSERT INTO t (k, l) VALUES (1, [1, 2]);",
            "SELECT * FROM t WHERE k = 1;",
            "-- @name q\nSELECT \"from\" FROM t WHERE k IN (1, 2);",
        ] {
            assert_eq!(sniff(cql), None, "{cql}");
        }
    }
}
