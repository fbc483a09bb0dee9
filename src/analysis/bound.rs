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
//! scenario's client does before its first write, so
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
//! renewal. Clock jumps are outside its bounds (see the doc).

use crate::model::clock::Clock;
use crate::model::flavors::{redlock, Flavor, OnExpiry, Tokens};
use crate::model::scenario::{
    ClientSpec, ClockSpec, CountFrom, FailMode, FenceMode, FenceWith, Invalidation, LinkOverride,
    LinkSpec, LossPolicy, NetworkSpec, RetrySpec, Scenario, Step, LIMITS,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Storage refuses a superseded holder's write (an ordered token, checked).
    pub fenced: bool,
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

/// The work the client does before its first write (after its first acquire): the `W`
/// of the bound.
pub fn work_before_write(c: &ClientSpec) -> i64 {
    let start = c
        .job
        .iter()
        .position(|s| *s == Step::Acquire)
        .map_or(0, |i| i + 1);
    let mut w = 0i64;
    for s in &c.job[start..] {
        match s {
            Step::Work { ms } => w = w.saturating_add(*ms),
            Step::Write { .. } => break,
            _ => {}
        }
    }
    w
}

/// Whether the job has a `renew` step between its first acquire and its first write.
fn renews_before_first_write(c: &ClientSpec) -> bool {
    let start = c
        .job
        .iter()
        .position(|s| *s == Step::Acquire)
        .map_or(0, |i| i + 1);
    c.job[start..]
        .iter()
        .take_while(|s| !matches!(s, Step::Write { .. }))
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
    let fenced = !matches!(sc.storage.fence, FenceMode::None | FenceMode::NonAtomic)
        && model.tokens != Tokens::None
        && c.fence_with == FenceWith::Token;
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
    terms.push(Term {
        name: "pause",
        ms: env.max_pause_ms,

        why: match env.max_pause_ms {
            Some(p) => format!("P = {p} ms: {pause_why}"),
            None => format!("unbounded: {pause_why}, so the overlap has no bound"),
        },
    });
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
        holder: *h,
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

/// The worst-case run, when it ends by `end`; a run longer than the format's horizon
/// cannot be built, so there is none then.
/// `e`: when the successor is granted; `build` makes the run ending by `end`.
fn buildable_worst_case(
    end: Option<i64>,
    e: i64,
    build: impl FnOnce(i64) -> Scenario,
) -> Option<Scenario> {
    end.filter(|end| (*end).max(e) + 3_000 <= LIMITS.max_horizon_ms)
        .map(build)
        .map(on_an_expiry_scan)
}

/// A service that revokes an expired lease only when it next looks for one (etcd's
/// lessor, every 500 ms) or on its next tick (ZooKeeper with `coordinator.tick_ms`) grants
/// the successor up to a look or a tick later than the lease's end, so the worst case is
/// the run where the holder's lease runs out where that lag is least (on a look; 1 ms
/// before a tick, as ZooKeeper rounds strictly up, so there the run falls 1 ms short of
/// the bound). The coordinator's clock is set that much ahead: every reading on it moves
/// by the same amount, and nothing happens at another true time but the revocation.
fn on_an_expiry_scan(mut sc: Scenario) -> Scenario {
    let (expiry, tick) = (sc.coordinator.flavor.model().expiry, sc.coordinator.tick_ms);
    let Some(every) = expiry.period(tick) else {
        return sc;
    };
    let Ok(trace) = simulate(&sc) else {
        return sc;
    };
    let c1 = NodeId::Client(0);
    let expires = trace
        .entries
        .iter()
        .take_while(|e| !matches!(e.event, Event::LeaseExpired { client, .. } if client == c1))
        .filter_map(|e| match e.event {
            Event::LeaseGranted {
                client,
                expires_local,
                ..
            }
            | Event::LeaseRenewed {
                client,
                expires_local,
                ..
            } if client == c1 => Some(expires_local),
            _ => None,
        })
        .last();
    if let Some(x) = expires {
        let lag = |t: i64| expiry.revoked_at(t, tick) - t;
        let ahead = (0..every).min_by_key(|s| lag(x + s)).unwrap_or(0);
        sc.coordinator.clock.offset_ms += ahead;
    }
    sc
}

/// What both formulas substitute: the lease's name (with a lock-delay when there is one),
/// P as written (∞ when unbounded), and the terms' values as a sum ("5 + 10000 − 30000").
fn substituted(h: &Holder, env: &Env, terms: &[Term]) -> (&'static str, String, String) {
    let lease = if h.lock_delay_ms > 0 {
        "(TTL + lock_delay)"
    } else {
        "TTL"
    };
    let p = env.max_pause_ms.map_or("∞".to_string(), |p| p.to_string());
    let nums: Vec<String> = terms
        .iter()
        .filter(|t| t.ms != Some(0) || t.name == "pause")
        .map(|t| match t.ms {
            _ if t.name == "pause" => p.clone(),
            None => "∞".to_string(),
            Some(ms) if ms < 0 => format!("− {}", -ms),
            Some(ms) => ms.to_string(),
        })
        .collect();
    (lease, p, nums.join(" + ").replace("+ −", "−"))
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

/// The run that attains the bound: the holder `c1` (its acquire lands at once, every
/// answer to it takes D, its clock runs slow, the pause holds the answer to its write)
/// and a successor `c2` whose acquire lands the instant the lease (and any lock-delay)
/// is over and who holds the lock past the holder's end.
fn worst_case(sc: &Scenario, h: &Holder, env: &Env, i: &Instants, end: i64) -> Scenario {
    let mut out = base_case(sc, h, env, i.e, end);
    let (c1, d) = (NodeId::Client(0), env.max_delay_ms);
    // The pause holds the write's answer (or, when the check fails, the check itself).
    let pause_at = if i.passes { i.t_w + 2 * d } else { i.t_w };
    if let Some(p) = env.max_pause_ms.filter(|p| *p > 0) {
        out.faults.push(Fault {
            after: None,
            at_ms: pause_at,
            kind: FaultKind::Pause {
                node: c1,
                for_ms: p,
                cause: PauseCause::Gc,
            },
        });
    }
    out
}

/// The worst case's common part: the holder `c1` (its clock slow, every answer to it
/// taking D), the successor `c2` arriving at `e`, the coordinator's clock fast; no faults.
fn base_case(sc: &Scenario, h: &Holder, env: &Env, e: i64, end: i64) -> Scenario {
    let d = env.max_delay_ms;
    let rho = env.max_drift_ppm;
    let holder = ClientSpec {
        start_ms: 0,
        clock: ClockSpec {
            drift_ppm: -rho,
            ..ClockSpec::default()
        },
        ttl_ms: h.ttl_ms,
        margin_ms: h.margin_ms,
        count_from: h.count_from,
        renew_every_ms: h.renew_every_ms,
        on_loss: sc.clients.first().map(|c| c.on_loss).unwrap_or_default(),
        check_before_write: h.check_before_write,
        fence_with: FenceWith::Token,
        retry: RetrySpec::default(),
        timeout_ms: h.timeout_ms,
        unreachable: FailMode::Closed,
        job: vec![
            Step::Acquire,
            Step::Work { ms: h.work_ms },
            Step::Write {
                key: "x".into(),
                value: "c1".into(),
            },
            Step::Release,
        ],
    };
    // The successor holds the lock (its lease outlasting its work) past the holder's end.
    let hold = (end - e).max(0) + 1_000;
    let successor = ClientSpec {
        start_ms: e,
        clock: ClockSpec::default(),
        // Twice the hold: a fast coordinator clock must not end its lease first.
        ttl_ms: h.ttl_ms.max(2 * hold + 2_000).min(LIMITS.max_horizon_ms),
        margin_ms: 0,
        count_from: CountFrom::Request,
        renew_every_ms: None,
        on_loss: Default::default(),
        check_before_write: false,
        fence_with: FenceWith::Token,
        retry: RetrySpec {
            interval_ms: 1,
            jitter_ms: 0,
            max_attempts: 0,
        },
        timeout_ms: h.timeout_ms,
        unreachable: FailMode::Closed,
        job: vec![Step::Acquire, Step::Work { ms: hold }, Step::Release],
    };
    let (c1, c2) = (NodeId::Client(0), NodeId::Client(1));
    let link = |from, to, ms| LinkOverride {
        from,
        to,
        min_delay_ms: ms,
        max_delay_ms: ms,
        loss_pct: 0,
    };
    let mut links = Vec::new();
    for k in 0..h.flavor.nodes() {
        let co = NodeId::Coord(k);
        links.extend([
            link(c1, co, 0),
            link(co, c1, d),
            link(c2, co, 0),
            link(co, c2, 0),
        ]);
    }
    links.extend([link(c1, NodeId::Storage, d), link(NodeId::Storage, c1, d)]);
    let mut out = sc.clone();
    out.name = "The worst case".into();
    out.description = format!(
        "Built by the safety calculator: c1's lease ({} ms) is counted on a coordinator \
clock fast by {rho} ppm and c2 is granted the instant it is over; every answer to c1 takes \
{d} ms and its own clock runs slow; a pause of {} ms holds c1 where it waits. The two \
believe together for the stated worst-case overlap.",
        h.ttl_ms,
        env.max_pause_ms.unwrap_or(0)
    );
    out.clients = vec![holder, successor];
    out.coordinator.clock = ClockSpec {
        drift_ppm: rho,
        ..ClockSpec::default()
    };
    out.coordinator.clocks = Vec::new();
    // Chubby and Consul hold the lock back by default: a lock-delay of 0 must be said.
    out.coordinator.lock_delay_ms =
        (h.lock_delay_ms > 0 || h.flavor.model().lock_delay_ms > 0).then_some(h.lock_delay_ms);
    out.coordinator.stop_on_disconnect = h.stop_on_disconnect;
    out.coordinator.grace_ms = h.grace_ms;
    // Consul: the session ends at the earliest moment its docs allow, one TTL after the
    // last renewal (the run pins what the model would otherwise draw).
    if h.flavor.model().lazy_expiry {
        out.coordinator.invalidation = Invalidation::Earliest;
    }
    out.storage.clock = ClockSpec::default();
    out.network = NetworkSpec {
        default: LinkSpec {
            min_delay_ms: 0,
            max_delay_ms: d,
            loss_pct: 0,
        },
        links,
    };
    out.faults = Vec::new();
    out.horizon_ms = end.max(e) + 3_000;
    out
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
            ..*h
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

/// A client with a renewal watchdog: `renew_every_ms`, or the flavor's default keepalive
/// (etcd, ZooKeeper, Chubby: every TTL/3; Consul: every TTL/2, its session invalidated at
/// the earliest moment, the TTL). The watchdog ticks every R on the client's clock from
/// the grant; a renewal that lands in time pushes the expiry a TTL further, so the lease
/// runs out only when no renewal lands for a TTL on the coordinator's clock. The first gap is the longest (the grant's flight comes before the
/// first tick), so the worst case holds the first tick `x0` with the pause:
///
/// ```text
/// overlap = D + R/(1 − ρ) + 2D + P − (TTL + lock_delay)/(1 + ρ)   (the refusal is read)
/// overlap = D + R/(1 − ρ) + P − (TTL + lock_delay)/(1 + ρ)        (its own deadline)
/// ```
///
/// and a job that writes before the first tick ends its belief by itself (the plain
/// bound). The derivation, and what it refuses, is in `docs/safety-bound.md`.
mod renewing {
    use super::*;

    /// How the holder's belief ends in the worst case.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) enum Path {
        /// The job's write is answered (or its check fails) before the first tick: the
        /// watchdog plays no part and the plain bound holds.
        Job,
        /// Even a whole pause at the first tick lets its renewal land before the expiry.
        KeptAlive,
        /// The first tick is held until its renewal lands after the expiry; the rest of
        /// the pause holds the refusal.
        Refusal,
        /// The first tick, held for the whole pause, finds the believed deadline passed.
        Watchdog,
    }

    /// The instants of the worst case: the acquire lands at once (so the lease starts at
    /// 0), every answer to the holder takes D, and so does its late renewal.
    pub(super) struct Instants {
        /// The lease runs out on the coordinator.
        pub t_exp: i64,
        /// The successor's grant (after any lock-delay).
        pub e: i64,
        /// The first watchdog tick, when nothing holds it.
        pub x0: i64,
        /// When the held tick resumes: the earliest instant whose renewal, taking D,
        /// lands at or after the expiry.
        pub y: i64,
        /// The first pause, `y − x0`.
        pub p_a: i64,
        /// The holder's work ends (its write or check).
        pub t_w: i64,
        /// The ticks that send a renewal between the resume and the refusal's arrival
        /// (`y` first): each renewal takes D, so the first refusal is the first back.
        pub ticks: Vec<i64>,
        pub path: Path,
    }

    pub(super) fn instants(h: &Holder, env: &Env) -> Result<Instants, Refusal> {
        let d = env.max_delay_ms;
        let r = h.renew_period().unwrap_or(h.ttl_ms);
        let slow = clock(-env.max_drift_ppm);
        let reads = |t: i64| slow.timer_reading(Time(t));
        let (t_exp, e) = lease_end(h, env);
        let at_grant = reads(d);
        let x0 = slow.true_time_of(at_grant + r, Time(d)).0;
        let t_w = slow.true_time_of(at_grant + h.work_ms, Time(d)).0;
        let y = x0.max(t_exp - d);
        let deadline = match h.count_from {
            CountFrom::Request => h.ttl_ms - h.margin_ms,
            CountFrom::Grant => at_grant + h.ttl_ms - h.margin_ms,
        };
        let passes = !h.check_before_write || reads(t_w) < deadline;
        // Whether a tick run at this local reading ends the belief, when no answer has come
        // since the grant (`Client::on_renew_tick`): past the deadline (generic, Redis,
        // etcd); ZooKeeper only with stop_on_disconnect, once silent for 2/3 of the
        // session timeout; Chubby never at its first late tick, which enters jeopardy and
        // renews.
        let ends_at_tick = |now: i64| match h.flavor.model().on_expiry {
            OnExpiry::Lose => now >= deadline,
            OnExpiry::Disconnect => h.stop_on_disconnect && now - at_grant >= h.ttl_ms * 2 / 3,
            OnExpiry::Jeopardy => false,
        };
        // The deadline the job's check compares with once the held tick has run: Chubby's
        // tick enters jeopardy there, which moves the deadline a grace later.
        let check_deadline =
            if h.flavor.model().on_expiry == OnExpiry::Jeopardy && reads(y) >= deadline {
                deadline.saturating_add(h.grace_ms)
            } else {
                deadline
            };
        let refuse = |reason: String| Refusal {
            option: "renew_every_ms",
            reason,
        };
        let path = if h.work_ms < r {
            // Work and watchdog count on the same clock from the same grant, so the
            // write's check comes before the first tick whatever the drift and delays.
            if !passes || t_w + 2 * d < x0 {
                Path::Job
            } else {
                return Err(refuse(format!(
                    "the job's write (after {} ms of work) is answered about when the \
watchdog first renews ({} ms after the grant): which comes first depends on the delays, and \
the calculator does not bound that race yet",
                    h.work_ms, r
                )));
            }
        } else if env.max_pause_ms.is_some_and(|p| y - x0 > p) {
            Path::KeptAlive
        } else if ends_at_tick(reads(y))
            || (h.check_before_write && t_w <= y && reads(y) >= check_deadline)
        {
            // The held tick (or the job's check, held with it) ends the belief when the
            // whole pause is over.
            Path::Watchdog
        } else {
            // Between the resumed tick and the refusal's arrival nothing else may end the
            // belief: a later tick (its deadline passed; ZooKeeper: Disconnected with
            // stop_on_disconnect, or LOST a session timeout after Disconnected; Chubby: the
            // grace over), or the write's check.
            let next = slow.true_time_of(reads(y) + r, Time(y)).0;
            let later = reads(y + 2 * d);
            let tick_ok = next > y + 2 * d
                || match h.flavor.model().on_expiry {
                    OnExpiry::Lose => later < deadline,
                    OnExpiry::Disconnect => !ends_at_tick(later) && later - reads(y) < h.ttl_ms,
                    OnExpiry::Jeopardy => later < deadline.saturating_add(h.grace_ms),
                };
            let check_ok =
                !h.check_before_write || t_w >= y + 2 * d || reads(t_w.max(y)) < check_deadline;
            if !(tick_ok && check_ok) {
                return Err(refuse(format!(
                    "the believed deadline (TTL {} ms − margin {} ms) passes while the late \
renewal's refusal is on its way, and a {} ends the belief first; the calculator does not \
bound that case yet",
                    h.ttl_ms,
                    h.margin_ms,
                    if tick_ok {
                        "check before the write"
                    } else {
                        "watchdog tick"
                    }
                )));
            }
            Path::Refusal
        };
        let mut ticks = Vec::new();
        if path == Path::Refusal {
            let mut t = y;
            while t < y + 2 * d {
                if ticks.len() >= MAX_DELAYED {
                    return Err(refuse(format!(
                        "the watchdog renews every {r} ms, more than {MAX_DELAYED} times in one \
round trip of 2 × {d} ms: the worst case would need a delay fault per renewal"
                    )));
                }
                ticks.push(t);
                t = slow.true_time_of(reads(t) + r, Time(t)).0;
            }
        }
        Ok(Instants {
            t_exp,
            e,
            x0,
            y,
            p_a: y - x0,
            t_w,
            ticks,
            path,
        })
    }

    /// The most renewals the worst case delays one by one (a fault each, within the
    /// format's limit of 256 faults).
    const MAX_DELAYED: usize = 250;

    pub(super) fn overlap_of(h: &Holder, env: &Env) -> Option<i64> {
        let i = instants(h, env).ok()?;
        let p = env.max_pause_ms?;
        let d = env.max_delay_ms;
        Some(match i.path {
            Path::Job => plain_overlap(h, env)?,
            Path::KeptAlive => i.x0 + p + d - i.t_exp,
            Path::Refusal => i.x0 + p + 2 * d - i.e,
            Path::Watchdog => i.x0 + p - i.e,
        })
    }

    pub(super) fn bound(sc: &Scenario, h: &Holder, env: &Env) -> Result<Bound, Refusal> {
        let i = instants(h, env)?;
        let d = env.max_delay_ms;
        let r = h.renew_period().unwrap_or(0);
        let whose = if h.renew_every_ms.is_some() {
            "its watchdog's".to_string()
        } else {
            format!("the {} client's default keepalive: its", h.flavor.name())
        };
        if i.path == Path::Job {
            let mut b = plain_bound(sc, h, env)?;
            b.terms.push(Term {
                name: "renewal",
                ms: Some(0),
                why: format!(
                    "{whose} first renewal comes {r} ms after the grant, after the job's \
write is answered (or its check fails): the watchdog plays no part"
                ),
            });
            return Ok(b);
        }
        let mut terms = vec![
            Term {
                name: "grant delay",
                ms: Some(d),
                why: format!(
                    "the lease starts when the acquire lands; the grant takes D = {d} ms to \
reach the holder, whose watchdog starts counting only then"
                ),
            },
            Term {
                name: "renewal period",
                ms: Some(i.x0 - d),
                why: format!(
                    "{whose} first renewal leaves {r} ms after the grant on a holder clock \
running slow by {} ppm",
                    env.max_drift_ppm
                ),
            },
            Term {
                name: "renewal round trip",
                ms: Some(if i.path == Path::Watchdog { 0 } else { 2 * d }),
                why: if i.path == Path::Watchdog {
                    "when the held tick runs, the holder's own clock already reads past its \
believed deadline (TTL − margin): the watchdog ends the belief there, sending nothing"
                        .into()
                } else {
                    format!(
                        "the late renewal takes D = {d} ms to be refused and the refusal D to \
come back; the holder believes until it reads it"
                    )
                },
            },
        ];
        let pause_why = if i.path == Path::Watchdog {
            "a pause freezes the holder's watchdog: held at its first tick, it learns nothing \
until the pause ends"
        } else {
            "a pause freezes the holder's watchdog: part of it holds back the first renewal \
until the lease has run out, the rest holds the refusal"
        };
        terms.push(Term {
            name: "pause",
            ms: env.max_pause_ms,

            why: match env.max_pause_ms {
                Some(p) => format!("P = {p} ms: {pause_why}"),
                None => format!("unbounded: {pause_why}, so the overlap has no bound"),
            },
        });
        terms.extend(lease_terms(
            h,
            env,
            " with no renewal; a waiting client is granted at once",
        ));
        let worst_overlap_ms = overlap_of(h, env);
        if let (Some(o), Some(p)) = (worst_overlap_ms, env.max_pause_ms) {
            if i.path == Path::KeptAlive {
                let sum: i64 = terms.iter().filter_map(|t| t.ms).sum();
                terms.push(Term {
                    name: "kept alive",
                    ms: Some(o - sum),
                    why: format!(
                        "even a pause of {p} ms at the first tick lets its renewal land \
before the lease runs out, and every later gap is shorter: no successor is granted while \
the holder renews"
                    ),
                });
            }
        }
        let end = worst_overlap_ms.map(|o| o + i.e);
        let safe = h.fenced || worst_overlap_ms.is_some_and(|o| o <= 0);
        let checks = h.check_before_write && h.on_loss != LossPolicy::Continue;
        // A write leaves after the work and at most P of pause; a checking holder sends it
        // only while it believes.
        let latest_write_ms = match (env.max_pause_ms, worst_overlap_ms) {
            (Some(p), Some(o)) => {
                let unchecked = i.t_w + p + d - i.t_exp;
                Some(if checks {
                    unchecked.min(o.max(0) + d)
                } else {
                    unchecked
                })
            }
            _ => None,
        };
        let dominant = dominant(&terms);
        let (lease, p, sum) = substituted(h, env, &terms);
        let total = worst_overlap_ms.map_or("∞".to_string(), |t| t.to_string());
        let trip = if i.path == Path::Watchdog {
            ""
        } else {
            " + 2D"
        };
        let formula = format!(
            "overlap = D + R/(1 − ρ){trip} + P − {lease}/(1 + ρ) with D = {d} ms, R = {r} ms, \
P = {p} ms, ρ = {} ppm, TTL = {} ms: {} = {total} ms",
            env.max_drift_ppm, h.ttl_ms, sum
        );
        let worst_case = buildable_worst_case(end, i.e, |end| worst_case(sc, h, env, &i, end));
        Ok(Bound {
            holder: *h,
            env: *env,
            safe,
            worst_overlap_ms,
            latest_write_ms,
            write_never: false,
            terms,
            formula,
            dominant,
            worst_case,
            successor_at_ms: i.e,
            holder_ends_ms: end,
            validity_ms: None,
        })
    }

    /// The run: the acquire lands at once; a pause holds the first tick (until its
    /// renewal, delayed D, lands after the expiry — or for all of P), and the rest of the
    /// pause holds the refusal.
    fn worst_case(sc: &Scenario, h: &Holder, env: &Env, i: &Instants, end: i64) -> Scenario {
        let mut out = base_case(sc, h, env, i.e, end);
        let p = env.max_pause_ms.unwrap_or(0);
        let d = env.max_delay_ms;
        let c1 = NodeId::Client(0);
        let pauses = match i.path {
            Path::Refusal => {
                if d > 0 {
                    // The acquire went out at 0 on a link of delay 0; each renewal sent
                    // before the refusal is back is the next message on it after a delay
                    // fault, and takes D.
                    let mut after = 1;
                    for t in &i.ticks {
                        out.faults.push(Fault {
                            after: None,
                            at_ms: after,
                            kind: FaultKind::Delay {
                                from: c1,
                                to: NodeId::COORD,
                                extra_ms: d,
                            },
                        });
                        after = t + 1;
                    }
                }
                [(i.x0, i.p_a), (i.y + 2 * d, p - i.p_a)]
            }
            _ => [(i.x0, p), (0, 0)],
        };
        for (at_ms, for_ms) in pauses {
            if for_ms > 0 {
                out.faults.push(Fault {
                    after: None,
                    at_ms,
                    kind: FaultKind::Pause {
                        node: c1,
                        for_ms,
                        cause: PauseCause::Gc,
                    },
                });
            }
        }
        out.faults.sort_by_key(|f| f.at_ms);
        out
    }
}
