//! `cqlmodel review`: the schema review checklist as rules.
//!
//! Each rule lives in its own file under `rules/` and is declared with
//! [`declare_rule!`], whose doc comment is the rule's documentation. The engine
//! runs every enabled rule over the schema and the query list, applies the
//! configuration (levels) and the suppression comments, and returns diagnostics.

pub mod annotation_check;
pub mod annotations;
pub mod config;
pub mod context;
pub mod derive_key;
pub mod finding;
pub mod listing;
pub mod provenance;
pub mod query;
pub mod query_index;
pub mod rule;
pub mod rules;
pub mod stats;
pub mod summary;
pub mod suppress;
pub mod table_hints;

use cqlmodel_diagnostics::{Diagnostic, Label, SourceMap};
use cqlmodel_schema::Schema;

pub use config::{Config, ConfigError, Level, Thresholds};
pub use context::Context;
pub use finding::{Finding, Findings, RuleId};
pub use provenance::{Attribute, Provenance};
pub use query::{LevelSource, Query, QueryReader, load_queries};
pub use rule::Rule;
pub use rules::{RULES, find as find_rule};
pub use suppress::{Suppression, suppressions};

/// What the review looks at.
pub struct ReviewInput<'a> {
    pub schema: &'a Schema,
    pub queries: &'a [Query],
    pub sources: &'a SourceMap,
    pub suppressions: &'a [Suppression],
    /// False when no query list was given.
    pub has_queries: bool,
    /// The workload statistics file, when given (`None`: rules use heuristics).
    pub stats: Option<&'a stats::Stats>,
}

/// Runs every enabled rule and returns the findings as diagnostics, grouped by
/// table (then by position).
pub fn review(input: &ReviewInput<'_>, config: &Config) -> Vec<Diagnostic> {
    let cx = Context {
        schema: input.schema,
        queries: input.queries,
        config,
        sources: input.sources,
        has_queries: input.has_queries,
        stats: input.stats,
        estimates: context::size_estimates(input.schema, input.stats, config),
        by_table: context::queries_by_table(input.queries),
        partition_keys: derive_key::PartitionKeyIndex::new(input.schema),
        index: query_index::QueryIndex::new(input.queries),
    };
    let mut findings: Vec<Finding> = Vec::new();
    for rule in RULES {
        let level = config.level(rule.name);
        if level == Some(Level::Off) {
            continue;
        }
        let mut out = Findings::new(rule.id());
        (rule.check)(&cx, &mut out);
        for mut f in out.items {
            if let Some(Level::On(severity)) = level {
                f.severity = severity;
            }
            findings.push(f);
        }
    }

    let mut used = vec![false; input.suppressions.len()];
    findings.retain(|f| {
        let Some((file, start)) = f.anchor else {
            return true;
        };
        let mut suppressed = false;
        for (i, s) in input.suppressions.iter().enumerate() {
            if s.file == file && s.statement_start == start && s.rule == f.rule.name {
                if let Some(u) = used.get_mut(i) {
                    *u = true;
                }
                suppressed = true;
            }
        }
        !suppressed
    });
    if config.level(rules::unused_suppression::UNUSED_SUPPRESSION.name) != Some(Level::Off) {
        let unused_level = config.level(rules::unused_suppression::UNUSED_SUPPRESSION.name);
        let mut out = Findings::new(rules::unused_suppression::UNUSED_SUPPRESSION.id());
        for (s, used) in input.suppressions.iter().zip(&used) {
            if *used {
                continue;
            }
            let message = if find_rule(&s.rule).is_none() {
                format!(
                    "`{}` is not a rule: this suppression silences nothing",
                    s.rule
                )
            } else {
                format!(
                    "`{}` does not fire on this statement: the suppression is unused",
                    s.rule
                )
            };
            let mut f = out
                .new_finding(message)
                .at(
                    s.file,
                    s.span.range(),
                    s.statement_start,
                    "unused suppression",
                )
                .help("remove it, or fix the rule name (`cqlmodel rules` lists them)");
            if let Some(Level::On(severity)) = unused_level {
                f.severity = severity;
            }
            out.push(f);
        }
        findings.extend(out.items);
    }

    findings.sort_by(|a, b| {
        (
            a.table.as_deref().unwrap_or("\u{10ffff}"),
            a.file,
            a.span.as_ref().map(|s| s.start),
        )
            .cmp(&(
                b.table.as_deref().unwrap_or("\u{10ffff}"),
                b.file,
                b.span.as_ref().map(|s| s.start),
            ))
            .then(a.rule.code.cmp(b.rule.code))
    });
    findings.into_iter().map(to_diagnostic).collect()
}

fn to_diagnostic(f: Finding) -> Diagnostic {
    let mut d = Diagnostic::new(f.severity, f.rule.code, f.message).with_name(f.rule.name);
    if let Some(file) = f.file {
        d = d.with_file(file);
    }
    if let Some(span) = f.span {
        d.primary = Some(Label::new(span, f.label));
    }
    for n in f.notes {
        d = d.with_note(n);
    }
    if let Some(h) = f.help {
        d = d.with_help(h);
    }
    if let Some(fix) = f.fix {
        d = d.with_fix(fix);
    }
    if let Some(t) = f.table {
        d = d.with_table(t);
    }
    if let Some(q) = f.query {
        d = d.with_query(q);
    }
    d
}

/// A rule's documentation page, as `cqlmodel rules NAME` prints it and
/// `docs/rules/NAME.md` holds it.
pub fn rule_page(rule: &Rule) -> String {
    let doc: String = rule
        .doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        "# {} ({})\n\n{}\n\nDefault severity: **{}**.\n\n{}\n",
        rule.name,
        rule.code,
        rule.summary,
        rule.default_severity,
        doc.trim_end()
    )
}
