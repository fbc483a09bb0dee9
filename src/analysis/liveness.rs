//! Progress: did the clients get their work done? Read beside safety, never instead of it.
//!
//! Safety says nothing bad happened; a system that does nothing keeps it trivially. A fence
//! that refuses every write (a Redis lock, which issues no token, behind a monotone fence)
//! is "safe" and useless, and a client that fails closed is safe because it never runs.
//! So the verdict also says, per client, whether its job ran to the end and whether its
//! writes landed — a liveness report, not a violation: it never changes
//! [`Verdict::safe`](crate::analysis::check::Verdict::safe).
//!
//! Like the checker it reads the trace only: `JobStarted` / `JobFinished` / `JobAborted`
//! on the client's lane, `BeliefStarted` (a client took the lock), and storage's
//! `WriteAccepted` / `WriteRejected` naming the client. A write is its client, key and
//! value (a refusal's value is read from the message storage had just received), so a
//! refused write counts as lost unless the same write landed too — an earlier copy of a
//! retried write, or the step run again after a re-acquire. Every client has one job (the model's
//! rule), so a client lane with no `JobStarted` is a job the run ended before it began;
//! a job with neither end was still under way (queued, retrying) when the run stopped.
//! A recorded trace may leave the job lines out: a client that asked for the lock, held
//! it or sent a write with no `JobStarted` before did start — its trace does not say
//! when, or whether it ended — so its job is *unrecorded*, and only its refused writes
//! count against it.
//!
//! **Superseded or stalled.** When a client's work is left undone and another client took
//! the lock after its latest grant (its lease ran out and the next holder was granted),
//! stopping it is what a lock and a fence are for: the lock moved on, and the old holder
//! has to redo its work under a new grant. That is reported, but it is not a failure to
//! make progress. A client whose work is left undone while nobody took the lock after it
//! — refused while it was the newest holder, failed closed, never granted, never
//! started — is *stalled*: the liveness failure a "safe" verdict would otherwise hide.

use crate::model::msg::{Msg, RejectReason};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;
use serde::Serialize;

/// How a client's job ended, as far as the trace tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobEnd {
    /// The run stopped before the job began.
    NotStarted,
    /// The job began and neither finished nor aborted before the run stopped.
    Unfinished,
    /// The job stopped early: it lost its lease (and its policy was to stop), or could
    /// not reach the coordinator or storage.
    Aborted,
    /// Every step ran (even if some of its writes were refused on the way).
    Finished,
    /// A recorded trace with no job lines for a client that acted (sent a request, took
    /// the lock) before any: it started, and the trace does not say how its job ended. The
    /// model always records its jobs, so its runs never have one.
    Unrecorded,
}

/// One client's work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClientProgress {
    pub client: NodeId,
    pub job: JobEnd,
    /// Why the job aborted ("lost the lease", …); empty unless `job` is `Aborted`.
    pub why: String,
    /// The trace entry where the job stopped (finished or aborted), else the client's
    /// latest entry; for a job that never began, the run's last entry. And its time.
    pub entry: u32,
    pub at: Time,
    pub writes_accepted: u32,
    pub writes_refused: u32,
    /// Refused writes the client never redid (no later acceptance of the same key).
    pub writes_lost: u32,
    /// The reasons storage gave, each once, in the order first given.
    pub reasons: Vec<String>,
    /// For work left undone: the client that took the lock after this one's latest
    /// grant (`None`: nobody did — or the work got done).
    pub superseded_by: Option<NodeId>,
}

impl ClientProgress {
    /// The client's work did not get done: its job did not finish, or a write of it
    /// was refused and never redone.
    pub fn incomplete(&self) -> bool {
        !matches!(self.job, JobEnd::Finished | JobEnd::Unrecorded) || self.writes_lost > 0
    }

    /// Its work did not get done, and not because another client took the lock from
    /// it: the liveness failure.
    pub fn stalled(&self) -> bool {
        self.incomplete() && self.superseded_by.is_none()
    }

    /// What happened to the job, in a few words: "aborted its job (lost the lease)".
    pub fn how(&self) -> String {
        match self.job {
            JobEnd::NotStarted => "never started its job".into(),
            JobEnd::Unfinished => "had not finished its job when the run stopped".into(),
            JobEnd::Aborted => format!("aborted its job ({})", self.why),
            JobEnd::Finished => "finished its steps, but a refused write never landed".into(),
            JobEnd::Unrecorded => "recorded no job lines, and a refused write never landed".into(),
        }
    }

    /// One line for the verdict list and the CLI: "client 2 aborted its job (lost the
    /// lease); 1 write refused: no fencing token". (Built by pushing, not formatting:
    /// every `format!` is code in the wasm bundle.)
    pub fn line(&self) -> String {
        let mut s = self.client.name();
        if let Some(by) = self.superseded_by {
            s += " lost the lock to ";
            s += &by.name();
            s += " and";
        }
        s += " ";
        s += &self.how();
        if self.writes_refused > 0 {
            s += "; ";
            s += &writes(self.writes_refused);
            s += " refused: ";
            s += &self.reasons.join("; ");
        }
        s
    }
}

/// The run's progress: one row per client, in lane order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub clients: Vec<ClientProgress>,
}

impl Progress {
    /// The clients whose work did not get done, superseded or stalled.
    pub fn incomplete(&self) -> impl Iterator<Item = &ClientProgress> {
        self.clients.iter().filter(|c| c.incomplete())
    }

    /// No client stalled: every client's work got done, or was stopped because a newer
    /// holder took over.
    pub fn live(&self) -> bool {
        !self.clients.iter().any(ClientProgress::stalled)
    }

    pub fn jobs_finished(&self) -> u32 {
        let done = self.clients.iter().filter(|c| c.job == JobEnd::Finished);
        done.count() as u32
    }

    /// The jobs the trace tells the course of: every client's but an unrecorded one's.
    pub fn jobs_recorded(&self) -> u32 {
        let told = self.clients.iter().filter(|c| c.job != JobEnd::Unrecorded);
        told.count() as u32
    }

    /// Writes refused, over every client.
    pub fn writes_refused(&self) -> u32 {
        self.clients.iter().map(|c| c.writes_refused).sum()
    }

    /// What the verdict adds after "Safe — but": "client 2's work never completed (3
    /// writes refused)", naming the stalled clients. `None` when none stalled.
    pub fn headline(&self) -> Option<String> {
        let left: Vec<&ClientProgress> = self.clients.iter().filter(|c| c.stalled()).collect();
        let first = left.first()?;
        let names: Vec<String> = left.iter().map(|c| c.client.name()).collect();
        let mut s = match names.len() {
            1 => first.client.name() + "'s work",
            _ => "the work of ".to_string() + &names.join(" and "),
        };
        s += " never completed (";
        let refused: u32 = left.iter().map(|c| c.writes_refused).sum();
        match first.job {
            _ if refused > 0 => {
                s += &writes(refused);
                s += " refused";
            }
            JobEnd::NotStarted => s += "not started when the run stopped",
            JobEnd::Aborted => {
                s += "aborted: ";
                s += &first.why;
            }
            JobEnd::Unfinished | JobEnd::Finished | JobEnd::Unrecorded => {
                s += "still under way when the run stopped"
            }
        }
        s += ")";
        Some(s)
    }
}

/// "1 write", "3 writes".
fn writes(n: u32) -> String {
    n.to_string() + if n == 1 { " write" } else { " writes" }
}

/// Reads every client's progress from the trace, in one pass.
pub fn progress(trace: &Trace) -> Progress {
    let last = trace.entries.len().saturating_sub(1) as u32;
    let mut clients: Vec<ClientProgress> = trace
        .nodes
        .iter()
        .filter(|(n, _)| n.is_client())
        .map(|&(client, _)| ClientProgress {
            client,
            job: JobEnd::NotStarted,
            why: String::new(),
            entry: last,
            at: trace.entries.last().map_or(Time::ZERO, |e| e.t),
            writes_accepted: 0,
            writes_refused: 0,
            writes_lost: 0,
            reasons: Vec::new(),
            superseded_by: None,
        })
        .collect();
    let lanes: Vec<NodeId> = clients.iter().map(|c| c.client).collect();
    let slot = |n: NodeId| lanes.iter().position(|m| *m == n);
    // Per client: whether it has held the lock (who took it after is `superseded_by`).
    let mut held = vec![false; lanes.len()];
    // A write is its client, key and value: a retried copy or a re-run step is the same
    // write. Refused ones not (yet) landed, and landed ones.
    let mut refused: Vec<(usize, &str, &str)> = Vec::new();
    let mut landed: Vec<(usize, &str, &str)> = Vec::new();
    // Conditional writes refused because the key changed since the read: the retry
    // writes what is there now, so a different value. Redone once the client lands any
    // write to that key.
    let mut conflicted: Vec<(usize, &str)> = Vec::new();
    // The values of writes sent, by message id, and the message storage took last: a
    // refusal is noted right after the message it refuses is received. (A plain list:
    // a map type would add its own code to the wasm bundle for a handful of writes.)
    let mut sent: Vec<(u32, &str)> = Vec::new();
    let mut storage_took: Option<u32> = None;
    for (i, e) in trace.entries.iter().enumerate() {
        match &e.event {
            Event::Sent {
                id,
                msg: Msg::Write { value, .. } | Msg::WriteIf { value, .. },
                ..
            } => {
                sent.push((*id, &**value));
            }
            Event::Received { id, .. } if e.node == NodeId::Storage => storage_took = Some(*id),
            Event::WriteAccepted {
                client, key, value, ..
            } => {
                if let Some(c) = slot(*client) {
                    clients[c].writes_accepted += 1;
                    let w = (c, &**key, &**value);
                    refused.retain(|r| *r != w);
                    conflicted.retain(|r| *r != (c, &**key));
                    landed.push(w);
                }
            }
            Event::WriteRejected {
                client,
                key,
                reason,
                ..
            } => {
                if let Some(c) = slot(*client) {
                    let row = &mut clients[c];
                    row.writes_refused += 1;
                    let words = reason.to_string();
                    if !row.reasons.contains(&words) {
                        row.reasons.push(words);
                    }
                    if let RejectReason::VersionChanged { .. } = reason {
                        conflicted.push((c, &**key));
                    } else {
                        let value = sent.iter().rev().find(|(id, _)| Some(*id) == storage_took);
                        let w = (c, &**key, value.map_or("", |(_, v)| *v));
                        if !landed.contains(&w) {
                            refused.push(w);
                        }
                    }
                }
            }
            _ => {}
        }
        let Some(c) = slot(e.node) else {
            continue;
        };
        let row = &mut clients[c];
        // A client that sends or takes the lock with no job line before it (a recorded
        // trace's) has started a job the trace does not tell of.
        if row.job == JobEnd::NotStarted && e.event.shows_job_under_way() {
            row.job = JobEnd::Unrecorded;
        }
        match &e.event {
            Event::JobStarted => row.job = JobEnd::Unfinished,
            Event::JobFinished => row.job = JobEnd::Finished,
            Event::JobAborted { why } => {
                row.job = JobEnd::Aborted;
                row.why = why.words();
            }
            Event::BeliefStarted { .. } => {
                // A new grant: an earlier takeover no longer counts against this client,
                // and every other client that has held the lock is superseded (by the
                // first grant after its own).
                row.superseded_by = None;
                held[c] = true;
                for (o, other) in clients.iter_mut().enumerate() {
                    if o != c && held[o] && other.superseded_by.is_none() {
                        other.superseded_by = Some(e.node);
                    }
                }
            }
            _ => {}
        }
        // A finished or aborted job points at where it stopped; a running one at the
        // client's latest entry.
        let row = &mut clients[c];
        let stops = matches!(e.event, Event::JobFinished | Event::JobAborted { .. });
        if matches!(row.job, JobEnd::Unfinished | JobEnd::Unrecorded) || stops {
            (row.entry, row.at) = (i as u32, e.t);
        }
    }
    for (c, row) in clients.iter_mut().enumerate() {
        row.writes_lost = (refused.iter().filter(|r| r.0 == c).count()
            + conflicted.iter().filter(|r| r.0 == c).count()) as u32;
        // A takeover after the work got done changes nothing.
        if !row.incomplete() {
            row.superseded_by = None;
        }
    }
    Progress { clients }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::msg::RejectReason;
    use crate::model::trace::by_hand;

    const C1: NodeId = NodeId::Client(0);
    const C2: NodeId = NodeId::Client(1);

    fn trace(events: Vec<Vec<(NodeId, Event)>>) -> Trace {
        let nodes = [C1, C2, NodeId::COORD, NodeId::Storage];
        by_hand(&nodes, events.concat())
    }

    fn on(client: NodeId, event: Event) -> Vec<(NodeId, Event)> {
        vec![(client, event)]
    }

    fn started(client: NodeId) -> Vec<(NodeId, Event)> {
        on(client, Event::JobStarted)
    }

    fn finished(client: NodeId) -> Vec<(NodeId, Event)> {
        on(client, Event::JobFinished)
    }

    fn aborted(client: NodeId) -> Vec<(NodeId, Event)> {
        let why = crate::model::trace::AbortWhy::LostLease;
        on(client, Event::JobAborted { why })
    }

    fn believe(client: NodeId) -> Vec<(NodeId, Event)> {
        let e = Event::BeliefStarted {
            token: 0,
            epoch: 0,
            deadline_local: 30_000,
        };
        on(client, e)
    }

    fn accept(client: NodeId, value: &str) -> Vec<(NodeId, Event)> {
        let e = Event::WriteAccepted {
            client,
            key: "k".into(),
            value: value.into(),
            token: None,
            epoch: None,
            replaced_epoch: None,
            mark: None,
        };
        on(NodeId::Storage, e)
    }

    /// The write of `value` (message `id`) leaves, storage takes it and refuses it.
    fn refuse(client: NodeId, value: &str, id: u32) -> Vec<(NodeId, Event)> {
        let msg = Msg::Write {
            req: id,
            key: "k".into(),
            value: value.into(),
            token: None,
            epoch: None,
        };
        let to = NodeId::Storage;
        let rejected = Event::WriteRejected {
            client,
            key: "k".into(),
            token: None,
            reason: RejectReason::NoToken,
        };
        vec![
            (
                client,
                Event::Sent {
                    id,
                    to,
                    msg,
                    arrives: None,
                },
            ),
            (to, Event::Received { id, from: client }),
            (to, rejected),
        ]
    }

    #[test]
    fn a_run_where_every_job_finishes_reports_nothing() {
        let p = progress(&trace(vec![
            started(C1),
            started(C2),
            accept(C1, "a"),
            finished(C1),
            accept(C2, "b"),
            finished(C2),
        ]));
        assert!(p.live() && p.incomplete().next().is_none());
        assert_eq!(p.headline(), None);
        assert_eq!(p.jobs_finished(), 2);
        assert_eq!((p.clients[0].entry, p.clients[0].at), (3, Time(3000)));
        assert_eq!(p.clients[1].writes_accepted, 1);
    }

    #[test]
    fn a_job_that_never_finishes_is_named_with_its_refused_writes() {
        let p = progress(&trace(vec![
            started(C1),
            started(C2),
            accept(C1, "a"),
            finished(C1),
            refuse(C2, "b", 1),
            refuse(C2, "b", 2),
            refuse(C2, "b", 3),
            aborted(C2),
        ]));
        assert!(!p.live());
        let c2 = &p.clients[1];
        assert_eq!(
            (c2.job, c2.entry, c2.writes_refused, c2.writes_lost),
            (JobEnd::Aborted, 13, 3, 3)
        );
        assert_eq!(c2.reasons, ["no fencing token"]);
        assert_eq!(
            p.headline().as_deref(),
            Some("client 2's work never completed (3 writes refused)")
        );
        assert_eq!(
            c2.line(),
            "client 2 aborted its job (lost the lease); 3 writes refused: no fencing token"
        );
    }

    #[test]
    fn a_job_still_under_way_or_never_started_is_unfinished() {
        let p = progress(&trace(vec![
            started(C1),
            on(C1, Event::StepStarted { step: 0 }),
        ]));
        assert_eq!(p.clients[0].job, JobEnd::Unfinished);
        assert_eq!(p.clients[0].entry, 1, "its latest entry");
        assert_eq!(p.clients[1].job, JobEnd::NotStarted);
        assert_eq!(p.clients[1].entry, 1, "the run's last entry");
        assert_eq!(
            p.headline().as_deref(),
            Some("the work of client 1 and client 2 never completed (still under way when the run stopped)")
        );
    }

    /// A recorded trace need not write job lines: a client that held the lock and wrote
    /// without them did start, and is not said to have "never started its job". Only a
    /// refused write it never redid counts against it; a client that did nothing at all is
    /// still one that never started.
    #[test]
    fn a_client_that_acted_without_job_lines_has_an_unrecorded_job() {
        let p = progress(&trace(vec![believe(C1), accept(C1, "a")]));
        assert_eq!(p.clients[0].job, JobEnd::Unrecorded);
        assert_eq!(p.clients[1].job, JobEnd::NotStarted);
        assert!(!p.clients[0].incomplete());
        assert_eq!(p.jobs_recorded(), 1);
        let p = progress(&trace(vec![
            believe(C1),
            accept(C1, "a"),
            believe(C2),
            accept(C2, "b"),
        ]));
        assert!(p.live() && p.incomplete().next().is_none());
        assert_eq!((p.headline(), p.jobs_recorded()), (None, 0));
        // A refused write never redone is still work not done, said as the trace tells it.
        let p = progress(&trace(vec![
            believe(C2),
            accept(C2, "b"),
            refuse(C1, "a", 1),
        ]));
        let c1 = &p.clients[0];
        assert_eq!((c1.job, c1.writes_lost), (JobEnd::Unrecorded, 1));
        assert_eq!(
            c1.line(),
            "client 1 recorded no job lines, and a refused write never landed; 1 write refused: no fencing token"
        );
        assert_eq!(
            p.headline().as_deref(),
            Some("client 1's work never completed (1 write refused)")
        );
    }

    /// A client that carried on after a refusal finished its steps, but its write never
    /// landed — unless the same write landed too: redone, or an earlier copy of it.
    #[test]
    fn a_refused_write_is_lost_unless_the_same_write_landed() {
        let carried_on = progress(&trace(vec![
            started(C1),
            refuse(C1, "a", 1),
            finished(C1),
            started(C2),
            finished(C2),
        ]));
        assert_eq!(carried_on.clients[0].writes_lost, 1);
        assert_eq!(
            carried_on.headline().as_deref(),
            Some("client 1's work never completed (1 write refused)")
        );
        let redone = vec![started(C1), refuse(C1, "a", 1), accept(C1, "a")];
        let copy_landed_first = vec![started(C1), accept(C1, "a"), refuse(C1, "a", 1)];
        for mut events in [redone, copy_landed_first] {
            events.extend([finished(C1), started(C2), finished(C2)]);
            let p = progress(&trace(events));
            assert_eq!(p.clients[0].writes_lost, 0);
            assert!(p.live() && p.incomplete().next().is_none());
        }
        // A different value refused is still lost.
        let other = progress(&trace(vec![
            started(C1),
            accept(C1, "a"),
            refuse(C1, "z", 1),
            finished(C1),
        ]));
        assert_eq!(other.clients[0].writes_lost, 1);
    }

    /// A conditional write refused because the key changed is redone by any later write of
    /// that client to that key: the retry writes what it read again, so another value.
    #[test]
    fn a_version_refusal_is_redone_by_a_later_write_to_the_key() {
        let conflict = on(
            NodeId::Storage,
            Event::WriteRejected {
                client: C1,
                key: "k".into(),
                token: None,
                reason: RejectReason::VersionChanged { read: 0, now: 1 },
            },
        );
        let never = progress(&trace(vec![started(C1), conflict.clone(), finished(C1)]));
        assert_eq!(never.clients[0].writes_lost, 1);
        let redone = progress(&trace(vec![
            started(C1),
            conflict,
            accept(C1, "b, a"),
            finished(C1),
        ]));
        assert_eq!(redone.clients[0].writes_lost, 0);
    }

    /// The stale holder stopped by the fence is reported, but it is not stalled: the
    /// newer holder took the lock from it. The newer holder refused too is stalled.
    #[test]
    fn a_client_stopped_after_another_took_the_lock_is_superseded_not_stalled() {
        let p = progress(&trace(vec![
            started(C1),
            believe(C1),
            started(C2),
            believe(C2),
            accept(C2, "b"),
            finished(C2),
            refuse(C1, "a", 1),
            aborted(C1),
        ]));
        assert_eq!(p.clients[0].superseded_by, Some(C2));
        assert!(p.clients[0].incomplete() && !p.clients[0].stalled());
        assert!(p.live());
        assert_eq!(p.headline(), None);
        assert_eq!(
            p.clients[0].line(),
            "client 1 lost the lock to client 2 and aborted its job (lost the lease); 1 write refused: no fencing token"
        );
        // Both refused (no token at all): client 2 held the newest grant, so it stalled.
        let p = progress(&trace(vec![
            started(C1),
            believe(C1),
            started(C2),
            believe(C2),
            refuse(C2, "b", 1),
            aborted(C2),
            refuse(C1, "a", 2),
            aborted(C1),
        ]));
        assert_eq!(p.clients[1].superseded_by, None);
        assert_eq!(
            p.headline().as_deref(),
            Some("client 2's work never completed (1 write refused)")
        );
    }

    /// Re-acquiring clears an earlier takeover: the client holds again.
    #[test]
    fn a_new_grant_clears_an_earlier_takeover() {
        let p = progress(&trace(vec![
            started(C1),
            believe(C1),
            believe(C2),
            believe(C1),
            refuse(C1, "a", 1),
            finished(C1),
        ]));
        assert_eq!(p.clients[0].superseded_by, None);
        assert!(p.clients[0].stalled());
    }
}
