use std::collections::{HashMap, HashSet};

use cqlmodel_cql::ast::{BatchKind, StatementKind};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{Column, ColumnKind, Table};

use super::column_roles::{
    high_cardinality_by_heuristic, named_like_mutable_attribute, native, unique_like,
};
use super::key_facts::{column_site, statement_table, statements_of};
use super::query_facts::format_rate;
use super::table_cql::{TableSketch, derived_table_name};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::provenance::Attribute;
use crate::query::Query;
use crate::query_index::ColumnUpdate;

declare_rule! {
    /// ## What it does
    /// Finds primary keys that contain an attribute the application changes:
    ///
    /// - with a query list: a primary-key column of one table that an UPDATE of the
    ///   list sets (`SET email = ?`) on another table, where it is a regular column:
    ///   the key holds a denormalized copy of a mutable attribute (same name, same
    ///   type);
    /// - without a query list: a primary-key column named like an attribute that
    ///   changes (`email`, `phone`, `status`, `state`, `balance`, `score`,
    ///   `updated_at`, `last_*`), reported as info (a heuristic).
    ///
    /// When a LOGGED batch of the query list deletes from and inserts into the
    /// table, the application already maintains it the documented way: the finding
    /// is info.
    ///
    /// ## Evidence
    /// With a query list, UPDATEs of the same column on other tables (a warning);
    /// without one, names only (info).
    ///
    /// ## Why is this bad?
    /// A primary key cannot be updated: changing the attribute is a delete of the
    /// old row plus an insert of a new one, in every table that keys by it. Done
    /// separately, a failure between them loses or duplicates the row; two
    /// concurrent changes race (both delete the same old row, both insert, one of
    /// the new rows is an orphan); and each change leaves a tombstone.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE app.users (user_id uuid PRIMARY KEY, email text, name text);
    /// CREATE TABLE app.orders_by_email (email text, order_id timeuuid, amount decimal,
    ///     PRIMARY KEY (email, order_id));
    /// UPDATE app.users SET email = ? WHERE user_id = ?;
    /// ```
    ///
    /// ## Use instead
    /// Key by the immutable id, keep the attribute a regular column, and serve the
    /// attribute's access path from a lookup table maintained on change:
    /// ```cql
    /// CREATE TABLE app.orders_by_user (user_id uuid, order_id timeuuid, amount decimal,
    ///     PRIMARY KEY (user_id, order_id));
    /// CREATE TABLE app.users_by_email (email text PRIMARY KEY, user_id uuid);
    /// BEGIN BATCH  -- logged (the default)
    ///   DELETE FROM app.users_by_email WHERE email = :old_email;
    ///   INSERT INTO app.users_by_email (email, user_id) VALUES (:new_email, :user_id);
    ///   UPDATE app.users SET email = :new_email WHERE user_id = :user_id;
    /// APPLY BATCH;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: conceptual data modeling"
    ///   (keys identify, attributes describe)
    /// - Apache Cassandra documentation, "BATCH" (logged batches keep denormalized
    ///   tables in step)
    pub static MUTABLE_PRIMARY_KEY = {
        code: "CQL020",
        name: "mutable-primary-key",
        severity: Warning,
        summary: "An attribute the application updates is part of a primary key",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let setters_index = Setters::new(cx);
    // Found once: a scan of the query list per key column is quadratic on a
    // design of thousands of tables.
    let maintained_by = maintaining_batches(cx);
    for table in cx.tables().filter(|t| !t.is_view()) {
        let name = table.qualified_name();
        for column in table.columns.iter().filter(|c| c.is_primary_key()) {
            if cx.has_queries {
                let (setters, owner) = setters_index.of(cx, &name, column);
                if setters.is_empty() {
                    continue;
                }
                let maintained = maintained_by.get(name.as_str());
                let who: Vec<String> = setters
                    .iter()
                    .map(|q| match q.rate {
                        Some(r) => format!("{} ({})", q.name, format_rate(r)),
                        None => q.name.clone(),
                    })
                    .collect();
                let mut f = out
                    .new_finding(format!(
                        "`{}` is part of the primary key of `{name}`, and the application changes it: {}",
                        column.name,
                        crate::listing::capped(&who)
                    ))
                    .table(name.clone());
                f = match maintained {
                    Some(batch) => f.severity(Severity::Info).note(format!(
                        "`{batch}` deletes from and inserts into `{name}` in a logged batch: the documented way to move a row; concurrent changes still race"
                    )),
                    None => f.note(
                        "every change must delete the old row and insert a new one here, in step with the UPDATE: a failure in between loses or duplicates the row, and concurrent changes race",
                    ),
                };
                push(table, column, owner, f, out);
            } else if named_like_mutable_attribute(column) {
                let f = out
                    .new_finding(format!(
                        "`{}` looks like an attribute that changes, and it is part of the primary key of `{name}`",
                        column.name
                    ))
                    .severity(Severity::Info)
                    .table(name.clone())
                    .note(format!(
                        "heuristic (no query list): `{}` is named like a mutable attribute; a query list with the UPDATEs decides",
                        column.name
                    ));
                push(table, column, None, f, out);
            }
        }
    }
}

/// The UPDATEs of the query list (positions in
/// [`crate::query_index::QueryIndex::updates`]) by the
/// column they set, and by the attribute that column holds when the producer
/// of the CQL said so ([`crate::provenance::Provenance`]).
struct Setters<'c> {
    updates: &'c [ColumnUpdate<'c>],
    by_column: HashMap<&'c str, Vec<usize>>,
    /// Only with provenance: by column name and attribute (`None`: a column
    /// the provenance does not know).
    by_attribute: HashMap<(&'c str, Option<&'c Attribute>), Vec<usize>>,
}

impl<'c> Setters<'c> {
    fn new(cx: &'c Context<'_>) -> Self {
        let provenance = cx.config.provenance.as_ref();
        let updates = cx.index.updates();
        let mut by_column: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_attribute: HashMap<_, Vec<usize>> = HashMap::new();
        for (i, u) in updates.iter().enumerate() {
            by_column.entry(u.column.as_str()).or_default().push(i);
            if let Some(p) = provenance {
                let attribute = p.attribute(&u.table, &u.column);
                by_attribute
                    .entry((u.column.as_str(), attribute))
                    .or_default()
                    .push(i);
            }
        }
        Self {
            updates,
            by_column,
            by_attribute,
        }
    }

    /// The queries that UPDATE `column` of `table` (`ks.t`) where it is a
    /// regular column of another table, in list order, and the first such
    /// table (the attribute's owner). Cassandra rejects an UPDATE of a key
    /// column, so an UPDATE setting this name is on another table where the
    /// attribute is regular. By name and type, unless the provenance knows the
    /// attribute of both columns: then the same attribute only
    /// (`t5_by_parent.parent_id` is not `t0.parent_id`).
    fn of(
        &self,
        cx: &Context<'c>,
        table: &str,
        column: &Column,
    ) -> (Vec<&'c Query>, Option<&'c Table>) {
        let name = column.name.as_str();
        let known = cx
            .config
            .provenance
            .as_ref()
            .and_then(|p| p.attribute(table, name));
        let mut candidates: Vec<usize> = match known {
            Some(attribute) => [Some(attribute), None]
                .into_iter()
                .filter_map(|a| self.by_attribute.get(&(name, a)))
                .flatten()
                .copied()
                .collect(),
            None => self.by_column.get(name).cloned().unwrap_or_default(),
        };
        candidates.sort_unstable();
        let mut setters: Vec<&'c Query> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        let mut owner: Option<&'c Table> = None;
        for u in candidates.into_iter().filter_map(|i| self.updates.get(i)) {
            if u.table == table {
                continue;
            }
            let same_type = table_by_name(cx, &u.table)
                .and_then(|t| t.column(name))
                .is_some_and(|c| c.ty == column.ty && !c.is_primary_key());
            if same_type && seen.insert(u.query.name.as_str()) {
                setters.push(u.query);
                owner = owner.or_else(|| table_by_name(cx, &u.table));
            }
        }
        (setters, owner)
    }
}

fn table_by_name<'a>(cx: &Context<'a>, qualified: &str) -> Option<&'a Table> {
    let (ks, t) = qualified.split_once('.')?;
    cx.schema.table(ks, t)
}

/// Per table, the first LOGGED batch of the query list that both deletes from
/// and inserts into it.
fn maintaining_batches(cx: &Context<'_>) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for q in cx.queries.iter() {
        let StatementKind::Batch(b) = &q.statement.kind else {
            continue;
        };
        if b.kind != BatchKind::Logged {
            continue;
        }
        let mut deletes = std::collections::HashSet::new();
        let mut inserts = std::collections::HashSet::new();
        for st in statements_of(q) {
            let Some(table) = statement_table(q, st) else {
                continue;
            };
            match st.kind {
                StatementKind::Delete(_) => {
                    deletes.insert(table);
                }
                StatementKind::Insert(_) => {
                    inserts.insert(table);
                }
                _ => {}
            }
        }
        for table in deletes.intersection(&inserts) {
            out.entry(table.clone()).or_insert_with(|| q.name.clone());
        }
    }
    out
}

fn push(
    table: &Table,
    column: &Column,
    owner: Option<&Table>,
    finding: crate::finding::Finding,
    out: &mut Findings,
) {
    let (file, span, start) = column_site(table, column);
    let label = match column.kind {
        ColumnKind::PartitionKey(_) => "a mutable attribute in the partition key",
        _ => "a mutable attribute in the clustering key",
    };
    let (cql, description) = fix(table, column, owner);
    out.push(
        finding
            .at(file, span, start, label)
            .help("a primary key cannot be updated: each change is a delete plus an insert (and a race)")
            .fix(description, Some(cql)),
    );
}

/// The immutable identifier to key by: another key column that looks like an id,
/// else a regular one, else a new `id uuid`.
fn immutable_id<'t>(table: &'t Table, attribute: &Column) -> Option<&'t Column> {
    let id_like = |c: &&Column| {
        c.name != attribute.name
            && !named_like_mutable_attribute(c)
            && high_cardinality_by_heuristic(c)
            && native(&c.ty).is_some()
    };
    table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .find(id_like)
        .or_else(|| {
            table
                .columns
                .iter()
                .filter(|c| !c.is_primary_key())
                .find(id_like)
        })
}

fn fix(table: &Table, attribute: &Column, owner: Option<&Table>) -> (String, String) {
    match owner {
        Some(owner) if owner.partition_key().all(|c| c.name != attribute.name) => {
            fix_with_owner(table, attribute, owner)
        }
        _ => fix_by_own_id(table, attribute),
    }
}

/// The attribute belongs to `owner` (the table the UPDATE sets it on): key `table`
/// by the owner's immutable key instead, and look the owner up by the attribute.
fn fix_with_owner(table: &Table, attribute: &Column, owner: &Table) -> (String, String) {
    let owner_key: Vec<&Column> = owner
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .collect();
    let key_names: Vec<String> = owner_key.iter().map(|c| c.name.clone()).collect();
    let a = &attribute.name;

    let mut rekeyed = TableSketch::of(table);
    rekeyed.name = derived_table_name(&table.name, &key_names.join("_"));
    for c in &owner_key {
        rekeyed.add_column(&c.name, &c.ty.to_string(), None);
    }
    let fresh: Vec<String> = key_names
        .iter()
        .filter(|n| {
            !rekeyed.partition_key.contains(n) && !rekeyed.clustering.iter().any(|(c, _)| c == *n)
        })
        .cloned()
        .collect();
    if let Some(at) = rekeyed.partition_key.iter().position(|n| n == a) {
        rekeyed.partition_key.remove(at);
        for (i, n) in fresh.iter().enumerate() {
            rekeyed.partition_key.insert(at + i, n.clone());
        }
    } else if let Some(at) = rekeyed.clustering.iter().position(|(n, _)| n == a) {
        let (_, order) = rekeyed.clustering.remove(at);
        for (i, n) in fresh.iter().enumerate() {
            rekeyed.clustering.insert(at + i, (n.clone(), order));
        }
    }
    // The owner's key may already sit in the clustering (`PRIMARY KEY (status,
    // order_id)`): with the attribute gone the partition key would be empty,
    // which no CQL accepts. The owner's key then becomes the partition key.
    if rekeyed.partition_key.is_empty() {
        for n in &key_names {
            rekeyed.clustering.retain(|(c, _)| c != n);
            rekeyed.partition_key.push(n.clone());
        }
    }
    rekeyed.header = Some(format!(
        "keyed by `{}` of `{}`, which never changes; `{a}` stays a regular copy",
        key_names.join(", "),
        owner.qualified_name()
    ));

    let lookup_name = derived_table_name(&owner.name, a);
    let mut lookup = TableSketch::new(&owner.keyspace, &lookup_name);
    lookup.add_column(a, &attribute.ty.to_string(), None);
    for c in &owner_key {
        lookup.add_column(&c.name, &c.ty.to_string(), None);
    }
    lookup.partition_key = vec![a.clone()];
    let unique = unique_like(attribute);
    if !unique {
        lookup.clustering = key_names
            .iter()
            .map(|n| (n.clone(), cqlmodel_cql::ast::Order::Asc))
            .collect();
    }
    lookup.header = Some(format!(
        "`{}` by `{a}`, moved on every change",
        owner.qualified_name()
    ));
    let key_eq: Vec<String> = key_names.iter().map(|k| format!("{k} = :{k}")).collect();
    let delete_key = if unique {
        String::new()
    } else {
        format!(" AND {}", key_eq.join(" AND "))
    };
    let lookup_q = format!("{}.{lookup_name}", owner.keyspace);
    let markers: Vec<String> = key_names.iter().map(|k| format!(":{k}")).collect();
    let batch = format!(
        "BEGIN BATCH  -- logged (the default): all or nothing\n  DELETE FROM {lookup_q} WHERE {a} = :old_{a}{delete_key};\n  INSERT INTO {lookup_q} ({a}, {}) VALUES (:new_{a}, {});\n  UPDATE {} SET {a} = :new_{a} WHERE {};\nAPPLY BATCH;",
        key_names.join(", "),
        markers.join(", "),
        owner.qualified_name(),
        key_eq.join(" AND ")
    );
    (
        format!("{}\n\n{}\n\n{batch}", rekeyed.cql(), lookup.cql()),
        format!(
            "key `{}` by `{}` (immutable) instead of `{a}`; serve lookups by `{a}` from a table maintained on change (delete old + insert new in a logged batch)",
            table.qualified_name(),
            key_names.join(", ")
        ),
    )
}

/// No owner known: key the table by its own immutable id, and keep the access path
/// by the attribute in a lookup table.
fn fix_by_own_id(table: &Table, attribute: &Column) -> (String, String) {
    let id = immutable_id(table, attribute);
    let id_name = id.map_or_else(|| "id".to_string(), |c| c.name.clone());
    let id_type = id.map_or_else(|| "uuid".to_string(), |c| c.ty.to_string());

    // The entity, keyed by what never changes; the attribute a regular column.
    let mut entity = TableSketch::new(&table.keyspace, &derived_table_name(&table.name, &id_name));
    entity.add_column(&id_name, &id_type, None);
    for c in &table.columns {
        entity.copy_column(table, &c.name);
    }
    entity.partition_key = vec![id_name.clone()];
    entity.header = Some(format!(
        "keyed by `{id_name}`, which never changes; `{}` is a regular column",
        attribute.name
    ));

    // The access path by the attribute, maintained on change.
    let lookup_name = derived_table_name(&table.name, &attribute.name);
    let mut lookup = TableSketch::new(&table.keyspace, &lookup_name);
    lookup.add_column(&attribute.name, &attribute.ty.to_string(), None);
    lookup.add_column(&id_name, &id_type, None);
    lookup.partition_key = vec![attribute.name.clone()];
    // When the attribute is the whole key, one row per value: the lookup maps a
    // value to one id. Otherwise (orders by status) a value maps to many.
    let unique = table.columns.iter().filter(|c| c.is_primary_key()).count() == 1;
    if !unique {
        lookup.clustering = vec![(id_name.clone(), cqlmodel_cql::ast::Order::Asc)];
    }
    let delete_id = if unique {
        String::new()
    } else {
        format!(" AND {id_name} = :{id_name}")
    };
    lookup.header = Some(format!(
        "the lookup by `{}`, moved on every change",
        attribute.name
    ));
    let a = &attribute.name;
    let entity_name = format!("{}.{}", table.keyspace, entity.name);
    let lookup_q = format!("{}.{lookup_name}", table.keyspace);
    let batch = format!(
        "BEGIN BATCH  -- logged (the default): all or nothing\n  DELETE FROM {lookup_q} WHERE {a} = :old_{a}{delete_id};\n  INSERT INTO {lookup_q} ({a}, {id_name}) VALUES (:new_{a}, :{id_name});\n  UPDATE {entity_name} SET {a} = :new_{a} WHERE {id_name} = :{id_name};\nAPPLY BATCH;"
    );
    (
        format!("{}\n\n{}\n\n{batch}", entity.cql(), lookup.cql()),
        format!(
            "key by the immutable `{id_name}` and keep `{a}` a regular column; serve lookups by `{a}` from a table maintained on change (delete old + insert new in a logged batch)"
        ),
    )
}
