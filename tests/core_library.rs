//! Every lesson of the scenario library, and every fix, reaches the verdict it teaches.

use leaseline::analysis::check::check;
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
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
