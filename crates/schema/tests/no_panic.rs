//! Odd input never panics: statements of the case files, mutated token by token
//! (tokens dropped, repeated, swapped with tokens of other statements), are
//! parsed, built into a schema and analyzed. Whatever is accepted or rejected,
//! every error points inside the source and no statement yields two errors.

use cqlmodel_schema::access::analyze;
use cqlmodel_schema::{SchemaBuilder, Settings};
use proptest::prelude::*;

/// Every statement of the case files, the schemas included.
fn corpus() -> Vec<String> {
    let mut out = Vec::new();
    for text in [
        include_str!("data/ddl_cases.toml"),
        include_str!("data/dml_cases.toml"),
        include_str!("data/select_cases.toml"),
    ] {
        for line in text.lines() {
            let Some(rest) = line
                .strip_prefix("cql = \"")
                .or_else(|| line.strip_prefix("query = \""))
                .or_else(|| line.strip_prefix("setup = \""))
            else {
                continue;
            };
            let body = rest.strip_suffix('"').unwrap_or(rest).replace("\\\"", "\"");
            out.extend(
                body.split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
        }
    }
    out
}

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TYPE ks.u (a int, l frozen<list<int>>);
CREATE TABLE ks.t (pk1 int, pk2 text, ck1 int, ck2 int, s int STATIC, v int, m map<text,int>, l list<int>, st set<int>, PRIMARY KEY ((pk1, pk2), ck1, ck2));
CREATE TABLE ks.c (k int PRIMARY KEY, hits counter);
";

#[derive(Debug, Clone)]
enum Mutation {
    Drop(usize),
    Repeat(usize),
    Replace(usize, usize, usize),
}

fn mutate(tokens: &mut Vec<String>, m: &Mutation, corpus: &[String]) {
    if tokens.is_empty() {
        return;
    }
    match *m {
        Mutation::Drop(i) => {
            tokens.remove(i % tokens.len());
        }
        Mutation::Repeat(i) => {
            let t = tokens[i % tokens.len()].clone();
            tokens.insert(i % tokens.len(), t);
        }
        Mutation::Replace(i, source, j) => {
            let donor: Vec<&str> = corpus[source % corpus.len()].split_whitespace().collect();
            if !donor.is_empty() {
                let len = tokens.len();
                tokens[i % len] = donor[j % donor.len()].to_string();
            }
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Drop),
        any::<usize>().prop_map(Mutation::Repeat),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(a, b, c)| Mutation::Replace(a, b, c)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mutated_statements_never_panic(pick in any::<usize>(), mutations in prop::collection::vec(mutation(), 0..4), views in any::<bool>()) {
        let corpus = corpus();
        prop_assume!(!corpus.is_empty());
        let mut tokens: Vec<String> = corpus[pick % corpus.len()].split_whitespace().map(String::from).collect();
        for m in &mutations {
            mutate(&mut tokens, m, &corpus);
        }
        let statement = tokens.join(" ");
        let source = format!("{SCHEMA}{statement};");
        let parsed = cqlmodel_cql::parse(&source);
        let settings = Settings { materialized_views_enabled: views, sasi_indexes_enabled: views, ..Settings::default() };
        let mut builder = SchemaBuilder::with_settings(settings);
        builder.add_statements(0, &parsed.statements);
        let build = builder.finish();
        prop_assert!(build.errors.len() <= parsed.statements.len());
        for e in &build.errors {
            prop_assert!(e.span.end as usize <= source.len(), "{e} at {:?}", e.span);
            prop_assert!(!e.to_string().is_empty());
        }
        for stmt in &parsed.statements {
            let path = analyze(&build.schema, stmt, None);
            prop_assert_eq!(path.is_valid(), path.error.is_none());
            if let Some(e) = &path.error {
                prop_assert!(e.span.end as usize <= source.len(), "{} at {:?}", e.message, e.span);
            }
        }
    }
}
