//! Simulated time.
//!
//! Time is an integer number of **milliseconds**. Every phenomenon Leaseline teaches lives
//! at that scale or above: network delays of a few ms, Redlock's drift allowance (1 % of
//! the TTL plus 2 ms), TTLs of seconds, GC pauses of tens of seconds, a 25-minute backfill. Microseconds would
//! add three digits to every number a learner reads and buy no behaviour we model; clock
//! drift in ppm is still exact enough (100 ppm over 30 s is 3 ms).
//!
//! Two kinds of instant exist and must not be mixed: [`Time`] is the simulator's *true*
//! time, seen only by the run loop, the checker and the views. A node's own reading of its
//! clock is a plain `i64` of local milliseconds, produced by `model::clock::Clock`.

use super::numbers::fmt_ms;
use serde::{Deserialize, Serialize};
use std::fmt;

/// True simulated time in milliseconds since the start of the run.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Time(pub i64);

impl Time {
    pub const ZERO: Time = Time(0);

    pub fn ms(self) -> i64 {
        self.0
    }

    pub fn plus(self, ms: i64) -> Time {
        Time(self.0.saturating_add(ms))
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", fmt_ms(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_seconds() {
        assert_eq!(Time(7).to_string(), "0.007s");
    }
}
