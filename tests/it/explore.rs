//! Explore: the bounded search over added faults finds the counterexamples the
//! sources describe, says "safe within these bounds" for the fence, breaks the timing fixes
//! with a longer pause, and answers the same way every time.

use crate::common;
use leaseline::analysis::check::{check, ViolationKind};
use leaseline::analysis::explore::fault::{Added, FaultClass};
use leaseline::analysis::explore::{explore, explore_live, Bounds, Ended, Report};
use leaseline::model::scenario::{FenceMode, Scenario};
use leaseline::model::sim::{run, simulate};
use leaseline::teach::course::open;

fn search(name: &str, f: impl FnOnce(&mut Bounds)) -> (Scenario, Report) {
    let sc = open(name).unwrap_or_else(|| panic!("{name}"));
    let mut b = Bounds::for_scenario(&sc);
    f(&mut b);
    let r = explore(&sc, &b, 1024, &mut |_| true);
    (sc, r)
}

/// Every counterexample's scenario, written out and read back, reproduces its digest and
/// its violation.
fn reproduces(r: &Report) {
    for c in &r.classes {
        let e = &c.example;
        let sc = Scenario::from_json(&e.scenario.to_json_pretty()).expect("valid scenario");
        let t = simulate(&sc).unwrap();
        assert_eq!(t.digest_hex(), e.digest);
        let v = check(&t);
        assert_eq!(v.violations.first(), Some(&e.first));
    }
}

#[test]
fn gc_pause_breaks_as_given_and_without_its_pause_one_added_pause_breaks_it() {
    let (_, r) = search("gc-pause", |_| {});
    assert!(r.breaks_as_given);
    assert_eq!(r.schedules, 1, "a violating run is not extended");
    assert!(r.classes[0].example.faults.is_empty());
    assert!(r.classes[0].kinds.contains(&ViolationKind::StaleWrite));
    reproduces(&r);

    let (_, r) = search("gc-pause", |b| {
        b.keep_scripted = false;
        b.classes = vec![FaultClass::Pause];
    });
    assert!(!r.breaks_as_given);
    assert_eq!(r.ended, Ended::Complete);
    let c = &r.classes[0];
    assert_eq!(c.fault_kinds, vec![FaultClass::Pause]);
    assert_eq!(c.example.faults.len(), 1);
    assert!(matches!(c.example.faults[0], Added::Pause { node, .. } if node.is_client()));
    assert!(c.kinds.contains(&ViolationKind::StaleWrite));
    reproduces(&r);
}

#[test]
fn the_fenced_fixes_are_safe_within_the_bounds() {
    for name in [
        "gc-pause-fenced",
        "check-then-write/fencing",
        "delayed-write/fencing",
    ] {
        for keep in [true, false] {
            let (_, r) = search(name, |b| b.keep_scripted = keep);
            assert!(
                r.safe_within_bounds(),
                "{name}: {:?}",
                r.classes.first().map(|c| &c.example.faults)
            );
            assert!(r.schedules > 1_000, "{name}: {}", r.schedules);
            assert!(r.distinct_runs <= r.schedules && r.orderings <= r.distinct_runs);
        }
    }
    // Pauses and delays, two at a time, on the fenced Kleppmann case.
    let (_, r) = search("gc-pause-fenced", |b| {
        b.max_faults = 2;
        b.classes = vec![FaultClass::Pause, FaultClass::Delay];
    });
    assert!(r.safe_within_bounds());
    println!(
        "gc-pause-fenced, K = 2, pauses and delays: {} schedules, safe within bounds",
        r.schedules
    );
}

/// The sources' sharpest lesson: a timing fix (check the lease before writing, stop on
/// loss) holds for the pause it was written against and breaks under a longer one; the
/// same scenario with a fence holds for every pause tried.
#[test]
fn a_timing_fix_breaks_under_a_longer_pause_and_the_fence_does_not() {
    for name in [
        "starved-renewal/abort-on-loss",
        "ttl-shorter-than-work/abort-on-loss",
    ] {
        let (sc, r) = search(name, |b| {
            b.classes = vec![FaultClass::Pause, FaultClass::Delay]
        });
        assert!(!r.breaks_as_given, "{name}: the fix holds as written");
        let c = r
            .classes
            .iter()
            .find(|c| c.kinds.contains(&ViolationKind::StaleWrite))
            .unwrap_or_else(|| panic!("{name}: no stale write found"));
        assert_eq!(c.example.faults.len(), 1, "{name}");
        assert!(sc.clients[0].check_before_write, "{name} is a timing fix");
        reproduces(&r);

        let mut fenced = sc.clone();
        fenced.storage.fence = FenceMode::Monotone;
        let mut b = Bounds::for_scenario(&fenced);
        b.classes = vec![FaultClass::Pause, FaultClass::Delay];
        let r = explore(&fenced, &b, 1024, &mut |_| true);
        assert!(
            !r.classes
                .iter()
                .any(|c| c.kinds.contains(&ViolationKind::StaleWrite)),
            "{name} fenced"
        );
    }
}

#[test]
fn the_same_search_gives_the_same_report() {
    let a = search("check-then-write", |b| b.keep_scripted = false).1;
    let b = search("check-then-write", |b| b.keep_scripted = false).1;
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert!(!a.classes.is_empty());
    // And through the command line, byte for byte but for the time taken.
    let json = || {
        let (code, out, _) =
            common::cli(&["explore", "check-then-write", "--clean", "--format", "json"]);
        assert_eq!(code, 0);
        out.lines()
            .filter(|l| !l.contains("\"elapsed_ms\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(json(), json());
}

/// Minimal: each example is the cheapest of its class, its faults without the last one
/// run safe, and no shorter pause at the same instant breaks the scenario (checked
/// millisecond by millisecond, which the search itself never does).
#[test]
fn counterexamples_are_minimal() {
    let (sc, r) = search("gc-pause", |b| {
        b.keep_scripted = false;
        b.max_faults = 2;
        b.classes = vec![FaultClass::Pause, FaultClass::Restart];
    });
    let mut base = sc.clone();
    base.faults.clear();
    for c in &r.classes {
        let e = &c.example;
        let mut prefix = base.clone();
        e.faults[..e.faults.len() - 1]
            .iter()
            .for_each(|f| f.apply(&mut prefix));
        assert!(check(&run(&prefix)).safe, "{:?}", e.faults);
    }
    let c = r
        .classes
        .iter()
        .find(|c| c.fault_kinds == vec![FaultClass::Pause])
        .expect("a pause class");
    let Added::Pause { node, at, ms } = c.example.faults[0] else {
        panic!("not a pause")
    };
    assert_eq!(c.example.cost, ms);
    for shorter in (ms - 3_000).max(1)..ms {
        let mut s = base.clone();
        Added::Pause {
            node,
            at,
            ms: shorter,
        }
        .apply(&mut s);
        assert!(
            check(&run(&s)).safe,
            "a {shorter} ms pause breaks it too, not only {:?}",
            c.example.faults
        );
    }
    // Fewest faults first: a class reached with one fault never shows a two-fault example.
    for w in r.classes.windows(2) {
        assert!(w[0].example.faults.len() <= w[1].example.faults.len());
    }
}

#[test]
fn progress_is_reported_and_the_search_can_be_cancelled() {
    let sc = open("gc-pause-fenced").unwrap();
    let b = Bounds::for_scenario(&sc);
    let mut calls = Vec::new();
    let r = explore(&sc, &b, 100, &mut |p| {
        calls.push((p.tried, p.total));
        p.tried < 300
    });
    assert_eq!(r.ended, Ended::Cancelled);
    assert_eq!(r.schedules, 300);
    assert!(!r.safe_within_bounds(), "a cancelled search claims nothing");
    assert_eq!(
        calls[..3],
        [(100, calls[0].1), (200, calls[1].1), (300, calls[2].1)]
    );
    assert!(calls.iter().all(|(tried, total)| tried <= total));

    let mut b = Bounds::for_scenario(&sc);
    b.budget = 50;
    let r = explore(&sc, &b, 1_000, &mut |_| true);
    assert_eq!((r.ended, r.schedules), (Ended::Budget, 50));
}

/// Results as they are found (a page lists them while the search runs): the classes are
/// handed over in the order found, only ever added to, each change counted, and when the
/// search ends they are the report's classes — the same report `explore` gives.
#[test]
fn the_classes_are_handed_over_as_they_are_found() {
    let sc = open("gc-pause").unwrap();
    let mut b = Bounds::for_scenario(&sc);
    b.keep_scripted = false;
    b.max_faults = 2;
    b.classes = vec![FaultClass::Pause, FaultClass::Delay, FaultClass::Clock];
    // (schedules tried, the keys of the classes found so far in order, changes counted)
    let mut calls: Vec<(u64, Vec<String>, u64)> = Vec::new();
    let live = explore_live(&sc, &b, 64, &mut |p, classes| {
        let keys = classes
            .iter()
            .map(|c| format!("{:?}", (&c.kinds, &c.clients, &c.fault_kinds)))
            .collect();
        calls.push((p.tried, keys, p.found));
        true
    });
    let plain = explore(&sc, &b, 64, &mut |_| true);
    assert_eq!(format!("{live:?}"), format!("{plain:?}"));
    assert!(live.classes.len() > 1, "{}", live.classes.len());
    // Found early: the first class long before the search ends.
    let first = calls
        .iter()
        .find(|c| !c.1.is_empty())
        .expect("a class found");
    assert!(
        first.0 * 4 < live.schedules,
        "{} of {}",
        first.0,
        live.schedules
    );
    for w in calls.windows(2) {
        assert!(
            w[1].1.starts_with(&w[0].1),
            "classes are only added, in order"
        );
        assert!(w[1].2 >= w[0].2 + (w[1].1.len() - w[0].1.len()) as u64);
    }
    let mut last = calls.last().unwrap().1.clone();
    let mut reported: Vec<String> = live
        .classes
        .iter()
        .map(|c| format!("{:?}", (&c.kinds, &c.clients, &c.fault_kinds)))
        .collect();
    last.sort();
    reported.sort();
    assert_eq!(last, reported);
}

#[test]
fn the_command_line_reports_and_refuses_bad_input_in_one_line() {
    use crate::common::cli;
    let (code, out, _) = cli(&[
        "explore",
        "gc-pause",
        "--fence",
        "none",
        "--max-faults",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["breaks_as_given"], true);
    assert_eq!(v["safe_within_bounds"], false);
    assert_eq!(v["classes"][0]["added_faults"], 0);
    let sc = Scenario::from_json(&v["classes"][0]["scenario"].to_string()).unwrap();
    assert_eq!(
        simulate(&sc).unwrap().digest_hex(),
        v["classes"][0]["digest"].as_str().unwrap()
    );
    assert!(v["classes"][0]["link"]
        .as_str()
        .unwrap()
        .starts_with("#sc="));

    let (code, out, _) = cli(&["explore", "gc-pause-fenced", "--faults", "pause,delay"]);
    assert_eq!(code, 0);
    assert!(out.contains("\nSAFE WITHIN THESE BOUNDS: "), "{out}");
    let (code, out, _) = cli(&[
        "explore",
        "gc-pause",
        "--faults",
        "1",
        "--max-pause",
        "45000",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("The scenario breaks as given"), "{out}");

    for args in [
        &["explore"][..],
        &["explore", "nope"],
        &["explore", "gc-pause", "--faults", "teleport"],
        &["explore", "gc-pause", "--max-faults", "4"],
        &["explore", "gc-pause", "--faults", "0"],
        &["explore", "gc-pause", "--max-pause-ms", "-5"],
        &["explore", "gc-pause", "--fence", "maybe"],
        &["explore", "gc-pause", "--budget", "0"],
    ] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// The slow-clock lesson's safety margin is only the margin (counted from the request):
/// the 28 s job no longer fits in the 20 s client 1 trusts, so its check before the write
/// fails and the job is given up. Nothing breaks as given, and the search finds no fault
/// that lets client 1 write: a fix that holds by doing no work, as its summary says.
#[test]
fn the_safety_margin_keeps_the_write_out_by_giving_the_job_up() {
    let (sc, r) = search("slow-client-clock/safety-margin", |_| {});
    let t = run(&sc);
    assert!(check(&t).safe);
    let writes = |c: u8| {
        t.entries.iter().any(|e| {
            matches!(&e.event, leaseline::model::trace::Event::WriteAccepted { client, .. }
                if *client == leaseline::vocab::ids::NodeId::Client(c))
        })
    };
    assert!(
        !writes(0) && writes(1),
        "with the margin, client 1's check fails and only client 2 writes"
    );
    assert!(!r.breaks_as_given);
    assert!(
        r.safe_within_bounds(),
        "{:?}",
        r.classes.first().map(|c| &c.example.faults)
    );
    let summary = leaseline::teach::course::fix_of("slow-client-clock/safety-margin")
        .unwrap()
        .summary;
    assert!(summary.contains("the job is given up"), "{summary}");
}

/// A search can only say "safe within these bounds" of a scenario whose fence refuses every
/// write — a lock service that issues no token, fenced: safe because nothing gets done. The
/// report says so beside the verdict, in words and in its JSON, read from the checker's
/// count of the run with no fault added; a scenario whose writes land says nothing of it.
#[test]
fn a_search_of_a_run_that_gets_nothing_done_says_so_beside_safe() {
    use leaseline::analysis::explore::report;
    let (_, r) = search("redis-clock-jump/fenced", |_| {});
    assert!(r.safe_within_bounds());
    let refused = r.standstill.expect("every write refused");
    assert!(refused > 0);
    let text = report::text("redis-clock-jump/fenced", &r, 0, &|_| String::new());
    assert_eq!(refused, 2, "client 1's write and client 2's");
    assert!(
        text.trim_end().ends_with(
            "Nothing gets done as given: with no fault added, the fence refuses both writes sent and storage accepts none, so the run is safe because no write lands."
        ),
        "{text}"
    );
    assert!(report::standstill_words(1).contains("refuses the one write sent"));
    assert!(report::standstill_words(3).contains("refuses all 3 writes sent"));
    assert_eq!(
        report::json(&r, 0, &|_| String::new())["standstill"],
        refused
    );

    // Every built-in scenario: the report says it exactly where the checker finds the run
    // as given with writes sent and none accepted; those are the token-less services,
    // fenced.
    let mut still = Vec::new();
    for (name, sc) in common::every_scenario() {
        let stats = check(&run(&sc)).stats;
        let mut b = Bounds::for_scenario(&sc);
        b.budget = 1;
        let r = explore(&sc, &b, 1024, &mut |_| true);
        let expected = (stats.writes_accepted == 0 && stats.writes_rejected > 0)
            .then_some(stats.writes_rejected);
        assert_eq!(r.standstill, expected, "{name}");
        if expected.is_some() {
            assert_ne!(sc.storage.fence, FenceMode::None, "{name}");
            let tokens = sc.coordinator.flavor.model().tokens;
            assert_eq!(tokens, leaseline::model::flavors::Tokens::None, "{name}");
            still.push(name);
        }
    }
    println!("nothing gets done as given: {still:?}");
    assert!(still.contains(&"redis-clock-jump/fenced".to_string()));
    let (_, r) = search("gc-pause-fenced", |_| {});
    assert_eq!(r.standstill, None);
    assert!(
        !report::text("gc-pause-fenced", &r, 0, &|_| String::new()).contains("Nothing gets done")
    );
}
