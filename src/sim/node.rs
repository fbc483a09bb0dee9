//! Who is in a run, what they say to each other, and how a handler talks to the run loop.
//!
//! Handlers are *sans-I/O* (as in stateright): a node's `on_message` / `on_timer` never
//! sends, sleeps or reads a clock itself. It reads its own clock from [`Ctx::now`], and
//! pushes [`Cmd`]s — send this, wake me at local time X, note this in the trace — that the
//! run loop carries out. That keeps each handler a small, testable function of
//! (state, input) and keeps true time out of every node's reach.

use super::rng::Rng;
use serde::{Serialize, Serializer};
use std::fmt;

/// Maximum number of clients in a scenario.
pub const MAX_CLIENTS: u8 = 8;

/// A node of the run. Ordered so that lanes sort clients, then coordinator, then storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeId {
    /// Client `i`, 0-based; written `c1`..`c8` in JSON and text.
    Client(u8),
    /// Coordinator node `i`. The generic lock service is one node (`coord`); Redlock's five
    /// masters are `coord`, `coord2` … `coord5` (`coord1` is accepted for `coord`).
    Coord(u8),
    /// The protected resource.
    Storage,
}

impl NodeId {
    pub const COORD: NodeId = NodeId::Coord(0);

    pub fn is_client(self) -> bool {
        matches!(self, NodeId::Client(_))
    }

    /// Parses `c1`..`c8`, `coord`, `coord1`..`coord5` and `storage`.
    pub fn parse(s: &str) -> Option<NodeId> {
        match s {
            "coord" => Some(NodeId::COORD),
            "storage" => Some(NodeId::Storage),
            _ if s.starts_with("coord") => {
                let n: u8 = s["coord".len()..].parse().ok()?;
                (1..=crate::sim::flavors::MAX_COORDS)
                    .contains(&n)
                    .then(|| NodeId::Coord(n - 1))
            }
            _ => {
                let n: u8 = s.strip_prefix('c')?.parse().ok()?;
                (1..=MAX_CLIENTS)
                    .contains(&n)
                    .then(|| NodeId::Client(n - 1))
            }
        }
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeId::Client(i) => write!(f, "c{}", i + 1),
            NodeId::Coord(0) => write!(f, "coord"),
            NodeId::Coord(i) => write!(f, "coord{}", i + 1),
            NodeId::Storage => write!(f, "storage"),
        }
    }
}

impl Serialize for NodeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why storage refused a write. Displayed as the learner reads it: "token 33 < 34".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RejectReason {
    /// Monotone fence: the token is below the highest accepted.
    Lower { token: u64, mark: u64 },
    /// Strict monotone fence: the token is not above the highest accepted.
    NotAbove { token: u64, mark: u64 },
    /// Exact match: the token is not the lock's current one.
    NotCurrent { token: u64, current: Option<u64> },
    /// A fenced resource got a write with no token (a fail-open client).
    NoToken,
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RejectReason::Lower { token, mark } => write!(f, "token {token} < {mark}"),
            RejectReason::NotAbove { token, mark } => write!(f, "token {token} ≤ {mark}"),
            RejectReason::NotCurrent {
                token,
                current: Some(c),
            } => {
                write!(f, "token {token} ≠ current {c}")
            }
            RejectReason::NotCurrent {
                token,
                current: None,
            } => {
                write!(f, "token {token}: no lease is current")
            }
            RejectReason::NoToken => write!(f, "no fencing token"),
        }
    }
}

/// A message between nodes. `epoch` fields are simulator bookkeeping (which grant a token
/// came from, unique even when an in-memory counter repeats tokens); no handler bases a
/// decision on them — only the checker and the views read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    Acquire {
        req: u32,
        owner: u64,
        ttl_ms: i64,
    },
    Granted {
        req: u32,
        token: u64,
        ttl_ms: i64,
        epoch: u32,
    },
    Queued {
        req: u32,
    },
    Busy {
        req: u32,
    },
    Renew {
        req: u32,
        owner: u64,
        token: u64,
        ttl_ms: i64,
    },
    Renewed {
        req: u32,
        token: u64,
        ttl_ms: i64,
    },
    RenewRefused {
        req: u32,
        token: u64,
    },
    Release {
        owner: u64,
    },
    Released {
        ok: bool,
    },
    Write {
        req: u32,
        key: String,
        value: String,
        token: Option<u64>,
        epoch: Option<u32>,
    },
    WriteAck {
        req: u32,
    },
    WriteRejected {
        req: u32,
        reason: RejectReason,
    },
    Effect {
        req: u32,
        name: String,
        idempotency_key: Option<String>,
        token: Option<u64>,
    },
    EffectDone {
        req: u32,
        duplicate: bool,
    },
}

impl Msg {
    /// The family a view styles it by: acquire, grant, renew, release, write, ack, reject,
    /// effect.
    pub fn class(&self) -> &'static str {
        match self {
            Msg::Acquire { .. } => "acquire",
            Msg::Granted { .. } | Msg::Queued { .. } | Msg::Busy { .. } => "grant",
            Msg::Renew { .. } | Msg::Renewed { .. } => "renew",
            Msg::RenewRefused { .. } => "reject",
            Msg::Release { .. } | Msg::Released { .. } => "release",
            Msg::Write { .. } => "write",
            Msg::WriteAck { .. } | Msg::EffectDone { .. } => "ack",
            Msg::WriteRejected { .. } => "reject",
            Msg::Effect { .. } => "effect",
        }
    }

    /// A short label for arrows and the stage: "acquire", "grant 34", "write 33".
    pub fn label(&self) -> String {
        match self {
            Msg::Acquire { .. } => "acquire".into(),
            // Redis and Redlock grants carry no token: "OK", as `SET NX` answers.
            Msg::Granted { token: 0, .. } => "OK".into(),
            Msg::Granted { token, .. } => format!("grant {token}"),
            Msg::Queued { .. } => "queued".into(),
            Msg::Busy { .. } => "busy".into(),
            Msg::Renew { token, .. } => format!("renew {token}"),
            Msg::Renewed { token, .. } => format!("renewed {token}"),
            Msg::RenewRefused { token, .. } => format!("renew {token} refused"),
            Msg::Release { .. } => "release".into(),
            Msg::Released { ok: true } => "released".into(),
            Msg::Released { ok: false } => "not owner".into(),
            Msg::Write { token: Some(t), .. } => format!("write {t}"),
            Msg::Write { token: None, .. } => "write (no token)".into(),
            Msg::WriteAck { .. } => "ack".into(),
            Msg::WriteRejected { reason, .. } => format!("reject: {reason}"),
            Msg::Effect { name, .. } => format!("effect: {name}"),
            Msg::EffectDone {
                duplicate: false, ..
            } => "done".into(),
            Msg::EffectDone {
                duplicate: true, ..
            } => "duplicate skipped".into(),
        }
    }
}

/// A timer a node asked for; it comes back to the same node's `on_timer`.
/// `gen` lets a handler ignore a timer that belongs to an operation it has moved past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerKind {
    /// Client: the current work step is done.
    WorkDone { gen: u32 },
    /// Client: no reply to the current request in time.
    RequestTimeout { gen: u32 },
    /// Client: try the acquire again.
    RetryAcquire { gen: u32 },
    /// Client: the renewal watchdog's tick.
    RenewTick { gen: u32 },
    /// Coordinator: the lease of this epoch may have run out.
    Expire { epoch: u32 },
    /// Coordinator: a lock-delay may be over.
    LockDelayOver,
    /// Storage: a non-atomic write finally lands.
    ApplyWrite { id: u32 },
}

/// What a handler asks the run loop to do.
#[derive(Clone, Debug)]
pub enum Cmd {
    Send {
        to: NodeId,
        msg: Msg,
    },
    /// Wake this node when its own timer clock reads `at_local`.
    Timer {
        at_local: i64,
        kind: TimerKind,
    },
    Note(crate::trace::Event),
}

/// A handler's window on the world: its own clock's reading, the run's random stream, and
/// the buffer its commands go to.
pub struct Ctx<'a> {
    /// The node's timer-clock reading now (local ms).
    pub now: i64,
    pub rng: &'a mut Rng,
    pub out: Vec<Cmd>,
}

impl<'a> Ctx<'a> {
    pub fn new(now: i64, rng: &'a mut Rng) -> Ctx<'a> {
        Ctx {
            now,
            rng,
            out: Vec::new(),
        }
    }

    pub fn send(&mut self, to: NodeId, msg: Msg) {
        self.out.push(Cmd::Send { to, msg });
    }

    pub fn timer_at(&mut self, at_local: i64, kind: TimerKind) {
        self.out.push(Cmd::Timer { at_local, kind });
    }

    pub fn timer_in(&mut self, after_ms: i64, kind: TimerKind) {
        self.timer_at(self.now.saturating_add(after_ms), kind);
    }

    pub fn note(&mut self, event: crate::trace::Event) {
        self.out.push(Cmd::Note(event));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_round_trip_and_sort_as_lanes() {
        for s in ["c1", "c8", "coord", "coord2", "coord5", "storage"] {
            assert_eq!(NodeId::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(NodeId::parse("c0"), None);
        assert_eq!(NodeId::parse("c9"), None);
        assert_eq!(NodeId::parse("x"), None);
        assert_eq!(NodeId::parse("coord1"), Some(NodeId::COORD));
        assert_eq!(NodeId::parse("coord6"), None);
        assert_eq!(NodeId::parse("coord0"), None);
        assert!(NodeId::Client(7) < NodeId::COORD && NodeId::COORD < NodeId::Storage);
    }

    #[test]
    fn reasons_read_like_the_seeds() {
        assert_eq!(
            RejectReason::Lower {
                token: 33,
                mark: 34
            }
            .to_string(),
            "token 33 < 34"
        );
    }
}
