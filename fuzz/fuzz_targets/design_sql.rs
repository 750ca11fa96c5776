//! `cargo +nightly fuzz run design_sql`: the `design_sql` check of cqlmodel-fuzzcheck,
//! coverage-guided (CI runs the same check from a stable mutation loop).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(target) = cqlmodel_fuzzcheck::target("design_sql") {
        (target.check)(data);
    }
});
