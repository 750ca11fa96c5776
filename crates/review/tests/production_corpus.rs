//! The precision corpus (issue 19): production-style schemas written the way
//! experienced teams write them, each with `labels.toml` judging every warning
//! and error the review raises (defensible or a false alarm) and listing the
//! real concerns an expert raises. The test prints precision per schema and
//! overall, and fails when
//!
//! - a warning or error has no label (a new finding must be judged),
//! - a labelled concern is not raised at warning or error,
//! - a schema's precision falls below its `precision_floor`, or the overall
//!   precision below [`OVERALL_FLOOR`],
//! - a table of the schema is missing after loading (bad options must not cost
//!   the review of a table).
//!
//! Run it with `cargo test -p cqlmodel-review --test production_corpus -- --nocapture`
//! to see the figures.

mod corpus_support;

use corpus_support::{Label, line, load_labels, models, run_model, serious};

/// Warnings and errors an expert defends, over all the warnings and errors raised.
const OVERALL_FLOOR: f64 = 0.80;

#[derive(Default)]
struct Score {
    defended: usize,
    false_alarms: usize,
}

impl Score {
    fn raised(&self) -> usize {
        self.defended + self.false_alarms
    }

    fn precision(&self) -> f64 {
        if self.raised() == 0 {
            1.0
        } else {
            self.defended as f64 / self.raised() as f64
        }
    }
}

#[test]
fn production_schemas_raise_only_what_an_expert_defends() {
    let mut problems: Vec<String> = Vec::new();
    let mut total = Score::default();
    let mut still_raised: Vec<String> = Vec::new();
    let mut report = String::from("model                 raised  defended  false  precision\n");
    for dir in models("production") {
        let run = run_model(&dir);
        let labels = load_labels(&dir);
        let mut score = Score::default();
        let declared = std::fs::read_to_string(dir.join("schema.cql")).unwrap_or_default();
        for table in declared_tables(&declared) {
            if !run.tables.contains(&table) {
                problems.push(format!("{}: table {table} was not loaded", run.name));
            }
        }
        for d in run.diagnostics.iter().filter(|d| serious(d)) {
            let good = labels
                .concern
                .iter()
                .chain(&labels.defensible)
                .any(|l| l.matches(d));
            let bad = labels.false_alarm.iter().any(|l| l.matches(d));
            match (good, bad) {
                (true, _) => score.defended += 1,
                (false, true) => {
                    score.false_alarms += 1;
                    still_raised.push(format!("{}: {}", run.name, line(d)));
                }
                (false, false) => problems.push(format!("{}: unlabelled: {}", run.name, line(d))),
            }
        }
        for concern in &labels.concern {
            if !run
                .diagnostics
                .iter()
                .any(|d| serious(d) && concern.matches(d))
            {
                problems.push(format!(
                    "{}: concern not raised: {} ({})",
                    run.name,
                    concern.describe(),
                    concern.why
                ));
            }
        }
        report.push_str(&format!(
            "{:<21} {:>6}  {:>8}  {:>5}  {:>8.0}%\n",
            run.name,
            score.raised(),
            score.defended,
            score.false_alarms,
            score.precision() * 100.0
        ));
        if score.precision() + 1e-9 < labels.precision_floor {
            problems.push(format!(
                "{}: precision {:.2} below its floor {:.2}",
                run.name,
                score.precision(),
                labels.precision_floor
            ));
        }
        total.defended += score.defended;
        total.false_alarms += score.false_alarms;
    }
    report.push_str(&format!(
        "{:<21} {:>6}  {:>8}  {:>5}  {:>8.0}%\n",
        "overall",
        total.raised(),
        total.defended,
        total.false_alarms,
        total.precision() * 100.0
    ));
    if !still_raised.is_empty() {
        report.push_str("\nfalse alarms still raised:\n");
        for l in &still_raised {
            report.push_str(&format!("  {l}\n"));
        }
    }
    println!("{report}");
    if total.precision() + 1e-9 < OVERALL_FLOOR {
        problems.push(format!(
            "overall precision {:.2} below {OVERALL_FLOOR}",
            total.precision()
        ));
    }
    assert!(problems.is_empty(), "{report}\n{}", problems.join("\n"));
}

/// `ks.table` of every CREATE TABLE in a schema file (the corpus qualifies names).
fn declared_tables(schema: &str) -> Vec<String> {
    schema
        .lines()
        .filter_map(|l| l.trim().strip_prefix("CREATE TABLE "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(|name| name.trim_end_matches('(').to_string())
        .collect()
}

#[test]
fn labels_are_argued() {
    for dir in models("production") {
        let labels = load_labels(&dir);
        let all: Vec<&Label> = labels
            .concern
            .iter()
            .chain(&labels.defensible)
            .chain(&labels.false_alarm)
            .collect();
        for l in all {
            assert!(
                l.why.split_whitespace().count() >= 4,
                "{}: label {} needs a reason",
                dir.display(),
                l.describe()
            );
        }
    }
}
