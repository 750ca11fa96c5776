//! Units the statistics file is written in (durations, rates, byte sizes) and the
//! human-readable forms reports print them in.
//!
//! Byte sizes are decimal (1 KB = 1,000 bytes, 1 MB = 10^6), as in the Cassandra
//! documentation's sizing example; binary suffixes (`KiB`, `MiB`, `GiB`) are
//! accepted in the file for people matching Cassandra's own `MiB` settings.

use std::fmt;

pub const MINUTE: u64 = 60;
pub const HOUR: u64 = 3_600;
pub const DAY: u64 = 86_400;
pub const WEEK: u64 = 7 * DAY;
/// A year is 365 days everywhere in cqlmodel (so "a year of one row per second"
/// is exactly 31,536,000 rows).
pub const YEAR: u64 = 365 * DAY;

/// Why a unit string was refused; the caller adds the field and the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitError(pub String);

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn split_number(text: &str) -> Option<(f64, &str)> {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_'))
        .map_or(text.len(), |(i, _)| i);
    let (number, unit) = text.split_at(end);
    let number: String = number.chars().filter(|c| *c != '_').collect();
    let value: f64 = number.parse().ok()?;
    value.is_finite().then_some((value, unit.trim()))
}

/// Seconds in one `unit` of a duration or a rate (`s`, `m`/`min`, `h`, `d`, `w`, `y`).
pub fn unit_seconds(unit: &str) -> Option<u64> {
    Some(match unit {
        "s" | "sec" | "second" | "seconds" => 1,
        "m" | "min" | "minute" | "minutes" => MINUTE,
        "h" | "hour" | "hours" => HOUR,
        "d" | "day" | "days" => DAY,
        "w" | "week" | "weeks" => WEEK,
        "y" | "year" | "years" => YEAR,
        _ => return None,
    })
}

/// Parses `"365d"`, `"12h"`, `"30m"`, `"90s"`, `"2w"`, `"1y"` into seconds.
pub fn parse_duration(text: &str) -> Result<u64, UnitError> {
    let bad = || {
        UnitError(format!(
            "`{text}` is not a duration: write a number and a unit, e.g. \"365d\", \"12h\", \"30m\", \"90s\", \"2w\", \"1y\""
        ))
    };
    let (value, unit) = split_number(text).ok_or_else(bad)?;
    let seconds = unit_seconds(unit).ok_or_else(bad)?;
    let total = value * seconds as f64;
    if !(1.0..=1e15).contains(&total) {
        return Err(UnitError(format!(
            "`{text}` is out of range: a duration must be between 1 second and ~30 million years"
        )));
    }
    Ok(total.round() as u64)
}

/// Parses a rate `"N/UNIT"` (`"1/s"`, `"100/min"`, `"86400/d"`) into events per second.
pub fn parse_rate(text: &str) -> Result<f64, UnitError> {
    let bad = || {
        UnitError(format!(
            "`{text}` is not a rate: write COUNT/UNIT, e.g. \"1/s\", \"100/min\", \"24/d\""
        ))
    };
    let (count, unit) = text.split_once('/').ok_or_else(bad)?;
    let (count, rest) = split_number(count).ok_or_else(bad)?;
    if !rest.is_empty() {
        return Err(bad());
    }
    let unit = unit.trim();
    // "10/5min" is allowed: the unit may carry its own count.
    let (per, unit) = match split_number(unit) {
        Some((per, u)) => (per, u),
        None => (1.0, unit),
    };
    let seconds = unit_seconds(unit).ok_or_else(bad)?;
    if per <= 0.0 {
        return Err(bad());
    }
    let rate = count / (per * seconds as f64);
    if rate <= 0.0 {
        return Err(UnitError(format!(
            "`{text}`: a rate must be greater than zero"
        )));
    }
    // A tiny unit count ("1/0.0…01s") can overflow the division.
    if !rate.is_finite() {
        return Err(UnitError(format!("`{text}`: the rate is too large")));
    }
    Ok(rate)
}

/// Parses a byte size: `"100MB"`, `"1.5 GB"`, `"512KiB"`, `"64B"`, `"4096"`.
pub fn parse_bytes(text: &str) -> Result<f64, UnitError> {
    let bad = || {
        UnitError(format!(
            "`{text}` is not a byte size: write e.g. \"100MB\", \"1GB\", \"512KB\" or \"100MiB\""
        ))
    };
    let (value, unit) = split_number(text).ok_or_else(bad)?;
    let factor = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "tb" | "t" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0f64.powi(4),
        _ => return Err(bad()),
    };
    let bytes = value * factor;
    // A long run of digits times the unit can overflow.
    if !bytes.is_finite() {
        return Err(UnitError(format!("`{text}` is too large")));
    }
    Ok(bytes)
}

/// `"2.07 MB"`, `"950 B"`, `"315 GB"`: three significant digits, decimal units.
pub fn format_bytes(bytes: f64) -> String {
    scaled(
        bytes,
        &[
            (1e15, "PB"),
            (1e12, "TB"),
            (1e9, "GB"),
            (1e6, "MB"),
            (1e3, "KB"),
        ],
        " B",
        " ",
    )
}

/// `"31.5M"`, `"86.4k"`, `"950"`: counts with three significant digits.
pub fn format_count(count: f64) -> String {
    scaled(
        count,
        &[(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")],
        "",
        "",
    )
}

fn scaled(value: f64, units: &[(f64, &str)], base_unit: &str, sep: &str) -> String {
    if !value.is_finite() {
        return "∞".to_string();
    }
    for (factor, unit) in units {
        if value.abs() >= *factor * 0.9995 {
            return format!("{}{sep}{unit}", three_digits(value / factor));
        }
    }
    if value.fract() == 0.0 || value.abs() >= 100.0 {
        format!("{}{base_unit}", value.round())
    } else {
        format!("{}{base_unit}", three_digits(value))
    }
}

fn three_digits(v: f64) -> String {
    let a = v.abs();
    let s = if a >= 99.95 {
        format!("{v:.0}")
    } else if a >= 9.995 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    // "2.00" reads better as "2".
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `"365d"`, `"12h"`, `"90s"`: the largest unit that divides the duration.
pub fn format_duration(seconds: u64) -> String {
    for (unit, size) in [
        ("y", YEAR),
        ("w", WEEK),
        ("d", DAY),
        ("h", HOUR),
        ("m", MINUTE),
    ] {
        if seconds >= size && seconds.is_multiple_of(size) {
            // Weeks read oddly for 14d/28d; keep days unless it is exactly weeks and < 5.
            if unit == "w" && seconds / size > 4 {
                continue;
            }
            return format!("{}{unit}", seconds / size);
        }
    }
    format!("{seconds}s")
}

/// `"10k/s"`, `"0.5/s"`: an events-per-second rate.
pub fn format_rate(per_second: f64) -> String {
    format!("{}/s", format_count(per_second))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("365d"), Ok(31_536_000));
        assert_eq!(parse_duration("30d"), Ok(2_592_000));
        assert_eq!(parse_duration("12h"), Ok(43_200));
        assert_eq!(parse_duration(" 90 s "), Ok(90));
        assert_eq!(parse_duration("2w"), Ok(1_209_600));
        assert_eq!(parse_duration("1y"), Ok(YEAR));
        assert_eq!(parse_duration("1.5h"), Ok(5_400));
        assert!(parse_duration("365").is_err(), "a unit is required");
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("-3d").is_err());
        assert!(parse_duration("3 fortnights").is_err());
        assert!(parse_duration("0s").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("1/s"), Ok(1.0));
        assert_eq!(parse_rate("60/min"), Ok(1.0));
        assert_eq!(parse_rate("86400/d"), Ok(1.0));
        assert_eq!(parse_rate("10/5s"), Ok(2.0));
        assert!(parse_rate("1").is_err());
        assert!(parse_rate("x/s").is_err());
        assert!(parse_rate("1/fortnight").is_err());
        assert!(parse_rate("0/s").is_err());
        let overflowing = format!("1/0.{}1s", "0".repeat(320));
        assert!(
            parse_rate(&overflowing).is_err(),
            "an infinite rate is refused"
        );
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("100MB"), Ok(1e8));
        assert_eq!(parse_bytes("100 MiB"), Ok(104_857_600.0));
        assert_eq!(parse_bytes("1.5GB"), Ok(1.5e9));
        assert_eq!(parse_bytes("4096"), Ok(4096.0));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("10 parsecs").is_err());
        let huge = format!("1{}TB", "0".repeat(300));
        assert!(parse_bytes(&huge).is_err(), "an infinite size is refused");
    }

    #[test]
    fn human_forms() {
        assert_eq!(format_bytes(2_073_616.0), "2.07 MB");
        assert_eq!(format_bytes(1_095_005.0), "1.1 MB");
        assert_eq!(format_bytes(999.0), "999 B");
        assert_eq!(format_bytes(315_000_000_000.0), "315 GB");
        assert_eq!(format_count(31_536_000.0), "31.5M");
        assert_eq!(format_count(86_400.0), "86.4k");
        assert_eq!(format_count(100_000.0), "100k");
        assert_eq!(format_count(12.0), "12");
        assert_eq!(format_count(1.5), "1.5");
        assert_eq!(format_count(999_999.0), "1M");
        assert_eq!(format_duration(YEAR), "1y");
        assert_eq!(format_duration(30 * DAY), "30d");
        assert_eq!(format_duration(DAY), "1d");
        assert_eq!(format_duration(2 * WEEK), "2w");
        assert_eq!(format_duration(90), "90s");
        assert_eq!(format_rate(10_000.0), "10k/s");
    }
}
