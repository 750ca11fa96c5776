//! A 1,000-table diff: every third table gains a column, every third changes
//! its compaction, one in fifty changes its clustering order (a rebuild), and
//! a user type (one per keyspace) changes a field's type: the ten tables using
//! it are rebuilt onto the type's new definition.
//! `plan` is the diff and the plan; `plan + dry run` also executes the plan's
//! statements on OLD and compares the result with NEW.

use std::fmt::Write as _;

use cqlmodel_migrate::{MigrateInput, Target, dry_run, plan};
use cqlmodel_schema::{Origin, Schema, SchemaBuilder, Settings};
use criterion::{Criterion, criterion_group, criterion_main};

const TABLES: usize = 1_000;

fn schema_text(new: bool) -> String {
    let mut s = String::new();
    for k in 0..10 {
        let _ = writeln!(
            s,
            "CREATE KEYSPACE ks{k} WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 3}};"
        );
        let zip = if new { "int" } else { "text" };
        let _ = writeln!(s, "CREATE TYPE ks{k}.addr (street text, zip {zip});");
    }
    for i in 0..TABLES {
        let mut extra = if new && i % 3 == 0 { ", note text" } else { "" }.to_string();
        if i % 100 == 3 {
            extra.push_str(", home frozen<addr>");
        }
        let order = if new && i % 50 == 7 { "ASC" } else { "DESC" };
        let compaction = if new && i % 3 == 1 {
            "LeveledCompactionStrategy"
        } else {
            "SizeTieredCompactionStrategy"
        };
        let _ = writeln!(
            s,
            "CREATE TABLE ks{}.t{i} (id uuid, ts timestamp, a text, b int, c double{extra}, \
             PRIMARY KEY (id, ts)) WITH CLUSTERING ORDER BY (ts {order}) \
             AND compaction = {{'class': '{compaction}'}};",
            i % 10
        );
    }
    s
}

fn build(text: &str) -> Schema {
    let settings = Settings {
        materialized_views_enabled: true,
        ..Settings::default()
    };
    let mut b = SchemaBuilder::with_settings(settings);
    b.add_statements(0, &cqlmodel_cql::parse(text).statements);
    b.finish().schema
}

fn bench(c: &mut Criterion) {
    let old = build(&schema_text(false));
    let new = build(&schema_text(true));
    let source = |_: &Origin| None;
    let input = MigrateInput {
        old: &old,
        new: &new,
        target: Target::Cassandra,
        queries: &[],
        stats: None,
        source: &source,
        renames: &[],
    };
    let p = plan(&input);
    // 334 gain a column, 333 change compaction, 20 are rebuilt (6 of them with
    // no other change); 10 types are defined again and the 10 tables using them
    // rebuilt (3 of them with no other change).
    assert_eq!(p.changes.len(), 686);
    assert_eq!(p.rebuilds().count(), 30);
    assert!(dry_run(&old, &new, &p).ok());
    let mut g = c.benchmark_group("migrate 1,000 tables");
    g.sample_size(10);
    g.bench_function("plan", |b| b.iter(|| plan(&input)));
    g.bench_function("plan + dry run", |b| {
        b.iter(|| {
            let p = plan(&input);
            dry_run(&old, &new, &p)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
