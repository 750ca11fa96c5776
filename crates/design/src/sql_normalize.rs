//! Rewrites applied to a statement of the query list before it is parsed, so
//! that select.rs and mutations.rs see one form: the placeholders of JDBC and
//! ODBC (`?`), of named-parameter drivers (`:name`) and of psycopg and
//! Django (`%(name)s`, `%s`) become PostgreSQL's numbered `$n` (one number per name).
//! Strings, quoted names and comments are left alone, and so is `::` (a cast).

/// A statement whose placeholders were numbered, with the map from its
/// positions back to the text the user wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    pub text: String,
    pub map: ColumnMap,
    /// Each number and the placeholder the user wrote for it (`?`, `:id`,
    /// `%(id)s`, `%s`), in the order first met.
    pub spellings: Vec<(usize, String)>,
}

impl Numbered {
    /// `sql` (text the designer derived from the numbered statement, such as
    /// the read an `UPDATE … FROM` makes first) with each `$n` written back as
    /// the user's placeholder. A `$n` inside a string literal is left alone.
    pub fn restore(&self, sql: &str) -> String {
        let mut out = String::with_capacity(sql.len());
        let mut in_string = false;
        let mut chars = sql.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                in_string = !in_string;
            }
            if c != '$' || in_string {
                out.push(c);
                continue;
            }
            let digits: String = sql
                .get(i + 1..)
                .unwrap_or_default()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let spelling = digits.parse::<usize>().ok().and_then(|n| {
                self.spellings
                    .iter()
                    .find(|(number, _)| *number == n)
                    .map(|(_, s)| s.as_str())
            });
            match spelling {
                Some(s) => {
                    out.push_str(s);
                    for _ in 0..digits.len() {
                        chars.next();
                    }
                }
                None => out.push(c),
            }
        }
        out
    }
}

/// Where each rewritten placeholder sits in the new text and in the original
/// one: `$12` is longer than `?` and shorter than `%(tenant_id)s`, so every
/// column after it on its line moves. Errors found in the rewritten text are
/// mapped back so that they point at what the user wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnMap {
    /// (1-based line, new start column, new length, original start column,
    /// original length), columns in characters, in text order.
    edits: Vec<(usize, usize, usize, usize, usize)>,
}

impl ColumnMap {
    /// The 1-based position in the original text of a position in the
    /// rewritten one (a position inside a placeholder maps to its start).
    pub fn original(&self, (line, column): (usize, usize)) -> (usize, usize) {
        let mut shift: isize = 0;
        for &(l, new_col, new_len, old_col, old_len) in &self.edits {
            if l != line || new_col > column {
                continue;
            }
            if column < new_col + new_len {
                return (line, old_col);
            }
            shift += old_len as isize - new_len as isize;
        }
        (line, column.saturating_add_signed(shift).max(1))
    }
}

/// The statement with numbered placeholders, or `None` when it had none to
/// rewrite.
pub fn number_placeholders(sql: &str) -> Option<Numbered> {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 8);
    let mut names: Vec<String> = Vec::new();
    let mut positional = 0usize;
    let mut changed = false;
    let mut i = 0;
    let mut copied = 0;
    let mut map = ColumnMap::default();
    let mut spellings: Vec<(usize, String)> = Vec::new();
    let mut cursor = Cursor::default();
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(b' ');
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        let skip_to = match c {
            b'\'' | b'"' => Some(closing_quote(bytes, i, c)),
            b'-' if next == b'-' => Some(
                sql.get(i..)
                    .and_then(|r| r.find('\n'))
                    .map_or(bytes.len(), |n| i + n),
            ),
            b'/' if next == b'*' => Some(
                sql.get(i + 2..)
                    .and_then(|r| r.find("*/"))
                    .map_or(bytes.len(), |n| i + n + 4),
            ),
            b':' if next == b':' => Some(i + 2),
            _ => None,
        };
        if let Some(end) = skip_to {
            i = end.max(i + 1);
            continue;
        }
        let found = match c {
            b'?' => {
                positional += 1;
                Some((1, None))
            }
            b':' if next.is_ascii_alphabetic() || next == b'_' => {
                let len = name_len(bytes, i + 1);
                Some((1 + len, sql.get(i + 1..i + 1 + len).map(str::to_string)))
            }
            // Django's and psycopg's positional `%s` (not `%s` starting a
            // longer name, which would be `%` applied to a column).
            b'%' if next == b's'
                && !bytes
                    .get(i + 2)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') =>
            {
                positional += 1;
                Some((2, None))
            }
            b'%' if next == b'(' => {
                let len = name_len(bytes, i + 2);
                (bytes.get(i + 2 + len) == Some(&b')') && bytes.get(i + 3 + len) == Some(&b's'))
                    .then(|| (len + 4, sql.get(i + 2..i + 2 + len).map(str::to_string)))
            }
            _ => None,
        };
        let Some((len, name)) = found else {
            i += 1;
            continue;
        };
        out.push_str(sql.get(copied..i).unwrap_or_default());
        let number = match name {
            None => positional + names.len(),
            Some(n) => match names.iter().position(|x| *x == n) {
                Some(p) => p + 1 + positional,
                None => {
                    names.push(n);
                    names.len() + positional
                }
            },
        };
        if !spellings.iter().any(|(n, _)| *n == number) {
            let written = sql.get(i..i + len).unwrap_or_default().to_string();
            spellings.push((number, written));
        }
        let replacement = format!("${number}");
        let (line, old_col) = cursor.advance(sql, i);
        let new_col = old_col.saturating_add_signed(cursor.shift(line));
        map.edits
            .push((line, new_col, replacement.len(), old_col, len));
        cursor.moved(replacement.len() as isize - len as isize);
        out.push_str(&replacement);
        changed = true;
        i += len;
        copied = i;
    }
    out.push_str(sql.get(copied..).unwrap_or_default());
    changed.then_some(Numbered {
        text: out,
        map,
        spellings,
    })
}

/// The line and column of a byte offset, counted forward from the last one
/// asked (offsets only grow), and the shift of the current line so far.
#[derive(Default)]
struct Cursor {
    offset: usize,
    line: usize,
    column: usize,
    shift_line: usize,
    shift: isize,
}

impl Cursor {
    fn advance(&mut self, text: &str, to: usize) -> (usize, usize) {
        if self.line == 0 {
            (self.line, self.column) = (1, 1);
        }
        for c in text.get(self.offset..to).unwrap_or_default().chars() {
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.offset = self.offset.max(to);
        (self.line, self.column)
    }

    /// How far the current line's later columns moved in the new text.
    fn shift(&mut self, line: usize) -> isize {
        if self.shift_line != line {
            (self.shift_line, self.shift) = (line, 0);
        }
        self.shift
    }

    fn moved(&mut self, by: isize) {
        self.shift += by;
    }
}

fn name_len(bytes: &[u8], from: usize) -> usize {
    bytes
        .iter()
        .skip(from)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count()
}

fn closing_quote(bytes: &[u8], open: usize, quote: u8) -> usize {
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

#[cfg(test)]
mod tests {
    use super::number_placeholders;

    /// Text derived from the numbered statement reads back with the user's
    /// placeholders; a `$n` in a string or a number never given stays.
    #[test]
    fn numbers_are_restored_to_the_placeholders_written() {
        let named = number_placeholders("UPDATE t SET a = :a WHERE id = %(id)s AND b = :a")
            .unwrap_or_else(|| panic!("rewritten"));
        assert_eq!(
            named.restore("SELECT x FROM o WHERE id = $2 AND a = $1 AND s = '$1' AND z = $9"),
            "SELECT x FROM o WHERE id = %(id)s AND a = :a AND s = '$1' AND z = $9"
        );
        let positional =
            number_placeholders("DELETE FROM t WHERE k = ?").unwrap_or_else(|| panic!("rewritten"));
        assert_eq!(
            positional.restore("SELECT k FROM o WHERE v = $1"),
            "SELECT k FROM o WHERE v = ?"
        );
    }

    #[test]
    fn question_marks_are_numbered_in_order() {
        assert_eq!(
            number_placeholders("SELECT a FROM t WHERE b = ? AND c > ? AND d = '?'")
                .map(|n| n.text)
                .as_deref(),
            Some("SELECT a FROM t WHERE b = $1 AND c > $2 AND d = '?'")
        );
    }

    #[test]
    fn named_placeholders_get_one_number_per_name_and_casts_stay() {
        assert_eq!(
            number_placeholders("UPDATE t SET a = :a, b = :b::int WHERE id = :id AND a <> :a")
                .map(|n| n.text)
                .as_deref(),
            Some("UPDATE t SET a = $1, b = $2::int WHERE id = $3 AND a <> $1")
        );
        assert_eq!(
            number_placeholders("SELECT x FROM t WHERE id = %(id)s AND y = %(y)s")
                .map(|n| n.text)
                .as_deref(),
            Some("SELECT x FROM t WHERE id = $1 AND y = $2")
        );
    }

    #[test]
    fn positions_map_back_to_the_text_the_user_wrote() {
        let sql = "SELECT a FROM t\nWHERE id = %(tenant_id)s AND b = ? AND é = :name AND c ~ 'x'";
        let Some(n) = number_placeholders(sql) else {
            panic!("placeholders expected")
        };
        assert_eq!(
            n.text,
            "SELECT a FROM t\nWHERE id = $1 AND b = $2 AND é = $3 AND c ~ 'x'"
        );
        // `~` after the rewrite sits at column 43 of line 2; the user wrote it at 56.
        let written = sql
            .lines()
            .nth(1)
            .and_then(|l| l.chars().position(|c| c == '~'));
        let rewritten = n
            .text
            .lines()
            .nth(1)
            .and_then(|l| l.chars().position(|c| c == '~'));
        assert_eq!((written, rewritten), (Some(55), Some(42)));
        assert_eq!(n.map.original((2, 43)), (2, 56));
        // Inside a placeholder: its start; before any: unchanged; line 1 untouched.
        assert_eq!(n.map.original((2, 12)), (2, 12));
        assert_eq!(n.map.original((2, 13)), (2, 12));
        assert_eq!(n.map.original((2, 5)), (2, 5));
        assert_eq!(n.map.original((1, 10)), (1, 10));
    }

    #[test]
    fn django_positional_placeholders_are_numbered_but_modulo_stays() {
        assert_eq!(
            number_placeholders("SELECT a % size FROM t WHERE b = %s AND c IN (%s, %s)")
                .map(|n| n.text)
                .as_deref(),
            Some("SELECT a % size FROM t WHERE b = $1 AND c IN ($2, $3)")
        );
    }

    #[test]
    fn numbered_statements_are_left_alone() {
        assert_eq!(
            number_placeholders("SELECT a::text FROM t WHERE b = $1 -- ?"),
            None
        );
    }
}
