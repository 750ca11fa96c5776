//! Write paths only rely on rows they can find (issue 10 §3), over every
//! fixture: each read-first step reads a table that is in schema.cql and kept
//! by the entity's own write paths; where the query list does not write the
//! entity, a warning says the rows come from outside it.

use std::path::{Path, PathBuf};

use cqlmodel_design::plan::read_first_sources;
use cqlmodel_design::{DesignInput, design};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = Vec::new();
    for parent in [root.join("../../examples/design"), root.join("tests/data")] {
        let Ok(rd) = std::fs::read_dir(&parent) else {
            continue;
        };
        dirs.extend(
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("model.sql").is_file() && p.join("queries.sql").is_file()),
        );
    }
    dirs.sort();
    dirs
}

#[test]
fn every_read_first_step_reads_a_designed_and_maintained_table() {
    let dirs = fixtures();
    assert!(dirs.len() >= 10, "{dirs:?}");
    let mut checked = 0;
    for dir in dirs {
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let (model, queries, stats) = (
            read("model.sql").unwrap_or_default(),
            read("queries.sql"),
            read("stats.toml"),
        );
        let Ok(d) = design(&DesignInput {
            keyspace: "fx",
            model_sql: &model,
            queries_sql: queries.as_deref(),
            stats_toml: stats.as_deref(),
        }) else {
            continue;
        };
        let schema = d.schema_cql();
        for s in read_first_sources(&d.model, &d.tables, &d.write_paths) {
            checked += 1;
            let table = s.table.as_deref().unwrap_or_else(|| {
                panic!(
                    "{name}: {} reads `{}` first from no table",
                    s.path, s.entity
                )
            });
            assert!(
                schema.contains(&format!("CREATE TABLE IF NOT EXISTS fx.{table} (")),
                "{name}: {} reads `{table}`, not in schema.cql",
                s.path
            );
            if s.kept_by.is_empty() || !s.inserted {
                let warned = d.warnings.iter().any(|w| {
                    w.starts_with(&format!(
                        "{}: reads a `{}` row first from `{table}`",
                        s.path, s.entity
                    ))
                });
                let inferred = d.write_paths.iter().all(|w| w.inferred);
                assert!(
                    warned || (inferred && !s.kept_by.is_empty()),
                    "{name}: {} reads `{table}` (kept by {:?}) with no warning: {:#?}",
                    s.path,
                    s.kept_by,
                    d.warnings
                );
            } else {
                assert!(
                    s.kept_by
                        .iter()
                        .all(|p| d.write_paths.iter().any(|w| w.name == *p
                            && w.entity == s.entity
                            && w.statements.iter().any(|st| st.table == table))),
                    "{name}: {s:?}"
                );
            }
        }
    }
    assert!(checked > 20, "only {checked} read-first sources checked");
}
