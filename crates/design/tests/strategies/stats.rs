//! Statistics files for a generated model (`docs/stats.md`): fixed or growing
//! volumes, retention, the cardinality and skew of key columns, query spans.
//! Large volumes and skew push the designer into time buckets and salts.

use super::Draw;
use super::model::{Class, Model};
use super::queries::Read;

pub fn render(d: &mut Draw, model: &Model, reads: &[Read]) -> String {
    let mut out = String::new();
    if d.chance(30) {
        out.push_str("[thresholds]\npartition_bytes = \"100MB\"\npartition_rows = 100_000\n\n");
    }
    for t in &model.tables {
        if !d.chance(75) {
            continue;
        }
        let name = if d.chance(50) {
            format!("\"public.{}\"", t.name)
        } else {
            t.name.clone()
        };
        out.push_str(&format!("[table.{name}]\n"));
        let fixed = if d.chance(50) {
            let rows = *d.pick(&[1_000u64, 1_000_000, 200_000_000]);
            out.push_str(&format!("rows = {rows}\n"));
            Some(rows)
        } else {
            let rate = *d.pick(&["10", "10_000", "0.5"]);
            out.push_str(&format!("rows_per_second = {rate}\n"));
            let retention = *d.pick(&["\"30d\"", "\"unbounded\"", "\"7d\"", "86400"]);
            out.push_str(&format!("retention = {retention}\n"));
            None
        };
        out.push('\n');
        let mut keys: Vec<&String> = Vec::new();
        for c in t
            .primary_key
            .iter()
            .chain(t.foreign_keys.iter().flat_map(|f| &f.columns))
        {
            if !keys.contains(&c) {
                keys.push(c);
            }
        }
        for c in keys {
            let Some(col) = t.column(c) else { continue };
            if col.class == Class::Time || !d.chance(50) {
                continue;
            }
            let distinct = *d.pick(&[10u64, 1_000, 100_000]);
            let distinct = fixed.map_or(distinct, |rows| distinct.min(rows));
            let distribution = *d.pick(&["uniform", "zipf(1.1)", "zipf(0.8)", "sequential"]);
            out.push_str(&format!(
                "[table.{name}.column.{c}]\ndistinct = {distinct}\ndistribution = \"{distribution}\"\n\n"
            ));
        }
    }
    for r in reads {
        if d.chance(20) {
            let span = *d.pick(&["\"24h\"", "\"7d\"", "\"1h\""]);
            out.push_str(&format!("[query.{}]\nspan = {span}\n\n", r.name));
        }
    }
    out
}
