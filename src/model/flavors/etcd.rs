//! etcd's `concurrency.Mutex` on a lease.
//!
//! After the etcd docs (leases, "Notes on the usage of lock and lease") and its client:
//! - a lease has a TTL of at least 2 s (1.5 × the default 1 s election timeout): etcd
//!   silently raises a shorter one to that minimum, and a scenario must state 2 s or more,
//!   so that the file says what runs. The client sends a keepalive every TTL/3 and drops
//!   the lease locally a TTL after the last answer; the leader revokes an expired lease,
//!   deleting its keys, when its lessor next looks for expired leases: every 500 ms
//!   (`revokeExpiredLeases` in lessor.go), so up to half a second after the TTL ran out.
//!   A keepalive in that gap is refused: the lease is already gone as far as it is
//!   concerned. The model's lessor looks at 0, 500, 1000, … ms of the run; the lab starts
//!   its runs on a look of the real one;
//! - contenders put a key under the lock prefix; the owner is the key with the lowest
//!   create revision, the others wait in that order (always a queue here);
//! - the create revision is the fence: the store's revision goes up on every put and
//!   delete and survives restarts;
//! - a leader change refreshes every lease to a full TTL plus the election timeout (1 s) —
//!   the lessor's `Promote` (etcd issues #9395, #9888), without lease checkpointing, which
//!   would restore the persisted remaining TTL instead: a crashed holder blocks the lock
//!   for longer than its TTL — liveness, not safety.

use super::Waiters;
use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// `ceil(1.5 × election timeout)` with the default 1,000 ms election timeout.
pub const MIN_TTL_MS: i64 = 2_000;
/// How often the leader's lessor looks for expired leases.
pub const LESSOR_SCAN_MS: i64 = 500;
/// Added to every lease when a new leader promotes itself.
pub const ELECTION_TIMEOUT_MS: i64 = 1_000;

/// The keepalive period the etcd client uses for a lease of `ttl_ms`.
pub fn keepalive_ms(ttl_ms: i64) -> i64 {
    ttl_ms / 3
}

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str = "etcd's lock, as its documentation and client library describe it: the client \
takes a lease (etcd raises a TTL under 2 seconds to 2 seconds), keeps it alive every third of its TTL, and puts a key \
under the lock's prefix attached to that lease. Whoever's key has the lowest create revision \
owns the lock; the others wait for the key just before theirs to be deleted. When a lease is \
not kept alive the leader revokes it and the key disappears, the next time its lessor looks for \
expired leases (every half second), so up to 500 ms after the TTL ran out. The store's revision grows with \
every change (so a lock's create revision goes up, skipping the numbers other changes \
took), and that makes it the fencing token. The docs warn that the lock alone does not give mutual \
exclusion. And a new leader's lessor (Promote, in lessor.go) gives every lease its full TTL \
again plus the 1-second election timeout (etcd issues #9395 and #9888): a dead holder can \
block the lock for longer than its TTL. Lease checkpointing, which persists the remaining \
TTL, limits that; the model runs without it.";

pub const MODEL: Model = Model {
    name: "etcd",
    fence: "the lock key's create revision: ordered, survives restarts",
    tokens: Tokens::Revision,
    waiters: Some(Waiters::Queue),
    wall_expiry: false,
    lazy_expiry: false,
    lock_delay_ms: 0,
    failover: Failover::Extend {
        extra_ms: ELECTION_TIMEOUT_MS,
    },
    keepalive_div: 3,
    on_expiry: OnExpiry::Lose,
    min_ttl_ms: MIN_TTL_MS,
    expiry: Expiry::Scan {
        every_ms: LESSOR_SCAN_MS,
    },
    nodes: 1,
};
