//! The immutable record of a run.
//!
//! Each [`Entry`] says: at true time `t`, node `node` — whose own wall clock read `local`
//! — did or saw `event`. The trace is the single source of every picture and every
//! verdict: the checker reads it, the projection folds it, the views draw it. Nothing
//! downstream re-runs the model to find out what happened.
//!
//! The [`Trace::digest`] (FNV-1a 64 over a canonical text form) names a run: two runs
//! with the same digest produced the same trace, on any target.

pub mod json;

use crate::model::clock::Clock;
use crate::model::msg::{Msg, RejectReason, Text};
use crate::vocab::ids::NodeId;
use crate::vocab::names::PauseCause;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::time::Time;
use serde::Serialize;
use std::fmt;

/// Why a client stopped believing it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LossHow {
    /// A lease check found the local deadline passed.
    DeadlinePassed,
    /// The coordinator refused a renewal.
    RenewRefused,
    /// The watchdog found the lease ran out before a renewal came back.
    WatchdogExpired,
    /// Storage refused a write by its fence.
    Fenced,
    /// The client released the lock.
    Released,
    /// The job ended.
    JobEnded,
    /// ZooKeeper: reconnected, it was told its session had expired.
    SessionExpired,
    /// ZooKeeper: its connection listener took Disconnected as the loss of the lock.
    Suspended,
    /// ZooKeeper with Curator: Disconnected (Curator's SUSPENDED) lasted the session
    /// timeout, so Curator reported the connection LOST.
    Lost,
}

impl fmt::Display for LossHow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LossHow::DeadlinePassed => "a lease check found its deadline passed",
            LossHow::RenewRefused => "the lock service refused its renewal",
            LossHow::WatchdogExpired => "its watchdog saw the lease run out",
            LossHow::Fenced => "storage rejected its write",
            LossHow::Released => "it released the lock",
            LossHow::JobEnded => "its job ended",
            LossHow::SessionExpired => "reconnected, it learned its session had expired",
            LossHow::Suspended => "its connection listener saw Disconnected and stopped",
            LossHow::Lost => {
                "Curator reported LOST: it had been Disconnected for the whole session timeout"
            }
        })
    }
}

/// Why a message did not arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropWhy {
    Partitioned,
    Lost,
    NodeDown,
}

/// Something that happened on a node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    // --- jobs (clients)
    JobStarted,
    StepStarted {
        step: u32,
    },
    JobFinished,
    JobAborted {
        why: AbortWhy,
    },
    // --- network
    /// A message left; `arrives` is when it reaches the other side (`None`: it is dropped).
    Sent {
        id: u32,
        to: NodeId,
        msg: Msg,
        arrives: Option<Time>,
    },
    /// The receiving node handled the message (after a pause, that can be later than it
    /// arrived).
    Received {
        id: u32,
        from: NodeId,
    },
    Dropped {
        id: u32,
        to: NodeId,
        why: DropWhy,
    },
    // --- what a client believes
    BeliefStarted {
        token: u64,
        epoch: u32,
        deadline_local: i64,
    },
    DeadlineExtended {
        token: u64,
        deadline_local: i64,
    },
    BeliefEnded {
        token: u64,
        how: LossHow,
    },
    CheckPassed {
        deadline_local: i64,
    },
    LossIgnored,
    FailedOpen,
    GaveUp,
    // --- the coordinator
    LeaseGranted {
        client: NodeId,
        token: u64,
        epoch: u32,
        expires_local: i64,
    },
    LeaseRenewed {
        client: NodeId,
        token: u64,
        expires_local: i64,
    },
    LeaseReleased {
        client: NodeId,
        token: u64,
    },
    ReleaseRefused {
        client: NodeId,
    },
    LeaseExpired {
        client: NodeId,
        token: u64,
        epoch: u32,
    },
    RequestQueued {
        client: NodeId,
    },
    RenewalRefused {
        client: NodeId,
        token: u64,
    },
    RenewalDropped {
        client: NodeId,
    },
    // --- storage
    /// At the start of a run: the lock protects `resource`, which storage keeps as `keys`
    /// (a scenario's `storage.resources`), its fence with one mark for them all
    /// (`one_mark`) or one per key (`None`: not known, as in a recorded run). The checker
    /// judges a stale write against the resource; a run without resources has none.
    ResourceDeclared {
        resource: Text,
        keys: Vec<Text>,
        one_mark: Option<bool>,
    },
    WriteAccepted {
        client: NodeId,
        key: Text,
        value: Text,
        token: Option<u64>,
        epoch: Option<u32>,
        /// The epoch of the value this write replaced (`None`: the key was empty or
        /// the previous write carried no lease).
        replaced_epoch: Option<u32>,
        mark: Option<u64>,
    },
    WriteRejected {
        client: NodeId,
        key: Text,
        token: Option<u64>,
        reason: RejectReason,
    },
    /// Storage answered a read of `key` at `version` (how many writes it had accepted for
    /// it). The checker reads it to tell a read-modify-write that lands on a newer version.
    ReadServed {
        client: NodeId,
        key: Text,
        version: u64,
    },
    /// Non-atomic fence: the mark was read and the check passed; the write lands later.
    FenceChecked {
        client: NodeId,
        key: Text,
        token: Option<u64>,
        mark: Option<u64>,
    },
    EffectPerformed {
        client: NodeId,
        name: Text,
    },
    EffectDeduplicated {
        client: NodeId,
        name: Text,
    },
    // --- faults
    /// The node froze for `for_ms`; `cause` is what froze it (words only).
    Paused {
        for_ms: i64,
        cause: PauseCause,
    },
    Resumed,
    LinkCut {
        peer: NodeId,
    },
    LinkHealed {
        peer: NodeId,
    },
    MessageHeld {
        to: NodeId,
        extra_ms: i64,
    },
    ClockJumped {
        by_ms: i64,
    },
    Crashed {
        down_ms: i64,
    },
    Restarted {
        forgot: Forgot,
    },
    RenewalsFailing {
        for_ms: i64,
    },
    RenewalsRestored,
    // --- flavors (model::flavors)
    /// Client (ZooKeeper): no reply for two thirds of the session timeout.
    Disconnected,
    /// Client (ZooKeeper): a reply came back; the session is still alive.
    Reconnected,
    /// Client (Chubby): its lease ran out locally; it waits `grace_ms` before giving up.
    Jeopardy {
        grace_ms: i64,
        deadline_local: i64,
    },
    /// Client (Chubby): a KeepAlive succeeded during jeopardy.
    Safe,
    /// Client (Redlock): a majority granted in time.
    QuorumAcquired {
        granted: u32,
        validity_ms: i64,
    },
    /// Client (Redlock): too few grants, or no validity left.
    QuorumFailed {
        granted: u32,
        validity_ms: i64,
    },
    /// Coordinator: its leader (or master) is gone for `down_ms`.
    FailingOver {
        down_ms: i64,
    },
    /// Coordinator: a new leader took over; `lost`: whose lock the replica never had.
    FailedOver {
        lost: Option<NodeId>,
    },
    /// Coordinator: the new leader extended a lease.
    LeaseExtended {
        client: NodeId,
        token: u64,
        expires_local: i64,
    },
    /// Coordinator: it declared a live client's session dead; `token`: the lock it held.
    SessionInvalidated {
        client: NodeId,
        token: Option<u64>,
    },
    /// Coordinator: the lock is held back after its holder failed.
    LockDelayed {
        until_local: i64,
    },
}

/// Why a job stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbortWhy {
    LostLease,
    /// No attempt to acquire was answered, and the client fails closed.
    CoordinatorUnreachable,
    /// The lock service answered, and every answer was "held by someone else": the client
    /// ran out of attempts. `times` counts the refusals. Not an outage: the service worked.
    Refused {
        times: u32,
    },
    StorageUnreachable,
    /// Every conditional write of an update was refused (the key changed since each read):
    /// the client ran out of attempts. `times` counts the refusals.
    VersionConflicts {
        times: u32,
    },
}

impl AbortWhy {
    /// Why, in a few words: "gave up after 3 refusals: the lock was held".
    pub fn words(self) -> String {
        match self {
            AbortWhy::LostLease => "lost the lease".into(),
            AbortWhy::CoordinatorUnreachable => "lock service unreachable: failed closed".into(),
            AbortWhy::Refused { times } => format!(
                "gave up after {times} refusal{}: the lock was held",
                if times == 1 { "" } else { "s" }
            ),
            AbortWhy::StorageUnreachable => "storage unreachable".into(),
            AbortWhy::VersionConflicts { times } => format!(
                "gave up after {times} refused update{}: the record kept changing",
                if times == 1 { "" } else { "s" }
            ),
        }
    }
}

/// What a restart lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forgot {
    /// Coordinator: leases and waiters; the token counter survived.
    Leases,
    /// Coordinator: leases, waiters and the token counter (tokens will repeat).
    LeasesAndCounter,
    /// Storage: nothing (the mark is durable).
    Nothing,
    /// Storage: the high-water mark (kept only in memory).
    Mark,
}

/// One line of the trace.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub t: Time,
    pub node: NodeId,
    /// The node's wall-clock reading at `t`.
    pub local: i64,
    pub event: Event,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Nothing left to happen.
    Quiescent,
    /// Stopped at the scenario's horizon with events still pending.
    HorizonReached,
    /// Stopped at the scenario's event limit.
    EventLimitReached,
}

/// A finished run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The nodes of the run in lane order, with their clocks at the start, so a reader
    /// can tell any node's local reading at any true time.
    pub nodes: Vec<(NodeId, Clock)>,
    pub entries: Vec<Entry>,
    pub outcome: Outcome,
    /// True time at which the run stopped.
    pub end: Time,
}

/// The rest of a run's trace: all but its first `skipped` entries, which the reader has
/// read already, with how the run ended — what a run finished from a stopped one gives a
/// search (`model::sim::Prefix::finish_tail`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    pub skipped: usize,
    pub entries: Vec<Entry>,
    pub outcome: Outcome,
    pub end: Time,
}

impl Trace {
    /// FNV-1a 64 over the canonical text form: one compact JSON line per entry (see
    /// `trace_json`), then the outcome.
    pub fn digest(&self) -> u64 {
        let mut h = Fnv::new();
        let mut line = String::new();
        for e in &self.entries {
            line.clear();
            crate::vocab::json::write_compact(&mut line, &crate::model::trace::json::entry(e));
            h.write(line.as_bytes());
            h.write(b"\n");
        }
        let outcome = match self.outcome {
            Outcome::Quiescent => "Quiescent",
            Outcome::HorizonReached => "HorizonReached",
            Outcome::EventLimitReached => "EventLimitReached",
        };
        h.write(format!("{outcome} {}", self.end.0).as_bytes());
        h.finish()
    }

    pub fn digest_hex(&self) -> String {
        format!("{:016x}", self.digest())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The events only a fault other than a pause, or a service other than the generic one,
/// makes — what a run built with the kit `model::sim::Pauses` never makes — as a pattern.
/// The narration and the diagram's marks hand them to the kit that makes them
/// (`teach::narrate::TellsEvents`, `view::layout::MarksEvents`), so a build whose runs
/// make none of them has none of their words; the trace's JSON and text and the
/// projection tell every event in every build. `model::sim::kit`'s tests hold every run
/// `Pauses` carries to making none of these.
#[macro_export]
macro_rules! events_beyond_pauses {
    () => {
        $crate::model::trace::Event::LinkCut { .. }
            | $crate::model::trace::Event::LinkHealed { .. }
            | $crate::model::trace::Event::MessageHeld { .. }
            | $crate::model::trace::Event::ClockJumped { .. }
            | $crate::model::trace::Event::Crashed { .. }
            | $crate::model::trace::Event::Restarted { .. }
            | $crate::model::trace::Event::RenewalsFailing { .. }
            | $crate::model::trace::Event::RenewalsRestored
            | $crate::model::trace::Event::Disconnected
            | $crate::model::trace::Event::Reconnected
            | $crate::model::trace::Event::Jeopardy { .. }
            | $crate::model::trace::Event::Safe
            | $crate::model::trace::Event::QuorumAcquired { .. }
            | $crate::model::trace::Event::QuorumFailed { .. }
            | $crate::model::trace::Event::FailingOver { .. }
            | $crate::model::trace::Event::FailedOver { .. }
            | $crate::model::trace::Event::LeaseExtended { .. }
            | $crate::model::trace::Event::SessionInvalidated { .. }
    };
}

impl Event {
    /// Whether a client that notes this is under way with its job: it sent a request or
    /// was granted the lock. The model starts a job before either (`JobStarted`); a
    /// recorded trace may leave its job lines out, and the checker's progress report and
    /// the projection both read a job as started from here.
    pub fn shows_job_under_way(&self) -> bool {
        matches!(self, Event::Sent { .. } | Event::BeliefStarted { .. })
    }

    /// Whether this is one of [`events_beyond_pauses`]'s events: made only by another
    /// service or a fault other than a pause.
    pub fn is_beyond_pauses(&self) -> bool {
        matches!(self, events_beyond_pauses!())
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match self {
            JobStarted => write!(f, "starts its job"),
            StepStarted { step } => write!(f, "step {}", step + 1),
            JobFinished => write!(f, "finishes its job"),
            JobAborted { why } => write!(f, "aborts its job ({})", why.words()),
            Sent {
                to,
                msg,
                arrives: Some(a),
                ..
            } => {
                write!(f, "sends {} → {to} (arrives {a})", msg.label())
            }
            Sent {
                to,
                msg,
                arrives: None,
                ..
            } => write!(f, "sends {} → {to} (lost)", msg.label()),
            Received { from, .. } => write!(f, "receives from {from}"),
            Dropped { to, why, .. } => write!(f, "message to {to} dropped ({why:?})"),
            BeliefStarted {
                token,
                deadline_local,
                ..
            } => write!(
                f,
                "believes it holds the lock: {}, valid until {} on its clock",
                tok(Some(*token)),
                fmt_ms(*deadline_local)
            ),
            DeadlineExtended {
                token,
                deadline_local,
            } => {
                write!(
                    f,
                    "lease ({}) extended to {} on its clock",
                    tok(Some(*token)),
                    fmt_ms(*deadline_local)
                )
            }
            BeliefEnded { token, how } => {
                write!(f, "no longer believes it holds {}: {how}", held(*token))
            }
            CheckPassed { deadline_local } => {
                write!(
                    f,
                    "lease check passes (deadline {} on its clock)",
                    fmt_ms(*deadline_local)
                )
            }
            LossIgnored => write!(f, "logs the lost lease and carries on"),
            FailedOpen => write!(
                f,
                "cannot reach the lock service: fails open, proceeds unlocked"
            ),
            GaveUp => write!(f, "gives up on the request"),
            LeaseGranted {
                client,
                token,
                expires_local,
                ..
            } => write!(
                f,
                "grants the lease to {client}: {}, expires at {} on its clock",
                tok(Some(*token)),
                fmt_ms(*expires_local)
            ),
            LeaseRenewed {
                client,
                token,
                expires_local,
            } => write!(
                f,
                "renews {client}'s lease ({}) until {} on its clock",
                tok(Some(*token)),
                fmt_ms(*expires_local)
            ),
            LeaseReleased { client, token } => {
                write!(f, "{client} releases its lease ({})", tok(Some(*token)))
            }
            ReleaseRefused { client } => {
                write!(f, "refuses a release from {client}: not the owner")
            }
            LeaseExpired { client, token, .. } => {
                write!(f, "{client}'s lease ({}) expires", tok(Some(*token)))
            }
            RequestQueued { client } => write!(f, "queues {client}'s acquire"),
            RenewalRefused { client, token } => {
                write!(
                    f,
                    "refuses {client}'s renewal ({}): not the holder",
                    tok(Some(*token))
                )
            }
            RenewalDropped { client } => write!(f, "drops {client}'s renewal (renewals failing)"),
            ResourceDeclared {
                resource,
                keys,
                one_mark,
            } => {
                let keys: Vec<&str> = keys.iter().map(|k| &**k).collect();
                write!(
                    f,
                    "keeps {resource}, the resource the lock protects, as keys {}{}",
                    keys.join(", "),
                    match one_mark {
                        Some(true) => " (one fence mark for them all)",
                        Some(false) => " (a fence mark per key)",
                        None => "",
                    }
                )
            }
            WriteAccepted {
                client, key, token, ..
            } => {
                write!(f, "accepts {client}'s write to {key} with {}", tok(*token))
            }
            WriteRejected {
                client,
                key,
                reason,
                ..
            } => {
                write!(f, "rejects {client}'s write to {key}: {reason}")
            }
            ReadServed {
                client,
                key,
                version,
            } => write!(f, "serves {client}'s read of {key} at version {version}"),
            FenceChecked {
                client,
                token,
                mark,
                ..
            } => write!(
                f,
                "checks {client}'s {} against mark {} (write lands later)",
                tok(*token),
                mark.map_or("none".to_string(), |m| m.to_string())
            ),
            EffectPerformed { client, name } => write!(f, "performs \"{name}\" for {client}"),
            EffectDeduplicated { client, name } => {
                write!(
                    f,
                    "skips \"{name}\" for {client}: idempotency key already used"
                )
            }
            Paused {
                for_ms,
                cause: PauseCause::Gc,
            } => write!(f, "pauses for {}", fmt_ms(*for_ms)),
            Paused { for_ms, cause } => {
                write!(f, "pauses for {} ({})", fmt_ms(*for_ms), cause.prose())
            }
            Resumed => write!(f, "resumes"),
            LinkCut { peer } => write!(f, "is partitioned from {peer}"),
            LinkHealed { peer } => write!(f, "can reach {peer} again"),
            MessageHeld { to, extra_ms } => {
                write!(f, "next message to {to} will be held {}", fmt_ms(*extra_ms))
            }
            ClockJumped { by_ms } => write!(f, "clock jumps by {}", fmt_ms(*by_ms)),
            Crashed { down_ms } => write!(f, "crashes (down {})", fmt_ms(*down_ms)),
            Restarted { forgot } => write!(
                f,
                "restarts: {}",
                match forgot {
                    Forgot::Leases => "leases lost, token counter kept",
                    Forgot::LeasesAndCounter =>
                        "leases and token counter lost (tokens will repeat)",
                    Forgot::Nothing => "the high-water mark is durable",
                    Forgot::Mark => "the high-water mark is forgotten",
                }
            ),
            RenewalsFailing { for_ms } => {
                write!(f, "renewals start failing for {}", fmt_ms(*for_ms))
            }
            RenewalsRestored => write!(f, "renewals work again"),
            Disconnected => write!(f, "hears nothing from the service: Disconnected"),
            Reconnected => write!(f, "reconnects: session alive"),
            Jeopardy {
                grace_ms,
                deadline_local,
            } => write!(
                f,
                "lease ran out locally: jeopardy, grace {} (until {} on its clock)",
                fmt_ms(*grace_ms),
                fmt_ms(*deadline_local)
            ),
            Safe => write!(f, "KeepAlive answered: safe"),
            QuorumAcquired {
                granted,
                validity_ms,
            } => write!(
                f,
                "{granted}/5 masters granted: lock valid for {}",
                fmt_ms(*validity_ms)
            ),
            QuorumFailed {
                granted,
                validity_ms,
            } => write!(
                f,
                "{granted}/5 masters granted, validity {}: no lock",
                fmt_ms(*validity_ms)
            ),
            FailingOver { down_ms } => write!(f, "fails over (no leader for {})", fmt_ms(*down_ms)),
            FailedOver { lost: Some(c) } => {
                write!(f, "new master: the replica never had {c}'s key")
            }
            FailedOver { lost: None } => write!(f, "new leader in place"),
            LeaseExtended {
                client,
                token,
                expires_local,
            } => write!(
                f,
                "new leader extends {client}'s lease ({}) until {} on its clock",
                tok(Some(*token)),
                fmt_ms(*expires_local)
            ),
            SessionInvalidated { client, .. } => {
                write!(f, "declares {client}'s session dead (false positive)")
            }
            LockDelayed { until_local } => {
                write!(f, "lock-delay until {} on its clock", fmt_ms(*until_local))
            }
        }
    }
}

/// What a client believes it holds: "token 33", or "the lock" when the service gives no
/// token (Redis, Redlock: token 0 is no token, never a number to show).
fn held(token: u64) -> String {
    if token == 0 {
        "the lock".into()
    } else {
        format!("token {token}")
    }
}

/// "token 33"; "no token" for none or for 0 (Redis and Redlock grants carry none).
fn tok(t: Option<u64>) -> String {
    t.filter(|t| *t != 0)
        .map_or("no token".to_string(), |t| format!("token {t}"))
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>10}  {:<8} [{:>10}]  {}",
            self.t.to_string(),
            self.node.to_string(),
            fmt_ms(self.local),
            self.event
        )
    }
}
/// A trace written by hand for unit tests: one event per second of true time (local
/// clocks read the same), on the given nodes with true clocks.
#[cfg(test)]
pub(crate) fn by_hand(nodes: &[NodeId], events: Vec<(NodeId, Event)>) -> Trace {
    let end = Time(events.len() as i64 * 1000);
    Trace {
        nodes: nodes.iter().map(|&n| (n, Clock::default())).collect(),
        entries: events
            .into_iter()
            .enumerate()
            .map(|(i, (node, event))| Entry {
                t: Time(i as i64 * 1000),
                node,
                local: i as i64 * 1000,
                event,
            })
            .collect(),
        outcome: Outcome::Quiescent,
        end,
    }
}
