//! The safety calculator: from a client's lease settings and the bounds of its environment
//! — the longest client pause `P`, the longest one-way delay `D`, the largest clock drift
//! `ρ` — to the **worst-case overlap**: how long a superseded holder can still believe it
//! holds the lock after its successor has been granted it, by the model's own rules, and
//! the run that attains it.
//!
//! The derivation is in `docs/safety-bound.md`; in short, the model ends a belief only
//! when the client *learns* (a check on its clock, a refused renewal, its watchdog, a
//! fence's refusal, its release), never because the lease ran out somewhere else. The
//! holder's job is taken as `acquire, work W, write, release` with `W` the work the
//! scenario's client does before its first write, update or effect (what it does after
//! that is named, not bounded: [`later_actions`]), so
//!
//! ```text
//! overlap = end − E
//! end     = t_w + 2D + P      (the write's round trip, its answer held by a pause)
//!         = t_w + P           (check_before_write, and the check fails: no write)
//! t_w     = D + W stretched by the holder's slow clock (−ρ)
//! E       = TTL (+ lock-delay) shrunk by the coordinator's fast clock (+ρ)
//! ```
//!
//! Every figure is computed with the model's own integer clocks ([`Clock`]), so the
//! worst-case run ([`Bound::worst_case`]) shows exactly the stated overlap. The
//! calculator bounds a client that renews (module `renewing`): a watchdog on any flavor
//! but Redlock, and the keepalive etcd's, ZooKeeper's and Chubby's clients send by default,
//! with each one's rule for what a late tick does (a deadline; Disconnected and LOST;
//! jeopardy and grace), and Consul's (every TTL/2), whose servers invalidate a session
//! anywhere in `[TTL, 2 × TTL]`: the bound takes the earliest, and the worst-case run pins
//! it there (`coordinator.invalidation: earliest`). It refuses, with the reason, what it
//! cannot bound: the renewing cases its construction does not attain, and Redlock with
//! renewal. Clock jumps are outside its bounds (see the doc). A late action is harmless
//! when storage checks its token where it lands ([`escapes_fence`] says where it cannot)
//! or when it is an effect whose idempotency key storage keeps ([`Guard`]).

mod renewing;
mod worst_case;
use worst_case::*;

use crate::model::clock::Clock;
use crate::model::flavors::{redlock, Flavor, OnExpiry, Tokens};
use crate::model::scenario::{
    ClientSpec, ClockSpec, CountFrom, FailMode, FenceMode, FenceWith, Invalidation, LinkOverride,
    LinkSpec, LossPolicy, MarkScope, NetworkSpec, RetrySpec, Scenario, Step, LIMITS,
};
use crate::model::scenario::{Fault, FaultKind, PauseCause};
use crate::model::sim::simulate;
use crate::model::trace::Event;
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;

/// The environment's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// The longest a client can be frozen in all while it holds the lock; `None` =
    /// unbounded.
    pub max_pause_ms: Option<i64>,
    /// The longest one-way delay of any link (the shortest is 0).
    pub max_delay_ms: i64,
    /// The largest rate error of any clock, either way, in parts per million.
    pub max_drift_ppm: i64,
}

impl Env {
    /// The bounds a scenario itself stays within: its longest pause, its longest link delay,
    /// its largest clock drift — the calculator's defaults.
    pub fn of_scenario(sc: &Scenario) -> Env {
        let mut max_pause_ms = 0;
        for f in &sc.faults {
            if let FaultKind::Pause { for_ms, .. } = f.kind {
                max_pause_ms = max_pause_ms.max(for_ms);
            }
        }
        let max_delay_ms = sc
            .network
            .links
            .iter()
            .map(|l| l.max_delay_ms)
            .chain([sc.network.default.max_delay_ms])
            .max()
            .unwrap_or(0);
        let max_drift_ppm = sc
            .nodes()
            .into_iter()
            .map(|n| sc.clock_of(n).drift_ppm.abs())
            .max()
            .unwrap_or(0);
        Env {
            max_pause_ms: Some(max_pause_ms),
            max_delay_ms,
            max_drift_ppm,
        }
    }
}

/// The largest drift the calculator (and the scenario format) accepts: ±50 %.
pub const MAX_DRIFT_PPM: i64 = 500_000;

/// Why the calculator gives no number: the option (or setting) at fault, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub option: &'static str,
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.option, self.reason)
    }
}

/// One term of the bound: its name, its value in ms (signed: the lease counts against
/// the overlap) and where it comes from. `ms` is `None` for a term with no bound (the
/// pause, when pauses have none): it is not 0, and it outweighs every other term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub ms: Option<i64>,
    pub why: String,
}

impl Term {
    /// The value as a reader sees it: "−29970 ms", or "unbounded".
    pub fn shown(&self) -> String {
        match self.ms {
            Some(ms) if ms < 0 => format!("−{} ms", -ms),
            Some(ms) => format!("{ms} ms"),
            None => "unbounded".into(),
        }
    }
}

/// Whether the overlap can reach the data: damage is a stale write that storage accepts,
/// which takes the holder's write arriving after the successor is granted, and no fence
/// refusing it. The overlap says how long two clients believe; this says what storage
/// lets the stale one do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// Storage checks an ordered token: a superseded holder's write is refused.
    Fenced,
    /// With `check_before_write`, the check always fails: the holder never writes.
    NeverWrites,
    /// The holder's write always reaches storage before the successor is granted, at
    /// least this long before (0: at the same instant at the latest).
    InTime { ahead_ms: i64 },
    /// The write can reach storage this long after the successor is granted, and nothing
    /// refuses it.
    Late { by_ms: i64 },
    /// Pauses have no bound: the write can reach storage any time after the grant, and
    /// nothing refuses it.
    LateUnbounded,
}

impl Damage {
    /// Whether a stale write can be accepted.
    pub fn possible(self) -> bool {
        matches!(self, Damage::Late { .. } | Damage::LateUnbounded)
    }
}

/// The holder's settings the bound depends on, read from the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub flavor: Flavor,
    pub ttl_ms: i64,
    pub margin_ms: i64,
    pub count_from: CountFrom,
    pub check_before_write: bool,
    /// What it does when its check fails (`continue` writes anyway).
    pub on_loss: LossPolicy,
    /// The work before the write.
    pub work_ms: i64,
    /// The client's request timeout (a reply must come within it).
    pub timeout_ms: i64,
    /// The coordinator's lock-delay after a holder fails.
    pub lock_delay_ms: i64,
    /// A late action from a superseded holder does no harm: storage refuses its write (an
    /// ordered token, checked), or `guard` says what else makes it harmless.
    pub fenced: bool,
    /// What makes the job's first action harmless when late, when something does.
    pub guard: Guard,
    /// The job's first action is an effect outside storage (an email, a payment), not a
    /// write: the answer's words say so.
    pub effect: bool,
    /// Why no fence at storage can refuse the job's first action whatever its mode, when
    /// it cannot: an effect, a key written past the fence, a key whose mark a newer
    /// holder's write to another key of its resource does not set.
    pub escapes_fence: Option<String>,
    /// The renewal watchdog's period as the scenario sets it (`renew_every_ms`); see
    /// [`Holder::renew_period`] for the flavor's default keepalive.
    pub renew_every_ms: Option<i64>,
    /// ZooKeeper: the client stops its work on Disconnected (`coordinator.stop_on_disconnect`).
    pub stop_on_disconnect: bool,
    /// Chubby: the grace period after the local lease runs out (`coordinator.grace_ms`).
    pub grace_ms: i64,
}

impl Bound {
    /// What the overlap can do to the data (see [`Damage`]).
    pub fn damage(&self) -> Damage {
        if self.holder.fenced {
            return Damage::Fenced;
        }
        if self.write_never {
            return Damage::NeverWrites;
        }
        match (self.latest_write_ms, self.env.max_pause_ms) {
            (Some(w), _) if w > 0 => Damage::Late { by_ms: w },
            (Some(w), _) => Damage::InTime { ahead_ms: -w },
            (None, None) => Damage::LateUnbounded,
            // A bounded pause always gives a latest write unless it never writes.
            (None, Some(_)) => Damage::NeverWrites,
        }
    }
}

impl Holder {
    /// The period the client's watchdog actually runs at: `renew_every_ms`, else the
    /// flavor's default keepalive (etcd: TTL/3), as `Client::renew_every` has it — so a
    /// TTL changed in the calculator moves etcd's keepalive with it.
    pub fn renew_period(&self) -> Option<i64> {
        let div = self.flavor.model().keepalive_div;
        self.renew_every_ms
            .or_else(|| (div > 0).then(|| (self.ttl_ms / div).max(1)))
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub holder: Holder,
    pub env: Env,
    /// `worst_overlap_ms ≤ 0`, or storage fences.
    pub safe: bool,
    /// The longest two-believers overlap; `None` when unbounded (no bound on pauses).
    /// Zero or less: the holder's belief always ends that long before the successor's
    /// begins.
    pub worst_overlap_ms: Option<i64>,
    /// How long after the successor's grant the holder's write can still reach storage;
    /// `None` when it never writes late enough to matter or the pause is unbounded (see
    /// `write_never`).
    pub latest_write_ms: Option<i64>,
    /// With `check_before_write`, the check always fails: the holder never writes.
    pub write_never: bool,
    pub terms: Vec<Term>,
    /// The formula with the reader's numbers.
    pub formula: String,
    /// The term with the largest magnitude on the unsafe side.
    pub dominant: &'static str,
    /// The scenario that attains the bound (absent when it is unbounded, or longer than
    /// a scenario's horizon may be).
    pub worst_case: Option<Scenario>,
    /// When the successor is granted, and when the holder's belief ends, in the worst
    /// case (true ms from the holder's acquire).
    pub successor_at_ms: i64,
    pub holder_ends_ms: Option<i64>,
    /// Redlock: the validity the holder computes in the worst case, `TTL − elapsed −
    /// (TTL/100 + 2 ms)` with `elapsed` = D on its clock.
    pub validity_ms: Option<i64>,
}

/// `c`'s job after its first acquire: the steps it takes under the lock (the whole job
/// when it never acquires).
fn under_lock(c: &ClientSpec) -> &[Step] {
    let start = c
        .job
        .iter()
        .position(|s| *s == Step::Acquire)
        .map_or(0, |i| i + 1);
    &c.job[start..]
}

/// The work the client does before its first write, update or effect (after its first
/// acquire): the `W` of the bound.
pub fn work_before_write(c: &ClientSpec) -> i64 {
    let mut w = 0i64;
    for s in under_lock(c) {
        match s {
            Step::Work { ms } => w = w.saturating_add(*ms),
            // The action the bound is about: the first that could land late.
            Step::Write { .. } | Step::Update { .. } | Step::Effect { .. } => break,
            _ => {}
        }
    }
    w
}

/// Why a fence at storage cannot refuse `c`'s first action after its acquire (its first
/// write, update or effect), or `None` when a fence would see it. The calculator's worst
/// case is that action arriving late; a fence that never looks at it makes nothing safe,
/// so the lessons that teach exactly that (an effect outside storage, a path past the
/// fence, a mark kept per key) must not read "fenced" here.
pub fn escapes_fence(sc: &Scenario, c: &ClientSpec) -> Option<String> {
    let key = match first_action(c)? {
        Step::Effect {
            name,
            idempotency_key,
        } => {
            let kept = idempotency_key.is_some() && sc.storage.idempotency;
            return Some(format!(
                "Its first action under the lock is an effect (\u{201c}{name}\u{201d}), which \
happens outside storage: no fence refuses it. {}",
                if kept {
                    "Its idempotency key, which storage keeps, makes a second one with that key \
do nothing, and that is what keeps it safe."
                } else {
                    "Only an idempotency key that storage keeps stops it happening twice."
                }
            ));
        }
        Step::Write { key, .. } | Step::Update { key, .. } => key,
        _ => return None,
    };
    if sc.storage.unfenced_keys.contains(key) {
        return Some(format!(
            "Its first write goes to \u{201c}{key}\u{201d}, which storage writes through a path \
that ignores the token (storage.unfenced_keys): the fence never sees it."
        ));
    }
    if sc.storage.mark_per == MarkScope::Key {
        if let Some(r) = sc
            .storage
            .resources
            .iter()
            .find(|r| r.keys.len() > 1 && r.keys.contains(key))
        {
            return Some(format!(
                "Its first write goes to \u{201c}{key}\u{201d}, one of the keys of \
\u{201c}{}\u{201d}, and the fence keeps its mark per key: a newer holder's write to another of \
them leaves this one unmarked. Keep the mark per resource (storage.mark_per).",
                r.name
            ));
        }
    }
    None
}

/// What makes a superseded holder's late action harmless.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Nothing: a late action lands.
    None,
    /// Storage checks the lock's ordered token and refuses a lower one.
    Token,
    /// An effect with an idempotency key that storage keeps: a second one with that key
    /// does nothing, whoever sends it first.
    Idempotent,
    /// Storage's fence refuses every write that carries no token, and the lock service
    /// issues none: no write of the job lands, late or on time. Safe, and nothing done.
    RefusesAll,
}

/// `c`'s first write, update or effect after its acquire: the action the bound is about.
pub fn first_action(c: &ClientSpec) -> Option<&Step> {
    under_lock(c).iter().find(|s| {
        matches!(
            s,
            Step::Write { .. } | Step::Update { .. } | Step::Effect { .. }
        )
    })
}

/// What `c`'s job does after its first write, update or effect, when it does more: how
/// many more writes (or updates) and effects, and the work before the last of them (the
/// `W` that asks the calculator about it). The bound's job stops at the first; a job that
/// goes on believing through later ones (`ttl-shorter-than-work`) must hear so.
pub fn later_actions(c: &ClientSpec) -> Option<Later> {
    let mut later = Later {
        writes: 0,
        effects: 0,
        work_before_last_ms: 0,
    };
    let (mut work, mut first) = (0i64, true);
    for s in under_lock(c) {
        match s {
            // A second acquire starts another job; the bound is about this one.
            Step::Acquire | Step::Release => break,
            Step::Work { ms } => work = work.saturating_add(*ms),
            Step::Write { .. } | Step::Update { .. } | Step::Effect { .. } => {
                if !first {
                    if matches!(s, Step::Effect { .. }) {
                        later.effects += 1;
                    } else {
                        later.writes += 1;
                    }
                    later.work_before_last_ms = work;
                }
                first = false;
            }
            _ => {}
        }
    }
    (later.writes + later.effects > 0).then_some(later)
}

/// See [`later_actions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Later {
    pub writes: usize,
    pub effects: usize,
    /// The job's work from its acquire to its last write or effect.
    pub work_before_last_ms: i64,
}

/// Whether the job has a `renew` step between its first acquire and its first write.
fn renews_before_first_write(c: &ClientSpec) -> bool {
    under_lock(c)
        .iter()
        .take_while(|s| {
            !matches!(
                s,
                Step::Write { .. } | Step::Update { .. } | Step::Effect { .. }
            )
        })
        .any(|s| *s == Step::Renew)
}

/// Reads the holder's settings from client `client` of `sc`, refusing what the
/// calculator cannot bound.
pub fn holder_of(sc: &Scenario, client: usize) -> Result<Holder, Refusal> {
    let c = sc.clients.get(client).ok_or(Refusal {
        option: "--client",
        reason: format!(
            "the scenario has {} client(s); c{} is not one of them",
            sc.clients.len(),
            client + 1
        ),
    })?;
    // The bound is about a holder's late action: a job that takes no lock, or does
    // nothing under it that could land late, has neither.
    if !c.job.contains(&Step::Acquire) {
        return Err(Refusal {
            option: "job",
            reason: format!(
                "c{}'s job takes no lock (no acquire step), so there is no holder to bound",
                client + 1
            ),
        });
    }
    if first_action(c).is_none() {
        return Err(Refusal {
            option: "job",
            reason: format!(
                "c{}'s job writes nothing, updates nothing and performs no effect after its \
acquire, so nothing it does could land late",
                client + 1
            ),
        });
    }
    let flavor = sc.coordinator.flavor;
    let model = flavor.model();
    if c.renew_every_ms.is_some() && flavor == Flavor::Redlock {
        return Err(Refusal {
            option: "renew_every_ms",
            reason: format!(
                "c{} renews its Redlock lease (renew_every_ms), but the model does not \
extend a Redlock lease (a scenario may not ask it to), so no run could attain a bound; the \
calculator bounds a renewal watchdog on the single-node flavors",
                client + 1
            ),
        });
    }
    // The bound's job is `acquire, work W, write`, its renewals a watchdog's: a job that
    // renews itself before its first write holds the lease longer than that job would.
    if renews_before_first_write(c) {
        return Err(Refusal {
            option: "renew",
            reason: format!(
                "c{}'s job renews its lease (a renew step) before its first write; the \
calculator bounds a job of acquire, work and write, renewed by a watchdog if at all, so move the \
renewal after the write or use renew_every_ms",
                client + 1
            ),
        });
    }
    // A fence refuses a write with no token whatever its mode (the model's storage), so a
    // service that issues none has every write the fence sees refused: a key written past
    // the fence is the only way through, and a mark kept per key no longer matters.
    let refuses_all = sc.storage.fence != FenceMode::None
        && model.tokens == Tokens::None
        && c.fence_with == FenceWith::Token
        && matches!(
            first_action(c),
            Some(Step::Write { key, .. } | Step::Update { key, .. })
                if !sc.storage.unfenced_keys.contains(key)
        );
    let escapes = if refuses_all {
        None
    } else {
        escapes_fence(sc, c)
    };
    let token = !matches!(sc.storage.fence, FenceMode::None | FenceMode::NonAtomic)
        && model.tokens != Tokens::None
        && c.fence_with == FenceWith::Token
        && escapes.is_none();
    // A conditional update is no guard here: under a lock, the checker judges a superseded
    // holder's accepted update a stale write whatever it read (it loses no update, having
    // read again), so the calculator counts it as a write like any other.
    let guard = match first_action(c) {
        Some(Step::Effect {
            idempotency_key: Some(_),
            ..
        }) if sc.storage.idempotency => Guard::Idempotent,
        _ if token => Guard::Token,
        _ if refuses_all => Guard::RefusesAll,
        _ => Guard::None,
    };
    let effect = first_action(c).is_some_and(|s| matches!(s, Step::Effect { .. }));
    let fenced = guard != Guard::None;
    Ok(Holder {
        flavor,
        ttl_ms: c.ttl_ms,
        margin_ms: c.margin_ms,
        count_from: c.count_from,
        check_before_write: c.check_before_write,
        on_loss: c.on_loss,
        work_ms: work_before_write(c),
        timeout_ms: c.timeout_ms,
        lock_delay_ms: sc.coordinator.lock_delay_ms.unwrap_or(model.lock_delay_ms),
        fenced,
        guard,
        effect,
        escapes_fence: escapes,
        renew_every_ms: c.renew_every_ms,
        stop_on_disconnect: sc.coordinator.stop_on_disconnect,
        grace_ms: sc.coordinator.grace_ms,
    })
}

fn clock(ppm: i64) -> Clock {
    Clock {
        offset_ms: 0,
        drift_ppm: ppm,
        monotonic: false,
    }
}

/// The instants of the worst case, on the model's clocks.
struct Instants {
    /// The successor's grant reaches it (= the lease expires, plus any lock-delay).
    e: i64,
    /// The holder's work ends (its check or write).
    t_w: i64,
    /// The holder's check before writing passes at `t_w`.
    passes: bool,
    /// The holder's believed deadline (local).
    deadline_local: i64,
    /// Redlock: the validity the client computes.
    validity_ms: i64,
}

/// When the holder's lease ends and when a waiting client is granted, in true time: the
/// lease starts when the acquire lands at true 0 (a delay of 0) and ends when the fast
/// coordinator clock has counted the TTL; a lock-delay, counted on the same clock, holds
/// the grant back further.
fn lease_end(h: &Holder, env: &Env) -> (i64, i64) {
    let fast = clock(env.max_drift_ppm);
    let t_exp = fast.true_time_of(h.ttl_ms, Time(0)).0;
    let e = if h.lock_delay_ms > 0 {
        fast.true_time_of(
            fast.timer_reading(Time(t_exp)) + h.lock_delay_ms,
            Time(t_exp),
        )
        .0
    } else {
        t_exp
    };
    (t_exp, e)
}

/// The terms the lease subtracts: its TTL on the fast clock, and the lock-delay's own
/// when there is one. `grant`: how the words go on after "has counted the TTL of N ms".
/// The pause's term: `P`, and why a pause adds what it does (`why`), or that an unbounded
/// one leaves the overlap unbounded.
fn pause_term(env: &Env, why: &str) -> Term {
    Term {
        name: "pause",
        ms: env.max_pause_ms,
        why: match env.max_pause_ms {
            Some(p) => format!("P = {p} ms: {why}"),
            None => format!("unbounded: {why}, so the overlap has no bound"),
        },
    }
}

fn lease_terms(h: &Holder, env: &Env, grant: &str) -> Vec<Term> {
    let (t_exp, e) = lease_end(h, env);
    let mut terms = vec![Term {
        name: "lease",
        ms: Some(-t_exp),
        why: format!(
            "the coordinator expires the lease when its clock, fast by {} ppm, has counted \
the TTL of {} ms{grant}{}",
            env.max_drift_ppm,
            h.ttl_ms,
            earliest_note(h)
        ),
    }];
    if h.lock_delay_ms > 0 {
        terms.push(Term {
            name: "lock-delay",
            ms: Some(-(e - t_exp)),
            why: format!(
                "after a holder fails the lock is held back {} ms on the coordinator's clock",
                h.lock_delay_ms
            ),
        });
    }
    terms
}

fn instants(h: &Holder, env: &Env) -> Instants {
    let d = env.max_delay_ms;
    let slow = clock(-env.max_drift_ppm);
    let (_, e) = lease_end(h, env);
    // The grant (or Redlock's last vote) reaches the holder D later; its slow clock
    // counts the work from there.
    let at_grant = slow.timer_reading(Time(d));
    let t_w = slow.true_time_of(at_grant + h.work_ms, Time(d)).0;
    let validity_ms = redlock::validity_ms(h.ttl_ms, at_grant);
    let deadline_local = match (h.flavor, h.count_from) {
        (Flavor::Redlock, _) => at_grant + validity_ms - h.margin_ms,
        (_, CountFrom::Request) => h.ttl_ms - h.margin_ms,
        (_, CountFrom::Grant) => at_grant + h.ttl_ms - h.margin_ms,
    };
    let passes = !h.check_before_write || slow.timer_reading(Time(t_w)) < deadline_local;
    Instants {
        e,
        t_w,
        passes,
        deadline_local,
        validity_ms,
    }
}

/// Checks the bounds themselves; every refusal names the option.
pub fn check_env(h: &Holder, env: &Env) -> Result<(), Refusal> {
    if env
        .max_pause_ms
        .is_some_and(|p| !(0..=86_400_000).contains(&p))
    {
        return Err(Refusal {
            option: "--max-pause-ms",
            reason: "a pause is 0 … 86,400,000 ms, or unbounded".into(),
        });
    }
    if !(0..=LIMITS.max_horizon_ms).contains(&h.work_ms) {
        return Err(Refusal {
            option: "--work-ms",
            reason: format!(
                "the work before the write is 0 … {} ms (a scenario's longest run)",
                LIMITS.max_horizon_ms
            ),
        });
    }
    if !(0..=3_600_000).contains(&env.max_delay_ms) {
        return Err(Refusal {
            option: "--max-delay-ms",
            reason: "a delay is 0 … 3,600,000 ms".into(),
        });
    }
    if !(0..=MAX_DRIFT_PPM).contains(&env.max_drift_ppm) {
        return Err(Refusal {
            option: "--max-drift-ppm",
            reason: format!("a drift bound is 0 … {MAX_DRIFT_PPM} ppm (±50 %)"),
        });
    }
    let min_ttl = h.flavor.model().min_ttl_ms;
    if h.ttl_ms < min_ttl {
        return Err(Refusal {
            option: "--ttl",
            reason: format!(
                "{} runs no lease shorter than {min_ttl} ms",
                h.flavor.name()
            ),
        });
    }
    if h.ttl_ms > LIMITS.max_horizon_ms {
        return Err(Refusal {
            option: "--ttl",
            reason: format!(
                "a TTL is at most {} ms (a scenario's longest run)",
                LIMITS.max_horizon_ms
            ),
        });
    }
    if 2 * env.max_delay_ms >= h.timeout_ms {
        return Err(Refusal {
            option: "--max-delay-ms",
            reason: format!(
                "a round trip of 2 × {} ms does not fit in the client's timeout_ms ({} ms): \
every request could time out and be retried, which the calculator does not bound",
                env.max_delay_ms, h.timeout_ms
            ),
        });
    }
    if h.flavor == Flavor::Redlock && instants(h, env).validity_ms <= 0 {
        return Err(Refusal {
            option: "--max-delay-ms",
            reason: "the Redlock round can take longer than the TTL minus the drift \
allowance: the client would never hold the lock"
                .into(),
        });
    }
    Ok(())
}

/// The bound for holder `h` in `env`, with the worst-case run built from `sc` (its
/// coordinator and storage settings are kept; clients, clocks, network and faults are the
/// worst case's own).
pub fn bound(sc: &Scenario, h: &Holder, env: &Env) -> Result<Bound, Refusal> {
    check_env(h, env)?;
    if h.renew_period().is_some() {
        return renewing::bound(sc, h, env);
    }
    plain_bound(sc, h, env)
}

/// The bound of a holder whose belief ends by its job alone (no watchdog, or one that
/// never ticks before the job's end: see `renewing`).
fn plain_bound(sc: &Scenario, h: &Holder, env: &Env) -> Result<Bound, Refusal> {
    let d = env.max_delay_ms;
    let i = instants(h, env);
    let mut terms = vec![
        Term {
            name: "grant delay",
            ms: Some(d),
            why: format!(
                "the lease starts when the acquire lands; the grant can take D = {d} ms to \
reach the holder, whose work starts only then"
            ),
        },
        Term {
            name: "work",
            ms: Some(i.t_w - d),
            why: format!(
                "the {} ms of work before the write, on a holder clock running slow by \
{} ppm",
                h.work_ms, env.max_drift_ppm
            ),
        },
    ];
    if i.passes {
        terms.push(Term {
            name: "write round trip",
            ms: Some(2 * d),
            why: format!(
                "the write travels to storage and its answer back, D = {d} ms each way; \
the holder believes until the answer lets it release"
            ),
        });
    } else {
        terms.push(Term {
            name: "write round trip",
            ms: Some(0),
            why: "the check before the write fails: the holder learns it lost the lease \
and never writes"
                .into(),
        });
    }
    let pause_why = "a pause freezes the holder's handlers (not its clock) and it learns \
nothing while frozen: placed where the answer it waits for arrives, it adds its whole \
length";
    terms.push(pause_term(env, pause_why));
    terms.extend(lease_terms(
        h,
        env,
        "; a waiting client is granted at once (delay 0)",
    ));
    let worst_overlap_ms = plain_overlap(h, env);
    let end = worst_overlap_ms.map(|o| o + i.e);
    let safe = h.fenced || worst_overlap_ms.is_some_and(|o| o <= 0);
    // The latest write: sent after the work (and a pause), or at the last instant the
    // check still passes.
    let slow = clock(-env.max_drift_ppm);
    // A client that carries on after a failed check writes as if it had not checked.
    let checks = h.check_before_write && h.on_loss != LossPolicy::Continue;
    let write_never = checks && !i.passes;
    let latest_write_ms = match env.max_pause_ms {
        Some(p) if !write_never => {
            let sent = if !checks {
                i.t_w + p
            } else if h.flavor != Flavor::Redlock && h.count_from == CountFrom::Grant {
                // A pause that holds the grant back moves the deadline with it.
                let at = slow.timer_reading(Time(d + p));
                slow.true_time_of(at + h.work_ms, Time(d + p)).0
            } else {
                (i.t_w + p).min(slow.true_time_of(i.deadline_local, Time(0)).0 - 1)
            };
            Some(sent + d - i.e)
        }
        _ => None,
    };
    let dominant = dominant(&terms);
    let formula = formula(h, env, &i, &terms, worst_overlap_ms);
    let worst_case = buildable_worst_case(end, i.e, |end| worst_case(sc, h, env, &i, end));
    Ok(Bound {
        holder: h.clone(),
        env: *env,
        safe,
        worst_overlap_ms,
        latest_write_ms,
        write_never,
        terms,
        formula,
        dominant,
        worst_case,
        successor_at_ms: i.e,
        holder_ends_ms: end,
        validity_ms: (h.flavor == Flavor::Redlock).then_some(i.validity_ms),
    })
}

/// What the lease term adds for a service that may expire later than the TTL (Consul): the
/// bound takes the earliest moment, and a later one only shortens the overlap.
fn earliest_note(h: &Holder) -> &'static str {
    if h.flavor.model().lazy_expiry {
        ". Consul's servers invalidate a session anywhere from one TTL to two after the \
last renewal: the bound takes the earliest, and a later invalidation only shortens the \
overlap"
    } else {
        ""
    }
}

/// The largest positive term: what the advice says to change first ("lease" if none). A
/// term with no bound (an unbounded pause) outweighs every bounded one.
fn dominant(terms: &[Term]) -> &'static str {
    if let Some(t) = terms.iter().find(|t| t.ms.is_none()) {
        return t.name;
    }
    terms
        .iter()
        .filter_map(|t| t.ms.filter(|ms| *ms > 0).map(|ms| (ms, t.name)))
        .max_by_key(|(ms, _)| *ms)
        .map_or("lease", |(_, name)| name)
}

fn formula(h: &Holder, env: &Env, i: &Instants, terms: &[Term], total: Option<i64>) -> String {
    let d = env.max_delay_ms;
    let rho = env.max_drift_ppm;
    let write = if i.passes { " + 2D" } else { "" };
    let (lease, p, sum) = substituted(h, env, terms);
    let total = total.map_or("∞".to_string(), |t| t.to_string());
    format!(
        "overlap = D + W/(1 − ρ){write} + P − {lease}/(1 + ρ) \
with D = {d} ms, W = {} ms, P = {p} ms, ρ = {rho} ppm, TTL = {} ms: {sum} = {total} ms",
        h.work_ms, h.ttl_ms
    )
}

/// The overlap alone (no terms, no run): what [`ttl_needed`] searches over.
fn overlap_of(h: &Holder, env: &Env) -> Option<i64> {
    if h.renew_period().is_some() {
        return renewing::overlap_of(h, env);
    }
    plain_overlap(h, env)
}

fn plain_overlap(h: &Holder, env: &Env) -> Option<i64> {
    let i = instants(h, env);
    let p = env.max_pause_ms?;
    Some(i.t_w + p + if i.passes { 2 * env.max_delay_ms } else { 0 } - i.e)
}

/// The smallest TTL that makes the overlap ≤ 0 with every other setting unchanged, if
/// one up to a day does.
pub fn ttl_needed(h: &Holder, env: &Env) -> Option<i64> {
    let ok = |ttl: i64| {
        let hh = Holder {
            ttl_ms: ttl,
            margin_ms: h.margin_ms.min(ttl - 1),
            ..h.clone()
        };
        check_env(&hh, env).is_ok() && overlap_of(&hh, env).is_some_and(|o| o <= 0)
    };
    let (mut lo, mut hi) = (h.ttl_ms, 86_400_000i64);
    if ok(lo) {
        return Some(lo);
    }
    if !ok(hi) {
        return None;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The longest pause bound that makes the overlap ≤ 0 with every other setting unchanged,
/// if one up to `env`'s own does (`None` when even no pause at all leaves an overlap, or
/// pauses have no bound). The overlap never shrinks as the pause bound grows.
pub fn pause_allowed(h: &Holder, env: &Env) -> Option<i64> {
    let ok = |p: i64| {
        let e = Env {
            max_pause_ms: Some(p),
            ..*env
        };
        check_env(h, &e).is_ok() && overlap_of(h, &e).is_some_and(|o| o <= 0)
    };
    let mut hi = env.max_pause_ms?;
    if ok(hi) {
        return Some(hi);
    }
    if !ok(0) {
        return None;
    }
    let mut lo = 0;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The smallest margin that keeps the holder's write from reaching storage after the
/// successor's grant (with `check_before_write`, counting from the request), if any.
pub fn margin_needed(h: &Holder, env: &Env) -> Option<i64> {
    if !h.check_before_write
        || h.renew_period().is_some()
        || (h.count_from == CountFrom::Grant && h.flavor != Flavor::Redlock)
    {
        return None;
    }
    let i = instants(h, env);
    // The write leaves at the last instant its check passes and takes D: it must land
    // before E, so the deadline must be read on the slow clock by E − D.
    let slow = clock(-env.max_drift_ppm);
    let latest = slow.timer_reading(Time((i.e - env.max_delay_ms + 1).max(0)));
    let m = i.deadline_local + h.margin_ms - latest;
    (m < h.ttl_ms).then_some(m.max(0))
}
