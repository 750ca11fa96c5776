//! Annotations the review would otherwise ignore in silence: a misspelled key
//! (`@nmae`), a `@path` it does not know (`analytcs`), an `@after` naming no
//! query. Each is a warning on the annotated statement, with the likely
//! intended word when one is close.

use std::collections::HashMap;

use cqlmodel_cql::ast::Span;
use cqlmodel_diagnostics::Diagnostic;

use crate::annotations::Annotations;

/// The annotation keys of a query list (docs/review.md, docs/design.md).
pub const QUERY_KEYS: &[&str] = &[
    "name", "rate", "cl", "serial", "page", "path", "after", "table", "new-row",
];

/// The values `@path` takes.
pub const PATHS: &[&str] = &[
    "app",
    "application",
    "hot",
    "frequent",
    "admin",
    "analytics",
    "migration",
];

/// One annotated statement of a query list, as the check needs it (the
/// query list's reader builds these as it reads).
pub struct Annotated<'a> {
    pub file: usize,
    pub span: Span,
    pub annotations: &'a Annotations,
}

/// The warnings of one statement's annotations that no other query bears
/// on: unknown keys, an unknown `@path`. `@after` waits for the whole list
/// ([`after_warning`]).
pub fn own_warnings(q: &Annotated<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (key, _) in &q.annotations.pairs {
        // `@word` in prose (`` `-- @name` ``, `@2x`) is not meant as a key.
        let key_like = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if key_like && !QUERY_KEYS.contains(&key.as_str()) {
            out.push(warning(
                q.file,
                q.span,
                format!(
                    "unknown annotation `@{key}`{}: ignored (known: {})",
                    suggestion(key, QUERY_KEYS, "@"),
                    QUERY_KEYS
                        .iter()
                        .map(|k| format!("@{k}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    if let Some(path) = q.annotations.get("path") {
        let lower = path.to_ascii_lowercase();
        if !lower.is_empty() && !PATHS.contains(&lower.as_str()) {
            out.push(warning(
                q.file,
                q.span,
                format!(
                    "unknown @path `{path}`{}: the query is reviewed as an application path (expected one of {})",
                    suggestion(&lower, PATHS, ""),
                    PATHS.join(", ")
                ),
            ));
        }
    }
    out
}

/// The warning for `@after NAME` on the statement at `span` of `file` when no
/// query of the list is named NAME.
pub fn after_warning(
    file: usize,
    span: Span,
    after: &str,
    names: &QueryNames,
) -> Option<Diagnostic> {
    if names.is_query(after) {
        return None;
    }
    Some(warning(
        file,
        span,
        format!(
            "@after names `{after}`, but no query has that name{}: ignored",
            names.suggestion(after)
        ),
    ))
}

fn warning(file: usize, span: Span, message: String) -> Diagnostic {
    Diagnostic::warning("annotation", message)
        .with_file(file)
        .with_primary(span.range(), "annotated statement")
}

/// The names of a query list: each name an annotation gives (`@name`), with
/// the number of the first kept query bearing it, and which kept queries
/// have none. Those are named `Q` and their number, which is not stored: a
/// line of 230,000 unannotated statements held 230,000 such strings in a
/// hash table (32 of the 47 MB heap peak of `explain`, heaptrack).
#[derive(Debug, Default)]
pub struct QueryNames {
    /// `None`: only statements the list skipped bear the name so far.
    given: HashMap<String, Option<usize>>,
    /// Bit `n` set: the kept query number `n` has no `@name`.
    unnamed: Vec<u64>,
}

impl QueryNames {
    /// Whether a statement read so far bears `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.given.contains_key(name) || self.unnamed_query(name).is_some()
    }

    /// Records a statement named `name` that the list skipped.
    pub fn skipped(&mut self, name: &str) {
        if !self.given.contains_key(name) {
            self.given.insert(name.to_string(), None);
        }
    }

    /// Records the kept query number `ordinal`, with the name its annotation
    /// gives, or none (then it is named `Q{ordinal}`).
    pub fn kept(&mut self, given: Option<&str>, ordinal: usize) {
        let Some(name) = given else {
            let word = ordinal / 64;
            if self.unnamed.len() <= word {
                self.unnamed.resize(word + 1, 0);
            }
            if let Some(bits) = self.unnamed.get_mut(word) {
                *bits |= 1 << (ordinal % 64);
            }
            return;
        };
        if let Some(first) = self.given.get_mut(name) {
            first.get_or_insert(ordinal);
        } else {
            self.given.insert(name.to_string(), Some(ordinal));
        }
    }

    /// Whether a query the list kept is named `name`.
    pub fn is_query(&self, name: &str) -> bool {
        self.given.get(name).is_some_and(Option::is_some) || self.unnamed_query(name).is_some()
    }

    /// The number of the kept query without `@name` that is called `name`.
    fn unnamed_query(&self, name: &str) -> Option<usize> {
        let digits = name.strip_prefix('Q')?;
        let ordinal: usize = digits.parse().ok()?;
        // `Q07` and `Q+7` are not the name `Q7`.
        if ordinal.to_string() != digits {
            return None;
        }
        self.is_unnamed(ordinal).then_some(ordinal)
    }

    fn is_unnamed(&self, ordinal: usize) -> bool {
        self.unnamed
            .get(ordinal / 64)
            .is_some_and(|bits| bits & (1 << (ordinal % 64)) != 0)
    }

    /// ` (did you mean `X`?)` for the closest name of a kept query within two
    /// edits, the first in list order among equally close ones.
    fn suggestion(&self, word: &str) -> String {
        let given = self
            .given
            .iter()
            .filter_map(|(name, first)| Some((edit_distance(word, name), (*first)?, name.clone())));
        let unnamed = (0..self.unnamed.len() * 64)
            .filter(|&n| self.is_unnamed(n))
            .map(|n| {
                let name = format!("Q{n}");
                (edit_distance(word, &name), n, name)
            });
        given
            .chain(unnamed)
            .filter(|(d, _, _)| *d <= 2)
            .min_by_key(|(d, first, _)| (*d, *first))
            .map(|(_, _, name)| format!(" (did you mean `{name}`?)"))
            .unwrap_or_default()
    }
}

/// ` (did you mean `X`?)` for the closest of `known` within two edits.
fn suggestion(word: &str, known: &[&str], prefix: &str) -> String {
    known
        .iter()
        .map(|k| (edit_distance(word, k), k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| format!(" (did you mean `{prefix}{k}`?)"))
        .unwrap_or_default()
}

/// Levenshtein distance over characters, with adjacent swaps counted once
/// (`nmae` is one edit from `name`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Long words are never typos of the short keys: skip the quadratic table.
    if a.len().abs_diff(b.len()) > 2 || a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        d[at(i, 0)] = i;
    }
    for j in 0..=b.len() {
        d[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[at(i - 1, j)] + 1)
                .min(d[at(i, j - 1)] + 1)
                .min(d[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[at(i - 2, j - 2)] + 1);
            }
            d[at(i, j)] = best;
        }
    }
    d[at(a.len(), b.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_words_are_suggested() {
        assert_eq!(edit_distance("nmae", "name"), 1);
        assert_eq!(edit_distance("analytcs", "analytics"), 1);
        assert_eq!(
            suggestion("nmae", QUERY_KEYS, "@"),
            " (did you mean `@name`?)"
        );
        assert_eq!(suggestion("zzzzzz", QUERY_KEYS, "@"), "");
    }
}
