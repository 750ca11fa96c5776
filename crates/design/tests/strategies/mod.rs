//! Generated inputs for `design`: small relational models in the supported
//! PostgreSQL subset, annotated query lists over them and statistics files.
//!
//! A case is decoded from a list of random numbers, one per decision, where 0
//! always means the simplest option (fewest tables, no join, no annotation).
//! Proptest shrinks the list by dropping numbers and moving them toward 0, so a
//! failing case shrinks toward the simplest model and queries that still fail.

pub mod edits;
pub mod model;
pub mod queries;
pub mod stats;

use proptest::prelude::*;

pub use model::Model;
pub use queries::{Mutation, Read};

/// Reads decisions off the random numbers; past their end every decision is 0.
pub struct Draw<'a> {
    choices: &'a [u16],
    next: usize,
}

impl<'a> Draw<'a> {
    pub fn new(choices: &'a [u16]) -> Self {
        Draw { choices, next: 0 }
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        if n == 0 { 0 } else { usize::from(c) % n }
    }

    /// True with about `percent` % probability; a 0 choice is false.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) >= 100 - percent.min(100)
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        let i = self.below(items.len());
        &items[i]
    }

    /// Up to `max` distinct indices below `n`, in drawn order.
    pub fn subset(&mut self, n: usize, max: usize) -> Vec<usize> {
        let mut left: Vec<usize> = (0..n).collect();
        let mut out = Vec::new();
        for _ in 0..max.min(n) {
            let i = self.below(left.len());
            out.push(left.remove(i));
        }
        out
    }
}

/// One generated input of `design`, with what the generator knows about it.
#[derive(Debug, Clone)]
pub struct Case {
    pub keyspace: String,
    pub model: Model,
    pub model_sql: String,
    pub reads: Vec<Read>,
    pub mutations: Vec<Mutation>,
    /// `None` when the case has no query list at all.
    pub queries_sql: Option<String>,
    pub stats_toml: Option<String>,
}

impl Case {
    pub fn decode(choices: &[u16]) -> Case {
        let mut d = Draw::new(choices);
        let keyspace = d
            .pick(&["app", "shop", "design_ks", "Mixed_Case"])
            .to_string();
        let model = Model::generate(&mut d);
        let model_sql = model.render(&mut d);
        let (reads, mutations, queries_sql) = if d.chance(10) {
            (Vec::new(), Vec::new(), None)
        } else {
            let reads = queries::reads(&mut d, &model);
            let mut mutations = queries::mutations(&mut d, &model);
            let text = queries::render(&mut d, &reads, &mut mutations);
            (reads, mutations, Some(text))
        };
        let stats_toml = d.chance(35).then(|| stats::render(&mut d, &model, &reads));
        Case {
            keyspace,
            model,
            model_sql,
            reads,
            mutations,
            queries_sql,
            stats_toml,
        }
    }

    pub fn input(&self) -> cqlmodel_design::DesignInput<'_> {
        cqlmodel_design::DesignInput {
            keyspace: &self.keyspace,
            model_sql: &self.model_sql,
            queries_sql: self.queries_sql.as_deref(),
            stats_toml: self.stats_toml.as_deref(),
        }
    }

    /// The three inputs as text, for failure messages.
    pub fn show(&self) -> String {
        format!(
            "keyspace: {}\n--- model.sql\n{}\n--- queries.sql\n{}\n--- stats.toml\n{}",
            self.keyspace,
            self.model_sql,
            self.queries_sql.as_deref().unwrap_or("(none)"),
            self.stats_toml.as_deref().unwrap_or("(none)")
        )
    }
}

/// Valid inputs: a model of 2–5 tables, its queries and sometimes statistics.
pub fn case() -> impl Strategy<Value = Case> {
    prop::collection::vec(any::<u16>(), 0..600).prop_map(|c| Case::decode(&c))
}
