//! A node's `nodetool tablestats` text for the benchmarks: 5,000 tables in the
//! Cassandra 5.0 form, numbers varied by node and table.

use std::fmt::Write;

pub const TABLES: usize = 5_000;
pub const NODES: usize = 12;
const PER_KEYSPACE: usize = 50;

/// One node's tablestats text, its numbers varied by node and table.
pub fn text(node: usize) -> String {
    let mut out = format!("Total number of tables: {TABLES}\n----------------\n");
    for ks in 0..TABLES / PER_KEYSPACE {
        let _ = writeln!(
            out,
            "Keyspace: ks{ks}\n\tRead Count: 1000\n\tRead Latency: 0.5 ms\n\tWrite Count: 2000\n\tWrite Latency: 0.04 ms\n\tPending Flushes: 0"
        );
        for t in 0..PER_KEYSPACE {
            let n = (node * 7919 + ks * 104_729 + t * 31) % 100_000;
            let i = "\t\t";
            let _ = writeln!(out, "{i}Table: t{t}");
            for (label, value) in [
                ("SSTable count", format!("{}", n % 40)),
                ("Old SSTable count", "0".into()),
                ("Max SSTable size", "12.500 MiB".into()),
                ("Space used (live)", format!("{}", n * 1_000_003)),
                ("Space used (total)", format!("{}", n * 1_000_003)),
                ("Space used by snapshots (total)", "0".into()),
                ("Off heap memory used (total)", "4096".into()),
                ("SSTable Compression Ratio", "0.41210".into()),
                ("Number of partitions (estimate)", format!("{}", n * 13)),
                ("Memtable cell count", "1822".into()),
                ("Memtable data size", "91520".into()),
                ("Memtable off heap memory used", "0".into()),
                ("Memtable switch count", "14".into()),
                ("Speculative retries", "0".into()),
                ("Local read count", format!("{}", n * 17)),
                (
                    "Local read latency",
                    format!("{:.3} ms", (n % 997) as f64 / 100.0),
                ),
                ("Local write count", format!("{}", n * 41)),
                ("Local write latency", "0.031 ms".into()),
                ("Local read/write ratio", "0.41463".into()),
                ("Pending flushes", "0".into()),
                ("Percent repaired", "0.0".into()),
                ("Bytes repaired", "0.000KiB".into()),
                ("Bytes unrepaired", "1.250 GiB".into()),
                ("Bytes pending repair", "0.000KiB".into()),
                ("Bloom filter false positives", "0".into()),
                ("Bloom filter false ratio", "0.00000".into()),
                ("Bloom filter space used", "25032".into()),
                ("Bloom filter off heap memory used", "24984".into()),
                ("Index summary off heap memory used", "5102".into()),
                ("Compression metadata off heap memory used", "31200".into()),
                ("Compacted partition minimum bytes", "87".into()),
                (
                    "Compacted partition maximum bytes",
                    format!("{}", n * 3_001),
                ),
                ("Compacted partition mean bytes", format!("{}", n * 13)),
                (
                    "Average live cells per slice (last five minutes)",
                    "11.2".into(),
                ),
                (
                    "Maximum live cells per slice (last five minutes)",
                    "50".into(),
                ),
                (
                    "Average tombstones per slice (last five minutes)",
                    "NaN".into(),
                ),
                (
                    "Maximum tombstones per slice (last five minutes)",
                    format!("{}", n % 3000),
                ),
                ("Droppable tombstone ratio", "0.00000".into()),
            ] {
                let _ = writeln!(out, "{i}{label}: {value}");
            }
            out.push('\n');
        }
        out.push_str("----------------\n");
    }
    out
}
