//! A line cursor over an input: each line with its number and byte offset, so
//! parsers can report where they stopped without holding every line in memory.

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// 1-based.
    pub no: usize,
    /// Byte offset of the line's first character in the input.
    pub start: usize,
    /// The line without its terminator (`\n` or `\r\n`).
    pub text: &'a str,
    /// Byte offset of the next line.
    next: usize,
}

impl Line<'_> {
    pub fn span(&self) -> Range<usize> {
        self.start..self.start + self.text.len()
    }

    /// Leading whitespace, a tab counting as 8 columns (nodetool indents with tabs).
    pub fn indent(&self) -> usize {
        self.text
            .chars()
            .take_while(|c| c.is_whitespace())
            .map(|c| if c == '\t' { 8 } else { 1 })
            .sum()
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first line; a byte-order mark (files saved by some Windows
    /// tools start with one) is stepped over.
    pub fn new(text: &'a str) -> Self {
        Cursor {
            text,
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            line: 1,
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    pub fn peek(&self) -> Option<Line<'a>> {
        let rest = self.text.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let (end, next) = match rest.find('\n') {
            Some(i) => (i, self.pos + i + 1),
            None => (rest.len(), self.text.len()),
        };
        let raw = rest.get(..end)?;
        Some(Line {
            no: self.line,
            start: self.pos,
            text: raw.strip_suffix('\r').unwrap_or(raw),
            next,
        })
    }

    pub fn advance(&mut self) {
        if let Some(line) = self.peek() {
            self.advance_over(line);
        }
    }

    /// Moves past `line`, which `peek` returned: no second search for its end.
    pub fn advance_over(&mut self, line: Line<'_>) {
        self.pos = line.next;
        self.line = line.no + 1;
    }

    pub fn next_line(&mut self) -> Option<Line<'a>> {
        let line = self.peek()?;
        self.advance_over(line);
        Some(line)
    }

    /// Byte offset of the next line (the input's length at the end).
    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn line_no(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_carry_numbers_offsets_and_no_terminators() {
        let mut c = Cursor::new("a\r\n\tb\nc");
        let a = c.next_line();
        assert_eq!(a.map(|l| (l.no, l.start, l.text)), Some((1, 0, "a")));
        let b = c.next_line();
        assert_eq!(
            b.map(|l| (l.no, l.start, l.text, l.indent())),
            Some((2, 3, "\tb", 8))
        );
        assert_eq!(c.next_line().map(|l| l.text), Some("c"));
        assert_eq!(c.next_line(), None);
    }
}
