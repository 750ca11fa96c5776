//! `cargo +nightly fuzz run nodetool`: the `nodetool` check of
//! cqlmodel-fuzzcheck (tablestats, tablehistograms and status readers, then
//! the analysis of whatever they read).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(target) = cqlmodel_fuzzcheck::target("nodetool") {
        (target.check)(data);
    }
});
