//! Rewrites applied to a statement of the query list before it is parsed, so
//! that select.rs and mutations.rs see one form: the placeholders of JDBC and
//! ODBC (`?`), of named-parameter drivers (`:name`) and of psycopg
//! (`%(name)s`) become PostgreSQL's numbered `$n` (one number per name).
//! Strings, quoted names and comments are left alone, and so is `::` (a cast).

/// The statement with numbered placeholders, or `None` when it had none to
/// rewrite. A rewritten placeholder is longer than `?`: a column that a later
/// error reports on the same line may then be off by the added characters.
pub fn number_placeholders(sql: &str) -> Option<String> {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 8);
    let mut names: Vec<String> = Vec::new();
    let mut positional = 0usize;
    let mut changed = false;
    let mut i = 0;
    let mut copied = 0;
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
        out.push_str(&format!("${number}"));
        changed = true;
        i += len;
        copied = i;
    }
    out.push_str(sql.get(copied..).unwrap_or_default());
    changed.then_some(out)
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

    #[test]
    fn question_marks_are_numbered_in_order() {
        assert_eq!(
            number_placeholders("SELECT a FROM t WHERE b = ? AND c > ? AND d = '?'").as_deref(),
            Some("SELECT a FROM t WHERE b = $1 AND c > $2 AND d = '?'")
        );
    }

    #[test]
    fn named_placeholders_get_one_number_per_name_and_casts_stay() {
        assert_eq!(
            number_placeholders("UPDATE t SET a = :a, b = :b::int WHERE id = :id AND a <> :a")
                .as_deref(),
            Some("UPDATE t SET a = $1, b = $2::int WHERE id = $3 AND a <> $1")
        );
        assert_eq!(
            number_placeholders("SELECT x FROM t WHERE id = %(id)s AND y = %(y)s").as_deref(),
            Some("SELECT x FROM t WHERE id = $1 AND y = $2")
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
