//! The safety checker: reads a trace, returns a verdict.
//!
//! It never looks at the model's state — only at what the trace says happened — so a bug
//! in a handler cannot hide a violation from it. It does not interpret events itself
//! either: the projection folds the trace (once, linearly, see [`walk`]) and the checker
//! judges each step — the entry with the state before and after it — against the named
//! properties in [`INVARIANTS`], the way stateright declares properties. What it reports:
//!
//! - **Two believers** ([`Overlap`]): intervals where two or more clients believe they hold
//!   the lock. Real systems do this (Kleppmann 2016), so it is a *hazard*, not by itself a
//!   violation: the question is whether the resource lets the stale holder act.
//! - **Stale writes** (violation): storage accepted a write from an epoch older than one it
//!   had already accepted for that key — or for that resource, where the run declares one
//!   resource kept as several keys: a fence compares tokens per resource. That is the
//!   seeds' criterion — "the resource must reject effects from every superseded epoch" —
//!   read at the resource, which is the only place a fence can act. Epochs are grants
//!   (unique even when an in-memory token counter repeats tokens); a write carrying no
//!   lease counts as older than every epoch.
//! - **Lost updates** (violation): a stale write that replaced a value from a newer epoch.
//! - **Fence rejections** (not violations: the fence working), with their reasons, counted
//!   by what the write carried ([`Refusal`]): a token below the mark is a stale write; a
//!   write with no token is refused whoever sent it, the current holder included.
//! - **Token regressions** (violation): a grant whose token is not above every token issued
//!   before it — an in-memory counter that restarted.
//! - **Duplicate effects** (violation): an unfenceable side effect performed more than once.
//!
//! Beside safety, and never part of it, the verdict carries the run's [`Progress`]: which
//! clients' work never completed (jobs that did not finish, writes refused and never
//! redone). A run where the fence refuses every write is safe and gets nothing done;
//! [`Verdict::safe`] stays the safety answer, and the progress says the rest.

use crate::analysis::liveness::{progress, JobEnd, Progress};
use crate::analysis::projection::{walk, write_epoch, State};
use crate::model::clock::Clock;
use crate::model::msg::RejectReason;
use crate::model::trace::{Entry, Event, Tail, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::{fmt_ms, ordinal, secs};
use crate::vocab::time::Time;
use serde::Serialize;

pub use crate::vocab::names::ViolationKind;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub kind: ViolationKind,
    pub at: Time,
    /// Index of the trace entry where it happened.
    pub entry: u32,
    pub nodes: Vec<NodeId>,
    pub cause: String,
}

/// An interval where two or more clients believed they held the lock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Overlap {
    pub from: Time,
    pub to: Time,
    /// Trace index where the overlap began.
    pub entry: u32,
    /// The believers, with the tokens they believed in.
    pub clients: Vec<(NodeId, u64)>,
}

/// Why the fence refused a write, by what the write carried: only a token below the
/// fence's mark is a *stale* write. A write with no token at all is refused whoever sent it
/// — the current holder too, when the lock service issues no token (Redis, Redlock) — so
/// it is counted apart, and never called stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// A token below the highest accepted (or below the lock's current one).
    Stale,
    /// No token at all.
    NoToken,
    /// A token that is not below the mark and still not accepted: the same token again
    /// under a strict fence, or not the current one under an exact-match fence.
    NotNewer,
    /// Not the fence at all: a conditional write whose key changed since its writer read
    /// it. Nothing stale about the writer; it reads again and retries.
    VersionChanged,
}

impl Refusal {
    pub fn of(reason: &RejectReason) -> Refusal {
        match *reason {
            RejectReason::Lower { .. } => Refusal::Stale,
            RejectReason::NotAbove { token, mark } if token < mark => Refusal::Stale,
            RejectReason::NotCurrent {
                token,
                current: Some(c),
            } if token < c => Refusal::Stale,
            RejectReason::NoToken => Refusal::NoToken,
            RejectReason::VersionChanged { .. } => Refusal::VersionChanged,
            _ => Refusal::NotNewer,
        }
    }
}

/// A write the fence refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub at: Time,
    pub entry: u32,
    pub client: NodeId,
    pub token: Option<u64>,
    pub reason: String,
    /// Stale, token-less or not newer: what the reason amounts to.
    pub why: Refusal,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub double_holder_ms: i64,
    pub writes_accepted: u32,
    pub stale_writes_accepted: u32,
    /// Writes the fence refused, by reason: a token below its mark (stale), no token at
    /// all (a fail-open client, or every client of a service that issues none), and in all.
    pub stale_writes_rejected: u32,
    pub tokenless_writes_rejected: u32,
    pub writes_rejected: u32,
    pub lost_updates: u32,
    pub effects_performed: u32,
    pub grants: u32,
    /// Clients whose job began, and whose job ran every step (see [`Progress`]).
    pub jobs_started: u32,
    pub jobs_finished: u32,
    /// Refused writes their client never redid.
    pub writes_lost: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub safe: bool,
    pub violations: Vec<Violation>,
    pub overlaps: Vec<Overlap>,
    pub rejections: Vec<Rejection>,
    pub stats: Stats,
    /// Whose work got done: a liveness report beside the safety verdict, which it never
    /// changes.
    pub progress: Progress,
}

/// One step of the fold, as an invariant sees it: entry `index`, and the projected state
/// right before and right after it.
pub struct Step<'a> {
    pub index: u32,
    pub entry: &'a Entry,
    pub before: &'a State,
    /// `None` when only the safety properties are judged ([`Safety`]): those read the
    /// state *before* the step — what storage had accepted when a write arrived — so that
    /// a search can judge a run with one state, not two.
    pub after: Option<&'a State>,
}

/// What a property expects (after stateright's `Expectation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// Must hold at every step; each step that breaks it is a violation of this kind.
    Always(ViolationKind),
    /// May break — real systems do — and is reported as intervals ([`Overlap`]): maximal
    /// runs of steps that break it with the same nodes and tokens. Not a violation.
    Hazard,
    /// A good thing that sometimes happens (a fence refusing a write); each witness is
    /// reported ([`Rejection`]). Not a violation.
    Sometimes,
}

/// How a step broke a property (or, for `Sometimes`, witnessed it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    /// The nodes involved, each with the token it held or wrote with, if any.
    pub who: Vec<(NodeId, Option<u64>)>,
    pub cause: String,
}

/// A named property of a run, judged step by step over the projection's states.
pub struct Invariant {
    pub name: &'static str,
    pub expectation: Expectation,
    /// `None`: the step keeps it; `Some`: how the step broke it.
    pub check: fn(&Step) -> Option<Breach>,
}

/// What the checker judges, in report order.
pub const INVARIANTS: &[Invariant] = &[
    Invariant {
        name: "two believers",
        expectation: Expectation::Hazard,
        check: two_believers,
    },
    Invariant {
        name: "no stale write accepted",
        expectation: Expectation::Always(ViolationKind::StaleWrite),
        check: stale_write,
    },
    Invariant {
        name: "no lost update",
        expectation: Expectation::Always(ViolationKind::LostUpdate),
        check: lost_update,
    },
    Invariant {
        name: "tokens increase",
        expectation: Expectation::Always(ViolationKind::TokenRegression),
        check: token_regression,
    },
    Invariant {
        name: "each effect once",
        expectation: Expectation::Always(ViolationKind::DuplicateEffect),
        check: duplicate_effect,
    },
    Invariant {
        name: "the fence refuses a write",
        expectation: Expectation::Sometimes,
        check: fence_rejection,
    },
];

/// Two or more clients believe they hold the lock after this step.
fn two_believers(s: &Step) -> Option<Breach> {
    let after = s.after?;
    after.believers().nth(1)?;
    Some(Breach {
        who: after.believers().map(|(n, t)| (n, Some(t))).collect(),
        cause: "two or more clients believe they hold the lock".into(),
    })
}

/// An accepted write whose epoch is older than one storage had already accepted for its
/// resource — its key, unless the run declared the key part of a larger resource — with
/// the newer epoch's token and holder. A fence compares tokens per resource: a write to a
/// key the newer holder has not touched yet still changes what that holder now owns.
fn stale<'a>(s: &Step<'a>) -> Option<(&'a Event, u32, u64, NodeId)> {
    let Event::WriteAccepted {
        client, key, epoch, ..
    } = &s.entry.event
    else {
        return None;
    };
    let mine = write_epoch(*epoch);
    let newer = s
        .before
        .accepted_epochs
        .get(&**s.before.resource_of(key))
        .copied()
        .filter(|p| *p > mine)?;
    let (token, holder) = s.before.epochs.get(&newer).copied().unwrap_or((0, *client));
    Some((&s.entry.event, mine, token, holder))
}

fn stale_write(s: &Step) -> Option<Breach> {
    let (
        Event::WriteAccepted {
            client, token, key, ..
        },
        _,
        ptoken,
        pholder,
    ) = stale(s)?
    else {
        return None;
    };
    let mut what = token.map_or("with no token".to_string(), |t| format!("with token {t}"));
    // Said only where a key is part of a declared resource: other causes read as before.
    let resource = s.before.resource_of(key);
    if resource != key {
        what = format!("to {key}, part of {resource}, {what}");
    }
    Some(Breach {
        who: vec![(*client, *token), (pholder, Some(ptoken)), (NodeId::Storage, None)],
        cause: format!(
            "storage accepted {}'s write {what} after it had accepted {} from {}: a superseded holder changed the data",
            client.name(),
            if ptoken == 0 { "a write".to_string() } else { format!("token {ptoken}") },
            pholder.name()
        ),
    })
}

/// A stale write that replaced a value from a newer epoch — or, with no lock to judge by,
/// a write landing on a newer version of its key than its writer had read
/// ([`version_lost_update`]).
fn lost_update(s: &Step) -> Option<Breach> {
    epoch_lost_update(s).or_else(|| version_lost_update(s))
}

/// A read-modify-write that overwrote what it never read: its writer read the key at one
/// version and storage had accepted other writes since. Judged only for a client whose
/// read the trace shows (`ReadServed`), so it needs no lock and no epochs.
fn version_lost_update(s: &Step) -> Option<Breach> {
    let Event::WriteAccepted {
        client, key, token, ..
    } = &s.entry.event
    else {
        return None;
    };
    let read = *s.before.reads.get(&(*client, key.clone()))?;
    let now = s.before.versions.get(&**key).copied().unwrap_or(0);
    if now <= read {
        return None;
    }
    let by = s.before.cells.get(&**key).map(|c| c.writer);
    let mut who = vec![(*client, *token)];
    who.extend(by.filter(|b| b != client).map(|b| (b, None)));
    who.push((NodeId::Storage, None));
    let since = now - read;
    Some(Breach {
        who,
        cause: format!(
            "{} read {key} at version {read} and wrote it back at version {now}: {since} write{} since its read {} overwritten, that update is silently lost",
            client.name(),
            if since == 1 { "" } else { "s" },
            if since == 1 { "was" } else { "were" },
        ),
    })
}

/// A stale write that replaced a value from a newer epoch — unless its writer had read the
/// key at the version it replaced (a conditional update refused and read again): it then
/// wrote over nothing it had not seen, and no update is lost, though the write is still a
/// superseded holder's ([`stale_write`]).
fn epoch_lost_update(s: &Step) -> Option<Breach> {
    let (
        Event::WriteAccepted {
            client,
            key,
            token,
            replaced_epoch,
            ..
        },
        mine,
        ptoken,
        pholder,
    ) = stale(s)?
    else {
        return None;
    };
    replaced_epoch.filter(|r| *r > mine)?;
    let now = s.before.versions.get(&**key).copied().unwrap_or(0);
    if s.before
        .reads
        .get(&(*client, key.clone()))
        .is_some_and(|r| *r >= now)
    {
        return None;
    }
    Some(Breach {
        who: vec![(*client, *token), (pholder, Some(ptoken)), (NodeId::Storage, None)],
        cause: format!(
            "{}'s stale write overwrote {key}, which held a newer holder's value: that update is silently lost",
            client.name()
        ),
    })
}

/// A grant whose token is not above every token issued before it. Token 0 — a service
/// that issues no token (Redis, Redlock) — has nothing to order.
fn token_regression(s: &Step) -> Option<Breach> {
    let Event::LeaseGranted { client, token, .. } = &s.entry.event else {
        return None;
    };
    let m = s.before.max_token.filter(|m| *token != 0 && token <= m)?;
    Some(Breach {
        who: vec![(s.entry.node, None), (*client, Some(*token))],
        cause: format!(
            "{} issued token {token} to {} although it had already issued token {m}: its counter went back",
            s.entry.node.name(),
            client.name()
        ),
    })
}

/// An effect performed again (nothing could fence it). The cause tells the repeat against
/// the first time: by whom and when, and says so plainly when it is the same client again.
fn duplicate_effect(s: &Step) -> Option<Breach> {
    let Event::EffectPerformed { client, name } = &s.entry.event else {
        return None;
    };
    let seen = *s.before.effects.get(&**name)?;
    let nth = ordinal(seen.times + 1);
    let when = secs(seen.first_at.ms());
    let cause = if seen.first == *client {
        format!(
            "\"{name}\" was performed a {nth} time by {}, which had already performed it at {when}: nothing could fence it",
            client.name()
        )
    } else {
        format!(
            "\"{name}\" was performed a {nth} time, by {}, after {} had performed it at {when}: nothing could fence it",
            client.name(),
            seen.first.name()
        )
    };
    Some(Breach {
        who: vec![(*client, None), (seen.first, None)],
        cause,
    })
}

/// Storage refused a write by its fence.
fn fence_rejection(s: &Step) -> Option<Breach> {
    let Event::WriteRejected {
        client,
        token,
        reason,
        ..
    } = &s.entry.event
    else {
        return None;
    };
    Some(Breach {
        who: vec![(*client, *token)],
        cause: reason.to_string(),
    })
}

/// Judges the trace: one linear fold of the projection ([`walk`]), every invariant at
/// every step.
pub fn check(trace: &Trace) -> Verdict {
    let mut violations = Vec::new();
    let mut overlaps = Vec::new();
    let mut rejections = Vec::new();
    let mut open: Option<OpenHazard> = None;
    let end = walk(trace, |i, before, after| {
        let entry = &trace.entries[i];
        let step = Step {
            index: i as u32,
            entry,
            before,
            after: Some(after),
        };
        judge_safety(&step, &mut violations);
        for inv in INVARIANTS {
            match inv.expectation {
                Expectation::Always(_) => {}
                Expectation::Hazard => {
                    let breach = (inv.check)(&step);
                    let now = breach.map(|b| b.who);
                    if open.as_ref().map(|o| &o.2) == now.as_ref() {
                        continue;
                    }
                    if let Some((from, first, who)) = open.take() {
                        if entry.t > from {
                            overlaps.push(overlap(from, entry.t, first, who));
                        }
                    }
                    open = now.map(|who| (entry.t, step.index, who));
                }
                Expectation::Sometimes => {
                    let breach = (inv.check)(&step);
                    if let (Some(b), Event::WriteRejected { reason, .. }) = (breach, &entry.event) {
                        let (client, token) = b.who[0];
                        rejections.push(Rejection {
                            at: entry.t,
                            entry: step.index,
                            client,
                            token,
                            reason: b.cause,
                            why: Refusal::of(reason),
                        });
                    }
                }
            }
        }
    });
    if let Some((from, first, who)) = open {
        overlaps.push(overlap(from, trace.end.max(from), first, who));
    }
    in_order(&mut violations);
    let count = |k| violations.iter().filter(|x| x.kind == k).count() as u32;
    let refused = |w| rejections.iter().filter(|r| r.why == w).count() as u32;
    let stats = Stats {
        double_holder_ms: overlaps.iter().map(|o| o.to.0 - o.from.0).sum(),
        writes_accepted: end.counts.writes_accepted,
        stale_writes_accepted: count(ViolationKind::StaleWrite),
        stale_writes_rejected: refused(Refusal::Stale),
        tokenless_writes_rejected: refused(Refusal::NoToken),
        writes_rejected: rejections.len() as u32,
        lost_updates: count(ViolationKind::LostUpdate),
        effects_performed: end.counts.effects_performed,
        grants: end.counts.grants,
        ..Stats::default()
    };
    let progress = progress(trace);
    let stats = Stats {
        jobs_started: progress
            .clients
            .iter()
            .filter(|c| !matches!(c.job, JobEnd::NotStarted | JobEnd::Unrecorded))
            .count() as u32,
        jobs_finished: progress.jobs_finished(),
        writes_lost: progress.clients.iter().map(|c| c.writes_lost).sum(),
        ..stats
    };
    Verdict {
        safe: violations.is_empty(),
        violations,
        overlaps,
        rejections,
        stats,
        progress,
    }
}

/// Judges the safety properties ([`Expectation::Always`]) at one step, in report order,
/// adding each breach to `out`.
fn judge_safety(step: &Step, out: &mut Vec<Violation>) {
    for inv in INVARIANTS {
        let Expectation::Always(kind) = inv.expectation else {
            continue;
        };
        if let Some(b) = (inv.check)(step) {
            out.push(Violation {
                kind,
                at: step.entry.t,
                entry: step.index,
                nodes: b.who.iter().map(|(n, _)| *n).collect(),
                cause: b.cause,
            });
        }
    }
}

/// The safety properties alone, judged entry by entry: what a search asks of each of the
/// hundreds of thousands of runs it tries — is it safe, and if not, what broke, for whom.
/// [`check`]'s violations, without its hazards, fence refusals, statistics and progress,
/// from one projected state instead of two (see [`Step::after`]).
///
/// It reads the entries one by one, front to back, so the runs that extend one run —
/// which share their first entries, since a fault changes nothing before it — can be
/// judged that far once, and a copy carried on for each ([`Safety::feed`], then
/// [`Safety::of`] on each run): the verdict is the same as judged from the start.
pub struct Safety {
    state: State,
    violations: Vec<Violation>,
}

// Copied into the room a scratch judge already has (see [`Safety::judge_tail`]).
crate::vocab::clone_fields!(Safety { state, violations });

impl Safety {
    /// Before the first entry of a run of `nodes` (each with its clock at the start).
    pub fn new(nodes: &[(NodeId, Clock)]) -> Safety {
        Safety {
            state: State::start(nodes),
            violations: Vec::new(),
        }
    }

    /// How many entries were judged.
    pub fn fed(&self) -> usize {
        self.state.step
    }

    /// Judges the next entries.
    pub fn feed(&mut self, entries: &[Entry]) {
        for entry in entries {
            let step = Step {
                index: self.state.step as u32,
                entry,
                before: &self.state,
                after: None,
            };
            judge_safety(&step, &mut self.violations);
            self.state.apply_entry(entry);
        }
    }

    /// The violations of `trace`, whose first [`Safety::fed`] entries are the ones judged,
    /// in [`check`]'s order.
    pub fn of(mut self, trace: &Trace) -> Vec<Violation> {
        self.feed(trace.entries.get(self.fed()..).unwrap_or_default());
        self.end()
    }

    /// The violations of the run finished as `tail`, whose skipped entries are the ones
    /// judged.
    pub fn of_tail(mut self, tail: &Tail) -> Vec<Violation> {
        self.judge_tail(tail)
    }

    /// As [`Safety::of_tail`], but judging in place: a search judging many tails from one
    /// judge copies it into the same scratch judge each time ([`Clone::clone_from`]),
    /// reusing its room, rather than making a new copy per run.
    pub fn judge_tail(&mut self, tail: &Tail) -> Vec<Violation> {
        debug_assert_eq!(self.fed(), tail.skipped, "judged the tail's prefix");
        self.feed(&tail.entries);
        self.take_found()
    }

    /// The violations found, in [`check`]'s order.
    fn end(mut self) -> Vec<Violation> {
        self.take_found()
    }

    fn take_found(&mut self) -> Vec<Violation> {
        let mut found = std::mem::take(&mut self.violations);
        in_order(&mut found);
        found
    }
}

/// [`check`]'s order of violations: by entry, then by kind.
fn in_order(violations: &mut [Violation]) {
    violations.sort_by_key(|x| (x.entry, x.kind));
}

/// The safety violations of `trace`: `check(trace).violations`, for less work.
pub fn violations(trace: &Trace) -> Vec<Violation> {
    Safety::new(&trace.nodes).of(trace)
}

/// A hazard interval in progress: since when, from which entry, who.
type OpenHazard = (Time, u32, Vec<(NodeId, Option<u64>)>);

fn overlap(from: Time, to: Time, entry: u32, who: Vec<(NodeId, Option<u64>)>) -> Overlap {
    Overlap {
        from,
        to,
        entry,
        clients: who.into_iter().map(|(n, t)| (n, t.unwrap_or(0))).collect(),
    }
}

impl Verdict {
    /// One paragraph for the CLI and the transcript.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        if self.safe {
            s.push_str("SAFE: storage never accepted a write from a superseded holder.\n");
        } else {
            s.push_str(&format!(
                "UNSAFE: {} violation(s).\n",
                self.violations.len()
            ));
        }
        for o in &self.overlaps {
            let who: Vec<String> = o
                .clients
                .iter()
                .map(|(n, t)| match t {
                    // Redis and Redlock issue no token: say so, not "token 0".
                    0 => format!("{n} (no token)"),
                    t => format!("{n} (token {t})"),
                })
                .collect();
            s.push_str(&format!(
                "  two believers {} → {}: {}\n",
                o.from,
                o.to,
                who.join(" and ")
            ));
        }
        for r in &self.rejections {
            // A version check is not the fence: said as what refused it.
            let (by, what) = match r.why {
                Refusal::VersionChanged => ("storage refused", "conditional write"),
                _ => ("fence rejected", "write"),
            };
            s.push_str(&format!(
                "  {}  {by} {}'s {what}: {}\n",
                r.at, r.client, r.reason
            ));
        }
        for x in &self.violations {
            s.push_str(&format!("  {}  {:?}: {}\n", x.at, x.kind, x.cause));
        }
        let st = &self.stats;
        s.push_str(&format!(
            "  double-holder time {}, writes accepted {}, stale accepted {}, stale rejected {}, token-less rejected {}, lost updates {}\n",
            fmt_ms(st.double_holder_ms),
            st.writes_accepted,
            st.stale_writes_accepted,
            st.stale_writes_rejected,
            st.tokenless_writes_rejected,
            st.lost_updates
        ));
        // Said only when some work did not get done: a run that finished says nothing
        // more. The headline names the stalled clients; the lines, every unfinished one.
        // A recorded trace may tell no client's job (no job lines): then there is no
        // count of jobs to give.
        if let Some(h) = self.progress.headline() {
            let told = self.progress.jobs_recorded();
            let count = format!("; {} of {told} jobs finished", st.jobs_finished);
            s.push_str(&format!(
                "PROGRESS: {h}{}.\n",
                if told > 0 { count.as_str() } else { "" }
            ));
        }
        for c in self.progress.incomplete() {
            s.push_str(&format!("  work not done: {}\n", c.line()));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::trace::LossHow;

    const C1: NodeId = NodeId::Client(0);
    const C2: NodeId = NodeId::Client(1);

    /// A hand-built trace: one entry a second.
    fn trace(events: Vec<(NodeId, Event)>) -> Trace {
        crate::model::trace::by_hand(&[C1, C2, NodeId::COORD, NodeId::Storage], events)
    }

    fn grant(client: NodeId, token: u64, epoch: u32) -> (NodeId, Event) {
        let expires_local = 30_000;
        let e = Event::LeaseGranted {
            client,
            token,
            epoch,
            expires_local,
        };
        (NodeId::COORD, e)
    }

    fn write(client: NodeId, epoch: Option<u32>, replaced: Option<u32>) -> (NodeId, Event) {
        let e = Event::WriteAccepted {
            client,
            key: "k".into(),
            value: "v".into(),
            token: epoch.map(u64::from),
            epoch,
            replaced_epoch: replaced,
            mark: None,
        };
        (NodeId::Storage, e)
    }

    fn believe(client: NodeId, token: u64) -> (NodeId, Event) {
        let e = Event::BeliefStarted {
            token,
            epoch: token as u32,
            deadline_local: 30_000,
        };
        (client, e)
    }

    fn stop(client: NodeId, token: u64) -> (NodeId, Event) {
        let how = LossHow::Released;
        (client, Event::BeliefEnded { token, how })
    }

    fn effect(client: NodeId, name: &str) -> (NodeId, Event) {
        let name = name.into();
        (NodeId::Storage, Event::EffectPerformed { client, name })
    }

    /// The steps at which the invariant called `name`, judged alone, breaks.
    fn breaks(name: &str, events: Vec<(NodeId, Event)>) -> Vec<u32> {
        let inv = INVARIANTS.iter().find(|i| i.name == name).unwrap();
        let t = trace(events);
        let mut at = Vec::new();
        walk(&t, |i, before, after| {
            let step = Step {
                index: i as u32,
                entry: &t.entries[i],
                before,
                after: Some(after),
            };
            if (inv.check)(&step).is_some() {
                at.push(step.index);
            }
        });
        at
    }

    #[test]
    fn invariants_have_distinct_names() {
        let mut names: Vec<_> = INVARIANTS.iter().map(|i| i.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), INVARIANTS.len());
    }

    #[test]
    fn two_believers_holds_when_beliefs_take_turns() {
        let turns = vec![believe(C1, 1), stop(C1, 1), believe(C2, 2), stop(C2, 2)];
        assert_eq!(breaks("two believers", turns.clone()), [0u32; 0]);
        assert!(check(&trace(turns)).overlaps.is_empty());
    }

    #[test]
    fn two_believers_breaks_while_beliefs_overlap_and_is_a_hazard_not_a_violation() {
        let overlap = vec![believe(C1, 1), believe(C2, 2), stop(C1, 1), stop(C2, 2)];
        assert_eq!(breaks("two believers", overlap.clone()), [1]);
        let v = check(&trace(overlap));
        assert!(v.safe);
        assert_eq!(
            v.overlaps,
            [Overlap {
                from: Time(1000),
                to: Time(2000),
                entry: 1,
                clients: vec![(C1, 1), (C2, 2)],
            }]
        );
        assert_eq!(v.stats.double_holder_ms, 1000);
    }

    #[test]
    fn two_believers_still_open_at_the_end_lasts_until_the_run_stops() {
        let v = check(&trace(vec![believe(C1, 1), believe(C2, 2)]));
        assert_eq!(v.overlaps[0].to, Time(2000), "the trace's end");
    }

    #[test]
    fn no_stale_write_holds_when_epochs_only_grow() {
        let events = vec![
            grant(C1, 1, 1),
            write(C1, Some(1), None),
            grant(C2, 2, 2),
            write(C2, Some(2), Some(1)),
            write(C2, Some(2), Some(2)),
        ];
        assert_eq!(breaks("no stale write accepted", events), [0u32; 0]);
    }

    #[test]
    fn no_stale_write_breaks_when_an_older_epoch_lands_after_a_newer_one() {
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            write(C2, Some(2), None),
            write(C1, Some(1), Some(2)),
        ];
        assert_eq!(breaks("no stale write accepted", events.clone()), [3]);
        let v = check(&trace(events));
        assert!(!v.safe);
        assert_eq!(v.violations[0].kind, ViolationKind::StaleWrite);
        assert_eq!(v.violations[0].nodes, [C1, C2, NodeId::Storage]);
        assert_eq!(
            v.violations[0].cause,
            "storage accepted client 1's write with token 1 after it had accepted token 2 from client 2: a superseded holder changed the data"
        );
        assert_eq!(v.stats.stale_writes_accepted, 1);
    }

    /// The documented rule: a write carrying no lease (a fail-open client) counts as older
    /// than every epoch — so it is stale after any leased write, and a leased write after
    /// it is not.
    #[test]
    fn a_write_with_no_lease_counts_as_older_than_every_epoch() {
        let after_leased = vec![
            grant(C1, 1, 1),
            write(C1, Some(1), None),
            write(C2, None, Some(1)),
        ];
        assert_eq!(breaks("no stale write accepted", after_leased), [2]);
        let before_leased = vec![
            write(C2, None, None),
            grant(C1, 1, 1),
            write(C1, Some(1), None),
        ];
        assert_eq!(breaks("no stale write accepted", before_leased), [0u32; 0]);
        assert_eq!(write_epoch(None), 0);
    }

    /// Staleness is judged per key: an older epoch writing a key the newer one never wrote
    /// is not stale.
    #[test]
    fn no_stale_write_is_judged_per_key() {
        let mut other = write(C1, Some(1), None);
        if let Event::WriteAccepted { key, .. } = &mut other.1 {
            *key = "other".into();
        }
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            write(C2, Some(2), None),
            other,
            write(C1, Some(1), Some(2)),
        ];
        assert_eq!(breaks("no stale write accepted", events), [4]);
    }

    /// The checker's memory of accepted epochs is the run's, not storage's: a storage
    /// restart that forgot its fence marks does not make an older epoch's write fresh.
    #[test]
    fn no_stale_write_remembers_across_a_storage_restart_that_forgot() {
        use crate::model::trace::Forgot;
        let restart = (
            NodeId::Storage,
            Event::Restarted {
                forgot: Forgot::Mark,
            },
        );
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            write(C2, Some(2), None),
            restart,
            write(C1, Some(1), Some(2)),
        ];
        assert_eq!(breaks("no stale write accepted", events), [4]);
    }

    #[test]
    fn no_lost_update_holds_when_a_stale_write_replaced_only_older_data() {
        // Stale (epoch 2 was accepted), but what it overwrote was from epoch 1.
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            write(C2, Some(2), None),
            write(C1, Some(1), Some(1)),
        ];
        assert_eq!(breaks("no stale write accepted", events.clone()), [3]);
        assert_eq!(breaks("no lost update", events), [0u32; 0]);
    }

    #[test]
    fn no_lost_update_breaks_when_a_stale_write_replaces_a_newer_value() {
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            write(C2, Some(2), None),
            write(C1, Some(1), Some(2)),
        ];
        assert_eq!(breaks("no lost update", events.clone()), [3]);
        assert_eq!(check(&trace(events)).stats.lost_updates, 1);
    }

    #[test]
    fn tokens_increase_holds_for_rising_tokens_and_ignores_token_zero() {
        let events = vec![
            grant(C1, 1, 1),
            grant(C2, 2, 2),
            grant(C1, 0, 3),
            grant(C2, 0, 4),
        ];
        assert_eq!(breaks("tokens increase", events), [0u32; 0]);
    }

    #[test]
    fn tokens_increase_breaks_when_a_counter_goes_back() {
        let events = vec![grant(C1, 5, 1), grant(C2, 3, 2), grant(C1, 6, 3)];
        assert_eq!(breaks("tokens increase", events.clone()), [1]);
        let v = check(&trace(events));
        assert_eq!(v.violations[0].kind, ViolationKind::TokenRegression);
        assert_eq!(v.violations[0].nodes, [NodeId::COORD, C2]);
        assert_eq!(v.stats.grants, 3);
    }

    #[test]
    fn each_effect_once_holds_for_distinct_effects() {
        let events = vec![effect(C1, "email"), effect(C2, "charge")];
        assert_eq!(breaks("each effect once", events), [0u32; 0]);
    }

    #[test]
    fn each_effect_once_breaks_on_a_repeat_and_names_the_first_performer() {
        let events = vec![
            effect(C1, "email"),
            effect(C2, "email"),
            effect(C1, "email"),
        ];
        assert_eq!(breaks("each effect once", events.clone()), [1, 2]);
        let v = check(&trace(events));
        assert_eq!(v.violations[1].nodes, [C1, C1]);
        assert_eq!(v.violations[0].nodes, [C2, C1]);
        assert_eq!(v.stats.effects_performed, 3);
    }

    #[test]
    fn a_repeated_effect_says_who_did_it_first_and_when() {
        // By hand, entry i is at i s.
        let other = check(&trace(vec![effect(C1, "email"), effect(C2, "email")]));
        assert_eq!(
            other.violations[0].cause,
            "\"email\" was performed a second time, by client 2, after client 1 had performed it at 0.0 s: nothing could fence it"
        );
        let same = check(&trace(vec![
            effect(C1, "charge"),
            effect(C2, "charge"),
            effect(C2, "charge"),
        ]));
        assert_eq!(
            same.violations[1].cause,
            "\"charge\" was performed a third time, by client 2, after client 1 had performed it at 0.0 s: nothing could fence it"
        );
        let again = check(&trace(vec![
            effect(C2, "swap tables"),
            effect(C2, "swap tables"),
        ]));
        let cause = &again.violations[0].cause;
        assert_eq!(
            cause,
            "\"swap tables\" was performed a second time by client 2, which had already performed it at 0.0 s: nothing could fence it"
        );
        assert!(!cause.contains("first by client 2"));
    }

    #[test]
    fn the_fence_refusing_a_write_is_reported_not_a_violation() {
        let reject = |token: Option<u64>, reason| Event::WriteRejected {
            client: C1,
            key: "k".into(),
            token,
            reason,
        };
        let events = vec![
            write(C2, Some(2), None),
            (
                NodeId::Storage,
                reject(Some(1), RejectReason::Lower { token: 1, mark: 2 }),
            ),
            (NodeId::Storage, reject(None, RejectReason::NoToken)),
            (
                NodeId::Storage,
                reject(Some(2), RejectReason::NotAbove { token: 2, mark: 2 }),
            ),
        ];
        assert_eq!(
            breaks("the fence refuses a write", events.clone()),
            [1, 2, 3]
        );
        let v = check(&trace(events));
        assert!(v.safe);
        assert_eq!(v.rejections.len(), 3);
        assert_eq!(
            (v.rejections[0].client, v.rejections[0].token),
            (C1, Some(1))
        );
        // Counted by reason: only a token below the mark is stale.
        let why: Vec<Refusal> = v.rejections.iter().map(|r| r.why).collect();
        assert_eq!(why, [Refusal::Stale, Refusal::NoToken, Refusal::NotNewer]);
        assert_eq!(v.stats.stale_writes_rejected, 1);
        assert_eq!(v.stats.tokenless_writes_rejected, 1);
        assert_eq!(v.stats.writes_rejected, 3);
        assert_eq!(v.stats.writes_accepted, 1);
        let c = |token, current| Refusal::of(&RejectReason::NotCurrent { token, current });
        assert_eq!(c(1, Some(2)), Refusal::Stale);
        assert_eq!(c(3, Some(2)), Refusal::NotNewer);
        assert_eq!(c(3, None), Refusal::NotNewer);
    }

    fn job(client: NodeId, e: Event) -> (NodeId, Event) {
        (client, e)
    }

    /// A hand-built run where client 2's job never finishes: the verdict stays safe (no
    /// violation), and its progress names client 2 with the write the fence refused.
    #[test]
    fn work_that_never_completed_is_reported_beside_safety_not_as_a_violation() {
        let reject = Event::WriteRejected {
            client: C2,
            key: "k".into(),
            token: None,
            reason: RejectReason::NoToken,
        };
        let aborted = Event::JobAborted {
            why: crate::model::trace::AbortWhy::LostLease,
        };
        let events = vec![
            job(C1, Event::JobStarted),
            job(C2, Event::JobStarted),
            write(C1, Some(1), None),
            job(C1, Event::JobFinished),
            (NodeId::Storage, reject),
            job(C2, aborted),
        ];
        let v = check(&trace(events));
        assert!(v.safe && v.violations.is_empty());
        assert_eq!(
            (
                v.stats.jobs_started,
                v.stats.jobs_finished,
                v.stats.writes_lost
            ),
            (2, 1, 1)
        );
        assert!(!v.progress.live());
        assert_eq!(
            v.progress.headline().as_deref(),
            Some("client 2's work never completed (1 write refused)")
        );
        let summary = v.summary();
        assert!(summary.starts_with("SAFE: "), "{summary}");
        assert!(summary.contains(
            "PROGRESS: client 2's work never completed (1 write refused); 1 of 2 jobs finished.\n  work not done: client 2 aborted its job (lost the lease); 1 write refused: no fencing token\n"
        ));
    }

    #[test]
    fn a_run_where_every_job_finishes_adds_no_progress_finding() {
        let events = vec![
            job(C1, Event::JobStarted),
            write(C1, Some(1), None),
            job(C1, Event::JobFinished),
            job(C2, Event::JobStarted),
            write(C2, Some(2), Some(1)),
            job(C2, Event::JobFinished),
        ];
        let v = check(&trace(events));
        assert!(v.safe && v.progress.live());
        assert_eq!(v.progress.headline(), None);
        assert_eq!((v.stats.jobs_started, v.stats.jobs_finished), (2, 2));
        assert!(!v.summary().contains("PROGRESS") && !v.summary().contains("work not done"));
    }
}
