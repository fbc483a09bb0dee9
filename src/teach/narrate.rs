//! Plain-language sentences for the moments that matter, keyed to trace entries.
//!
//! The live region, the transcript and the "next notable event" keys all use this list,
//! so a screen-reader user hears what a sighted user sees. A sentence is built from the
//! entry and the projected state right after it ("…; client 1 still believes it holds
//! token 33") — never from a script.

mod compare;
mod gaps;
pub use compare::*;
pub use gaps::*;

use crate::analysis::check::{Refusal, Rejection, Verdict, ViolationKind};
use crate::analysis::projection::{ClientView, JobStatus, Projection, State};
use crate::model::scenario::{FenceMode, Flavor, LossPolicy, Scenario};
use crate::model::sim::{Kit, Pauses, Whole};
use crate::model::trace::{AbortWhy, Event, Forgot, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::numbers::{ordinal, secs};
use crate::vocab::time::Time;

/// Whether an entry is a moment worth stopping at.
pub fn is_notable(e: &Event) -> bool {
    use Event::*;
    matches!(
        e,
        ResourceDeclared { .. }
            | LeaseGranted { .. }
            | LeaseExpired { .. }
            | LeaseReleased { .. }
            | BeliefEnded { .. }
            | WriteAccepted { .. }
            | WriteRejected { .. }
            | EffectPerformed { .. }
            | EffectDeduplicated { .. }
            | Paused { .. }
            | Resumed
            | LinkCut { .. }
            | LinkHealed { .. }
            | ClockJumped { .. }
            | Crashed { .. }
            | Restarted { .. }
            | RenewalsFailing { .. }
            | FailedOpen
            | JobAborted { .. }
            | MessageHeld { .. }
            | Disconnected
            | Reconnected
            | Jeopardy { .. }
            | Safe
            | QuorumAcquired { .. }
            | QuorumFailed { .. }
            | FailingOver { .. }
            | FailedOver { .. }
            | LeaseExtended { .. }
            | SessionInvalidated { .. }
            | LockDelayed { .. }
    )
}

/// Indices of the notable entries, in order.
pub fn notable_steps(trace: &Trace) -> Vec<usize> {
    trace
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| is_notable(&e.event))
        .map(|(i, _)| i)
        .collect()
}

fn still_believes(state: &State, client: NodeId) -> Option<String> {
    state
        .believers()
        .find(|(c, _)| *c == client)
        .map(|(c, t)| format!("{} still believes it holds {}", c.name(), held(t)))
}

/// The sentence for entry `i`, given the state right after it, with its time in front
/// ("t = 30.0 s: …"). `None` if not notable.
pub fn sentence(trace: &Trace, verdict: &Verdict, i: usize, after: &State) -> Option<String> {
    sentence_with::<Whole>(trace, verdict, i, after)
}

/// [`sentence`] for a run built with the kit `K`, which tells the events it makes
/// ([`TellsEvents`]).
pub fn sentence_with<K: TellsEvents>(
    trace: &Trace,
    verdict: &Verdict,
    i: usize,
    after: &State,
) -> Option<String> {
    let e = trace.entries.get(i)?;
    Some(format!(
        "t = {}: {}",
        secs(e.t.0),
        happened::<K>(trace, verdict, i, after)?
    ))
}

/// One line of the transcript: a notable entry, when it happened, and what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub step: usize,
    pub at: Time,
    pub text: String,
}

/// The whole run as text: every notable event in order, each told from the state right
/// after it. It is the diagram for a reader who cannot see the drawing, and a study sheet
/// for one who can.
pub fn transcript(trace: &Trace, verdict: &Verdict, projection: &Projection) -> Vec<Line> {
    transcript_with::<Whole>(trace, verdict, projection)
}

/// [`transcript`] of a run built with the kit `K` (see [`sentence_with`]).
pub fn transcript_with<K: TellsEvents>(
    trace: &Trace,
    verdict: &Verdict,
    projection: &Projection,
) -> Vec<Line> {
    notable_steps(trace)
        .into_iter()
        .filter_map(|i| {
            let after = projection.state_at(trace, i + 1);
            Some(Line {
                step: i,
                at: trace.entries.get(i)?.t,
                text: happened::<K>(trace, verdict, i, &after)?,
            })
        })
        .collect()
}

/// What entry `i` did, in words, without its time. `None` if not notable, or not one the
/// kit `K` makes (whose build then has no words for it).
fn happened<K: TellsEvents>(
    trace: &Trace,
    verdict: &Verdict,
    i: usize,
    after: &State,
) -> Option<String> {
    let e = trace.entries.get(i)?;
    let who = e.node.name();
    let s = match &e.event {
        // Told by the kit that makes them ([`TellsEvents`]): a build whose kit makes none
        // of them has none of their words.
        crate::events_beyond_pauses!() => return K::beyond_pauses(&e.event, &who),
        Event::LeaseGranted { client, token, .. } => {
            let mut s = format!("{who} granted the lock to {} with {}", client.name(), tok(*token));
            let others: Vec<String> = after
                .believers()
                .filter(|(c, _)| c != client)
                .map(|(c, t)| format!("{} still believes it holds {}", c.name(), held(t)))
                .collect();
            if !others.is_empty() {
                s.push_str("; ");
                s.push_str(&others.join(", "));
            }
            s
        }
        Event::LeaseExpired { client, token, .. } => {
            let mut s = format!(
                "{who} expired {}'s lease ({})",
                client.name(),
                tok(*token)
            );
            if let Some(b) = still_believes(after, *client) {
                s.push_str("; ");
                s.push_str(&b);
            }
            s
        }
        Event::LeaseReleased { client, token } => {
            format!("{} released the lock ({})", client.name(), tok(*token))
        }
        Event::BeliefEnded { token, how } => {
            format!("{who} stopped believing it holds {}: {how}", held(*token))
        }
        Event::WriteAccepted {
            client, token, key, ..
        } => {
            let stale = verdict
                .violations
                .iter()
                .any(|v| v.entry as usize == i && v.kind == ViolationKind::StaleWrite);
            let lost = verdict
                .violations
                .iter()
                .any(|v| v.entry as usize == i && v.kind == ViolationKind::LostUpdate);
            let tok = token.map_or("no token".to_string(), |t| format!("token {t}"));
            if stale {
                format!(
                    "storage accepted {}'s stale write with {tok} to {key}{}",
                    client.name(),
                    if lost {
                        " — a newer holder's update is lost: data corrupted"
                    } else {
                        " — data corrupted"
                    }
                )
            } else {
                format!(
                    "storage accepted {}'s write with {tok} to {key}",
                    client.name()
                )
            }
        }
        Event::WriteRejected { client, reason, .. } => {
            format!("storage rejected {}'s write: {reason}", client.name())
        }
        Event::ResourceDeclared {
            resource,
            keys,
            one_mark,
        } => {
            let keys: Vec<&str> = keys.iter().map(|k| &**k).collect();
            let mut s = format!(
                "the lock protects {resource}, which storage keeps as {}",
                keys.join(" and ")
            );
            match one_mark {
                Some(true) => s.push_str("; its fence keeps one mark for the whole resource"),
                Some(false) => s.push_str("; its fence keeps a mark per key, not one for the resource"),
                None => {}
            }
            s
        }
        Event::EffectPerformed { client, name } => {
            let dup = verdict
                .violations
                .iter()
                .any(|v| v.entry as usize == i && v.kind == ViolationKind::DuplicateEffect);
            // An effect is done by the service that sends the email or the payment, not by
            // storage (its lane only stands in for it).
            let times = after.effects.get(&**name).map_or(1, |e| e.times);
            format!(
                "the service that performs \"{name}\" did it for {}{}",
                client.name(),
                if dup {
                    format!(" — a {} time", ordinal(times))
                } else {
                    String::new()
                }
            )
        }
        Event::EffectDeduplicated { client, name } => {
            format!(
                "the service that performs \"{name}\" skipped it for {}: its idempotency key was already used",
                client.name()
            )
        }
        // How long a pause lasts is said when it ends: at its start nobody knows yet (and
        // a question may ask whether the lease outlives it).
        Event::Paused { cause, .. } => {
            format!("{who} froze ({}); its clock keeps running", cause.prose())
        }
        Event::Resumed => {
            let paused = trace.entries[..i]
                .iter()
                .rev()
                .find(|p| p.node == e.node && matches!(p.event, Event::Paused { .. }))
                .map_or(String::new(), |p| format!(" after {}", secs(e.t.0 - p.t.0)));
            match still_believes(after, e.node) {
                Some(_) => format!("{who} woke up{paused}, still believing it holds its lock"),
                None => format!("{who} woke up{paused}"),
            }
        }
        Event::FailedOpen => {
            format!("{who} cannot reach the lock service and fails open: it proceeds without a lock")
        }
        Event::JobAborted { why } => format!(
            "{who} stops its job: {}",
            match why {
                AbortWhy::LostLease => "it lost the lease".into(),
                AbortWhy::CoordinatorUnreachable =>
                    "the lock service is unreachable and it fails closed".into(),
                AbortWhy::Refused { times } => format!(
                    "the lock service refused it {} — the lock was held — and it has no attempts left",
                    count_times(*times)
                ),
                AbortWhy::StorageUnreachable => "storage is unreachable".into(),
                AbortWhy::VersionConflicts { times } => format!(
                    "storage refused its update {} — the record changed after each read — and it has no attempts left",
                    count_times(*times)
                ),
            }
        ),
        Event::LockDelayed { until_local } => format!(
            "{who} holds the lock back (lock-delay) until {} on its clock",
            secs(*until_local)
        ),
        _ => return None,
    };
    Some(s)
}

/// How the events of a run built with a kit are told: [`Whole`] tells every event,
/// [`Pauses`] those a run of pauses makes, and a build whose runs are built with it has
/// none of the others' words.
pub trait TellsEvents: Kit {
    /// The words for an event only another lock service or a fault other than a pause
    /// makes ([`crate::events_beyond_pauses`]), `who` the name of its node.
    fn beyond_pauses(ev: &Event, who: &str) -> Option<String>;
}

impl TellsEvents for Whole {
    fn beyond_pauses(ev: &Event, who: &str) -> Option<String> {
        Some(match ev {
            Event::LinkCut { peer } => format!("{who} is cut off from {}", peer.name()),
            Event::LinkHealed { peer } => format!("{who} can reach {} again", peer.name()),
            Event::ClockJumped { by_ms } => format!(
                "{who}'s clock jumped {} by {}",
                if *by_ms >= 0 { "forward" } else { "back" },
                secs(by_ms.abs())
            ),
            Event::Crashed { .. } => format!("{who} crashed"),
            Event::Restarted { forgot } => format!(
                "{who} restarted{}",
                match forgot {
                    Forgot::LeasesAndCounter => ", forgetting its token counter: tokens will repeat",
                    Forgot::Mark => ", forgetting its high-water mark",
                    Forgot::Leases => ", forgetting its leases",
                    Forgot::Nothing => "",
                }
            ),
            Event::RenewalsFailing { for_ms } => {
                format!("renewals start failing for {}", secs(*for_ms))
            }
            Event::MessageHeld { to, extra_ms } => {
                format!(
                    "{who}'s next message to {} will be held for {}",
                    to.name(),
                    secs(*extra_ms)
                )
            }
            Event::Disconnected => format!(
                "{who} has heard nothing from the ensemble: Disconnected — it does not know whether its session is alive and still believes it holds the lock"
            ),
            Event::Reconnected => format!("{who} reconnected; its session is still alive"),
            Event::Jeopardy { grace_ms, .. } => format!(
                "{who}'s lease ran out on its clock: jeopardy — it waits a {} grace period for a KeepAlive",
                secs(*grace_ms)
            ),
            Event::Safe => format!("{who}'s KeepAlive was answered: safe, it keeps its session and lock"),
            Event::QuorumAcquired {
                granted,
                validity_ms,
            } => format!(
                "{who} got {granted} of 5 masters and holds the lock for {}",
                secs(*validity_ms)
            ),
            Event::QuorumFailed {
                granted,
                validity_ms,
            } => format!(
                "{who} got {granted} of 5 masters with {} of validity left: no lock, it releases all and retries",
                secs(*validity_ms)
            ),
            Event::FailingOver { down_ms } => {
                format!("{who} lost its leader: no service for {}", secs(*down_ms))
            }
            Event::FailedOver { lost: Some(c) } => format!(
                "a replica took over {who}'s role, but it never received {}'s key: the lock is free again",
                c.name()
            ),
            Event::FailedOver { lost: None } => format!("a new leader took over as {who}"),
            Event::LeaseExtended { client, .. } => format!(
                "the new leader extended {}'s lease to a full TTL — longer than it would have lasted",
                client.name()
            ),
            Event::SessionInvalidated { client, token } => format!(
                "{who} wrongly declared {}'s session dead (a health-check false positive){}",
                client.name(),
                if token.is_some() { ": its lock is released while it still works" } else { "" }
            ),
            _ => return None,
        })
    }
}

impl TellsEvents for Pauses {
    /// Nothing: a run of pauses makes none of these events (`model::sim::kit`'s tests).
    fn beyond_pauses(_: &Event, _: &str) -> Option<String> {
        None
    }
}

/// What a client holds, in one wording everywhere: "token 33", or "the lock (no token)"
/// for the services that give none (Redis, Redlock) — never "token 0".
/// "once", "twice", "3 times".
fn count_times(n: u32) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn held(token: u64) -> String {
    if token == 0 {
        "the lock (no token)".into()
    } else {
        format!("token {token}")
    }
}

/// "token 33", or "no token" for the services that give none (Redis, Redlock).
fn tok(token: u64) -> String {
    crate::vocab::names::token_words(token)
}

/// How a run ended, in one sentence, from the verdict: the first violation's cause, or what
/// the fence refused, or plain safety.
pub fn ending(verdict: &Verdict) -> String {
    if let Some(v) = verdict.violations.first() {
        let more = verdict.violations.len() - 1;
        let tail = match more {
            0 => String::new(),
            1 => " (and 1 more violation)".to_string(),
            n => format!(" (and {n} more violations)"),
        };
        return format!("End of run — unsafe: {}{tail}.", plain(&v.cause));
    }
    let refused = refusals(verdict).map_or(String::new(), |r| r + ", so ");
    // Safe, and yet some client's work never got done: say that, not a success story.
    if let Some(h) = verdict.progress.headline() {
        return format!("End of run — safe: {refused}no client whose lock had passed to another changed the data. But {h}.");
    }
    if refused.is_empty() {
        return "End of run — safe: storage never accepted a write from a client whose lock had passed to another.".to_string();
    }
    format!(
        "End of run — safe: {refused}no client whose lock had passed to another changed the data."
    )
}

/// What the fence refused, by reason: "the fence rejected client 1's stale write (token 33
/// < 34)" — a write is stale only when its token is below the mark — and "the fence
/// refused every write that carried no token (client 1's and client 2's)", whoever sent
/// it. `None` if it refused nothing.
fn refusals(v: &Verdict) -> Option<String> {
    let first = |w| v.rejections.iter().find(|r| r.why == w);
    let mut s = first(Refusal::Stale).map(refusal).unwrap_or_default();
    let mut who: Vec<String> = Vec::new();
    for r in v.rejections.iter().filter(|r| r.why == Refusal::NoToken) {
        let c = r.client.name() + "'s";
        if !who.contains(&c) {
            who.push(c);
        }
    }
    if !who.is_empty() {
        if !s.is_empty() {
            s += ", and ";
        }
        s += "the fence refused every write that carried no token (";
        s += &who.join(" and ");
        s += ")";
    }
    if s.is_empty() {
        s = first(Refusal::NotNewer)
            .or_else(|| first(Refusal::VersionChanged))
            .map(refusal)?;
    }
    Some(s)
}

/// One refusal, by its reason: "the fence rejected client 1's stale write (token 33 < 34)",
/// "the fence refused client 2's write: it carried no token". (Built by pushing, not
/// formatting: every `format!` is code in the wasm bundle.)
fn refusal(r: &Rejection) -> String {
    let mut s = String::from(match r.why {
        Refusal::Stale => "the fence rejected ",
        Refusal::VersionChanged => "storage refused ",
        _ => "the fence refused ",
    });
    s += &r.client.name();
    s += match r.why {
        Refusal::Stale => "'s stale write (",
        Refusal::NoToken => "'s write: it carried no token",
        Refusal::NotNewer => "'s write (",
        Refusal::VersionChanged => "'s conditional write: the record had changed since its read (",
    };
    if r.why != Refusal::NoToken {
        s += &r.reason;
        s += ")";
    }
    s
}

/// What "superseded holder" means, said where the checker's causes use the term.
pub const SUPERSEDED: &str =
    "a superseded holder (a client whose lock had already passed to another)";

/// A checker's cause as the views show it: the term "superseded holder" explained where
/// it appears (once in any cause), and the lock service called by its one name (the checker's causes,
/// written on the floor below, still say "the coordinator"; every view reads a cause
/// through here).
pub fn plain(cause: &str) -> String {
    cause
        .replace("a superseded holder", SUPERSEDED)
        .replace("the coordinator", &NodeId::COORD.name())
}

/// A verdict in a few words, for a line beside another run's: "unsafe — \<first cause\>",
/// or "safe", saying how many writes the fence refused if it refused any, and how many of
/// them were stale and how many carried no token.
pub fn verdict_line(v: &Verdict) -> String {
    let st = &v.stats;
    match (v.violations.first(), st.writes_rejected) {
        (Some(x), _) => format!("unsafe — {}", plain(&x.cause)),
        (None, 0) => "safe".to_string(),
        (None, n) => {
            let (stale, none) = (st.stale_writes_rejected, st.tokenless_writes_rejected);
            let mut s = String::from("safe — the fence refused ");
            let mut part = |k: u32, what: &str| {
                if k > 0 {
                    if !s.ends_with("refused ") {
                        s += " and ";
                    }
                    s += &k.to_string();
                    s += what;
                }
            };
            part(stale, " stale write(s)");
            part(none, " write(s) with no token");
            part(n - stale - none, " write(s) not newer than the mark");
            s
        }
    }
}

/// The time of the entry, for views that list sentences.
pub fn time_of(trace: &Trace, i: usize) -> Time {
    trace.entries.get(i).map_or(Time::ZERO, |e| e.t)
}

// --- What the views say: the inspector, the verdict list, the compare bar. The views
// call these and only lay the words out, so every sentence is tested natively.

/// The inspector's heading: "At t = 40.000s".
pub fn inspector_heading(t: Time) -> String {
    format!("At t = {}", fmt_ms(t.0))
}

/// The lock service and the fence it offers: ("Lock service: etcd. ", "Fence it offers: ….").
pub fn service_line(f: Flavor) -> (String, String) {
    (
        format!("Lock service: {}. ", f.name()),
        format!("Fence it offers: {}.", f.fence_offered()),
    )
}

/// The lock service of a recording with no scenario of the model behind it, named as the
/// recording names it: what it offers is only what its trace shows, so nothing is said of
/// a fence or of how it works ("Lock service: my-redis (recorded). ", "…").
pub fn recorded_service_line(service: &str) -> (String, String) {
    (
        format!("Lock service: {service} (recorded). "),
        "What it offers is what the trace shows: no scenario of the model stands behind this recording.".to_string(),
    )
}

/// A recording's storage fence, with no scenario behind it: only its refusals tell.
pub const RECORDED_FENCE: &str = "fence: as the trace shows";

/// The fence switch over such a recording, which has no model run to switch.
pub const FENCE_AS_RECORDED: &str = "Fencing: as recorded";

/// What a tool that reads a scenario (`verb`: what it does with one, "bound") says over
/// such a recording, instead of answering about the scenario that only stands in under it.
pub fn unmodelled_tool(verb: &str) -> String {
    format!("This recording names no scenario of the model, so there is none here to {verb}. {WHERE_A_SCENARIO_COMES_FROM}")
}

/// The refusal of an edit over such a recording (a fault from the stage, the fence key),
/// led by what it is about, as every refusal on the page is.
pub fn unmodelled_edit() -> String {
    format!("recording: it names no scenario of the model, so there is none to change. {WHERE_A_SCENARIO_COMES_FROM}")
}

/// Where a recording's scenario comes from, said wherever one is missing.
const WHERE_A_SCENARIO_COMES_FROM: &str = "A trace whose header names a built-in one \
     (\"scenario\": \"gc-pause\") opens beside the model's run of it; the scenario editor \
     starts one of your own.";

/// The summary of the flavor's explainer.
pub fn explainer_summary(f: Flavor) -> String {
    format!("How {} works, and what it guarantees", f.name())
}

/// A client's state in the inspector.
pub fn client_status(c: &ClientView) -> &'static str {
    match (c.paused, c.status) {
        (true, _) => "paused",
        (_, JobStatus::NotStarted) => "not started",
        (_, JobStatus::Running) => "running",
        (_, JobStatus::Finished) => "finished",
        (_, JobStatus::Aborted) => "aborted",
    }
}

/// What a client believes, read against its own clock's reading `local`: "holds token 33
/// until 30.000s — already passed".
pub fn client_belief(c: &ClientView, local: i64) -> String {
    match c.believes {
        Some((tok, deadline)) => format!(
            "holds {} until {}{}",
            held(tok),
            fmt_ms(deadline),
            if local >= deadline {
                " — already passed"
            } else {
                ""
            }
        ),
        None => "does not hold the lock".into(),
    }
}

/// A coordinator node's row: its state ("down", "paused", "running") and what it holds.
/// `alone`: the service has this one node (then the state's single lease is its).
pub fn coord_row(st: &State, node: NodeId, alone: bool) -> (&'static str, String) {
    let lease = if alone {
        st.lease.as_ref()
    } else {
        st.leases.get(&node)
    };
    let down = st.coords_down.contains(&node) || (alone && st.coord_down);
    let paused = st.coords_paused.contains(&node) || (alone && st.coord_paused);
    let holds = match lease {
        Some(l) => format!(
            "lease: {} holds {} until {}",
            l.client.name(),
            held(l.token),
            fmt_ms(l.expires_local)
        ),
        None if down => "down".into(),
        None => "lock free".into(),
    };
    let status = if down {
        "down"
    } else if paused {
        "paused"
    } else {
        "running"
    };
    (status, holds)
}

/// What storage holds: each key with its value, token, writer and fence mark; "empty".
pub fn storage_holds(st: &State) -> String {
    let cells: Vec<String> = st
        .cells
        .iter()
        .map(|(k, c)| {
            let mark = st
                .marks
                .get(k)
                .map_or("no mark".into(), |m| format!("mark {m}"));
            let tok = c.token.map_or("no token".into(), |t| format!("token {t}"));
            format!(
                "{k} = \"{}\" ({tok} from {}; {mark})",
                c.value,
                c.writer.name()
            )
        })
        .collect();
    if cells.is_empty() {
        "empty".to_string()
    } else {
        cells.join("; ")
    }
}

/// One line of the verdict list: a finding reached so far, with a jump to its entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// "violation", "rejection", "overlap", or at the end "unfinished" (a client's work
    /// never got done) or "superseded" (left undone after losing the lock) — also the CSS
    /// class.
    pub class: &'static str,
    pub entry: u32,
    /// The jump's label: "t = 30.0 s".
    pub when: String,
    pub text: String,
}

/// The verdict as far as `step` entries: whether it is safe so far, its heading, and the
/// findings reached — violations, then fence rejections, then two-believer intervals,
/// then (at the end) the clients whose work never got done.
pub fn verdict_so_far(v: &Verdict, step: usize, at_end: bool) -> (bool, String, Vec<Finding>) {
    let when = |t: Time| format!("t = {}", secs(t.0));
    let reached = |entry: u32| (entry as usize) < step;
    let mut items: Vec<Finding> = v
        .violations
        .iter()
        .filter(|x| reached(x.entry))
        .map(|x| Finding {
            class: "violation",
            entry: x.entry,
            when: when(x.at),
            text: plain(&x.cause),
        })
        .collect();
    let violations = items.len();
    items.extend(
        v.rejections
            .iter()
            .filter(|r| reached(r.entry))
            .map(|r| Finding {
                class: "rejection",
                entry: r.entry,
                when: when(r.at),
                text: refusal(r),
            }),
    );
    items.extend(v.overlaps.iter().filter(|o| reached(o.entry)).map(|o| {
        let who: Vec<String> = o
            .clients
            .iter()
            .map(|(c, t)| format!("{} ({})", c.name(), tok(*t)))
            .collect();
        Finding {
            class: "overlap",
            entry: o.entry,
            when: when(o.from),
            text: format!("{} both believe they hold the lock", who.join(" and ")),
        }
    }));
    // Once the run is over, beside safety: whose work never got done, and why.
    if at_end {
        items.extend(v.progress.incomplete().map(|c| Finding {
            class: if c.stalled() {
                "unfinished"
            } else {
                "superseded"
            },
            entry: c.entry,
            when: when(c.at),
            text: c.line(),
        }));
    }
    let head = match (violations, v.progress.headline()) {
        (0, Some(h)) if at_end => format!("Safe — but {h}"),
        (0, _) if at_end => "Safe: no violation in the whole run".to_string(),
        (0, _) => "Safe so far".to_string(),
        (1, _) => "Unsafe: 1 violation".to_string(),
        (n, _) => format!("Unsafe: {n} violations"),
    };
    (violations == 0, head, items)
}

/// What Leaseline shows, in one sentence: the page's header, and its first paint.
pub const PROMISE: &str =
    "See why \u{201c}acquire a lock and proceed\u{201d} is unsafe \u{2014} and what fencing tokens do about it.";

/// The caption before the first step (an embed has no keyboard shortcut to offer).
pub const PLAY_HINT: &str = "Press Play (Space) to run the scenario.";
pub const PLAY_HINT_EMBED: &str = "Press Play to run the scenario.";
/// What stands for the description and the fence switch while a question waits: both
/// would give the answer away.
pub const DESCRIPTION_HIDDEN: &str =
    "The scenario's description is hidden until you answer: it gives the answer away.";
pub const FENCE_HIDDEN: &str = "Fencing: ?";
/// A question's guide before Play.
pub const QUIZ_HINT: &str =
    "Press Play: the run stops just before the decisive moment and asks for your prediction.";

/// What names the run a question plays until the question is answered (in the scenario
/// picker, an embed's title): its own name would give the answer away.
pub const QUESTION_RUN: &str = "This question's run (named once you answer)";

/// The fence switch's words for the fence it shows.
pub fn fence_switch(fenced: bool) -> &'static str {
    if fenced {
        "Fencing: on"
    } else {
        "Fencing: off"
    }
}

/// What a fencing token is, in three sentences, one click from the Fencing switch.
pub const FENCING_PRIMER: &str = "A fencing token is a number the lock service hands out with each grant, higher than any before it (a plain counter goes up by one; etcd's revisions and ZooKeeper's zxids go up too, but skip the numbers other changes took). The client sends it with every write, and storage refuses a number lower than one it has already accepted, so a client that lost its lock without noticing (paused, or cut off) cannot overwrite the newer holder's work. The idea is from Martin Kleppmann's post on distributed locking (Kleppmann 2016).";

/// What "ppm" means, said where clock drift is set.
pub const PPM: &str = "Clock drift is in ppm, parts per million: a clock 100 ppm fast gains 0.1 ms every second, 6 ms a minute.";

/// A fence in a few plain words: "fence: reject lower tokens" (its label, begun small).
pub fn fence_words(f: FenceMode) -> String {
    let l = f.label();
    format!("fence: {}{}", l[..1].to_ascii_lowercase(), &l[1..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::analysis::projection::Projection;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;

    #[test]
    fn a_verdict_line_names_the_first_cause_or_the_refusals() {
        let line = |name: &str| {
            verdict_line(&check(
                &simulate(&preset(name).unwrap().scenario()).unwrap(),
            ))
        };
        assert!(line("gc-pause").starts_with("unsafe — storage accepted client 1's write"));
        assert_eq!(
            line("gc-pause-fenced"),
            "safe — the fence refused 1 stale write(s)"
        );
        assert_eq!(line("clean"), "safe");
    }

    fn sentences(name: &str) -> Vec<String> {
        let trace = simulate(&preset(name).unwrap().scenario()).unwrap();
        let v = check(&trace);
        let p = Projection::new(&trace);
        notable_steps(&trace)
            .into_iter()
            .filter_map(|i| sentence(&trace, &v, i, &p.state_at(&trace, i + 1)))
            .collect()
    }

    #[test]
    fn gc_pause_tells_the_story_in_order() {
        let s = sentences("gc-pause");
        let find = |needle: &str| {
            s.iter()
                .position(|x| x.contains(needle))
                .unwrap_or_else(|| panic!("{needle} in {s:#?}"))
        };
        let granted33 = find("granted the lock to client 1 with token 33");
        let froze = find("client 1 froze");
        let expired = find("t = 30.0 s: the lock service expired client 1's lease (token 33); client 1 still believes it holds token 33");
        let granted34 = find(
            "granted the lock to client 2 with token 34; client 1 still believes it holds token 33",
        );
        let stale = find("stale write with token 33");
        assert!(granted33 < froze && froze < expired && expired < granted34 && granted34 < stale);
    }

    #[test]
    fn the_transcript_is_the_captions_in_order_with_their_times() {
        let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let lines = transcript(&trace, &check(&trace), &Projection::new(&trace));
        let told: Vec<String> = lines
            .iter()
            .map(|l| format!("t = {}: {}", secs(l.at.0), l.text))
            .collect();
        assert_eq!(told, sentences("gc-pause"));
        assert!(lines.windows(2).all(|w| w[0].step < w[1].step));
        assert!(lines.iter().all(|l| trace.entries[l.step].t == l.at));
        // Written out, not derived: the steps and what the transcript says at each.
        let steps: Vec<usize> = lines.iter().map(|l| l.step).collect();
        assert_eq!(steps, [4, 16, 17, 18, 26, 30, 34, 39, 47, 50]);
        assert_eq!(
            told,
            [
                "t = 0.0 s: the lock service granted the lock to client 1 with token 33",
                "t = 10.0 s: client 1 froze (a GC pause); its clock keeps running",
                "t = 30.0 s: the lock service expired client 1's lease (token 33); client 1 still believes it holds token 33",
                "t = 30.0 s: the lock service granted the lock to client 2 with token 34; client 1 still believes it holds token 33",
                "t = 31.0 s: storage accepted client 2's write with token 34 to account:42",
                "t = 50.0 s: client 1 woke up after 40.0 s, still believing it holds its lock",
                "t = 50.0 s: storage accepted client 1's stale write with token 33 to account:42 — a newer holder's update is lost: data corrupted",
                "t = 50.0 s: client 1 stopped believing it holds token 33: it released the lock",
                "t = 51.0 s: client 2 stopped believing it holds token 34: it released the lock",
                "t = 51.0 s: client 2 released the lock (token 34)",
            ]
        );
    }

    #[test]
    fn the_ending_comes_from_the_verdict() {
        let end = |name: &str| {
            ending(&check(
                &simulate(&preset(name).unwrap().scenario()).unwrap(),
            ))
        };
        assert!(end("gc-pause")
            .starts_with("End of run — unsafe: storage accepted client 1's write with token 33"));
        assert!(end("gc-pause-fenced").contains("rejected client 1's stale write (token 33 < 34)"));
        assert!(end("clean").starts_with("End of run — safe"));
    }

    /// Redis behind a fence: safe, and client 2 never got its work done — the ending, the
    /// heading and the list say so; a run where every job finished says nothing more.
    #[test]
    fn a_safe_run_whose_work_never_completed_says_so_at_the_end() {
        let sc = crate::teach::flavor_presets::find("redis-failover/fenced").unwrap();
        let trace = simulate(&sc).unwrap();
        let v = check(&trace);
        assert_eq!(
            ending(&v),
            "End of run — safe: the fence refused every write that carried no token (client 2's and client 1's), so no client whose lock had passed to another changed the data. But client 2's work never completed (1 write refused)."
        );
        let (safe, head, items) = verdict_so_far(&v, trace.len(), true);
        assert!(safe);
        assert_eq!(
            head,
            "Safe — but client 2's work never completed (1 write refused)"
        );
        let tail: Vec<(&str, &str)> = items
            .iter()
            .filter(|i| matches!(i.class, "unfinished" | "superseded"))
            .map(|i| (i.class, i.text.as_str()))
            .collect();
        assert_eq!(
            tail,
            [
                ("superseded", "client 1 lost the lock to client 2 and aborted its job (lost the lease); 1 write refused: no fencing token"),
                ("unfinished", "client 2 aborted its job (lost the lease); 1 write refused: no fencing token"),
            ]
        );
        let stalled = items.iter().find(|i| i.class == "unfinished").unwrap();
        assert_eq!(stalled.when, format!("t = {}", secs(3_020)));
        // Before the end nothing is claimed about work that may still get done.
        let (_, head, items) = verdict_so_far(&v, trace.len() - 1, false);
        assert_eq!(head, "Safe so far");
        assert!(items.iter().all(|i| i.class != "unfinished"));
        let (trace, v, _) = run("clean");
        let (_, head, items) = verdict_so_far(&v, trace.len(), true);
        assert_eq!(head, "Safe: no violation in the whole run");
        assert!(items
            .iter()
            .all(|i| i.class != "unfinished" && i.class != "superseded"));
        assert!(!ending(&v).contains("never completed"));
    }

    /// A write is called stale only when its token is below the mark. Behind a fence, Redis
    /// and Redlock runs refuse client 2's write too — the current holder's, refused for
    /// carrying no token — and the ending, the verdict list and the counts say so by
    /// reason; the fenced GC pause's one refusal is stale.
    #[test]
    fn refusals_are_told_and_counted_by_their_reason() {
        for name in ["redis-failover/fenced", "redlock-clock-jump/fenced"] {
            let sc = crate::teach::flavor_presets::find(name).unwrap();
            let trace = simulate(&sc).unwrap();
            let v = check(&trace);
            let end = ending(&v);
            assert!(!end.contains("stale"), "{name}: {end}");
            assert!(
                end.contains("the fence refused every write that carried no token (client 2's and client 1's)"),
                "{name}: {end}"
            );
            assert_eq!(
                (
                    v.stats.stale_writes_rejected,
                    v.stats.tokenless_writes_rejected,
                    v.stats.writes_rejected
                ),
                (0, 2, 2),
                "{name}"
            );
            let (_, _, items) = verdict_so_far(&v, trace.len(), true);
            let refused: Vec<&str> = items
                .iter()
                .filter(|i| i.class == "rejection")
                .map(|i| i.text.as_str())
                .collect();
            assert_eq!(
                refused,
                [
                    "the fence refused client 2's write: it carried no token",
                    "the fence refused client 1's write: it carried no token"
                ],
                "{name}"
            );
            assert_eq!(
                verdict_line(&v),
                "safe — the fence refused 2 write(s) with no token"
            );
        }
        let (_, v, _) = run("gc-pause-fenced");
        assert_eq!(
            (
                v.stats.stale_writes_rejected,
                v.stats.tokenless_writes_rejected
            ),
            (1, 0)
        );
        assert_eq!(
            ending(&v),
            "End of run — safe: the fence rejected client 1's stale write (token 33 < 34), so no client whose lock had passed to another changed the data."
        );
    }

    /// An effect is done by the service that sends it, never by storage; and the
    /// unreachable-lock-service lesson says what a fence would do, read from the run: it
    /// refuses both token-less writes, and it cannot stop the report (a client that carries
    /// on after the refusal still sends it twice).
    #[test]
    fn effects_are_the_services_and_a_fence_cannot_stop_them() {
        use crate::model::scenario::LossPolicy;
        let told = |sc: &Scenario| {
            let trace = simulate(sc).unwrap();
            let v = check(&trace);
            let p = Projection::new(&trace);
            let lines: Vec<String> = transcript(&trace, &v, &p)
                .into_iter()
                .map(|l| l.text)
                .collect();
            (v, lines)
        };
        let sc = crate::teach::library::find("partition-duplicate-effects").unwrap();
        let (_, lines) = told(&sc);
        assert!(lines
            .iter()
            .all(|l| !l.contains("storage performed") && !l.contains("storage skipped")));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("the service that performs \"")
                    && l.ends_with("did it for client 1 — a second time")),
            "{lines:#?}"
        );
        let sc =
            crate::teach::library::find("partition-duplicate-effects/idempotency-key").unwrap();
        let (_, lines) = told(&sc);
        assert!(
            lines
                .iter()
                .any(|l| l
                    .ends_with("skipped it for client 1: its idempotency key was already used")),
            "{lines:#?}"
        );

        let base = crate::teach::library::find("coordinator-unreachable").unwrap();
        assert!(base.description.contains("A fence at storage would refuse both workers' writes, which carry no token, but it cannot stop the report itself"));
        let mut sc = base.clone();
        sc.storage.fence = FenceMode::Monotone;
        let (v, _) = told(&sc);
        assert_eq!(
            (
                v.stats.tokenless_writes_rejected,
                v.stats.stale_writes_rejected
            ),
            (2, 0)
        );
        for c in &mut sc.clients {
            c.on_loss = LossPolicy::Continue;
        }
        let (v, _) = told(&sc);
        assert_eq!(v.stats.tokenless_writes_rejected, 2);
        assert!(v
            .violations
            .iter()
            .any(|x| x.kind == ViolationKind::DuplicateEffect));
    }

    /// Redis and Redlock issue no token, and every sentence says so in one wording —
    /// never "token 0".
    #[test]
    fn a_service_without_tokens_is_never_said_to_hold_token_0() {
        for name in ["redis-failover", "redlock-clock-jump", "redis-clock-jump"] {
            let sc = crate::teach::flavor_presets::find(name).unwrap();
            let trace = simulate(&sc).unwrap();
            let v = check(&trace);
            let p = Projection::new(&trace);
            let mut said: Vec<String> = transcript(&trace, &v, &p)
                .into_iter()
                .map(|l| l.text)
                .collect();
            let (_, _, items) = verdict_so_far(&v, trace.len(), true);
            said.extend(items.into_iter().map(|i| i.text));
            said.push(ending(&v));
            said.push(v.summary());
            for k in 0..=trace.len() {
                let st = p.state_at(&trace, k);
                said.extend(st.clients.iter().map(|c| client_belief(c, 0)));
                said.push(coord_row(&st, NodeId::COORD, true).1);
            }
            assert!(
                said.iter().all(|s| !s.contains("token 0")),
                "{name}: {said:#?}"
            );
            assert!(
                said.iter()
                    .any(|s| s.contains("still believes it holds the lock (no token)")),
                "{name}: {said:#?}"
            );
            assert!(
                said.iter()
                    .any(|s| s.contains("(no token) and client 2 (no token) both believe")),
                "{name}"
            );
        }
    }

    #[test]
    fn fenced_gc_pause_says_why_the_write_was_rejected() {
        assert!(sentences("gc-pause-fenced")
            .iter()
            .any(|x| x.ends_with("storage rejected client 1's write: token 33 < 34")));
    }

    fn run(name: &str) -> (Trace, Verdict, Projection) {
        let trace = simulate(&preset(name).unwrap().scenario()).unwrap();
        let (v, p) = (check(&trace), Projection::new(&trace));
        (trace, v, p)
    }

    #[test]
    fn the_inspector_reads_the_gc_pause_mid_run() {
        let (trace, _, p) = run("gc-pause");
        let t = Time(40_000);
        let st = p.state_at(&trace, crate::analysis::projection::step_at_time(&trace, t));
        let (c1, c2) = (&st.clients[0], &st.clients[1]);
        assert_eq!(client_status(c1), "paused");
        assert_eq!(client_status(c2), "running");
        let local = |n| st.local(n, t);
        assert!(client_belief(c1, local(NodeId::Client(0))).starts_with("holds token 33 until "));
        assert!(client_belief(c1, local(NodeId::Client(0))).ends_with(" — already passed"));
        assert!(!client_belief(c2, local(NodeId::Client(1))).contains("passed"));
        let (status, holds) = coord_row(&st, NodeId::COORD, true);
        assert_eq!(status, "running");
        assert!(
            holds.starts_with("lease: client 2 holds token 34 until "),
            "{holds}"
        );
        assert!(
            storage_holds(&st).starts_with("account:42 = \"")
                && storage_holds(&st).contains("(token 34 from client 2; no mark)"),
            "{}",
            storage_holds(&st)
        );
        let start = p.state_at(&trace, 0);
        assert_eq!(storage_holds(&start), "empty");
        assert_eq!(
            client_belief(&start.clients[0], 0),
            "does not hold the lock"
        );
        assert_eq!(client_status(&start.clients[0]), "not started");
        assert_eq!(
            coord_row(&start, NodeId::COORD, true),
            ("running", "lock free".to_string())
        );
        assert_eq!(inspector_heading(t), "At t = 40.000s");
        let (service, fence) = service_line(Flavor::default());
        assert!(service.starts_with("Lock service: ") && fence.starts_with("Fence it offers: "));
        assert!(explainer_summary(Flavor::default()).ends_with("works, and what it guarantees"));
    }

    /// The primer beside the Fencing switch is short, says what the token does, and names
    /// its source; "ppm" is explained with a worked number.
    #[test]
    fn the_fencing_primer_is_short_and_cites_its_source() {
        let sentences = FENCING_PRIMER.matches(". ").count() + 1;
        assert!((2..=3).contains(&sentences), "{sentences} sentences");
        assert!(FENCING_PRIMER.starts_with("A fencing token is"));
        assert!(FENCING_PRIMER.contains("Kleppmann 2016"));
        assert!(
            PPM.contains("parts per million") && PPM.contains("100 ppm") && PPM.contains("0.1 ms")
        );
        assert_eq!(
            fence_words(FenceMode::Monotone),
            "fence: reject lower tokens"
        );
    }

    #[test]
    fn the_verdict_list_grows_with_the_cursor() {
        let (trace, v, _) = run("gc-pause");
        assert_eq!(
            verdict_so_far(&v, 0, false),
            (true, "Safe so far".to_string(), vec![])
        );
        let (safe, head, items) = verdict_so_far(&v, trace.len(), true);
        assert!(!safe);
        assert_eq!(
            head,
            format!(
                "Unsafe: {} violation{}",
                v.violations.len(),
                if v.violations.len() == 1 { "" } else { "s" }
            )
        );
        assert_eq!(items[0].class, "violation");
        assert_eq!(items[0].text, plain(&v.violations[0].cause));
        assert!(items[0].text.contains(SUPERSEDED), "{}", items[0].text);
        let overlap = items.iter().find(|i| i.class == "overlap").unwrap();
        assert_eq!(
            overlap.text,
            "client 1 (token 33) and client 2 (token 34) both believe they hold the lock"
        );
        assert!(overlap.when.starts_with("t = ") && overlap.when.ends_with(" s"));
        let (trace, v, _) = run("gc-pause-fenced");
        let (safe, head, items) = verdict_so_far(&v, trace.len(), true);
        assert!(safe);
        assert_eq!(head, "Safe: no violation in the whole run");
        assert!(items.iter().any(|i| i.class == "rejection"
            && i.text == "the fence rejected client 1's stale write (token 33 < 34)"));
    }

    #[test]
    fn the_compare_bar_names_where_two_runs_part_and_each_side() {
        let (a, va, _) = run("gc-pause");
        let (b, vb, _) = run("gc-pause-fenced");
        let at = crate::analysis::compare::first_divergence(&a, &b);
        let (head, text) = divergence(&a, &b, at);
        assert!(
            head.starts_with("First difference at t = ") && head.ends_with("s: "),
            "{head}"
        );
        assert!(
            text.starts_with("A — ") && text.contains("; B — "),
            "{text}"
        );
        assert_eq!(
            divergence(&a, &a, None),
            (String::new(), "The two runs are identical.".to_string())
        );
        let (_, past_end) = divergence(&a, &b, Some(a.len()));
        assert!(past_end.starts_with("A — the run ends; B — "), "{past_end}");
        let sc = preset("gc-pause").unwrap().scenario();
        assert_eq!(
            side_line(&sc, &va, &sc),
            format!(
                "{} (lock service: generic; fence: off — storage trusts the lock) — {}",
                sc.name,
                verdict_line(&va)
            )
        );
        // Before and after an edit: the same name, told apart by what changed.
        let mut edited = sc.clone();
        edited.seed += 1;
        edited.clients[0].ttl_ms = 45_000;
        edited.clients[1].check_before_write = !edited.clients[1].check_before_write;
        edited.faults.pop();
        let line = side_line(&edited, &va, &sc);
        assert!(
            line.contains(&format!("; seed {}; client 1's TTL 45.000s; client 2 checks its lease before writing; {} fault", edited.seed, edited.faults.len())),
            "{line}"
        );
        let other = side_line(&sc, &va, &edited);
        assert!(
            other.contains(&format!(
                "; seed {}; client 1's TTL 30.000s; client 2 does not check",
                sc.seed
            )),
            "{other}"
        );
        assert!(verdict_line(&vb).starts_with("safe"));
    }
}
