//! Splits a SQL file into statements, keeping each statement's `--` comments
//! (the annotations) and its position, so that each statement can be parsed on
//! its own and errors point at the right line of the whole file.

/// One statement of a SQL file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The statement text without the terminating `;`.
    pub text: String,
    /// Byte offset of the statement's first character in the file.
    pub start: usize,
    pub end: usize,
    /// 1-based line and column of the first character.
    pub line: usize,
    pub column: usize,
    /// Comments between the previous statement and this one, with their byte ranges.
    pub comments: Vec<(String, usize, usize)>,
}

impl Chunk {
    /// The statement text padded so that a parser reports positions of the file.
    pub fn padded(&self) -> String {
        let mut s = "\n".repeat(self.line.saturating_sub(1));
        s.push_str(&" ".repeat(self.column.saturating_sub(1)));
        s.push_str(&self.text);
        s
    }

    /// The first word, upper-cased.
    pub fn keyword(&self, n: usize) -> String {
        self.text
            .split(|c: char| c.is_whitespace() || c == '(')
            .filter(|w| !w.is_empty())
            .nth(n)
            .unwrap_or_default()
            .to_ascii_uppercase()
    }
}

/// A 1-based position within a statement (as the parser reports it, the
/// statement parsed on its own) as a position in the file, given where the
/// statement starts. Parsing each statement unpadded keeps a dump's load
/// linear: padding it to its place in the file made every parse walk every
/// line before it.
pub fn in_file(start: (usize, usize), (line, column): (usize, usize)) -> (usize, usize) {
    if line <= 1 {
        (start.0, start.1 + column.saturating_sub(1))
    } else {
        (start.0 + line - 1, column)
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count() + 1)
        .unwrap_or(1);
    (line, column)
}

/// Splits at `;` outside quotes, comments and dollar-quoted bodies. psql
/// meta-commands (a line starting with `\`) count as comments.
pub fn split_statements(text: &str) -> Vec<Chunk> {
    let bytes = text.as_bytes();
    let mut chunks = Vec::new();
    let mut lines = LineCursor::default();
    let mut comments = Vec::new();
    let mut start: Option<usize> = None;
    let mut i = 0;
    let mut at_line_start = true;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(b' ');
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        if (c == b'-' && next == b'-') || (c == b'\\' && at_line_start && start.is_none()) {
            let end = text
                .get(i..)
                .and_then(|r| r.find('\n'))
                .map_or(bytes.len(), |n| i + n);
            if start.is_none() {
                let body = text.get(i..end).unwrap_or("");
                comments.push((body.trim_start_matches('-').to_string(), i, end));
            }
            i = end;
            continue;
        }
        if c == b'/' && next == b'*' {
            let end = text
                .get(i + 2..)
                .and_then(|r| r.find("*/"))
                .map_or(bytes.len(), |n| i + 2 + n + 2);
            if start.is_none() {
                let body = text.get(i + 2..end.saturating_sub(2)).unwrap_or("");
                comments.push((body.to_string(), i, end));
            }
            i = end;
            continue;
        }
        at_line_start = c == b'\n' || (at_line_start && (c == b' ' || c == b'\t' || c == b'\r'));
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if start.is_none() && c != b';' {
            start = Some(i);
        }
        match c {
            b'\'' | b'"' => {
                i = skip_quoted(bytes, i, c);
                continue;
            }
            b'$' => {
                if let Some(end) = skip_dollar(text, i) {
                    i = end;
                    continue;
                }
            }
            b';' => {
                if let Some(s) = start.take() {
                    chunks.push(make_chunk(
                        text,
                        s,
                        i,
                        std::mem::take(&mut comments),
                        &mut lines,
                    ));
                }
                comments.clear();
                at_line_start = false;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = start {
        chunks.push(make_chunk(text, s, bytes.len(), comments, &mut lines));
    }
    chunks
}

/// Line numbers counted from the previous statement on, not from the start of
/// the file: a dump of 100,000 lines is split in one pass.
#[derive(Default)]
struct LineCursor {
    offset: usize,
    /// Newlines before `offset`.
    newlines: usize,
    /// Byte offset of the line holding `offset`.
    line_start: usize,
}

impl LineCursor {
    fn line_col(&mut self, text: &str, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            return line_col(text, offset);
        }
        let between = text.get(self.offset..offset).unwrap_or_default();
        for (i, b) in between.bytes().enumerate() {
            if b == b'\n' {
                self.newlines += 1;
                self.line_start = self.offset + i + 1;
            }
        }
        self.offset = offset;
        let column = text
            .get(self.line_start..offset)
            .map_or(1, |l| l.chars().count() + 1);
        (self.newlines + 1, column)
    }
}

fn make_chunk(
    text: &str,
    start: usize,
    end: usize,
    comments: Vec<(String, usize, usize)>,
    lines: &mut LineCursor,
) -> Chunk {
    let (line, column) = lines.line_col(text, start);
    Chunk {
        text: text.get(start..end).unwrap_or("").trim_end().to_string(),
        start,
        end,
        line,
        column,
        comments,
    }
}

fn skip_quoted(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut i = open + 1;
    while i < bytes.len() {
        if bytes.get(i) == Some(&quote) {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
}

/// `$tag$ … $tag$` (PostgreSQL function bodies); `None` when `$` starts no tag
/// (a `$1` parameter).
fn skip_dollar(text: &str, open: usize) -> Option<usize> {
    let rest = text.get(open + 1..)?;
    let close = rest.find('$')?;
    let tag = rest.get(..close)?;
    if !tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || tag.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        return None;
    }
    let delimiter = format!("${tag}$");
    let body_start = open + delimiter.len();
    let body = text.get(body_start..)?;
    Some(
        body.find(&delimiter)
            .map_or(text.len(), |n| body_start + n + delimiter.len()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_semicolons_outside_strings_and_keeps_comments() {
        let text = "-- @name a\nSELECT ';' FROM t;\n\n/* x */ SELECT $1 FROM u WHERE b = $$;$$;";
        let chunks = split_statements(text);
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].text, "SELECT ';' FROM t");
        assert_eq!(chunks[0].comments[0].0, " @name a");
        assert_eq!((chunks[0].line, chunks[0].column), (2, 1));
        assert_eq!(chunks[1].text, "SELECT $1 FROM u WHERE b = $$;$$");
        assert_eq!((chunks[1].line, chunks[1].column), (4, 9));
    }

    #[test]
    fn positions_counted_incrementally_match_the_whole_file_count() {
        let text = "SET a = 1;\n\n  CREATE TABLE é (x int);\nSELECT 1; SELECT 2;\n-- c\n  SELECT 3";
        for c in split_statements(text) {
            assert_eq!((c.line, c.column), line_col(text, c.start), "{}", c.text);
        }
    }

    #[test]
    fn psql_meta_commands_are_comments() {
        let chunks = split_statements("\\restrict abc\nSET x = 1;\n");
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].text, "SET x = 1");
    }
}
