//! Coordinator flavors: the real lock services, side by side.
//!
//! The generic coordinator of `model::sim::coordinator` is a clean lease server with a fencing
//! counter. Real services differ from it in the few ways that decide safety: whether a
//! grant carries an ordered token at all, which clock expires a lease, what a fail-over
//! does to leases, whether the lock is held back after its holder fails (lock-delay), and
//! what the client library does when it stops hearing from the service. Each flavor module
//! states those differences as one [`Model`] value, so the coordinator and the client read
//! data instead of growing a branch per product; only Redlock, whose client talks to five
//! independent masters, brings code of its own ([`redlock`]).
//!
//! The facts and defaults come from `../shared/reference/lock-services.md` §1–6 and §9;
//! each module names its primary source.

pub mod chubby;
pub mod consul;
pub mod etcd;
pub mod generic;
pub mod redis;
pub mod redlock;
pub mod zookeeper;

/// What the coordinator does with an acquire while the lock is held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Waiters {
    /// Queue it and grant in arrival order when the lock frees (ZooKeeper, etcd).
    #[default]
    Queue,
    /// Answer "busy"; the client retries (Redis `SET NX`).
    Retry,
}

/// Which lock service the coordinator behaves like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavor {
    /// The textbook lease server with a fencing counter (the core's coordinator).
    #[default]
    Generic,
    Redis,
    Redlock,
    Zookeeper,
    Etcd,
    Consul,
    Chubby,
}

/// What a grant offers as a fencing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokens {
    /// A counter bumped on every grant (generic token, Chubby's lock generation, Consul's
    /// LockIndex).
    Counter,
    /// A store-wide revision bumped by every create and delete; the token is the revision
    /// at which the waiter's key was created (ZooKeeper's czxid, etcd's create revision).
    Revision,
    /// None: grants carry token 0, which the client never sends (Redis, Redlock).
    None,
}

/// What the client library does when its lease runs out on its own clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnExpiry {
    /// The watchdog ends the belief (generic, Redis, etcd, Consul).
    Lose,
    /// ZooKeeper with Curator: no lease of its own. The client notes Disconnected
    /// (SUSPENDED) once it stops hearing replies; Curator reports LOST once that has lasted
    /// the session timeout, or the client learns Expired from a refusal if it reconnects
    /// first.
    Disconnect,
    /// Chubby: jeopardy, then a grace period (`coordinator.grace_ms`) before giving up.
    Jeopardy,
}

/// When the service revokes a lease (or expires a session) that ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The moment it runs out (generic, Redis, Consul, Chubby).
    AtOnce,
    /// At the first of the service's looks for expired leases at or after it; the looks
    /// are every `every_ms` of the run, from its start. In the gap the lease is gone for
    /// its holder: a keepalive is refused (etcd's lessor, every 500 ms).
    Scan { every_ms: i64 },
    /// On the first tick of `coordinator.tick_ms` strictly after it, ticks counted from
    /// the run's start, and at once when that is 0; a ping in the gap still keeps the
    /// session (ZooKeeper's session tracker rounds each deadline up to the next tick).
    NextTick,
}

impl Expiry {
    /// How far apart the service's looks (or ticks) are, `tick_ms` being the scenario's
    /// `coordinator.tick_ms`; `None` when it revokes the moment a lease runs out.
    pub fn period(self, tick_ms: i64) -> Option<i64> {
        match self {
            Expiry::Scan { every_ms } => Some(every_ms),
            Expiry::NextTick if tick_ms > 0 => Some(tick_ms),
            _ => None,
        }
    }

    /// When a lease that runs out at `expires` (on the service's clock) is revoked: at
    /// once, at the first look at or after it, or on the first tick strictly after it.
    pub fn revoked_at(self, expires: i64, tick_ms: i64) -> i64 {
        let Some(p) = self.period(tick_ms) else {
            return expires;
        };
        // The first multiple of `p` at or after `from`.
        let from = match self {
            Expiry::NextTick => expires.saturating_add(1),
            _ => expires,
        };
        from.div_euclid(p)
            .saturating_add(i64::from(from.rem_euclid(p) != 0))
            .saturating_mul(p)
    }
}

/// What a `failover` fault does to the leases in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failover {
    /// Replicated state, deadlines unchanged (generic).
    Keep,
    /// An asynchronous replica is promoted: a key written less than
    /// `coordinator.replica_lag_ms` before is missing on it (Redis).
    LoseRecent,
    /// The new leader restarts every lease at a full TTL plus `extra_ms` (ZooKeeper,
    /// etcd, Consul, Chubby): a liveness cost, never a safety one.
    Extend { extra_ms: i64 },
}

/// The safety-relevant shape of one lock service, as data.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    pub name: &'static str,
    /// The fence the service offers, or "none".
    pub fence: &'static str,
    pub tokens: Tokens,
    /// Forced waiting behaviour; `None` = the scenario's `coordinator.waiters`.
    pub waiters: Option<Waiters>,
    /// Lease expiry always reads the server's wall clock (a jump forward expires early),
    /// whatever `coordinator.clock.monotonic` says.
    pub wall_expiry: bool,
    /// Expiry is drawn in `[ttl, 2 × ttl]` after each renewal (Consul's lower bound).
    pub lazy_expiry: bool,
    /// Default lock-delay after a holder fails (`coordinator.lock_delay_ms` overrides).
    pub lock_delay_ms: i64,
    pub failover: Failover,
    /// Default keepalive period as a divisor of the TTL when the client sets no
    /// `renew_every_ms` (0: no default keepalive).
    pub keepalive_div: i64,
    pub on_expiry: OnExpiry,
    /// The smallest TTL the service accepts.
    pub min_ttl_ms: i64,
    /// When a lease that ran out is revoked.
    pub expiry: Expiry,
    /// Coordinator nodes (Redlock: five independent masters).
    pub nodes: u8,
}

impl Flavor {
    pub const ALL: [Flavor; 7] = [
        Flavor::Generic,
        Flavor::Redis,
        Flavor::Redlock,
        Flavor::Zookeeper,
        Flavor::Etcd,
        Flavor::Consul,
        Flavor::Chubby,
    ];

    pub fn model(self) -> &'static Model {
        match self {
            Flavor::Generic => &generic::MODEL,
            Flavor::Redis => &redis::MODEL,
            Flavor::Redlock => &redlock::MODEL,
            Flavor::Zookeeper => &zookeeper::MODEL,
            Flavor::Etcd => &etcd::MODEL,
            Flavor::Consul => &consul::MODEL,
            Flavor::Chubby => &chubby::MODEL,
        }
    }

    /// The name in JSON and on the command line: `generic`, `redis`, …
    pub fn name(self) -> &'static str {
        self.model().name
    }

    pub fn parse(s: &str) -> Option<Flavor> {
        Flavor::ALL.into_iter().find(|f| f.name() == s)
    }

    /// One paragraph for the inspector, in our words, naming the source. Kept beside the
    /// models rather than in them: a run reads its model, never this text.
    pub fn explainer(self) -> &'static str {
        match self {
            Flavor::Generic => generic::EXPLAINER,
            Flavor::Redis => redis::EXPLAINER,
            Flavor::Redlock => redlock::EXPLAINER,
            Flavor::Zookeeper => zookeeper::EXPLAINER,
            Flavor::Etcd => etcd::EXPLAINER,
            Flavor::Consul => consul::EXPLAINER,
            Flavor::Chubby => chubby::EXPLAINER,
        }
    }

    pub fn fence_offered(self) -> &'static str {
        self.model().fence
    }

    /// How many coordinator nodes (lanes) the flavor has.
    pub fn nodes(self) -> u8 {
        self.model().nodes
    }

    /// The names, for error messages and usage text: `generic|redis|…`.
    pub fn names() -> String {
        let v: Vec<&str> = Flavor::ALL.iter().map(|f| f.name()).collect();
        v.join("|")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::ids::MAX_COORDS;

    #[test]
    fn names_round_trip_and_every_flavor_explains_itself() {
        for f in Flavor::ALL {
            assert_eq!(Flavor::parse(f.name()), Some(f));
            assert!(f.explainer().len() > 200, "{}", f.name());
            assert!(!f.fence_offered().is_empty());
            assert!(f.nodes() >= 1 && f.nodes() <= MAX_COORDS);
        }
        assert_eq!(Flavor::parse("foo"), None);
        assert_eq!(Flavor::default(), Flavor::Generic);
    }
}
