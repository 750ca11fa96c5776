use std::collections::HashMap;

use cqlmodel_cql::ast::StatementKind;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{Column, ColumnKind, Table};

use super::column_roles::{names_a_person, words};
use super::key_facts::QueryIndex;
use super::query_facts::format_rate;
use super::table_cql::TableSketch;
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds writes copied into one partition per reader: a table keyed by a
    /// person (`user_id`, `follower_id`, `member_id`, `subscriber_id`) whose
    /// rows carry an item written elsewhere (a `post_id` that is the key of
    /// `posts`), written by the query list once per follower, member or
    /// subscriber of the item's author (fan-out on write).
    ///
    /// ## Evidence
    /// The query list: the table is written, and so is the table the item
    /// comes from. With `@rate` on both writes the mean fan-out is their ratio
    /// (15,000 deliveries/s for 300 posts/s is 50 copies per post): a warning
    /// from 2 copies per item. Without rates, a key named `follower_id`,
    /// `subscriber_id`, `member_id` or `recipient_id` leaves little doubt (a
    /// warning); a key named only `user_id` is a question (info) that `@rate`
    /// on both writes decides.
    ///
    /// ## Why is this bad?
    /// One logical write becomes N writes, N being the author's audience: the
    /// mean is affordable, the bound is not. An author with a million followers
    /// turns one post into a million writes, all at once, which queue behind
    /// each other and arrive late, and every copy is storage and compaction.
    ///
    /// ## Example
    /// ```cql
    /// -- @name publish @rate 300/s
    /// INSERT INTO social.posts (post_id, author_id, body) VALUES (?, ?, ?);
    /// -- @name deliver @rate 15000/s
    /// INSERT INTO social.feed_by_user (user_id, post_time, post_id, author_id) VALUES (?, ?, ?, ?);
    /// ```
    ///
    /// ## Use instead
    /// Bound the fan-out and go hybrid: push copies only for authors under a
    /// follower threshold (say 10,000); the posts of authors above it are
    /// stored once, by author, and merged into the reader's feed at read time:
    /// ```cql
    /// CREATE TABLE social.posts_by_author (
    ///     author_id uuid, post_time timestamp, post_id timeuuid,
    ///     PRIMARY KEY (author_id, post_time, post_id)
    /// ) WITH CLUSTERING ORDER BY (post_time DESC, post_id ASC);
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: defining application queries" (denormalization cost)
    /// - The fan-out-on-write versus fan-out-on-read trade-off of timeline services (hybrid for high-follower accounts)
    pub static WRITE_FAN_OUT = {
        code: "CQL024",
        name: "write-fan-out",
        severity: Warning,
        summary: "A write copied into one partition per follower, member or subscriber",
        check: check,
    };
}

/// Key words that say the partition is one per member of an audience.
const AUDIENCE_WORDS: &[&str] = &[
    "follower",
    "subscriber",
    "member",
    "recipient",
    "watcher",
    "fan",
];

/// Copies per item from which the ratio of rates is a fan-out.
const FAN_OUT_RATIO: f64 = 2.0;

/// The follower threshold the hybrid fix names.
const HYBRID_THRESHOLD: &str = "10,000";

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    let index = &cx.index;
    // Tables by the name of their single partition-key column: an item's home.
    let mut homes: HashMap<&str, Vec<&Table>> = HashMap::new();
    for t in cx.tables().filter(|t| !t.is_view()) {
        let mut pk = t.partition_key();
        if let (Some(c), None) = (pk.next(), pk.next()) {
            homes.entry(c.name.as_str()).or_default().push(t);
        }
    }
    for table in cx.tables().filter(|t| !t.is_view()) {
        let mut pk = table.partition_key();
        let (Some(reader), None) = (pk.next(), pk.next()) else {
            continue;
        };
        if !names_a_person(reader) {
            continue;
        }
        let copies = inserts(index, &table.qualified_name());
        if copies.is_empty() {
            continue;
        }
        let Some((item, home)) = item_home(table, &homes, index) else {
            continue;
        };
        let origin = inserts(index, &home.qualified_name());
        report(cx, out, table, reader, item, home, &copies, &origin);
    }
}

/// The names and rates of the INSERTs into `table`.
fn inserts<'a>(index: &QueryIndex<'a>, table: &str) -> Vec<(&'a str, Option<f64>)> {
    index
        .writes_to(table)
        .iter()
        .filter(|(_, s)| matches!(s.kind, StatementKind::Insert(_)))
        .map(|(q, _)| (q.name.as_str(), q.rate))
        .collect()
}

/// A non-partition column of `table` that is the whole partition key of another
/// table the query list inserts into: the item the rows copy.
fn item_home<'t>(
    table: &'t Table,
    homes: &HashMap<&str, Vec<&'t Table>>,
    index: &QueryIndex<'_>,
) -> Option<(&'t Column, &'t Table)> {
    table
        .columns
        .iter()
        .filter(|c| !matches!(c.kind, ColumnKind::PartitionKey(_)))
        .find_map(|c| {
            let home = homes.get(c.name.as_str())?.iter().find(|h| {
                h.qualified_name() != table.qualified_name()
                    && h.keyspace == table.keyspace
                    && !inserts(index, &h.qualified_name()).is_empty()
            })?;
            Some((c, *home))
        })
}

fn total_rate(writes: &[(&str, Option<f64>)]) -> Option<f64> {
    writes.iter().map(|(_, r)| *r).sum()
}

#[allow(clippy::too_many_arguments)]
fn report(
    cx: &Context<'_>,
    out: &mut Findings,
    table: &Table,
    reader: &Column,
    item: &Column,
    home: &Table,
    copies: &[(&str, Option<f64>)],
    origin: &[(&str, Option<f64>)],
) {
    let audience = words(&reader.name)
        .iter()
        .any(|w| AUDIENCE_WORDS.contains(&w.as_str()));
    let ratio = match (total_rate(copies), total_rate(origin)) {
        (Some(c), Some(o)) if o > 0.0 => Some((c / o, c, o)),
        _ => None,
    };
    let severity = match ratio {
        Some((r, ..)) if r >= FAN_OUT_RATIO => Severity::Warning,
        Some(_) => return,
        None if audience => Severity::Warning,
        None => Severity::Info,
    };
    let names = |w: &[(&str, Option<f64>)]| {
        let quoted: Vec<String> = w.iter().map(|(n, _)| format!("`{n}`")).collect();
        crate::listing::capped(&quoted)
    };
    let message = format!(
        "fan-out on write: every `{}` written to `{}` is copied into one `{}` partition per reader",
        item.name,
        home.qualified_name(),
        table.qualified_name()
    );
    let evidence = match ratio {
        Some((r, c, o)) => format!(
            "{} at {} against {} at {}: {r:.0} copies per item on average",
            names(copies),
            format_rate(c),
            names(origin),
            format_rate(o)
        ),
        None if audience => format!(
            "the partition key `{}` names a member of an audience; `@rate` on {} and {} would give the mean fan-out",
            reader.name,
            names(copies),
            names(origin)
        ),
        None => format!(
            "a question: `{}` is keyed by a person and copies `{}` of `{}`; `@rate` on {} and {} decides it (a warning from {FAN_OUT_RATIO:.0} copies per item)",
            table.qualified_name(),
            item.name,
            home.qualified_name(),
            names(copies),
            names(origin)
        ),
    };
    let site = super::key_facts::column_site(table, reader);
    let mut f = out
        .new_finding(message)
        .severity(severity)
        .at(site.0, site.1, site.2, "one partition per reader")
        .table(table.qualified_name())
        .note(evidence)
        .note(format!(
            "the bound is the largest audience, not the mean: an author with 1,000,000 readers makes one `{}` write 1,000,000 writes, queued behind each other and delivered late",
            item.name
        ));
    if let Some((first, _)) = copies.first() {
        f = f.query(first.to_string());
    }
    f = match hybrid_table(cx, table, reader, home) {
        Some((author, cql)) => f.fix(
            format!(
                "bound the fan-out: copy only for authors under {HYBRID_THRESHOLD} readers; store the items of larger authors once, by `{author}`, and merge them into the page at read time (hybrid)"
            ),
            Some(cql),
        ),
        None => f.help(format!(
            "bound the fan-out: copy only for authors under {HYBRID_THRESHOLD} readers and read the items of larger ones from `{}` at read time (hybrid)",
            home.qualified_name()
        )),
    };
    out.push(f);
}

/// The by-author table of the hybrid: the copied table's clustering under the
/// other person column (`author_id`), when it has one.
fn hybrid_table(
    cx: &Context<'_>,
    table: &Table,
    reader: &Column,
    home: &Table,
) -> Option<(String, String)> {
    let author = table
        .columns
        .iter()
        .find(|c| c.name != reader.name && !c.is_primary_key() && names_a_person(c))?;
    let stem = author.name.strip_suffix("_id").unwrap_or(&author.name);
    let name = format!("{}_by_{stem}", home.name);
    if cx.schema.table(&table.keyspace, &name).is_some() {
        return None;
    }
    let mut sketch = TableSketch::new(&table.keyspace, &name);
    sketch.copy_column(table, &author.name);
    for c in table.clustering() {
        sketch.copy_column(table, &c.name);
    }
    sketch.partition_key = vec![author.name.clone()];
    sketch.clustering = table
        .clustering()
        .filter_map(|c| match c.kind {
            ColumnKind::Clustering(_, order) => Some((c.name.clone(), order)),
            _ => None,
        })
        .collect();
    Some((author.name.clone(), sketch.cql()))
}
