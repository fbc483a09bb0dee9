//! Resuming a run (issue #15, performance): a run of a scenario stopped before an instant
//! and finished with faults added at or after that instant ([`Prefix`]) gives exactly the
//! trace of simulating the scenario with those faults from the start — entry by entry,
//! outcome, end and public digest. The search relies on it to skip the common start of
//! the runs it tries; this checks it for every built-in lesson and their fixes, for a
//! spread of the faults the search itself would add (every kind, one and two deep), with
//! one stopped run moved forward from fault to fault as the search does.

use leaseline::analysis::explore::candidates::candidates;
use leaseline::analysis::explore::fault::{Added, FaultClass};
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

/// Finishes `parent`'s run for each of `added` (in time order) from one stopped run moved
/// forward, and compares with the whole run. Returns (finished, simulated whole).
fn check_from(name: &str, parent: &Scenario, added: &[Added]) -> (usize, usize) {
    let mut prefix = Prefix::new(parent);
    let (mut resumed, mut whole) = (0, 0);
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
            whole += 1;
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
        resumed += 1;
    }
    (resumed, whole)
}

#[test]
fn a_resumed_run_is_the_whole_run() {
    let (mut resumed, mut whole, mut scenarios) = (0, 0, 0);
    for (name, sc) in every_scenario() {
        scenarios += 1;
        let trace = run(&sc);
        let first = sample(&sc, &trace, i64::MIN, 60);
        let (r, w) = check_from(&name, &sc, &first);
        resumed += r;
        whole += w;
        // Two deep: a few of the first faults, each extended by a spread of second ones at
        // or after it, as the search extends a run.
        for f in first.iter().filter(|f| f.at() > 0).step_by(12) {
            let parent = with(&sc, &[f]);
            let second = sample(&parent, &run(&parent), f.at(), 15);
            let (r, w) = check_from(&format!("{name} + {}", f.describe()), &parent, &second);
            resumed += r;
            whole += w;
        }
    }
    println!("{scenarios} scenarios: {resumed} runs resumed and equal, {whole} not resumable");
    assert!(scenarios >= 25 && resumed >= 2_000, "{scenarios} {resumed}");
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
