//! The time axis: how true time maps to x across the diagram or a window of it, and
//! the ticks and their labels in a unit that suits the span shown.

use super::*;

/// Maps true time to x and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub t0: f64,
    pub t1: f64,
    pub x0: f64,
    pub x1: f64,
}

impl Scale {
    pub fn x(&self, t: f64) -> f64 {
        self.x0 + (t - self.t0) * (self.x1 - self.x0) / (self.t1 - self.t0).max(1.0)
    }
    pub fn t(&self, x: f64) -> f64 {
        self.t0 + (x - self.x0) * (self.t1 - self.t0) / (self.x1 - self.x0).max(1.0)
    }
    /// The horizontal stretch `(a, b)` that carries a drawing made at this scale onto
    /// `view`: a point drawn at `x` belongs at `a · x + b` (the zoom's stand-in drawing,
    /// moved while a gesture goes on).
    pub fn onto(&self, view: &Scale) -> (f64, f64) {
        let a = (self.t1 - self.t0) / (self.x1 - self.x0).max(1.0) * (view.x1 - view.x0)
            / (view.t1 - view.t0).max(1.0);
        (a, view.x(self.t(0.0)))
    }
}

/// The unit of a time axis, chosen once for the whole axis from the run's length so that
/// no two ticks mix units ("800 s" beside "10 min" reads as a jump): milliseconds under a
/// second, seconds under five minutes, minutes under five hours, then hours. Returns the
/// unit's length in ms and its name.
pub(super) fn axis_unit(span_ms: i64) -> (i64, &'static str) {
    if span_ms < 1_000 {
        (1, "ms")
    } else if span_ms < 300_000 {
        (1_000, "s")
    } else if span_ms < 18_000_000 {
        (60_000, "min")
    } else {
        (3_600_000, "h")
    }
}

/// The ticks of an axis over `0..=span_ms`: a step of 1, 2 or 5 × 10^k in the axis's unit
/// (tenths of a unit allowed, so a one-second run counts 0.2 s at a time) giving at most
/// about eight ticks, every label in that one unit; the first reads a bare "0".
pub fn axis_ticks(span_ms: i64) -> Vec<(i64, String)> {
    axis_ticks_in(0, span_ms)
}

/// The ticks of an axis over the window `from..=to` (ms), chosen as [`axis_ticks`] chooses
/// them for the window's length: each a whole multiple of the step, labelled with its
/// time since the start of the run.
pub fn axis_ticks_in(from: i64, to: i64) -> Vec<(i64, String)> {
    let span = (to - from).max(1);
    let (unit, name) = axis_unit(span);
    // Tenths of a unit are the finest step (milliseconds cannot be split).
    let tenth = (unit / 10).max(1);
    let raw = (span + 7) / 8;
    let mut mag = tenth;
    let step = 'found: loop {
        for m in [1, 2, 5] {
            if m * mag >= raw {
                break 'found m * mag;
            }
        }
        mag = mag.saturating_mul(10);
    };
    let first = from.div_euclid(step) * step + if from.rem_euclid(step) > 0 { step } else { 0 };
    (0..)
        .map(|i: i64| first + i * step)
        .take_while(|t| *t <= from + span)
        .map(|t| {
            let label = if t == 0 {
                "0".to_string()
            } else if unit == 1 {
                format!("{t} {name}")
            } else {
                format!("{} {name}", decimal(t / tenth, 1))
            };
            (t, label)
        })
        .collect()
}

/// The scale of a drawing `width` units across over `window` (ms, from and to; `None`:
/// the whole run, `0..=end`).
pub fn scale_of(end: i64, width: f64, window: Option<(i64, i64)>) -> Scale {
    let (t0, t1) = window.unwrap_or((0, end));
    Scale {
        t0: t0 as f64,
        t1: t1.max(t0 + 1) as f64,
        x0: LEFT,
        x1: width - RIGHT,
    }
}

/// The time axis's ticks for `scale`'s window ([`axis_ticks_in`]), placed on it, in
/// [`Full`] detail.
pub fn ticks(scale: &Scale) -> Vec<Tick> {
    ticks_with::<Full>(scale)
}

/// [`ticks`] in the detail `D`. Where it spreads ([`Detail::SPREADS`]), on a narrow
/// drawing (a phone's) only every second (or fifth…) tick, so that no two labels of the
/// axis touch: each is centred on its tick and kept a few units apart.
pub fn ticks_with<D: Detail>(scale: &Scale) -> Vec<Tick> {
    let all = axis_ticks_in(scale.t0 as i64, scale.t1 as i64);
    let stride = tick_stride::<D>(scale, &all);
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0)
        .map(|(_, (t, label))| Tick {
            x: scale.x(t as f64),
            label,
        })
        .collect()
}

/// Of the axis's ticks `all` ([`axis_ticks_in`] of `scale`'s window), every how many
/// [`ticks_with`] keeps in the detail `D`: 1, or more on a drawing too narrow for each
/// label to stand clear of the next.
pub fn tick_stride<D: Detail>(scale: &Scale, all: &[(i64, String)]) -> usize {
    let widest = all.iter().map(|(_, l)| text_width(l)).fold(0.0, f64::max);
    let pitch = match all {
        [(a, _), (b, _), ..] => scale.x(*b as f64) - scale.x(*a as f64),
        _ => f64::MAX,
    };
    let mut stride = 1;
    while D::SPREADS && pitch * (stride as f64) < widest + 6.0 && stride < all.len() {
        stride += 1;
    }
    stride
}
