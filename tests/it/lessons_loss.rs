//! The lessons about what a client does around a loss of its lock, each sentence with a
//! number or an order in it read from the run it describes: noticing the loss from its
//! own side (`watch-reachability`), what it does once it knows (`reacquire-after-loss`),
//! and a lock service whose sessions cannot lose it to a health check
//! (`session-checks-tradeoff`). A model change that moves one of these moments fails here,
//! naming the claim.

use leaseline::analysis::check::check;
use leaseline::model::scenario::{Fault, FaultKind, PauseCause};
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Entry, Event, LossHow, Trace};
use leaseline::vocab::ids::NodeId;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);
const COORD: NodeId = NodeId::COORD;
const DB: NodeId = NodeId::Storage;

use crate::common::{open, run};

/// The true time (ms) of the first entry that matches.
fn first(t: &Trace, p: impl Fn(&Entry) -> bool) -> Option<i64> {
    t.entries.iter().find(|e| p(e)).map(|e| e.t.0)
}

fn accepted(t: &Trace, client: NodeId) -> Vec<(i64, Option<u64>)> {
    t.entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::WriteAccepted {
                client: c, token, ..
            } if *c == client => Some((e.t.0, *token)),
            _ => None,
        })
        .collect()
}

fn granted(t: &Trace, client: NodeId) -> Vec<(i64, u64)> {
    t.entries
        .iter()
        .filter_map(|e| match e.event {
            Event::LeaseGranted {
                client: c, token, ..
            } if c == client => Some((e.t.0, token)),
            _ => None,
        })
        .collect()
}

// ------------------------------------------------------------------ watch-reachability

/// The lesson's run: cut off at 5 s, the service frees the lock at 13.015 s and client 2
/// writes with token 34; client 1's own count ran to 13.02 s (from the last reply), its
/// watchdog's last look was at 12.01 s, and its write with token 33 lands at 13.515 s,
/// with no look in between.
#[test]
fn watch_reachability_the_late_count_and_the_unlooked_write() {
    let t = run("watch-reachability");
    let cut = first(&t, |e| {
        e.node == C1 && matches!(e.event, Event::LinkCut { peer } if peer == COORD)
    });
    assert_eq!(cut, Some(5_000));
    let expired = first(
        &t,
        |e| matches!(e.event, Event::LeaseExpired { client, .. } if client == C1),
    );
    assert_eq!(expired, Some(13_015));
    assert_eq!(granted(&t, C2), vec![(13_015, 34)]);
    let c2 = accepted(&t, C2);
    let c1 = accepted(&t, C1);
    assert_eq!(c1, vec![(13_515, Some(33))]);
    assert!(c2.iter().any(|&(at, tok)| tok == Some(34) && at < 13_515));
    // Its own count, from the last reply heard: 5 ms after the service's.
    let last_deadline = t
        .entries
        .iter()
        .filter(|e| e.node == C1)
        .filter_map(|e| match e.event {
            Event::DeadlineExtended { deadline_local, .. } => Some(deadline_local),
            _ => None,
        })
        .next_back();
    assert_eq!(last_deadline, Some(13_020));
    // Its watchdog looks only as a renewal falls due: the last look before the write was
    // at 12.01 s, and the write came before the next.
    let renewals: Vec<i64> = t
        .entries
        .iter()
        .filter(|e| e.node == C1)
        .filter_map(|e| match &e.event {
            Event::Sent { msg, .. } if format!("{msg:?}").starts_with("Renew") => Some(e.t.0),
            _ => None,
        })
        .collect();
    assert_eq!(renewals.iter().rev().find(|&&r| r < 13_515), Some(&12_010));
    assert!(
        renewals.iter().all(|r| r % 2_000 == 10),
        "every 2 s: {renewals:?}"
    );
    let v = check(&t);
    assert!(!v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 1);
}

/// The fix: counted from when each renewal left, less 1 s, the count ends at 12.01 s; the
/// watchdog's look then ends the belief and stops the job, before the service frees the
/// lock at 13.015 s. Client 1 never writes.
#[test]
fn watch_reachability_the_watcher_stops_before_the_service_frees_the_lock() {
    let t = run("watch-reachability/watch-silence");
    let ended = first(&t, |e| {
        e.node == C1
            && matches!(
                e.event,
                Event::BeliefEnded {
                    how: LossHow::WatchdogExpired,
                    ..
                }
            )
    });
    assert_eq!(ended, Some(12_010));
    let expired = first(
        &t,
        |e| matches!(e.event, Event::LeaseExpired { client, .. } if client == C1),
    );
    assert_eq!(expired, Some(13_015));
    assert!(first(&t, |e| e.node == C1
        && matches!(e.event, Event::JobAborted { .. }))
    .is_some());
    assert!(accepted(&t, C1).is_empty());
    assert!(check(&t).safe);
}

/// What watching cannot do, as the lesson says: a short pause of client 1 just after the
/// cut moves its watchdog's looks, and the write slips in before the next one. Storage that
/// checks the token refuses token 33 in the base run.
#[test]
fn watch_reachability_a_pause_slips_past_the_watcher_not_past_the_fence() {
    let mut sc = open("watch-reachability/watch-silence");
    sc.faults.push(Fault {
        after: None,
        at_ms: 5_001,
        kind: FaultKind::Pause {
            node: C1,
            for_ms: 2_509,
            cause: PauseCause::default(),
        },
    });
    let t = simulate(&sc).unwrap();
    assert!(!check(&t).safe, "the pause slips past the watcher");
    assert_eq!(accepted(&t, C1), vec![(13_515, Some(33))]);

    let t = run("watch-reachability/fencing");
    let refused = t.entries.iter().any(|e| {
        e.node == DB
            && matches!(e.event, Event::WriteRejected { client, token: Some(33), .. } if client == C1)
    });
    assert!(refused, "storage refuses token 33");
    assert!(check(&t).safe);
}

// ------------------------------------------------------------------ reacquire-after-loss

fn effects(t: &Trace, client: NodeId) -> (Vec<i64>, Vec<i64>) {
    let mut done = Vec::new();
    let mut dropped = Vec::new();
    for e in &t.entries {
        match &e.event {
            Event::EffectPerformed { client: c, .. } if *c == client => done.push(e.t.0),
            Event::EffectDeduplicated { client: c, .. } if *c == client => dropped.push(e.t.0),
            _ => {}
        }
    }
    (done, dropped)
}

fn progress_of(t: &Trace, client: NodeId) -> leaseline::analysis::liveness::ClientProgress {
    let v = check(t);
    v.progress
        .clients
        .into_iter()
        .find(|p| p.client == client)
        .unwrap()
}

/// The base: the invoice goes out at 2 s; client 1 freezes at 4 s for 15 s; client 2
/// takes token 34 and writes; client 1 wakes at 19 s, its watchdog sees the loss first,
/// the job logs it and its write with token 33 lands after client 2's.
#[test]
fn reacquire_after_loss_the_known_loss_is_ignored() {
    let t = run("reacquire-after-loss");
    assert_eq!(effects(&t, C1).0, vec![2_015]);
    assert_eq!(
        first(&t, |e| e.node == C1
            && matches!(e.event, Event::Paused { for_ms: 15_000, .. })),
        Some(4_000)
    );
    assert_eq!(
        granted(&t, C2).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![34]
    );
    let seen = first(&t, |e| {
        e.node == C1
            && matches!(
                e.event,
                Event::BeliefEnded {
                    how: LossHow::WatchdogExpired,
                    ..
                }
            )
    })
    .unwrap();
    let ignored = first(&t, |e| {
        e.node == C1 && matches!(e.event, Event::LossIgnored)
    })
    .unwrap();
    assert_eq!((seen, ignored), (19_000, 19_000));
    let c1 = accepted(&t, C1);
    assert_eq!(c1, vec![(19_005, Some(33))]);
    assert!(accepted(&t, C2).iter().all(|&(at, _)| at < 19_005));
    assert_eq!(check(&t).stats.stale_writes_accepted, 1);
}

/// Giving up: safe, and the job is left half done — the invoice went out once, the order
/// was never marked; the liveness report says client 2 superseded it (not a stall).
#[test]
fn reacquire_after_loss_giving_up_leaves_the_job_half_done() {
    let t = run("reacquire-after-loss/give-up");
    assert!(check(&t).safe);
    assert_eq!(effects(&t, C1).0.len(), 1, "the invoice went out");
    assert!(accepted(&t, C1).is_empty(), "the order was never marked");
    let p = progress_of(&t, C1);
    assert_eq!(p.job, leaseline::analysis::liveness::JobEnd::Aborted);
    assert_eq!(p.superseded_by, Some(C2));
    assert!(!p.stalled());
}

/// Taking the lock again: client 1 queues, gets token 35, and runs the job again from its
/// acquire — the invoice goes out a second time (a duplicate effect), the order is marked
/// with token 35 and the job finishes. With the idempotency key and a fence the same
/// second run is harmless: the repeat is dropped, the write lands, nothing is refused.
#[test]
fn reacquire_after_loss_runs_the_job_again_and_what_makes_that_harmless() {
    let t = run("reacquire-after-loss/reacquire");
    assert_eq!(
        granted(&t, C1).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![33, 35]
    );
    let (done, _) = effects(&t, C1);
    assert_eq!(done.len(), 2, "the invoice twice: {done:?}");
    assert_eq!(accepted(&t, C1), vec![(25_025, Some(35))]);
    let v = check(&t);
    assert!(!v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 0);
    assert_eq!(
        progress_of(&t, C1).job,
        leaseline::analysis::liveness::JobEnd::Finished
    );

    let t = run("reacquire-after-loss/reacquire-safely");
    assert_eq!(
        granted(&t, C1).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![33, 35]
    );
    let (done, dropped) = effects(&t, C1);
    assert_eq!((done.len(), dropped.len()), (1, 1));
    assert_eq!(accepted(&t, C1), vec![(25_025, Some(35))]);
    let v = check(&t);
    assert!(v.safe);
    assert_eq!(v.stats.writes_rejected, 0);
    assert!(v.progress.live());
}

// ------------------------------------------------------------------ session-checks-tradeoff

fn invalidated(t: &Trace) -> Vec<(i64, Option<u64>)> {
    t.entries
        .iter()
        .filter_map(|e| match e.event {
            Event::SessionInvalidated { client, token } if client == C1 => Some((e.t.0, token)),
            _ => None,
        })
        .collect()
}

/// With the checks (Consul's default): the false positive at 5 s ends client 1's session
/// and frees its lock; the 15 s lock-delay holds client 2 off until 20 s; client 2 takes
/// token 2 and writes; client 1's 22 s job writes at 22 s with token 1, over it. Then
/// client 1 hangs, holding nothing.
#[test]
fn session_checks_the_false_positive_gives_two_holders_a_turn() {
    let t = run("session-checks-tradeoff");
    assert_eq!(invalidated(&t), vec![(5_000, Some(1))]);
    let delayed = t.entries.iter().find_map(|e| match e.event {
        Event::LockDelayed { until_local } => Some((e.t.0, until_local)),
        _ => None,
    });
    assert_eq!(delayed, Some((5_000, 20_000)));
    assert_eq!(granted(&t, C2), vec![(20_000, 2)]);
    assert!(accepted(&t, C2)
        .iter()
        .all(|&(at, tok)| at < 22_000 && tok == Some(2)));
    assert_eq!(accepted(&t, C1), vec![(22_015, Some(1))]);
    assert_eq!(
        first(&t, |e| e.node == C1
            && matches!(e.event, Event::Paused { .. })),
        Some(23_000)
    );
    let v = check(&t);
    assert!(!v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 1);
}

/// Without checks the false positive ends nothing (not even a note in the trace), and
/// client 1 writes as the only holder. Its hang is then paid for by client 2: the session
/// ends only when its TTL does, at the servers' moment in [TTL, 2 × TTL] after the last
/// renewal, and the lock-delay follows. With no TTL either, client 2 never gets the lock,
/// and the verdict's progress report says neither job completed.
#[test]
fn session_checks_without_them_client_2_waits_out_the_ttl_or_forever() {
    let t = run("session-checks-tradeoff/no-checks");
    assert!(invalidated(&t).is_empty());
    assert_eq!(accepted(&t, C1), vec![(22_015, Some(1))]);
    let renewed = t
        .entries
        .iter()
        .filter_map(|e| match e.event {
            Event::LeaseRenewed { client, .. } if client == C1 => Some(e.t.0),
            _ => None,
        })
        .next_back()
        .unwrap();
    assert!(renewed < 23_000, "the last renewal came before the hang");
    let expired = first(
        &t,
        |e| matches!(e.event, Event::LeaseExpired { client, .. } if client == C1),
    )
    .unwrap();
    assert!((renewed + 15_000..=renewed + 30_000).contains(&expired));
    let c2 = granted(&t, C2);
    assert_eq!(c2.len(), 1);
    assert_eq!(c2[0].0, expired + 15_000, "then the lock-delay");
    assert!(c2[0].0 > 60_000, "client 2 waited a minute: {c2:?}");
    let v = check(&t);
    assert!(v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 0);

    let t = run("session-checks-tradeoff/no-checks-no-ttl");
    assert!(invalidated(&t).is_empty());
    assert!(granted(&t, C2).is_empty(), "client 2 never gets the lock");
    let v = check(&t);
    assert!(v.safe);
    assert_eq!(v.stats.jobs_finished, 0);
    let stalled: Vec<NodeId> = v
        .progress
        .clients
        .iter()
        .filter(|p| p.stalled())
        .map(|p| p.client)
        .collect();
    assert!(stalled.contains(&C2), "{stalled:?}");
}

/// Keeping the checks and fencing with the sequencer's LockIndex: the same false positive
/// and the same two holders, and storage refuses client 1's token 1 after token 2.
#[test]
fn session_checks_the_sequencer_refuses_the_late_write() {
    let t = run("session-checks-tradeoff/sequencer");
    assert_eq!(invalidated(&t), vec![(5_000, Some(1))]);
    let refused = t.entries.iter().any(|e| {
        e.node == DB
            && matches!(e.event, Event::WriteRejected { client, token: Some(1), .. } if client == C1)
    });
    assert!(refused);
    assert!(check(&t).safe);
}
