//! Redis, a single instance: `SET key value NX PX ttl`.
//!
//! What matters to safety, after the Redis distlock docs and the `EXPIRE` docs:
//! - the value is a random id per acquisition; release and extension compare it first
//!   (the generic owner check), so a late release cannot free someone else's lock;
//! - a busy key is refused, and the client retries (`SET NX` does not queue);
//! - expiry is an absolute time on the server's **wall clock**, so a clock stepped forward
//!   expires the key early — we force wall-clock expiry whatever the scenario's clock says;
//! - there is **no fencing token**: grants carry token 0, the client sends no token, and a
//!   storage fence therefore refuses every write ("no fencing token") — it cannot order
//!   holders it cannot tell apart;
//! - a `failover` promotes an asynchronous replica: a key written less than
//!   `coordinator.replica_lag_ms` (default 1,000 ms) before the failover never reached it,
//!   so the lock is simply gone and a second client can take it.

use super::Waiters;
use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str =
    "A single Redis server used as a lock, as the Redis distributed-lock docs \
describe: SET with NX and a TTL creates the key only if it is absent, the value is a random \
id so that only its owner deletes it (compare-and-delete), and the key expires at an \
absolute time on the server's wall clock, so an operator or NTP stepping that clock forward \
frees the lock early. Nothing in a grant is ordered, so there is no fencing token: storage \
cannot tell a late writer from the current one. Replication is asynchronous, so after a \
failover the promoted replica may never have seen the key, and a second client gets the \
same lock. The docs themselves say to add fencing for correctness.";

pub const MODEL: Model = Model {
    name: "redis",
    fence: "none: the random value identifies the owner but carries no order",
    tokens: Tokens::None,
    waiters: Some(Waiters::Retry),
    wall_expiry: true,
    lazy_expiry: false,
    lock_delay_ms: 0,
    failover: Failover::LoseRecent,
    keepalive_div: 0,
    on_expiry: OnExpiry::Lose,
    min_ttl_ms: 1,
    expiry: Expiry::AtOnce,
    nodes: 1,
};
