//! The interview questions: each a run stopped at its decisive moments, where the reader
//! predicts what happens next before the run goes on. A stop waits for an event in the
//! model, like a walkthrough's beat, and its answer is the kind of entry the run makes
//! there: the grade comes from the run, never from a table of right answers.

use crate::model::scenario::{CountFrom, FailMode, FenceMode, Scenario, Step};
use crate::model::trace::json::{about, kind};
use crate::model::trace::Trace;
use crate::teach::narrate::fence_words;
use crate::teach::walkthrough::{C1, C2, COORD, DB};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;

/// The decisive moment a stop waits for: the first entry on `node`, about `about`, whose
/// kind is one of `kinds` — after the first `after` moment, when one is given. Which kind
/// it turns out to be is the answer; a choice whose kind is not among `kinds` is a
/// prediction the model never bears out.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    pub node: NodeId,
    pub kinds: &'static [&'static str],
    pub about: Option<NodeId>,
    pub after: Option<&'static Moment>,
}

impl Moment {
    fn matches(&self, e: &crate::model::trace::Entry) -> bool {
        e.node == self.node
            && self.kinds.contains(&kind(&e.event))
            && (self.about.is_none() || about(&e.event) == self.about)
    }

    /// The entry of this moment in `trace`, searched from `from` on.
    fn find(&self, trace: &Trace, from: usize) -> Option<usize> {
        let from = match self.after {
            Some(a) => a.find(trace, from)? + 1,
            None => from,
        };
        let k = trace
            .entries
            .get(from..)?
            .iter()
            .position(|e| self.matches(e))?;
        Some(from + k)
    }
}

/// One answer; it is right when the moment's event has kind `means`.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub text: &'static str,
    pub means: &'static str,
}

/// A fact a stop states beside its question because the answer turns on it and the page
/// does not show it while the learner predicts: the fence switch is hidden during a
/// question (its state would give the answer away when storage is what is asked about),
/// and a client's settings are not drawn at all. Read from the scenario the stop plays,
/// so it is never out of step with the run that grades the answer.
#[derive(Clone, Copy, Debug)]
pub enum Given {
    /// What storage checks before it takes a write.
    Fence,
    /// A client's lease: its TTL, what it counts from, and the work its job does.
    Lease(NodeId),
    /// What a client does when the lock service does not answer.
    Unreachable(NodeId),
}

impl Given {
    /// The fact in a sentence, read from `sc`; `None` for a client the scenario lacks.
    pub fn text(self, sc: &Scenario) -> Option<String> {
        let client = |c: NodeId| match c {
            NodeId::Client(i) => sc.clients.get(usize::from(i)),
            _ => None,
        };
        Some(match self {
            Given::Fence if sc.storage.fence == FenceMode::None => {
                "Storage here checks no token: it takes any write it is sent.".to_string()
            }
            Given::Fence => format!(
                "Storage here checks tokens ({}).",
                fence_words(sc.storage.fence)
            ),
            Given::Lease(c) => {
                let spec = client(c)?;
                let work: i64 = spec
                    .job
                    .iter()
                    .map(|s| match s {
                        Step::Work { ms } => *ms,
                        _ => 0,
                    })
                    .sum();
                let from = match spec.count_from {
                    CountFrom::Grant => "from the grant",
                    CountFrom::Request => "from its request",
                };
                let renew = match spec.renew_every_ms {
                    Some(ms) => format!(", renewed every {}", fmt_ms(ms)),
                    None => ", never renewed".to_string(),
                };
                format!(
                    "{}'s lease: {} counted {from}{renew}; its job: {} of work.",
                    capitalized(&c.name()),
                    fmt_ms(spec.ttl_ms),
                    fmt_ms(work)
                )
            }
            Given::Unreachable(c) => {
                let spec = client(c)?;
                let tries = match spec.retry.max_attempts {
                    0 => "tries until it is answered".to_string(),
                    1 => "tries once".to_string(),
                    n => format!("tries {n} times, {} apart", fmt_ms(spec.retry.interval_ms)),
                };
                let then = match spec.unreachable {
                    FailMode::Open => "unreachable: \"open\" (go on without the lock)",
                    FailMode::Closed => "unreachable: \"closed\" (give up)",
                };
                format!(
                    "{}'s settings: when the lock service does not answer, it {tries}, then \
                     follows {then}.",
                    capitalized(&c.name())
                )
            }
        })
    }
}

/// "client 1" → "Client 1": a node's prose name at the start of a sentence.
fn capitalized(name: &str) -> String {
    let mut cs = name.chars();
    cs.next()
        .map(|c| c.to_uppercase().chain(cs).collect())
        .unwrap_or_default()
}

/// Predict, then reveal: the timeline stops just before `at`, asks, and plays on through
/// `then` (the consequence worth seeing) before it pauses again.
///
/// A stop is graded against what its run does, so its question must ask about that run
/// ("what will this code do?"). A question about what is *right* is asked over a run of
/// the right behaviour: `on` names the fix variant the stop plays instead of the
/// question's own scenario.
#[derive(Clone, Copy, Debug)]
pub struct Stop {
    pub at: Moment,
    pub question: &'static str,
    pub choices: &'static [Choice],
    pub explain: &'static str,
    /// The consequence the reveal plays on to, searched after the decisive event (`None`:
    /// the decisive event is its own consequence).
    pub then: Option<Moment>,
    /// The scenario this stop plays, when it is not the question's (a fix variant).
    pub on: Option<&'static str>,
    /// What the stop states beside its question, so the answer can be reasoned out from
    /// what the learner is shown.
    pub given: &'static [Given],
}

impl Stop {
    /// The entry of the decisive event in `trace`, if it happens.
    pub fn locate(&self, trace: &Trace) -> Option<usize> {
        self.at.find(trace, 0)
    }

    /// The entry of the consequence the reveal shows: the first `then` event after the
    /// decisive one, or the decisive event itself.
    pub fn consequence(&self, trace: &Trace) -> Option<usize> {
        let at = self.locate(trace)?;
        let Some(m) = self.then else { return Some(at) };
        Some(m.find(trace, at).unwrap_or(at))
    }

    /// The facts stated beside the question, read from the scenario the stop plays.
    pub fn givens(&self, sc: &Scenario) -> Vec<String> {
        self.given.iter().filter_map(|g| g.text(sc)).collect()
    }

    /// The right choice, read from what the model did — never stored.
    pub fn answer(&self, trace: &Trace) -> Option<usize> {
        let e = &trace.entries[self.locate(trace)?];
        self.choices.iter().position(|c| c.means == kind(&e.event))
    }
}

/// One of seed 004's interview questions, as a guided sequence of stops.
pub struct Question {
    pub asks: &'static str,
    /// The preset or lesson variant it plays.
    pub scenario: &'static str,
    pub stops: &'static [Stop],
    pub model_answer: &'static str,
}

/// Client 1's late write reaching storage: accepted or refused. Question 1 asks it of
/// storage that checks no token, question 5 of the same run with a fence; each stop says
/// which storage it is ([`Given::Fence`]), so the two answers differ for the reason the
/// lesson is about.
const STORAGE_DECIDES: Stop = Stop {
    at: Moment { node: DB, kinds: &["write_accepted", "write_rejected"], about: Some(C1), after: None },
    question: "Client 1 wakes and writes with token 33, after client 2 wrote with 34. What does storage do?",
    choices: &[
        Choice { text: "Accepts it and overwrites client 2's value", means: "write_accepted" },
        Choice { text: "Rejects it: 33 is older than 34", means: "write_rejected" },
        Choice { text: "The lock library stops the write before it is sent", means: "job_aborted" },
    ],
    explain: "Only a resource that compares tokens can tell an old holder from a new one. Without a fence, storage has no reason to refuse; with one, the stale token is turned away whatever the client believes.",
    then: None,
    on: None,
    given: &[Given::Fence],
};

/// Client 2's request waiting in line at the lock service.
const C2_QUEUED: Moment = Moment {
    node: COORD,
    kinds: &["request_queued"],
    about: Some(C2),
    after: None,
};

/// Client 1 learning that its session is gone, and what its code does about it.
const SESSION_LOST: Moment = Moment {
    node: C1,
    kinds: &["loss_ignored", "job_aborted"],
    about: None,
    after: None,
};

pub const QUESTIONS: &[Question] = &[
    Question {
        asks: "Two clients both believe they hold the lock. Walk me through the timeline.",
        scenario: "gc-pause",
        stops: &[
            Stop {
                // The lock service's next decision once client 2 waits in line: it grants
                // client 2 the lock (client 1's lease ran out), or client 1 releases first.
                // The run decides which: with a pause shorter than the lease, client 1 wakes
                // in time and releases.
                at: Moment { node: COORD, kinds: &["lease_granted", "lease_released"], about: None, after: Some(&C2_QUEUED) },
                question: "Client 1 is frozen mid-job, holding the lock, and client 2 waits in line for it. What does the lock service do next?",
                choices: &[
                    Choice { text: "Grants client 2 the lock once client 1's lease runs out, frozen holder or not", means: "lease_granted" },
                    Choice { text: "Keeps client 2 waiting until client 1 releases the lock", means: "lease_released" },
                ],
                explain: "A lease exists so a vanished holder cannot block everyone forever: when its time runs out the service frees the lock, and it cannot tell a frozen client from a dead one. (Had client 1 woken before its lease ran out, it would have released the lock itself.)",
                // Client 2 taking the lock is the grant's visible consequence.
                then: Some(Moment { node: C2, kinds: &["belief_started"], about: None, after: None }),
                on: None,
                given: &[Given::Lease(C1)],
            },
            STORAGE_DECIDES,
        ],
        model_answer: "Client 1 takes a lease and is paused past its TTL (a GC, a stall, a slow network). The service expires the lease and grants client 2; client 1 resumes without knowing and acts on a lock it no longer holds. The fix is not a longer lease but a fencing token the resource checks — or accepting the lock as an efficiency tool and making overlap harmless.",
    },
    Question {
        asks: "Why is sizing the lock's TTL above the p99 pause not enough?",
        scenario: "tail-latency",
        stops: &[Stop {
            at: Moment { node: COORD, kinds: &["lease_expired", "lease_released"], about: Some(C1), after: None },
            question: "Pauses here have a p99 of about 3 s, so a 5 s lease for a 2 s job looks safe. Client 1 has just been paused. What happens to its lease first?",
            choices: &[
                Choice { text: "It runs out while client 1 is paused", means: "lease_expired" },
                Choice { text: "Client 1 wakes, finishes and releases it", means: "lease_released" },
            ],
            explain: "A p99 says one pause in a hundred is longer, and says nothing about how much longer: this run's pause, set in the scenario, is one of those. A TTL sized above the p99 is a bet that the tail never comes while the lock is held; renewal, checks at step boundaries and a fence at storage are what cover the hundredth pause.",
            // Client 2 writing under the lock client 1 still believes in is the point.
            then: Some(Moment { node: DB, kinds: &["write_accepted"], about: Some(C2), after: None }),
            on: None,
            given: &[Given::Lease(C1)],
        }],
        model_answer: "The lease must outlive the longest pause or run, and a percentile bounds only most of them: the tail is unbounded exactly where locks are needed (GC, swapping, a stalled disk, a slow network). Use a renewal watchdog whose own failures are watched, check the lease at every step boundary and stop when it is gone, and fence or make idempotent the writes, so the pause past the TTL is harmless rather than rare.",
    },
    Question {
        asks: "Your client loses its lock-service session in the middle of a job. What does the deployed code do, and what should it do?",
        scenario: "partition-duplicate-effects",
        stops: &[Stop {
            at: SESSION_LOST,
            question: "Client 1 learns that its session is gone. This is the code as it was deployed: what will it do next?",
            choices: &[
                Choice { text: "Logs a warning and carries on", means: "loss_ignored" },
                Choice { text: "Stops issuing work and aborts", means: "job_aborted" },
            ],
            explain: "Losing the session is losing the lock. This code only logs it, so everything after that point is unprotected — here, a second payment batch.",
            // The duplicate payment is what the learner should see.
            then: Some(Moment { node: DB, kinds: &["effect_performed"], about: Some(C1), after: None }),
            on: None,
            given: &[],
        },
        Stop {
            at: SESSION_LOST,
            question: "Now the version you would ship. The same partition, the same lost session: what should client 1 do?",
            choices: &[
                Choice { text: "Log a warning and carry on", means: "loss_ignored" },
                Choice { text: "Stop issuing work and abort", means: "job_aborted" },
            ],
            explain: "Stopping is the only safe reaction the client itself controls: the second payment batch is never sent. It still leaves a window between losing the lock and noticing it, which only the resource can close.",
            then: None,
            on: Some("partition-duplicate-effects/stop-on-loss"),
            given: &[],
        }],
        model_answer: "Treat session loss as a stop signal wired to the same path as lease loss: stop issuing operations, revalidate before continuing, and let the resource reject duplicates (an idempotency key, a fence) so a late action is harmless.",
    },
    Question {
        asks: "The lock service is unreachable. Do you fail open or fail closed?",
        scenario: "coordinator-unreachable",
        stops: &[Stop {
            at: Moment { node: C1, kinds: &["failed_open", "job_aborted"], about: None, after: None },
            question: "The lock service has not answered client 1's tries. Given its settings, what will it do?",
            choices: &[
                Choice { text: "Runs the job without the lock", means: "failed_open" },
                Choice { text: "Gives up and stops", means: "job_aborted" },
            ],
            explain: "This code fails open, and both clients send the nightly report. Failing open risks the duplicate work the lock was meant to prevent; failing closed ties this job's availability to the lock service's. Both are choices; the mistake is making neither on purpose.",
            then: Some(Moment { node: DB, kinds: &["effect_performed"], about: Some(C2), after: None }),
            on: None,
            given: &[Given::Unreachable(C1)],
        }],
        model_answer: "It is a per-job decision with a blast radius: fail open when duplicates are cheap, fail closed when they are not, and write it down. Paths that must be correct should not depend on the choice at all — the resource rejects duplicates itself.",
    },
    Question {
        asks: "What does a fencing token add that the lock cannot?",
        scenario: "gc-pause-fenced",
        stops: &[STORAGE_DECIDES],
        model_answer: "An ordering the resource can check. Every grant carries a number that only goes up; storage remembers the highest it has accepted and refuses anything lower, atomically and durably. A stale holder can still believe whatever it likes — its writes just stop landing.",
    },
];

#[cfg(test)]
mod quiz_tests {
    use super::*;
    use crate::model::sim::simulate;
    use crate::teach::library;
    use crate::teach::presets::preset;

    fn run(name: &str) -> Trace {
        let sc = preset(name)
            .map(|p| p.scenario())
            .or_else(|| library::find(name))
            .unwrap_or_else(|| panic!("no scenario {name}"));
        simulate(&sc).unwrap()
    }

    #[test]
    fn every_stop_has_exactly_the_answer_the_model_gives() {
        // (question, stop) → the choice the run makes right, and the decisive entry: its
        // index, true time and kind. Read off each question's own run and checked against
        // the lessons (Kleppmann 2016: the grant, the accepted stale write; the fenced run
        // rejects it), so a change to the model that moves an answer fails here.
        const EXPECTED: [(usize, usize, usize, usize, i64, &str); 7] = [
            (0, 0, 0, 18, 30_005, "lease_granted"),
            (0, 1, 0, 34, 50_005, "write_accepted"),
            (1, 0, 0, 17, 5_005, "lease_expired"),
            (2, 0, 0, 25, 90_010, "loss_ignored"),
            (2, 1, 1, 25, 90_010, "job_aborted"),
            (3, 0, 0, 19, 7_000, "failed_open"),
            (4, 0, 1, 34, 50_005, "write_rejected"),
        ];
        let stops: usize = QUESTIONS.iter().map(|q| q.stops.len()).sum();
        assert_eq!(stops, EXPECTED.len(), "every stop is pinned");
        for (qi, si, answer, entry, t, kind) in EXPECTED {
            let q = &QUESTIONS[qi];
            let s = &q.stops[si];
            let trace = run(s.on.unwrap_or(q.scenario));
            assert_eq!(
                s.locate(&trace),
                Some(entry),
                "{}: {}",
                q.scenario,
                s.question
            );
            let e = &trace.entries[entry];
            assert_eq!(
                (e.t.0, crate::model::trace::json::kind(&e.event)),
                (t, kind)
            );
            assert_eq!(
                s.answer(&trace),
                Some(answer),
                "{}: {}",
                q.scenario,
                s.question
            );
        }
    }

    /// The first stop is not answered by construction. Over the GC pause the lease runs out
    /// and client 2 is granted the lock; with a pause shorter than the lease, client 1
    /// wakes in time and the lock service's next decision is the release.
    #[test]
    fn the_first_stop_is_decided_by_the_run() {
        use crate::model::scenario::FaultKind;
        let stop = &QUESTIONS[0].stops[0];
        assert_eq!(stop.answer(&run("gc-pause")), Some(0));
        let mut sc = preset("gc-pause").unwrap().scenario();
        for f in &mut sc.faults {
            if let FaultKind::Pause { for_ms, .. } = &mut f.kind {
                *for_ms = 5_000;
            }
        }
        let short = simulate(&sc).unwrap();
        assert_eq!(stop.answer(&short), Some(1), "released before any grant");
        assert_eq!(stop.choices.len(), 2);
        assert!(stop
            .choices
            .iter()
            .all(|c| stop.at.kinds.contains(&c.means)));
    }

    /// What a stop states beside its question is read from the scenario it plays: the
    /// two storage stops say which storage each is, and the unreachable stop quotes the
    /// client's own settings, edited or not.
    #[test]
    fn a_stop_states_what_its_answer_turns_on_read_from_its_run() {
        let scenario = |name: &str| {
            preset(name)
                .map(|p| p.scenario())
                .or_else(|| library::find(name))
                .unwrap()
        };
        let said = |qi: usize, si: usize| {
            let q = &QUESTIONS[qi];
            let s = &q.stops[si];
            s.givens(&scenario(s.on.unwrap_or(q.scenario))).join(" ")
        };
        assert_eq!(
            said(0, 1),
            "Storage here checks no token: it takes any write it is sent."
        );
        assert_eq!(
            said(4, 0),
            "Storage here checks tokens (fence: reject lower tokens)."
        );
        assert_eq!(
            said(1, 0),
            "Client 1's lease: 5.000s counted from the grant, never renewed; its job: 2.000s of work."
        );
        assert_eq!(
            said(3, 0),
            "Client 1's settings: when the lock service does not answer, it tries 3 times, 2.000s apart, then follows unreachable: \"open\" (go on without the lock)."
        );
        let closed = &QUESTIONS[3].stops[0];
        let text = closed.givens(&scenario("coordinator-unreachable/fail-closed"));
        assert!(
            text[0].ends_with("unreachable: \"closed\" (give up)."),
            "{text:?}"
        );
        // Every stop of a question that turns on a fact the page hides states it.
        for q in QUESTIONS {
            for s in q.stops {
                let sc = scenario(s.on.unwrap_or(q.scenario));
                assert_eq!(s.givens(&sc).len(), s.given.len(), "{}", s.question);
            }
        }
    }

    #[test]
    fn the_answer_follows_the_model_not_a_script() {
        // The same stop, two variants, two different right answers.
        assert_eq!(STORAGE_DECIDES.answer(&run("gc-pause")), Some(0));
        assert_eq!(STORAGE_DECIDES.answer(&run("gc-pause-fenced")), Some(1));
        let lost = &QUESTIONS[2].stops[0];
        assert_eq!(lost.answer(&run("partition-duplicate-effects")), Some(0));
        assert_eq!(
            lost.answer(&run("partition-duplicate-effects/stop-on-loss")),
            Some(1)
        );
        let ttl = &QUESTIONS[1].stops[0];
        assert_eq!(ttl.answer(&run("tail-latency")), Some(0));
        // A pause from the body of the distribution instead of its tail: client 1 wakes
        // inside its lease, finishes and releases.
        let mut short = library::find("tail-latency").unwrap();
        for f in &mut short.faults {
            if let crate::model::scenario::FaultKind::Pause { for_ms, .. } = &mut f.kind {
                *for_ms = 100;
            }
        }
        assert_eq!(ttl.answer(&simulate(&short).unwrap()), Some(1));
        let fail = &QUESTIONS[3].stops[0];
        assert_eq!(
            fail.answer(&run("coordinator-unreachable/fail-closed")),
            Some(1)
        );
    }
}
