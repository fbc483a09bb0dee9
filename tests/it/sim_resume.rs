//! Resuming a run (performance): a run of a scenario stopped before an instant
//! and finished with faults added at or after that instant ([`Prefix`]) gives exactly the
//! trace of simulating the scenario with those faults from the start — entry by entry,
//! outcome, end and public digest. The search relies on it to skip the common start of
//! the runs it tries; this checks it for every built-in lesson and their fixes, for a
//! spread of the faults the search itself would add (every kind, one and two deep), with
//! one stopped run moved forward from fault to fault as the search does.
//!
//! The search also reads only the rest of each resumed run ([`Prefix::finish_tail`]):
//! its keys and its safety verdict ([`Safety`]) carried on from the stopped run's, which
//! must be those of the whole run — the same keys, and `check`'s violations.

use leaseline::analysis::check::{check, violations, Safety};
use leaseline::analysis::explore::candidates::candidates;
use leaseline::analysis::explore::fault::{Added, FaultClass};
use leaseline::analysis::explore::key::Keys;
use leaseline::analysis::explore::Bounds;
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::{run, Prefix};
use leaseline::model::trace::Trace;
use leaseline::teach::course::{fixes, open};
use leaseline::teach::flavor_presets::FLAVOR_PRESETS;
use leaseline::teach::library::LESSONS;
use leaseline::vocab::time::Time;

/// Every built-in lesson (the opening one, the library's, the lock services') and every
/// fix they offer, by name.
fn every_scenario() -> Vec<(String, Scenario)> {
    let mut names = vec!["gc-pause".to_string()];
    names.extend(LESSONS.iter().map(|l| l.id.to_string()));
    names.extend(FLAVOR_PRESETS.iter().map(|p| p.lesson.id.to_string()));
    let mut out = Vec::new();
    for lesson in names {
        for fix in fixes(&lesson) {
            let name = format!("{lesson}/{}", fix.name);
            if let Some(sc) = open(&name) {
                out.push((name, sc));
            }
        }
        let sc = open(&lesson).unwrap_or_else(|| panic!("{lesson} opens"));
        out.push((lesson, sc));
    }
    out
}

fn with(sc: &Scenario, faults: &[&Added]) -> Scenario {
    let mut sc = sc.clone();
    faults.iter().for_each(|f| f.apply(&mut sc));
    sc
}

/// `sc`'s candidate faults at or after `after`, in time order, thinned to about `n`.
fn sample(sc: &Scenario, trace: &Trace, after: i64, n: usize) -> Vec<Added> {
    let b = Bounds::for_scenario(sc);
    let mut all: Vec<Added> = candidates(sc, trace, &FaultClass::ALL, b.max_len_ms)
        .into_iter()
        .filter(|c| c.at() >= after)
        .collect();
    all.sort_by_key(|c| (c.at(), c.clone()));
    let step = all.len().div_ceil(n).max(1);
    all.into_iter().step_by(step).collect()
}

/// The two traces are the same, entry by entry, then as a whole and by digest.
fn same(what: &str, resumed: &Trace, whole: &Trace) {
    for (i, (a, b)) in resumed.entries.iter().zip(&whole.entries).enumerate() {
        assert_eq!(a, b, "{what}: entry {i} differs");
    }
    assert_eq!(resumed.entries.len(), whole.entries.len(), "{what}: length");
    assert_eq!(resumed, whole, "{what}");
    assert_eq!(resumed.digest_hex(), whole.digest_hex(), "{what}: digest");
}

/// What one comparison counted: runs finished from a stopped run, runs that could not be,
/// and resumed runs the checker found unsafe.
#[derive(Default)]
struct Counted {
    resumed: usize,
    whole: usize,
    unsafe_runs: usize,
}

/// Finishes `parent`'s run for each of `added` (in time order) from one stopped run moved
/// forward, and compares with the whole run: the trace, the rest of it, its keys and its
/// safety verdict carried on from the stopped run's.
fn check_from(name: &str, parent: &Scenario, added: &[Added], n: &mut Counted) {
    let mut prefix = Prefix::new(parent);
    let mut keys = Keys::default();
    let mut judged = Safety::new(&prefix.nodes());
    for f in added {
        let child = with(parent, &[f]);
        let from = child.faults[parent.faults.len()..]
            .iter()
            .map(|f| f.at_ms)
            .min();
        let what = format!("{name} + {}", f.describe());
        let expect = run(&child);
        let Some(t) = from else {
            // A drift adds no fault entry: it changes a clock from the start.
            assert!(prefix.finish(&child).is_none(), "{what}: not resumable");
            assert!(prefix.finish_tail(&child).is_none(), "{what}: no tail");
            n.whole += 1;
            continue;
        };
        prefix.advance(Time(t));
        // The stopped run is the start of the child's run.
        assert_eq!(
            prefix.entries(),
            &expect.entries[..prefix.entries().len()],
            "{what}: prefix"
        );
        let got = prefix.finish(&child).expect("resumable");
        same(&what, &got, &expect);
        // Finishing leaves the stopped run as it was: finishing again gives the same.
        same(&what, &prefix.finish(&child).expect("again"), &expect);
        // The rest alone: the whole run's, after the stopped run's entries.
        let tail = prefix.finish_tail(&child).expect("tail");
        let skipped = prefix.entries().len();
        assert_eq!(tail.skipped, skipped, "{what}: skipped");
        assert_eq!(tail.entries, expect.entries[skipped..], "{what}: tail");
        assert_eq!(
            (tail.outcome, tail.end),
            (expect.outcome, expect.end),
            "{what}"
        );
        // Keys and verdict carried on from the stopped run's, as the search does.
        keys.feed(&prefix.entries()[keys.fed()..]);
        judged.feed(&prefix.entries()[judged.fed()..]);
        let whole_keys = Keys::default().of(&expect);
        assert_eq!(keys.clone().of_tail(&tail), whole_keys, "{what}: keys");
        assert_eq!(keys.clone().of(&got), whole_keys, "{what}: keys");
        let broken = check(&expect).violations;
        assert_eq!(violations(&expect), broken, "{what}: violations");
        assert_eq!(judged.clone().of_tail(&tail), broken, "{what}: verdict");
        assert_eq!(judged.clone().of(&got), broken, "{what}: verdict");
        n.unsafe_runs += usize::from(!broken.is_empty());
        n.resumed += 1;
    }
}

#[test]
fn a_resumed_run_is_the_whole_run() {
    let (mut n, mut scenarios) = (Counted::default(), 0);
    for (name, sc) in every_scenario() {
        scenarios += 1;
        let trace = run(&sc);
        let first = sample(&sc, &trace, i64::MIN, 60);
        check_from(&name, &sc, &first, &mut n);
        // Two deep: a few of the first faults, each extended by a spread of second ones at
        // or after it, as the search extends a run.
        for f in first.iter().filter(|f| f.at() > 0).step_by(12) {
            let parent = with(&sc, &[f]);
            let second = sample(&parent, &run(&parent), f.at(), 15);
            check_from(
                &format!("{name} + {}", f.describe()),
                &parent,
                &second,
                &mut n,
            );
        }
    }
    let Counted {
        resumed,
        whole,
        unsafe_runs,
    } = n;
    println!(
        "{scenarios} scenarios: {resumed} runs resumed and equal ({unsafe_runs} unsafe), \
         {whole} not resumable"
    );
    assert!(scenarios >= 25 && resumed >= 2_000, "{scenarios} {resumed}");
    // The verdicts compared are not all "safe".
    assert!(unsafe_runs >= 500, "{unsafe_runs}");
}

#[test]
fn a_scenario_changed_otherwise_is_not_resumed() {
    let sc = open("gc-pause").unwrap();
    let mut prefix = Prefix::new(&sc);
    prefix.advance(Time(1_000));
    // Another seed, a fault before the stop, a scripted fault removed: run them whole.
    let mut other = sc.clone();
    other.seed += 1;
    assert!(prefix.finish(&other).is_none());
    let early = with(
        &sc,
        &[&Added::FalsePositive {
            client: leaseline::vocab::ids::NodeId::Client(0),
            at: 999,
        }],
    );
    assert!(prefix.finish(&early).is_none());
    let mut fewer = sc.clone();
    fewer.faults.pop();
    assert!(prefix.finish(&fewer).is_none());
    // The scenario itself, nothing added: the rest of its own run.
    assert_eq!(prefix.finish(&sc), Some(run(&sc)));
}

#[test]
fn a_run_with_a_fault_placed_by_an_event_resumes_to_the_whole_run() {
    use leaseline::model::scenario::{Anchor, AnchorEvent, Fault, FaultKind, PauseCause};
    use leaseline::vocab::ids::NodeId;
    let mut n = Counted::default();
    for lesson in ["gc-pause", "slow-client-clock"] {
        let mut sc = open(lesson).unwrap();
        // Client 2 pauses 1.5 s after it first acquires: a fault armed mid-run, which the
        // stopped run must carry over as the whole run queues it.
        sc.faults.push(Fault {
            at_ms: 1_501,
            kind: FaultKind::Pause {
                node: NodeId::Client(1),
                for_ms: 3_000,
                cause: PauseCause::Gc,
            },
            after: Some(Anchor {
                event: AnchorEvent::Acquired,
                client: NodeId::Client(1),
                nth: 1,
            }),
        });
        let trace = run(&sc);
        let added = sample(&sc, &trace, i64::MIN, 40);
        check_from(lesson, &sc, &added, &mut n);
    }
    assert!(n.resumed >= 40, "{}", n.resumed);
}
