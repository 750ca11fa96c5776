//! Verification of a rebuild: row counts per token range when the partition key
//! is unchanged (each range must hold the same rows on both sides), else total
//! counts plus sampled keys looked up on both sides.

use std::fmt::Write as _;

use crate::cql_text::quote;
use crate::rebuild::Rebuild;

/// The Murmur3 ring split into `n` ranges `(start, end]`. No key has the
/// minimum token (Murmur3Partitioner maps it to the maximum), so these cover every key.
pub fn token_ranges(n: u32) -> Vec<(i64, i64)> {
    let n = i128::from(n.max(1));
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    let width = (max - min) / n;
    (0..n)
        .map(|i| {
            let start = min + i * width;
            let end = if i == n - 1 { max } else { start + width };
            (
                i64::try_from(start).unwrap_or(i64::MIN),
                i64::try_from(end).unwrap_or(i64::MAX),
            )
        })
        .collect()
}

fn split(q: &str) -> (&str, &str) {
    q.split_once('.').unwrap_or(("", q))
}

/// The verification script of one rebuild (CQL and tool commands as comments).
pub fn verify_script(r: &Rebuild, ranges: u32) -> String {
    let mut s = String::new();
    let (ks, old) = split(&r.old_table);
    let (_, new) = split(&r.new_table);
    let token = |key: &[String]| {
        format!(
            "token({})",
            key.iter().map(|k| quote(k)).collect::<Vec<_>>().join(", ")
        )
    };
    if r.same_partition_key {
        let _ = writeln!(
            s,
            "-- The partition key is unchanged: every token range must hold as many rows in {new} as in {old}.\n\
             -- Run off-peak at LOCAL_QUORUM with a long request timeout (each count scans its range)."
        );
        for (a, b) in token_ranges(ranges) {
            for table in [old, new] {
                let _ = writeln!(
                    s,
                    "SELECT count(*) FROM {}.{} WHERE {} > {a} AND {} <= {b};",
                    quote(ks),
                    quote(table),
                    token(&r.old_key),
                    token(&r.old_key)
                );
            }
        }
        return s;
    }
    let _ = writeln!(
        s,
        "-- The partition key changes: rows move to other token ranges, so only totals compare.\n\
         -- 1. Row totals must be equal:\n\
         --    dsbulk count -k {ks} -t {old}\n\
         --    dsbulk count -k {ks} -t {new}\n\
         -- 2. Sampled keys: read a page of rows per token range from {old}, compute each row's\n\
         --    new key, and read it back from {new}: values and writetime() must be equal."
    );
    let old_cols: Vec<String> = r
        .columns
        .iter()
        .filter_map(|m| m.from().map(quote))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let _ = writeln!(
        s,
        "SELECT {} FROM {}.{} WHERE {} > ? LIMIT 100;",
        old_cols.join(", "),
        quote(ks),
        quote(old),
        token(&r.old_key)
    );
    let new_cols: Vec<String> = r.columns.iter().map(|m| quote(&m.column)).collect();
    let key_eq: Vec<String> = r
        .columns
        .iter()
        .filter(|m| m.key)
        .map(|m| format!("{} = ?", quote(&m.column)))
        .collect();
    let _ = writeln!(
        s,
        "SELECT {} FROM {}.{} WHERE {};",
        new_cols.join(", "),
        quote(ks),
        quote(new),
        key_eq.join(" AND ")
    );
    s
}

#[cfg(test)]
mod tests {
    use super::token_ranges;

    #[test]
    fn ranges_cover_the_ring() {
        let r = token_ranges(4);
        assert_eq!(r.len(), 4);
        assert_eq!(r[0].0, i64::MIN);
        assert_eq!(r[3].1, i64::MAX);
        assert!(r.windows(2).all(|w| w[0].1 == w[1].0));
    }
}
