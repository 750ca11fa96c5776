//! Escaping of every input-derived string before it reaches the page.
//!
//! Names in a schema, a nodetool file or a statistics file can hold `<`, `&`,
//! quotes and control characters; the page shows them as text, never as markup.
//! Control characters (other than newline and tab) are shown as `\u{1b}`, as
//! the text renderers show them, so that nothing invisible hides in a name.

/// `text` escaped for an HTML text node or a double- or single-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    push_escaped(&mut out, text);
    out
}

/// Appends `text`, escaped as [`escape`] does, to `out`.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
}

/// A fragment identifier made from `text`: ASCII letters, digits, `-` and `_`
/// kept, anything else as `.XX` hex, so that two different names never share an
/// id and the id needs no escaping.
pub fn anchor(prefix: &str, text: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + text.len() + 1);
    out.push_str(prefix);
    out.push('-');
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!(".{b:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{anchor, escape};

    #[test]
    fn markup_characters_become_entities() {
        assert_eq!(
            escape(r#"<script>alert("x") & 'y'</script>"#),
            "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;"
        );
    }

    #[test]
    fn control_characters_are_shown_not_passed() {
        assert_eq!(
            escape("a\u{1b}[31mb\u{7f}\u{85}"),
            "a\\u{1b}[31mb\\u{7f}\\u{85}"
        );
        assert_eq!(escape("line\nnext\tcol"), "line\nnext\tcol");
        assert_eq!(escape("é 名前 😀"), "é 名前 😀");
    }

    #[test]
    fn anchors_are_distinct_and_plain() {
        assert_eq!(anchor("t", "ks.t_1"), "t-ks.2et_1");
        assert_ne!(anchor("t", "a.b"), anchor("t", "a_b"));
        assert_eq!(anchor("t", "<\"é"), "t-.3c.22.c3.a9");
    }
}
