//! A rebuild run with the pair's own write paths (`queries.cql`): rows written to OLD
//! before the migration, then each write path and the twin the plan derived for it run
//! together (dual writes, one client-side write time for both), then a backfill that
//! copies each old cell with its write time and TTL, then the new table compared with the
//! old one through the plan's column mapping (renames, day buckets): values and write
//! times equal, nothing lost, nothing resurrected.

use std::collections::BTreeMap;

use cqlmodel_livetest::{Node, sample_value};
use cqlmodel_migrate::{AppRewrite, ColumnMap, ColumnSource, Rebuild};
use cqlmodel_schema::{Schema, Table};
use scylla::cluster::metadata::ColumnType;
use scylla::statement::Consistency;
use scylla::statement::unprepared::Statement;
use scylla::value::{CqlDate, CqlValue, Row};

/// Rows of each key seed written before the migration, and during the dual writes.
const BEFORE: std::ops::RangeInclusive<u64> = 1..=6;
const DURING: std::ops::RangeInclusive<u64> = 4..=9;
/// The pairs' keyspaces keep their replication factor (3) on the one node: reads and
/// writes of the run use ONE.
fn at_one(cql: &str) -> Statement {
    let mut s = Statement::new(cql);
    s.set_consistency(Consistency::One);
    s
}

/// The first client-side write time (microseconds); each write takes the next one.
const FIRST_WRITE_MICROS: i64 = 1_767_225_600_000_000;

/// What one rebuild run did, for the test's summary line.
#[derive(Debug, Default)]
pub struct RunCount {
    pub old_writes: usize,
    pub twin_writes: usize,
    pub backfilled_cells: usize,
    pub rows_compared: usize,
    /// Write paths not executed, with the reason (an `INSERT … JSON`).
    pub not_run: Vec<String>,
    /// New columns left out of the comparison (a converted type: the values differ by design).
    pub not_compared: Vec<String>,
}

/// The write paths of one rebuild, and the client-side clock the run writes with.
pub struct RebuildRun<'a> {
    pub node: &'a Node,
    pub old_schema: &'a Schema,
    pub rebuild: &'a Rebuild,
    clock: i64,
}

fn split(qualified: &str) -> (&str, &str) {
    qualified.split_once('.').unwrap_or(("", qualified))
}

fn is_delete(cql: &str) -> bool {
    cql.trim_start().to_ascii_uppercase().starts_with("DELETE")
}

fn is_row_delete(cql: &str) -> bool {
    cql.trim_start()
        .to_ascii_uppercase()
        .starts_with("DELETE FROM")
}

/// Whether write path `cql` runs for key seed `seed`: inserts and updates always, a
/// column delete on every second key, a row delete on every third, so that some rows
/// survive, some lose a cell and some disappear.
fn runs_for(cql: &str, seed: u64) -> bool {
    if is_row_delete(cql) {
        seed.is_multiple_of(3)
    } else if is_delete(cql) {
        seed.is_multiple_of(2)
    } else {
        true
    }
}

/// `todate(ts)` of a timestamp value: days since the epoch, as CQL's `date` counts them.
fn to_date(value: &CqlValue) -> Option<CqlValue> {
    let CqlValue::Timestamp(ts) = value else {
        return None;
    };
    let days = ts.0.div_euclid(86_400_000);
    Some(CqlValue::Date(CqlDate(
        (1u32 << 31).wrapping_add_signed(i32::try_from(days).ok()?),
    )))
}

/// The new column's value from an old row (`None`: not derivable here).
fn mapped(m: &ColumnMap, old: &BTreeMap<String, CqlValue>) -> Option<CqlValue> {
    match &m.source {
        ColumnSource::Same => old.get(&m.column).cloned(),
        ColumnSource::Renamed { from } => old.get(from).cloned(),
        ColumnSource::Derived { from, expr } if expr.starts_with("todate(") => {
            to_date(old.get(from)?)
        }
        _ => None,
    }
}

impl<'a> RebuildRun<'a> {
    pub fn new(node: &'a Node, old_schema: &'a Schema, rebuild: &'a Rebuild) -> Self {
        RebuildRun {
            node,
            old_schema,
            rebuild,
            clock: FIRST_WRITE_MICROS,
        }
    }

    fn old_table(&self) -> Result<&'a Table, String> {
        let (ks, t) = split(&self.rebuild.old_table);
        self.old_schema
            .table(ks, t)
            .ok_or_else(|| format!("{} is not in OLD", self.rebuild.old_table))
    }

    fn tick(&mut self) -> i64 {
        self.clock += 1;
        self.clock
    }

    /// Prepares `cql` and executes it at write time `ts` with `value(name, type)` for each
    /// marker.
    async fn execute(
        &self,
        cql: &str,
        ts: i64,
        value: impl Fn(&str, &ColumnType<'_>) -> Option<CqlValue>,
    ) -> Result<BTreeMap<String, CqlValue>, String> {
        let mut prepared = self
            .node
            .session()
            .prepare(cql)
            .await
            .map_err(|e| format!("{cql}\n  prepare: {e}"))?;
        prepared.set_timestamp(Some(ts));
        prepared.set_consistency(Consistency::One);
        let mut given = BTreeMap::new();
        let mut values = Vec::new();
        for spec in prepared.get_variable_col_specs().iter() {
            let v = value(spec.name(), spec.typ())
                .ok_or_else(|| format!("{cql}\n  no value for the marker of {}", spec.name()))?;
            given.insert(spec.name().to_string(), v.clone());
            values.push(Some(v));
        }
        self.node
            .session()
            .execute_unpaged(&prepared, values)
            .await
            .map_err(|e| format!("{cql}\n  execute: {e}"))?;
        Ok(given)
    }

    /// Write path `k` of the old table for key seed `seed`; returns the values by column.
    async fn write_old(
        &self,
        w: &AppRewrite,
        k: usize,
        seed: u64,
        ts: i64,
    ) -> Result<BTreeMap<String, CqlValue>, String> {
        let table = self.old_table()?;
        let value_seed = seed + 37 * (k as u64 + 1);
        self.execute(&w.old, ts, |name, typ| {
            let key = table.column(name).is_some_and(|c| c.is_primary_key());
            Some(sample_value(typ, if key { seed } else { value_seed }))
        })
        .await
    }

    /// The twin of a write path, with the old statement's values through the mapping.
    async fn write_twin(
        &self,
        twin: &str,
        old_values: &BTreeMap<String, CqlValue>,
        seed: u64,
        ts: i64,
    ) -> Result<(), String> {
        let columns = &self.rebuild.columns;
        let derived: Vec<&ColumnMap> = columns
            .iter()
            .filter(|m| matches!(m.source, ColumnSource::Derived { .. }))
            .collect();
        self.execute(twin, ts, |name, typ| {
            match columns.iter().find(|m| m.column == name) {
                Some(
                    m @ ColumnMap {
                        source: ColumnSource::Converted { .. },
                        ..
                    },
                ) => Some(sample_value(typ, seed + m.column.len() as u64)),
                Some(m) => old_values.get(m.from()?).cloned(),
                // A function's argument (`todate(?)`): the one derived key column's source.
                None => match derived.as_slice() {
                    [m] => old_values.get(m.from()?).cloned(),
                    _ => None,
                },
            }
        })
        .await?;
        Ok(())
    }

    /// Rows in OLD before the new table exists: every write path on the old table.
    pub async fn write_before(&mut self, count: &mut RunCount) -> Result<(), String> {
        for seed in BEFORE {
            for (k, w) in self.rebuild.dual_writes.iter().enumerate() {
                if w.old.contains(" JSON ") || !runs_for(&w.old, seed) {
                    continue;
                }
                let ts = self.tick();
                self.write_old(w, k, seed, ts).await?;
                count.old_writes += 1;
            }
        }
        Ok(())
    }

    /// Dual writes: each write path, then its twin, at one write time.
    pub async fn dual_write(&mut self, count: &mut RunCount) -> Result<(), String> {
        for w in &self.rebuild.dual_writes {
            if w.old.contains(" JSON ") {
                count
                    .not_run
                    .push(format!("{} (a JSON document: not generated)", w.name));
            }
        }
        for seed in DURING {
            for (k, w) in self.rebuild.dual_writes.iter().enumerate() {
                if w.old.contains(" JSON ") || !runs_for(&w.old, seed) {
                    continue;
                }
                let ts = self.tick();
                let values = self.write_old(w, k, seed, ts).await?;
                count.old_writes += 1;
                if let Some(twin) = &w.new {
                    self.write_twin(twin, &values, seed, ts).await?;
                    count.twin_writes += 1;
                }
            }
        }
        Ok(())
    }
}

impl RebuildRun<'_> {
    /// The old table's rows: the named expressions' values, in order.
    async fn select(&self, cql: &str) -> Result<Vec<Vec<Option<CqlValue>>>, String> {
        let result = self
            .node
            .session()
            .query_unpaged(at_one(cql), ())
            .await
            .map_err(|e| format!("{cql}\n  {e}"))?;
        let rows = result
            .into_rows_result()
            .map_err(|e| format!("{cql}\n  {e}"))?;
        let typed = rows.rows::<Row>().map_err(|e| format!("{cql}\n  {e}"))?;
        typed
            .map(|r| r.map(|r| r.columns).map_err(|e| format!("{cql}\n  {e}")))
            .collect()
    }

    /// The mapped non-key columns the run copies and compares (a converted type, a
    /// non-frozen collection or an unknown source is left out and recorded).
    fn copied(&self, count: &mut RunCount) -> Result<Vec<&ColumnMap>, String> {
        let table = self.old_table()?;
        let mut out = Vec::new();
        for m in self.rebuild.columns.iter().filter(|m| !m.key) {
            let multi_cell = m
                .from()
                .and_then(|f| table.column(f))
                .is_some_and(|c| c.ty.is_multi_cell());
            match &m.source {
                ColumnSource::Same | ColumnSource::Renamed { .. } if !multi_cell => out.push(m),
                _ => count
                    .not_compared
                    .push(format!("{} ({:?})", m.column, m.source)),
            }
        }
        Ok(out)
    }

    fn old_key_names(&self) -> Result<Vec<String>, String> {
        Ok(self
            .old_table()?
            .columns
            .iter()
            .filter(|c| c.is_primary_key())
            .map(|c| c.name.clone())
            .collect())
    }

    /// The backfill: one pass per copied column, each cell with its write time and TTL,
    /// the new key computed from the old row (what the plan's DSBulk and Spark jobs do).
    pub async fn backfill(&self, count: &mut RunCount) -> Result<(), String> {
        let keys: Vec<&ColumnMap> = self.rebuild.columns.iter().filter(|m| m.key).collect();
        let old_keys = self.old_key_names()?;
        for m in self.copied(count)? {
            let from = m.from().unwrap_or(&m.column);
            let cql = format!(
                "SELECT {}, {from}, writetime({from}), ttl({from}) FROM {}",
                old_keys.join(", "),
                self.rebuild.old_table
            );
            let new_columns: Vec<&str> = keys.iter().map(|k| k.column.as_str()).collect();
            let insert = format!(
                "INSERT INTO {} ({}, {}) VALUES ({}?) USING TIMESTAMP ? AND TTL ?",
                self.rebuild.new_table,
                new_columns.join(", "),
                m.column,
                "?, ".repeat(new_columns.len())
            );
            for row in self.select(&cql).await? {
                let mut old_row = BTreeMap::new();
                for (name, v) in old_keys.iter().chain([&from.to_string()]).zip(&row) {
                    if let Some(v) = v {
                        old_row.insert(name.clone(), v.clone());
                    }
                }
                let Some(value) = old_row.get(from).cloned() else {
                    continue;
                };
                let n = old_keys.len();
                let (Some(Some(wt)), ttl) = (row.get(n + 1), row.get(n + 2)) else {
                    return Err(format!("{cql}: no write time"));
                };
                let ttl = match ttl {
                    Some(Some(t)) => t.clone(),
                    _ => CqlValue::Int(0),
                };
                let mut values = Vec::new();
                for k in &keys {
                    values.push(mapped(k, &old_row).ok_or_else(|| {
                        format!(
                            "key {} of {}: not derivable",
                            k.column, self.rebuild.new_table
                        )
                    })?);
                }
                values.extend([value, wt.clone(), ttl]);
                self.node
                    .session()
                    .query_unpaged(at_one(&insert), values)
                    .await
                    .map_err(|e| format!("{insert}\n  {e}"))?;
                count.backfilled_cells += 1;
            }
        }
        Ok(())
    }

    /// The new table against the old through the mapping: the same rows, values and
    /// write times. Returns the differences.
    pub async fn compare(&self, count: &mut RunCount) -> Result<Vec<String>, String> {
        let mut ignored = RunCount::default();
        let copied = self.copied(&mut ignored)?;
        let keys: Vec<&ColumnMap> = self.rebuild.columns.iter().filter(|m| m.key).collect();
        let old_keys = self.old_key_names()?;
        let from: Vec<&str> = copied
            .iter()
            .map(|m| m.from().unwrap_or(&m.column))
            .collect();
        let mut old_select: Vec<String> = old_keys.clone();
        old_select.extend(from.iter().map(|f| f.to_string()));
        old_select.extend(from.iter().map(|f| format!("writetime({f})")));
        let old_rows = self
            .select(&format!(
                "SELECT {} FROM {}",
                old_select.join(", "),
                self.rebuild.old_table
            ))
            .await?;
        let mut expected = Vec::new();
        for row in old_rows {
            let by_name: BTreeMap<String, CqlValue> = old_keys
                .iter()
                .chain(
                    from.iter()
                        .map(|f| f.to_string())
                        .collect::<Vec<_>>()
                        .iter(),
                )
                .zip(&row)
                .filter_map(|(n, v)| Some((n.clone(), v.clone()?)))
                .collect();
            let mut out: Vec<Option<CqlValue>> = keys.iter().map(|k| mapped(k, &by_name)).collect();
            out.extend(row.into_iter().skip(old_keys.len()));
            expected.push(out);
        }
        let mut new_select: Vec<String> = keys.iter().map(|k| k.column.clone()).collect();
        new_select.extend(copied.iter().map(|m| m.column.clone()));
        new_select.extend(copied.iter().map(|m| format!("writetime({})", m.column)));
        let actual = self
            .select(&format!(
                "SELECT {} FROM {}",
                new_select.join(", "),
                self.rebuild.new_table
            ))
            .await?;
        // A row whose copied cells are all null holds nothing the new table is given.
        let keep = |r: &Vec<Option<CqlValue>>| {
            copied.is_empty()
                || r[keys.len()..keys.len() + copied.len()]
                    .iter()
                    .any(Option::is_some)
        };
        let render = |rows: Vec<Vec<Option<CqlValue>>>| {
            let mut out: Vec<String> = rows
                .into_iter()
                .filter(keep)
                .map(|r| format!("{r:?}"))
                .collect();
            out.sort();
            out
        };
        let (expected, actual) = (render(expected), render(actual));
        count.rows_compared += expected.len();
        let mut problems = Vec::new();
        for e in expected.iter().filter(|e| !actual.contains(e)) {
            problems.push(format!(
                "{}: missing or different in the new table: {e}",
                self.rebuild.new_table
            ));
        }
        for a in actual.iter().filter(|a| !expected.contains(a)) {
            problems.push(format!(
                "{}: not in the old table: {a}",
                self.rebuild.new_table
            ));
        }
        Ok(problems)
    }
}
