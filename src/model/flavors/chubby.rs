//! Chubby, Google's lock service (Burrows, OSDI 2006).
//!
//! After the Chubby paper, §2.4 and §2.8–2.9:
//! - a lock comes with a sequencer (name, mode, lock generation); the generation goes up
//!   on every free→held transition and is our token;
//! - the session is a lease kept by KeepAlives (the client's `ttl_ms`, 12 s by default in
//!   the paper); the client renews every third of it when it sets no interval. Two
//!   simplifications: a real client keeps one KeepAlive parked at the master, which
//!   answers it near the lease's end, not on a timer; and a new master extends each lease
//!   to the most its predecessor may have granted, where the model gives a full TTL;
//! - when the client's local lease runs out it is in **jeopardy**: it waits a grace period
//!   (`coordinator.grace_ms`, 45 s) for a KeepAlive to succeed — then it is **safe** again
//!   and keeps its session and its locks — and gives up only after it. During jeopardy
//!   Chubby's library blocks the application's calls *to Chubby*, not the application: so
//!   here too only calls to Chubby wait, and a write to storage goes ahead;
//! - after a holder *fails* (its session expires), the lock is held back for the
//!   lock-delay, which the client chooses, up to a minute; the paper gives no default, so
//!   the model uses the maximum, 60 s, unless `coordinator.lock_delay_ms` says otherwise;
//! - a master fail-over stops lease timers while there is no master and the new master
//!   extends every session lease, so a fail-over shorter than lease + grace costs no lock.
//!   The client still sees it: jeopardy, then safe (and in Chubby a fail-over event, which
//!   the model does not emit).

use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// The paper's default grace period after a lease runs out locally.
pub const GRACE_MS: i64 = 45_000;
/// The paper's upper bound on the lock-delay a client may choose; the model uses it when
/// the scenario sets none (the paper names no default).
pub const LOCK_DELAY_MS: i64 = 60_000;

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str = "Chubby, described by Mike Burrows in \"The Chubby lock service for \
loosely-coupled distributed systems\" (OSDI 2006). Clients keep a session alive with \
KeepAlives; if the local lease runs out the client enters jeopardy and waits a 45-second \
grace period before declaring the session lost; meanwhile the library holds back the \
application's calls to Chubby, not the application itself. So a master fail-over — during \
which lease timers stop and after which the new master extends every lease — usually costs \
no lock, though the client sees it: jeopardy, then safe, and a fail-over event. \
When a holder really fails, its lock is held back for a lock-delay the client chose, up to a \
minute (the model uses the full minute), for servers that cannot check anything. Those that can ask for a sequencer: the lock's name, \
mode and generation number, which increases on every acquisition, so a resource can refuse \
a request carrying an older one.";

pub const MODEL: Model = Model {
    name: "chubby",
    fence: "sequencer (name, mode, lock generation): the generation is the token",
    tokens: Tokens::Counter,
    waiters: None,
    wall_expiry: false,
    lazy_expiry: false,
    lock_delay_ms: LOCK_DELAY_MS,
    failover: Failover::Extend { extra_ms: 0 },
    keepalive_div: 3,
    on_expiry: OnExpiry::Jeopardy,
    min_ttl_ms: 1,
    expiry: Expiry::AtOnce,
    nodes: 1,
};
