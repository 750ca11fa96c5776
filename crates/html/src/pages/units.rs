//! Numbers as the text output writes them (the stats crate's formatting).

pub use cqlmodel_stats::units::{format_bytes, format_count};

/// A percentage with at most two decimals.
pub fn percent(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let rounded = (v * 100.0).round() / 100.0;
    format!("{rounded}%")
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_keep_two_decimals() {
        assert_eq!(percent(68.2791), "68.28%");
        assert_eq!(percent(10.0), "10%");
        assert_eq!(percent(f64::NAN), "—");
    }
}
