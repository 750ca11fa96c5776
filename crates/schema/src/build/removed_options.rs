//! Table options older Cassandra versions accepted and 5.0 rejects. A schema
//! file printed by such a cluster (`DESCRIBE` on 3.11 prints both read-repair
//! chances on every table) describes tables that exist: with
//! [`Settings::removed_options_accepted`](super::Settings) the option is
//! dropped with a warning naming the version that removed it and what replaces
//! it, and the table is built without it.

use std::borrow::Cow;

use cqlmodel_cql::ast::{Property, Span, Statement, StatementKind};

use super::properties as props;
use crate::error::SchemaWarningKind;

/// A removed option: its name, the version that removed it, and what to use instead.
struct Removed {
    option: &'static str,
    removed_in: &'static str,
    instead: &'static str,
}

const REMOVED_OPTIONS: &[Removed] = &[
    Removed {
        option: "read_repair_chance",
        removed_in: "4.0",
        instead: "drop it: background read repair is gone (`read_repair = 'BLOCKING'` is the 4.0+ option), and regular anti-entropy repair keeps replicas in step",
    },
    Removed {
        option: "dclocal_read_repair_chance",
        removed_in: "4.0",
        instead: "drop it: background read repair is gone (`read_repair = 'BLOCKING'` is the 4.0+ option), and regular anti-entropy repair keeps replicas in step",
    },
];

const DATE_TIERED: Removed = Removed {
    option: "compaction class DateTieredCompactionStrategy",
    removed_in: "5.0",
    instead: "TimeWindowCompactionStrategy (deprecated DTCS's replacement since 3.8): `compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}` with a window that gives 20-30 windows over the TTL",
};

/// The statement without the removed options of a CREATE TABLE, and one warning
/// per group of options removed for the same reason (with the first one's span).
pub(crate) fn strip(statement: &Statement) -> (Cow<'_, Statement>, Vec<(SchemaWarningKind, Span)>) {
    let StatementKind::CreateTable(create) = &statement.kind else {
        return (Cow::Borrowed(statement), Vec::new());
    };
    let table = match &create.name.keyspace {
        Some(ks) => format!("{}.{}", ks.value, create.name.name.value),
        None => create.name.name.value.clone(),
    };
    // (reason, option names, span of the first)
    let mut groups: Vec<(&'static Removed, Vec<&'static str>, Span)> = Vec::new();
    let mut kept: Vec<Property> = Vec::new();
    for p in &create.options.properties {
        match removed(p) {
            Some(r) => match groups.iter_mut().find(|(g, _, _)| g.instead == r.instead) {
                Some((_, names, _)) => names.push(r.option),
                None => groups.push((r, vec![r.option], p.span)),
            },
            None => kept.push(p.clone()),
        }
    }
    if groups.is_empty() {
        return (Cow::Borrowed(statement), Vec::new());
    }
    let warnings = groups
        .into_iter()
        .map(|(r, names, span)| {
            let options = names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let kind = SchemaWarningKind::RemovedOption {
                table: table.clone(),
                options,
                removed_in: r.removed_in,
                instead: r.instead,
            };
            (kind, span)
        })
        .collect();
    let mut owned = statement.clone();
    if let StatementKind::CreateTable(c) = &mut owned.kind {
        c.options.properties = kept;
    }
    (Cow::Owned(owned), warnings)
}

fn removed(property: &Property) -> Option<&'static Removed> {
    let name = property.name.value.as_str();
    if let Some(r) = REMOVED_OPTIONS.iter().find(|r| r.option == name) {
        return Some(r);
    }
    if name != "compaction" {
        return None;
    }
    let (map, _) = props::map_property(std::slice::from_ref(property), "compaction").ok()??;
    let class = map.get("class")?;
    let short = class.rsplit('.').next().unwrap_or(class);
    (short == "DateTieredCompactionStrategy").then_some(&DATE_TIERED)
}

#[cfg(test)]
mod tests {
    use crate::build::{SchemaBuilder, Settings};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH read_repair_chance = 0.0 AND dclocal_read_repair_chance = 0.1 AND gc_grace_seconds = 3600;
CREATE TABLE ks.r (k int, ts timestamp, PRIMARY KEY (k, ts)) WITH compaction = {'class': 'DateTieredCompactionStrategy'};";

    fn build(accepted: bool) -> crate::build::SchemaBuild {
        let parsed = cqlmodel_cql::parse(SCHEMA);
        let mut builder = SchemaBuilder::with_settings(Settings {
            removed_options_accepted: accepted,
            ..Settings::default()
        });
        builder.add_statements(0, &parsed.statements);
        builder.finish()
    }

    #[test]
    fn cassandra_5_rejects_the_tables_by_default() {
        let build = build(false);
        assert_eq!(build.errors.len(), 2, "{:?}", build.errors);
        assert!(build.schema.table("ks", "t").is_none());
    }

    #[test]
    fn accepted_removed_options_keep_the_table_with_one_warning_per_reason() {
        let build = build(true);
        assert!(build.errors.is_empty(), "{:?}", build.errors);
        let t = build.schema.table("ks", "t").expect("kept");
        assert_eq!(t.options.gc_grace_seconds, Some(3600));
        assert!(build.schema.table("ks", "r").is_some());
        let messages: Vec<String> = build.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].contains("`read_repair_chance`, `dclocal_read_repair_chance`"));
        assert!(messages[0].contains("removed in Cassandra 4.0"));
        assert!(messages[1].contains("DateTieredCompactionStrategy"));
        assert!(messages[1].contains("TimeWindowCompactionStrategy"));
    }
}
