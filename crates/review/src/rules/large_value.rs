use crate::stats::ColumnStats;
use crate::stats::type_bytes;
use crate::stats::{format_bytes, format_count};
use cqlmodel_cql::ast::Order;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{Column, Table};

use super::column_roles::{native, words};
use super::key_facts::{Change, QueryIndex, bytes_text, column_site};
use super::table_cql::TableSketch;
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds values that are, or can become, large:
    ///
    /// - `blob` columns: a warning when the names say files or documents (a
    ///   heuristic) and nothing bounds their size; info when the statistics file
    ///   says they are small (`max_size`, `p99_size` or `avg_size` at most
    ///   `large_value_bytes`, default 1 MiB), the name says so (`hash`, `digest`,
    ///   `checksum`, `signature`, `nonce`), the value is already chunked, or
    ///   nothing is known (a question: serialized records, ids and tokens are
    ///   small); any column whose statistics size is over
    ///   `large_value_bytes` is a warning, and over 16 MiB an error (Cassandra's
    ///   default `max_mutation_size`, half of the 32 MiB `commitlog_segment_size`,
    ///   rejects the write);
    /// - non-frozen collections expected to grow large: by statistics (elements ×
    ///   element size over `large_value_bytes`, or more than `collection_elements`
    ///   elements, default 1,000), or appended to by the query list
    ///   (`SET l = l + ?`, `SET l = ? + l`). List appends are a warning; set and map
    ///   additions without statistics are info;
    /// - non-frozen collections of blobs (`map<k, blob>`, `list<blob>`,
    ///   `set<blob>`): payloads hidden in cells the row reads whole, a warning.
    ///
    /// ## Evidence
    /// - Statistics (`max_size`, `p99_size`, `avg_size`, `max_elements`,
    ///   `element_size`) decide sizes.
    /// - Without them, a blob is a warning only when the names say it holds files
    ///   or documents (`file`, `image`, `attachment`, `document`, `firmware`,
    ///   `snapshot`, `content`, `body`... in the column or table name, or a
    ///   `content_type`, `mime_type` or `file_name` column beside it); a blob
    ///   already cut into chunks (a `chunk`/`part`/`segment` clustering column) or
    ///   named like a hash, key or token is info; any other blob is a question
    ///   (info).
    /// - A non-frozen collection of blobs (`map<k, blob>`, `list<blob>`,
    ///   `set<blob>`) holds payloads read whole with the row: a warning.
    /// - The query list's appends (`l = l + ?`) for growing collections.
    ///
    /// ## Why is this bad?
    /// A large value is read, written, compacted and repaired whole: a few MB per
    /// cell pressure the heap, stretch GC pauses and make reads of the row slow
    /// even when the application needs another column. A non-frozen collection is
    /// read whole on every read of the column, and stores one cell per element:
    /// with every append the row grows, without bound. List appends are not
    /// idempotent either: a retried `l = l + ['x']` appends twice.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE app.documents (doc_id uuid PRIMARY KEY, name text, content blob);
    /// CREATE TABLE app.timelines (user_id uuid PRIMARY KEY, events list<text>);
    /// UPDATE app.timelines SET events = events + ? WHERE user_id = ?;
    /// ```
    ///
    /// ## Use instead
    /// Keep large objects in an object store and their reference in Cassandra;
    /// bound a collection, or model its elements as clustering rows:
    /// ```cql
    /// CREATE TABLE app.documents (doc_id uuid PRIMARY KEY, name text,
    ///     content_ref text, content_size bigint);
    /// CREATE TABLE app.timelines_events (user_id uuid, position timeuuid, value text,
    ///     PRIMARY KEY (user_id, position));
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Collections" (keep collections small;
    ///   non-frozen collections are read whole)
    /// - `cassandra.yaml`: `max_mutation_size`, `commitlog_segment_size`
    /// - DataStax, "Anti-patterns: large values and blobs"
    pub static LARGE_VALUE = {
        code: "CQL013",
        name: "large-value",
        severity: Warning,
        summary: "Blob columns and non-frozen collections that can grow large",
        check: check,
    };
}

/// Cassandra's default `max_mutation_size`: half of the 32 MiB commit log segment.
const MAX_MUTATION_BYTES: f64 = 16.0 * 1024.0 * 1024.0;

const SMALL_BLOB_WORDS: &[&str] = &[
    "hash",
    "digest",
    "checksum",
    "crc",
    "signature",
    "sig",
    "nonce",
    "iv",
    "salt",
    "fingerprint",
    "mac",
    "hmac",
    "key",
    "id",
    "uuid",
    "token",
];

fn check(cx: &Context<'_>, out: &mut Findings) {
    let index = &cx.index;
    for table in cx.tables().filter(|t| !t.is_view()) {
        for column in table.columns.iter().filter(|c| !c.is_primary_key()) {
            let stats = cx.table_stats(table).and_then(|s| s.column(&column.name));
            if column.ty.is_collection() && column.ty.is_multi_cell() {
                check_collection(cx, index, table, column, stats, out);
            } else {
                check_value(cx, table, column, stats, out);
            }
        }
    }
}

fn declared_size(stats: Option<&ColumnStats>) -> Option<f64> {
    let s = stats?;
    s.max_size.or(s.p99_size).or(s.avg_size)
}

fn check_value(
    cx: &Context<'_>,
    table: &Table,
    column: &Column,
    stats: Option<&ColumnStats>,
    out: &mut Findings,
) {
    let is_blob = native(&column.ty) == Some(NativeType::Blob);
    let limit = cx.config.thresholds.large_value_bytes as f64;
    let size = declared_size(stats);
    let (severity, message, why) = match size {
        Some(s) if s > MAX_MUTATION_BYTES => (
            Severity::Error,
            format!(
                "`{}` of `{}` holds values up to {}: writes over max_mutation_size (16 MiB by default) are rejected",
                column.name,
                table.qualified_name(),
                format_bytes(s)
            ),
            format!("statistics: `{}` up to {}", column.name, format_bytes(s)),
        ),
        Some(s) if s > limit => (
            Severity::Warning,
            format!(
                "`{}` of `{}` holds large values (up to {})",
                column.name,
                table.qualified_name(),
                format_bytes(s)
            ),
            format!(
                "statistics: `{}` up to {}, over the {} of `large_value_bytes`",
                column.name,
                format_bytes(s),
                bytes_text(cx.config.thresholds.large_value_bytes)
            ),
        ),
        Some(s) if is_blob => (
            Severity::Info,
            format!(
                "blob `{}` of `{}` is small by the statistics (up to {}): fine inline",
                column.name,
                table.qualified_name(),
                format_bytes(s)
            ),
            format!(
                "statistics: `{}` up to {}; keep it under {}",
                column.name,
                format_bytes(s),
                bytes_text(cx.config.thresholds.large_value_bytes)
            ),
        ),
        None if is_blob => blob_without_size(table, column),
        _ => return,
    };
    let (file, span, start) = column_site(table, column);
    let mut f = out
        .new_finding(message)
        .severity(severity)
        .at(file, span, start, "a value read and compacted whole")
        .table(table.qualified_name())
        .note(why);
    if severity != Severity::Info {
        f = f
            .note("a cell is read, compacted, repaired and streamed whole: multi-MB cells pressure the heap and slow every read of the row")
            .help("alternatively, split the value into chunks of 64 KB to 1 MB in a table keyed by (id, chunk)");
        let mut sketch = TableSketch::of(table);
        let reference = sketch.fresh_column_name(&format!("{}_ref", column.name));
        let size_col = sketch.fresh_column_name(&format!("{}_size", column.name));
        sketch.columns.retain(|c| c.name != column.name);
        sketch.add_column(&reference, "text", Some("object store key or URL".into()));
        sketch.add_column(&size_col, "bigint", Some("bytes".into()));
        f = f.fix(
            format!(
                "store the value in an object store (S3, GCS, a blob store) and keep its reference in place of `{}`",
                column.name
            ),
            Some(sketch.cql()),
        );
    }
    out.push(f);
}

/// Words that say a value is a file, an image or a document body.
const FILE_WORDS: &[&str] = &[
    "file",
    "files",
    "image",
    "images",
    "img",
    "photo",
    "picture",
    "pic",
    "avatar",
    "thumbnail",
    "attachment",
    "document",
    "doc",
    "pdf",
    "video",
    "audio",
    "media",
    "firmware",
    "binary",
    "archive",
    "upload",
    "snapshot",
    "content",
    "body",
];

/// Sibling columns that describe a file (its name, type or size).
const FILE_SIBLINGS: &[&str] = &[
    "content_type",
    "mime_type",
    "file_name",
    "filename",
    "file_size",
    "media_type",
];

/// Clustering words that cut a value into pieces.
const CHUNK_WORDS: &[&str] = &["chunk", "part", "piece", "block", "segment", "slice"];

/// A blob the statistics do not size: small by name, chunked by the key, a file
/// by the names around it (a warning), or else a question (info).
fn blob_without_size(table: &Table, column: &Column) -> (Severity, String, String) {
    let name = table.qualified_name();
    let has = |text: &str, list: &[&str]| words(text).iter().any(|w| list.contains(&w.as_str()));
    if has(&column.name, SMALL_BLOB_WORDS) {
        return (
            Severity::Info,
            format!(
                "blob `{}` of `{name}` is probably small (a hash, key or signature by its name)",
                column.name
            ),
            format!(
                "heuristic: `{}` is named like a fixed-size binary value; a statistics file with `max_size` confirms it",
                column.name
            ),
        );
    }
    if let Some(chunk) = table.clustering().find(|c| has(&c.name, CHUNK_WORDS)) {
        return (
            Severity::Info,
            format!(
                "blob `{}` of `{name}` is stored in chunks (`{}` in the key): keep each chunk under 1 MB",
                column.name, chunk.name
            ),
            format!(
                "`{}` is a clustering column: one value is cut into rows, each read and compacted on its own",
                chunk.name
            ),
        );
    }
    let file_name = has(&column.name, FILE_WORDS) || has(&table.name, FILE_WORDS);
    let sibling = table
        .columns
        .iter()
        .find(|c| FILE_SIBLINGS.contains(&c.name.to_ascii_lowercase().as_str()));
    if file_name || sibling.is_some() {
        let evidence = match sibling {
            Some(s) => format!("`{}` beside it describes a file", s.name),
            None => format!(
                "the names (`{}`, `{}`) say file, image or document",
                table.name, column.name
            ),
        };
        return (
            Severity::Warning,
            format!(
                "blob `{}` of `{name}` holds files or documents inline: multi-MB cells",
                column.name
            ),
            format!(
                "heuristic: {evidence}; nothing bounds its size (a statistics file with `max_size` decides)"
            ),
        );
    }
    (
        Severity::Info,
        format!(
            "how large can blob `{}` of `{name}` get? Nothing in the schema bounds it",
            column.name
        ),
        format!(
            "a question, not a finding: serialized records, ids and tokens are small; files and documents are not. A statistics file with `max_size` for `{}` decides (over {} it is a warning)",
            column.name,
            bytes_text(1024 * 1024)
        ),
    )
}

fn element_bytes(ty: &CqlType) -> f64 {
    match ty {
        CqlType::List { element, .. } | CqlType::Set { element, .. } => type_bytes(element).0,
        CqlType::Map { key, value, .. } => type_bytes(key).0 + type_bytes(value).0,
        other => type_bytes(other).0,
    }
}

/// What a finding on a large value says: its severity, message and why.
type Verdict = (Severity, String, String);

fn check_collection(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
    column: &Column,
    stats: Option<&ColumnStats>,
    out: &mut Findings,
) {
    let name = table.qualified_name();
    let Some((severity, message, why)) = collection_verdict(cx, index, &name, column, stats) else {
        return;
    };
    let (file, span, start) = column_site(table, column);
    let mut f = out
        .new_finding(message)
        .severity(severity)
        .at(file, span, start, "one cell per element, read whole")
        .table(name.clone())
        .note(why)
        .note("a non-frozen collection stores one cell per element and is read whole with its row");
    if severity != Severity::Info {
        f = f.help("bound it (trim old elements, cap the size in the application), or model the elements as clustering rows");
        f = f.fix(
            format!(
                "model the elements of `{}` as clustering rows of their own table",
                column.name
            ),
            Some(rows_table(table, column).cql()),
        );
    }
    out.push(f);
}

/// The queries that update `column` of table `name` (only those that add or
/// prepend elements when `growing`), each named once in a run.
fn updaters(index: &QueryIndex<'_>, name: &str, column: &Column, growing: bool) -> Vec<String> {
    let mut names: Vec<String> = index
        .updates_of(name, &column.name)
        .filter(|u| !growing || matches!(u.change, Change::Add | Change::Prepend))
        .map(|u| u.query.name.clone())
        .collect();
    names.dedup();
    names
}

/// Whether a non-frozen collection is large, first by statistics, then by blob
/// elements, then by the queries that grow it; `None` when nothing says so.
fn collection_verdict(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    name: &str,
    column: &Column,
    stats: Option<&ColumnStats>,
) -> Option<Verdict> {
    let is_list = matches!(column.ty, CqlType::List { .. });
    let growers = updaters(index, name, column, true);
    let thresholds = &cx.config.thresholds;
    let elements = stats.and_then(|s| s.max_elements.or(s.avg_elements));
    let element = stats
        .and_then(|s| s.element_size)
        .unwrap_or_else(|| element_bytes(&column.ty));
    let by_stats = elements.map(|n| (n, n * element)).filter(|(n, bytes)| {
        *n > thresholds.collection_elements as f64 || *bytes > thresholds.large_value_bytes as f64
    });
    if let Some((n, bytes)) = by_stats {
        Some((
            Severity::Warning,
            format!(
                "collection `{}` of `{name}` grows large: up to {} elements, {}",
                column.name,
                format_count(n),
                format_bytes(bytes)
            ),
            format!(
                "statistics: {} elements × {} (limits: {} elements, {})",
                format_count(n),
                format_bytes(element),
                format_count(thresholds.collection_elements as f64),
                bytes_text(thresholds.large_value_bytes)
            ),
        ))
    } else if let Some(kind) = blob_elements(&column.ty).filter(|_| elements.is_none()) {
        let writers = updaters(index, name, column, false);
        let written = if writers.is_empty() {
            String::new()
        } else {
            format!(
                ", written element by element ({})",
                crate::listing::capped(&writers)
            )
        };
        Some((
            Severity::Warning,
            format!(
                "non-frozen {kind} `{}` of `{name}` holds blob payloads{written}: every read of the column reads them all",
                column.name
            ),
            format!(
                "heuristic: blob elements are payloads of unbounded size, and nothing bounds their number; a statistics file with `max_elements` and `element_size` for `{}` decides",
                column.name
            ),
        ))
    } else if is_list && !growers.is_empty() {
        Some((
            Severity::Warning,
            format!(
                "list `{}` of `{name}` is appended to ({}): it grows without bound, one cell per element",
                column.name,
                crate::listing::capped(&growers)
            ),
            "a list append is not idempotent: a retried `l = l + ?` appends twice (lists also read whole, and a positional update or delete reads the list first)".to_string(),
        ))
    } else if !growers.is_empty() && elements.is_none() {
        Some((
            Severity::Info,
            format!(
                "collection `{}` of `{name}` is added to ({}): nothing bounds its size",
                column.name,
                crate::listing::capped(&growers)
            ),
            format!(
                "heuristic: additions without removals grow the collection; a statistics file with `max_elements` sizes `{}`",
                column.name
            ),
        ))
    } else {
        None
    }
}

/// "map", "list" or "set" when the collection's values are blobs.
fn blob_elements(ty: &CqlType) -> Option<&'static str> {
    let blob = |t: &CqlType| native(t) == Some(NativeType::Blob);
    match ty {
        CqlType::Map { value, .. } if blob(value) => Some("map"),
        CqlType::List { element, .. } if blob(element) => Some("list"),
        CqlType::Set { element, .. } if blob(element) => Some("set"),
        _ => None,
    }
}

/// The collection's elements as rows: the table's key, then the element.
fn rows_table(table: &Table, column: &Column) -> TableSketch {
    let mut sketch = TableSketch::new(&table.keyspace, &format!("{}_{}", table.name, column.name));
    for c in table.columns.iter().filter(|c| c.is_primary_key()) {
        sketch.copy_column(table, &c.name);
    }
    sketch.partition_key = table.partition_key().map(|c| c.name.clone()).collect();
    sketch.clustering = table
        .clustering()
        .map(|c| (c.name.clone(), Order::Asc))
        .collect();
    match &column.ty {
        CqlType::List { element, .. } => {
            let pos = sketch.fresh_column_name("position");
            sketch.add_column(&pos, "timeuuid", Some("append order".into()));
            let value = sketch.fresh_column_name("value");
            sketch.add_column(&value, &element.to_string(), None);
            sketch.clustering.push((pos, Order::Asc));
        }
        CqlType::Set { element, .. } => {
            let value = sketch.fresh_column_name("value");
            sketch.add_column(&value, &element.to_string(), None);
            sketch.clustering.push((value, Order::Asc));
        }
        CqlType::Map { key, value, .. } => {
            let k = sketch.fresh_column_name("key");
            sketch.add_column(&k, &key.to_string(), None);
            let v = sketch.fresh_column_name("value");
            sketch.add_column(&v, &value.to_string(), None);
            sketch.clustering.push((k, Order::Asc));
        }
        other => {
            let value = sketch.fresh_column_name("value");
            sketch.add_column(&value, &other.to_string(), None);
        }
    }
    sketch
}
