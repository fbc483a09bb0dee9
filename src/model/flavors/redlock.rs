//! Redlock: one lock over five independent Redis masters.
//!
//! After the Redis distlock docs (the algorithm), antirez's `redlock-rb` (the drift
//! constant) and Kleppmann 2016 (the critique):
//! - the five masters are the coordinator nodes `coord`, `coord2` … `coord5` (A … E in
//!   Kleppmann's text); each is a single Redis instance — wall-clock expiry, no token, no
//!   persistence — with its own clock that faults can skew or jump;
//! - the client sends its `SET NX PX` to all five at once and waits for every answer or its
//!   request timeout; it holds the lock if at least three granted and the validity
//!   `TTL − elapsed − (TTL/100 + 2 ms)` is still positive, measured on its own clock — so a
//!   pause while the replies are in flight is caught, one after the check is not;
//! - on failure it releases on all five and retries after `retry.interval_ms` plus a random
//!   `0 … retry.jitter_ms` from the run's PRNG;
//! - a restarted master has forgotten its keys; the "delayed restart" remedy keeps it down
//!   for `coordinator.restart_delay_ms` (the Redis docs: a bit more than the longest TTL
//!   in use) so every lock it knew of has expired and it joins no live lock;
//! - extension is not modelled: validation refuses `renew_every_ms` with Redlock.

use super::{redis, Model};

pub const MASTERS: u8 = 5;
/// Grants needed: N/2 + 1.
pub const MAJORITY: u32 = MASTERS as u32 / 2 + 1;

/// The clock-drift allowance of `redlock-rb`: 1 % of the TTL (integer ms) plus 2 ms.
pub fn drift_ms(ttl_ms: i64) -> i64 {
    ttl_ms / 100 + 2
}

/// How long the client may trust a lock it acquired in `elapsed_ms`: `TTL − elapsed −
/// drift`. Zero or less means it did not get the lock in time.
pub fn validity_ms(ttl_ms: i64, elapsed_ms: i64) -> i64 {
    ttl_ms - elapsed_ms - drift_ms(ttl_ms)
}

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str =
    "Redlock, the multi-master algorithm of the Redis distributed-lock docs: the \
client tries to set the same random key on five independent Redis masters, and holds the \
lock if at least three accepted and there is time left — the TTL minus the time the round \
took minus a small drift allowance. Martin Kleppmann's 2016 critique shows why this is not \
enough for correctness: if one master's clock jumps forward its key expires early and a \
second client can win a majority; a client paused after the check still writes late; a \
master restarted without persistence forgets who holds the lock unless it stays down for a \
TTL. And there is no fencing token at all.";

pub const MODEL: Model = Model {
    name: "redlock",
    fence: "none: five random values, no order",
    nodes: MASTERS,
    ..redis::MODEL
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_is_ttl_minus_elapsed_minus_drift() {
        assert_eq!(drift_ms(10_000), 102);
        assert_eq!(validity_ms(10_000, 40), 9_858);
        assert_eq!(validity_ms(30_000, 0), 30_000 - 302);
        // A round that took longer than the TTL leaves nothing.
        assert!(validity_ms(10_000, 9_900) <= 0);
        assert_eq!(MAJORITY, 3);
    }
}
