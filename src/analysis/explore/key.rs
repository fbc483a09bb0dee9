//! The search's own key for a run: which traces are the same run, for deduplication.
//!
//! The public digest ([`Trace::digest`]) is computed over the trace's canonical JSON text,
//! so that a link or a saved report names the same run forever; building that text for
//! every schedule was half the search's time. The search only needs to tell runs apart
//! within one search, so it hashes the entries' fields directly. Two traces with the same
//! entries, outcome and end get the same key; different traces get different keys but
//! for a 64-bit collision — the same risk the public digest takes.
//!
//! The hasher is ours and fixed (no random seed, no `std` hasher whose algorithm may
//! change), and it reads every integer as 64 bits little-endian, so a key is the same on a
//! 64-bit native build and in 32-bit wasm: the search answers the same everywhere.

use crate::model::trace::Trace;
use std::hash::{Hash, Hasher};

/// Deduplication key of a run (see the module doc). Not the public digest.
pub fn run_key(trace: &Trace) -> u64 {
    let mut h = Mix::default();
    trace.entries.hash(&mut h);
    trace.outcome.hash(&mut h);
    trace.end.hash(&mut h);
    h.finish()
}

/// A word-at-a-time hasher: each 64-bit word is folded into the state through the
/// SplitMix64 finaliser (a bijection that spreads every input bit over the whole word).
#[derive(Default)]
pub struct Mix(u64);

impl Mix {
    fn word(&mut self, x: u64) {
        let mut z = (self.0 ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }
}

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        // The length tells "ab" from "ab\0".
        self.word(u64::from_le_bytes(w) ^ ((bytes.len() as u64) << 56));
    }
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_u128(&mut self, i: u128) {
        self.word(i as u64);
        self.word((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.word(i as u64);
    }
    fn write_i16(&mut self, i: i16) {
        self.word(i as u64);
    }
    fn write_i32(&mut self, i: i32) {
        self.word(i as u64);
    }
    fn write_i64(&mut self, i: i64) {
        self.word(i as u64);
    }
    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }
    fn write_isize(&mut self, i: isize) {
        self.word(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::run;
    use crate::teach::course::open;

    #[test]
    fn the_key_tells_runs_apart_as_the_digest_does() {
        let a = run(&open("gc-pause").unwrap());
        let b = run(&open("gc-pause-fenced").unwrap());
        assert_eq!(run_key(&a), run_key(&a.clone()));
        assert_ne!(run_key(&a), run_key(&b));
        let mut c = a.clone();
        c.entries[3].local += 1;
        assert_ne!(run_key(&a), run_key(&c));
        // Fixed forever and the same on every target: a change here is a change of hasher.
        let mut h = Mix::default();
        "ab".hash(&mut h);
        7u32.hash(&mut h);
        assert_eq!(h.finish(), 16_584_483_688_994_807_709);
    }
}
