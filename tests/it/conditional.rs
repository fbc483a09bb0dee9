//! The `conditional-write` lesson: a read-modify-write guarded by a lease that breaks loses
//! an update; the same job with no lock, writing back only if the version it read is
//! unchanged, loses none. Each sentence of the lesson with a number, a value or an order in
//! it is read here from the run it describes, and the new steps, messages and event are
//! checked where they cross the codec, the validator and the exporters.

use crate::common;
use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::msg::RejectReason;
use leaseline::model::recorded;
use leaseline::model::scenario::{Scenario, Step};
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Event, Trace};
use leaseline::vocab::ids::NodeId;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

use crate::common::{open, run};

/// Every read storage served: (time, client, version).
fn reads(t: &Trace) -> Vec<(i64, NodeId, u64)> {
    t.entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::ReadServed {
                client, version, ..
            } => Some((e.t.0, *client, *version)),
            _ => None,
        })
        .collect()
}

/// Every accepted write: (time, client, value).
fn accepted(t: &Trace) -> Vec<(i64, NodeId, String)> {
    t.entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::WriteAccepted { client, value, .. } => Some((e.t.0, *client, value.to_string())),
            _ => None,
        })
        .collect()
}

fn kinds(t: &Trace) -> Vec<ViolationKind> {
    check(t).violations.iter().map(|v| v.kind).collect()
}

#[test]
fn under_a_broken_lease_client_1_writes_back_over_client_2s_entry() {
    let t = run("conditional-write");
    // Both read the empty ledger at version 0; client 2 writes first, under token 34.
    assert_eq!(reads(&t), [(15, C1, 0), (30_015, C2, 0)]);
    assert_eq!(
        accepted(&t),
        [
            (31_025, C2, "+30 (c2)".to_string()),
            (45_005, C1, "+50 (c1)".to_string())
        ]
    );
    let pause = t.entries.iter().find_map(|e| match e.event {
        Event::Paused { for_ms, .. } if e.node == C1 => Some((e.t.0, for_ms)),
        _ => None,
    });
    assert_eq!(pause, Some((5_000, 40_000)));
    assert_eq!(common::grants(&t), [(C1, 33), (C2, 34)]);
    let k = kinds(&t);
    assert!(k.contains(&ViolationKind::LostUpdate), "{k:?}");
    assert!(k.contains(&ViolationKind::StaleWrite), "{k:?}");
}

#[test]
fn with_no_lock_and_a_conditional_write_storage_refuses_the_stale_writer_who_retries() {
    let t = run("conditional-write/conditional");
    assert!(!t.entries.iter().any(|e| matches!(
        e.event,
        Event::LeaseGranted { .. } | Event::BeliefStarted { .. }
    )));
    let refused: Vec<(i64, NodeId, RejectReason)> = t
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::WriteRejected { client, reason, .. } => Some((e.t.0, *client, reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        refused,
        [(45_005, C1, RejectReason::VersionChanged { read: 0, now: 1 })]
    );
    // Client 1 reads again, now at version 1, and adds its entry to client 2's.
    assert_eq!(reads(&t), [(5, C1, 0), (1_005, C2, 0), (45_015, C1, 1)]);
    assert_eq!(
        accepted(&t),
        [
            (2_015, C2, "+30 (c2)".to_string()),
            (55_025, C1, "+30 (c2), +50 (c1)".to_string())
        ]
    );
    let v = check(&t);
    assert!(v.safe, "{:?}", v.violations);
    assert!(v.progress.clients.iter().all(|c| c.writes_lost == 0));
    assert_eq!(v.progress.headline(), None);
}

#[test]
fn with_no_lock_and_no_condition_the_version_rule_finds_the_lost_update() {
    let t = run("conditional-write/blind");
    assert_eq!(
        accepted(&t),
        [
            (2_015, C2, "+30 (c2)".to_string()),
            (45_005, C1, "+50 (c1)".to_string())
        ]
    );
    let v = check(&t);
    let k: Vec<ViolationKind> = v.violations.iter().map(|v| v.kind).collect();
    assert_eq!(k, [ViolationKind::LostUpdate]);
    assert!(
        v.violations[0].cause.contains("version 0") && v.violations[0].cause.contains("version 1"),
        "{}",
        v.violations[0].cause
    );
}

#[test]
fn the_read_and_update_steps_round_trip_and_an_update_needs_a_read() {
    let sc = open("conditional-write/conditional");
    let back = Scenario::from_json(&sc.to_json_pretty()).unwrap();
    assert_eq!(back, sc);
    assert!(sc.clients[0].job.iter().any(|s| matches!(
        s,
        Step::Update {
            if_unchanged: true,
            ..
        }
    )));
    let mut bad = sc.clone();
    bad.clients[1]
        .job
        .retain(|s| !matches!(s, Step::Read { .. }));
    let err = Scenario::from_json(&bad.to_json_pretty()).unwrap_err();
    assert!(err.to_string().contains("clients[1].job[1].key"), "{err}");
}

#[test]
fn the_exporters_carry_reads_and_conditional_writes_without_panicking() {
    for name in [
        "conditional-write",
        "conditional-write/conditional",
        "conditional-write/blind",
    ] {
        let t = run(name);
        let edn = recorded::jepsen::export(&t);
        assert!(edn.contains(":write"), "{name}");
        let text = recorded::export(&t, Some(name), "generic");
        let back = recorded::to_trace(&recorded::parse(&text).unwrap());
        let kinds_back: Vec<ViolationKind> =
            check(&back).violations.iter().map(|v| v.kind).collect();
        assert_eq!(kinds_back, kinds(&t), "{name}");
    }
    let edn = recorded::jepsen::export(&run("conditional-write/conditional"));
    assert!(edn.contains(":error :version-changed"), "{edn}");
}

#[test]
fn a_client_out_of_attempts_gives_up_its_update_and_nothing_is_lost_silently() {
    let mut sc = open("conditional-write/conditional");
    sc.clients[0].retry.max_attempts = 1;
    let t = simulate(&sc).unwrap();
    let aborted = t.entries.iter().find_map(|e| match e.event {
        Event::JobAborted { why } if e.node == C1 => Some((e.t.0, why)),
        _ => None,
    });
    assert_eq!(
        aborted,
        Some((
            45_010,
            leaseline::model::trace::AbortWhy::VersionConflicts { times: 1 }
        ))
    );
    let v = check(&t);
    assert!(v.safe);
    assert_eq!(v.progress.clients[0].writes_lost, 1);
    assert_eq!(accepted(&t), [(2_015, C2, "+30 (c2)".to_string())]);
}
