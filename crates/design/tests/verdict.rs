//! The fit verdict on three workloads written for it (pg_dump models under
//! tests/data/verdict-*): each asserts the verdict and the numbers behind it,
//! and snapshots the report section as users read it.

use std::path::Path;

use cqlmodel_design::querylist::MutationKind;
use cqlmodel_design::verdict::evidence::Basis;
use cqlmodel_design::verdict::input::{
    EntityVolume, OffReason, Read, Served, Transaction, VerdictInput, Write,
};
use cqlmodel_design::verdict::{
    CompanionKind, Fit, Verdict, thresholds, verdict, verdict_md, verdict_of,
};
use cqlmodel_design::{Design, DesignInput, design};

fn design_of(name: &str) -> Design {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let model = read("model.sql").unwrap_or_default();
    let queries = read("queries.sql");
    let stats = read("stats.toml");
    let input = DesignInput {
        keyspace: &name.replace('-', "_"),
        model_sql: &model,
        queries_sql: queries.as_deref(),
        stats_toml: stats.as_deref(),
    };
    match design(&input) {
        Ok(d) => d,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6 * b.abs().max(1.0)
}

fn entity_fit(v: &Verdict, entity: &str) -> Fit {
    match v.entities.iter().find(|e| e.entity == entity) {
        Some(e) => e.fit,
        None => panic!("no verdict for {entity}"),
    }
}

fn crossed(v: &Verdict) -> Vec<&str> {
    v.lines
        .iter()
        .chain(&v.strengths)
        .filter(|l| l.crossed)
        .filter_map(|l| l.threshold)
        .collect()
}

#[test]
fn sensor_ingest_fits() {
    let d = design_of("verdict-sensors");
    let v = verdict(&d);
    assert_eq!(v.fit, Fit::Fits, "{}", v.summary);
    let ev = &v.evidence;
    assert_eq!(ev.basis, Basis::Rate);
    // 300 + 900 + 150 + 40 reads/s, every one from at most a few partitions.
    assert!(close(ev.reads.total, 1_390.0), "{}", ev.reads.total);
    assert!(close(
        ev.reads.one_partition + ev.reads.few_partitions,
        ev.reads.total
    ));
    assert_eq!(ev.reads.off_total(), 0.0);
    // 40,000 inserts/s of readings against a probe registered twice a minute.
    assert!(ev.writes.share(ev.writes.inserts) > 0.999);
    assert_eq!(ev.rows_per_second, Some(40_000.0));
    assert!(
        close(ev.writes.rows_per_write(), 1.0),
        "{}",
        ev.writes.rows_per_write()
    );
    assert!(ev.transactions.is_empty());
    let strengths = crossed(&v);
    for t in ["append-share", "write-read-ratio", "growth", "volume"] {
        assert!(strengths.contains(&t), "{t} not among {strengths:?}");
    }
    assert!(v.companions.is_empty() && v.relational.is_empty());
    insta::assert_snapshot!("verdict_sensors", verdict_md(&v));
}

#[test]
fn news_feed_fits_with_a_search_index_and_an_analytical_store() {
    let d = design_of("verdict-feed");
    let v = verdict(&d);
    assert_eq!(v.fit, Fit::FitsWithCompanions, "{}", v.summary);
    let search = v
        .companions
        .iter()
        .find(|c| c.kind == CompanionKind::SearchIndex);
    let analytics = v
        .companions
        .iter()
        .find(|c| c.kind == CompanionKind::AnalyticalStore);
    assert_eq!(
        search.map(|c| c.queries.clone()),
        Some(vec!["search_posts".to_string()])
    );
    assert_eq!(
        analytics.map(|c| c.queries.clone()),
        Some(vec!["trending_tags".to_string()])
    );
    let r = &v.evidence.reads;
    // 120/s of 6,520/s searched by text; trending once a minute.
    assert!(close(r.total, 6_520.0 + 1.0 / 60.0), "{}", r.total);
    let text = r
        .off_path
        .iter()
        .find(|g| g.reason == OffReason::TextSearch);
    assert_eq!(text.map(|g| g.weight), Some(120.0));
    assert!(close(r.share(r.one_partition), 6_400.0 / r.total));
    assert_eq!(entity_fit(&v, "posts"), Fit::FitsWithCompanions);
    assert!(v.relational.is_empty());
    assert!(
        v.summary
            .contains("a search index fed by CDC for `search_posts`"),
        "{}",
        v.summary
    );
    insta::assert_snapshot!("verdict_feed", verdict_md(&v));
}

#[test]
fn ledger_stays_relational_and_the_audit_trail_moves() {
    let d = design_of("verdict-ledger");
    // BEGIN … COMMIT groups the transfer; its statements run at its rate.
    assert_eq!(d.transactions.len(), 1);
    assert_eq!(
        d.transactions.first().map(|t| t.members.clone()),
        Some(vec![
            "debit_account".to_string(),
            "credit_account".into(),
            "book_debit".into(),
            "book_credit".into()
        ])
    );
    assert!(d.errors.is_empty(), "BEGIN and COMMIT are not errors");
    assert_eq!(
        d.specs
            .iter()
            .find(|s| s.name == "book_debit")
            .and_then(|s| s.rate),
        Some(150.0)
    );
    let v = verdict(&d);
    assert_eq!(v.fit, Fit::StayRelationalInPart, "{}", v.summary);
    assert_eq!(v.relational, vec!["accounts".to_string(), "entries".into()]);
    assert_eq!(entity_fit(&v, "customers"), Fit::Fits);
    assert_eq!(entity_fit(&v, "audit_events"), Fit::Fits);
    let t = v.evidence.transactions.first();
    assert_eq!(
        t.map(|t| (t.name.as_str(), t.rows_written, t.needs_isolation, t.rate)),
        Some(("transfer", 4, true, Some(150.0)))
    );
    assert!(crossed(&v).contains(&"multi-row-transaction"));
    // The debit and credit are Paxos rounds: 300 of the 1,203 writes/s.
    let w = &v.evidence.writes;
    assert!(w.lwt_queries.contains(&"debit_account".to_string()));
    assert!(w.share(w.lwt) > thresholds::LWT_SHARE.value);
    // The reports of the ledger stay with it in PostgreSQL: no companion.
    assert!(v.companions.is_empty(), "{:?}", v.companions);
    assert!(v.summary.starts_with("stay relational for `accounts`, `entries` (multi-row-transaction crossed by `accounts`, `entries`)"), "{}", v.summary);
    // design.json carries it as a versioned object.
    let json = cqlmodel_design::json(&d);
    assert_eq!(json["verdict"]["version"], 1);
    assert_eq!(json["verdict"]["fit"], "stay_relational_in_part");
    assert_eq!(
        json["verdict"]["relational"],
        serde_json::json!(["accounts", "entries"])
    );
    insta::assert_snapshot!("verdict_ledger", verdict_md(&v));
}

fn read(name: &str, entity: &str, rate: f64, served: Served) -> Read {
    Read {
        name: name.into(),
        entity: entity.into(),
        rate: Some(rate),
        served,
    }
}

fn volume(entity: &str, rows: f64) -> EntityVolume {
    EntityVolume {
        entity: entity.into(),
        rows: Some(rows),
        rows_per_second: None,
    }
}

#[test]
fn an_entity_read_mostly_off_path_stays_relational() {
    let input = VerdictInput {
        reads: vec![
            read("by_id", "orders", 10.0, Served::OnePartition),
            read(
                "report",
                "orders",
                30.0,
                Served::Off(OffReason::AdHocFilter),
            ),
        ],
        volumes: vec![volume("orders", 1e6)],
        ..VerdictInput::default()
    };
    let v = verdict_of(&input);
    // 75% of the reads need another engine: above the 50% of off-path-share.
    assert_eq!(v.fit, Fit::StayRelational, "{}", v.summary);
    let line = v.entities.first().and_then(|e| e.lines.first());
    assert_eq!(
        line.map(|l| (l.threshold, l.crossed)),
        Some((Some("off-path-share"), true))
    );
}

#[test]
fn a_hot_compare_and_set_crosses_the_paxos_ceiling() {
    let input = VerdictInput {
        reads: vec![read("seat", "seats", 100.0, Served::OnePartition)],
        writes: vec![Write {
            name: "book_seat".into(),
            entity: "seats".into(),
            kind: MutationKind::Update,
            rate: Some(5_000.0),
            rows: 1.0,
            lwt: 1,
            reads_row: true,
            weighted: Vec::new(),
        }],
        volumes: vec![volume("seats", 20.0)],
        ..VerdictInput::default()
    };
    let v = verdict_of(&input);
    // 5,000 Paxos rounds/s over 20 rows: 250/s per partition, above 100/s.
    let e = v.entities.first();
    assert_eq!(e.map(|e| e.fit), Some(Fit::StayRelational));
    let lwt = e.and_then(|e| e.lines.iter().find(|l| l.topic == "lwt"));
    assert!(
        lwt.is_some_and(|l| l.crossed && l.text.contains("250/s per partition")),
        "{lwt:?}"
    );
    assert_eq!(
        v.evidence
            .entities
            .first()
            .and_then(|e| e.lwt_per_partition),
        Some(250.0)
    );
}

#[test]
fn a_small_table_scanned_whole_is_cached_not_kept_relational() {
    let input = VerdictInput {
        reads: vec![read(
            "all_countries",
            "countries",
            500.0,
            Served::Off(OffReason::SmallTableScan),
        )],
        volumes: vec![volume("countries", 250.0)],
        ..VerdictInput::default()
    };
    let v = verdict_of(&input);
    assert_eq!(v.fit, Fit::FitsWithCompanions, "{}", v.summary);
    assert_eq!(
        v.companions.first().map(|c| c.kind),
        Some(CompanionKind::Cache)
    );
}

#[test]
fn a_transaction_that_only_appends_is_a_logged_batch_not_a_reason_to_stay() {
    let input = VerdictInput {
        reads: vec![read("order", "orders", 50.0, Served::OnePartition)],
        transactions: vec![Transaction {
            name: "place_order".into(),
            rate: Some(20.0),
            entities: vec!["orders".into(), "order_lines".into()],
            rows_written: 4,
            needs_isolation: false,
        }],
        volumes: vec![volume("orders", 1e6), volume("order_lines", 4e6)],
        ..VerdictInput::default()
    };
    let v = verdict_of(&input);
    assert_eq!(v.fit, Fit::Fits, "{}", v.summary);
    let line = v.lines.iter().find(|l| l.topic == "transactions");
    assert!(
        line.is_some_and(|l| !l.crossed && l.text.contains("logged batch")),
        "{line:?}"
    );
}

#[test]
fn without_reads_there_is_no_verdict() {
    let v = verdict_of(&VerdictInput::default());
    assert_eq!(v.fit, Fit::Undecided);
    assert!(v.summary.starts_with("no reads in the query list"));
}

#[test]
fn docs_state_every_threshold_with_its_value() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/verdict.md"),
    )
    .unwrap_or_default();
    for t in thresholds::ALL {
        let row = page
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", t.name)));
        assert!(
            row.is_some_and(|r| r.contains(t.shown)),
            "docs/verdict.md has no row `| `{}` | … {} …`",
            t.name,
            t.shown
        );
    }
}

#[test]
fn start_transaction_groups_statements_and_an_unclosed_one_still_counts() {
    let model = "CREATE TABLE public.stock (sku text PRIMARY KEY, available integer NOT NULL);
                 CREATE TABLE public.moves (move_id uuid PRIMARY KEY, sku text NOT NULL, qty integer NOT NULL);";
    let queries = "-- @name stock_of @rate 100/s
                   SELECT available FROM public.stock WHERE sku = $1;
                   -- @name reserve @rate 40/s
                   START TRANSACTION ISOLATION LEVEL SERIALIZABLE;
                   UPDATE public.stock SET available = available - $1 WHERE sku = $2 AND available >= $1;
                   INSERT INTO public.moves (move_id, sku, qty) VALUES ($1, $2, $3);
                   ROLLBACK;
                   BEGIN;
                   INSERT INTO public.moves (move_id, sku, qty) VALUES ($1, $2, $3);";
    let d = design(&DesignInput {
        keyspace: "wh",
        model_sql: model,
        queries_sql: Some(queries),
        stats_toml: None,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let groups: Vec<(String, Option<f64>, usize)> = d
        .transactions
        .iter()
        .map(|t| (t.name.clone(), t.rate, t.members.len()))
        .collect();
    assert_eq!(
        groups,
        vec![
            ("reserve".to_string(), Some(40.0), 2),
            ("T2".to_string(), None, 1)
        ]
    );
    let v = verdict(&d);
    // The reservation checks stock and books a move: both stay relational.
    assert_eq!(
        v.relational,
        vec!["stock".to_string(), "moves".into()],
        "{}",
        v.summary
    );
}
