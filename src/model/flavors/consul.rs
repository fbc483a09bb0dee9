//! Consul sessions and the KV lock.
//!
//! After the Consul sessions docs and the session API docs:
//! - the session TTL (the client's `ttl_ms`, 10 s at least) is only a lower bound: the
//!   servers arm their timer at twice the TTL, so invalidation comes anywhere in
//!   `[TTL, 2 × TTL]` after the last renewal — drawn here from the run's PRNG at each grant
//!   and renewal, which is a modelling choice: Consul promises only the bounds (its
//!   servers arm their timer at 2 × TTL); a scenario may pin the moment instead
//!   (`coordinator.invalidation`: `earliest` = TTL, `latest` = 2 × TTL), as the safety
//!   calculator's worst case does; the client renews every TTL/2;
//! - a session is also invalidated when its health check goes critical, which gossip can
//!   get wrong: the `false_positive` fault releases a live holder's lock;
//! - after an invalidation (not after a release) the lock cannot be re-acquired for the
//!   lock-delay, 15 s by default (`coordinator.lock_delay_ms`, 0 … 60 s): the only cushion
//!   for a holder that has not noticed yet;
//! - the sequencer is (Key, LockIndex, Session); LockIndex goes up on every acquisition,
//!   and is what our token carries;
//! - a leader change resets the session timers.

use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// The default lock-delay.
pub const LOCK_DELAY_MS: i64 = 15_000;
/// The shortest session TTL Consul accepts.
pub const MIN_TTL_MS: i64 = 10_000;

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str =
    "Consul's locks, per its sessions documentation: a lock is a key held by a \
session, and the session ends when its TTL runs out, when it is destroyed, or when the \
node's health check goes critical. The TTL is only a lower bound; the servers may take up \
to twice as long to notice (this model picks a random moment between one and two TTLs: a \
modelling choice, not Consul's rule). Gossip-based health checks can report a live node as dead, \
releasing a lock whose holder is still working, so after such an invalidation Consul refuses \
to hand the lock out again for the lock-delay (15 seconds by default) in the hope that the \
old holder notices in time. The real protection is the sequencer: the key, its LockIndex \
(which grows with every acquisition) and the session, which a resource can check.";

pub const MODEL: Model = Model {
    name: "consul",
    fence: "sequencer (Key, LockIndex, Session): LockIndex is the token",
    tokens: Tokens::Counter,
    waiters: None,
    wall_expiry: false,
    lazy_expiry: true,
    lock_delay_ms: LOCK_DELAY_MS,
    failover: Failover::Extend { extra_ms: 0 },
    keepalive_div: 2,
    on_expiry: OnExpiry::Lose,
    min_ttl_ms: MIN_TTL_MS,
    expiry: Expiry::AtOnce,
    nodes: 1,
};
