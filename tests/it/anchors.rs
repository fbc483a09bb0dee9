//! Faults placed by an event of the run ("1.337 s after client 1 acquires the lock"): the
//! run is exactly the run of the same fault written at the time the event gave, the
//! time is read back from the trace, an event that never comes leaves the run as it was,
//! and the scenario's JSON carries the anchor and refuses a bad one at its field.

use leaseline::model::scenario::{
    when, Anchor, AnchorEvent, Fault, FaultKind, FaultTime, PauseCause, Scenario,
};
use leaseline::model::sim::run;
use leaseline::teach::course::open;
use leaseline::teach::library::LESSONS;
use leaseline::view::export::slide::settings;
use leaseline::vocab::ids::NodeId;

/// The opening lesson and every lesson of the library.
fn lessons() -> Vec<(String, Scenario)> {
    let mut names = vec!["gc-pause".to_string()];
    names.extend(LESSONS.iter().map(|l| l.id.to_string()));
    names
        .into_iter()
        .map(|n| {
            let sc = open(&n).unwrap_or_else(|| panic!("{n} opens"));
            (n, sc)
        })
        .collect()
}

fn pause(node: NodeId, at_ms: i64, after: Option<Anchor>) -> Fault {
    Fault {
        at_ms,
        kind: FaultKind::Pause {
            node,
            for_ms: 4_000,
            cause: PauseCause::Gc,
        },
        after,
    }
}

#[test]
fn a_fault_after_an_event_is_the_run_with_its_time_written_in() {
    let mut compared = 0;
    for (name, sc) in lessons() {
        let base = run(&sc);
        for (_, event) in AnchorEvent::WORDS {
            for i in 0..sc.client_count() {
                let client = NodeId::Client(i);
                let anchor = Anchor {
                    event,
                    client,
                    nth: 1,
                };
                // When the event comes in the run without the fault: the fault comes
                // after it, so it cannot move it.
                let Some(t) = base
                    .entries
                    .iter()
                    .find(|e| anchor.is(e.node, &e.event))
                    .map(|e| e.t.0)
                else {
                    continue;
                };
                // An odd offset, so that the fault shares its instant with nothing else.
                let off = 1_337;
                let mut anchored = sc.clone();
                anchored.faults.push(pause(client, off, Some(anchor)));
                let mut fixed = sc.clone();
                fixed.faults.push(pause(client, t + off, None));
                let what = format!("{name}: pause {client} {off} ms after {}", anchor.phrase());
                anchored
                    .validate()
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let got = run(&anchored);
                assert_eq!(got, run(&fixed), "{what}");
                assert_eq!(
                    when(anchored.faults.last().unwrap(), &got),
                    FaultTime::After {
                        event_ms: t,
                        at_ms: t + off
                    },
                    "{what}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "{compared}");
}

#[test]
fn the_nth_event_counts_and_one_that_never_comes_leaves_the_run_as_it_was() {
    // gc-pause: client 1 writes, then client 2 acquires and writes.
    let sc = open("gc-pause").unwrap();
    let base = run(&sc);
    let c2 = NodeId::Client(1);
    let acquires: Vec<i64> = base
        .entries
        .iter()
        .filter(|e| {
            e.node == c2
                && matches!(
                    e.event,
                    leaseline::model::trace::Event::BeliefStarted { .. }
                )
        })
        .map(|e| e.t.0)
        .collect();
    assert!(!acquires.is_empty());
    // Its 1,000th acquire never comes: no fault, the same run.
    let mut never = sc.clone();
    let anchor = Anchor {
        event: AnchorEvent::Acquired,
        client: c2,
        nth: 1_000,
    };
    never.faults.push(pause(c2, 0, Some(anchor)));
    let got = run(&never);
    assert_eq!(got.entries, base.entries);
    assert_eq!(when(never.faults.last().unwrap(), &got), FaultTime::Never);
    // A fixed fault reads as its own time.
    assert_eq!(
        when(&pause(c2, 5, None), &got),
        FaultTime::Fixed(5),
        "a fixed fault"
    );
}

#[test]
fn the_json_carries_the_anchor_and_refuses_a_bad_one_at_its_field() {
    let mut sc = open("gc-pause").unwrap();
    sc.faults.push(pause(
        NodeId::Client(1),
        35_000,
        Some(Anchor {
            event: AnchorEvent::WriteSent,
            client: NodeId::Client(0),
            nth: 2,
        }),
    ));
    let text = sc.to_json_pretty();
    assert!(text.contains("\"after\": \"write_sent\""), "{text}");
    assert_eq!(Scenario::from_json(&text).unwrap(), sc, "round trip");
    // A scenario without anchors is written as before: no new keys.
    let plain = open("gc-pause").unwrap().to_json_pretty();
    assert!(!plain.contains("\"after\"") && !plain.contains("\"nth\""));

    let refused = |from: &str, to: &str| {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text, "{to}");
        Scenario::from_json(&bad).unwrap_err().to_string()
    };
    let e = refused("\"client\": \"c1\"", "\"client\": \"storage\"");
    assert!(e.starts_with("faults[1].client: "), "{e}");
    let e = refused("\"nth\": 2", "\"nth\": 0");
    assert!(e.starts_with("faults[1].nth: "), "{e}");
    let e = refused("\"after\": \"write_sent\"", "\"after\": \"granted\"");
    assert!(
        e.starts_with("faults[1].after: ") && e.contains("acquired"),
        "{e}"
    );
    let e = refused("\"client\": \"c1\"", "\"client\": \"c7\"");
    assert!(e.starts_with("faults[1].client: "), "{e}");
    // A client named without an event to follow is a field the format does not know.
    let e = refused("\"after\": \"write_sent\",", "");
    assert!(e.starts_with("faults[1]"), "{e}");
}

#[test]
fn the_slide_says_the_event_a_fault_follows() {
    let mut sc = open("gc-pause").unwrap();
    sc.faults = vec![pause(
        NodeId::Client(0),
        35_000,
        Some(Anchor {
            event: AnchorEvent::Acquired,
            client: NodeId::Client(0),
            nth: 1,
        }),
    )];
    let lines = settings(&sc);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("35 s after client 1 acquires the lock")),
        "{lines:?}"
    );
}

#[test]
fn a_conditional_update_is_a_write_sent() {
    // The conditional-write fix sends only conditional updates (no plain writes).
    let sc = open("conditional-write/conditional").unwrap();
    let trace = run(&sc);
    let anchor = Anchor {
        event: AnchorEvent::WriteSent,
        client: NodeId::Client(0),
        nth: 1,
    };
    let sent = trace.entries.iter().find(|e| {
        e.node == NodeId::Client(0)
            && matches!(
                &e.event,
                leaseline::model::trace::Event::Sent {
                    msg: leaseline::model::msg::Msg::WriteIf { .. },
                    ..
                }
            )
    });
    let t = sent.expect("client 1 sends a conditional update").t.0;
    assert_eq!(anchor.time_in(&trace), Some(t));
}
