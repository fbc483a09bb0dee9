//! The diagram's zoom: which stretch of true time it shows.
//!
//! A long run squeezes its interesting second into a pixel (a 25-minute migration, a 100-s
//! run with eight clients), so the reader can narrow the diagram to a window of true time
//! and move it. The window is part of the view, and so of the link (`z=FROM-TO`, in ms).
//! `None` in the session is the whole run ("Fit").
//!
//! Everything here is integer milliseconds; the view turns a wheel turn or a pinch into a
//! factor and a pointer time, and a drag into a shift, and this module keeps the result
//! inside the run and no narrower than [`MIN_SPAN_MS`].
//!
//! A [`Span`] is the other window a link can name (`from=`, `to=`): the stretch the reader
//! may play at all, which the zoom then stays inside (its rule for the session is
//! [`super::span`]'s).

use crate::vocab::numbers::within;

/// The narrowest window: a few milliseconds still separates events that share a tick.
pub const MIN_SPAN_MS: i64 = 10;

/// What a keyboard `+` or `-` (or the Zoom buttons) does to the window's width.
pub const STEP_FACTOR: f64 = 0.5;

/// A window of true time, `from < to`, both within `0..=end` of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub from: i64,
    pub to: i64,
}

/// What the reader asks of the zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Zoom {
    /// Scale the window's width by `factor` (below 1 zooms in), keeping the true time
    /// `around` (ms) where it is on screen; `None`: around the cursor.
    By { factor: f64, around: Option<f64> },
    /// Move the window by this many ms (a drag; negative is earlier).
    Pan(i64),
    /// Show exactly this window (the overview strip's drag).
    To(i64, i64),
    /// The whole run.
    Fit,
}

/// The span a link asks for; either end may be left to the run (its start, its end).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub from: Option<i64>,
    pub to: Option<i64>,
}

impl Span {
    /// Checks the ends a link gives (each already a time within the horizon); the error
    /// names the key at fault.
    pub fn checked(from: Option<i64>, to: Option<i64>) -> Result<Span, String> {
        if let (Some(a), Some(b)) = (from, to) {
            if b < a + MIN_SPAN_MS {
                return Err(format!(
                    "to: the span {a}-{b} must end at least {MIN_SPAN_MS} ms after it starts"
                ));
            }
        }
        Ok(Span { from, to })
    }

    /// The span as a window of a run `end` ms long, or `None` where it is the whole run —
    /// or where the run on screen ends before the span could start (a host loaded a
    /// shorter run): then the reader gets the whole of it rather than nothing.
    pub fn within(self, end: i64) -> Option<Window> {
        if self.from.is_none() && self.to.is_none() {
            return None;
        }
        let from = self.from.unwrap_or(0);
        let to = self.to.unwrap_or(end).min(end);
        (to >= from + MIN_SPAN_MS).then_some(Window { from, to })
    }
}

impl Window {
    pub fn span(self) -> i64 {
        self.to - self.from
    }

    /// What the zoom bar says of the window on screen (`None`: the whole run) of a run
    /// `end` ms long, in every build's bar.
    pub fn label(w: Option<Window>, end: i64) -> String {
        use crate::vocab::numbers::tenths;
        match w {
            None => "Whole run".to_string(),
            Some(w) => format!(
                "{} – {} s of {} s",
                tenths(w.from as f64 / 1000.0),
                tenths(w.to as f64 / 1000.0),
                tenths(end as f64 / 1000.0)
            ),
        }
    }

    /// The window, or `None` where it covers the whole run (`0..=end`).
    fn normal(self, end: i64) -> Option<Window> {
        (self.from > 0 || self.to < end).then_some(self)
    }

    /// A window of `span` ms placed as close to `from` as the run allows.
    fn placed(from: i64, span: i64, end: i64) -> Window {
        let span = span.clamp(MIN_SPAN_MS.min(end.max(1)), end.max(1));
        let from = from.clamp(0, (end - span).max(0));
        Window {
            from,
            to: from + span,
        }
    }

    /// Checks a window read from a link against a run `end` ms long; the error names `z`.
    pub fn checked(from: i64, to: i64, end: i64) -> Result<Window, String> {
        if from >= to {
            return Err(format!(
                "z: the window {from}-{to} must start before it ends"
            ));
        }
        if to - from < MIN_SPAN_MS {
            return Err(format!(
                "z: the window {from}-{to} is narrower than {MIN_SPAN_MS} ms"
            ));
        }
        if to > end {
            return Err(format!(
                "z: the window ends at {to}, past the scenario's horizon ({end} ms)"
            ));
        }
        Ok(Window { from, to })
    }

    /// Keeps the cursor `t` in view: a window it has left moves (keeping its width) so the
    /// cursor stands a tenth of the way in, as playback reads left to right.
    pub fn following(self, t: f64, end: i64) -> Window {
        let t = t.round() as i64;
        if (self.from..=self.to).contains(&t) {
            return self;
        }
        let span = self.span();
        Window::placed(t - span / 10, span, end)
    }
}

/// Applies `z` to the current window (`None`: the whole run) of a run `end` ms long, with
/// the cursor at `cursor` ms; `None` again when the result shows the whole run.
pub fn apply(current: Option<Window>, z: Zoom, cursor: f64, end: i64) -> Option<Window> {
    let end = end.max(1);
    let w = current.unwrap_or(Window { from: 0, to: end });
    let next = match z {
        Zoom::Fit => return None,
        Zoom::By { factor, around } => {
            if !(factor.is_finite() && factor > 0.0) {
                return current;
            }
            let around = within(around.unwrap_or(cursor), w.from as f64, w.to as f64);
            let span = ((w.span() as f64) * factor).round() as i64;
            let span = span.clamp(MIN_SPAN_MS, end);
            // The point under the pointer keeps its place: the same share of the window
            // lies left of it before and after.
            let share = (around - w.from as f64) / w.span() as f64;
            let from = (around - share * span as f64).round() as i64;
            Window::placed(from, span, end)
        }
        Zoom::Pan(by) => Window::placed(w.from.saturating_add(by), w.span(), end),
        Zoom::To(from, to) => {
            let (from, to) = (from.min(to), from.max(to));
            Window::placed(from, to - from, end)
        }
    };
    next.normal(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_checked_and_kept_within_the_run() {
        assert_eq!(
            Span::checked(Some(100), Some(105)).unwrap_err(),
            "to: the span 100-105 must end at least 10 ms after it starts"
        );
        assert!(Span::checked(Some(100), Some(110)).is_ok());
        let s = Span::checked(Some(20_000), None).unwrap();
        let w = |from, to| Some(Window { from, to });
        assert_eq!(s.within(60_000), w(20_000, 60_000));
        // A run that ends before the span starts is shown whole.
        assert_eq!(s.within(10_000), None);
        assert_eq!(Span::default().within(60_000), None);
        let s = Span::checked(None, Some(30_000)).unwrap();
        assert_eq!(s.within(20_000), w(0, 20_000));
    }

    const END: i64 = 60_000;

    #[test]
    fn zooming_in_keeps_the_point_under_the_pointer() {
        let halve = |w| {
            let z = Zoom::By {
                factor: 0.5,
                around: Some(15_000.0),
            };
            apply(w, z, 0.0, END).unwrap()
        };
        let w = halve(None);
        assert_eq!((w.from, w.to), (7_500, 37_500));
        // A quarter of the way in before, a quarter of the way in after.
        let again = halve(Some(w));
        assert_eq!((again.from, again.to), (11_250, 26_250));
    }

    #[test]
    fn the_window_stays_inside_the_run_and_no_narrower_than_the_minimum() {
        let w = Window {
            from: 50_000,
            to: 60_000,
        };
        assert_eq!(
            apply(Some(w), Zoom::Pan(30_000), 0.0, END),
            Some(Window {
                from: 50_000,
                to: 60_000
            })
        );
        assert_eq!(
            apply(Some(w), Zoom::Pan(-90_000), 0.0, END),
            Some(Window {
                from: 0,
                to: 10_000
            })
        );
        let mut z = Some(w);
        for _ in 0..40 {
            z = apply(
                z,
                Zoom::By {
                    factor: 0.5,
                    around: None,
                },
                55_000.0,
                END,
            );
        }
        assert_eq!(z.unwrap().span(), MIN_SPAN_MS);
        // Zooming out past the whole run is the whole run: no window.
        assert_eq!(
            apply(
                Some(w),
                Zoom::By {
                    factor: 100.0,
                    around: None
                },
                0.0,
                END
            ),
            None
        );
        assert_eq!(apply(Some(w), Zoom::Fit, 0.0, END), None);
        // A nonsense factor changes nothing.
        assert_eq!(
            apply(
                Some(w),
                Zoom::By {
                    factor: f64::NAN,
                    around: None
                },
                0.0,
                END
            ),
            Some(w)
        );
        assert_eq!(
            // A window dragged past the end keeps its width and stops at the end.
            apply(Some(w), Zoom::To(70_000, 20_000), 0.0, END),
            Some(Window {
                from: 10_000,
                to: 60_000
            })
        );
    }

    #[test]
    fn the_window_follows_a_cursor_that_leaves_it() {
        let w = Window {
            from: 10_000,
            to: 20_000,
        };
        assert_eq!(w.following(15_000.0, END), w);
        assert_eq!(
            w.following(25_000.0, END),
            Window {
                from: 24_000,
                to: 34_000
            }
        );
        assert_eq!(
            w.following(59_999.0, END),
            Window {
                from: 50_000,
                to: 60_000
            }
        );
        assert_eq!(
            w.following(0.0, END),
            Window {
                from: 0,
                to: 10_000
            }
        );
    }

    #[test]
    fn a_link_window_is_checked_and_its_error_names_z() {
        assert_eq!(
            Window::checked(1_000, 5_000, END),
            Ok(Window {
                from: 1_000,
                to: 5_000
            })
        );
        for (from, to) in [(5_000, 1_000), (5_000, 5_000), (5_000, 5_005), (0, 70_000)] {
            let e = Window::checked(from, to, END).unwrap_err();
            assert!(e.starts_with("z: "), "{e}");
        }
    }
}
