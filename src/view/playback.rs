//! Playback: the cursor, play/pause, speed, stepping — pure transitions, no timers.
//!
//! The cursor has two coordinates: a true time `t` (ms, fractional while animating) and a
//! `step` (how many trace entries have happened). Scrubbing and playing move `t` and derive
//! `step`; stepping moves `step` and snaps `t` to that entry's time — several entries can
//! share one millisecond, and a learner must be able to step through each.
//!
//! **Time dilation.** Messages take a few ms; a run takes a minute. At a speed that makes
//! the minute watchable, a packet would cross the stage in under a frame. So while a
//! message is in flight the playback clock slows until each flight takes at least
//! [`FLIGHT_REAL_MS`] of real time, and it never jumps over a flight's start. Only the
//! pace of drawing changes; what is drawn is the recorded trace.
//!
//! **Dead time.** The opposite case: a 25-minute backfill has minutes where nothing
//! happens and nothing is in flight, which at 5× is minutes of an unchanging picture. A
//! quiet gap between two entries is played in at most [`GAP_REAL_MS`] of real time, so
//! the picture never stands still longer than that while playing.

use crate::model::trace::Trace;
use crate::vocab::numbers::within;
use crate::vocab::time::Time;

/// Speeds as simulated ms per real ms.
pub const SPEEDS: [f64; 10] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0];
/// The default speed index (5×).
pub const DEFAULT_SPEED: usize = 5;
/// The least real time one message flight takes on screen.
pub const FLIGHT_REAL_MS: f64 = 400.0;
/// The most real time a quiet gap (no entry, nothing in flight) takes on screen.
pub const GAP_REAL_MS: f64 = 1500.0;
/// Real ms playback holds on each notable event at the default speed.
pub const DWELL_REAL_MS: f64 = 700.0;
/// With reduced motion, one notable event per this many real ms.
pub const DISCRETE_STEP_REAL_MS: f64 = 900.0;

/// The labels of [`SPEEDS`], written out (formatting floats would cost wasm size).
const SPEED_LABELS: [&str; 10] = [
    "0.1×", "0.25×", "0.5×", "1×", "2×", "5×", "10×", "20×", "50×", "100×",
];

pub fn speed_label(i: usize) -> String {
    SPEED_LABELS[i.min(SPEEDS.len() - 1)].to_string()
}

/// How long to hold on a notable event at `speed`: the full dwell up to 5×, shorter when
/// the learner has asked for more speed.
pub fn dwell_ms(speed: f64) -> f64 {
    DWELL_REAL_MS * (5.0 / speed.max(0.1)).min(1.0)
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cursor {
    pub t: f64,
    pub step: usize,
}

impl Cursor {
    pub const START: Cursor = Cursor { t: 0.0, step: 0 };

    pub fn time(&self) -> Time {
        Time(self.t.floor() as i64)
    }

    /// The cursor at true time `t` (scrubbing, playing): every entry at or before `t`.
    pub fn at_time(trace: &Trace, t: f64) -> Cursor {
        let t = within(t, 0.0, trace.end.0 as f64);
        Cursor {
            t,
            step: crate::analysis::projection::step_at_time(trace, Time(t.floor() as i64)),
        }
    }

    /// The cursor just after entry `step - 1`.
    pub fn at_step(trace: &Trace, step: usize) -> Cursor {
        let step = step.min(trace.len());
        let t = if step == 0 {
            0.0
        } else {
            trace.entries[step - 1].t.0 as f64
        };
        Cursor { t, step }
    }

    pub fn end(trace: &Trace) -> Cursor {
        Cursor {
            t: trace.end.0 as f64,
            step: trace.len(),
        }
    }

    pub fn at_end(&self, trace: &Trace) -> bool {
        self.step >= trace.len() && self.t >= trace.end.0 as f64
    }
}

/// The flights (sent, arrives) of every delivered-or-dropped-on-arrival message, by send time.
pub fn flights(trace: &Trace) -> Vec<(i64, i64)> {
    let mut v: Vec<(i64, i64)> = trace
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            crate::model::trace::Event::Sent {
                arrives: Some(a), ..
            } if a.0 > e.t.0 => Some((e.t.0, a.0)),
            _ => None,
        })
        .collect();
    v.sort_unstable();
    v
}

/// Where the playback clock is after `real_dt` ms of real time at `speed` (sim ms per real
/// ms), dilated around message flights and hurried through quiet gaps; never past `end`.
/// `gap` is the true time of the entries either side of `t` (the last at or before it,
/// the next after it, or the end).
pub fn advance(
    t: f64,
    real_dt: f64,
    speed: f64,
    flights: &[(i64, i64)],
    gap: (f64, f64),
    end: f64,
) -> f64 {
    // A quiet gap is crossed in at most GAP_REAL_MS, whatever the speed.
    let speed = speed.max((gap.1 - gap.0) / GAP_REAL_MS);
    let full = t + real_dt * speed;
    // Flights in the air now: the shortest sets the pace.
    let upto = flights.partition_point(|f| (f.0 as f64) <= t);
    let shortest = flights[..upto]
        .iter()
        .rev()
        .take(4096)
        .filter(|f| (f.1 as f64) > t)
        .map(|f| f.1 - f.0)
        .min();
    let next = match shortest {
        Some(d) => t + real_dt * speed.min(d.max(1) as f64 / FLIGHT_REAL_MS),
        None => match flights.get(upto) {
            // Stop at the next flight's start so it is not skipped.
            Some(f) if (f.0 as f64) < full => f.0 as f64,
            _ => full,
        },
    };
    next.min(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flight_means_full_speed() {
        assert_eq!(advance(0.0, 16.0, 5.0, &[], (0.0, 100.0), 1e9), 80.0);
        assert_eq!(
            advance(0.0, 16.0, 5.0, &[(1000, 1005)], (0.0, 100.0), 1e9),
            80.0
        );
        assert_eq!(
            advance(990.0, 16.0, 5.0, &[(1000, 1005)], (0.0, 1000.0), 1e9),
            1000.0,
            "stops at the flight"
        );
    }

    #[test]
    fn a_flight_takes_at_least_the_flight_time() {
        let flights = [(1000, 1005)];
        let mut t = 1000.0;
        let mut frames = 0;
        while t < 1005.0 {
            t = advance(t, 16.0, 100.0, &flights, (1000.0, 1005.0), 1e9);
            frames += 1;
        }
        assert!(
            frames as f64 * 16.0 >= FLIGHT_REAL_MS - 16.0,
            "{frames} frames"
        );
    }

    #[test]
    fn never_past_the_end() {
        assert_eq!(advance(0.0, 1000.0, 100.0, &[], (0.0, 500.0), 500.0), 500.0);
    }

    #[test]
    fn a_quiet_gap_never_takes_longer_than_the_gap_time() {
        // 300 s with nothing happening, at 5×: a minute of real time without the rule.
        let gap = (0.0, 300_000.0);
        let (mut t, mut frames) = (0.0, 0);
        while t < gap.1 {
            t = advance(t, 16.0, 5.0, &[], gap, 1e9);
            frames += 1;
        }
        let real = frames as f64 * 16.0;
        assert!(real <= GAP_REAL_MS + 16.0, "{real} ms");
        assert!(
            real >= GAP_REAL_MS - 16.0,
            "not faster than asked: {real} ms"
        );
        // A short gap keeps the chosen speed.
        assert_eq!(advance(0.0, 16.0, 5.0, &[], (0.0, 1000.0), 1e9), 80.0);
    }

    #[test]
    fn speed_labels() {
        assert_eq!(speed_label(0), "0.1×");
        assert_eq!(speed_label(DEFAULT_SPEED), "5×");
    }
}
