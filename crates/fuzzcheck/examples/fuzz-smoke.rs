//! `fuzz-smoke`: every input language fuzzed for a bounded time on stable Rust.
//! An example, not a binary: the workspace keeps one binary, so that
//! `cargo run -- …` at the root runs `cqlmodel`.
//!
//! ```text
//! cargo run -p cqlmodel-fuzzcheck --example fuzz-smoke -- [--seconds N] [--seed S] [--target NAME]
//! ```
//!
//! Seeds come from the repository's own fixtures; each iteration mutates one
//! seed (see `mutate`) and runs the target's check. A failing input is saved
//! under `target/fuzz-smoke/` and the run exits 1; the seed printed at the
//! start replays the same sequence.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cqlmodel_fuzzcheck::mutate::{Rng, mutate};
use cqlmodel_fuzzcheck::{TARGETS, Target};

/// Seeds larger than this are skipped: mutation time goes to many small inputs.
const MAX_SEED_BYTES: u64 = 256 * 1024;

struct Options {
    seconds: f64,
    seed: u64,
    only: Option<String>,
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fuzz-smoke: {message}");
            eprintln!("usage: fuzz-smoke [--seconds N] [--seed S] [--target NAME]");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out_dir = root.join("target/fuzz-smoke");
    // Panics are caught and reported with their input; the default hook's
    // backtrace noise per caught panic would bury the summary.
    panic::set_hook(Box::new(|_| {}));
    println!(
        "fuzz-smoke: seed {}, {} s per target",
        options.seed, options.seconds
    );
    let mut failed = false;
    for target in TARGETS {
        if options
            .only
            .as_deref()
            .is_some_and(|only| only != target.name)
        {
            continue;
        }
        failed |= !run_target(target, &root, &out_dir, &options);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        seconds: 10.0,
        seed: 0x5eed_cafe,
        only: None,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--seconds" => {
                options.seconds = value()?.parse().map_err(|_| "--seconds takes a number")?
            }
            "--seed" => options.seed = value()?.parse().map_err(|_| "--seed takes an integer")?,
            "--target" => {
                let name = value()?;
                if !TARGETS.iter().any(|t| t.name == name) {
                    let names: Vec<_> = TARGETS.iter().map(|t| t.name).collect();
                    return Err(format!("no target {name:?}; targets: {}", names.join(", ")));
                }
                options.only = Some(name);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if !(options.seconds.is_finite() && options.seconds > 0.0) {
        return Err("--seconds must be positive".into());
    }
    Ok(options)
}

/// Runs one target for its time budget; false when a check failed.
fn run_target(target: &Target, root: &Path, out_dir: &Path, options: &Options) -> bool {
    let mut seeds = Vec::new();
    for dir in target.seed_dirs {
        collect_seeds(&root.join(dir), &mut seeds);
    }
    if seeds.is_empty() {
        seeds.push(Vec::new());
    }
    let mut rng = Rng::new(options.seed ^ fnv(target.name));
    let budget = Duration::from_secs_f64(options.seconds);
    let start = Instant::now();
    let (mut iterations, mut failures) = (0u64, 0u64);
    let mut slowest = (Duration::ZERO, 0usize);
    // The seeds themselves first, then mutations until the budget is spent.
    while iterations < seeds.len() as u64 || start.elapsed() < budget {
        let input = if (iterations as usize) < seeds.len() {
            seeds[iterations as usize].clone()
        } else {
            let base = &seeds[rng.below(seeds.len())];
            let other = &seeds[rng.below(seeds.len())];
            mutate(base, other, target.dictionary, &mut rng)
        };
        let began = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| (target.check)(&input)));
        let took = began.elapsed();
        if took > slowest.0 {
            slowest = (took, input.len());
        }
        if let Err(payload) = outcome {
            failures += 1;
            report_failure(target.name, iterations, &input, payload.as_ref(), out_dir);
        }
        iterations += 1;
    }
    println!(
        "{:<14} {:>8} inputs from {:>3} seeds in {:>5.1} s, slowest {:.0} ms ({} bytes), {} failing",
        target.name,
        iterations,
        seeds.len(),
        start.elapsed().as_secs_f64(),
        slowest.0.as_secs_f64() * 1000.0,
        slowest.1,
        failures
    );
    failures == 0
}

fn report_failure(
    name: &str,
    iteration: u64,
    input: &[u8],
    payload: &(dyn std::any::Any + Send),
    out_dir: &Path,
) {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(non-text panic)");
    let path = out_dir.join(format!("{name}-{iteration}.bin"));
    let saved = std::fs::create_dir_all(out_dir).and_then(|()| std::fs::write(&path, input));
    match saved {
        Ok(()) => eprintln!(
            "{name}: FAILED at input {iteration}: {message}\n  input saved to {}",
            path.display()
        ),
        Err(e) => eprintln!(
            "{name}: FAILED at input {iteration}: {message}\n  (could not save the input to {}: {e})",
            path.display()
        ),
    }
}

/// Every regular file under `dir` (recursively), in a stable order.
fn collect_seeds(dir: &Path, seeds: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect_seeds(&path, seeds);
        } else if path.metadata().is_ok_and(|m| m.len() <= MAX_SEED_BYTES)
            && let Ok(bytes) = std::fs::read(&path)
        {
            seeds.push(bytes);
        }
    }
}

/// A stable hash of the target name, so each target gets its own sequence.
fn fnv(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
