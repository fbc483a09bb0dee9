//! The progress report beside the verdict, over every built-in scenario: it adds up, it
//! never touches safety, and it names the clients whose work never completed.

use leaseline::analysis::check::check;
use leaseline::analysis::liveness::JobEnd;
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::teach::presets::PRESETS;
use leaseline::teach::{flavor_presets, library};

/// Every runnable built-in scenario by name: presets, lessons and fixes, flavor presets
/// and remedies.
fn every_scenario() -> Vec<(String, Scenario)> {
    let mut all: Vec<(String, Scenario)> = PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scenario()))
        .collect();
    for l in library::LESSONS {
        all.push((l.id.to_string(), l.scenario()));
        for f in l.fixes {
            let name = format!("{}/{}", l.id, f.name);
            all.push((name.clone(), library::find(&name).unwrap()));
        }
    }
    for (name, _) in flavor_presets::all() {
        let sc = flavor_presets::find(&name).unwrap();
        all.push((name, sc));
    }
    all
}

#[test]
fn the_progress_report_adds_up_on_every_built_in_scenario() {
    let (mut stalled, mut superseded) = (Vec::new(), Vec::new());
    for (name, sc) in every_scenario() {
        let trace = simulate(&sc).unwrap();
        let v = check(&trace);
        let p = &v.progress;
        // One row per client, in lane order.
        assert_eq!(p.clients.len(), sc.clients.len(), "{name}");
        let count = |j: JobEnd| p.clients.iter().filter(|c| c.job == j).count() as u32;
        // The model records every job it runs: none is left untold.
        assert_eq!(count(JobEnd::Unrecorded), 0, "{name}");
        let started = p.clients.len() as u32 - count(JobEnd::NotStarted);
        assert_eq!(v.stats.jobs_started, started, "{name}");
        assert_eq!(v.stats.jobs_finished, count(JobEnd::Finished), "{name}");
        assert_eq!(
            count(JobEnd::Finished) + count(JobEnd::Aborted) + count(JobEnd::Unfinished),
            started,
            "{name}: finished + unfinished = started"
        );
        // The refusals are the checker's fence rejections, client by client.
        assert_eq!(p.writes_refused(), v.rejections.len() as u32, "{name}");
        for c in &p.clients {
            let mine = v.rejections.iter().filter(|r| r.client == c.client).count();
            assert_eq!(c.writes_refused as usize, mine, "{name}: {}", c.client);
            // Each reason once, one at least for every client refused.
            let theirs = v.rejections.iter().filter(|r| r.client == c.client);
            let mut reasons: Vec<&str> = theirs.map(|r| r.reason.as_str()).collect();
            reasons.dedup();
            assert_eq!(c.reasons.is_empty(), c.writes_refused == 0, "{name}");
            assert!(
                c.reasons.iter().all(|r| reasons.contains(&r.as_str())),
                "{name}"
            );
            assert!(c.writes_lost <= c.writes_refused, "{name}");
            assert_eq!(c.why.is_empty(), c.job != JobEnd::Aborted, "{name}");
            let e = &trace.entries[c.entry as usize];
            assert_eq!(e.t, c.at, "{name}");
            if c.job != JobEnd::NotStarted {
                assert_eq!(e.node, c.client, "{name}: the entry is the client's own");
            }
        }
        let accepted: u32 = p.clients.iter().map(|c| c.writes_accepted).sum();
        assert_eq!(accepted, v.stats.writes_accepted, "{name}");
        assert_eq!(
            v.stats.writes_lost,
            p.clients.iter().map(|c| c.writes_lost).sum::<u32>()
        );
        // A headline exactly when some work was left, naming each such client; the
        // summary says progress only then, and safety is the violations' alone.
        assert_eq!(p.headline().is_some(), !p.live(), "{name}");
        assert_eq!(v.summary().contains("PROGRESS:"), !p.live(), "{name}");
        let unfinished = p.incomplete().count();
        assert_eq!(v.summary().matches("work not done: ").count(), unfinished);
        assert_eq!(v.safe, v.violations.is_empty(), "{name}");
        if let Some(h) = p.headline() {
            for c in p.clients.iter().filter(|c| c.stalled()) {
                assert!(h.contains(&c.client.name()), "{name}: {h}");
            }
            stalled.push(format!("{name}: {h}"));
        }
        for c in p.incomplete().filter(|c| !c.stalled()) {
            superseded.push(format!("{name}: {}", c.line()));
        }
    }
    println!(
        "stalled:\n{}\n\nsuperseded:\n{}",
        stalled.join("\n"),
        superseded.join("\n")
    );
}

/// Redis issues no token, so a monotone fence refuses every write —
/// safe, and no client's work gets done.
#[test]
fn redis_behind_a_fence_is_safe_and_gets_nothing_done() {
    let v = check(&simulate(&flavor_presets::find("redis-failover/fenced").unwrap()).unwrap());
    assert!(v.safe && v.violations.is_empty());
    assert_eq!((v.stats.writes_accepted, v.stats.jobs_finished), (0, 0));
    assert_eq!(
        v.progress.headline().as_deref(),
        Some("client 2's work never completed (1 write refused)")
    );
    let c2 = &v.progress.clients[1];
    assert_eq!(
        c2.line(),
        "client 2 aborted its job (lost the lease); 1 write refused: no fencing token"
    );
}

/// The clean preset: every job finishes, every write lands — nothing is added.
#[test]
fn a_run_that_completes_reports_no_progress_finding() {
    let v = check(&simulate(&PRESETS[0].scenario()).unwrap());
    assert_eq!(PRESETS[0].name, "clean");
    assert!(v.progress.live() && v.progress.incomplete().next().is_none());
    assert_eq!(v.progress.headline(), None);
    assert_eq!(v.stats.jobs_finished, v.stats.jobs_started);
    assert!(!v.summary().contains("PROGRESS"));
}

/// A client that runs out of attempts while the lock service answers "held" every time
/// gave up on a held lock; only one whose attempts went unanswered found the service
/// unreachable. Redis answers a held lock with a refusal (no queue): client 2 of the GC
/// pause case asks three times, hears "busy" three times, and stops.
#[test]
fn giving_up_on_a_held_lock_is_not_an_unreachable_service() {
    use leaseline::analysis::liveness::ClientProgress;
    use leaseline::model::scenario::{Fault, FaultKind, Flavor};
    use leaseline::model::trace::{AbortWhy, Event};
    use leaseline::teach::narrate;
    use leaseline::vocab::ids::NodeId;

    let c2 = NodeId::Client(1);
    let mut sc = PRESETS
        .iter()
        .find(|p| p.name == "gc-pause")
        .unwrap()
        .scenario();
    sc.coordinator.flavor = Flavor::Redis;
    let aborts = |sc: &Scenario| -> (Vec<AbortWhy>, ClientProgress, Vec<String>) {
        let trace = simulate(sc).unwrap();
        let v = check(&trace);
        let why = trace
            .entries
            .iter()
            .filter(|e| e.node == c2)
            .filter_map(|e| match e.event {
                Event::JobAborted { why } => Some(why),
                _ => None,
            })
            .collect();
        let row = v.progress.clients[1].clone();
        let p = leaseline::analysis::projection::Projection::new(&trace);
        let told = narrate::transcript(&trace, &v, &p)
            .into_iter()
            .map(|l| l.text)
            .filter(|t| t.starts_with("client 2 stops its job"))
            .collect();
        (why, row, told)
    };

    let (why, row, told) = aborts(&sc);
    assert_eq!(why, [AbortWhy::Refused { times: 3 }]);
    assert_eq!(row.job, JobEnd::Aborted);
    assert_eq!(row.why, "gave up after 3 refusals: the lock was held");
    assert!(!row.why.contains("unreachable"));
    assert_eq!(told.len(), 1);
    assert!(told[0].contains("refused it 3 times"), "{told:?}");
    assert!(!told[0].contains("unreachable"), "{told:?}");

    // Cut client 2 off from the lock service from the start: now nothing answers.
    let kind = FaultKind::Partition {
        a: c2,
        b: NodeId::COORD,
    };
    sc.faults.push(Fault {
        at_ms: 0,
        kind,
        after: None,
    });
    let (why, row, told) = aborts(&sc);
    assert_eq!(why, [AbortWhy::CoordinatorUnreachable]);
    assert_eq!(row.why, "lock service unreachable: failed closed");
    assert!(told[0].contains("unreachable"), "{told:?}");
}
