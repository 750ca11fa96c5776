//! The backfill as a Spark Cassandra Connector job (Scala, the connector's RDD
//! API), for tables too large for one DSBulk process. The connector reads a
//! cell's write time and TTL (`"c".writeTime`, `"c".ttl`) and writes one
//! timestamp and one TTL per row (`TimestampOption.perRow`, `TTLOption.perRow`),
//! so, like the DSBulk load, the job copies one regular column per pass, each
//! cell with its own write time: a newer dual-written value always wins.

use std::fmt::Write as _;

use cqlmodel_schema::Table;

use crate::column_map::{ColumnMap, ColumnSource};

/// The row's write time and TTL travel under these names (no CQL column is
/// likely to have them; the connector reads the per-row options from the row).
const WT: &str = "cqlmodel_wt";
const TTL: &str = "cqlmodel_ttl";

/// A Scala string literal.
fn lit(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The Scala expression computing a new key column from the old row `row`.
fn key_value(m: &ColumnMap) -> String {
    match &m.source {
        ColumnSource::Same | ColumnSource::Converted { .. } => {
            format!("row.get[Any]({})", lit(&m.column))
        }
        ColumnSource::Renamed { from } => format!("row.get[Any]({})", lit(from)),
        ColumnSource::Derived { from, expr } if expr.starts_with("todate(") => format!(
            "/* {expr} */ java.time.LocalDate.ofInstant(row.getDate({}).toInstant, java.time.ZoneOffset.UTC)",
            lit(from)
        ),
        ColumnSource::Derived { expr, .. } => format!(
            "/* write {expr} in Scala here */ sys.error({})",
            lit(&format!("cqlmodel: compute {} = {expr} here", m.column))
        ),
        ColumnSource::Unknown => format!(
            "/* the application's function: write it here */ sys.error({})",
            lit(&format!(
                "cqlmodel: no old column gives {}; compute it here",
                m.column
            ))
        ),
    }
}

/// The old columns the key needs (its own and those the new key is computed from).
fn key_sources<'a>(old: &'a Table, columns: &'a [ColumnMap]) -> Vec<&'a str> {
    let mut out: Vec<&str> = old
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| c.name.as_str())
        .collect();
    for m in columns.iter().filter(|m| m.key) {
        if let Some(from) = m.from()
            && !out.contains(&from)
        {
            out.push(from);
        }
    }
    out
}

/// The job's text, or a note when the table holds counters (see the DSBulk load).
pub fn spark_job(old: &Table, ks: &str, new_table: &str, columns: &[ColumnMap]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Backfill {} -> {ks}.{new_table} with the Spark Cassandra Connector (RDD API).\n\
         // Run: spark-shell --packages com.datastax.spark:spark-cassandra-connector_2.12:3.5.1 \\\n\
         //        --conf spark.cassandra.connection.host=localhost \\\n\
         //        --conf spark.cassandra.output.consistency.level=LOCAL_QUORUM \\\n\
         //        -i this-file.scala\n\
         // Start it only once every application instance dual-writes; DUAL_WRITE_START_MICROS\n\
         // (the environment) is when they all did, in microseconds.\n\
         // Checked in Spark local mode against Cassandra 5.0.9 with connector 3.5.1\n\
         // (cqlmodel's scripts/check-spark-jobs.sh --run): each cell keeps its write time and TTL.",
        old.qualified_name()
    );
    if old.is_counter_table() {
        let _ = writeln!(
            s,
            "// A counter table: the connector adds each value to the target counter (no write time,\n\
             // no TTL), so a re-run double-counts. Use the DSBulk counter load (one run, writes to the\n\
             // new table held); no Spark job is written for it."
        );
        return s;
    }
    let _ = writeln!(
        s,
        "import com.datastax.spark.connector._\n\
         import com.datastax.spark.connector.writer._\n\n\
         val source = sc.cassandraTable({}, {})\n\
         val dualWriteStart = sys.env(\"DUAL_WRITE_START_MICROS\").toLong",
        lit(&old.keyspace),
        lit(&old.name)
    );
    write_new_key(&mut s, old, columns);
    let copied: Vec<(&str, &ColumnMap, bool)> = columns
        .iter()
        .filter(|m| !m.key)
        .filter_map(|m| {
            let from = m.from()?;
            let c = old.column(from)?;
            (!c.is_primary_key()).then_some((from, m, c.ty.is_multi_cell()))
        })
        .collect();
    write_copy_function(&mut s, ks, new_table);
    if copied.is_empty() {
        let _ = writeln!(
            s,
            "\n// Only key columns: load the keys at the dual-write start (a delete made since wins).\n\
             source.select(keyColumns: _*)\n\
             \x20 .map(row => CassandraRow.fromMap(newKey(row)))\n\
             \x20 .saveToCassandra({}, {}, SomeColumns(newKeyColumns: _*),\n\
             \x20   writeConf = WriteConf(timestamp = TimestampOption.constant(dualWriteStart)))",
            lit(ks),
            lit(new_table)
        );
        return s;
    }
    s.push('\n');
    for (from, m, multi) in copied {
        let note = if multi {
            " // a non-frozen collection: WRITETIME() refuses it; loaded at the dual-write start, no TTL"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "copy({}, {}, keepTimes = {}){note}",
            lit(from),
            lit(&m.column),
            !multi
        );
    }
    s
}

/// The Scala `newKey` function and the key columns read and written.
fn write_new_key(s: &mut String, old: &Table, columns: &[ColumnMap]) {
    let keys: Vec<&ColumnMap> = columns.iter().filter(|m| m.key).collect();
    let key_entries: Vec<String> = keys
        .iter()
        .map(|m| format!("    {} -> {}", lit(&m.column), key_value(m)))
        .collect();
    let _ = writeln!(
        s,
        "\n// The new table's key, from an old row.\n\
         def newKey(row: CassandraRow): Map[String, Any] = Map(\n{}\n)",
        key_entries.join(",\n")
    );
    let read_keys: Vec<String> = key_sources(old, columns).iter().map(|k| lit(k)).collect();
    let target_keys: Vec<String> = keys.iter().map(|m| lit(&m.column)).collect();
    let _ = writeln!(
        s,
        "val keyColumns = Seq[ColumnRef]({})\n\
         val newKeyColumns = Seq[ColumnRef]({})",
        read_keys.join(", "),
        target_keys.join(", ")
    );
}

/// The Scala `copy` function: one pass copying one column, with its cells' write
/// times and TTLs when `keepTimes`.
fn write_copy_function(s: &mut String, ks: &str, new_table: &str) {
    let _ = writeln!(
        s,
        "\n// One pass per column: the connector writes one timestamp and one TTL per row, so each\n\
         // cell is copied with its own (a newer dual-written value wins). A null cell is skipped:\n\
         // writing it would delete. A value of a changed type is converted by the connector,\n\
         // and a value that does not convert fails its task."
    );
    let _ = writeln!(
        s,
        "def copy(from: String, to: String, keepTimes: Boolean): Unit = {{\n\
         \x20 val times = if (keepTimes) Seq[ColumnRef](from.writeTime as {WT_L}, from.ttl as {TTL_L}) else Seq.empty[ColumnRef]\n\
         \x20 source.select(keyColumns ++ Seq[ColumnRef](from) ++ times: _*)\n\
         \x20   .filter(row => !row.isNullAt(from))\n\
         \x20   .map {{ row =>\n\
         \x20     val times = if (keepTimes) Map[String, Any]({WT_L} -> row.getLong({WT_L}), {TTL_L} -> row.getIntOption({TTL_L}).getOrElse(0)) else Map.empty[String, Any]\n\
         \x20     CassandraRow.fromMap(newKey(row) ++ Map(to -> row.get[Any](from)) ++ times)\n\
         \x20   }}\n\
         \x20   // The per-row options are read from columns the writer selects: without\n\
         \x20   // them in SomeColumns the USING placeholders stay unset (time of the copy, no TTL).\n\
         \x20   .saveToCassandra({}, {}, SomeColumns(newKeyColumns ++ Seq[ColumnRef](to) ++ (if (keepTimes) Seq[ColumnRef]({WT_L}, {TTL_L}) else Seq.empty[ColumnRef]): _*),\n\
         \x20     writeConf = if (keepTimes) WriteConf(ttl = TTLOption.perRow({TTL_L}), timestamp = TimestampOption.perRow({WT_L}))\n\
         \x20                 else WriteConf(timestamp = TimestampOption.constant(dualWriteStart)))\n\
         }}",
        lit(ks),
        lit(new_table),
        WT_L = lit(WT),
        TTL_L = lit(TTL),
    );
}

#[cfg(test)]
mod tests {
    use super::lit;

    #[test]
    fn scala_literals_escape_quotes() {
        assert_eq!(lit("a\"b"), "\"a\\\"b\"");
        assert_eq!(lit("plain"), "\"plain\"");
    }
}
