//! Control characters from the input (ESC, BEL, NUL, a carriage return in a
//! quoted identifier or a string literal) must not reach a terminal raw: they
//! would recolor it, move the cursor or hide text. Every human renderer writes
//! input text through these.

use std::borrow::Cow;

/// `text` with every control character except newline and tab written as
/// `\u{1b}`: for multi-line text.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c.is_control() && c != '\n' && c != '\t')
}

/// `text` with every control character, newlines included, written as
/// `\u{a}`: for text that must stay on one line (a name, a statement).
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_where(text, char::is_control)
}

fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_written_as_escapes() {
        assert_eq!(
            escape_controls("a\u{1b}[31mb\u{7}\0\nc\t"),
            "a\\u{1b}[31mb\\u{7}\\u{0}\nc\t"
        );
        assert_eq!(escape_line("a\nb\r"), "a\\u{a}b\\u{d}");
        assert!(matches!(escape_controls("plain é"), Cow::Borrowed(_)));
    }
}
