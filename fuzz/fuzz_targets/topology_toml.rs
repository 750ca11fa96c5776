//! `cargo +nightly fuzz run topology_toml`: a topology file either fails with an
//! error or validates into a ring small enough to build.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(topology) = cqlmodel_ring::parse_topology(text) else {
        return;
    };
    if topology.validate().is_ok() {
        let _ = cqlmodel_ring::Ring::build(&topology);
    }
});
