//! One check per input language: what must hold for *any* input, fuzzed or not.
//!
//! The checks are shared by two drivers: the cargo-fuzz targets in `fuzz/`
//! (libFuzzer, nightly toolchain, coverage-guided) and the `fuzz-smoke` binary
//! of this crate (stable toolchain, a seeded mutation loop with a time budget),
//! which CI runs so that every language is fuzzed on every change.
//!
//! A check panics when the property does not hold; the driver reports the
//! panic with the input that caused it.

mod checks;
pub mod mutate;

pub use checks::{TARGETS, Target, target};
