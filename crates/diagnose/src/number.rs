//! Numbers as nodetool prints them: plain (`1234`, `0.123`), with a unit
//! (`12.5 ms`, `1.2 MiB`, `340 bytes`, Scylla's `1.20 MB`), locale commas
//! (`0,123` from `%01.3f` under a German locale), and "not measured" spelled
//! `NaN`, `null` or nothing.

/// Why a value is not a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotANumber;

/// The value, `None` when nodetool printed "not measured" (NaN, null, empty).
pub fn parse_value(text: &str) -> Result<Option<f64>, NotANumber> {
    let t = text.trim();
    // The common case: a plain number, no unit.
    if let Ok(v) = t.parse::<f64>() {
        return Ok(v.is_finite().then_some(v));
    }
    if is_missing(t) {
        return Ok(None);
    }
    let t = t.strip_suffix("ms").map_or(t, str::trim_end);
    let (number, multiplier) = split_unit(t)?;
    let number = number.trim();
    if is_missing(number) {
        return Ok(None);
    }
    let parsed = match number.parse::<f64>() {
        Ok(v) => v,
        // `%01.3f` under a locale with a decimal comma.
        Err(_) if number.contains(',') && !number.contains('.') => number
            .replacen(',', ".", 1)
            .parse::<f64>()
            .map_err(|_| NotANumber)?,
        Err(_) => return Err(NotANumber),
    };
    if parsed.is_finite() {
        Ok(Some(parsed * multiplier))
    } else {
        Ok(None)
    }
}

/// A count or a byte size: negative and fractional values are rounded to the
/// nearest whole number, 0 at least.
pub fn parse_count(text: &str) -> Result<Option<u64>, NotANumber> {
    Ok(parse_value(text)?.map(to_count))
}

/// A finite non-negative value as a whole number (saturating).
pub fn to_count(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        // `as` saturates at u64::MAX for huge values, which is the intent.
        v.round() as u64
    } else {
        0
    }
}

fn is_missing(t: &str) -> bool {
    t.is_empty()
        || t.eq_ignore_ascii_case("nan")
        || t.eq_ignore_ascii_case("null")
        || t.eq_ignore_ascii_case(".nan")
        || t == "~"
}

/// Splits a trailing size unit off; base 2 whatever the spelling (nodetool
/// prints `MB` for MiB in several places).
fn split_unit(t: &str) -> Result<(&str, f64), NotANumber> {
    const UNITS: [(&str, f64); 11] = [
        ("bytes", 1.0),
        ("KiB", 1024.0),
        ("MiB", 1048576.0),
        ("GiB", 1073741824.0),
        ("TiB", 1099511627776.0),
        ("KB", 1024.0),
        ("MB", 1048576.0),
        ("GB", 1073741824.0),
        ("TB", 1099511627776.0),
        ("B", 1.0),
        ("%", 1.0),
    ];
    for (unit, multiplier) in UNITS {
        if let Some(number) = t.strip_suffix(unit) {
            if number.is_empty() {
                return Err(NotANumber);
            }
            return Ok((number, multiplier));
        }
    }
    Ok((t, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_numbers_units_and_missing_values() {
        assert_eq!(parse_value("1234"), Ok(Some(1234.0)));
        assert_eq!(parse_value(" 0.125 ms"), Ok(Some(0.125)));
        assert_eq!(parse_value("1.5 MiB"), Ok(Some(1_572_864.0)));
        assert_eq!(parse_value("2.00 KB"), Ok(Some(2048.0)));
        assert_eq!(parse_value("340 bytes"), Ok(Some(340.0)));
        assert_eq!(parse_value("0,250"), Ok(Some(0.25)));
        assert_eq!(parse_value("NaN"), Ok(None));
        assert_eq!(parse_value("NaN ms"), Ok(None));
        assert_eq!(parse_value("null"), Ok(None));
        assert_eq!(parse_value(""), Ok(None));
        assert_eq!(parse_value("Infinity"), Ok(None));
        assert_eq!(parse_value("twelve"), Err(NotANumber));
        assert_eq!(parse_value("MB"), Err(NotANumber));
    }

    #[test]
    fn counts_round_and_clamp() {
        assert_eq!(parse_count("2.6"), Ok(Some(3)));
        assert_eq!(parse_count("-4"), Ok(Some(0)));
        assert_eq!(to_count(f64::NAN), 0);
        assert_eq!(to_count(1e300), u64::MAX);
    }
}
