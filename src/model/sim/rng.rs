//! Our own pseudo-random generator: SplitMix64.
//!
//! A seed must mean the same run forever, on every target. Library generators may change
//! their output stream between versions, so the few lines that define ours live here and
//! are pinned by a test vector. Only `u64` arithmetic is used (no `usize`, no floats).

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for simulation.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (inclusive). `lo > hi` returns `lo`.
    pub fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `pct`/100.
    pub fn chance_pct(&mut self, pct: u32) -> bool {
        if pct == 0 {
            return false;
        }
        self.next_u64() % 100 < u64::from(pct)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_pinned() {
        // Reference values of SplitMix64 for seed 1234567.
        let mut r = Rng::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
    }

    #[test]
    fn range_is_inclusive_and_bounded() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let v = r.range_i64(-3, 3);
            assert!((-3..=3).contains(&v));
        }
        assert_eq!(r.range_i64(5, 5), 5);
        assert_eq!(r.range_i64(5, 1), 5);
    }
}
