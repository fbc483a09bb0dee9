//! Issue #13, "Teaching truth, round two": sentences a careful reader found wrong or
//! imprecise, each held to the run it describes. Where a sentence states a fact of a run,
//! the test reads that fact from the run, so a model change that makes the sentence false
//! fails here (the beats and endings have their own tests beside their code).

use leaseline::analysis::check::check;
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Event, Trace};
use leaseline::teach::course;
use leaseline::teach::flavor_presets::FLAVOR_PRESETS;
use leaseline::teach::library::LESSONS;
use leaseline::vocab::ids::NodeId;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

fn open(name: &str) -> Scenario {
    course::open(name).unwrap_or_else(|| panic!("no scenario {name}"))
}

fn run(name: &str) -> Trace {
    simulate(&open(name)).unwrap()
}

/// Every lesson and lock-service preset, with its fixes: (name, scenario).
fn every_variant() -> Vec<(String, Scenario)> {
    let lessons = LESSONS
        .iter()
        .chain(FLAVOR_PRESETS.iter().map(|p| &p.lesson));
    let mut v = Vec::new();
    for l in lessons {
        v.push((l.id.to_string(), l.scenario()));
        for f in l.fixes {
            let name = format!("{}/{}", l.id, f.name);
            v.push((name.clone(), open(&name)));
        }
    }
    v
}

/// Point 5: a lesson that offers "an idempotency key" as a fix has a variant where one is
/// on — keys guard effects only, so a lesson about a write (reordered-retry) does not
/// offer one.
#[test]
fn an_idempotency_key_is_offered_only_where_a_variant_has_one() {
    let all = every_variant();
    for (name, sc) in &all {
        if name.contains('/') || !sc.description.contains("idempotency key") {
            continue;
        }
        let has = all
            .iter()
            .filter(|(n, _)| n == name || n.starts_with(&format!("{name}/")))
            .any(|(_, s)| s.storage.idempotency);
        assert!(has, "{name} mentions an idempotency key no variant has");
    }
    let retry = open("reordered-retry");
    assert!(!retry.description.contains("idempotency"));
    // What the run shows instead: the late copy carries the old token, which a fence refuses.
    let v = check(&run("reordered-retry/fencing"));
    assert_eq!(v.stats.stale_writes_rejected, 1);
    assert!(retry
        .description
        .contains("the late copy carries the old token"));
}

/// Point 11: the slow clock's rate is the run's, and the lesson says it is exaggerated.
#[test]
fn the_slow_clock_is_said_to_be_exaggerated() {
    let sc = open("slow-client-clock");
    assert_eq!(sc.clients[0].clock.drift_ppm, -200_000, "20% slow");
    for words in [
        "20% is exaggerated to show",
        "real clocks err by 10-100 ppm",
        "Redlock allows 1%",
    ] {
        assert!(sc.description.contains(words), "{words}");
    }
}

/// Point 12: with the watchdog, the second runner still writes its own steps; only the
/// table swap is done once.
#[test]
fn the_watchdog_fix_says_the_second_runner_repeats_its_steps() {
    let trace = run("ttl-shorter-than-work/watchdog");
    let c2_writes = trace
        .entries
        .iter()
        .filter(|e| matches!(&e.event, Event::WriteAccepted { client, .. } if *client == C2));
    assert!(c2_writes.count() >= 1, "runner 2 writes its steps again");
    assert!(trace
        .entries
        .iter()
        .any(|e| matches!(&e.event, Event::EffectDeduplicated { client, .. } if *client == C2)));
    let performed = trace
        .entries
        .iter()
        .filter(|e| matches!(e.event, Event::EffectPerformed { .. }))
        .count();
    assert_eq!(performed, 1, "the swap is done once");
    let fix = course::fix_of("ttl-shorter-than-work/watchdog").unwrap();
    assert!(fix.summary.contains("it then runs its own steps again"));
    assert!(fix.summary.contains("only the table swap"));
    assert!(!fix.summary.contains("instead of repeating"));
    let sc = open("ttl-shorter-than-work");
    assert!(!sc.description.contains("resumes instead of repeating"));
    let _ = C1;
}

/// Point 3: the ZooKeeper lesson tells what the run's client does — Curator's SUSPENDED,
/// then LOST a session timeout later, which the code only logs before writing — and
/// names the client behaviour it models.
#[test]
fn the_zookeeper_lesson_tells_curators_lost_as_the_run_has_it() {
    use leaseline::model::trace::LossHow;
    let sc = open("zookeeper-partition");
    let t = simulate(&sc).unwrap();
    let at = |p: &dyn Fn(&Event) -> bool| {
        let e = t
            .entries
            .iter()
            .find(|e| e.node == C1 && p(&e.event))
            .unwrap();
        (e.t.0 + 500) / 1000
    };
    let disc = at(&|e| matches!(e, Event::Disconnected));
    let lost = at(&|e| {
        matches!(
            e,
            Event::BeliefEnded {
                how: LossHow::Lost,
                ..
            }
        )
    });
    let write = {
        let e = t
            .entries
            .iter()
            .find(|e| matches!(&e.event, Event::WriteAccepted { client, .. } if *client == C1))
            .unwrap();
        (e.t.0 + 500) / 1000
    };
    // Silence counts from the last reply, the grant that started the belief.
    let heard = at(&|e| matches!(e, Event::BeliefStarted { .. }));
    let d = &sc.description;
    assert!(
        d.contains(&format!("After {} s of silence", disc - heard)),
        "{d}"
    );
    assert!(
        d.contains(&format!(
            "At {lost} s, SUSPENDED having lasted the 6 s session timeout, Curator reports LOST"
        )),
        "{d}"
    );
    assert!(
        d.contains(&format!(
            "client 1's code only logs it, and writes at {write} s"
        )),
        "{d}"
    );
    assert!(d.contains("Curator on a ZooKeeper client before 3.9.3"));
    assert!(!d.contains("Only when the link heals"));
    let explainer = leaseline::model::scenario::Flavor::Zookeeper.explainer();
    assert!(explainer.contains("Curator reports LOST") && explainer.contains("before 3.9.3"));
    assert!(!explainer.contains("after it reconnects"));
}
