//! How a column's values are spread over its rows: the `distribution` field of
//! the statistics file, and the Zipf arithmetic behind skewed keys.

use std::fmt;

use crate::units::{self, UnitError};

/// A column's value distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Distribution {
    /// Every value holds the same share of the rows.
    Uniform,
    /// The value of rank `k` (1 = hottest) holds a share proportional to `k^-exponent`.
    Zipf { exponent: f64 },
    /// Monotonic ids `1, 2, 3, …`: every value equally often (like `Uniform` for
    /// sizes), generated in order when sampling keys.
    Sequential,
    /// Timestamps (or timeuuids) arriving at `per_second` new values a second: within
    /// a partition for a clustering column, table-wide for a partition-key column.
    Time { per_second: f64 },
}

impl Distribution {
    /// Parses `uniform`, `zipf(1.1)`, `sequential`, `time(1/s)` (also `time` = `time(1/s)`).
    pub fn parse(text: &str) -> Result<Self, UnitError> {
        let text = text.trim();
        let (name, arg) = match text.split_once('(') {
            Some((name, rest)) => {
                let arg = rest.strip_suffix(')').ok_or_else(|| {
                    UnitError(format!(
                        "`{text}`: missing `)` after the distribution's argument"
                    ))
                })?;
                (name.trim(), Some(arg.trim()))
            }
            None => (text, None),
        };
        match (name.to_ascii_lowercase().as_str(), arg) {
            ("uniform", None) => Ok(Distribution::Uniform),
            ("sequential" | "monotonic", None) => Ok(Distribution::Sequential),
            ("time", None) => Ok(Distribution::Time { per_second: 1.0 }),
            ("time", Some(rate)) => Ok(Distribution::Time {
                per_second: units::parse_rate(rate)?,
            }),
            ("zipf", Some(s)) => match s.parse::<f64>() {
                Ok(exponent) if exponent.is_finite() && exponent > 0.0 && exponent <= 10.0 => {
                    Ok(Distribution::Zipf { exponent })
                }
                _ => Err(UnitError(format!(
                    "`{text}`: the Zipf exponent must be a number in (0, 10], e.g. zipf(1.1)"
                ))),
            },
            ("zipf", None) => Err(UnitError(format!(
                "`{text}`: give the Zipf exponent, e.g. zipf(1.1)"
            ))),
            ("uniform" | "sequential" | "monotonic", Some(_)) => {
                Err(UnitError(format!("`{text}`: `{name}` takes no argument")))
            }
            _ => Err(UnitError(format!(
                "unknown distribution `{text}`: expected uniform, zipf(S), sequential or time(RATE)"
            ))),
        }
    }

    pub fn is_time(&self) -> bool {
        matches!(self, Distribution::Time { .. })
    }
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Distribution::Uniform => f.write_str("uniform"),
            Distribution::Zipf { exponent } => write!(f, "zipf({exponent})"),
            Distribution::Sequential => f.write_str("sequential"),
            Distribution::Time { per_second } => {
                write!(f, "time({})", units::format_rate(*per_second))
            }
        }
    }
}

/// Terms below this rank are added one by one; from it on, Euler–Maclaurin.
const EXACT_BELOW: f64 = 64.0;

/// `Σ_{k=a}^{b} k^-s` for `1 <= a <= b` (real bounds are rounded to integers):
/// the first terms exactly, the rest by Euler–Maclaurin (integral, end-point and
/// first-derivative terms), whose next term is below 1e-9 of the sum from rank 64 on.
pub fn harmonic_range(a: f64, b: f64, s: f64) -> f64 {
    let (a, b) = (a.round().max(1.0), b.round());
    if b < a {
        return 0.0;
    }
    let mut sum = 0.0;
    let exact_end = b.min(EXACT_BELOW - 1.0);
    let mut k = exact_end;
    // Smallest terms first for accuracy.
    while k >= a {
        sum += k.powf(-s);
        k -= 1.0;
    }
    let tail_start = a.max(EXACT_BELOW);
    if b >= tail_start {
        sum += euler_maclaurin(tail_start, b, s);
    }
    sum
}

fn euler_maclaurin(a: f64, b: f64, s: f64) -> f64 {
    let f = |x: f64| x.powf(-s);
    let integral = if (s - 1.0).abs() < 1e-12 {
        (b / a).ln()
    } else {
        (b.powf(1.0 - s) - a.powf(1.0 - s)) / (1.0 - s)
    };
    let derivative = |x: f64| -s * x.powf(-s - 1.0);
    integral + (f(a) + f(b)) / 2.0 + (derivative(b) - derivative(a)) / 12.0
}

/// The generalized harmonic number `H(n, s) = Σ_{k=1}^{n} k^-s`.
pub fn harmonic(n: f64, s: f64) -> f64 {
    harmonic_range(1.0, n, s)
}

/// A run of `count` values that each hold `share` of the rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Group {
    pub share: f64,
    pub count: f64,
}

/// Cardinalities are capped here (far beyond any real column) so that products of
/// several columns stay finite.
pub const MAX_DISTINCT: f64 = 1e18;

/// Ranks kept one by one at the top of a Zipf distribution (the hottest keys).
const EXACT_RANKS: f64 = 512.0;
/// Beyond the exact ranks, a group spans ranks whose shares differ by at most ~2%.
const GROUP_RATIO: f64 = 1.02;

/// The shares of `n` values under `distribution`, as groups of equal share
/// (ascending rank: the hottest value first). The shares add up to 1.
pub fn groups(distribution: &Distribution, n: f64) -> Vec<Group> {
    let n = n.round().clamp(1.0, MAX_DISTINCT);
    match distribution {
        Distribution::Zipf { exponent } => zipf_groups(n, *exponent),
        _ => vec![Group {
            share: 1.0 / n,
            count: n,
        }],
    }
}

fn zipf_groups(n: f64, s: f64) -> Vec<Group> {
    let total = harmonic(n, s);
    let mut out = Vec::new();
    let exact = n.min(EXACT_RANKS);
    let mut k = 1.0;
    while k <= exact {
        out.push(Group {
            share: k.powf(-s) / total,
            count: 1.0,
        });
        k += 1.0;
    }
    let mut a = exact + 1.0;
    while a <= n {
        let b = (a * GROUP_RATIO).floor().max(a).min(n);
        let count = b - a + 1.0;
        out.push(Group {
            share: harmonic_range(a, b, s) / total / count,
            count,
        });
        // Past 2^53, `b + 1` can round back to `b`: stop at the last value.
        if b >= n {
            break;
        }
        a = b + 1.0;
    }
    out
}

/// The share of the hottest of `n` values under Zipf(s): `1 / H(n, s)`.
pub fn zipf_top_share(n: f64, s: f64) -> f64 {
    1.0 / harmonic(n.round().max(1.0), s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(Distribution::parse("uniform"), Ok(Distribution::Uniform));
        assert_eq!(Distribution::parse(" Uniform "), Ok(Distribution::Uniform));
        assert_eq!(
            Distribution::parse("zipf(1.1)"),
            Ok(Distribution::Zipf { exponent: 1.1 })
        );
        assert_eq!(
            Distribution::parse("sequential"),
            Ok(Distribution::Sequential)
        );
        assert_eq!(
            Distribution::parse("monotonic"),
            Ok(Distribution::Sequential)
        );
        assert_eq!(
            Distribution::parse("time(10/s)"),
            Ok(Distribution::Time { per_second: 10.0 })
        );
        assert_eq!(
            Distribution::parse("time"),
            Ok(Distribution::Time { per_second: 1.0 })
        );
        for bad in [
            "zipf",
            "zipf()",
            "zipf(-1)",
            "zipf(abc)",
            "zipf(1.1",
            "normal",
            "uniform(3)",
            "time(fast)",
            "",
        ] {
            assert!(Distribution::parse(bad).is_err(), "{bad} must be refused");
        }
    }

    #[test]
    fn harmonic_numbers_match_hand_sums() {
        // H(4, 1) = 1 + 1/2 + 1/3 + 1/4 = 25/12.
        assert!((harmonic(4.0, 1.0) - 25.0 / 12.0).abs() < 1e-12);
        // H(3, 2) = 1 + 1/4 + 1/9 = 49/36.
        assert!((harmonic(3.0, 2.0) - 49.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn euler_maclaurin_tail_agrees_with_the_direct_sum() {
        for s in [0.5, 1.0, 1.1, 2.0] {
            let n = 50_000.0;
            let mut direct = 0.0;
            let mut k = n;
            while k >= 1.0 {
                direct += f64::powf(k, -s);
                k -= 1.0;
            }
            let fast = harmonic(n, s);
            assert!(
                ((fast - direct) / direct).abs() < 1e-10,
                "s={s}: {fast} vs {direct}"
            );
        }
    }

    #[test]
    fn harmonic_of_a_million_approaches_the_known_value() {
        // H(10^6, 1) = ln(10^6) + γ + 1/(2·10^6) - … = 14.392726722865…
        assert!((harmonic(1e6, 1.0) - 14.392_726_722_865).abs() < 1e-9);
    }

    #[test]
    fn zipf_groups_cover_every_value_and_all_the_rows() {
        for (n, s) in [(10.0, 1.1), (1e6, 1.1), (1e9, 0.8), (3.0, 2.0)] {
            let groups = groups(&Distribution::Zipf { exponent: s }, n);
            let count: f64 = groups.iter().map(|g| g.count).sum();
            let share: f64 = groups.iter().map(|g| g.share * g.count).sum();
            assert_eq!(count, n);
            assert!((share - 1.0).abs() < 1e-9, "n={n} s={s}: {share}");
            // Shares never increase with rank.
            assert!(groups.windows(2).all(|w| w[0].share >= w[1].share));
            assert!((groups[0].share - zipf_top_share(n, s)).abs() < 1e-15);
        }
    }

    #[test]
    fn uniform_groups_are_one_run() {
        assert_eq!(
            groups(&Distribution::Uniform, 4.0),
            vec![Group {
                share: 0.25,
                count: 4.0
            }]
        );
    }
}
