//! Every lesson of the scenario library, and every fix, reaches the verdict it teaches.

use leaseline::analysis::check::check;
use leaseline::analysis::explore::fault::FaultClass;
use leaseline::analysis::explore::{explore, Bounds, Ended};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::teach::course;
use leaseline::teach::holds::Standing;
use leaseline::teach::library::{find, Expect, LESSONS};

fn holds(name: &str, sc: &Scenario, e: &Expect) {
    let v = check(&simulate(sc).unwrap_or_else(|err| panic!("{name}: invalid: {err}")));
    let kinds: Vec<_> = v.violations.iter().map(|x| x.kind).collect();
    assert_eq!(v.safe, e.safe, "{name}: safe?\n{}", v.summary());
    for k in e.must {
        assert!(kinds.contains(k), "{name}: expected {k:?}\n{}", v.summary());
    }
    for k in e.must_not {
        assert!(
            !kinds.contains(k),
            "{name}: did not expect {k:?}\n{}",
            v.summary()
        );
    }
    assert_eq!(
        !v.rejections.is_empty(),
        e.rejected,
        "{name}: fence rejections?\n{}",
        v.summary()
    );
}

#[test]
fn every_variant_reaches_its_verdict() {
    let mut variants = 0;
    for l in LESSONS {
        holds(l.id, &l.scenario(), &l.expect);
        variants += 1;
        assert!(!l.fixes.is_empty(), "{} has no fix", l.id);
        for f in l.fixes {
            let name = format!("{}/{}", l.id, f.name);
            holds(&name, &find(&name).unwrap(), &f.expect);
            variants += 1;
        }
    }
    println!("{} lessons, {variants} variants", LESSONS.len());
    assert!(LESSONS.len() >= 15);
}

#[test]
fn fail_closed_is_safe_because_nothing_runs() {
    let v = check(&simulate(&find("coordinator-unreachable/fail-closed").unwrap()).unwrap());
    assert_eq!(
        (v.stats.writes_accepted, v.stats.effects_performed),
        (0, 0),
        "the cost of failing closed"
    );
}

/// What the words for a kind of fault are, in a fix's "still" text (`teach::holds`).
fn named(still: &str, kind: FaultClass) -> bool {
    let words: &[&str] = match kind {
        FaultClass::Pause => &["pause"],
        FaultClass::Partition => &["cut"],
        FaultClass::Clock => &["clock"],
        FaultClass::Delay => &["held-up", "held up"],
        FaultClass::Restart => &["restart"],
        FaultClass::Failover => &["fail-over"],
        FaultClass::FalsePositive => &["declared dead"],
        FaultClass::FailRenewals => &["failed renewals"],
    };
    words.iter().any(|w| still.contains(w))
}

/// The explorer checks every lesson's claims: each change the menus offer is explored with
/// one added fault of every kind, within the default bounds. A change called a fix must
/// hold there; one that breaks must be listed in `teach::holds` as narrowing the window,
/// naming exactly the kinds of fault that break it (the smallest counterexample's first)
/// in words its text uses. A variant that shows the failure as given is neither.
#[test]
fn every_fix_holds_within_the_default_bounds_or_says_what_still_breaks_it() {
    let mut checked = 0;
    let mut disagree = Vec::new();
    for lesson in course::menu().iter().flat_map(|c| c.lessons.iter()) {
        for f in &lesson.fixes {
            let sc = course::open(&f.scenario).expect("a fix opens");
            let r = explore(&sc, &Bounds::for_scenario(&sc), 1 << 20, &mut |_| true);
            assert_eq!(r.ended, Ended::Complete, "{}: the search ended", f.scenario);
            checked += 1;
            let mut found: Vec<FaultClass> = Vec::new();
            for c in &r.classes {
                for k in &c.fault_kinds {
                    if !found.contains(k) {
                        found.push(*k);
                    }
                }
            }
            let smallest = r.classes.first().map(|c| {
                let faults: Vec<String> = c.example.faults.iter().map(|a| a.describe()).collect();
                faults.join("; ")
            });
            match f.standing {
                Standing::Variant => {}
                Standing::Fix if r.classes.is_empty() => {}
                Standing::Fix => disagree.push(format!(
                    "{} is called a fix, but {} way(s) break it, the smallest: {}",
                    f.scenario,
                    r.classes.len(),
                    smallest.unwrap_or_default()
                )),
                Standing::Narrows(n) => {
                    let mut by = n.by.to_vec();
                    let mut seen = found.clone();
                    by.sort();
                    seen.sort();
                    if r.classes.is_empty() {
                        disagree.push(format!("{} holds: call it a fix", f.scenario));
                    } else if by != seen || n.by.first() != r.classes[0].fault_kinds.first() {
                        disagree.push(format!(
                            "{}: its text names {:?}, the explorer finds {found:?} (smallest first)",
                            f.scenario, n.by
                        ));
                    }
                    for k in n.by {
                        if !named(n.still, *k) {
                            disagree.push(format!("{}: its text never names {k:?}", f.scenario));
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 40, "{checked} fixes explored");
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}
