//! Numbers as the report and `pqlab pick` print them: three significant digits, with units;
//! and the progress bar the long commands show on stderr.

use crate::results::Spread;

/// `value` with `digits` significant digits (no exponent; large values keep all their
/// integer digits).
pub fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{value:.decimals$}")
}

/// A duration given in nanoseconds: `812 ns`, `8.12 µs`, `1.20 s`.
pub fn time(ns: f64) -> String {
    let (value, unit) = match ns.abs() {
        t if t >= 1e9 => (ns / 1e9, "s"),
        t if t >= 1e6 => (ns / 1e6, "ms"),
        t if t >= 1e3 => (ns / 1e3, "µs"),
        _ => (ns, "ns"),
    };
    format!("{} {unit}", significant(value, 3))
}

/// A ratio to three significant digits, whole with separators from 1,000: `1.07×`, `12.3×`,
/// `69,707×`.
pub fn ratio(r: f64) -> String {
    if r.abs() >= 1000.0 {
        return format!("{}×", count(r));
    }
    format!("{}×", significant(r, 3))
}

/// A ratio with its interval: `1.23× (1.20×–1.26×)`.
pub fn ratio_interval(r: Spread) -> String {
    format!("{} ({}–{})", ratio(r.mid), ratio(r.low), ratio(r.high))
}

/// A share with its interval, in whole percents: `23% (20–26%)`.
pub fn share_interval(s: Spread) -> String {
    format!("{:.0}% ({:.0}–{:.0}%)", s.mid * 100.0, s.low * 100.0, s.high * 100.0)
}

/// How much faster a time ratio `r` (this ÷ other) makes this: `+25%` for `r = 0.8`,
/// `−20%` for `r = 1.25`.
pub fn speedup(r: f64) -> String {
    let percent = (1.0 / r - 1.0) * 100.0;
    let sign = if percent < 0.0 { "−" } else { "+" };
    format!("{sign}{}%", significant(percent.abs(), 2))
}

/// A count rounded to an integer, with thousands separators: `12,345`.
pub fn count(n: f64) -> String {
    let digits = format!("{:.0}", n.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < -0.5 {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A number for an axis, two significant digits without trailing zeros: `500`, `2k`,
/// `1.5M`, `0.5`.
pub fn short(n: f64) -> String {
    match n.abs() {
        a if a >= 1e6 => format!("{}M", trim(significant(n / 1e6, 2))),
        a if a >= 1e3 => format!("{}k", trim(significant(n / 1e3, 2))),
        _ => trim(significant(n, 2)),
    }
}

/// A duration for an axis tick: `1 µs`, `2.5 ms`.
pub fn axis_time(ns: f64) -> String {
    let (value, unit) = match ns.abs() {
        t if t >= 1e9 => (ns / 1e9, "s"),
        t if t >= 1e6 => (ns / 1e6, "ms"),
        t if t >= 1e3 => (ns / 1e3, "µs"),
        _ => (ns, "ns"),
    };
    format!("{} {unit}", trim(significant(value, 2)))
}

/// A ratio for an axis tick: `1×`, `1.05×`, `0.5×`.
pub fn axis_ratio(r: f64) -> String {
    format!("{}×", trim(significant(r, 3)))
}

/// `s` without trailing zeros after its decimal point.
fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// `1 workload`, `3 workloads`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A progress bar on stderr.
pub fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_owned());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_naturally() {
        assert_eq!(time(812.4), "812 ns");
        assert_eq!(time(8_123.0), "8.12 µs");
        assert_eq!(time(1.2e9), "1.20 s");
        assert_eq!(ratio(1.0712), "1.07×");
        assert_eq!(ratio(123.4), "123×");
        assert_eq!(ratio(69_707.2), "69,707×");
        let interval = Spread { low: 1.2, mid: 1.234, high: 1.26 };
        assert_eq!(ratio_interval(interval), "1.23× (1.20×–1.26×)");
        assert_eq!(speedup(0.8), "+25%");
        assert_eq!(speedup(1.25), "−20%");
        assert_eq!(count(1_234_567.4), "1,234,567");
        assert_eq!(count(999.0), "999");
        assert_eq!(short(1500.0), "1.5k");
        assert_eq!(short(0.5), "0.5");
        assert_eq!(short(2e6), "2M");
        assert_eq!(short(300.0), "300");
        assert_eq!(axis_time(1000.0), "1 µs");
        assert_eq!(axis_time(2.5e6), "2.5 ms");
        assert_eq!(axis_ratio(1.05), "1.05×");
        assert_eq!(axis_ratio(0.5), "0.5×");
        assert_eq!(plural(1, "workload"), "1 workload");
        assert_eq!(plural(2, "workload"), "2 workloads");
    }
}
