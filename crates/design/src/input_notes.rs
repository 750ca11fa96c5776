//! What the designer did with an input statement it read but did not model as
//! written (skipped, mapped, rewritten): an info diagnostic with its place, so
//! that no choice about the input is silent.

use crate::error::Source;

/// One info diagnostic about the input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InputNote {
    #[serde(skip)]
    pub source: Source,
    pub line: usize,
    pub column: usize,
    /// Kebab-case, like the error codes (`skipped`, `type-mapping`, `partition`).
    pub code: &'static str,
    pub message: String,
}

impl InputNote {
    pub fn new(
        source: Source,
        code: &'static str,
        (line, column): (usize, usize),
        message: impl Into<String>,
    ) -> Self {
        InputNote {
            source,
            line,
            column,
            code,
            message: message.into(),
        }
    }
}

/// Names listed in a note: the first few, then how many more, so that a dump of
/// thousands of tables gives one readable line per kind.
pub fn name_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    cqlmodel_review::listing::capped(&quoted)
}

#[cfg(test)]
mod tests {
    use super::name_list;

    #[test]
    fn long_lists_are_cut_with_a_count() {
        let names: Vec<String> = (1..=7).map(|i| format!("t{i}")).collect();
        assert_eq!(name_list(&names), "`t1`, `t2`, `t3`, `t4`, `t5` and 2 more");
        assert_eq!(name_list(&names[..1]), "`t1`");
    }
}
