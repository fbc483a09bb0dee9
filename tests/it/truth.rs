//! Teaching truth: sentences a careful reader found wrong or
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
use std::rc::Rc;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

use crate::common::{open, run};

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
    let readme = include_str!("../../README.md");
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
    let doc = include_str!("../../docs/scenario-format.md");
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

// ------------------------------------------------------------------ every sentence, read

/// One text a learner reads, and the run it speaks about.
struct Told {
    /// Where it is shown: "redis-failover: description", "gc-pause: beat 3".
    place: String,
    text: String,
    /// The text as written: a beat's template, whose `{placeholders}` the run fills (so
    /// only its literal numbers are claims to read here).
    literal: String,
    /// The run it is read against, and the lesson's other variants (a sentence about a
    /// fix — "with fencing, storage rejects it" — is read against those).
    run: Rc<Ran>,
    others: Vec<Rc<Ran>>,
    /// A choice or a "Break it yourself" suggests; it says nothing of its own run's verdict.
    suggests: bool,
}

/// A run and what its checker found.
struct Ran {
    sc: Scenario,
    trace: Trace,
    v: leaseline::analysis::check::Verdict,
}

fn ran(sc: Scenario) -> Rc<Ran> {
    let trace = simulate(&sc).unwrap();
    let v = check(&trace);
    Rc::new(Ran { sc, trace, v })
}

/// A lesson's fixes: (scenario name, summary).
type Fixes = Vec<(String, &'static str)>;

/// Every text the app shows about a run: each preset's and lesson's summary, description,
/// beats (as placed and filled on its run) and "Break it yourself"; each fix's title and
/// summary over the fix's run; each interview stop's question, choices and explanation
/// over the run it plays.
fn everything_told() -> Vec<Told> {
    use leaseline::teach::presets::PRESETS;
    use leaseline::teach::quiz::QUESTIONS;
    let mut out = Vec::new();
    let mut lessons: Vec<(&str, &str, Fixes)> = Vec::new();
    // gc-pause-fenced is gc-pause's fix, read with it.
    for p in PRESETS.iter().filter(|p| p.name != "gc-pause-fenced") {
        let fixes = if p.name == "gc-pause" {
            vec![("gc-pause-fenced".to_string(), "")]
        } else {
            vec![]
        };
        lessons.push((p.name, p.summary, fixes));
    }
    for l in LESSONS.iter() {
        let fixes = l
            .fixes
            .iter()
            .map(|f| (format!("{}/{}", l.id, f.name), f.summary));
        lessons.push((l.id, "", fixes.collect()));
    }
    for p in FLAVOR_PRESETS {
        let l = &p.lesson;
        let fixes = l
            .fixes
            .iter()
            .map(|f| (format!("{}/{}", l.id, f.name), f.summary));
        lessons.push((l.id, p.summary, fixes.collect()));
    }
    for (id, summary, fixes) in lessons {
        let base = ran(open(id));
        let fixed: Vec<(String, &str, Rc<Ran>)> = fixes
            .into_iter()
            .map(|(n, s)| (n.clone(), s, ran(open(&n))))
            .collect();
        let all: Vec<Rc<Ran>> = std::iter::once(base.clone())
            .chain(fixed.iter().map(|f| f.2.clone()))
            .collect();
        let told = |place: String, text: String, run: &Rc<Ran>, suggests: bool| Told {
            place,
            literal: text.clone(),
            text,
            run: run.clone(),
            others: all.clone(),
            suggests,
        };
        out.push(told(
            format!("{id}: summary"),
            summary.to_string(),
            &base,
            false,
        ));
        let d = base.sc.description.clone();
        out.push(told(format!("{id}: description"), d.clone(), &base, false));
        // A fix's run shows the lesson's description too, as the lesson's story (the fix's
        // own note says what changed), so the description is read against the lesson's run.
        for (name, summary, run) in &fixed {
            out.push(told(
                format!("{name}: summary"),
                summary.to_string(),
                run,
                false,
            ));
            if let Some(f) = course::fix_of(name) {
                out.push(told(
                    format!("{name}: title"),
                    f.title.to_string(),
                    run,
                    false,
                ));
            }
        }
        if let Some(w) = course::walkthrough(id) {
            let projection = leaseline::analysis::projection::Projection::new(&base.trace);
            let facts = leaseline::teach::facts::Facts::new(
                &base.trace,
                &base.sc,
                &projection,
                leaseline::model::sim::run,
            );
            for (b, at) in w.place(&facts).into_iter().enumerate() {
                if let Some(t) = at.and_then(|i| w.text(b, i, &facts)) {
                    let mut beat = told(format!("{id}: beat {b}"), t, &base, false);
                    beat.literal = w.beats[b].text.to_string();
                    out.push(beat);
                }
            }
            if let Some(t) = w.try_it_text(&facts) {
                let mut try_it = told(format!("{id}: break it yourself"), t, &base, true);
                try_it.literal = w.try_it.to_string();
                out.push(try_it);
            }
        }
    }
    for (qi, q) in QUESTIONS.iter().enumerate() {
        let own = ran(open(q.scenario));
        let told = |place: String, text: &str, run: &Rc<Ran>, suggests: bool| Told {
            place,
            text: text.to_string(),
            literal: text.to_string(),
            run: run.clone(),
            others: vec![own.clone(), run.clone()],
            suggests,
        };
        out.push(told(format!("question {qi}"), q.asks, &own, false));
        for (si, s) in q.stops.iter().enumerate() {
            let run = s.on.map_or(own.clone(), |n| ran(open(n)));
            let at = format!("question {qi} stop {si} ({})", s.on.unwrap_or(q.scenario));
            out.push(told(format!("{at}: question"), s.question, &run, false));
            out.push(told(format!("{at}: explanation"), s.explain, &run, false));
            for c in s.choices {
                out.push(told(format!("{at}: choice"), c.text, &run, true));
            }
        }
    }
    out
}

/// What a stated duration is about, from the words around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum About {
    /// A moment of the run ("at 10 s", "t = 30 s", "until 10 s", "minute 10").
    Moment,
    Ttl,
    Pause,
    /// A renewal, keepalive or retry period ("every 3 s").
    Every,
    Margin,
    LockDelay,
    Grace,
    /// A job's work ("a 10 s job", "works for 11 s").
    Work,
    /// How long the network holds a message.
    Held,
    /// How long a fault keeps something cut off or down.
    Outage,
    /// How far a clock is stepped ("25 s forward").
    Jump,
    /// Storage's gap between reading the mark and writing (a non-atomic fence).
    CheckGap,
}

/// A number with a unit, in ms, and how precisely it is said (half its last digit).
struct Said {
    ms: i64,
    tol: i64,
    /// The words it stands in, for messages and for the allow list.
    frag: String,
    about: Option<About>,
    /// Said in a sentence about another variant ("would", "with fencing", "the fix").
    hypothetical: bool,
}

/// The sentences of `text` (split after ". ", "; ", "? "; a decimal point does not end one).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    let b = text.as_bytes();
    for i in 0..b.len() {
        if matches!(b[i], b'.' | b';' | b'?') && b.get(i + 1).is_none_or(|c| *c == b' ') {
            out.push(text[from..=i].trim());
            from = i + 1;
        }
    }
    out.push(text[from..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// A sentence about another variant than the run it is shown over.
fn is_hypothetical(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    [
        "would",
        "could",
        "fix",
        "with fencing",
        "without fencing",
        "if ",
        "had ",
        "make ",
        "move ",
        "open ",
        "try ",
        "turn ",
        "switch ",
        "instead",
        "remedy",
        "a fence ",
        "nor can",
        "unless",
        "from 3.9.3",
    ]
    .iter()
    .any(|m| l.contains(m))
}

fn spelled(w: &str) -> Option<f64> {
    const WORDS: [(&str, f64); 16] = [
        ("a", 1.0),
        ("an", 1.0),
        ("one", 1.0),
        ("two", 2.0),
        ("three", 3.0),
        ("four", 4.0),
        ("five", 5.0),
        ("six", 6.0),
        ("eight", 8.0),
        ("ten", 10.0),
        ("fifteen", 15.0),
        ("twenty", 20.0),
        ("thirty", 30.0),
        ("forty", 40.0),
        ("sixty", 60.0),
        ("first", 1.0),
    ];
    let w = w.to_ascii_lowercase();
    WORDS.iter().find(|(s, _)| *s == w).map(|p| p.1)
}

/// Every number with a unit of time in `text`, classified by the words around it.
fn durations_said(text: &str) -> Vec<Said> {
    let mut out = Vec::new();
    for sentence in sentences(text) {
        let hypothetical = is_hypothetical(sentence);
        // Clauses: a duration is about what its own clause says.
        for clause in sentence
            .split([',', ':', '—', ';'])
            .flat_map(|c| c.split(" - "))
        {
            let words: Vec<&str> = clause.split_whitespace().collect();
            let bare = |w: &str| {
                w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '.' && c != '=')
                    .trim_end_matches('.')
                    .to_string()
            };
            for (i, w) in words.iter().enumerate() {
                let w = bare(w);
                // "20-second", "10-minute": number and unit in one word.
                let (num, unit, next) = match w.split_once('-') {
                    Some((n, u)) => (n.to_string(), u.to_string(), i + 1),
                    None => (
                        w.clone(),
                        words.get(i + 1).map_or(String::new(), |u| bare(u)),
                        i + 2,
                    ),
                };
                // "At minute 10", "Minute 10:": a moment said in minutes, the unit before it.
                let after_minute = i > 0 && bare(words[i - 1]).eq_ignore_ascii_case("minute");
                let (unit, next) = if after_minute && num.parse::<u32>().is_ok() {
                    ("minute".to_string(), i + 1)
                } else {
                    (unit, next)
                };
                let scale = match unit.as_str() {
                    "ms" => 1.0,
                    "s" | "second" | "seconds" => 1_000.0,
                    "minute" | "minutes" | "min" => 60_000.0,
                    _ => continue,
                };
                let (value, tol) = match num.parse::<f64>() {
                    Ok(v) => {
                        let decimals = num.split_once('.').map_or(0, |(_, f)| f.len());
                        (v, 0.5 * scale / 10f64.powi(decimals as i32))
                    }
                    Err(_) => match spelled(&num) {
                        Some(v) => (v, 0.5 * scale),
                        None => continue,
                    },
                };
                // "a second instance", "inserts a second one": an ordinal, not a duration.
                let word_after = words
                    .get(next)
                    .map_or(String::new(), |w| bare(w).to_ascii_lowercase());
                let ordinal = ["a", "an", "the"].contains(&num.to_ascii_lowercase().as_str())
                    && unit == "second"
                    && !["", "it", "later", "ago", "before", "after"]
                        .contains(&word_after.as_str());
                if ordinal {
                    continue;
                }
                let before: Vec<String> = words[..i]
                    .iter()
                    .map(|w| bare(w).to_ascii_lowercase())
                    .collect();
                let after: Vec<String> = words[next.min(words.len())..]
                    .iter()
                    .map(|w| bare(w).to_ascii_lowercase())
                    .collect();
                let prev = before.last().map_or("", String::as_str);
                let prev2 = before.iter().rev().nth(1).map_or("", String::as_str);
                let then = after.first().map_or("", String::as_str);
                let has = |list: &[String], s: &str| list.iter().any(|w| w.contains(s));
                let sentence_has = |k: &str| sentence.to_ascii_lowercase().contains(k);
                let about = if prev == "due" || prev == "at" && prev2 == "due" {
                    // A timer's due time, which need not be an event: left to UNPLACED.
                    None
                } else if ["at", "until", "from", "to", "t", "="].contains(&prev) && prev2 != "up"
                    || prev == "about" && prev2 == "at"
                    || prev == "minute"
                    || then == "into"
                {
                    Some(About::Moment)
                } else if prev == "every"
                    || prev == "after" && after.iter().any(|w| w.starts_with("retr"))
                {
                    Some(About::Every)
                } else if has(&before, "margin") || then == "less" {
                    Some(About::Margin)
                } else if has(&before, "lock-delay")
                    || has(&before, "lock") && has(&before, "delay")
                    || then.starts_with("lock")
                    || prev == "to" && prev2 == "up" && sentence_has("lock-delay")
                {
                    Some(About::LockDelay)
                } else if then == "forward" || then == "back" {
                    Some(About::Jump)
                } else if then == "later" && sentence_has("compares") {
                    Some(About::CheckGap)
                } else if then == "job"
                    || has(&before, "works")
                    || has(&before, "needs")
                    || has(&before, "runs") && has(&before, "backfill")
                {
                    Some(About::Work)
                } else if ["lease", "ttl", "session", "key", "keys"].contains(&then)
                    || has(&before, "ttl") && !has(&before, "than") && then != "election"
                    || has(&before, "pause") && has(&before, "lease") // "freezes past its 10 s TTL"
                    || has(&before, "lasts") && has(&before, "session")
                    || prev == "its" && prev2 == "inside"
                    || prev == "against"
                    || sentence_has("set nx px") && before.is_empty()
                {
                    Some(About::Ttl)
                } else if has(&before, "down") && has(&before, "stays") {
                    Some(About::Outage)
                } else if then == "grace" {
                    Some(About::Grace)
                } else if then == "pause"
                    || prev == "for" && ["freez", "stall", "pause"].iter().any(|k| has(&before, k))
                    || before.is_empty() && sentence_has("from the tail")
                {
                    Some(About::Pause)
                } else if has(&before, "packet")
                    || has(&before, "held")
                    || then == "later" && has(&before, "arrive")
                    || then == "late"
                {
                    Some(About::Held)
                } else if (prev == "for" || prev == "the" && prev2 == "for")
                    && ["cut", "down", "drops", "unavailable", "fails"]
                        .iter()
                        .any(|k| sentence_has(k))
                    || prev == "takes"
                    || then == "master" && sentence_has("fail-over")
                {
                    Some(About::Outage)
                } else {
                    None
                };
                let frag = words[i.saturating_sub(4)..next.min(words.len())].join(" ");
                out.push(Said {
                    ms: (value * scale).round() as i64,
                    tol: tol.max(1.0) as i64,
                    frag,
                    about,
                    hypothetical,
                });
            }
        }
    }
    out
}

/// What a run has for each kind of stated duration, in ms.
fn has_duration(r: &Ran, about: About, ms: i64, tol: i64) -> bool {
    use leaseline::model::msg::Msg;
    use leaseline::model::scenario::FaultKind as F;
    let sc = &r.sc;
    let near = |v: i64| (v - ms).abs() <= tol;
    let faults = sc.faults.iter();
    match about {
        About::Moment => {
            // A moment is said to the second or better: something happens within 50 ms
            // (a grant lands 5 ms after its request, a write 5 ms after it is sent).
            let near = |v: i64| (v - ms).abs() <= 50;
            r.trace.entries.iter().any(|e| near(e.t.0))
                || sc.faults.iter().any(|f| near(f.at_ms))
                || sc.clients.iter().any(|c| near(c.start_ms))
        }
        About::Ttl => sc.clients.iter().any(|c| near(c.ttl_ms)),
        About::Pause => faults
            .filter_map(|f| match f.kind {
                F::Pause { for_ms, .. } => Some(for_ms),
                _ => None,
            })
            .any(near),
        About::Every => {
            let mut sends: Vec<(NodeId, i64)> = Vec::new();
            let mut gaps = Vec::new();
            for e in &r.trace.entries {
                if let Event::Sent {
                    msg: Msg::Renew { .. },
                    ..
                } = &e.event
                {
                    if let Some(&(_, last)) = sends.iter().rev().find(|(n, _)| *n == e.node) {
                        gaps.push(e.t.0 - last);
                    }
                    sends.push((e.node, e.t.0));
                }
            }
            // A flavor's default keepalive is a share of the TTL (etcd a third, Consul half).
            let div = sc.coordinator.flavor.model().keepalive_div;
            sc.clients.iter().any(|c| {
                c.renew_every_ms.is_some_and(near)
                    || near(c.retry.interval_ms)
                    || near(c.timeout_ms)
                    || div > 0 && near(c.ttl_ms / div)
            }) || gaps.into_iter().any(near)
        }
        About::Margin => sc.clients.iter().any(|c| near(c.margin_ms)),
        About::LockDelay => {
            let model = sc.coordinator.flavor.model().lock_delay_ms;
            near(sc.coordinator.lock_delay_ms.unwrap_or(model))
                || near(model)
                || r.trace.entries.iter().any(|e| {
                    matches!(e.event, Event::LockDelayed { until_local } if near(until_local - e.local))
                })
        }
        About::Grace => near(sc.coordinator.grace_ms),
        About::Work => sc.clients.iter().any(|c| {
            let steps = c.job.iter().filter_map(|s| match s {
                leaseline::model::scenario::Step::Work { ms } => Some(*ms),
                _ => None,
            });
            steps.clone().any(near) || near(steps.sum())
        }),
        About::Held => {
            faults
                .filter_map(|f| match f.kind {
                    F::Delay { extra_ms, .. } => Some(extra_ms),
                    _ => None,
                })
                .any(near)
                || r.trace.entries.iter().any(
                    |e| matches!(e.event, Event::MessageHeld { extra_ms, .. } if near(extra_ms)),
                )
        }
        About::CheckGap => near(sc.storage.check_gap_ms),
        About::Jump => sc
            .faults
            .iter()
            .any(|f| matches!(f.kind, F::ClockJump { by_ms, .. } if near(by_ms.abs()))),
        About::Outage => {
            near(sc.coordinator.restart_delay_ms)
                || sc.faults.iter().enumerate().any(|(i, f)| match f.kind {
                    F::Restart { down_ms, .. } | F::Failover { down_ms, .. } => near(down_ms),
                    F::FailRenewals { for_ms } => near(for_ms),
                    F::Partition { a, b } => {
                        let healed = sc.faults[i..].iter().find_map(|h| match h.kind {
                            F::Heal { a: x, b: y } if (x, y) == (a, b) || (y, x) == (a, b) => {
                                Some(h.at_ms)
                            }
                            _ => None,
                        });
                        near(healed.unwrap_or(r.trace.end.0) - f.at_ms)
                    }
                    _ => false,
                })
        }
    }
}

/// A verdict a sentence states about its run, by the words that state it.
#[derive(Clone, Copy, Debug)]
enum Claim {
    /// "safe", "nothing corrupted": no violation.
    Safe,
    /// "overwrites", "lands over", "writes late": a stale write was accepted.
    StaleLands,
    /// "twice", "duplicate payments": an effect was done twice.
    Duplicate,
    /// "the fence rejects", "storage refuses": a write was refused.
    Refused,
    /// "two clients both believe", "two holders": two clients believed at once.
    TwoBelieve,
    /// "nothing gets done", "never goes out": no write and no effect landed.
    NothingDone,
}

const CLAIMS: &[(&str, Claim)] = &[
    ("the run is safe", Claim::Safe),
    ("safe, and", Claim::Safe),
    ("safe —", Claim::Safe),
    ("— safe", Claim::Safe),
    ("safe and useless", Claim::Safe),
    ("then safe", Claim::Safe),
    ("nothing corrupted", Claim::Safe),
    ("nothing is corrupted", Claim::Safe),
    ("does no harm", Claim::Safe),
    ("safety does not", Claim::Safe),
    ("overwrites", Claim::StaleLands),
    ("overwrite ", Claim::StaleLands),
    ("replaces client 2's value", Claim::StaleLands),
    ("lands over", Claim::StaleLands),
    ("writes over", Claim::StaleLands),
    ("writes late", Claim::StaleLands),
    ("passes the fence", Claim::StaleLands),
    ("lands anyway", Claim::StaleLands),
    ("write lands anyway", Claim::StaleLands),
    ("update is lost", Claim::StaleLands),
    ("stale write lands", Claim::StaleLands),
    ("twice", Claim::Duplicate),
    ("duplicate payments", Claim::Duplicate),
    ("two parcels", Claim::Duplicate),
    ("sends it again", Claim::Duplicate),
    ("fence rejects", Claim::Refused),
    ("fencing rejects", Claim::Refused),
    ("storage rejects", Claim::Refused),
    ("storage refuses", Claim::Refused),
    ("refuses every write", Claim::Refused),
    ("refuses both writes", Claim::Refused),
    ("is refused —", Claim::Refused),
    ("rejects the late write", Claim::Refused),
    ("refuses it", Claim::Refused),
    ("turns it away", Claim::Refused),
    ("both believe", Claim::TwoBelieve),
    ("two clients now believe", Claim::TwoBelieve),
    ("two holders", Claim::TwoBelieve),
    ("nothing gets done", Claim::NothingDone),
    ("never goes out", Claim::NothingDone),
    ("does not run at all", Claim::NothingDone),
];

fn claim_holds(r: &Ran, c: Claim) -> bool {
    use leaseline::analysis::check::ViolationKind as K;
    let has = |k: K| r.v.violations.iter().any(|x| x.kind == k);
    match c {
        Claim::Safe => r.v.safe,
        Claim::StaleLands => has(K::StaleWrite) || r.v.stats.stale_writes_accepted > 0,
        Claim::Duplicate => has(K::DuplicateEffect),
        Claim::Refused => r.v.stats.writes_rejected > 0,
        Claim::TwoBelieve => r.v.overlaps.iter().any(|o| o.clients.len() >= 2),
        Claim::NothingDone => r.v.stats.writes_accepted == 0 && r.v.stats.effects_performed == 0,
    }
}

/// Counts a sentence states: "client 3" (there is a third client), "two clients", "both
/// workers", "eight workers", "five masters", "three tries".
fn counts_said(text: &str) -> Vec<(String, usize, &'static str)> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map_or("", String::as_str);
        let n = match w.as_str() {
            "both" => Some(2),
            _ => spelled(w)
                .filter(|_| w != "a" && w != "an" && w != "first")
                .map(|v| v as usize),
        };
        let frag = words[i.saturating_sub(2)..(i + 2).min(words.len())].join(" ");
        if (w == "client" || w == "runner") && next.parse::<usize>().is_ok() {
            out.push((frag, next.parse().unwrap(), "at least"));
        } else if let Some(n) = n {
            if ["clients", "workers", "runners"].contains(&next) {
                out.push((frag, n, "clients"));
            } else if next == "masters"
                || w == "five" && words.get(i.wrapping_sub(1)).is_some_and(|p| p == "all")
            {
                out.push((frag, n, "masters"));
            } else if next == "tries"
                || next == "times" && words.get(i.wrapping_sub(1)).is_some_and(|p| p == "tries")
                || next == "unanswered"
            {
                out.push((frag, n, "tries"));
            }
        }
    }
    out
}

fn count_holds(r: &Ran, n: usize, what: &str) -> bool {
    match what {
        "at least" => r.sc.clients.len() >= n,
        "clients" => r.sc.clients.len() == n,
        "masters" => usize::from(r.sc.coordinator.flavor.nodes()) == n,
        _ => {
            r.sc.clients
                .iter()
                .any(|c| c.retry.max_attempts as usize == n)
        }
    }
}

/// Durations the reading above cannot place (or places and cannot find: a counterfactual,
/// a timer's due time), each with why it is right. Kept short: a
/// new sentence with a number the test does not understand fails until it is placed or
/// listed here, so no number passes unread.
const UNPLACED: &[(&str, &str, &str)] = &[
    ("etcd-leader-change: description", "5 minutes",
     "etcd's default lease checkpoint interval: a setting of etcd's, not a moment of the run"),
    ("starved-renewal: description", "(due at 9 s)",
     "a timer's due time inside the pause, not an event: the renewal period (3 s) times three"),
    ("slow-client-clock: description", "own clock only 28 s",
     "what the lease check finds gone on the slow clock: the beat fills it from the run ({gone_s})"),
    ("slow-client-clock: description", "service's clock 35 s",
     "the lock service's clock at that check: the beat fills it from the run ({coord_clock_s})"),
    ("slow-client-clock: description", "lease expired 5 s",
     "35 s on the lock service's clock less the 30 s lease"),
    ("non-atomic-fence: description", "arrive 2 ms",
     "the gap between the two writes' arrivals: the beat fills it from the run ({gap_ms})"),
    ("tail-latency: description", "p99 is about 3 s",
     "the drawn pauses' p99: the last beat fills it from the sweep ({tail_p99_s})"),
    ("question 1 stop 0 (tail-latency): question", "p99 of about 3 s",
     "the same p99 as the description's: the lesson's last beat fills it from the sweep ({tail_p99_s}) and its rendered text is checked at 3 s"),
    ("slow-client-clock: break it yourself", "minds for 5 s",
     "how long both clients believe in the margin fix's run: the_margin_fix_is_one_story_and_the_try_it_tells_its_run reads it"),
    ("release-lost/shorter-lease: summary", "lock 20 s",
     "the difference of the two TTLs, 30 s and 10 s"),
    ("release-lost/shorter-lease: summary", "expire 20 s",
     "the difference of the two TTLs, 30 s and 10 s"),
    ("redis-failover: description", "500 ms",
     "the failover fault's time (0.5 s) after the grant at 5 ms"),
    ("redlock-pause-in-flight: description", "round took 15 s",
     "the acquisition round, which the 15 s pause fills; redlock_pause_in_flight_credits_antirez reads its negative validity"),
    ("zookeeper-partition: description", "After 4 s",
     "the silence before Disconnected: the_zookeeper_lesson_tells_curators_lost_as_the_run_has_it reads it from the run"),
    ("zookeeper-partition: description", "timeout (8 s",
     "4/3 of the 6 s session timeout, the rule of ZooKeeper 3.9.3 the run does not model"),
    ("etcd-leader-change: description", "about 6.7 s",
     "a counterfactual: when the lease would have run out without the leader change (keepalive at 1.67 s + 5 s)"),
    ("etcd-leader-change: description", "plus the 1 s",
     "the election timeout a new leader adds: etcd_leader_change_is_the_lessors_promote_without_checkpointing reads it"),
];

/// No sentence contradicts another. Every text the app shows about
/// a run (summaries, descriptions, beats, fix titles and summaries, interview stops) is
/// read against that run's configuration, events and verdict:
/// - every duration it states is placed by the words around it (a lease or TTL, a pause,
///   a renewal period, a margin, a lock-delay, a grace period, a job's work, a held
///   message, an outage, a moment of the run) and must be that run's — or, in a sentence
///   about another variant ("with fencing", "the fix", "would"), one of its lesson's runs';
/// - every verdict it states ("safe", "overwrites", "twice", "the fence rejects", "two
///   holders", "nothing gets done") must be what the checker found (in a sentence about
///   another variant, what some variant of the lesson shows);
/// - every count ("both workers", "client 3", "five masters", "three tries") must be the
///   run's.
///
/// A duration the reading cannot place fails unless `UNPLACED` lists it with a reason, and
/// each kind of claim must be read a minimum number of times, so the test cannot quietly
/// read nothing.
#[test]
fn no_sentence_contradicts_its_run() {
    let told = everything_told();
    let mut wrong = Vec::new();
    let mut read: Vec<String> = Vec::new();
    let (mut durations, mut moments, mut verdicts, mut counts, mut skipped) = (0, 0, 0, 0, 0);
    let mut tokens = 0;
    let mut unplaced_used = vec![false; UNPLACED.len()];
    for t in &told {
        let lesson = t.place.split([':', ' ']).next().unwrap_or("");
        for d in durations_said(&t.literal) {
            let Some(about) = d.about else {
                match UNPLACED
                    .iter()
                    .position(|(at, frag, _)| t.place.starts_with(at) && d.frag.contains(frag))
                {
                    Some(k) => unplaced_used[k] = true,
                    None => wrong.push(format!(
                        "{}: cannot place \"{}\" (place it, or list it in UNPLACED with why): {}",
                        t.place, d.frag, t.text
                    )),
                }
                continue;
            };
            let runs: Vec<&Rc<Ran>> = if d.hypothetical || t.suggests {
                t.others.iter().collect()
            } else {
                vec![&t.run]
            };
            let listed = UNPLACED
                .iter()
                .position(|(at, frag, _)| t.place.starts_with(at) && d.frag.contains(frag));
            let ok = runs.iter().any(|r| has_duration(r, about, d.ms, d.tol));
            if let (false, Some(k)) = (ok, listed) {
                unplaced_used[k] = true;
                continue;
            }
            if about == About::Moment {
                moments += 1;
            } else {
                durations += 1;
            }
            read.push(format!(
                "{}: {:?} {} ms \"{}\"",
                t.place, about, d.ms, d.frag
            ));
            if !ok {
                wrong.push(format!(
                    "{}: \"{}\" — no {:?} of {} ms in {}: {}",
                    t.place,
                    d.frag,
                    about,
                    d.ms,
                    if runs.len() > 1 {
                        "any of the lesson's runs"
                    } else {
                        "its run"
                    },
                    t.text
                ));
            }
        }
        for s in sentences(&t.text) {
            let l = s.to_ascii_lowercase();
            for (words, claim) in CLAIMS {
                // "nothing refuses it", "rejects only lower tokens": not a claim about a write.
                let said = l.match_indices(words).any(|(at, _)| {
                    let before = &l[..at];
                    let after = &l[at + words.len()..];
                    !["nothing ", "not ", "cannot ", "no "]
                        .iter()
                        .any(|n| before.ends_with(n))
                        && !after.starts_with(" only")
                });
                if !said {
                    continue;
                }
                if t.suggests {
                    skipped += 1;
                    continue;
                }
                verdicts += 1;
                let hypothetical = is_hypothetical(s);
                let ok = if hypothetical {
                    t.others.iter().any(|r| claim_holds(r, *claim))
                } else {
                    claim_holds(&t.run, *claim)
                };
                read.push(format!("{}: {claim:?} \"{words}\"", t.place));
                if !ok {
                    wrong.push(format!(
                        "{}: says {claim:?} (\"{words}\"), but {}: {s}",
                        t.place,
                        if hypothetical {
                            "no run of the lesson shows it"
                        } else {
                            "its run does not"
                        }
                    ));
                }
            }
        }
        // Tokens, as the test above reads them, in every text (summaries, fixes, stops too).
        let grants = |r: &Ran| -> Vec<u64> {
            r.trace
                .entries
                .iter()
                .filter_map(|e| match e.event {
                    Event::LeaseGranted { token, .. } => Some(token),
                    _ => None,
                })
                .collect()
        };
        for n in tokens_named(&t.text) {
            tokens += 1;
            let runs: Vec<&Rc<Ran>> = if t.suggests || is_hypothetical(&t.text) {
                t.others.iter().collect()
            } else {
                vec![&t.run]
            };
            if !runs.iter().any(|r| grants(r).contains(&n)) {
                wrong.push(format!(
                    "{}: token {n}, which its run never grants: {}",
                    t.place, t.text
                ));
            }
        }
        for (frag, n, what) in counts_said(&t.text) {
            counts += 1;
            read.push(format!("{}: {what} {n} \"{frag}\"", t.place));
            let ok = count_holds(&t.run, n, what)
                || t.suggests && t.others.iter().any(|r| count_holds(r, n, what));
            if !ok {
                wrong.push(format!(
                    "{}: \"{frag}\" — the run has {} clients: {}",
                    t.place,
                    t.run.sc.clients.len(),
                    t.text
                ));
            }
        }
        let _ = lesson;
    }
    for (k, used) in unplaced_used.iter().enumerate() {
        if !used {
            wrong.push(format!(
                "UNPLACED lists {:?}, which no text says any more",
                UNPLACED[k]
            ));
        }
    }
    println!("{}", read.join("\n"));
    println!(
        "read {} texts: {durations} durations, {moments} moments, {verdicts} verdicts, {counts} counts, {tokens} tokens ({skipped} verdict words in suggestions not read)",
        told.len()
    );
    assert!(
        wrong.is_empty(),
        "{} sentences contradict their run:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(durations >= 40 && moments >= 25 && verdicts >= 40 && counts >= 15 && tokens >= 40,
        "too little read: {durations} durations, {moments} moments, {verdicts} verdicts, {counts} counts");
}

// ------------------------------------------------------------------ a reader's corrections

fn first_at(t: &Trace, p: impl Fn(&leaseline::model::trace::Entry) -> bool) -> Option<i64> {
    t.entries.iter().find(|e| p(e)).map(|e| e.t.0)
}

/// The starved watchdog: the run pauses the whole client (job and watchdog), and the text
/// says so, next to the Redisson report it credits, where only the watchdog starved.
#[test]
fn starved_renewal_says_the_whole_client_stands_in_for_a_starved_thread() {
    use leaseline::model::scenario::FaultKind;
    let sc = open("starved-renewal");
    assert!(sc
        .faults
        .iter()
        .any(|f| matches!(f.kind, FaultKind::Pause { node, .. } if node == C1)));
    let t = simulate(&sc).unwrap();
    let paused = first_at(&t, |e| {
        e.node == C1 && matches!(e.event, Event::Paused { .. })
    })
    .unwrap();
    let resumed = first_at(&t, |e| e.node == C1 && matches!(e.event, Event::Resumed)).unwrap();
    // Nothing of client 1 runs in the pause: no renewal, no step of the job.
    assert!(!t
        .entries
        .iter()
        .any(|e| e.node == C1 && e.t.0 > paused && e.t.0 < resumed));
    let d = &sc.description;
    assert!(
        d.contains("In Redisson issue 2665 only the watchdog thread starved"),
        "{d}"
    );
    assert!(
        d.contains("a 20 s pause of the whole client stands in"),
        "{d}"
    );
    let w = course::walkthrough("starved-renewal").unwrap();
    assert!(w.beats[1]
        .text
        .contains("only the watchdog thread was starved"));
}

/// etcd's mutex gives every contender its own key under the prefix; no text speaks of one
/// lock key holding the owner's revision.
#[test]
fn etcd_texts_give_each_contender_its_own_key() {
    let w = course::walkthrough("exact-fence").unwrap();
    let texts: Vec<&str> = w.beats.iter().map(|b| b.text).chain([w.try_it]).collect();
    let (title, summary) = fix_summary("exact-fence/transaction");
    let d = open("exact-fence").description;
    for t in texts.iter().copied().chain([title, summary, d.as_str()]) {
        assert!(!t.contains("lock key"), "{t}");
    }
    assert!(texts
        .iter()
        .any(|t| t.contains("a key of its own under the lock prefix")));
    assert!(summary.contains("own key under the lock prefix"));
    // The run: the two contenders' keys were created at different revisions.
    let t = run("exact-fence");
    let grants: Vec<u64> = t
        .entries
        .iter()
        .filter_map(|e| match e.event {
            Event::LeaseGranted { token, .. } => Some(token),
            _ => None,
        })
        .collect();
    assert!(grants.len() >= 2 && grants[0] < grants[1], "{grants:?}");
}

/// etcd raises a short TTL to its minimum; ZooKeeper's minimum is 2 × tickTime.
#[test]
fn minimum_ttls_are_told_as_the_services_apply_them() {
    use leaseline::model::scenario::Flavor;
    assert_eq!(Flavor::Etcd.model().min_ttl_ms, 2_000);
    assert_eq!(
        Flavor::Zookeeper.model().min_ttl_ms,
        2 * 2_000,
        "2 × tickTime 2000"
    );
    let x = Flavor::Etcd.explainer();
    assert!(
        x.contains("etcd raises a TTL under 2 seconds to 2 seconds"),
        "{x}"
    );
    let format = include_str!("../../docs/scenario-format.md");
    assert!(format.contains("etcd silently raises a shorter TTL to 2 s"));
    assert!(format.contains(
        "2 × tickTime with the sample `zoo.cfg`'s tickTime=2000, 6 s with the code default of 3000"
    ));
    let bound = include_str!("../../docs/safety-bound.md");
    assert!(bound.contains("etcd itself would raise a"));
    let mut sc = open("etcd-leader-change");
    sc.clients[0].ttl_ms = 1_000;
    let err = Scenario::from_json(&sc.to_json_pretty()).expect_err("a TTL under etcd's minimum");
    assert!(!err.to_string().contains("accepts"), "{err}");
}

/// Chubby: the fail-over costs no lock, but the client sees it; jeopardy holds back calls to
/// Chubby, not the client's work.
#[test]
fn chubby_failover_is_seen_by_the_client_and_blocks_only_chubby_calls() {
    let sc = open("chubby-failover");
    let t = simulate(&sc).unwrap();
    let jeopardy = first_at(&t, |e| {
        e.node == C1 && matches!(e.event, Event::Jeopardy { .. })
    })
    .expect("the client enters jeopardy");
    let safe = first_at(&t, |e| {
        e.node == C1 && e.t.0 > jeopardy && leaseline::model::trace::json::kind(&e.event) == "safe"
    })
    .expect("then safe");
    // It kept working through the fail-over and wrote with its lock.
    let write = first_at(
        &t,
        |e| matches!(&e.event, Event::WriteAccepted { client, .. } if *client == C1),
    )
    .unwrap();
    assert!(write > safe);
    assert!(check(&t).safe);
    let d = &sc.description;
    assert!(
        d.contains("The fail-over is not invisible to the client"),
        "{d}"
    );
    assert!(
        d.contains("held back only its calls to Chubby, not its work"),
        "{d}"
    );
    let x = leaseline::model::scenario::Flavor::Chubby.explainer();
    assert!(!x.contains("unnoticed") && x.contains("calls to Chubby, not the application"));
}

/// Tokens "higher than any before": etcd's and ZooKeeper's skip numbers, so no text says
/// they go up by one.
#[test]
fn no_text_says_revisions_go_up_by_one() {
    use leaseline::model::scenario::Flavor;
    let primer = leaseline::teach::narrate::FENCING_PRIMER;
    assert!(!primer.contains("one higher every time"));
    assert!(primer.contains("skip the numbers other changes took"));
    for f in [Flavor::Etcd, Flavor::Zookeeper] {
        let x = f.explainer();
        assert!(x.contains("skipping the numbers other changes took"), "{x}");
    }
}

/// Consul's api.Lock tells the holder through a channel; the lesson's code ignores it.
#[test]
fn consul_false_positive_names_the_channel_the_code_ignores() {
    let d = open("consul-false-positive").description;
    assert!(!d.contains("never having heard"), "{d}");
    assert!(d.contains("a channel that it closes when the lock is lost"));
    assert!(d.contains("this code never watches it"));
}

/// The slow clock's margin fix changes only the margin (counted from the request, as the
/// calculator's advice asks): the lease stays, the check fails, the stale write is never
/// sent, and both clients believe for as long as "Break it yourself" says.
#[test]
fn the_margin_fix_is_one_story_and_the_try_it_tells_its_run() {
    use leaseline::model::scenario::CountFrom;
    let base = open("slow-client-clock");
    let fixed = open("slow-client-clock/safety-margin");
    let (b, f) = (&base.clients[0], &fixed.clients[0]);
    assert_eq!(f.ttl_ms, b.ttl_ms, "the lease is not lengthened");
    assert_eq!((f.margin_ms, f.count_from), (10_000, CountFrom::Request));
    assert_eq!(fixed.clients[1], base.clients[1], "client 2 is untouched");
    let t = simulate(&fixed).unwrap();
    let v = check(&t);
    assert!(v.safe);
    assert_eq!(v.stats.writes_accepted, 1, "only client 2's write");
    assert!(t.entries.iter().all(
        |e| !matches!(&e.event, Event::Sent { msg: leaseline::model::msg::Msg::Write { .. }, .. } if e.node == C1)
    ));
    let overlap: i64 = v
        .overlaps
        .iter()
        .filter(|o| o.clients.len() >= 2)
        .map(|o| o.to.0 - o.from.0)
        .sum();
    assert_eq!((overlap + 500) / 1000, 5, "{overlap} ms");
    let w = course::walkthrough("slow-client-clock").unwrap();
    assert!(w.try_it.contains("for 5 s first"));
    assert!(!w.try_it.contains("in time"));
    let (title, _) = fix_summary("slow-client-clock/safety-margin");
    assert_eq!(title, "Trust the lease 10 s less, counted from the request");
}

/// The tail: the scenario sets its pause (the texts do not say the run drew it), and the
/// shares the description gives are the distribution's.
#[test]
fn tail_latency_tells_a_set_pause_and_the_distributions_shares() {
    use leaseline::model::scenario::FaultKind;
    let sc = open("tail-latency");
    assert!(sc
        .faults
        .iter()
        .any(|f| matches!(f.kind, FaultKind::Pause { for_ms: 6_000, .. })));
    let d = &sc.description;
    assert!(
        !d.contains("drew") && d.contains("sets one pause from the tail: 6 s"),
        "{d}"
    );
    for share in ["10–200 ms 90 %", "0.2–3 s 9.5 %", "longer 0.5 %"] {
        assert!(d.contains(share), "{share}");
    }
    let w = course::walkthrough("tail-latency").unwrap();
    assert!(w.beats.iter().all(|b| !b.text.contains("drew")));
    let q = &leaseline::teach::quiz::QUESTIONS[1];
    assert!(q.stops.iter().all(|s| !s.explain.contains("drew")));
    // The shares, from the generator the sweep uses.
    let mut rng = leaseline::model::sim::rng::Rng::new(11);
    let n = 200_000;
    let (mut body, mut mid, mut long) = (0, 0, 0);
    for _ in 0..n {
        match leaseline::teach::tail::draw_pause(&mut rng) {
            ..=200 => body += 1,
            201..=3_000 => mid += 1,
            _ => long += 1,
        }
    }
    let pct = |k: i32| f64::from(k) * 100.0 / f64::from(n);
    assert!((pct(body) - 90.0).abs() < 0.5, "{}", pct(body));
    assert!((pct(mid) - 9.5).abs() < 0.4, "{}", pct(mid));
    assert!((pct(long) - 0.5).abs() < 0.1, "{}", pct(long));
}

/// A lock with no lease at all is not a lesson about a TTL too short for the work.
#[test]
fn the_lock_without_a_lease_has_its_own_chapter() {
    use leaseline::teach::library::{CHAPTER_LEASE, CHAPTER_TTL};
    let l = LESSONS.iter().find(|l| l.id == "permanent-lock").unwrap();
    assert_eq!(l.chapter, CHAPTER_LEASE);
    assert_ne!(l.chapter, CHAPTER_TTL);
    let sc = l.scenario();
    assert!(
        sc.clients.iter().all(|c| c.ttl_ms > sc.horizon_ms),
        "no lease runs out"
    );
    let chapters = leaseline::teach::course::CHAPTERS;
    let at = |c: &str| chapters.iter().position(|x| *x == c).unwrap();
    assert_eq!(
        at(CHAPTER_LEASE) + 1,
        at(CHAPTER_TTL),
        "it comes before the TTL's chapter"
    );
}

/// The watchdog fix repeats runner 2's steps: the model has no step that resumes, and the
/// texts say so and why it matters.
#[test]
fn the_ttl_lesson_says_the_model_repeats_rather_than_resumes() {
    use leaseline::model::scenario::Step;
    let sc = open("ttl-shorter-than-work/watchdog");
    // Runner 2's job writes a step of its own after runner 1's "done".
    assert!(sc.clients[1]
        .job
        .iter()
        .any(|s| matches!(s, Step::Write { value, .. } if value.starts_with("step 1"))));
    let d = open("ttl-shorter-than-work").description;
    assert!(d.contains("the model has no step that resumes where the last holder stopped"));
    let w = course::walkthrough("ttl-shorter-than-work").unwrap();
    assert!(w
        .try_it
        .contains("repeats its steps over the finished schema"));
}

/// The progress-heartbeat lesson, claim by claim. Its watchdog renews a stuck job's lease
/// all through the hung call, and client 2, refused 8 times, gives up: the liveness
/// verdict names it. Renewing after each part lets the lease lapse while part 2 hangs,
/// client 2 takes the lock, and storage refuses client 1's late part 2 (without a fence
/// it lands over client 2's). A part that is only slow keeps the lock.
#[test]
fn the_progress_heartbeat_lesson_tells_its_runs() {
    use leaseline::analysis::liveness::JobEnd;
    use leaseline::model::msg::{Msg, RejectReason};
    use leaseline::model::scenario::Step;
    use leaseline::model::trace::{AbortWhy, LossHow};
    let at = |t: &Trace, p: &dyn Fn(&Event, NodeId) -> bool| -> Vec<i64> {
        t.entries
            .iter()
            .filter(|e| p(&e.event, e.node))
            .map(|e| e.t.0)
            .collect()
    };
    let renewed =
        |e: &Event, _: NodeId| matches!(e, Event::LeaseRenewed { client, .. } if *client == C1);
    let expired = |e: &Event, _: NodeId| matches!(e, Event::LeaseExpired { .. });
    let granted_c2 = |e: &Event, _: NodeId| matches!(e, Event::LeaseGranted { client, token: 34, .. } if *client == C2);

    // The lesson: a 15 s lease renewed every 5 s, part 2 hung for 50 s from t = 4 s.
    let sc = open("progress-heartbeat");
    let c1 = &sc.clients[0];
    assert_eq!((c1.ttl_ms, c1.renew_every_ms), (15_000, Some(5_000)));
    assert_eq!(c1.job[3], Step::Work { ms: 50_000 });
    assert_eq!(sc.clients[1].retry.interval_ms, 5_000);
    let t = simulate(&sc).unwrap();
    let v = check(&t);
    assert!(v.safe && v.rejections.is_empty());
    // The watchdog renews all the while: every 5 s from 5 s to 55 s, and the lease never
    // runs out.
    let r = at(&t, &renewed);
    assert_eq!(r.len(), 11, "{r:?}");
    assert!(
        r.windows(2).all(|w| (w[1] - w[0] - 5_000).abs() <= 20),
        "{r:?}"
    );
    assert!(at(&t, &expired).is_empty());
    // Client 2 is refused 8 times and gives up; the verdict says its work never completed.
    let busy = at(
        &t,
        &|e, _| matches!(e, Event::Sent { to, msg: Msg::Busy { .. }, .. } if *to == C2),
    );
    assert_eq!(busy.len(), 8);
    assert!(t.entries.iter().any(|e| e.node == C2
        && e.event
            == Event::JobAborted {
                why: AbortWhy::Refused { times: 8 }
            }));
    let p = &v.progress;
    assert!(!p.live());
    assert!(p.clients[1].stalled() && p.clients[1].superseded_by.is_none());
    assert_eq!(p.clients[0].job, JobEnd::Finished);
    let head = p.headline().unwrap();
    assert!(
        head.starts_with("client 2's work never completed"),
        "{head}"
    );
    assert!(v
        .summary()
        .contains("PROGRESS: client 2's work never completed"));
    // At 54 s the call returns and part 2 is written, with token 33.
    let part_2 = at(&t, &|e, _| {
        matches!(e, Event::WriteAccepted { client, value, token: Some(33), .. }
            if *client == C1 && &**value == "part 2 (c1)")
    });
    assert_eq!(part_2.len(), 1);
    assert!((part_2[0] - 54_000).abs() <= 50, "{part_2:?}");

    // The fix: no watchdog, a renewal after each part; the lease lapses 15 s after the
    // renewal that followed part 1, client 2 takes token 34, and storage refuses client
    // 1's part 2 with token 33 when the call returns.
    let fixed = open("progress-heartbeat/heartbeat");
    let c1 = &fixed.clients[0];
    assert_eq!(c1.renew_every_ms, None);
    assert_eq!(c1.job.iter().filter(|s| **s == Step::Renew).count(), 2);
    let t = simulate(&fixed).unwrap();
    let v = check(&t);
    assert!(v.safe);
    let r = at(&t, &renewed);
    assert_eq!(r.len(), 1, "one renewal, after part 1: {r:?}");
    let lapsed = at(&t, &expired);
    assert_eq!(lapsed.len(), 1);
    assert!((lapsed[0] - r[0] - 15_000).abs() <= 10);
    assert_eq!(at(&t, &granted_c2).len(), 1);
    assert!(at(&t, &granted_c2)[0] > lapsed[0]);
    assert_eq!(v.rejections.len(), 1);
    assert!(t.entries.iter().any(|e| matches!(&e.event,
        Event::WriteRejected { client, token: Some(33), reason: RejectReason::Lower { token: 33, mark: 34 }, .. }
            if *client == C1)));
    assert!(v.progress.live(), "client 1 was superseded, not stalled");
    assert_eq!(v.progress.clients[1].job, JobEnd::Finished);
    assert_eq!(v.progress.clients[0].superseded_by, Some(C2));

    // Without the fence the same renewals give client 2 its turn, and part 2 lands over it.
    let t = simulate(&open("progress-heartbeat/heartbeat-unfenced")).unwrap();
    let v = check(&t);
    assert!(!v.safe && v.stats.stale_writes_accepted == 1);
    assert!(v
        .violations
        .iter()
        .any(|x| x.kind == leaseline::analysis::check::ViolationKind::LostUpdate));
    assert_eq!(at(&t, &granted_c2).len(), 1);

    // A slow part: 12 s, inside the lease. Every renewal lands, the lease never runs out,
    // client 1 ends its belief only by releasing, and client 2 takes the lock after.
    let slow = open("progress-heartbeat/slow-part");
    let t = simulate(&slow).unwrap();
    let v = check(&t);
    assert!(v.safe && v.rejections.is_empty() && v.overlaps.is_empty());
    assert!(at(&t, &expired).is_empty());
    assert!(!t
        .entries
        .iter()
        .any(|e| matches!(e.event, Event::RenewalRefused { .. })));
    assert_eq!(at(&t, &renewed).len(), 2);
    let ends: Vec<&LossHow> = t
        .entries
        .iter()
        .filter(|e| e.node == C1)
        .filter_map(|e| match &e.event {
            Event::BeliefEnded { how, .. } => Some(how),
            _ => None,
        })
        .collect();
    assert_eq!(ends, [&LossHow::Released]);
    let released = at(
        &t,
        &|e, _| matches!(e, Event::LeaseReleased { client, .. } if *client == C1),
    );
    assert!(at(&t, &granted_c2)[0] > released[0]);
    assert!(v.progress.live());
    assert_eq!(v.stats.jobs_finished, 2);
}
