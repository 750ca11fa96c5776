//! `cargo +nightly fuzz run parse`: the parser never panics on any input, and
//! every statement it accepts prints as CQL that parses back to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let result = cqlmodel_cql::parse(source);
    for error in &result.errors {
        assert!(error.span.start <= error.span.end);
        assert!(error.span.end as usize <= source.len());
    }
    for statement in &result.statements {
        let printed = statement.to_string();
        let reparsed = cqlmodel_cql::parse_statement(&printed);
        assert_eq!(reparsed.as_ref(), Ok(statement), "{printed}");
    }
    let _ = cqlmodel_cql::parse_statement(source);
    let _ = cqlmodel_cql::parse_term(source);
    let _ = cqlmodel_cql::parse_data_type(source);
});
