//! `cargo +nightly fuzz run parse`: the CQL check of cqlmodel-fuzzcheck (no
//! panic, spans inside the input, accepted statements round-trip).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(target) = cqlmodel_fuzzcheck::target("cql") {
        (target.check)(data);
    }
});
