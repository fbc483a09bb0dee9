//! Every fault kind's words, read back through every reader of them: the scenario JSON,
//! the editor's form, the explore search's classes and its workers' wire, the handoff from
//! the first load, and the calculator. The words are declared once (`Kind::spec`); this
//! proves that each reader writes what the others read, for every kind in `Kind::ALL`.
//!
//! The examples below are exhaustive matches over the kinds, so a new kind does not
//! compile here until it has an example — and then it is held to every reader.

use leaseline::analysis::explore::engine::Chunk;
use leaseline::analysis::explore::fault::{Added, Cut, FaultClass};
use leaseline::analysis::explore::wire;
use leaseline::model::scenario::{Fault, FaultKind, Kind, Nodes, PauseCause, Scenario, Start};
use leaseline::session::edit::Edit;
use leaseline::session::{calculator, form, handoff};
use leaseline::teach::presets::preset;
use leaseline::vocab::ids::NodeId;
use leaseline::vocab::json::Json;

const C1: NodeId = NodeId::Client(0);

/// A fault of kind `k`, with a value in every field (a pause not a GC's, so its optional
/// cause is written too).
fn example(k: Kind) -> FaultKind {
    match k {
        Kind::Pause => FaultKind::Pause {
            node: C1,
            for_ms: 5_000,
            cause: PauseCause::VmMigration,
        },
        Kind::Partition => FaultKind::Partition {
            a: C1,
            b: NodeId::COORD,
        },
        Kind::Heal => FaultKind::Heal {
            a: C1,
            b: NodeId::COORD,
        },
        Kind::Delay => FaultKind::Delay {
            from: C1,
            to: NodeId::Storage,
            extra_ms: 2_000,
        },
        Kind::ClockJump => FaultKind::ClockJump {
            node: C1,
            by_ms: -3_000,
        },
        Kind::Restart => FaultKind::Restart {
            node: NodeId::Storage,
            down_ms: 1_000,
        },
        Kind::FailRenewals => FaultKind::FailRenewals { for_ms: 4_000 },
        Kind::Failover => FaultKind::Failover {
            node: NodeId::COORD,
            down_ms: 0,
        },
        Kind::FalsePositive => FaultKind::FalsePositive { node: C1 },
    }
}

/// A fault the explore search adds that writes a fault of kind `k` into a scenario: a heal
/// comes with its partition.
fn added(k: Kind) -> Added {
    match k {
        Kind::Pause => Added::Pause {
            node: C1,
            at: 1_000,
            ms: 5_000,
        },
        Kind::Partition | Kind::Heal => Added::Partition {
            client: C1,
            cut: Cut::Storage,
            at: 1_000,
            heal: 4_000,
        },
        Kind::Delay => Added::Delay {
            from: C1,
            to: NodeId::Storage,
            at: 1_000,
            extra: 2_000,
        },
        Kind::ClockJump => Added::Jump {
            node: C1,
            at: 1_000,
            by: -3_000,
        },
        Kind::Restart => Added::Restart {
            node: NodeId::Storage,
            at: 1_000,
            down: 1_000,
        },
        Kind::FailRenewals => Added::FailRenewals {
            at: 1_000,
            ms: 4_000,
        },
        Kind::Failover => Added::Failover {
            node: NodeId::COORD,
            at: 1_000,
            down: 0,
        },
        Kind::FalsePositive => Added::FalsePositive {
            client: C1,
            at: 1_000,
        },
    }
}

fn at(kind: FaultKind) -> Fault {
    Fault {
        at_ms: 1_000,
        kind,
        after: None,
    }
}

fn base() -> Scenario {
    let mut sc = preset("gc-pause").unwrap().scenario();
    sc.faults.clear();
    sc
}

#[test]
fn every_kind_is_written_and_read_back_as_json_with_the_forms_fields() {
    for k in Kind::ALL {
        let f = at(example(k));
        assert_eq!(f.kind.kind(), k);
        let mut sc = base();
        sc.faults.push(f.clone());
        let Json::Obj(doc) = sc.to_json_value() else {
            panic!("an object")
        };
        let Some((_, Json::Arr(faults))) = doc.iter().find(|(key, _)| key == "faults") else {
            panic!("a fault list")
        };
        let Json::Obj(kv) = &faults[0] else {
            panic!("an object")
        };
        assert_eq!(kv[1], ("fault".into(), Json::Str(k.word().into())), "{k:?}");
        // The fields written are the ones the editor's new row starts with, in order.
        let written: Vec<&str> = kv[2..].iter().map(|(key, _)| key.as_str()).collect();
        let offered: Vec<&str> = k.spec().fields.iter().map(|(key, _)| *key).collect();
        assert_eq!(written, offered, "{k:?}");
        assert_eq!(Fault::from_json_value(&faults[0], "f"), Ok(f), "{k:?}");
        assert_eq!(Scenario::from_json(&sc.to_json_pretty()), Ok(sc), "{k:?}");
    }
}

#[test]
fn every_kind_is_offered_by_the_form_under_its_label() {
    let offered = form::words("faults[0].fault");
    assert_eq!(offered.len(), Kind::ALL.len());
    for (k, (word, label)) in Kind::ALL.into_iter().zip(offered) {
        assert_eq!((word, label), (k.word(), k.spec().label));
        assert!(std::ptr::eq(form::fault_form(word).unwrap(), k.spec()));
        for (key, start) in k.spec().fields {
            assert_ne!(form::field(key).0, "This field", "{k:?}.{key}");
            // A new row starts valid: its starting node is one the form offers.
            if let Start::Node(n) = start {
                assert!(allows(k.spec().nodes, NodeId::parse(n).unwrap()), "{k:?}");
            }
        }
    }
}

fn allows(nodes: Nodes, n: NodeId) -> bool {
    match nodes {
        Nodes::All => true,
        Nodes::Clients => n.is_client(),
        Nodes::Coordinators => matches!(n, NodeId::Coord(_)),
        Nodes::Servers => !n.is_client(),
    }
}

/// The nodes the form offers a kind's node field are the ones the validator accepts.
#[test]
fn the_forms_nodes_are_the_validators() {
    for k in Kind::ALL {
        for n in [C1, NodeId::Client(1), NodeId::COORD, NodeId::Storage] {
            let kind = match example(k) {
                FaultKind::Pause { for_ms, cause, .. } => FaultKind::Pause {
                    node: n,
                    for_ms,
                    cause,
                },
                FaultKind::ClockJump { by_ms, .. } => FaultKind::ClockJump { node: n, by_ms },
                FaultKind::Restart { down_ms, .. } => FaultKind::Restart { node: n, down_ms },
                FaultKind::Failover { down_ms, .. } => FaultKind::Failover { node: n, down_ms },
                FaultKind::FalsePositive { .. } => FaultKind::FalsePositive { node: n },
                // Two ends, or none: any node the run has.
                FaultKind::Partition { .. }
                | FaultKind::Heal { .. }
                | FaultKind::Delay { .. }
                | FaultKind::FailRenewals { .. } => continue,
            };
            let mut sc = base();
            sc.faults.push(at(kind));
            let ok = sc.validate().is_ok();
            assert_eq!(ok, allows(k.spec().nodes, n), "{k:?} on {n}");
        }
    }
}

#[test]
fn every_kind_has_an_explore_class_that_reads_back() {
    for k in Kind::ALL {
        let class = FaultClass::of(k);
        assert_eq!(class.name(), k.spec().class, "{k:?}");
        assert_eq!(FaultClass::parse(k.spec().class), Some(class), "{k:?}");
        assert_eq!(added(k).class(), class, "{k:?}");
    }
    for c in FaultClass::ALL {
        assert_eq!(FaultClass::parse(c.name()), Some(c));
    }
    // The words of `--faults` and of explore's report, as they always were.
    assert_eq!(
        FaultClass::names(),
        "pause, partition, clock, delay, restart, failover, false-positive, fail-renewals"
    );
}

/// What the search adds crosses between workers as words and comes back the same, and
/// writes a fault of the kind into the scenario.
#[test]
fn every_kind_crosses_the_wire_and_is_written_by_the_search() {
    for k in Kind::ALL {
        let a = added(k);
        let c = Chunk {
            first: 3,
            jobs: vec![vec![a.clone()]],
        };
        assert_eq!(wire::read_chunk(&wire::chunk(&c)), Ok(c), "{k:?}");
        let mut sc = base();
        a.apply(&mut sc);
        assert!(sc.faults.iter().any(|f| f.kind.kind() == k), "{k:?}");
    }
}

/// The first load hands the stage's faults over in their JSON words.
#[test]
fn the_stages_kinds_survive_the_handoff_in_their_words() {
    for k in Kind::ALL {
        let e = Edit::AddFault(at(example(k)));
        let handed = match k {
            Kind::Pause
            | Kind::Partition
            | Kind::Heal
            | Kind::Delay
            | Kind::ClockJump
            | Kind::Restart => true,
            // The stage's menu never adds these.
            Kind::FailRenewals | Kind::Failover | Kind::FalsePositive => false,
        };
        if !handed {
            assert_eq!(handoff::edit_words(&e), None, "{k:?}");
            continue;
        }
        // The stage adds GC pauses only.
        let e = match e {
            Edit::AddFault(mut f) => {
                if let FaultKind::Pause { cause, .. } = &mut f.kind {
                    *cause = PauseCause::Gc;
                }
                Edit::AddFault(f)
            }
            other => other,
        };
        let words = handoff::edit_words(&e).unwrap();
        assert_eq!(words.split(' ').next(), Some(k.word()), "{words}");
        assert_eq!(handoff::edit_from_words(&words), Some(e), "{words}");
    }
}

#[test]
fn the_calculator_names_each_kind_it_leaves_out_by_its_phrase() {
    for k in Kind::ALL {
        let mut sc = base();
        sc.faults.push(at(example(k)));
        let want: Vec<Kind> = match k {
            // What the figure is for, and the end of a partition already named.
            Kind::Pause | Kind::Heal => vec![],
            Kind::Partition
            | Kind::Delay
            | Kind::ClockJump
            | Kind::Restart
            | Kind::FailRenewals
            | Kind::Failover
            | Kind::FalsePositive => vec![k],
        };
        assert_eq!(calculator::uncovered(&sc), want, "{k:?}");
        let note = calculator::uncovered_note(&sc);
        assert_eq!(note.is_some(), !want.is_empty(), "{k:?}");
        if let Some(note) = note {
            assert!(note.contains(k.spec().phrase), "{k:?}: {note}");
        }
    }
}
