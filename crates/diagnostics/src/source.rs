//! Source files and the byte-offset to line/column mapping every renderer shares.

use std::ops::Range;

/// The text of one input file.
///
/// Positions follow two conventions so that every renderer (and the excerpt drawn
/// by `annotate-snippets`) reports the same place for the same offset:
/// - columns count characters, and a `'\r'` never counts;
/// - a file's final line terminator does not open another line: the end of
///   `"abc\n"` is line 1, column 4, right after `c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as the user gave it.
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Every [`CHECKPOINT`] bytes: a char boundary and its column (chars since
    /// its line's start, `'\r'` not counted), so that a column on a 10 MB line
    /// costs at most one block's count, not the whole line's.
    checkpoints: Vec<(usize, usize)>,
}

/// The distance between column checkpoints, in bytes.
const CHECKPOINT: usize = 4096;

fn column_checkpoints(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(text.len() / CHECKPOINT + 1);
    let mut column = 0usize;
    let mut next = CHECKPOINT;
    for (at, c) in text.char_indices() {
        if at >= next {
            out.push((at, column));
            next = at + CHECKPOINT;
        }
        match c {
            '\n' => column = 0,
            '\r' => {}
            _ => column += 1,
        }
    }
    out
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        let checkpoints = column_checkpoints(&text);
        Self {
            name: name.into(),
            text,
            line_starts,
            checkpoints,
        }
    }

    /// The number of lines; an empty file has one (empty) line.
    pub fn line_count(&self) -> usize {
        self.line_starts
            .iter()
            .filter(|&&start| start == 0 || start < self.text.len())
            .count()
    }

    /// Moves `byte` onto a position every renderer agrees on: inside the text,
    /// on a char boundary, never between `'\r'` and `'\n'`, and never after the
    /// final line terminator.
    pub fn clamp_offset(&self, byte: usize) -> usize {
        let text = self.text.as_str();
        let mut at = byte.min(text.len());
        while at > 0 && !text.is_char_boundary(at) {
            at -= 1;
        }
        let bytes = text.as_bytes();
        if at == text.len() && bytes.last() == Some(&b'\n') {
            at -= 1;
        }
        if at > 0 && bytes.get(at) == Some(&b'\n') && bytes.get(at - 1) == Some(&b'\r') {
            at -= 1;
        }
        at
    }

    /// Clamps both ends with [`Self::clamp_offset`]; a reversed span is put in order.
    pub fn clamp_span(&self, span: Range<usize>) -> Range<usize> {
        let (a, b) = (self.clamp_offset(span.start), self.clamp_offset(span.end));
        a.min(b)..a.max(b)
    }

    /// The whole lines `span` touches: from the start of its first line to
    /// after the line break that ends its last (or the end of the text).
    /// Looked up in the line index: on a 10 MB line, searching the text for
    /// the line breaks would cost the line for every diagnostic on it.
    pub fn lines_around(&self, span: Range<usize>) -> Range<usize> {
        let first = self
            .line_starts
            .partition_point(|&start| start <= span.start)
            .checked_sub(1)
            .and_then(|i| self.line_starts.get(i))
            .copied()
            .unwrap_or(0);
        let next = self.line_starts.partition_point(|&start| start <= span.end);
        let last = self
            .line_starts
            .get(next)
            .copied()
            .unwrap_or(self.text.len());
        first..last.max(first)
    }

    /// The 1-based line and 1-based column (in chars) of `byte`, after clamping it.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let at = self.clamp_offset(byte);
        let line_index = self
            .line_starts
            .partition_point(|&start| start <= at)
            .saturating_sub(1);
        let line_start = self.line_starts.get(line_index).copied().unwrap_or(0);
        // Count from the last checkpoint on this line before `at`, if any.
        let checkpoint = self
            .checkpoints
            .partition_point(|&(byte, _)| byte <= at)
            .checked_sub(1)
            .and_then(|i| self.checkpoints.get(i))
            .filter(|&&(byte, _)| byte >= line_start);
        let (from, base) = checkpoint.copied().unwrap_or((line_start, 0));
        let column = base
            + self
                .text
                .get(from..at)
                .map_or(0, |before| before.chars().filter(|&c| c != '\r').count());
        (line_index + 1, column + 1)
    }
}

/// All files of one run; diagnostics refer to them by index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns the index to put in [`crate::Diagnostic::file`].
    pub fn add(&mut self, file: SourceFile) -> usize {
        self.files.push(file);
        self.files.len() - 1
    }

    pub fn get(&self, index: usize) -> Option<&SourceFile> {
        self.files.get(index)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &SourceFile> {
        self.files.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_on_long_lines_match_a_plain_count() {
        let line = "é\r😀ab".repeat(5_000);
        let text = format!("x\n{line}\n{line}");
        let file = SourceFile::new("long.cql", text.as_str());
        for (at, _) in text.char_indices().step_by(997) {
            let line_start = text
                .get(..at)
                .and_then(|b| b.rfind('\n'))
                .map_or(0, |p| p + 1);
            let plain = text
                .get(line_start..at)
                .map_or(0, |b| b.chars().filter(|&c| c != '\r').count());
            let clamped = file.clamp_offset(at);
            if clamped == at {
                assert_eq!(file.line_col(at).1, plain + 1, "at {at}");
            }
        }
    }

    #[test]
    fn lines_around_match_a_search_for_line_breaks() {
        for text in [
            "ab\ncd\n\nef",
            "abc\n",
            "",
            "one line",
            "\n\n",
            "x\r\ny\r\n",
        ] {
            let file = SourceFile::new("a.cql", text);
            for low in 0..=text.len() {
                for high in low..=text.len() {
                    let first = text[..low].rfind('\n').map_or(0, |at| at + 1);
                    let last = text[high..]
                        .find('\n')
                        .map_or(text.len(), |at| high + at + 1);
                    assert_eq!(
                        file.lines_around(low..high),
                        first..last,
                        "{text:?} {low}..{high}"
                    );
                }
            }
        }
    }

    #[test]
    fn line_col_counts_lines_and_chars_from_one() {
        let file = SourceFile::new("a.cql", "ab\ncd\n\nef");
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(1), (1, 2));
        assert_eq!(file.line_col(2), (1, 3));
        assert_eq!(file.line_col(3), (2, 1));
        assert_eq!(file.line_col(6), (3, 1));
        assert_eq!(file.line_col(7), (4, 1));
        assert_eq!(file.line_col(9), (4, 3));
        assert_eq!(file.line_count(), 4);
    }

    #[test]
    fn columns_count_chars_not_bytes() {
        let file = SourceFile::new("a.cql", "é😀x");
        assert_eq!(file.line_col(2), (1, 2));
        assert_eq!(file.line_col(6), (1, 3));
        // Offset 3 is inside the emoji: it is clamped back to its start.
        assert_eq!(file.line_col(3), (1, 2));
        assert_eq!(file.clamp_span(3..5), 2..2);
    }

    #[test]
    fn tabs_count_as_one_column() {
        let file = SourceFile::new("a.cql", "\t\tx");
        assert_eq!(file.line_col(2), (1, 3));
    }

    #[test]
    fn carriage_returns_never_count() {
        let file = SourceFile::new("a.cql", "ab\r\ncd\r\n");
        assert_eq!(file.line_col(2), (1, 3));
        // Between '\r' and '\n' is moved before the pair.
        assert_eq!(file.clamp_offset(3), 2);
        assert_eq!(file.line_col(3), (1, 3));
        assert_eq!(file.line_col(4), (2, 1));
        assert_eq!(file.line_col(6), (2, 3));
        assert_eq!(file.line_count(), 2);
    }

    #[test]
    fn end_of_file_stays_on_the_last_line() {
        let file = SourceFile::new("a.cql", "abc\n");
        assert_eq!(file.line_col(4), (1, 4));
        assert_eq!(file.line_col(400), (1, 4));
        assert_eq!(file.line_count(), 1);
        let crlf = SourceFile::new("a.cql", "abc\r\n");
        assert_eq!(crlf.line_col(5), (1, 4));
        let unterminated = SourceFile::new("a.cql", "abc");
        assert_eq!(unterminated.line_col(3), (1, 4));
    }

    #[test]
    fn empty_file_has_one_position() {
        let file = SourceFile::new("a.cql", "");
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(10), (1, 1));
        assert_eq!(file.clamp_span(5..10), 0..0);
        assert_eq!(file.line_count(), 1);
    }

    #[test]
    fn clamp_span_orders_reversed_spans() {
        let file = SourceFile::new("a.cql", "abcdef");
        #[expect(
            clippy::reversed_empty_ranges,
            reason = "reversed spans are input we must tolerate"
        )]
        let reversed = 4..1;
        assert_eq!(file.clamp_span(reversed), 1..4);
        assert_eq!(file.clamp_span(2..99), 2..6);
    }

    #[test]
    fn source_map_hands_out_indexes() {
        let mut map = SourceMap::new();
        assert!(map.is_empty());
        let a = map.add(SourceFile::new("a.cql", "a"));
        let b = map.add(SourceFile::new("b.cql", "b"));
        assert_eq!((a, b), (0, 1));
        assert_eq!(map.get(b).map(|f| f.name.as_str()), Some("b.cql"));
        assert!(map.get(2).is_none());
        assert_eq!(map.len(), 2);
        assert_eq!(map.iter().count(), 2);
    }
}
