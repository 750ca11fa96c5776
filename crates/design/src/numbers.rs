//! Numbers as the design's text writes them: a leaf module, so that every
//! stage (plan, writes, views, verdict) formats alike without importing the
//! pipeline that calls it.

pub(crate) fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A rate as an annotation writes it, in the unit that keeps it readable:
/// `300/s`, `12/min`, `1/h`, `20/day`.
pub(crate) fn rate_text(per_second: f64) -> String {
    for (unit, seconds) in [("s", 1.0), ("min", 60.0), ("h", 3_600.0)] {
        let r = per_second * seconds;
        if r >= 1.0 || unit == "h" && per_second * 86_400.0 < 1.0 {
            return format!("{}/{unit}", trim_float(r));
        }
    }
    format!("{}/day", trim_float(per_second * 86_400.0))
}
