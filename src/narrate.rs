//! Plain-language sentences for the moments that matter, keyed to trace entries.
//!
//! The live region, the transcript and the "next notable event" keys all use this list,
//! so a screen-reader user hears what a sighted user sees. A sentence is built from the
//! entry and the projected state right after it ("…; client 1 still believes it holds
//! token 33") — never from a script.

use crate::check::{Verdict, ViolationKind};
use crate::projection::{Projection, State};
use crate::sim::node::NodeId;
use crate::sim::time::Time;
use crate::trace::{AbortWhy, Event, Forgot, Trace};

/// What a learner calls a node.
pub fn node_name(n: NodeId) -> String {
    match n {
        NodeId::Client(i) => format!("client {}", i + 1),
        NodeId::Coord(0) => "the coordinator".into(),
        // Redlock's other masters.
        NodeId::Coord(i) => format!("coordinator {}", i + 1),
        NodeId::Storage => "storage".into(),
    }
}

/// A node's label on the stage: "C1", "Lock", "L2", "DB".
pub fn short_name(n: NodeId) -> String {
    match n {
        NodeId::Client(i) => format!("C{}", i + 1),
        NodeId::Coord(0) => "Lock".into(),
        NodeId::Coord(i) => format!("L{}", i + 1),
        NodeId::Storage => "DB".into(),
    }
}

/// Seconds with one decimal, as the narration reads them: "30.0 s".
pub fn secs(ms: i64) -> String {
    // Integer arithmetic on purpose: float formatting would add kilobytes to the wasm.
    let tenths = (ms.unsigned_abs() + 50) / 100;
    format!(
        "{}{}.{} s",
        if ms < 0 { "-" } else { "" },
        tenths / 10,
        tenths % 10
    )
}

/// Whether an entry is a moment worth stopping at.
pub fn is_notable(e: &Event) -> bool {
    use Event::*;
    matches!(
        e,
        LeaseGranted { .. }
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
        .map(|(c, t)| format!("{} still believes it holds token {t}", node_name(c)))
}

/// The sentence for entry `i`, given the state right after it, with its time in front
/// ("t = 30.0 s: …"). `None` if not notable.
pub fn sentence(trace: &Trace, verdict: &Verdict, i: usize, after: &State) -> Option<String> {
    let e = trace.entries.get(i)?;
    Some(format!(
        "t = {}: {}",
        secs(e.t.0),
        happened(trace, verdict, i, after)?
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
    notable_steps(trace)
        .into_iter()
        .filter_map(|i| {
            let after = projection.state_at(trace, i + 1);
            Some(Line {
                step: i,
                at: trace.entries.get(i)?.t,
                text: happened(trace, verdict, i, &after)?,
            })
        })
        .collect()
}

/// What entry `i` did, in words, without its time. `None` if not notable.
fn happened(trace: &Trace, verdict: &Verdict, i: usize, after: &State) -> Option<String> {
    let e = trace.entries.get(i)?;
    let who = node_name(e.node);
    let s = match &e.event {
        Event::LeaseGranted { client, token, .. } => {
            let mut s = format!("{who} granted the lock to {} with {}", node_name(*client), tok(*token));
            let others: Vec<String> = after
                .believers()
                .filter(|(c, _)| c != client)
                .map(|(c, t)| format!("{} still believes it holds token {t}", node_name(c)))
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
                node_name(*client),
                tok(*token)
            );
            if let Some(b) = still_believes(after, *client) {
                s.push_str("; ");
                s.push_str(&b);
            }
            s
        }
        Event::LeaseReleased { client, token } => {
            format!("{} released the lock (token {token})", node_name(*client))
        }
        Event::BeliefEnded { token, how } => {
            format!("{who} stopped believing it holds token {token}: {how}")
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
                    node_name(*client),
                    if lost {
                        " — a newer holder's update is lost: data corrupted"
                    } else {
                        " — data corrupted"
                    }
                )
            } else {
                format!(
                    "storage accepted {}'s write with {tok} to {key}",
                    node_name(*client)
                )
            }
        }
        Event::WriteRejected { client, reason, .. } => {
            format!("storage rejected {}'s write: {reason}", node_name(*client))
        }
        Event::EffectPerformed { client, name } => {
            let dup = verdict
                .violations
                .iter()
                .any(|v| v.entry as usize == i && v.kind == ViolationKind::DuplicateEffect);
            format!(
                "storage performed \"{name}\" for {}{}",
                node_name(*client),
                if dup { " — a second time" } else { "" }
            )
        }
        Event::EffectDeduplicated { client, name } => {
            format!(
                "storage skipped \"{name}\" for {}: its idempotency key was already used",
                node_name(*client)
            )
        }
        Event::Paused { for_ms } => format!(
            "{who} froze for {} (a GC pause); its clock keeps running",
            secs(*for_ms)
        ),
        Event::Resumed => match still_believes(after, e.node) {
            Some(_) => format!("{who} woke up, still believing it holds its lock"),
            None => format!("{who} woke up"),
        },
        Event::LinkCut { peer } => format!("{who} is cut off from {}", node_name(*peer)),
        Event::LinkHealed { peer } => format!("{who} can reach {} again", node_name(*peer)),
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
        Event::FailedOpen => {
            format!("{who} cannot reach the coordinator and fails open: it proceeds without a lock")
        }
        Event::JobAborted { why } => format!(
            "{who} stops its job: {}",
            match why {
                AbortWhy::LostLease => "it lost the lease",
                AbortWhy::CoordinatorUnreachable =>
                    "the coordinator is unreachable and it fails closed",
                AbortWhy::StorageUnreachable => "storage is unreachable",
            }
        ),
        Event::MessageHeld { to, extra_ms } => {
            format!(
                "{who}'s next message to {} will be held for {}",
                node_name(*to),
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
            node_name(*c)
        ),
        Event::FailedOver { lost: None } => format!("a new leader took over as {who}"),
        Event::LeaseExtended { client, .. } => format!(
            "the new leader extended {}'s lease to a full TTL — longer than it would have lasted",
            node_name(*client)
        ),
        Event::SessionInvalidated { client, token } => format!(
            "{who} wrongly declared {}'s session dead (a health-check false positive){}",
            node_name(*client),
            if token.is_some() { ": its lock is released while it still works" } else { "" }
        ),
        Event::LockDelayed { until_local } => format!(
            "{who} holds the lock back (lock-delay) until {} on its clock",
            secs(*until_local)
        ),
        _ => return None,
    };
    Some(s)
}

/// "token 33", or "no token" for the services that give none (Redis, Redlock).
fn tok(token: u64) -> String {
    if token == 0 {
        "no token".into()
    } else {
        format!("token {token}")
    }
}

/// How a run ended, in one sentence, from the verdict: the first violation's cause, or the
/// fence's first refusal, or plain safety.
pub fn ending(verdict: &Verdict) -> String {
    if let Some(v) = verdict.violations.first() {
        let more = verdict.violations.len() - 1;
        let tail = match more {
            0 => String::new(),
            1 => " (and 1 more violation)".to_string(),
            n => format!(" (and {n} more violations)"),
        };
        return format!("End of run — unsafe: {}{tail}.", v.cause);
    }
    match verdict.rejections.first() {
        Some(r) => format!(
            "End of run — safe: the fence rejected {}'s stale write ({}), so no superseded holder changed the data.",
            node_name(r.client),
            r.reason
        ),
        None => "End of run — safe: storage never accepted a write from a superseded holder.".to_string(),
    }
}

/// A verdict in a few words, for a line beside another run's: "unsafe — <first cause>",
/// or "safe", saying how many writes the fence refused if it refused any.
pub fn verdict_line(v: &Verdict) -> String {
    match (v.violations.first(), v.rejections.len()) {
        (Some(x), _) => format!("unsafe — {}", x.cause),
        (None, 0) => "safe".to_string(),
        (None, n) => format!("safe — the fence refused {n} write(s)"),
    }
}

/// The time of the entry, for views that list sentences.
pub fn time_of(trace: &Trace, i: usize) -> Time {
    trace.entries.get(i).map_or(Time::ZERO, |e| e.t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::projection::Projection;
    use crate::scenario::preset;
    use crate::sim::simulate;

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
            "safe — the fence refused 1 write(s)"
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
        let expired = find("t = 30.0 s: the coordinator expired client 1's lease (token 33); client 1 still believes it holds token 33");
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
        assert!(lines.len() >= 8, "{told:#?}");
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

    #[test]
    fn fenced_gc_pause_says_why_the_write_was_rejected() {
        assert!(sentences("gc-pause-fenced")
            .iter()
            .any(|x| x.ends_with("storage rejected client 1's write: token 33 < 34")));
    }
}
