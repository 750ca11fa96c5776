//! `cqlmodel migrate` on the node, for every schema pair of `crates/migrate/tests/data/`:
//!
//! - OLD is applied; every ALTER the plan refuses (the statement a user would try) is run
//!   and must fail with the message the plan quotes, verbatim;
//! - the plan's schema statements (create phase, then drop phase) are run and must all be
//!   accepted; the schema then read back from the node (crates/cluster, as `--cluster`
//!   reads it) must equal NEW (the dry run's comparison, through the plan's renames);
//! - a rebuild (`clustering_order`) runs end to end on a small data set: new table, dual
//!   writes, a backfill that keeps each cell's write time and TTL, verification, switch:
//!   nothing is lost and a newer dual-written value is not overwritten by the backfill.
//!
//! - a pair with `queries.cql` (and `renames.txt`, its `--rename` flags) is planned with
//!   them, and each of its rebuilds runs with the pair's own write paths between the create
//!   and the drop phase (tests/migrate_data): rows written before, dual writes (each write
//!   path and its twin), the backfill, and the new table equal to the old through the
//!   plan's mapping.
//!
//! The node has one datacenter, `datacenter1`: the pairs' `dc1`/`dc2` are renamed to it on
//! both sides. Pairs with materialized views run only on a node with views enabled
//! (`CQLMODEL_TEST_MV`); the others only on a default node.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cqlmodel_cluster::{ClusterOptions, read_cluster};
use cqlmodel_livetest::{CONTACT_VAR, Node, Verdict};
use cqlmodel_migrate::{
    AppStatement, ColumnRename, MigrateInput, Phase, Plan, Target, Verdict as ItemVerdict, compare,
    plan,
};
use cqlmodel_schema::{Origin, Schema, SchemaBuilder, Settings};
use scylla::value::CqlTimestamp;

mod migrate_data;
use migrate_data::{RebuildRun, RunCount};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrate/tests/data")
}

fn settings() -> Settings {
    Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..Settings::default()
    }
}

fn build(text: &str) -> Result<Schema, String> {
    let mut b = SchemaBuilder::with_settings(settings());
    b.add_statements(0, &cqlmodel_cql::parse(text).statements);
    let built = b.finish();
    match built.errors.first() {
        Some(e) => Err(e.to_string()),
        None => Ok(built.schema),
    }
}

/// The pair's text with its datacenters renamed to the node's.
fn read_side(case: &Path, file: &str) -> String {
    std::fs::read_to_string(case.join(file))
        .unwrap_or_default()
        .replace("'dc1'", "'datacenter1'")
        .replace("'dc2'", "'datacenter1'")
}

/// The pair's `queries.cql` as `--queries` loads it (names, `@cl`, `@rate`).
fn queries_of(case: &Path, old: &Schema) -> Vec<AppStatement> {
    let text = std::fs::read_to_string(case.join("queries.cql")).unwrap_or_default();
    let parsed = cqlmodel_cql::parse(&text);
    let (queries, _) = cqlmodel_review::load_queries(old, 2, &parsed, None, 1);
    queries
        .into_iter()
        .map(|q| AppStatement {
            name: q.name,
            statement: q.statement,
            consistency: q.consistency,
            rate: q.rate,
        })
        .collect()
}

/// The pair's `renames.txt`: its `--rename` flags, one a line.
fn renames_of(case: &Path) -> Vec<ColumnRename> {
    std::fs::read_to_string(case.join("renames.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

fn plan_of(old: &Schema, new: &Schema, texts: &[String; 2]) -> Plan {
    plan_with(old, new, texts, &[], &[])
}

fn plan_with(
    old: &Schema,
    new: &Schema,
    texts: &[String; 2],
    queries: &[AppStatement],
    renames: &[ColumnRename],
) -> Plan {
    let source = |o: &Origin| {
        texts
            .get(o.file)
            .and_then(|t| t.get(o.span.range()))
            .map(str::to_string)
    };
    plan(&MigrateInput {
        old,
        new,
        target: Target::Cassandra,
        queries,
        stats: None,
        source: &source,
        renames,
    })
}

/// The node's schema as `--cluster` reads it, keeping only `keyspaces`.
async fn node_schema(keyspaces: &BTreeSet<String>) -> Schema {
    let contact = std::env::var(CONTACT_VAR).expect("contact");
    let snapshot = tokio::task::spawn_blocking(move || {
        read_cluster(&ClusterOptions {
            contact_points: vec![contact],
            connect_timeout: Duration::from_secs(10),
            ..ClusterOptions::default()
        })
    })
    .await
    .expect("ran")
    .expect("read the node's schema");
    let mut schema = build(&snapshot.schema_cql).unwrap_or_else(|e| {
        panic!(
            "the node's schema does not build: {e}\n{}",
            snapshot.schema_cql
        )
    });
    schema.keyspaces.retain(|k, _| keyspaces.contains(k));
    schema
}

/// Drops the pair's keyspaces and creates OLD.
async fn apply_old(
    node: &Node,
    old_text: &str,
    keyspaces: &BTreeSet<String>,
) -> Result<(), String> {
    for k in keyspaces {
        node.must_run(&format!("DROP KEYSPACE IF EXISTS {k}"))
            .await
            .map_err(|e| e.to_string())?;
    }
    for statement in cqlmodel_livetest::statements_of(old_text).map_err(|e| e.to_string())? {
        match node.run(&statement.text).await.map_err(|e| e.to_string())? {
            Verdict::Accepted { .. } => {}
            Verdict::Rejected(r) => return Err(format!("OLD: {}\n  {r}", statement.text)),
        }
    }
    Ok(())
}

/// One pair: the refused ALTERs, then the plan (with the pair's queries and renames), the
/// rebuilds run with the pair's write paths, then the node's schema against NEW.
async fn check_pair(node: &Node, case: &Path, runs: &mut Vec<String>) -> Result<usize, String> {
    let texts = [read_side(case, "old.cql"), read_side(case, "new.cql")];
    let old = build(&texts[0])?;
    let new = build(&texts[1])?;
    let keyspaces: BTreeSet<String> = old
        .keyspaces
        .keys()
        .chain(new.keyspaces.keys())
        .cloned()
        .collect();
    let (queries, renames) = (queries_of(case, &old), renames_of(case));
    let p = plan_with(&old, &new, &texts, &queries, &renames);
    apply_old(node, &texts[0], &keyspaces).await?;

    let mut problems = Vec::new();
    let mut refusals = 0;
    for change in &p.changes {
        for item in &change.items {
            let (ItemVerdict::Forbidden, Some(attempted), Some(message)) =
                (item.verdict, &item.attempted, &item.message)
            else {
                continue;
            };
            refusals += 1;
            match node.run(attempted).await.map_err(|e| e.to_string())? {
                Verdict::Rejected(r) if &r.message == message => {}
                Verdict::Rejected(r) => problems.push(format!(
                    "{attempted}\n  the plan quotes: {message}\n  the node says:   {}",
                    r.message
                )),
                Verdict::Accepted { .. } => {
                    problems.push(format!(
                        "{attempted}\n  refused by the plan, accepted by the node"
                    ));
                    apply_old(node, &texts[0], &keyspaces).await?;
                }
            }
        }
    }
    let mut data_runs: Vec<(RebuildRun, RunCount)> = p
        .changes
        .iter()
        .filter_map(|c| c.rebuild.as_ref())
        .filter(|r| !r.dual_writes.is_empty())
        .map(|r| (RebuildRun::new(node, &old, r), RunCount::default()))
        .collect();
    for (run, count) in &mut data_runs {
        run.write_before(count).await?;
    }
    for phase in [Phase::Create, Phase::Drop] {
        if phase == Phase::Drop {
            for (run, count) in &mut data_runs {
                problems.extend(rebuild_run(run, count).await?);
                runs.push(format!("{}: {count:?}", run.rebuild.new_table));
            }
        }
        for (_, statements) in p.phase(phase) {
            for s in statements {
                if let Verdict::Rejected(r) = node.run(s).await.map_err(|e| e.to_string())? {
                    problems.push(format!("plan statement refused: {s}\n  {r}"));
                }
            }
        }
    }
    // A change cqlmodel leaves to a human (a UDT field's type) is not applied by the plan.
    let manual: Vec<&str> = p
        .changes
        .iter()
        .filter(|c| c.flagged || c.items.iter().any(|i| i.verdict == ItemVerdict::Manual))
        .map(|c| c.object.as_str())
        .collect();
    let actual = node_schema(&keyspaces).await;
    for d in compare(&actual, &new, &p.renamed) {
        if !manual.iter().any(|m| d.contains(m)) {
            problems.push(format!("after the plan, the node differs from NEW: {d}"));
        }
    }
    if problems.is_empty() {
        Ok(refusals)
    } else {
        Err(problems.join("\n"))
    }
}

/// Dual writes, backfill, comparison: the differences found.
async fn rebuild_run(
    run: &mut RebuildRun<'_>,
    count: &mut RunCount,
) -> Result<Vec<String>, String> {
    run.dual_write(count).await?;
    run.backfill(count).await?;
    let problems = run.compare(count).await?;
    if count.twin_writes == 0 || count.rows_compared == 0 {
        return Ok(vec![format!(
            "{}: the run wrote no twin or compared no row: {count:?}",
            run.rebuild.new_table
        )]);
    }
    Ok(problems)
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn migrate_plans_apply_on_the_node() {
    let node = Node::from_env().await.expect("node");
    let views = std::env::var("CQLMODEL_TEST_MV").is_ok();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("pairs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("old.cql").exists() && p.join("new.cql").exists())
        .collect();
    cases.sort();
    let (mut checked, mut refusals, mut failures, mut skipped) = (0, 0, Vec::new(), Vec::new());
    let mut runs = Vec::new();
    for case in &cases {
        let name = case
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let text = read_side(case, "old.cql") + &read_side(case, "new.cql");
        if build(&read_side(case, "old.cql")).is_err()
            || build(&read_side(case, "new.cql")).is_err()
        {
            skipped.push(format!("{name} (an input the schema crate refuses)"));
            continue;
        }
        if text.contains("MATERIALIZED VIEW") != views {
            skipped.push(format!(
                "{name} (runs on the other node configuration: views on or off)"
            ));
            continue;
        }
        match check_pair(&node, case, &mut runs).await {
            Ok(n) => {
                checked += 1;
                refusals += n;
            }
            Err(e) => failures.push(format!("{name}:\n{e}")),
        }
    }
    println!(
        "migrate on the node: {checked} pairs applied and equal to NEW, {refusals} refused ALTERs with the plan's message; skipped: {skipped:?}"
    );
    println!("rebuilds run with the pairs' write paths: {runs:#?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked > 0, "no pair was checked");
    if !views {
        assert!(runs.len() >= 4, "the pairs' write paths ran for {runs:?}");
    }
}

const OLD_ROWS: usize = 200;
const DUAL_ROWS: usize = 50;
const BASE_TS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, the rows' ts

/// The rows of `table` with the write time and TTL of `temp`, sorted.
async fn content(node: &Node, table: &str) -> Vec<(String, i64, f64, i64, bool)> {
    let cql = format!("SELECT device_id, ts, temp, writetime(temp), ttl(temp) FROM {table}");
    let result = node.session().query_unpaged(cql, ()).await.expect("select");
    let rows = result.into_rows_result().expect("rows");
    let mut out: Vec<(String, i64, f64, i64, bool)> = rows
        .rows::<(String, CqlTimestamp, f64, i64, Option<i32>)>()
        .expect("typed rows")
        .map(|r| {
            let (d, ts, t, wt, ttl) = r.expect("row");
            (d, ts.0, t, wt, ttl.is_some())
        })
        .collect();
    out.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    out
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn migrate_rebuild_runs_end_to_end_without_loss() {
    let node = Node::from_env().await.expect("node");
    let case = data_dir().join("clustering_order");
    // Its own keyspace: the pairs test runs at the same time.
    // One replica, so that the default LOCAL_QUORUM writes succeed on one node.
    let own = |t: String| {
        t.replace("iot.", "iot_rebuild.")
            .replace("KEYSPACE iot ", "KEYSPACE iot_rebuild ")
            .replace("'datacenter1': 3", "'datacenter1': 1")
    };
    let texts = [
        own(read_side(&case, "old.cql")),
        own(read_side(&case, "new.cql")),
    ];
    let old = build(&texts[0]).expect("old");
    let new = build(&texts[1]).expect("new");
    let p = plan_of(&old, &new, &texts);
    let rebuild = p
        .changes
        .iter()
        .find_map(|c| c.rebuild.as_ref())
        .expect("the clustering order change is a rebuild");
    let keyspaces: BTreeSet<String> = old.keyspaces.keys().cloned().collect();
    apply_old(&node, &texts[0], &keyspaces).await.expect("OLD");
    let (old_t, new_t) = (rebuild.old_table.clone(), rebuild.new_table.clone());

    // Before the migration: rows with their own write times; every other one with a TTL.
    let insert = |table: &str, ttl: bool| {
        let using = if ttl {
            "USING TIMESTAMP ? AND TTL 86400"
        } else {
            "USING TIMESTAMP ?"
        };
        format!("INSERT INTO {table} (device_id, ts, temp) VALUES (?, ?, ?) {using}")
    };
    for i in 0..OLD_ROWS {
        let cql = insert(&old_t, i % 2 == 0);
        let values = (
            format!("dev-{}", i % 7),
            CqlTimestamp(BASE_TS + i as i64),
            i as f64,
            1_000 + i as i64,
        );
        node.session()
            .query_unpaged(cql, values)
            .await
            .expect("old write");
    }
    // Phase 1: create.
    for (_, statements) in p.phase(Phase::Create) {
        for s in statements {
            node.must_run(s).await.expect("create phase");
        }
    }
    // Phase 2: dual writes: new rows to both tables, and an update of an old row (newer
    // write time) that the backfill must not undo.
    for i in OLD_ROWS..OLD_ROWS + DUAL_ROWS {
        for table in [&old_t, &new_t] {
            let values = (
                format!("dev-{}", i % 7),
                CqlTimestamp(BASE_TS + i as i64),
                i as f64,
                1_000 + i as i64,
            );
            node.session()
                .query_unpaged(insert(table, false), values)
                .await
                .expect("dual write");
        }
    }
    for table in [&old_t, &new_t] {
        let values = ("dev-0".to_string(), CqlTimestamp(BASE_TS), -1.0, 5_000_i64);
        node.session()
            .query_unpaged(insert(table, false), values)
            .await
            .expect("dual update");
    }
    // Phase 3: backfill as the plan's mapping says (every column `same`), keeping write
    // time and TTL: what the DSBulk mapping `writetime(temp)`/`ttl(temp)` does.
    assert!(
        rebuild
            .columns
            .iter()
            .all(|c| c.from() == Some(c.column.as_str())),
        "{:?}",
        rebuild.columns
    );
    assert!(
        rebuild.backfill.dsbulk.contains("writetime"),
        "{}",
        rebuild.backfill.dsbulk
    );
    for (device, ts, temp, wt, has_ttl) in content(&node, &old_t).await {
        let ttl_cql = format!("SELECT ttl(temp) FROM {old_t} WHERE device_id = ? AND ts = ?");
        let ttl = node
            .session()
            .query_unpaged(ttl_cql, (device.as_str(), CqlTimestamp(ts)))
            .await
            .expect("ttl");
        let ttl: Option<i32> = ttl
            .into_rows_result()
            .expect("rows")
            .single_row::<(Option<i32>,)>()
            .expect("one")
            .0;
        assert_eq!(ttl.is_some(), has_ttl);
        let cql = match ttl {
            Some(t) => format!(
                "INSERT INTO {new_t} (device_id, ts, temp) VALUES (?, ?, ?) USING TIMESTAMP ? AND TTL {t}"
            ),
            None => format!(
                "INSERT INTO {new_t} (device_id, ts, temp) VALUES (?, ?, ?) USING TIMESTAMP ?"
            ),
        };
        node.session()
            .query_unpaged(cql, (device, CqlTimestamp(ts), temp, wt))
            .await
            .expect("backfill");
    }
    // Phase 4: verify: same rows, values, write times and TTL presence on both sides.
    let (a, b) = (content(&node, &old_t).await, content(&node, &new_t).await);
    assert_eq!(a.len(), OLD_ROWS + DUAL_ROWS);
    assert_eq!(a, b);
    let updated = b
        .iter()
        .find(|r| r.0 == "dev-0" && r.1 == BASE_TS)
        .expect("dev-0");
    assert_eq!(
        (updated.2, updated.3),
        (-1.0, 5_000),
        "the backfill undid a newer write"
    );
    // Phase 5: switch reads: NEW's order (oldest first) on the new table.
    let result = node
        .session()
        .query_unpaged(
            format!("SELECT ts FROM {new_t} WHERE device_id = 'dev-1' LIMIT 2"),
            (),
        )
        .await
        .expect("read");
    let ts: Vec<i64> = result
        .into_rows_result()
        .expect("rows")
        .rows::<(CqlTimestamp,)>()
        .expect("typed")
        .map(|r| r.expect("row").0.0)
        .collect();
    assert!(ts.windows(2).all(|w| w[0] < w[1]), "{ts:?}");
    // Phases 6-7: stop old writes, drop (the plan's statements).
    for (_, statements) in p.phase(Phase::Drop) {
        for s in statements {
            node.must_run(s).await.expect("drop phase");
        }
    }
    let actual = node_schema(&keyspaces).await;
    assert_eq!(compare(&actual, &new, &p.renamed), Vec::<String>::new());
}

/// `cqlmodel migrate --cluster NODE NEW --format json` with NEW's text
/// written to a temporary file (`tag` keeps concurrent runs apart): the
/// planned changes. The run must exit 0.
async fn plan_against_cluster(new_text: String, tag: &str) -> Vec<serde_json::Value> {
    use cqlmodel_cli::cluster_args::ClusterArgs;
    use cqlmodel_cli::migrate_cmd::{LayoutArg, MigrateArgs, TargetArg, run};

    let dir = std::env::temp_dir().join(format!("cqlmodel-migrate-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let new_path = dir.join("new.cql");
    std::fs::write(&new_path, new_text).expect("NEW");
    let args = MigrateArgs {
        schemas: vec![new_path],
        cluster: ClusterArgs {
            cluster: vec![std::env::var(CONTACT_VAR).expect("contact")],
            connect_timeout: 10,
            ..ClusterArgs::default()
        },
        queries: None,
        stats: None,
        out: None,
        layout: LayoutArg::Numbered,
        target: TargetArg::Cassandra,
        renames: Vec::new(),
    };
    let out = tokio::task::spawn_blocking(move || run(&args, true, false, 0))
        .await
        .expect("ran");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    json["changes"].as_array().cloned().unwrap_or_default()
}

/// `migrate --cluster HOST NEW`: OLD is read from the node; the cluster's other keyspaces
/// (those of the other tests) are not planned as drops.
#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn migrate_reads_old_from_the_cluster() {
    let node = Node::from_env().await.expect("node");
    let case = data_dir().join("add_column");
    let own = |t: String| {
        t.replace("iot.", "iot_live.")
            .replace("KEYSPACE iot ", "KEYSPACE iot_live ")
    };
    let (old_text, new_text) = (
        own(read_side(&case, "old.cql")),
        own(read_side(&case, "new.cql")),
    );
    let keyspaces = BTreeSet::from(["iot_live".to_string()]);
    apply_old(&node, &old_text, &keyspaces).await.expect("OLD");
    let changes = plan_against_cluster(new_text, "live").await;
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0]["kind"], "alter");
    assert_eq!(
        changes[0]["statements"][0]["statements"][0],
        "ALTER TABLE iot_live.temp_by_device ADD humidity double;"
    );
}

/// `migrate --cluster` compares every table option the cluster holds: a NEW that sets the
/// comment, bloom filter, speculative retry and CRC check chance the table already has plans
/// nothing; a NEW with another comment plans that one ALTER.
#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn migrate_cluster_plans_no_alter_for_options_the_cluster_has() {
    let node = Node::from_env().await.expect("node");
    node.fresh_keyspace("opt_live").await.expect("keyspace");
    let options = "comment = 'readings per device' AND bloom_filter_fp_chance = 0.1 \
                   AND speculative_retry = 'ALWAYS' AND crc_check_chance = 0.5";
    let table = |options: &str| {
        format!(
            "CREATE TABLE opt_live.readings (device text, ts timestamp, v double, \
             PRIMARY KEY ((device), ts)) WITH {options};"
        )
    };
    node.must_run(table(options).trim_end_matches(';'))
        .await
        .expect("OLD");
    let keyspace = format!(
        "CREATE KEYSPACE opt_live WITH replication = {};\n",
        cqlmodel_livetest::SINGLE_NODE_REPLICATION
    );

    let same = plan_against_cluster(format!("{keyspace}{}\n", table(options)), "same").await;
    assert_eq!(
        same,
        Vec::<serde_json::Value>::new(),
        "the cluster has these values"
    );

    let other = options.replace("readings per device", "one row per reading");
    let changes = plan_against_cluster(format!("{keyspace}{}\n", table(&other)), "other").await;
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0]["kind"], "alter");
    let statement = changes[0]["statements"][0]["statements"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        statement.contains("comment = 'one row per reading'")
            && !statement.contains("bloom_filter_fp_chance"),
        "{statement}"
    );
}
