//! How the verdict writes its numbers: shares as percentages, weights as
//! rates or query counts.

use super::evidence::Basis;
use crate::numbers::{rate_text, trim_float};

/// `0.9634` → `96.3%`; a share that is not zero never prints as `0%`.
pub fn pct(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.1 {
        return "<0.1%".into();
    }
    if (99.95..100.0).contains(&p) {
        return ">99.9%".into();
    }
    format!("{}%", trim_float((p * 10.0).round() / 10.0))
}

/// A weight as the basis counts it: `2000/s`, or `3 queries`.
pub fn weight(basis: Basis, w: f64) -> String {
    match basis {
        Basis::Rate if w == 0.0 => "0/s".into(),
        // Three significant figures are all a rate annotation carries.
        Basis::Rate if w >= 100.0 => rate_text(w.round()),
        Basis::Rate if w >= 1.0 => rate_text((w * 10.0).round() / 10.0),
        Basis::Rate => rate_text(w),
        Basis::QueryCount => {
            let n = w.round();
            format!(
                "{} {}",
                trim_float(n),
                if n == 1.0 { "query" } else { "queries" }
            )
        }
    }
}

/// `1.2 billion`, `25.9 million`, `40,000`.
pub fn count(n: f64) -> String {
    for (unit, size) in [("billion", 1e9), ("million", 1e6)] {
        if n >= size {
            return format!("{} {unit}", trim_float((n / size * 10.0).round() / 10.0));
        }
    }
    let whole = format!("{}", n.round() as u64);
    let mut out = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `` `a`, `b` `` for names.
pub fn names(list: &[String]) -> String {
    list.iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_counts_read_as_people_write_them() {
        assert_eq!(pct(0.96341), "96.3%");
        assert_eq!(pct(0.0), "0%");
        assert_eq!(pct(0.0004), "<0.1%");
        assert_eq!(pct(1.0), "100%");
        assert_eq!(pct(0.99996), ">99.9%");
        assert_eq!(count(40_000.0), "40,000");
        assert_eq!(count(999.0), "999");
        assert_eq!(count(25_920_000_000.0), "25.9 billion");
        assert_eq!(count(3_500_000.0), "3.5 million");
        assert_eq!(weight(Basis::QueryCount, 1.0), "1 query");
        assert_eq!(weight(Basis::Rate, 2000.0), "2000/s");
        assert_eq!(weight(Basis::Rate, 455.017), "455/s");
        assert_eq!(weight(Basis::Rate, 28.017), "28/s");
        assert_eq!(weight(Basis::Rate, 1.0 / 60.0), "1/min");
    }
}
