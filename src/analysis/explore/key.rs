//! The search's own key for a run: which traces are the same run, for deduplication.
//!
//! The public digest ([`Trace::digest`]) is computed over the trace's canonical JSON text,
//! so that a link or a saved report names the same run forever; building that text for
//! every schedule would be half the search's time. The search only needs to tell runs apart
//! within one search, so it hashes the entries' fields directly. Two traces with the same
//! entries, outcome and end get the same key; different traces get different keys but
//! for a 64-bit collision — the same risk the public digest takes.
//!
//! The hasher is ours and fixed (no random seed, no `std` hasher whose algorithm may
//! change), and it reads every integer as one 64-bit word, so a key is the same on a
//! 64-bit native build and in 32-bit wasm: the search answers the same everywhere.

use crate::model::trace::{json, Entry, Outcome, Tail, Trace};
use crate::vocab::time::Time;
use std::hash::{Hash, Hasher};

/// Deduplication key of a run (see the module doc). Not the public digest.
pub fn run_key(trace: &Trace) -> u64 {
    Keys::default().of(trace).0
}

/// A key of the run's order of events without their times: who did what, about whom.
pub fn ordering(trace: &Trace) -> u64 {
    Keys::default().of(trace).1
}

/// Both keys of a run, fed its entries in order. The runs that extend one run share their
/// first entries (a fault changes nothing before it), so the keys of those entries are fed
/// once and the copy of the state carried on for each run: the keys are the same as fed
/// from the start, since they read the entries one by one, front to back, and the count
/// of entries only at the end.
#[derive(Clone, Default)]
pub struct Keys {
    run: Words<Lanes>,
    order: Words<Lanes>,
    fed: usize,
}

impl Keys {
    /// Feeds the next entries.
    pub fn feed(&mut self, entries: &[Entry]) {
        // Local copies: the compiler keeps them in registers through the loop.
        let (mut run, mut order) = (self.run.clone(), self.order.clone());
        for e in entries {
            e.hash(&mut run);
            e.node.hash(&mut order);
            // The event's variant, not its fields: `Sent` to the lock service is one step
            // whatever the message's id or arrival time.
            std::mem::discriminant(&e.event).hash(&mut order);
            json::about(&e.event).hash(&mut order);
        }
        (self.run, self.order) = (run, order);
        self.fed += entries.len();
    }

    /// How many entries were fed.
    pub fn fed(&self) -> usize {
        self.fed
    }

    /// The (run, ordering) keys of `trace`, whose first [`Keys::fed`] entries are the ones
    /// fed.
    pub fn of(self, trace: &Trace) -> (u64, u64) {
        let rest = trace.entries.get(self.fed..).unwrap_or_default();
        self.end(rest, trace.entries.len(), trace.outcome, trace.end)
    }

    /// The keys of the run finished as `tail`, whose skipped entries are the ones fed.
    pub fn of_tail(self, tail: &Tail) -> (u64, u64) {
        debug_assert_eq!(
            self.fed, tail.skipped,
            "the keys were fed the tail's prefix"
        );
        let len = tail.skipped + tail.entries.len();
        self.end(&tail.entries, len, tail.outcome, tail.end)
    }

    /// Feeds `rest`, the last entries, then the run's length, outcome and end.
    fn end(mut self, rest: &[Entry], len: usize, outcome: Outcome, end: Time) -> (u64, u64) {
        self.feed(rest);
        let mut run = self.run;
        len.hash(&mut run);
        outcome.hash(&mut run);
        end.hash(&mut run);
        let mut order = self.order;
        len.hash(&mut order);
        (run.finish(), order.finish())
    }
}

/// A way to fold 64-bit words into a hash: one chain ([`Chain`]) or four interleaved
/// ones ([`Lanes`]).
pub trait Fold: Clone + Default {
    fn word(&mut self, x: u64);
    fn finish(&self) -> u64;
}

/// A [`Hasher`] that reads everything as 64-bit words folded by `F`: every integer is one
/// word (a `usize` too, so 32-bit wasm hashes as 64-bit native does), bytes eight at a
/// time, then the rest with the length.
#[derive(Clone, Default)]
pub struct Words<F>(F);

/// The search's word-at-a-time hasher, one chain: the set of run keys hashes with it.
pub type Mix = Words<Chain>;

/// The integers of at most 64 bits but `u64` (written as is), one word each.
macro_rules! one_word_each {
    ($($write:ident: $int:ty),+) => {
        $(
            #[inline]
            fn $write(&mut self, i: $int) {
                self.0.word(i as u64);
            }
        )+
    };
}

impl<F: Fold> Hasher for Words<F> {
    #[inline]
    fn finish(&self) -> u64 {
        self.0.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        // The length tells "ab" from "ab\0".
        self.0
            .word(u64::from_le_bytes(w) ^ ((bytes.len() as u64) << 56));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0.word(i);
    }

    one_word_each!(write_u8: u8, write_u16: u16, write_u32: u32, write_usize: usize,
        write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64, write_isize: isize);

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.0.word(i as u64);
        self.0.word((i >> 64) as u64);
    }

    #[inline]
    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }
}

/// One chain: each 64-bit word is folded into the state by one multiply and one shift.
/// The key is only compared for equality within one search (never shown, never ordered
/// by), so it needs no finaliser; it does need that two traces differing in one field never
/// collide, which holds because each step is a bijection of the word: `x ↦ h ^ x`, times an
/// odd constant, then `z ↦ z ^ (z >> 32)` are each invertible. The shift also carries the
/// high bits down, so differences in the high bits of two fields do not cancel out as they
/// would with multiplications alone. (The SplitMix64 finaliser per word would be three
/// times the work: a fifth of the search's time.)
#[derive(Clone, Default)]
pub struct Chain(u64);

/// An odd constant with well-spread bits (the golden ratio's, as in SplitMix64).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Fold for Chain {
    #[inline(always)]
    fn word(&mut self, x: u64) {
        let z = (self.0 ^ x).wrapping_mul(K);
        self.0 = z ^ (z >> 32);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The keys' fold: [`Chain`]'s step on four lanes in turn, the words dealt round-robin,
/// then the four folded into one chain. With one chain each word waits for the one before
/// it (a multiply's latency: the keys were 12% of the search's time); four lanes overlap.
/// It keeps [`Chain`]'s guarantee: a word that differs changes its lane (each step is a
/// bijection of the lane), the other lanes are fed the same words, and folding them in
/// is a bijection of each lane in turn, so the keys differ too.
#[derive(Clone, Default)]
pub struct Lanes {
    /// The lane fed next is `a`; the one just fed, `d`.
    a: u64,
    b: u64,
    c: u64,
    d: u64,
}

impl Fold for Lanes {
    #[inline(always)]
    fn word(&mut self, x: u64) {
        let z = (self.a ^ x).wrapping_mul(K);
        // Rotate: the lane just fed goes last, so the next word goes to the next lane.
        (self.a, self.b, self.c, self.d) = (self.b, self.c, self.d, z ^ (z >> 32));
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut one = Chain::default();
        for lane in [self.a, self.b, self.c, self.d] {
            one.word(lane);
        }
        one.0
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
        // Fed in two parts, the keys are the same.
        let mut k = Keys::default();
        k.feed(&a.entries[..5]);
        assert_eq!(k.of(&a), Keys::default().of(&a));
        assert_eq!(ordering(&a), ordering(&c));
        // Fixed forever and the same on every target: a change here is a change of hasher.
        let mut h = Mix::default();
        "ab".hash(&mut h);
        7u32.hash(&mut h);
        assert_eq!(h.finish(), 11_133_724_815_131_776_711);
    }
}
