//! `cqlmodel token`: the Murmur3 token of a typed partition key, or of a stream
//! of hex keys on stdin.

use std::io::{Read, Write};

use cqlmodel_cql::ast::{Literal, Term, TermKind};
use cqlmodel_ring::{partition_key_bytes, serialize_term, token_of_key};
use cqlmodel_schema::resolve::{TypeLookup, resolve_type};
use cqlmodel_schema::types::{CqlType, UdtDef};

/// A typed key that cannot be turned into bytes.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("type {index} ({text:?}): {message}")]
    Type {
        index: usize,
        text: String,
        message: String,
    },
    #[error("value {index} ({text:?}): {message}")]
    Value {
        index: usize,
        text: String,
        message: String,
    },
    #[error("{types} types but {values} values: give one value per partition key component")]
    Count { types: usize, values: usize },
    #[error("type {index}: {ty} cannot be part of a partition key")]
    NotAKeyType { index: usize, ty: String },
}

/// The key bytes and token of a typed key given as CQL types and values.
#[derive(Debug, serde::Serialize)]
pub struct TypedToken {
    pub types: Vec<String>,
    pub values: Vec<String>,
    /// The partition key bytes, hex.
    pub key: String,
    pub token: i64,
}

struct NoUdts;
impl TypeLookup for NoUdts {
    fn udt(&self, _: &str, _: &str) -> Option<std::sync::Arc<UdtDef>> {
        None
    }
}

/// `types` and `values` are comma-separated lists (commas inside `<>`, `()`,
/// `[]`, `{}` and quotes do not split). A value that is not a CQL literal is taken
/// as a string when the type accepts strings: `token --type text hello`.
pub fn typed_token(types: &str, values: &str) -> Result<TypedToken, KeyError> {
    let type_texts = split_top_level(types);
    let value_texts = split_top_level(values);
    if type_texts.len() != value_texts.len() {
        return Err(KeyError::Count {
            types: type_texts.len(),
            values: value_texts.len(),
        });
    }
    let mut components = Vec::with_capacity(type_texts.len());
    for (i, (t, v)) in type_texts.iter().zip(&value_texts).enumerate() {
        let index = i + 1;
        let written = cqlmodel_cql::parse_data_type(t).map_err(|e| KeyError::Type {
            index,
            text: t.to_string(),
            message: e.to_string(),
        })?;
        let ty = resolve_type(&written, "", &NoUdts).map_err(|(kind, _)| KeyError::Type {
            index,
            text: t.to_string(),
            message: kind.to_string(),
        })?;
        if !cqlmodel_ring::can_be_partition_key(&ty) {
            return Err(KeyError::NotAKeyType {
                index,
                ty: ty.to_string(),
            });
        }
        let bytes = value_bytes(&ty, v).map_err(|message| KeyError::Value {
            index,
            text: v.to_string(),
            message,
        })?;
        components.push(bytes);
    }
    let refs: Vec<&[u8]> = components.iter().map(Vec::as_slice).collect();
    let key = partition_key_bytes(&refs);
    Ok(TypedToken {
        types: type_texts.iter().map(|t| t.to_string()).collect(),
        values: value_texts.iter().map(|v| v.to_string()).collect(),
        key: hex(&key),
        token: token_of_key(&key).0,
    })
}

fn value_bytes(ty: &CqlType, text: &str) -> Result<Vec<u8>, String> {
    let as_string = || Term {
        kind: TermKind::Literal(Literal::String(text.to_string())),
        span: Default::default(),
    };
    match cqlmodel_cql::parse_term(text) {
        Ok(term) => match serialize_term(ty, &term) {
            Ok(b) => Ok(b),
            // `hello` parses as an identifier-like term; `2024-01-02` as arithmetic.
            Err(first) => serialize_term(ty, &as_string()).map_err(|_| first.to_string()),
        },
        Err(parse_error) => serialize_term(ty, &as_string())
            .map_err(|_| format!("not a valid {ty} value (as CQL: {parse_error})")),
    }
}

/// Splits at commas outside brackets and quotes; trims each part.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '<' | '(' | '[' | '{') => depth += 1,
            (None, '>' | ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(text.get(start..i).unwrap_or_default().trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text.get(start..).unwrap_or_default().trim());
    parts
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    s
}

/// A bad line of `token --hex -` input.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error("stdin:{line}:{column}: invalid hex digit {found:?} (expected 0-9, a-f or A-F)")]
    BadDigit {
        line: u64,
        column: usize,
        found: char,
    },
    #[error("stdin:{line}: odd number of hex digits in component {component}")]
    OddLength { line: u64, component: usize },
    #[error(
        "stdin:{line}: component {component} is {len} bytes; a composite key component holds at most 65535"
    )]
    TooLong {
        line: u64,
        component: usize,
        len: usize,
    },
    #[error(
        "stdin:{line}: the line is longer than {limit} bytes; a partition key is at most 65535 bytes (131070 hex digits)"
    )]
    LineTooLong { line: u64, limit: usize },
    #[error("reading stdin: {0}")]
    Read(std::io::Error),
    #[error("writing stdout: {0}")]
    Write(std::io::Error),
}

/// The longest input line `token --hex -` reads: a key of 64 KiB is 128 KiB
/// of hex digits; the rest is room for `0x` prefixes and separators.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads one key per line (hex bytes; `,` separates the components of a composite
/// key; an empty line is the empty key) and writes one signed decimal token per line.
/// Returns the number of keys. Works in chunks so memory stays flat on any input size.
pub fn hex_stream(mut input: impl Read, mut output: impl Write) -> Result<u64, StreamError> {
    const CHUNK: usize = 1 << 20;
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK * 2);
    let mut out: Vec<u8> = Vec::with_capacity(CHUNK);
    let mut key = Vec::with_capacity(256);
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut line_no: u64 = 0;
    let mut eof = false;
    let mut itoa = itoa::Buffer::new();
    while !eof {
        let start = buf.len();
        buf.resize(start + CHUNK, 0);
        let n = input
            .read(buf.get_mut(start..).unwrap_or_default())
            .map_err(StreamError::Read)?;
        buf.truncate(start + n);
        if n == 0 {
            eof = true;
            if buf.is_empty() {
                break;
            }
            // A last line without its newline.
            if buf.last() != Some(&b'\n') {
                buf.push(b'\n');
            }
        }
        let mut consumed = 0;
        for nl in memchr::memchr_iter(b'\n', &buf) {
            let mut line = buf.get(consumed..nl).unwrap_or_default();
            if line.last() == Some(&b'\r') {
                line = line.get(..line.len() - 1).unwrap_or_default();
            }
            line_no += 1;
            if let Err(e) = decode_key(line, line_no, &mut key, &mut parts) {
                // Every line before the bad one gets its token.
                output.write_all(&out).map_err(StreamError::Write)?;
                output.flush().map_err(StreamError::Write)?;
                return Err(e);
            }
            out.extend_from_slice(itoa.format(token_of_key(&key).0).as_bytes());
            out.push(b'\n');
            consumed = nl + 1;
        }
        buf.drain(..consumed);
        // What is left is the start of a line: bounded, so that memory stays
        // flat and each chunk rescans at most this much.
        if buf.len() > MAX_LINE_BYTES {
            output.write_all(&out).map_err(StreamError::Write)?;
            output.flush().map_err(StreamError::Write)?;
            return Err(StreamError::LineTooLong {
                line: line_no + 1,
                limit: MAX_LINE_BYTES,
            });
        }
        if out.len() >= CHUNK {
            output.write_all(&out).map_err(StreamError::Write)?;
            out.clear();
        }
    }
    output.write_all(&out).map_err(StreamError::Write)?;
    output.flush().map_err(StreamError::Write)?;
    Ok(line_no)
}

/// Decodes a line into the key bytes: one component is the key itself; several
/// are serialized as Cassandra's CompositeType.
fn decode_key(
    line: &[u8],
    line_no: u64,
    key: &mut Vec<u8>,
    parts: &mut Vec<Vec<u8>>,
) -> Result<(), StreamError> {
    key.clear();
    if !line.contains(&b',') {
        return decode_hex(line, line_no, 1, 0, key);
    }
    parts.clear();
    let mut column = 0;
    for (i, comp) in line.split(|b| *b == b',').enumerate() {
        let mut bytes = Vec::with_capacity(comp.len() / 2);
        decode_hex(comp, line_no, i + 1, column, &mut bytes)?;
        if bytes.len() > usize::from(u16::MAX) {
            return Err(StreamError::TooLong {
                line: line_no,
                component: i + 1,
                len: bytes.len(),
            });
        }
        column += comp.len() + 1;
        parts.push(bytes);
    }
    for p in parts.iter() {
        let len = u16::try_from(p.len()).unwrap_or(u16::MAX);
        key.extend_from_slice(&len.to_be_bytes());
        key.extend_from_slice(p);
        key.push(0);
    }
    Ok(())
}

/// Hex digit values; 0xff marks a non-digit.
const HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

fn decode_hex(
    text: &[u8],
    line: u64,
    component: usize,
    column0: usize,
    out: &mut Vec<u8>,
) -> Result<(), StreamError> {
    let text = text
        .strip_prefix(b"0x")
        .or_else(|| text.strip_prefix(b"0X"))
        .unwrap_or(text);
    if !text.len().is_multiple_of(2) {
        return Err(StreamError::OddLength { line, component });
    }
    out.reserve(text.len() / 2);
    for pair in text.chunks_exact(2) {
        let (hi, lo) = match pair {
            [hi, lo] => (HEX[usize::from(*hi)], HEX[usize::from(*lo)]),
            _ => continue,
        };
        if (hi | lo) == 0xff {
            // Report the first offending digit exactly.
            let bad = text
                .iter()
                .position(|b| HEX[usize::from(*b)] == 0xff)
                .unwrap_or(0);
            return Err(StreamError::BadDigit {
                line,
                column: column0 + bad + 1,
                found: char::from(text.get(bad).copied().unwrap_or(b'?')),
            });
        }
        out.push(hi << 4 | lo);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, StreamError> {
        let mut out = Vec::new();
        hex_stream(input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap_or_default())
    }

    #[test]
    fn one_token_per_line_including_the_empty_key() {
        let out = run("68656c6c6f\n\n").unwrap_or_default();
        assert_eq!(out, format!("-3758069500696749310\n{}\n", i64::MIN));
    }

    #[test]
    fn composite_keys_are_serialized_as_cassandra_does() {
        let out = run("0000002a,68656c6c6f\n").unwrap_or_default();
        let key = partition_key_bytes(&[&[0, 0, 0, 42], b"hello"]);
        assert_eq!(out, format!("{}\n", token_of_key(&key).0));
    }

    #[test]
    fn last_line_without_newline_and_crlf() {
        assert_eq!(
            run("68656c6c6f\r\n68656c6c6f")
                .unwrap_or_default()
                .lines()
                .count(),
            2
        );
    }

    #[test]
    fn bad_lines_name_line_and_column() {
        let e = run("00\n0g\n")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(
            e,
            "stdin:2:2: invalid hex digit 'g' (expected 0-9, a-f or A-F)"
        );
        let e = run("abc\n")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(e, "stdin:1: odd number of hex digits in component 1");
    }

    #[test]
    fn typed_values_accept_bare_strings_and_composites() {
        let t = typed_token("int,text", "42,hello").expect("valid key");
        let key = partition_key_bytes(&[&[0, 0, 0, 42], b"hello"]);
        assert_eq!(t.token, token_of_key(&key).0);
        let quoted = typed_token("text", "'hello'").expect("valid key");
        assert_eq!(quoted.token, -3758069500696749310);
    }

    #[test]
    fn split_respects_nesting_and_quotes() {
        assert_eq!(
            split_top_level("frozen<map<text, int>>,int"),
            vec!["frozen<map<text, int>>", "int"]
        );
        assert_eq!(split_top_level("'a,b',[1,2]"), vec!["'a,b'", "[1,2]"]);
    }

    #[test]
    fn a_line_past_the_limit_is_an_error_after_the_lines_before_it() {
        let long = ",".repeat(3 * MAX_LINE_BYTES);
        let input = format!("00\n{long}\n01\n");
        let mut out = Vec::new();
        let err = hex_stream(input.as_bytes(), &mut out);
        assert!(
            matches!(err, Err(StreamError::LineTooLong { line: 2, .. })),
            "{err:?}"
        );
        assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 1);
    }
}
