//! How every number is written, in one place: exact times for the inspector and the
//! trace ("30.005s"), rounded times for sentences ("30.0 s"), drawing coordinates ("12.5")
//! and the editor's decimals ("2.5"), and how the drawing's coordinates are read back.
//!
//! Integer arithmetic throughout, on purpose: float formatting and parsing would add
//! kilobytes to the wasm, and the same number must read the same natively and in the
//! browser.

/// Formats milliseconds as seconds with three decimals: `30.005s`, `-1.200s`.
pub fn fmt_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let a = ms.unsigned_abs();
    format!("{sign}{}.{:03}s", a / 1000, a % 1000)
}

/// Seconds with one decimal, as the narration reads them: "30.0 s".
pub fn secs(ms: i64) -> String {
    // Integer arithmetic on purpose: float formatting would add kilobytes to the wasm.
    let tenths = (ms.unsigned_abs() + 50) / 100;
    format!(
        "{}{}.{} s",
        if ms < 0 { "-" } else { "" },
        tenths / 10,
        tenths % 10
    )
}

/// The playback clock: the cursor's time and the run's end ("12.3 s / 60.0 s").
pub fn clock(t_ms: i64, end_ms: i64) -> String {
    format!("{} / {}", secs(t_ms), secs(end_ms))
}

/// `v` kept within `lo..=hi`: `f64::clamp` without its panic. The standard one checks
/// `lo <= hi` and, when not, formats both bounds with `Debug`; that message alone pulls
/// float formatting into the wasm, several kilobytes even compressed, so `clippy.toml`
/// refuses `f64::clamp` and every float is kept in range here. With `lo > hi` it gives
/// `hi`; a NaN `v` gives `lo`.
pub fn within(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// `v` rounded to tenths, as text ("12.3"), for SVG attributes. Integer arithmetic only:
/// float formatting would add kilobytes to the wasm bundle.
pub fn tenths(v: f64) -> String {
    let t = (v * 10.0).round() as i64;
    let a = t.unsigned_abs();
    format!("{}{}.{}", if t < 0 { "-" } else { "" }, a / 10, a % 10)
}

/// A plain decimal ("30", "2.5", "-0.25", ".5", "2.") in units of `10^-places`, the
/// inverse of [`decimal`]: `parse_units("2.5", 3)` = 2500. `None` for anything else (an
/// exponent, a sign but minus, a space, no digits), for one finer than a unit, or for one
/// that does not fit.
pub fn parse_units(s: &str, places: u32) -> Option<i64> {
    let (negative, s) = s.strip_prefix('-').map_or((false, s), |rest| (true, rest));
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return None;
    }
    let finer = u32::try_from(frac.len()).ok().filter(|&f| f <= places)?;
    let units = int
        .bytes()
        .chain(frac.bytes())
        .try_fold(0i64, |n, b| {
            n.checked_mul(10)?.checked_add(i64::from(b - b'0'))
        })?
        .checked_mul(10i64.checked_pow(places - finer)?)?;
    Some(if negative { -units } else { units })
}

/// A plain decimal as the page writes one into an SVG attribute ([`tenths`]: "12.3",
/// "-4", "960.0"), read back without the standard float parser, whose tables would add
/// about 10 KB gzip to the wasm: [`parse_units`] to nine places, so up to about nine
/// billion.
pub fn parse_decimal(s: &str) -> Option<f64> {
    parse_units(s, 9).map(|units| units as f64 / 1e9)
}

/// `units / 10^places` as a short decimal: `decimal(2500, 3)` = "2.5", `decimal(30000, 3)` = "30".
pub fn decimal(units: i64, places: u32) -> String {
    let div = 10u64.pow(places);
    let (a, f) = (units.unsigned_abs() / div, units.unsigned_abs() % div);
    let sign = if units < 0 { "-" } else { "" };
    if f == 0 {
        return format!("{sign}{a}");
    }
    let mut frac = format!("{f:0width$}", width = places as usize);
    while frac.ends_with('0') {
        frac.pop();
    }
    format!("{sign}{a}.{frac}")
}

/// "second", "third" … "tenth", then "11th": how many times something has happened, as the
/// narration counts a repeat.
pub fn ordinal(n: u32) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match n.checked_sub(1).and_then(|i| WORDS.get(i as usize)) {
        Some(w) => (*w).to_string(),
        None => format!("{n}th"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coordinate_reads_back_as_it_was_written() {
        for t in -20_000..20_000 {
            let v = f64::from(t) / 10.0;
            assert_eq!(parse_decimal(&tenths(v)), Some(v), "{v}");
        }
        assert_eq!(parse_decimal("960"), Some(960.0));
        assert_eq!(parse_decimal("2.25"), Some(2.25));
        assert_eq!(parse_decimal(".5"), Some(0.5));
        for bad in [
            "",
            "-",
            ".",
            "1e3",
            "+1",
            "1.2.3",
            "abc",
            " 1",
            "NaN",
            "1234567890123456",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn each_format_reads_as_its_readers_expect() {
        assert_eq!(fmt_ms(30_005), "30.005s");
        assert_eq!(fmt_ms(-1_200), "-1.200s");
        assert_eq!(secs(30_049), "30.0 s");
        assert_eq!(secs(-950), "-1.0 s");
        assert_eq!(tenths(12.46), "12.5");
        assert_eq!(tenths(-0.04), "0.0");
        assert_eq!(decimal(2_500, 3), "2.5");
        assert_eq!(decimal(30_000, 3), "30");
        assert_eq!(decimal(-7, 0), "-7");
    }
}
