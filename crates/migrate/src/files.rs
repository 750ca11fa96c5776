//! The output directory's files: the runbook, the schema scripts of phases 1
//! and 7 named the way migration runners expect, and per rebuilt table its
//! application statements, backfill configurations and verification script.

use serde::Serialize;

use crate::dry_run::DryRun;
use crate::model::{Change, Phase};
use crate::plan::Plan;
use crate::runbook::{RunbookHeader, runbook_with};
use crate::verify::verify_script;

// The layout lives in the model, which the runbook reads too (no files ↔ runbook circle).
pub use crate::model::Layout;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutputFile {
    /// Relative to the output directory, `/`-separated.
    pub path: String,
    pub contents: String,
}

/// Token ranges the verification scripts count over.
pub const VERIFY_RANGES: u32 = 16;

fn slug(c: &Change) -> String {
    let object: String = c
        .object
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() {
                ch.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{}_{object}", c.kind.name())
}

/// `(year, month, day, hour, minute)` of a Unix time (UTC).
pub fn civil(epoch_seconds: u64) -> (i64, u32, u32, u32, u32) {
    let days = i64::try_from(epoch_seconds / 86_400).unwrap_or(0);
    let secs = epoch_seconds % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    let hour = u32::try_from(secs / 3_600).unwrap_or(0);
    let minute = u32::try_from(secs % 3_600 / 60).unwrap_or(0);
    (year, month, day, hour, minute)
}

struct Namer {
    layout: Layout,
    next: usize,
    epoch: u64,
}

impl Namer {
    fn name(&mut self, description: &str) -> String {
        self.next += 1;
        match self.layout {
            Layout::Numbered => format!("{:03}_{description}.cql", self.next),
            Layout::Cqlmigrate => {
                // One minute apart, so that name order is run order.
                let t = self.epoch + 60 * self.next as u64;
                let (y, mo, d, h, mi) = civil(t);
                format!(
                    "{y:04}-{mo:02}-{d:02}-{h:02}:{mi:02}-{}.cql",
                    description.replace('_', "-")
                )
            }
        }
    }
}

/// Every file of the output directory. `epoch_seconds` dates cqlmigrate's names.
pub fn output_files(
    plan: &Plan,
    dry: &DryRun,
    layout: Layout,
    epoch_seconds: u64,
) -> Vec<OutputFile> {
    output_files_with(plan, dry, layout, epoch_seconds, &RunbookHeader::default())
}

/// [`output_files`] with the runbook's header (who generated it, where its files are).
pub fn output_files_with(
    plan: &Plan,
    dry: &DryRun,
    layout: Layout,
    epoch_seconds: u64,
    header: &RunbookHeader,
) -> Vec<OutputFile> {
    let mut out = vec![OutputFile {
        path: "runbook.md".into(),
        contents: runbook_with(plan, dry, layout, header),
    }];
    let mut namer = Namer {
        layout,
        next: 0,
        epoch: epoch_seconds,
    };
    let mut bootstrap = String::new();
    for phase in [Phase::Create, Phase::Drop] {
        let dir = format!("cql/{}-{}", phase.number(), phase.slug());
        for (change, statements) in plan.phase(phase) {
            let mut body = format!("-- {}: {}\n", change.object, change.reason);
            if phase == Phase::Drop {
                body.push_str(
                    "-- Phase 7: run only once nothing reads or writes these objects, after the grace period,\n\
                     -- and after `nodetool snapshot` of the tables (see runbook.md).\n",
                );
            }
            let mut rest = Vec::new();
            for s in statements {
                if layout == Layout::Cqlmigrate && s.starts_with("CREATE KEYSPACE") {
                    bootstrap.push_str(s);
                    bootstrap.push('\n');
                } else {
                    rest.push(s.as_str());
                }
            }
            if rest.is_empty() {
                continue;
            }
            body.push_str(&rest.join("\n"));
            body.push('\n');
            out.push(OutputFile {
                path: format!("{dir}/{}", namer.name(&slug(change))),
                contents: body,
            });
        }
    }
    if !bootstrap.is_empty() {
        out.push(OutputFile {
            path: "cql/1-create/bootstrap.cql".into(),
            contents: bootstrap,
        });
    }
    for r in plan.rebuilds() {
        let base = r.old_table.clone();
        out.push(OutputFile {
            path: format!("backfill/{base}.cdm.properties"),
            contents: r.backfill.cdm_properties.clone(),
        });
        out.push(OutputFile {
            path: format!("backfill/{base}.dsbulk.sh"),
            contents: format!("#!/bin/sh\nset -e\n{}", r.backfill.dsbulk),
        });
        out.push(OutputFile {
            path: format!("backfill/{base}.spark.scala"),
            contents: r.backfill.spark.clone(),
        });
        out.push(OutputFile {
            path: format!("verify/{base}.cql"),
            contents: verify_script(r, VERIFY_RANGES),
        });
        let mut app = format!(
            "-- Application statements for {} (not a migration script: these are the\n\
             -- statements the application runs, phase 2 and phase 5 of runbook.md).\n",
            r.new_table
        );
        for w in r.dual_writes.iter().chain(&r.reads) {
            app.push_str(&format!("\n-- @name {}_v2\n", w.name));
            for n in &w.notes {
                app.push_str(&format!("-- {n}\n"));
            }
            match &w.new {
                Some(s) => app.push_str(&format!("{s}\n")),
                None => app.push_str("-- (cannot be written for the new table: see the notes)\n"),
            }
        }
        out.push(OutputFile {
            path: format!("app/{base}.cql"),
            contents: app,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::civil;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0));
        // 2026-12-03 09:05 UTC
        assert_eq!(civil(1_796_288_700), (2026, 12, 3, 9, 5));
    }
}
