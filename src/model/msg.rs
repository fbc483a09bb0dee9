//! What nodes say to each other, and why storage refuses a write.
//!
//! The wire vocabulary of the model: the simulator's handlers send these, the trace records
//! them, and the views label arrows with [`Msg::label`]. It sits below both the trace and
//! the engine so that neither has to import the other's internals.

use std::fmt;

/// Why storage refused a write. Displayed as the learner reads it: "token 33 < 34".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RejectReason {
    /// Monotone fence: the token is below the highest accepted.
    Lower { token: u64, mark: u64 },
    /// Strict monotone fence: the token is not above the highest accepted.
    NotAbove { token: u64, mark: u64 },
    /// Exact match: the token is not the lock's current one.
    NotCurrent { token: u64, current: Option<u64> },
    /// A fenced resource got a write with no token (a fail-open client).
    NoToken,
    /// A conditional write: the key is no longer at the version its writer read (a
    /// compare-and-set that failed, `UPDATE … WHERE version = $v` touching no row).
    VersionChanged { read: u64, now: u64 },
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
            RejectReason::VersionChanged { read, now } => {
                write!(f, "version {read} ≠ {now}")
            }
        }
    }
}

/// A name or value a message or a trace carries (a key, a value, an effect's name): shared,
/// not copied. The simulator copies each message into the trace and into the queue, and
/// storage's answers and the checker's state repeat the key and value; as `String`s,
/// the explore search allocated and freed them for every message of every run it tried.
/// Reads as a `&str`. (An `Arc`, not an `Rc`: traces and scenarios cross threads.)
pub type Text = std::sync::Arc<str>;

/// A message between nodes. `epoch` fields are simulator bookkeeping (which grant a token
/// came from, unique even when an in-memory counter repeats tokens); no handler bases a
/// decision on them — only the checker and the views read them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
        key: Text,
        value: Text,
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
        name: Text,
        idempotency_key: Option<Text>,
        token: Option<u64>,
    },
    EffectDone {
        req: u32,
        duplicate: bool,
    },
    /// Read a key: storage answers with its value and version.
    Read {
        req: u32,
        key: Text,
    },
    /// The value of a key (empty when never written) and its version (how many writes
    /// storage has accepted for it).
    ReadReply {
        req: u32,
        value: Text,
        version: u64,
    },
    /// A conditional write: apply only if the key is still at `version` (the one read).
    WriteIf {
        req: u32,
        key: Text,
        value: Text,
        token: Option<u64>,
        epoch: Option<u32>,
        version: u64,
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
            Msg::Read { .. } => "read",
            Msg::ReadReply { .. } => "ack",
            Msg::WriteIf { .. } => "write",
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
            Msg::Renew { token: 0, .. } => "renew".into(),
            Msg::Renew { token, .. } => format!("renew {token}"),
            Msg::Renewed { token: 0, .. } => "renewed".into(),
            Msg::Renewed { token, .. } => format!("renewed {token}"),
            Msg::RenewRefused { token: 0, .. } => "renew refused".into(),
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
            Msg::Read { .. } => "read".into(),
            Msg::ReadReply { version, .. } => format!("version {version}"),
            Msg::WriteIf { version, .. } => format!("write if version {version}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
