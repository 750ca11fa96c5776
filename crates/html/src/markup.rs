//! A small HTML writer: tags and attribute names are the page's own (`&'static
//! str`); every text and attribute value goes through [`crate::escape`].

use crate::escape::push_escaped;

/// HTML being written, in document order.
#[derive(Debug, Default)]
pub struct Markup {
    buf: String,
}

impl Markup {
    pub fn new() -> Self {
        Markup::default()
    }

    /// `<tag a="v" …>` with the values escaped.
    pub fn open(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Self {
        self.buf.push('<');
        self.buf.push_str(tag);
        for (name, value) in attrs {
            self.buf.push(' ');
            self.buf.push_str(name);
            self.buf.push_str("=\"");
            push_escaped(&mut self.buf, value);
            self.buf.push('"');
        }
        self.buf.push('>');
        self
    }

    pub fn close(&mut self, tag: &'static str) -> &mut Self {
        self.buf.push_str("</");
        self.buf.push_str(tag);
        self.buf.push('>');
        self
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) -> &mut Self {
        push_escaped(&mut self.buf, text);
        self
    }

    /// Markup this crate produced itself (an SVG, a rendered fragment).
    pub fn raw(&mut self, trusted: &str) -> &mut Self {
        self.buf.push_str(trusted);
        self
    }

    /// `<tag …>text</tag>`.
    pub fn el(
        &mut self,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
        text: &str,
    ) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// Text whose `` `name` `` spans (the decisions' way of quoting a name,
    /// as report.md writes them) become `<code>`; an unpaired backtick stays
    /// as it is.
    pub fn prose(&mut self, text: &str) -> &mut Self {
        let parts: Vec<&str> = text.split('`').collect();
        // An even number of parts means one backtick has no partner: the
        // last part then carries it back as text.
        let paired = parts.len() % 2 == 1;
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            if i % 2 == 1 && (paired || !last) {
                self.code(part);
            } else if i % 2 == 1 {
                self.text("`").text(part);
            } else {
                self.text(part);
            }
        }
        self
    }

    /// A `<code>` span.
    pub fn code(&mut self, text: &str) -> &mut Self {
        self.el("code", &[], text)
    }

    /// A `<pre><code>` block that scrolls inside itself rather than widening the page.
    pub fn pre(&mut self, class: &str, text: &str) -> &mut Self {
        self.open("pre", &[("class", class)])
            .el("code", &[], text)
            .close("pre")
    }

    /// A `<ul>` of plain texts; nothing when `items` is empty.
    pub fn list<'a>(&mut self, class: &str, items: impl IntoIterator<Item = &'a str>) -> &mut Self {
        let mut items = items.into_iter().peekable();
        if items.peek().is_none() {
            return self;
        }
        self.open("ul", &[("class", class)]);
        for item in items {
            self.el("li", &[], item);
        }
        self.close("ul")
    }

    /// A `<dt>`/`<dd>` pair inside an open `<dl>`.
    pub fn field(&mut self, term: &str, value: &str) -> &mut Self {
        self.el("dt", &[], term).el("dd", &[], value)
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn into_string(self) -> String {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::Markup;

    #[test]
    fn values_are_escaped_and_tags_are_not() {
        let mut m = Markup::new();
        m.open("a", &[("href", "#x\"><script>")])
            .text("<b>")
            .close("a")
            .raw("<br>");
        assert_eq!(
            m.into_string(),
            "<a href=\"#x&quot;&gt;&lt;script&gt;\">&lt;b&gt;</a><br>"
        );
    }

    #[test]
    fn backtick_spans_become_code_and_a_lone_backtick_stays() {
        let mut m = Markup::new();
        m.prose("width `day` for <all>");
        assert_eq!(m.into_string(), "width <code>day</code> for &lt;all&gt;");
        let mut m = Markup::new();
        m.prose("`a` and ` alone");
        assert_eq!(m.into_string(), "<code>a</code> and ` alone");
    }

    #[test]
    fn an_empty_list_writes_nothing() {
        let mut m = Markup::new();
        m.list("notes", []);
        assert!(m.is_empty());
        m.list("notes", ["a&b"]);
        assert_eq!(m.into_string(), "<ul class=\"notes\"><li>a&amp;b</li></ul>");
    }
}
