//! `cargo +nightly fuzz run topology_toml`: the `topology_toml` check of cqlmodel-fuzzcheck,
//! coverage-guided (CI runs the same check from a stable mutation loop).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(target) = cqlmodel_fuzzcheck::target("topology_toml") {
        (target.check)(data);
    }
});
