//! A node's own clock: offset, drift and jumps.
//!
//! Every node reads time only through its clock. The reading at true time `t` is
//!
//! ```text
//! wall(t) = t + offset_ms + floor(t × drift_ppm / 1e6)
//! ```
//!
//! where `offset_ms` also accumulates the clock *jumps* that have happened so far (an NTP
//! step, an operator fixing the date). A node whose timers use a **monotonic** clock
//! (`monotonic: true`) measures durations with `t + floor(t × drift_ppm / 1e6)` instead, so
//! jumps never move its deadlines — the fix the Redis docs and Kleppmann 2016 ask for.
//!
//! Drift is the *rate* error: +100 ppm runs fast by 0.1 ms per second. A pause of the node
//! (a GC) does not stop its clock: clocks are hardware, pauses are software.

use crate::vocab::time::Time;

/// The static part of a clock, from the scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Initial offset plus every jump applied so far, in ms.
    pub offset_ms: i64,
    /// Rate error in parts per million; validated to lie in ±500,000.
    pub drift_ppm: i64,
    /// Whether the node's timers and deadlines use the monotonic reading.
    pub monotonic: bool,
}

/// ⌊a × b / d⌋ (`d` > 0), in 64 bits. When the product does not fit, `a` is split as
/// q × d + r (0 ≤ r < d), and ⌊a × b / d⌋ = q × b + ⌊r × b / d⌋ exactly. Both callers pass
/// `b` and `d` within a few million (drifts are validated to ±500,000 ppm), so r × b fits;
/// out of range the sums saturate rather than panic. No 128-bit arithmetic: its division is
/// a library call a search reading clocks millions of times notices, and over a kilobyte
/// of the first load's wasm.
fn mul_div_floor(a: i64, b: i64, d: i64) -> i64 {
    match a.checked_mul(b) {
        Some(x) => x.div_euclid(d),
        None => {
            let (q, r) = (a.div_euclid(d), a.rem_euclid(d));
            q.saturating_mul(b)
                .saturating_add(r.saturating_mul(b).div_euclid(d))
        }
    }
}

impl Clock {
    fn drifted(&self, t: Time) -> i64 {
        // Most clocks do not drift.
        if self.drift_ppm == 0 {
            return t.0;
        }
        t.0 + mul_div_floor(t.0, self.drift_ppm, 1_000_000)
    }

    /// What the node's wall clock shows at true time `t` (what the views display).
    pub fn wall(&self, t: Time) -> i64 {
        self.drifted(t) + self.offset_ms
    }

    /// The reading the node uses for timers and lease deadlines.
    pub fn timer_reading(&self, t: Time) -> i64 {
        if self.monotonic {
            self.drifted(t)
        } else {
            self.wall(t)
        }
    }

    /// The earliest true time at or after `now` at which the timer reading reaches `local`.
    /// This is how a node's "wake me when my clock says X" becomes an event in true time.
    pub fn true_time_of(&self, local: i64, now: Time) -> Time {
        if self.timer_reading(now) >= local {
            return now;
        }
        let base = if self.monotonic { 0 } else { self.offset_ms };
        let target = local - base;
        // drifted(t) ≈ t × (1e6 + ppm) / 1e6: invert, then correct the rounding.
        let rate = 1_000_000 + self.drift_ppm;
        let mut t = mul_div_floor(target, 1_000_000, rate);
        t = t.max(now.0);
        while self.timer_reading(Time(t)) < local {
            t += 1;
        }
        while t > now.0 && self.timer_reading(Time(t - 1)) >= local {
            t -= 1;
        }
        Time(t)
    }

    /// A clock jump: moves the wall reading (and so wall-clock timers), never the
    /// monotonic one.
    pub fn jump(&mut self, by_ms: i64) {
        self.offset_ms = self.offset_ms.saturating_add(by_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_div_floor_is_exact_where_the_product_overflows() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..20_000 {
            // Times anywhere in i64; b and d as the callers pass them (a drift, or 10^6; 10^6,
            // or 10^6 plus a drift), drifts within the validated ±500,000 ppm.
            let a = next() as i64 >> (next() % 40);
            let drift = (next() % 1_000_001) as i64 - 500_000;
            let (b, d) = if i % 2 == 0 {
                (drift, 1_000_000)
            } else {
                (1_000_000, 1_000_000 + drift)
            };
            let exact = (i128::from(a) * i128::from(b)).div_euclid(i128::from(d));
            if let Ok(exact) = i64::try_from(exact) {
                assert_eq!(mul_div_floor(a, b, d), exact, "{a} × {b} / {d}");
            }
        }
        assert_eq!(mul_div_floor(i64::MAX, 3, 4), (i64::MAX / 4) * 3 + 2);
        assert_eq!(
            mul_div_floor(i64::MIN, 1_000_000, 1_500_000),
            -6_148_914_691_236_517_206
        );
    }

    #[test]
    fn perfect_clock_reads_true_time() {
        let c = Clock::default();
        assert_eq!(c.wall(Time(12_345)), 12_345);
        assert_eq!(c.true_time_of(500, Time(0)), Time(500));
    }

    #[test]
    fn offset_and_drift() {
        let c = Clock {
            offset_ms: 1_000,
            drift_ppm: 10_000,
            monotonic: false,
        };
        // +1 %: after 30 s true, the clock has gained 300 ms.
        assert_eq!(c.wall(Time(30_000)), 31_300);
        // Slow clock: -1 %.
        let s = Clock {
            offset_ms: 0,
            drift_ppm: -10_000,
            monotonic: false,
        };
        assert_eq!(s.wall(Time(30_000)), 29_700);
    }

    #[test]
    fn true_time_of_is_the_earliest_instant() {
        for ppm in [-300_000, -10_000, -1, 0, 7, 10_000, 250_000] {
            let c = Clock {
                offset_ms: -40,
                drift_ppm: ppm,
                monotonic: false,
            };
            for local in [0, 1, 999, 30_000, 123_457] {
                let t = c.true_time_of(local, Time(0));
                assert!(c.wall(t) >= local, "ppm {ppm} local {local}");
                if t.0 > 0 {
                    assert!(
                        c.wall(Time(t.0 - 1)) < local,
                        "ppm {ppm} local {local} not earliest"
                    );
                }
            }
        }
    }

    #[test]
    fn jumps_move_wall_but_not_monotonic() {
        let mut wall = Clock::default();
        let mut mono = Clock {
            monotonic: true,
            ..Clock::default()
        };
        wall.jump(10_000);
        mono.jump(10_000);
        assert_eq!(wall.timer_reading(Time(5)), 10_005);
        assert_eq!(mono.timer_reading(Time(5)), 5);
        assert_eq!(mono.wall(Time(5)), 10_005);
        // A deadline at local 20 s arrives 10 s early on the wall clock.
        assert_eq!(wall.true_time_of(20_000, Time(0)), Time(10_000));
        assert_eq!(mono.true_time_of(20_000, Time(0)), Time(20_000));
    }

    #[test]
    fn past_deadline_fires_now() {
        let c = Clock {
            offset_ms: 5_000,
            ..Clock::default()
        };
        assert_eq!(c.true_time_of(100, Time(42)), Time(42));
    }
}
