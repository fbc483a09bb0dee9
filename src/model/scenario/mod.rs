//! A scenario: everything a run depends on, as data.
//!
//! Clients and their jobs, clocks, the network's shape, the coordinator's and storage's
//! settings, and the faults with their times. The simulator reads nothing else, so a
//! scenario plus its seed *is* the run: the same JSON gives the same trace forever (the
//! `version` field is there so the format can change without breaking old files).
//!
//! Decoding ([`Scenario::from_json`]) and validation ([`Scenario::validate`]) both return a
//! [`ScenarioError`] that names the field path (`faults[2].at_ms: later than the horizon`),
//! never a panic. The format is documented in `docs/scenario-format.md`.

mod anchor;
mod codec;
mod kind;
mod validate;

pub use anchor::{when, FaultTime};
pub use kind::{Kind, KindSpec, Nodes, Start};

use crate::vocab::json;
pub use crate::vocab::names::{FenceMode, Outcome, PauseCause};

pub use validate::{Limits, ScenarioError, LIMITS};

pub use crate::model::flavors::{Flavor, Waiters};
use crate::vocab::ids::NodeId;

/// The only format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    pub description: String,
    pub seed: u64,
    /// The run stops at this true time.
    pub horizon_ms: i64,
    /// The run stops after this many trace entries.
    pub max_events: u32,
    pub coordinator: CoordinatorSpec,
    pub storage: StorageSpec,
    pub network: NetworkSpec,
    pub clients: Vec<ClientSpec>,
    pub faults: Vec<Fault>,
    /// An author's own walkthrough of this run, told beside it as a built-in lesson's is.
    /// The simulator never reads it: it is words about the run, carried with the run so
    /// that a course author's lesson travels in the file and the link.
    pub walkthrough: Vec<AuthoredBeat>,
    /// An author's own questions about this run, asked as a built-in interview question's
    /// stops are. Like the walkthrough, the simulator never reads them; each is graded by
    /// what the run does after its moment (`teach::authored`), never by a stored answer.
    pub questions: Vec<AuthoredQuestion>,
}

/// One beat of an author's walkthrough: told once the run reaches its moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthoredBeat {
    /// True time: the beat is told at the first event at or after it.
    pub at_ms: i64,
    /// The author's words, as written.
    pub text: String,
    /// A node whose lane the diagram marks while the beat is told, so the reader knows
    /// where to look.
    pub highlight: Option<NodeId>,
}

/// One of an author's questions: the run stops before the first of its choices' outcomes
/// that happens at or after `at_ms`, asks `prompt`, and the choice naming that outcome is
/// the right one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthoredQuestion {
    /// True time from which the run is watched for the choices' outcomes.
    pub at_ms: i64,
    /// What the learner is asked, as written.
    pub prompt: String,
    pub choices: Vec<AuthoredChoice>,
    /// Told after the answer; may be empty.
    pub explain: String,
}

/// One answer to an author's question: the author's words and the outcome they mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthoredChoice {
    pub text: String,
    pub outcome: Outcome,
}

/// A node's clock (see `model::clock`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockSpec {
    pub offset_ms: i64,
    pub drift_ppm: i64,
    /// Timers and deadlines use a monotonic clock that jumps do not move.
    pub monotonic: bool,
}

/// A fence as a person names it — the command line's `--fence`, a link's `fence=`: one
/// of the modes, or `volatile` (monotone, with its mark kept only in memory, so a storage
/// restart forgets it). One parser, so the two accept the same words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenceWord {
    pub mode: FenceMode,
    /// Where the mark is kept, when the word says (`volatile`); otherwise as it was.
    pub mark: Option<Durability>,
}

impl FenceWord {
    const VOLATILE: &'static str = "volatile";

    pub fn parse(s: &str) -> Option<FenceWord> {
        if s == Self::VOLATILE {
            return Some(FenceWord {
                mode: FenceMode::Monotone,
                mark: Some(Durability::Memory),
            });
        }
        FenceMode::parse(s).map(FenceWord::from)
    }

    pub fn name(&self) -> &'static str {
        match (self.mode, self.mark) {
            (FenceMode::Monotone, Some(Durability::Memory)) => Self::VOLATILE,
            (mode, _) => mode.name(),
        }
    }

    /// Every word, for messages: the modes' names, then `volatile`.
    pub fn names() -> String {
        format!("{}, {}", FenceMode::names(), Self::VOLATILE)
    }

    /// Sets `sc`'s fence (and its mark, if the word says where it is kept).
    pub fn apply_to(&self, sc: &mut Scenario) {
        sc.storage.fence = self.mode;
        if let Some(m) = self.mark {
            sc.storage.mark = m;
        }
    }
}

impl From<FenceMode> for FenceWord {
    fn from(mode: FenceMode) -> FenceWord {
        FenceWord { mode, mark: None }
    }
}

/// Whether a counter or mark survives a restart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    #[default]
    Durable,
    /// Kept only in memory: a restart forgets it.
    Memory,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CoordinatorSpec {
    /// The token of the first grant (Kleppmann's example starts at 33).
    pub first_token: u64,
    /// Whether the token counter survives a restart.
    pub counter: Durability,
    pub waiters: Waiters,
    pub clock: ClockSpec,
    /// Which real lock service it behaves like (`model::flavors`).
    pub flavor: Flavor,
    /// Clocks of the coordinator nodes in order (`coord`, `coord2`, …); a node without an
    /// entry uses `clock`. Only Redlock has more than one node.
    pub clocks: Vec<ClockSpec>,
    /// Lock-delay after a holder fails; `None` = the flavor's default (Consul 15 s,
    /// Chubby 60 s, others 0).
    pub lock_delay_ms: Option<i64>,
    /// Chubby: the grace period after a client's lease runs out locally.
    pub grace_ms: i64,
    /// Redis: a key written less than this before a failover is missing on the replica.
    pub replica_lag_ms: i64,
    /// ZooKeeper: the server's tickTime. A session expires on the first tick after its
    /// timeout ran out; 0 (the default) expires it at once, as if the tick were tiny.
    pub tick_ms: i64,
    /// A restarted coordinator node stays down at least this long (Redlock's "delayed
    /// restart" remedy).
    pub restart_delay_ms: i64,
    /// ZooKeeper: the client's connection listener treats Disconnected (Curator's
    /// SUSPENDED) as the loss of the lock, as the Curator docs advise.
    pub stop_on_disconnect: bool,
    /// Consul: where in `[TTL, 2 × TTL]` after a grant or renewal the servers invalidate
    /// the session. Other flavors accept it and ignore it, like `grace_ms`, so switching
    /// a scenario's flavor never makes it invalid.
    pub invalidation: Invalidation,
    /// Whether a client's session is tied to health checks (Consul's `serfHealth` by
    /// default), so that a check going critical ends it: a `false_positive` fault does.
    /// `false` is a session created with no checks, as Consul allows: a false positive has
    /// nothing to report, and only the TTL (or a release) ends the session — safety bought
    /// with liveness, as the Consul docs put it. Other flavors read it the same way.
    pub health_checks: bool,
}

/// Consul promises only that a session lives at least its TTL and is invalidated within
/// twice it; which moment comes is the model's choice, and this says which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Invalidation {
    /// Drawn from the run's random generator at every grant and renewal (what a real
    /// cluster looks like from outside: somewhere between the bounds).
    #[default]
    Random,
    /// Exactly the TTL: the earliest the docs allow, the worst case for a late holder.
    Earliest,
    /// Exactly twice the TTL: when the servers' timer fires.
    Latest,
}

impl Default for CoordinatorSpec {
    fn default() -> Self {
        CoordinatorSpec {
            first_token: 1,
            counter: Durability::Durable,
            waiters: Waiters::Queue,
            clock: ClockSpec::default(),
            flavor: Flavor::Generic,
            clocks: Vec::new(),
            lock_delay_ms: None,
            grace_ms: crate::model::flavors::chubby::GRACE_MS,
            replica_lag_ms: 1_000,
            tick_ms: 0,
            restart_delay_ms: 0,
            stop_on_disconnect: false,
            invalidation: Invalidation::Random,
            health_checks: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StorageSpec {
    pub fence: FenceMode,
    /// Whether the high-water mark survives a storage restart (`memory` = "volatile").
    pub mark: Durability,
    /// For `non_atomic`: ms between reading the mark and writing.
    pub check_gap_ms: i64,
    /// Effects with an idempotency key run at most once per key.
    pub idempotency: bool,
    /// Keys written through a path that ignores the token (no fence check on them).
    pub unfenced_keys: Vec<String>,
    pub clock: ClockSpec,
    /// What the lock protects, when one resource is kept as several keys. The checker
    /// judges a stale write against the resource, not the key; storage's fence does so
    /// only when `mark_per` is `Resource`. Empty: every key is a resource of its own.
    pub resources: Vec<ResourceSpec>,
    /// What the fence's high-water mark is kept for.
    pub mark_per: MarkScope,
}

/// One resource the lock protects, kept by storage as several keys (an account's balance
/// row and its history rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceSpec {
    pub name: String,
    pub keys: Vec<String>,
}

/// What storage keeps the fence's mark for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MarkScope {
    /// A mark per key: a key of a resource that the newest holder has not written yet has
    /// no mark, so an older token passes there.
    #[default]
    Key,
    /// One mark per resource in `resources`: every key of it is checked against the
    /// highest token accepted for any of them (keys outside a resource keep their own).
    Resource,
}

impl Default for StorageSpec {
    fn default() -> Self {
        StorageSpec {
            fence: FenceMode::None,
            mark: Durability::Durable,
            check_gap_ms: 0,
            idempotency: false,
            unfenced_keys: Vec::new(),
            clock: ClockSpec::default(),
            resources: Vec::new(),
            mark_per: MarkScope::Key,
        }
    }
}

/// Delay and loss of a directed link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkSpec {
    pub min_delay_ms: i64,
    pub max_delay_ms: i64,
    /// Percent of messages lost, 0–100.
    pub loss_pct: u32,
}

impl Default for LinkSpec {
    fn default() -> Self {
        LinkSpec {
            min_delay_ms: 5,
            max_delay_ms: 5,
            loss_pct: 0,
        }
    }
}

/// One directed link that differs from the default.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOverride {
    pub from: NodeId,
    pub to: NodeId,
    pub min_delay_ms: i64,
    pub max_delay_ms: i64,
    pub loss_pct: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetworkSpec {
    /// Every link not listed in `links`.
    pub default: LinkSpec,
    pub links: Vec<LinkOverride>,
}

impl NetworkSpec {
    pub fn link(&self, from: NodeId, to: NodeId) -> LinkSpec {
        self.links
            .iter()
            .rev()
            .find(|l| l.from == from && l.to == to)
            .map(|l| LinkSpec {
                min_delay_ms: l.min_delay_ms,
                max_delay_ms: l.max_delay_ms,
                loss_pct: l.loss_pct,
            })
            .unwrap_or(self.default)
    }
}

/// Where a client's believed lease deadline is counted from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CountFrom {
    /// From when the request left (conservative: the grant's travel time is counted as
    /// used, as Redlock does).
    #[default]
    Request,
    /// From when the grant arrived (optimistic: the lease started on the coordinator
    /// before that, so the client's deadline is later than the coordinator's).
    Grant,
}

/// What a client sends as its fencing token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FenceWith {
    /// The grant's token: ordered, increasing with every grant.
    #[default]
    Token,
    /// Its random owner id — the mistake of using identity as order (Kleppmann 2016).
    OwnerId,
}

/// What a client does once it learns its lease is gone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LossPolicy {
    /// Log it and carry on with the job (the accident most incidents start from).
    Continue,
    /// Stop the job.
    #[default]
    Abort,
    /// Go back to the last acquire step and take the lock again.
    Reacquire,
}

/// What a client does when the coordinator cannot be reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailMode {
    /// Proceed without the lock.
    Open,
    /// Stop the job.
    #[default]
    Closed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetrySpec {
    pub interval_ms: i64,
    /// A random extra wait in `0..=jitter_ms`.
    pub jitter_ms: i64,
    /// Attempts before giving up on an unreachable coordinator or storage; 0 = unlimited.
    pub max_attempts: u32,
}

impl Default for RetrySpec {
    fn default() -> Self {
        RetrySpec {
            interval_ms: 1_000,
            jitter_ms: 0,
            max_attempts: 3,
        }
    }
}

/// One step of a client's job.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Acquire,
    Work {
        ms: i64,
    },
    /// Compare the local clock with the believed deadline.
    Check,
    Write {
        key: String,
        value: String,
    },
    /// A side effect that storage cannot fence (send an email, call an API).
    Effect {
        name: String,
        idempotency_key: Option<String>,
    },
    Release,
    /// Renew the lease from the job itself: one renewal, sent as this step runs, and the
    /// job goes straight on. A heartbeat tied to progress: renewed only when the job gets
    /// here, so a job stuck before this step stops renewing, which a watchdog thread
    /// never does. The answer is handled as a watchdog's (a refusal is a loss).
    Renew,
    /// Read a key: the client keeps its value and version for the next `update` of it.
    Read {
        key: String,
    },
    /// Write back what the last `read` of `key` returned with `value` added (a ledger
    /// entry). With `if_unchanged`, the write is conditional: storage applies it only if the
    /// key is still at the version read, and on a refusal the client goes back to that read
    /// and tries again (at most `retry.max_attempts` times, 0 = unlimited). Without it, the
    /// write is blind: whatever happened since the read is overwritten.
    Update {
        key: String,
        value: String,
        if_unchanged: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClientSpec {
    /// The true time at which the job starts.
    pub start_ms: i64,
    pub clock: ClockSpec,
    pub ttl_ms: i64,
    /// Subtracted from the TTL before the client trusts its lease.
    pub margin_ms: i64,
    pub count_from: CountFrom,
    /// The renewal watchdog's interval; absent = no watchdog.
    pub renew_every_ms: Option<i64>,
    pub on_loss: LossPolicy,
    /// Check the lease (on the local clock) before every write.
    pub check_before_write: bool,
    /// What its writes carry as the fencing token.
    pub fence_with: FenceWith,
    pub retry: RetrySpec,
    /// How long to wait for any reply before counting the attempt as failed.
    pub timeout_ms: i64,
    pub unreachable: FailMode,
    pub job: Vec<Step>,
}

/// A fault at a true time, or placed by an event of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// The true time of the fault; with `after`, how long after that event it comes.
    pub at_ms: i64,
    pub kind: FaultKind,
    /// The event it follows, if it is placed by one (see `anchor`).
    pub after: Option<Anchor>,
}

impl Fault {
    /// One fault read from its JSON, its field names and words checked as the scenario's
    /// are (an error names `path`); what only the whole scenario can tell (a node it has,
    /// a time within its horizon) is left to [`Scenario::validate`].
    pub fn from_json_value(v: &json::Json, path: &str) -> Result<Fault, ScenarioError> {
        codec::fault(v, path)
    }
}

/// The `nth` time (from 1) that `client` does `event`: what a fault may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    pub event: AnchorEvent,
    pub client: NodeId,
    pub nth: u32,
}

/// What a client does that a fault may be placed after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnchorEvent {
    /// It starts to believe it holds the lock (a grant arrived).
    Acquired,
    /// It sends a write to storage.
    WriteSent,
    /// It stops believing it holds the lock, for whatever reason.
    Lost,
}

/// A fault with its fields; its kind's words are its [`Kind`]'s row (`kind`).
#[derive(Clone, Debug, PartialEq)]
pub enum FaultKind {
    /// Freeze a node: its handlers stop, its clock does not. `cause` names what froze it
    /// (a GC pause unless said otherwise); it changes the words, never the run.
    Pause {
        node: NodeId,
        for_ms: i64,
        cause: PauseCause,
    },
    /// Cut both directions between two nodes.
    Partition {
        a: NodeId,
        b: NodeId,
    },
    Heal {
        a: NodeId,
        b: NodeId,
    },
    /// Hold the next message sent from `from` to `to` for `extra_ms` more.
    Delay {
        from: NodeId,
        to: NodeId,
        extra_ms: i64,
    },
    /// Step a node's wall clock by `by_ms` (negative = back).
    ClockJump {
        node: NodeId,
        by_ms: i64,
    },
    /// Crash and restart the coordinator or storage; down for `down_ms`.
    Restart {
        node: NodeId,
        down_ms: i64,
    },
    /// The coordinator drops every renewal for `for_ms`.
    FailRenewals {
        for_ms: i64,
    },
    /// A coordinator node loses its leader (or master): no service for `down_ms`, then a
    /// new one takes over with what the flavor keeps (see `model::flavors::Failover`).
    Failover {
        node: NodeId,
        down_ms: i64,
    },
    /// The coordinator declares a live client's session dead (a health-check false
    /// positive): the client's lock is released.
    FalsePositive {
        node: NodeId,
    },
}

impl Scenario {
    /// Decodes JSON and validates it. Every failure names the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > LIMITS.max_json_bytes {
            return Err(ScenarioError::new(
                "",
                format!(
                    "input is {} bytes; the limit is {}",
                    text.len(),
                    LIMITS.max_json_bytes
                ),
            ));
        }
        let value = json::parse(text).map_err(|e| ScenarioError::new("", e))?;
        let sc = codec::decode(&value)?;
        sc.validate()?;
        Ok(sc)
    }

    /// Every field, indented: the form `from_json` reads back to an equal scenario.
    pub fn to_json_pretty(&self) -> String {
        json::pretty(&self.to_json_value())
    }

    /// The scenario as a JSON value: what the pretty text, a link's compact form and the
    /// editor's draft are all written from.
    pub fn to_json_value(&self) -> json::Json {
        codec::encode(self)
    }

    pub fn client_count(&self) -> u8 {
        self.clients
            .len()
            .min(usize::from(crate::vocab::ids::MAX_CLIENTS)) as u8
    }

    /// Every node of the run, in lane order.
    pub fn nodes(&self) -> Vec<NodeId> {
        let mut v: Vec<NodeId> = (0..self.client_count()).map(NodeId::Client).collect();
        v.extend((0..self.coordinator.flavor.nodes()).map(NodeId::Coord));
        v.push(NodeId::Storage);
        v
    }

    /// The coordinator nodes of the run: `coord`, then Redlock's `coord2` … `coord5`.
    pub fn coord_nodes(&self) -> Vec<NodeId> {
        (0..self.coordinator.flavor.nodes())
            .map(NodeId::Coord)
            .collect()
    }

    pub fn clock_of(&self, node: NodeId) -> ClockSpec {
        match node {
            NodeId::Client(i) => self
                .clients
                .get(usize::from(i))
                .map(|c| c.clock)
                .unwrap_or_default(),
            NodeId::Coord(i) => self
                .coordinator
                .clocks
                .get(usize::from(i))
                .copied()
                .unwrap_or(self.coordinator.clock),
            NodeId::Storage => self.storage.clock,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_words_round_trip_and_old_spellings_still_read() {
        for f in FenceMode::ALL {
            assert_eq!(FenceMode::parse(f.name()), Some(f));
            // The label is plain words; the word is in its tooltip.
            assert!(
                !f.label().contains('_') && !f.label().contains("monotone"),
                "{f:?}"
            );
            assert!(f.title().contains(&format!("fence={}", f.name())), "{f:?}");
        }
        assert_eq!(FenceMode::ALL[0], FenceMode::default());
        assert_eq!(FenceMode::NonAtomic.name(), "non_atomic");
        assert_eq!(FenceMode::parse("non-atomic"), Some(FenceMode::NonAtomic));
        assert_eq!(FenceMode::parse("maybe"), None);
        assert_eq!(
            FenceMode::names(),
            "none, monotone, strict, exact, non_atomic"
        );
    }

    #[test]
    fn the_fence_switch_turns_any_fence_off_and_none_to_monotone() {
        assert_eq!(FenceMode::None.flipped(), FenceMode::Monotone);
        for f in &FenceMode::ALL[1..] {
            assert_eq!(f.flipped(), FenceMode::None);
        }
    }
}
