use super::*;

/// Token kinds without the trailing EOF.
fn kinds(src: &str) -> Vec<TokenKind> {
    let mut tokens: Vec<TokenKind> = lex(src).tokens.into_iter().map(|t| t.kind).collect();
    assert_eq!(tokens.pop(), Some(TokenKind::Eof));
    tokens
}

fn one(src: &str) -> TokenKind {
    let tokens = kinds(src);
    assert_eq!(tokens.len(), 1, "{src:?} lexed as {tokens:?}");
    tokens.into_iter().next().unwrap_or(TokenKind::Eof)
}

fn word(w: &str) -> TokenKind {
    TokenKind::Word(w.to_string())
}

fn string(s: &str) -> TokenKind {
    TokenKind::Str {
        value: s.to_string(),
        dollar: false,
    }
}

#[test]
fn words_keep_their_case() {
    assert_eq!(kinds("SELECT Foo"), vec![word("SELECT"), word("Foo")]);
    assert_eq!(one("a_1"), word("a_1"));
}

#[test]
fn quoted_identifiers_unescape_doubled_quotes() {
    assert_eq!(
        one(r#""My""Col""#),
        TokenKind::QuotedIdent("My\"Col".into())
    );
    assert_eq!(one(r#""""#), TokenKind::QuotedIdent(String::new()));
    assert_eq!(
        one(r#""unterminated"#),
        TokenKind::Error(ParseErrorKind::UnterminatedQuotedIdentifier)
    );
}

#[test]
fn strings_unescape_doubled_quotes() {
    assert_eq!(one("'it''s'"), string("it's"));
    assert_eq!(one("''"), string(""));
    assert_eq!(one("'héllo ✓'"), string("héllo ✓"));
    assert_eq!(
        one("'open"),
        TokenKind::Error(ParseErrorKind::UnterminatedString)
    );
}

#[test]
fn dollar_strings_are_verbatim() {
    assert_eq!(
        one("$$ return 'a;b'; $$"),
        TokenKind::Str {
            value: " return 'a;b'; ".into(),
            dollar: true
        }
    );
    assert_eq!(
        one("$$never closed"),
        TokenKind::Error(ParseErrorKind::UnterminatedString)
    );
}

#[test]
fn integers_include_a_leading_minus() {
    assert_eq!(one("42"), TokenKind::Integer("42".into()));
    assert_eq!(one("-7"), TokenKind::Integer("-7".into()));
    // As in Cassandra, `a-1` is `a` followed by `-1`.
    assert_eq!(
        kinds("a-1"),
        vec![word("a"), TokenKind::Integer("-1".into())]
    );
    assert_eq!(
        kinds("a - 1"),
        vec![
            word("a"),
            TokenKind::Punct(Punct::Minus),
            TokenKind::Integer("1".into())
        ]
    );
}

#[test]
fn floats_in_all_forms() {
    for text in ["1.5", "1.", "1e10", "1E+3", "-2.5E-3", "0.0"] {
        assert_eq!(one(text), TokenKind::Float(text.into()), "{text}");
    }
    assert_eq!(
        one("1e"),
        TokenKind::Error(ParseErrorKind::InvalidNumber { text: "1e".into() })
    );
}

#[test]
fn integer_ranges_are_not_floats() {
    assert_eq!(
        kinds("1..2"),
        vec![
            TokenKind::Integer("1".into()),
            TokenKind::Punct(Punct::Range),
            TokenKind::Integer("2".into())
        ]
    );
}

#[test]
fn special_floats() {
    assert_eq!(one("NaN"), TokenKind::SpecialFloat(SpecialFloat::NaN));
    assert_eq!(one("-nan"), TokenKind::SpecialFloat(SpecialFloat::NaN));
    assert_eq!(
        one("Infinity"),
        TokenKind::SpecialFloat(SpecialFloat::Infinity)
    );
    assert_eq!(
        one("-Infinity"),
        TokenKind::SpecialFloat(SpecialFloat::NegativeInfinity)
    );
    // Only whole words count.
    assert_eq!(
        kinds("-nano"),
        vec![TokenKind::Punct(Punct::Minus), word("nano")]
    );
}

#[test]
fn booleans_are_case_insensitive() {
    assert_eq!(one("TRUE"), TokenKind::Boolean(true));
    assert_eq!(one("false"), TokenKind::Boolean(false));
    assert_eq!(one("trueish"), word("trueish"));
}

#[test]
fn uuids_are_lower_cased() {
    assert_eq!(
        one("123E4567-E89B-12d3-a456-426614174000"),
        TokenKind::Uuid("123e4567-e89b-12d3-a456-426614174000".into())
    );
    assert_eq!(
        one("deadbeef-dead-beef-dead-beefdeadbeef"),
        TokenKind::Uuid("deadbeef-dead-beef-dead-beefdeadbeef".into())
    );
    assert_eq!(
        one("123e4567-e89b-12d3-a456"),
        TokenKind::Error(ParseErrorKind::InvalidUuid {
            text: "123e4567-e89b-12d3-a456".into()
        })
    );
}

#[test]
fn blobs_are_lower_cased_hex() {
    assert_eq!(one("0xCAFEbabe"), TokenKind::Blob("cafebabe".into()));
    assert_eq!(one("0x"), TokenKind::Blob(String::new()));
    assert_eq!(
        one("0xZZ"),
        TokenKind::Error(ParseErrorKind::InvalidBlob {
            text: "0xZZ".into()
        })
    );
}

#[test]
fn unit_durations() {
    for text in [
        "1h30m", "12mo3d", "-1d", "1y", "2w", "3ms", "4us", "5µs", "6ns", "1H30M", "89h4m48s",
    ] {
        assert_eq!(one(text), TokenKind::Duration(text.into()), "{text}");
    }
    assert_eq!(
        one("1h30x"),
        TokenKind::Error(ParseErrorKind::InvalidDuration {
            text: "1h30x".into()
        })
    );
}

#[test]
fn iso_durations() {
    for text in [
        "P1DT2H",
        "P1W",
        "P0001-02-03T04:05:06",
        "PT5M",
        "P1Y2M3DT4H5M6S",
        "-P2D",
    ] {
        assert_eq!(one(text), TokenKind::Duration(text.into()), "{text}");
    }
    // Designators are upper-case only; anything else is an identifier.
    assert_eq!(one("p1d"), word("p1d"));
    assert_eq!(one("P1"), word("P1"));
    assert_eq!(one("PT"), word("PT"));
}

#[test]
fn punctuation_and_operators() {
    let src = "= < <= > >= != + - * / % ( ) [ ] { } , ; . : += -= .. ?";
    let expected = [
        Punct::Eq,
        Punct::Lt,
        Punct::Lte,
        Punct::Gt,
        Punct::Gte,
        Punct::Neq,
        Punct::Plus,
        Punct::Minus,
        Punct::Star,
        Punct::Slash,
        Punct::Percent,
        Punct::LParen,
        Punct::RParen,
        Punct::LBracket,
        Punct::RBracket,
        Punct::LBrace,
        Punct::RBrace,
        Punct::Comma,
        Punct::Semi,
        Punct::Dot,
        Punct::Colon,
        Punct::PlusEq,
        Punct::MinusEq,
        Punct::Range,
        Punct::QMark,
    ];
    let expected: Vec<TokenKind> = expected.into_iter().map(TokenKind::Punct).collect();
    assert_eq!(kinds(src), expected);
    for punct in expected {
        if let TokenKind::Punct(p) = punct {
            assert!(src.contains(p.text()));
        }
    }
}

#[test]
fn named_bind_markers_are_colon_then_word() {
    assert_eq!(
        kinds(":id"),
        vec![TokenKind::Punct(Punct::Colon), word("id")]
    );
}

#[test]
fn comments_are_collected_with_spans() {
    let src = "-- @name q1\nSELECT /* inline */ 1 // tail\n";
    let lexed = lex(src);
    let texts: Vec<&str> = lexed.comments.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, vec![" @name q1", " inline ", " tail"]);
    let spans: Vec<&str> = lexed
        .comments
        .iter()
        .map(|c| &src[c.span.range()])
        .collect();
    assert_eq!(spans, vec!["-- @name q1", "/* inline */", "// tail"]);
    assert_eq!(lexed.tokens.len(), 3); // SELECT, 1, EOF
}

#[test]
fn unterminated_block_comment_is_an_error_token() {
    let lexed = lex("SELECT /* oops");
    assert_eq!(lexed.comments.len(), 1);
    assert_eq!(
        lexed.tokens.get(1).map(|t| &t.kind),
        Some(&TokenKind::Error(ParseErrorKind::UnterminatedComment))
    );
}

#[test]
fn stray_characters_are_error_tokens_on_char_boundaries() {
    let tokens = lex("a é b").tokens;
    assert_eq!(
        tokens.get(1).map(|t| &t.kind),
        Some(&TokenKind::Error(ParseErrorKind::UnexpectedCharacter {
            found: 'é'
        }))
    );
    assert_eq!(tokens.get(1).map(|t| t.span.range()), Some(2..4));
}

#[test]
fn token_spans_cover_their_text() {
    let src = "INSERT INTO t (a) VALUES ('x''y', -1.5e3);";
    for token in lex(src).tokens {
        let text = &src[token.span.range()];
        match token.kind {
            TokenKind::Str { .. } => assert_eq!(text, "'x''y'"),
            TokenKind::Float(f) => assert_eq!(text, f),
            TokenKind::Word(w) => assert_eq!(text, w),
            _ => {}
        }
    }
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let tokens = lex("\u{feff}USE ks").tokens;
    assert_eq!(tokens.first().map(|t| &t.kind), Some(&word("USE")));
    assert_eq!(tokens.first().map(|t| t.span.range()), Some(3..6));
}
