use std::collections::HashMap;

use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::access::AccessKind;
use cqlmodel_schema::types::NativeType;
use cqlmodel_schema::{Column, Index, IndexImpl, Table};

use crate::stats::format_count;

use super::bucketing::DEFAULT_SALT_BUCKETS;
use super::column_roles::{
    high_cardinality_by_heuristic, low_cardinality_by_heuristic, native, unique_like,
};
use super::key_facts::QueryIndex;
use super::query_path::query_path;
use super::table_cql::{TableSketch, derived_table_name};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Checks every secondary index (`CREATE INDEX`, legacy or SAI) and the queries
    /// that use one:
    ///
    /// - an index on a **high-cardinality** column: by statistics, a `distinct`
    ///   count close to the table's rows (10 rows per value or fewer); without
    ///   statistics, a heuristic on names (`email`, `username`, `uuid`, `id`,
    ///   `*_id`, `token`, `phone`) and types (`uuid`, `timeuuid`, `timestamp`);
    /// - an index on a **very low-cardinality** column: `boolean`, status-, type- or
    ///   country-like names, or at most 10 distinct values by statistics;
    /// - an index on a **frequently updated** column: UPDATEs of the query list set
    ///   it at `index_update_rate_per_second` (default 100/s) or more;
    /// - a **query that uses an index without restricting the partition key**: a
    ///   range scan that asks every node.
    ///
    /// Legacy indexes and SAI differ, and so do the severities. A legacy index
    /// (`CREATE INDEX` without `USING`) is a hidden table on each node, partitioned
    /// by the indexed value. SAI (`USING 'sai'`, Cassandra 5.0) indexes each SSTable
    /// and memtable alongside the data, with no hidden table: a high-cardinality
    /// column costs it no extra partitions, and a query that also restricts the
    /// partition key searches only that partition. An SAI index on a
    /// high-cardinality column whose every query restricts the partition key is
    /// therefore info; a low-cardinality SAI index is info too (no giant index
    /// partition, though a query by one value still matches much of the table).
    /// Without a partition key, SAI and legacy indexes alike ask every node.
    ///
    /// The problem is the query, not the index: each query that reads through an
    /// index without the partition key is a finding of its own (a warning on the
    /// application path). The index definition is then not reported again; an
    /// index that only partition-restricted queries use, or that no query uses,
    /// or any index when there is no query list, is info.
    ///
    /// ## Evidence
    /// - The index definition and the indexed column's cardinality: statistics
    ///   (`distinct`, `rows`) decide; without them, names and types (a heuristic,
    ///   said in a note).
    /// - The query list decides the severity. A query that reads through the index
    ///   without the partition key is a warning on the application path and info
    ///   on a `@path admin|analytics|migration` query or on a table the statistics
    ///   call tiny (at most 10,000 `rows`). An index whose every query restricts
    ///   the partition key, or that no query uses, is info. Without a query list
    ///   the index itself is only a question (info): it says what would make it a
    ///   problem.
    /// - UPDATE rates (`@rate`) of the indexed column, for the tombstone finding.
    ///
    /// ## Why is this bad?
    /// A query by a high-cardinality value without the partition key asks every
    /// token range (every node) for the one or two rows that match: the cost grows
    /// with the cluster, not the result. A low-cardinality value makes one enormous
    /// partition per value in a legacy index table. Every update of an indexed
    /// column deletes the old index entry: tombstones pile up in the index and
    /// queries by that value fail past `tombstone_failure_threshold`.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE app.users (user_id uuid PRIMARY KEY, email text, name text);
    /// CREATE INDEX users_email_idx ON app.users (email);
    /// SELECT * FROM app.users WHERE email = ?;
    /// ```
    ///
    /// ## Use instead
    /// A lookup table written alongside the base table, read first:
    /// ```cql
    /// CREATE TABLE app.users_by_email (email text PRIMARY KEY, user_id uuid);
    /// SELECT user_id FROM app.users_by_email WHERE email = ?;
    /// SELECT * FROM app.users WHERE user_id = ?;
    /// ```
    ///
    /// ## References
    /// - DataStax CQL documentation, "When to use an index" (high cardinality,
    ///   frequently updated columns, large partitions)
    /// - Apache Cassandra documentation, "Storage-Attached Indexing (SAI) overview"
    ///   and "SAI FAQ"
    /// - Apache Cassandra documentation, "Secondary indexes" (legacy 2i)
    pub static SECONDARY_INDEX_MISUSE = {
        code: "CQL006",
        name: "secondary-index-misuse",
        severity: Warning,
        summary: "An index on a high- or very low-cardinality or frequently updated column, or a query using an index across partitions",
        check: check,
    };
}

/// A value matching this many rows or fewer makes an index lookup a search of every
/// node for a handful of rows.
const HIGH_CARDINALITY_ROWS_PER_VALUE: f64 = 10.0;
/// At most this many distinct values make one huge index partition per value.
const LOW_CARDINALITY_DISTINCT: f64 = 10.0;

/// A table with at most this many rows (by statistics) is tiny: asking every
/// node costs little, and a lookup table would not pay for itself.
const TINY_TABLE_ROWS: f64 = 10_000.0;

enum Cardinality {
    High(String),
    Low(String),
    Unknown,
}

fn cardinality(cx: &Context<'_>, table: &Table, column: &Column) -> Cardinality {
    let stats = cx.table_stats(table).and_then(|s| s.column(&column.name));
    if let Some(d) = stats.and_then(|s| s.distinct) {
        if d <= LOW_CARDINALITY_DISTINCT {
            return Cardinality::Low(format!(
                "statistics: `{}` has {} distinct values",
                column.name,
                format_count(d)
            ));
        }
        let rows = cx.estimate(table).map(|e| e.sizes.total_rows);
        if let Some(rows) = rows.filter(|r| *r > 0.0)
            && rows / d <= HIGH_CARDINALITY_ROWS_PER_VALUE
        {
            return Cardinality::High(format!(
                "statistics: `{}` has {} distinct values over {} rows: {:.1} rows per value",
                column.name,
                format_count(d),
                format_count(rows),
                rows / d
            ));
        }
        return Cardinality::Unknown;
    }
    if column.ty.is_collection() {
        return Cardinality::Unknown;
    }
    if native(&column.ty) == Some(NativeType::Boolean) {
        return Cardinality::Low(format!("`{}` is a boolean: 2 values", column.name));
    }
    if low_cardinality_by_heuristic(column) {
        return Cardinality::Low(format!(
            "heuristic: `{}` is named like a status, type or region (few values); a statistics file with `distinct` decides",
            column.name
        ));
    }
    if high_cardinality_by_heuristic(column) {
        return Cardinality::High(format!(
            "heuristic: `{}` ({}) is named or typed like a unique value (about one row per value); a statistics file with `distinct` decides",
            column.name, column.ty
        ));
    }
    Cardinality::Unknown
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    if cx.tables().all(|t| t.indexes.is_empty()) {
        return;
    }
    let queries = &cx.index;
    // The queries that read through each index, by (table, index name).
    let mut users: HashMap<(&str, &str), Vec<&Query>> = HashMap::new();
    for q in cx.queries.iter().filter(|q| q.path.error.is_none()) {
        if let (Some(t), Some(i)) = (q.path.table.as_deref(), q.path.index.as_deref()) {
            users.entry((t, i)).or_default().push(q);
        }
    }
    for table in cx.tables() {
        let name = table.qualified_name();
        for index in &table.indexes {
            let Some(column) = table.column(&index.column) else {
                continue;
            };
            let readers = users
                .get(&(name.as_str(), index.name.as_str()))
                .map_or(&[][..], Vec::as_slice);
            check_index(cx, queries, readers, table, index, column, out);
        }
    }
}

/// What the query list says about an index whose column is high or low
/// cardinality, as the end of an info finding; `None` when queries scan through
/// it (each of those is reported as a warning of its own).
fn judge_by_queries(cx: &Context<'_>, users: &[&Query], scanning: &[&Query]) -> Option<String> {
    if !scanning.is_empty() {
        return None;
    }
    if !cx.has_queries {
        return Some(
            "fine if every query using it also restricts the partition key; a problem if a frequent query does not (with a query list this would be checked)".to_string(),
        );
    }
    if users.is_empty() {
        return Some(
            "no query of the list uses it: it costs an index write on every write of the column"
                .to_string(),
        );
    }
    let names: Vec<&str> = users.iter().map(|q| q.name.as_str()).collect();
    Some(format!(
        "every query using it restricts the partition key ({}): the index searches inside one partition",
        crate::listing::capped(&names)
    ))
}

fn kind_of(index: &Index) -> &'static str {
    match index.implementation {
        IndexImpl::Sai => "SAI index",
        IndexImpl::Sasi => "SASI index",
        IndexImpl::Legacy => "index",
        IndexImpl::Custom(_) => "custom index",
    }
}

/// What the reports on one index share.
struct Indexed<'a> {
    table: &'a Table,
    index: &'a Index,
    column: &'a Column,
    /// The table's qualified name.
    name: String,
    /// The kind of index, for messages ("SAI index", "index", …).
    kind: &'static str,
    sai: bool,
    /// How this kind of index stores its entries, and what that costs a query.
    storage_note: &'static str,
}

fn check_index(
    cx: &Context<'_>,
    queries: &QueryIndex<'_>,
    users: &[&Query],
    table: &Table,
    index: &Index,
    column: &Column,
    out: &mut Findings,
) {
    let sai = index.implementation == IndexImpl::Sai;
    let ix = Indexed {
        table,
        index,
        column,
        name: table.qualified_name(),
        kind: kind_of(index),
        sai,
        storage_note: if sai {
            "SAI indexes each SSTable and memtable alongside the data (no hidden index table): with the partition key restricted a query searches one partition's index; without it, it still asks every node"
        } else {
            "a legacy index is a hidden table on each node, partitioned by the indexed value: a query without the partition key asks every node (token range by token range), each answering from its own index"
        },
    };
    let scanning: Vec<&Query> = users
        .iter()
        .copied()
        .filter(|q| q.path.kind == AccessKind::RangeScan)
        .collect();
    let cardinality_note = report_cardinality(cx, &ix, users, &scanning, out);
    report_frequent_updates(cx, queries, &ix, out);
    report_scanning_queries(cx, &ix, &scanning, cardinality_note, out);
}

/// The index on a high- or low-cardinality column, judged by the queries that
/// use it. Returns why the cardinality is high or low, for the scanning queries.
fn report_cardinality(
    cx: &Context<'_>,
    ix: &Indexed<'_>,
    users: &[&Query],
    scanning: &[&Query],
    out: &mut Findings,
) -> Option<String> {
    let (index, column, name, kind) = (ix.index, ix.column, &ix.name, ix.kind);
    // Scanning queries are reported one by one, with their rates: the
    // definition itself is then not reported again (one problem, one finding).
    let (label, extra) = match cardinality(cx, ix.table, column) {
        Cardinality::High(why) => (
            ("high", "indexes a (nearly) unique column"),
            Some((
                why,
                "a lookup by a unique value without the partition key asks every node for about one row",
            )),
        ),
        Cardinality::Low(why) => (
            ("low", "indexes a column with few values"),
            Some((
                why,
                if ix.sai {
                    "a query by one value without the partition key matches a large share of the table"
                } else {
                    "each value's index partition holds a large share of the table: a query by one value without the partition key reads it from every node"
                },
            )),
        ),
        Cardinality::Unknown => (("", ""), None),
    };
    let cardinality_note = extra.as_ref().map(|(why, _)| why.clone());
    if let Some((why, risk)) = extra
        && let Some(judged) = judge_by_queries(cx, users, scanning)
    {
        out.push(
            out.new_finding(format!(
                "{kind} `{}` on {}-cardinality `{}` of `{name}`: {judged}",
                index.name, label.0, column.name
            ))
            .severity(Severity::Info)
            .at(
                index.origin.file,
                index.origin.span.range(),
                index.origin.span.start,
                label.1,
            )
            .table(name.clone())
            .note(why)
            .note(ix.storage_note)
            .note(risk),
        );
    }
    cardinality_note
}

/// The indexed column updated at `index_update_rate_per_second` or more.
fn report_frequent_updates(
    cx: &Context<'_>,
    queries: &QueryIndex<'_>,
    ix: &Indexed<'_>,
    out: &mut Findings,
) {
    let (table, index, column, name) = (ix.table, ix.index, ix.column, &ix.name);
    let updates: Vec<_> = queries.updates_of(name, &column.name).collect();
    let rate: f64 = updates.iter().filter_map(|u| u.query.rate).sum();
    // Written as the positive test so that a NaN rate reports nothing.
    let frequent = rate >= cx.config.thresholds.index_update_rate_per_second && rate > 0.0;
    if !frequent {
        return;
    }
    let mut who: Vec<String> = updates
        .iter()
        .filter(|u| u.query.rate.is_some())
        .map(|u| u.query.name.clone())
        .collect();
    who.dedup();
    let low = matches!(cardinality(cx, table, column), Cardinality::Low(_));
    let (cql, _, salt) = lookup_fix(table, column, low);
    let batch = maintenance_batch(table, column, salt.as_deref());
    out.push(
        out.new_finding(format!(
            "indexed column `{}` of `{name}` is updated at {}/s ({}): every update replaces an index entry",
            column.name,
            rate,
            crate::listing::capped(&who)
        ))
        .at(
            index.origin.file,
            index.origin.span.range(),
            index.origin.span.start,
            "indexes a frequently updated column",
        )
        .table(name.clone())
        .note(if ix.sai {
            "SAI: every update leaves a stale entry in older SSTables' index segments, filtered at read time until compaction"
        } else {
            "a legacy index deletes the old entry on every update: tombstones pile up in the index partition and reads by that value fail past tombstone_failure_threshold (100,000)"
        })
        .help("query by a column that does not change; if the lookup is needed, maintain a table whose tombstones you can see and compact")
        .fix(
            "a lookup table maintained on change: delete the old entry and insert the new in one logged batch",
            Some(format!("{cql}\n\n{batch}")),
        ),
    );
}

/// Each query that reads through the index without restricting the partition key.
fn report_scanning_queries(
    cx: &Context<'_>,
    ix: &Indexed<'_>,
    scanning: &[&Query],
    cardinality_note: Option<String>,
    out: &mut Findings,
) {
    let (table, index, column, name, kind) = (ix.table, ix.index, ix.column, &ix.name, ix.kind);
    let rows = cx
        .estimate(table)
        .map(|e| e.sizes.total_rows)
        .filter(|r| *r > 0.0);
    for q in scanning {
        let (cql, _, _) = lookup_fix(table, column, false);
        let offline = query_path(q).is_ok_and(|p| p.is_offline());
        let tiny = rows.filter(|r| *r <= TINY_TABLE_ROWS);
        let severity = if offline || tiny.is_some() {
            Severity::Info
        } else {
            Severity::Warning
        };
        let pk: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
        let mut f = out
            .new_finding(format!(
                "`{}` reads through {kind} `{}` without restricting the partition key of `{name}`: every node is asked",
                q.name, index.name
            ))
            .severity(severity)
            .at(q.file, q.span().range(), q.span().start, "scatter to every node")
            .table(name.clone())
            .query(q.name.clone())
            .note(ix.storage_note)
            .note(cardinality_note.clone().unwrap_or_else(|| {
                format!("`{}`: cardinality unknown (a statistics file with `distinct` tells)", column.name)
            }))
            .help(format!(
                "restrict the partition key ({}) so the index searches one partition, or read a lookup table first",
                pk.join(", ")
            ));
        if let Some(rate) = q.rate {
            f = f.note(format!(
                "at {rate}/s, each execution contacts every token range"
            ));
        }
        if offline {
            f = f.note("declared off the application path (`@path`): info");
        }
        if let Some(r) = tiny {
            f = f.note(format!(
                "statistics: {} rows in all, at most {}: a tiny table, every node answers from a small index (info)",
                format_count(r),
                format_count(TINY_TABLE_ROWS)
            ));
        }
        f = f.fix(
            format!(
                "read the key from a lookup table by `{}`, then the row by its key",
                column.name
            ),
            Some(cql),
        );
        out.push(f);
    }
}

/// The lookup table by `column` (salted for a low-cardinality column), and the
/// two reads that replace the index query.
fn lookup_fix(table: &Table, column: &Column, salted: bool) -> (String, String, Option<String>) {
    let lookup_name = derived_table_name(&table.name, &column.name);
    let mut lookup = TableSketch::new(&table.keyspace, &lookup_name);
    lookup.copy_column(table, &column.name);
    let key: Vec<&Column> = table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .collect();
    for c in &key {
        lookup.copy_column(table, &c.name);
    }
    let one_row_per_value = one_row_per_value(table, column) && !salted;
    lookup.partition_key = vec![column.name.clone()];
    let mut description = format!(
        "a lookup table by `{}`, written with the base table",
        column.name
    );
    let mut salt_column = None;
    if salted {
        let salt = lookup.fresh_column_name("bucket");
        lookup.add_column(
            &salt,
            "int",
            Some(format!("salt: hash of the key % {DEFAULT_SALT_BUCKETS}")),
        );
        lookup.partition_key.push(salt.clone());
        salt_column = Some(salt);
        description = format!(
            "a table partitioned by `{}` and a salt ({DEFAULT_SALT_BUCKETS} buckets), written with the base table",
            column.name
        );
    }
    if !one_row_per_value {
        lookup.clustering = key
            .iter()
            .map(|c| (c.name.clone(), cqlmodel_cql::ast::Order::Asc))
            .collect();
    }
    let key_names: Vec<&str> = key.iter().map(|c| c.name.as_str()).collect();
    let pk_names: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
    let mut cql = lookup.cql();
    let qualified_lookup = format!("{}.{}", table.keyspace, lookup_name);
    let filter = if salted {
        format!(
            "{} = ? AND {} IN ?",
            column.name,
            lookup.partition_key.last().map_or("bucket", String::as_str)
        )
    } else {
        format!("{} = ?", column.name)
    };
    cql.push_str(&format!(
        "\nSELECT {} FROM {qualified_lookup} WHERE {filter};\nSELECT * FROM {} WHERE {};",
        key_names.join(", "),
        table.qualified_name(),
        pk_names
            .iter()
            .map(|n| format!("{n} = ?"))
            .collect::<Vec<_>>()
            .join(" AND ")
    ));
    (cql, description, salt_column)
}

/// A lookup table keyed by a unique-like attribute of a table without clustering
/// columns maps one value to one key: `email PRIMARY KEY, user_id`.
fn one_row_per_value(table: &Table, column: &Column) -> bool {
    unique_like(column) && table.clustering_len() == 0
}

/// Keeping a lookup table in step when the attribute changes (`salted`: the lookup
/// table's key carries a `bucket` salt).
pub fn maintenance_batch(table: &Table, column: &Column, salt: Option<&str>) -> String {
    let lookup = format!(
        "{}.{}",
        table.keyspace,
        derived_table_name(&table.name, &column.name)
    );
    let key: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| c.name.as_str())
        .collect();
    let key_eq: Vec<String> = key.iter().map(|k| format!("{k} = :{k}")).collect();
    let mut values: Vec<String> = key.iter().map(|k| format!(":{k}")).collect();
    let mut columns: Vec<&str> = key.clone();
    let mut delete_key = if one_row_per_value(table, column) && salt.is_none() {
        String::new()
    } else {
        format!(" AND {}", key_eq.join(" AND "))
    };
    if let Some(salt) = salt {
        delete_key = format!(" AND {salt} = :{salt}{delete_key}");
        columns.insert(0, salt);
        values.insert(0, format!(":{salt}"));
    }
    format!(
        "BEGIN BATCH  -- logged (the default): all or nothing\n  DELETE FROM {lookup} WHERE {c} = :old_{c}{delete_key};\n  INSERT INTO {lookup} ({c}, {}) VALUES (:new_{c}, {});\n  UPDATE {} SET {c} = :new_{c} WHERE {};\nAPPLY BATCH;",
        columns.join(", "),
        values.join(", "),
        table.qualified_name(),
        key_eq.join(" AND "),
        c = column.name
    )
}
