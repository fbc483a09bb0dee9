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

fn fix_summary(name: &str) -> (&'static str, &'static str) {
    let f = course::fix_of(name).unwrap_or_else(|| panic!("no fix {name}"));
    (f.title, f.summary)
}

/// Point 7: etcd's leader change gives the lease its full TTL plus the 1 s election timeout,
/// as the run shows, and the texts name the lessor's Promote and lease checkpointing.
#[test]
fn etcd_leader_change_is_the_lessors_promote_without_checkpointing() {
    let sc = open("etcd-leader-change");
    let t = simulate(&sc).unwrap();
    let e = t
        .entries
        .iter()
        .find(|e| matches!(e.event, Event::LeaseExtended { .. }))
        .unwrap();
    let Event::LeaseExtended { expires_local, .. } = e.event else {
        unreachable!()
    };
    assert_eq!(expires_local - e.local, sc.clients[0].ttl_ms + 1_000);
    assert!(sc
        .description
        .contains("full TTL plus the 1 s election timeout (etcd's lessor Promote"));
    assert!(sc.description.contains("lease checkpointing"));
    let x = leaseline::model::scenario::Flavor::Etcd.explainer();
    assert!(x.contains("Promote") && x.contains("#9395") && x.contains("Lease checkpointing"));
    assert!(!x.contains(
        "The docs warn that the lock alone does not give mutual exclusion, and that a new leader"
    ));
}

/// Point 8: Chubby's lock-delay is the client's choice up to a minute; the fix uses the
/// maximum, which is what the run holds the lock back for.
#[test]
fn chubby_lock_delay_is_the_longest_a_client_may_choose() {
    let sc = open("chubby-lock-delay/lock-delay");
    assert_eq!(sc.coordinator.lock_delay_ms, None, "the flavor's value");
    let t = simulate(&sc).unwrap();
    let (at, until) = t
        .entries
        .iter()
        .find_map(|e| match e.event {
            Event::LockDelayed { until_local } => Some((e.local, until_local)),
            _ => None,
        })
        .unwrap();
    assert_eq!(until - at, 60_000, "one minute, the paper's upper bound");
    let (title, summary) = fix_summary("chubby-lock-delay/lock-delay");
    assert_eq!(title, "Use Chubby's longest lock delay (60 s)");
    assert!(summary.contains("the longest a Chubby client may choose"));
    let x = leaseline::model::scenario::Flavor::Chubby.explainer();
    assert!(x.contains("the client chose, up to a minute (the model uses the full minute)"));
}

/// Points 9 and 10: the modelling choices are labelled where the learner reads them.
#[test]
fn consul_and_chubby_say_which_numbers_are_the_models() {
    let x = leaseline::model::scenario::Flavor::Consul.explainer();
    assert!(x.contains("a modelling choice, not Consul's rule"));
    let sc = open("chubby-failover");
    // The run's KeepAlives go out every 4 s, as the description says — and calls it a
    // simplification.
    let t = simulate(&sc).unwrap();
    let sends: Vec<i64> = t
        .entries
        .iter()
        .filter(|e| {
            e.node == C1
                && matches!(
                    &e.event,
                    Event::Sent { to, msg: leaseline::model::msg::Msg::Renew { .. }, .. }
                        if *to == NodeId::COORD
                )
        })
        .map(|e| e.t.0)
        .collect();
    assert!(
        sends.len() > 3 && sends.windows(2).all(|w| w[1] - w[0] == 4_000),
        "{sends:?}"
    );
    assert!(sc.description.contains("sends KeepAlives every 4 s"));
    assert!(sc.description.contains("Two simplifications"));
    assert!(sc
        .description
        .contains("keeps a KeepAlive waiting at the master"));
    assert!(sc
        .description
        .contains("the most the old master may have granted"));
}

/// Point 16: the pause caught by Redlock's validity check is antirez's reply; the run
/// refuses the lock with negative validity.
#[test]
fn redlock_pause_in_flight_credits_antirez() {
    let sc = open("redlock-pause-in-flight");
    let t = simulate(&sc).unwrap();
    assert!(t.entries.iter().any(|e| e.node == C1
        && matches!(e.event, Event::QuorumFailed { validity_ms, .. } if validity_ms < 0)));
    assert!(sc
        .description
        .contains("antirez's reply to Kleppmann (\"Is Redlock safe?\", 2016)"));
}

/// Point 17: redis-clock-jump has its fenced run, safe because the fence refuses both
/// token-less writes, and the README lists it.
#[test]
fn redis_clock_jump_has_a_fenced_run_and_the_readme_lists_it() {
    let v = check(&run("redis-clock-jump/fenced"));
    assert!(v.safe);
    assert_eq!(
        (
            v.stats.tokenless_writes_rejected,
            v.stats.stale_writes_rejected
        ),
        (2, 0)
    );
    let readme = include_str!("../README.md");
    assert!(readme.contains("`redis-clock-jump`") && readme.contains("`redis-clock-jump/fenced`"));
    assert!(open("redis-clock-jump")
        .description
        .contains("a fence refuses both writes"));
}

/// Point 18: the docs give Redlock's drift allowance as the model computes it.
#[test]
fn the_docs_give_redlocks_drift_as_the_model_computes_it() {
    use leaseline::model::flavors::redlock::drift_ms;
    assert_eq!(drift_ms(10_000), 102);
    let doc = include_str!("../docs/scenario-format.md");
    assert!(doc.contains("Redlock's drift allowance of TTL/100 + 2 ms\n(102 ms for a 10 s TTL)"));
    assert!(!doc.contains("2 ms drift allowance"));
}

/// Point 20: a delayed restart keeps the master down a bit longer than the longest TTL.
#[test]
fn a_delayed_restart_outlasts_the_longest_ttl() {
    let sc = open("redlock-restart/delayed-restart");
    let ttl = sc.clients.iter().map(|c| c.ttl_ms).max().unwrap();
    assert!(sc.coordinator.restart_delay_ms > ttl);
    assert!(check(&simulate(&sc).unwrap()).safe);
    let (title, summary) = fix_summary("redlock-restart/delayed-restart");
    assert_eq!(title, "Keep a restarted master down longer than the TTL");
    assert!(summary.contains(&format!(
        "({} s against {} s)",
        sc.coordinator.restart_delay_ms / 1000,
        ttl / 1000
    )));
    assert!(open("redlock-restart")
        .description
        .contains("a bit more than the longest TTL in use"));
}

/// Every "token N" in `text`.
fn tokens_named(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("token ") {
        rest = &rest[i + "token ".len()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = digits.parse() {
            out.push(n);
        }
    }
    out
}

/// Every "t = X s" in `text`, in ms.
fn times_named(text: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("t = ") {
        rest = &rest[i + "t = ".len()..];
        let num: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        if rest[num.len()..].starts_with(" s") {
            let (whole, frac) = num.split_once('.').unwrap_or((&num, ""));
            let frac = format!("{frac:0<3}");
            if let (Ok(w), Ok(f)) = (whole.parse::<i64>(), frac[..3].parse::<i64>()) {
                out.push(w * 1_000 + f);
            }
        }
    }
    out
}

/// No sentence a lesson shows — its description, and every beat of its walkthrough as
/// placed on its own run — names a fencing token its run never grants, or a moment
/// ("t = 50 s") at which nothing happens in its run. (A token is the
/// number a reader follows from grant to write; a description that says "token 34" over a
/// run whose second grant carries 35 contradicts the drawing beside it.) The sentence is
/// read against the run's grants, so a model or scenario change that moves a token fails
/// here, naming the lesson and the sentence.
#[test]
fn no_lesson_names_a_token_or_a_moment_its_run_does_not_have() {
    use leaseline::session::Run;
    use std::rc::Rc;
    let mut checked = 0;
    let mut wrong = Vec::new();
    let mut names: Vec<(String, Scenario)> = every_variant();
    for p in ["gc-pause", "gc-pause-fenced", "clean", "eight-clients"] {
        names.push((p.to_string(), open(p)));
    }
    for (name, sc) in names {
        let run = Run::new(Rc::new(sc));
        let granted: Vec<u64> = run
            .trace
            .entries
            .iter()
            .filter_map(|e| match e.event {
                Event::LeaseGranted { token, .. } => Some(token),
                _ => None,
            })
            .collect();
        let mut texts = vec![run.scenario.description.clone()];
        if let Some(w) = course::walkthrough(&name) {
            let facts = run.facts();
            for (b, at) in w.place(&facts).into_iter().enumerate() {
                if let Some(t) = at.and_then(|i| w.text(b, i, &facts)) {
                    texts.push(t);
                }
            }
        }
        let moments: Vec<i64> = run.trace.entries.iter().map(|e| e.t.0).collect();
        for t in texts {
            for ms in times_named(&t) {
                checked += 1;
                // Said to a tenth of a second or better: something happens within 50 ms.
                if !moments.iter().any(|&m| (m - ms).abs() <= 50) {
                    wrong.push(format!(
                        "{name}: t = {ms} ms, when nothing happens, in: {t}"
                    ));
                }
            }
            for n in tokens_named(&t) {
                checked += 1;
                if !granted.contains(&n) {
                    wrong.push(format!("{name}: token {n} (granted: {granted:?}) in: {t}"));
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} mentions read");
    assert!(
        wrong.is_empty(),
        "{} sentences name a token or a moment the run does not have:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Point 14, on the drawing too: a service that gives no token (Redis, Redlock: grants
/// carry 0) is never drawn as "token 0" — not in a bar's or a mark's label, not in its
/// hover title.
#[test]
fn no_diagram_says_token_0() {
    use leaseline::view::layout;
    let mut tokenless = 0;
    for (name, sc) in every_variant() {
        let trace = simulate(&sc).unwrap();
        let d = layout::diagram(&trace, &check(&trace));
        let bars = d.bars.iter().map(|b| (b.label.as_ref(), &b.title));
        let marks = d.marks.iter().map(|m| (m.label.as_ref(), &m.title));
        for (label, title) in bars.chain(marks) {
            let label = label.map_or("", |l| l.text.as_str());
            for text in [label, title.as_str()] {
                assert!(!text.contains("token 0"), "{name}: {text}");
                tokenless += usize::from(text.contains("no token"));
            }
        }
    }
    assert!(
        tokenless > 0,
        "the Redis and Redlock runs draw their token-less leases"
    );
}
