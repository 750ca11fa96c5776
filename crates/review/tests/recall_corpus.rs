//! The recall corpus (issue 11): models of applications as a team new to
//! Cassandra first writes them, flaws included, with the query list the
//! application runs. `expected.toml` beside each lists what an expert flags
//! (`[[flag]]`: rule, table or query, lowest acceptable severity) and what must
//! stay quiet (`[[quiet]]`: no warning or error of that rule there). The test
//! prints recall and false alarms per model and overall, and fails below the
//! floors.
//!
//! `cargo test -p cqlmodel-review --test recall_corpus -- --nocapture`

mod corpus_support;

use corpus_support::{line, models, run_model};
use cqlmodel_diagnostics::{Diagnostic, Severity};
use serde::Deserialize;

/// Flags found over flags expected, over the whole corpus.
const RECALL_FLOOR: f64 = 0.90;
/// Quiet items raised at warning or error, over the quiet items.
const FALSE_ALARM_CEILING: f64 = 0.05;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Item {
    rule: String,
    table: Option<String>,
    query: Option<String>,
    /// The lowest severity that counts as found (`warning` by default).
    severity: Option<String>,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    #[serde(default)]
    flag: Vec<Item>,
    #[serde(default)]
    quiet: Vec<Item>,
}

impl Item {
    fn matches(&self, d: &Diagnostic) -> bool {
        d.name.as_deref() == Some(self.rule.as_str())
            && self
                .table
                .as_deref()
                .is_none_or(|t| d.table.as_deref() == Some(t))
            && self
                .query
                .as_deref()
                .is_none_or(|q| d.query.as_deref() == Some(q))
    }

    fn floor(&self) -> Severity {
        match self.severity.as_deref() {
            Some("info") => Severity::Info,
            Some("error") => Severity::Error,
            _ => Severity::Warning,
        }
    }

    fn describe(&self) -> String {
        format!(
            "{} on {}",
            self.rule,
            self.query
                .as_deref()
                .or(self.table.as_deref())
                .unwrap_or("(anything)")
        )
    }
}

#[test]
fn tutorial_models_are_caught_and_sound_parts_left_alone() {
    let (mut found, mut flags, mut raised, mut quiet) = (0usize, 0usize, 0usize, 0usize);
    let mut report = String::from("model                  recall        false alarms\n");
    let mut misses = Vec::new();
    for dir in models("tutorial") {
        let run = run_model(&dir);
        let path = dir.join("expected.toml");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let expected: Expected =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            expected
                .flag
                .iter()
                .chain(&expected.quiet)
                .all(|i| i.why.split_whitespace().count() >= 4),
            "{}: every item needs a reason",
            run.name
        );
        let hit = |i: &Item| {
            run.diagnostics
                .iter()
                .any(|d| i.matches(d) && d.severity >= i.floor())
        };
        let model_found = expected.flag.iter().filter(|i| hit(i)).count();
        for i in expected.flag.iter().filter(|i| !hit(i)) {
            misses.push(format!("{}: missed {} ({})", run.name, i.describe(), i.why));
        }
        let model_raised = expected
            .quiet
            .iter()
            .filter(|i| {
                run.diagnostics
                    .iter()
                    .any(|d| i.matches(d) && d.severity >= Severity::Warning)
            })
            .count();
        for i in &expected.quiet {
            for d in run
                .diagnostics
                .iter()
                .filter(|d| i.matches(d) && d.severity >= Severity::Warning)
            {
                misses.push(format!("{}: false alarm: {}", run.name, line(d)));
            }
        }
        report.push_str(&format!(
            "{:<22} {:>3}/{:<3}        {:>2}/{:<3}\n",
            run.name,
            model_found,
            expected.flag.len(),
            model_raised,
            expected.quiet.len()
        ));
        found += model_found;
        flags += expected.flag.len();
        raised += model_raised;
        quiet += expected.quiet.len();
    }
    let recall = found as f64 / flags.max(1) as f64;
    let false_alarms = raised as f64 / quiet.max(1) as f64;
    report.push_str(&format!(
        "overall                {found}/{flags} = {:.0}%   {raised}/{quiet} = {:.0}%\n",
        recall * 100.0,
        false_alarms * 100.0
    ));
    println!("{report}\n{}", misses.join("\n"));
    assert!(
        recall + 1e-9 >= RECALL_FLOOR && false_alarms <= FALSE_ALARM_CEILING + 1e-9,
        "{report}\n{}",
        misses.join("\n")
    );
}
