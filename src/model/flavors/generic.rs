//! The generic lock service: the coordinator of the core, unchanged.
//!
//! One holder at a time, a lease with a TTL on the coordinator's own clock, and a token
//! counter that goes up with every grant — the idealised service Kleppmann 2016 draws in
//! his fencing figure. It is the baseline the other flavors are compared with.

use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str =
    "A textbook lease server, as drawn in Kleppmann's 2016 post \"How to do \
distributed locking\": it grants one lease at a time, expires it on its own clock when the \
TTL runs out, and stamps every grant with the next value of a counter that only goes up. \
That counter is the fencing token: storage that remembers the highest token it has seen can \
refuse a late writer holding an older one. The lease alone never guarantees exclusion; the \
token is what lets the resource enforce it.";

pub const MODEL: Model = Model {
    name: "generic",
    fence: "token: a counter bumped on every grant",
    tokens: Tokens::Counter,
    waiters: None,
    wall_expiry: false,
    lazy_expiry: false,
    lock_delay_ms: 0,
    failover: Failover::Keep,
    keepalive_div: 0,
    on_expiry: OnExpiry::Lose,
    min_ttl_ms: 1,
    expiry: Expiry::AtOnce,
    nodes: 1,
};
