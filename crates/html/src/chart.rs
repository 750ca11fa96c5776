//! Horizontal bar charts as inline SVG, on a linear or a log scale, with
//! dashed limit lines. Colours come from the page's style (classes), so the
//! charts follow dark and light mode; sizes are fixed numbers, so the same data
//! gives the same SVG.

use crate::escape::escape;

/// One bar. Bars sharing a group follow each other under the group's label.
#[derive(Debug, Clone)]
pub struct Bar {
    /// The label at the left; empty for the further bars of a group.
    pub label: String,
    pub value: f64,
    /// 1, 2 or 3: the colour (series) of the bar.
    pub series: u8,
    /// Drawn in the limit colour: the value is over a limit.
    pub over: bool,
}

/// A dashed vertical line at `value`, labelled.
#[derive(Debug, Clone)]
pub struct Limit {
    pub value: f64,
    pub label: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    /// Log 10: each decade the same width. Values ≤ 0 draw no bar.
    Log,
}

/// Width of the bars' area: narrow enough that a phone shows the chart at
/// three quarters of its size.
const PLOT_WIDTH: f64 = 360.0;
const VALUE_WIDTH: f64 = 70.0;
/// Label cells: 12 px text is about 7 px a character.
const LABEL_CHAR: f64 = 7.0;
const LABEL_CHARS_MAX: usize = 18;
const TOP: f64 = 26.0;
const BAR_HEIGHT: f64 = 14.0;
const BAR_GAP: f64 = 4.0;
const GROUP_GAP: f64 = 8.0;
const AXIS_SPACE: f64 = 22.0;

/// The chart, an `<svg>` element. `format` writes a value for the labels and ticks.
pub fn bar_chart(
    title: &str,
    bars: &[Bar],
    limits: &[Limit],
    scale: Scale,
    format: &dyn Fn(f64) -> String,
) -> String {
    let label_chars = bars
        .iter()
        .map(|b| b.label.chars().count().min(LABEL_CHARS_MAX))
        .max()
        .unwrap_or(0);
    let plot_left = (label_chars as f64 * LABEL_CHAR + 12.0).max(40.0);
    let width = plot_left + PLOT_WIDTH + VALUE_WIDTH;
    let axis = Axis::fit(bars, limits, scale, plot_left);
    let mut y = TOP;
    let mut body = String::new();
    for (i, bar) in bars.iter().enumerate() {
        if i > 0 && !bar.label.is_empty() {
            y += GROUP_GAP;
        }
        let bar_width = (axis.x(bar.value) - axis.left).max(0.0);
        let class = if bar.over {
            "over".to_string()
        } else {
            format!("s{}", bar.series.clamp(1, 3))
        };
        let text_y = y + BAR_HEIGHT - 3.0;
        let value_text = if bar.value.is_finite() {
            format(bar.value)
        } else {
            "—".to_string()
        };
        if !bar.label.is_empty() {
            body.push_str(&format!(
                "<text x=\"{:.0}\" y=\"{text_y:.0}\" text-anchor=\"end\" font-size=\"12\">{}</text>",
                axis.left - 6.0,
                escape(&clip(&bar.label, 18))
            ));
        }
        body.push_str(&format!(
            "<rect class=\"{class}\" x=\"{:.0}\" y=\"{y:.0}\" width=\"{bar_width:.1}\" height=\"{BAR_HEIGHT:.0}\"><title>{}: {}</title></rect>",
            axis.left,
            escape(&bar.label),
            escape(&value_text)
        ));
        body.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{text_y:.0}\" font-size=\"11\">{}</text>",
            axis.left + bar_width + 4.0,
            escape(&value_text)
        ));
        y += BAR_HEIGHT + BAR_GAP;
    }
    let bottom = y + 2.0;
    let height = bottom + AXIS_SPACE;
    let mut svg = format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = escape(title)
    );
    for tick in axis.ticks() {
        let x = axis.x(tick);
        svg.push_str(&format!(
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.0}\" x2=\"{x:.1}\" y2=\"{bottom:.0}\"/><text x=\"{x:.1}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"10\">{}</text>",
            TOP - 4.0,
            bottom + 14.0,
            escape(&format(tick))
        ));
    }
    svg.push_str(&body);
    for (i, limit) in limits.iter().enumerate() {
        let x = axis.x(limit.value);
        let label_y = if i % 2 == 0 { 12.0 } else { 22.0 };
        let anchor = if x > axis.right() - 80.0 {
            "end"
        } else {
            "start"
        };
        svg.push_str(&format!(
            "<line class=\"limit\" x1=\"{x:.1}\" y1=\"{:.0}\" x2=\"{x:.1}\" y2=\"{bottom:.0}\" stroke-width=\"2\"/><text class=\"limit-label\" x=\"{:.1}\" y=\"{label_y:.0}\" text-anchor=\"{anchor}\" font-size=\"11\">{}</text>",
            TOP - 2.0,
            if anchor == "end" { x - 3.0 } else { x + 3.0 },
            escape(&limit.label)
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// `text` cut to `max` characters with an ellipsis (the full label is in the bar's tooltip).
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The value range drawn and its mapping to x.
struct Axis {
    left: f64,
    scale: Scale,
    lo: f64,
    hi: f64,
}

impl Axis {
    fn fit(bars: &[Bar], limits: &[Limit], scale: Scale, left: f64) -> Axis {
        let values = bars
            .iter()
            .map(|b| b.value)
            .chain(limits.iter().map(|l| l.value))
            .filter(|v| v.is_finite());
        match scale {
            Scale::Linear => {
                let hi = values.fold(0.0_f64, f64::max);
                Axis {
                    left,
                    scale,
                    lo: 0.0,
                    hi: nice_ceiling(hi),
                }
            }
            Scale::Log => {
                let positive: Vec<f64> = values.filter(|v| *v > 0.0).collect();
                let min = positive.iter().copied().fold(f64::INFINITY, f64::min);
                let max = positive.iter().copied().fold(0.0_f64, f64::max);
                let (lo, hi) = if positive.is_empty() {
                    (0.0, 1.0)
                } else {
                    let lo = min.log10().floor();
                    let hi = max.log10().ceil().max(lo + 1.0);
                    (lo, hi)
                };
                Axis {
                    left,
                    scale,
                    lo,
                    hi,
                }
            }
        }
    }

    fn right(&self) -> f64 {
        self.left + PLOT_WIDTH
    }

    fn x(&self, value: f64) -> f64 {
        let span = PLOT_WIDTH;
        let fraction = match self.scale {
            Scale::Linear if self.hi > 0.0 => value / self.hi,
            Scale::Linear => 0.0,
            Scale::Log if value > 0.0 => (value.log10() - self.lo) / (self.hi - self.lo),
            Scale::Log => 0.0,
        };
        let fraction = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.left + fraction * span
    }

    /// Decades on a log scale (at most 8 labelled), quarters on a linear one.
    fn ticks(&self) -> Vec<f64> {
        match self.scale {
            Scale::Linear => (0..=4).map(|i| self.hi * f64::from(i) / 4.0).collect(),
            Scale::Log => {
                let decades = (self.hi - self.lo).max(1.0);
                let step = (decades / 8.0).ceil().max(1.0);
                let mut ticks = Vec::new();
                let mut e = self.lo;
                while e <= self.hi + 1e-9 && ticks.len() < 40 {
                    ticks.push(10f64.powf(e));
                    e += step;
                }
                ticks
            }
        }
    }
}

/// The smallest of 1, 2, 2.5, 5 × 10^k at or above `v` (1 for 0).
fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let decade = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * decade)
        .find(|c| *c >= v * 0.999_999)
        .unwrap_or(10.0 * decade)
}

#[cfg(test)]
mod tests {
    use super::{Bar, Limit, Scale, bar_chart, nice_ceiling};

    fn bar(label: &str, value: f64) -> Bar {
        Bar {
            label: label.into(),
            value,
            series: 1,
            over: false,
        }
    }

    #[test]
    fn a_log_chart_spans_whole_decades_and_draws_its_limit() {
        let svg = bar_chart(
            "sizes",
            &[bar("p50", 2.0e6), bar("max", 7.5e8)],
            &[Limit {
                value: 1.0e8,
                label: "100 MB".into(),
            }],
            Scale::Log,
            &|v| format!("{v:e}"),
        );
        assert!(svg.contains(">1e6<") && svg.contains(">1e9<"), "{svg}");
        assert!(svg.contains("class=\"limit\""));
        assert!(svg.contains(">100 MB<"));
    }

    #[test]
    fn nothing_breaks_on_empty_zero_or_odd_values() {
        for values in [vec![], vec![0.0], vec![f64::NAN, -1.0], vec![f64::INFINITY]] {
            let bars: Vec<Bar> = values.iter().map(|v| bar("x", *v)).collect();
            for scale in [Scale::Log, Scale::Linear] {
                let svg = bar_chart("t", &bars, &[], scale, &|v| v.to_string());
                assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
                assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
            }
        }
    }

    #[test]
    fn labels_are_escaped_and_clipped() {
        let svg = bar_chart(
            "<t>",
            &[bar("<node & 'x'> with a long name", 1.0)],
            &[],
            Scale::Linear,
            &|v| v.to_string(),
        );
        assert!(
            svg.contains("&lt;node &amp; &#39;x&#39;&gt; with…"),
            "{svg}"
        );
        assert!(!svg.contains("<t>"));
    }

    #[test]
    fn linear_axes_end_on_a_round_number() {
        assert_eq!(nice_ceiling(68.3), 100.0);
        assert_eq!(nice_ceiling(3.3), 5.0);
        assert_eq!(nice_ceiling(20.0), 20.0);
        assert_eq!(nice_ceiling(0.0), 1.0);
    }
}
