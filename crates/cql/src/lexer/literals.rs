//! Recognizers for the literal forms that need more than one character of lookahead:
//! UUIDs, numbers and durations. Each takes the source bytes and a start offset and
//! returns the end offset of the longest match, or `None`.
//!
//! Forms follow Cassandra's `Lexer.g`: durations use case-insensitive units
//! (`1h30m`, `12mo3d`, `1µs`) or ISO 8601 forms with upper-case designators
//! (`P1DT2H`, `P1W`, `P0001-02-03T04:05:06`).

pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True when nothing that could continue a word follows `end`.
pub(crate) fn at_word_boundary(bytes: &[u8], end: usize) -> bool {
    !bytes.get(end).is_some_and(|&b| is_ident_byte(b))
}

fn count_while(bytes: &[u8], start: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(start..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| pred(b)).count())
}

fn digits(bytes: &[u8], start: usize) -> usize {
    count_while(bytes, start, |b| b.is_ascii_digit())
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with hex digits.
pub(crate) fn match_uuid(bytes: &[u8], start: usize) -> Option<usize> {
    let mut pos = start;
    for (i, len) in [8usize, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            if bytes.get(pos) != Some(&b'-') {
                return None;
            }
            pos += 1;
        }
        let n = count_while(bytes, pos, |b| b.is_ascii_hexdigit());
        if n < len {
            return None;
        }
        pos += len;
    }
    at_word_boundary(bytes, pos).then_some(pos)
}

/// Eight hex digits and a dash followed by another hex digit: the writer meant a
/// UUID, so a failed [`match_uuid`] is worth its own error.
pub(crate) fn looks_like_uuid(bytes: &[u8], start: usize) -> bool {
    count_while(bytes, start, |b| b.is_ascii_hexdigit()) == 8
        && bytes.get(start + 8) == Some(&b'-')
        && bytes.get(start + 9).is_some_and(|b| b.is_ascii_hexdigit())
}

/// The extent of a malformed UUID, for the error span.
pub(crate) fn uuid_like_run(bytes: &[u8], start: usize) -> usize {
    start + count_while(bytes, start, |b| b.is_ascii_hexdigit() || b == b'-')
}

/// The end of a run of identifier bytes, for the span of a malformed literal.
pub(crate) fn word_run(bytes: &[u8], start: usize) -> usize {
    start + count_while(bytes, start, is_ident_byte)
}

/// What [`match_number`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberKind {
    Integer,
    Float,
    Duration,
}

/// A number starting at `start` (optionally with a leading `-`): integer, float
/// (`1.5`, `1.`, `1e10`, `2.5E-3`) or unit duration (`1h30m`). `None` when digits
/// are followed by letters that form neither.
pub(crate) fn match_number(bytes: &[u8], start: usize) -> Option<(NumberKind, usize)> {
    let body = if bytes.get(start) == Some(&b'-') {
        start + 1
    } else {
        start
    };
    let int_len = digits(bytes, body);
    if int_len == 0 {
        return None;
    }
    let mut pos = body + int_len;
    let mut kind = NumberKind::Integer;
    // `1..2` is a range between integers, not a float.
    if bytes.get(pos) == Some(&b'.') && bytes.get(pos + 1) != Some(&b'.') {
        pos += 1;
        pos += digits(bytes, pos);
        kind = NumberKind::Float;
    }
    if let Some(end) = match_exponent(bytes, pos) {
        pos = end;
        kind = NumberKind::Float;
    }
    if kind == NumberKind::Integer
        && let Some(end) = match_unit_duration(bytes, body)
    {
        return Some((NumberKind::Duration, end));
    }
    at_word_boundary(bytes, pos).then_some((kind, pos))
}

/// The extent of a malformed number: identifier bytes, dots and non-ASCII bytes
/// (such as a misplaced `µ`). Ends on a char boundary because a run of non-ASCII
/// bytes only stops at an ASCII byte or the end.
pub(crate) fn malformed_number_end(bytes: &[u8], start: usize) -> usize {
    let body = if bytes.get(start) == Some(&b'-') {
        start + 1
    } else {
        start
    };
    body + count_while(bytes, body, |b| is_ident_byte(b) || b == b'.' || b >= 0x80)
}

/// Whether a malformed number was meant as a duration: digits then a unit letter.
pub(crate) fn has_unit_letter(text: &str) -> bool {
    text.trim_start_matches('-')
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .starts_with(|c: char| "ymwdhsunµYMWDHSUN".contains(c))
}

fn match_exponent(bytes: &[u8], pos: usize) -> Option<usize> {
    if !matches!(bytes.get(pos), Some(b'e' | b'E')) {
        return None;
    }
    let mut p = pos + 1;
    if matches!(bytes.get(p), Some(b'+' | b'-')) {
        p += 1;
    }
    let n = digits(bytes, p);
    (n > 0).then_some(p + n)
}

/// `(DIGIT+ UNIT)+` with units `y mo w d h m s ms us µs ns`, any case.
fn match_unit_duration(bytes: &[u8], start: usize) -> Option<usize> {
    let mut pos = start;
    loop {
        let n = digits(bytes, pos);
        if n == 0 {
            return None;
        }
        pos += n;
        pos += unit_len(bytes, pos)?;
        if !bytes.get(pos).is_some_and(u8::is_ascii_digit) {
            break;
        }
    }
    at_word_boundary(bytes, pos).then_some(pos)
}

fn unit_len(bytes: &[u8], pos: usize) -> Option<usize> {
    let lower = |i: usize| bytes.get(pos + i).map(u8::to_ascii_lowercase);
    // "µ" is U+00B5, two bytes in UTF-8.
    if bytes.get(pos..pos + 2) == Some(&[0xC2, 0xB5]) && lower(2) == Some(b's') {
        return Some(3);
    }
    match (lower(0), lower(1)) {
        (Some(b'm'), Some(b'o' | b's')) | (Some(b'u' | b'n'), Some(b's')) => Some(2),
        (Some(b'y' | b'w' | b'd' | b'h' | b'm' | b's'), _) => Some(1),
        _ => None,
    }
}

/// ISO 8601 durations at `start`, which holds `P` or `-P`.
pub(crate) fn match_iso_duration(bytes: &[u8], start: usize) -> Option<usize> {
    let p = if bytes.get(start) == Some(&b'-') {
        start + 1
    } else {
        start
    };
    if bytes.get(p) != Some(&b'P') {
        return None;
    }
    let end =
        match_iso_alternative(bytes, p + 1).or_else(|| match_iso_designators(bytes, p + 1))?;
    at_word_boundary(bytes, end).then_some(end)
}

/// `P0001-02-03T04:05:06`.
fn match_iso_alternative(bytes: &[u8], start: usize) -> Option<usize> {
    let mut pos = start;
    for (len, sep) in [
        (4, Some(b'-')),
        (2, Some(b'-')),
        (2, Some(b'T')),
        (2, Some(b':')),
        (2, Some(b':')),
        (2, None),
    ] {
        if digits(bytes, pos) < len {
            return None;
        }
        pos += len;
        if let Some(sep) = sep {
            if bytes.get(pos) != Some(&sep) {
                return None;
            }
            pos += 1;
        }
    }
    Some(pos)
}

/// `P1W`, or `P[nY][nM][nD][T[nH][nM][nS]]` with at least one component.
fn match_iso_designators(bytes: &[u8], start: usize) -> Option<usize> {
    let component = |pos: usize, unit: u8| -> Option<usize> {
        let n = digits(bytes, pos);
        (n > 0 && bytes.get(pos + n) == Some(&unit)).then_some(pos + n + 1)
    };
    if let Some(end) = component(start, b'W') {
        return Some(end);
    }
    let mut pos = start;
    let mut any = false;
    for unit in [b'Y', b'M', b'D'] {
        if let Some(end) = component(pos, unit) {
            pos = end;
            any = true;
        }
    }
    if bytes.get(pos) == Some(&b'T') {
        let mut time_pos = pos + 1;
        let mut any_time = false;
        for unit in [b'H', b'M', b'S'] {
            if let Some(end) = component(time_pos, unit) {
                time_pos = end;
                any_time = true;
            }
        }
        if !any_time {
            return None;
        }
        pos = time_pos;
        any = true;
    }
    any.then_some(pos)
}
