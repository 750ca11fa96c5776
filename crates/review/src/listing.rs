//! Lists of names inside one finding's message, capped: a finding that named
//! every statement of a 10,000-statement list made the message (and the
//! report) grow with the list, once per finding, quadratic in all.

/// How many names a message lists before it says how many more there are.
pub const LISTED: usize = 5;

/// `a, b, c, d, e and 7 more`: the first [`LISTED`] items, in the given order,
/// joined by `, `; then how many were left out.
pub fn capped<S: AsRef<str>>(items: &[S]) -> String {
    capped_with(items, ", ")
}

/// [`capped`] with another separator (`; `, ` / `).
pub fn capped_with<S: AsRef<str>>(items: &[S], separator: &str) -> String {
    let shown: Vec<&str> = items.iter().take(LISTED).map(AsRef::as_ref).collect();
    let mut out = shown.join(separator);
    let rest = items.len().saturating_sub(LISTED);
    if rest > 0 {
        out.push_str(&format!(" and {rest} more"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_are_whole() {
        assert_eq!(capped(&["a", "b"]), "a, b");
        assert_eq!(capped::<&str>(&[]), "");
        assert_eq!(capped(&["a", "b", "c", "d", "e"]), "a, b, c, d, e");
    }

    #[test]
    fn long_lists_say_how_many_more() {
        let items: Vec<String> = (0..12).map(|i| format!("q{i}")).collect();
        assert_eq!(capped(&items), "q0, q1, q2, q3, q4 and 7 more");
        assert_eq!(
            capped_with(&items[..6], "; "),
            "q0; q1; q2; q3; q4 and 1 more"
        );
    }
}
