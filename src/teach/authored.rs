//! An author's own walkthrough and questions: the beats a course author wrote into a
//! scenario (`walkthrough` in the scenario format), placed on the events of the run it
//! narrates, and the questions (`questions`), graded by what that run does.
//!
//! A built-in beat waits for an event by its kind ([`super::walkthrough`]); an author
//! writes a time instead, which needs no knowledge of the trace's vocabulary. The beat is
//! told at the first event at or after that time, so the diagram shows what the beat talks
//! about as it is told — the same as a built-in beat, which the rest of the page (Back and
//! Next, the beat count, the progress a host records) cannot tell apart. A beat whose time
//! no event reaches is not told, like a built-in beat whose event never comes.
//!
//! An author's question is graded the way a built-in interview stop is: each choice names
//! an outcome ([`Outcome`]), and the first of those outcomes the run reaches at or after
//! the question's time is its decisive moment. The run holds just before it while the
//! learner predicts, and the choice naming what happened there is the right one. No answer
//! is stored, so an edit that changes the run changes the answer with it.

use crate::analysis::projection;
use crate::model::scenario::{AuthoredBeat, AuthoredQuestion, Outcome};
use crate::model::trace::{Event, Trace};

/// The trace entry each beat lands on, in order (`None`: no event at or after its time).
/// Two beats never share an entry: a later one waits for the next event, so Next always
/// moves on.
pub fn place(beats: &[AuthoredBeat], trace: &Trace) -> Vec<Option<usize>> {
    let mut from = 0;
    beats
        .iter()
        .map(|b| {
            let hit = trace.entries[from.min(trace.len())..]
                .iter()
                .position(|e| e.t.0 >= b.at_ms)
                .map(|i| from + i);
            if let Some(i) = hit {
                from = i + 1;
            }
            hit
        })
        .collect()
}

/// The outcome trace entry `i` is, if any; `two_at` lists the entries where a second
/// client comes to believe it holds the lock.
fn outcome_at(trace: &Trace, i: usize, two_at: &[usize]) -> Option<Outcome> {
    Some(match trace.entries[i].event {
        Event::WriteAccepted { .. } => Outcome::WriteAccepted,
        Event::WriteRejected { .. } => Outcome::WriteRefused,
        Event::LeaseExpired { .. } => Outcome::LeaseExpired,
        Event::JobAborted { .. } => Outcome::JobAborted,
        _ if two_at.binary_search(&i).is_ok() => Outcome::TwoBelievers,
        _ => return None,
    })
}

/// The entries at which a second client starts to believe it holds the lock while another
/// still does (the projection's believers go from one to two or more), in order.
fn second_believers(trace: &Trace) -> Vec<usize> {
    let mut at = Vec::new();
    projection::walk(trace, |i, before, after| {
        if before.believers().count() < 2 && after.believers().count() >= 2 {
            at.push(i);
        }
    });
    at
}

/// An author's question on a run: the entry of its decisive moment (the first at or after
/// its time whose outcome one of its choices names) and the choice that names it. `None`
/// when the run reaches none of them: the question cannot be graded on this run.
pub fn decisive(q: &AuthoredQuestion, trace: &Trace) -> Option<(usize, usize)> {
    let wants = |o: Outcome| q.choices.iter().position(|c| c.outcome == o);
    let two_at = if wants(Outcome::TwoBelievers).is_some() {
        second_believers(trace)
    } else {
        Vec::new()
    };
    let from = trace.entries.iter().position(|e| e.t.0 >= q.at_ms)?;
    (from..trace.len()).find_map(|i| {
        let o = outcome_at(trace, i, &two_at)?;
        Some((i, wants(o)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;

    #[test]
    fn each_beat_lands_on_the_first_event_at_or_after_its_time_and_none_share_one() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = simulate(&sc).unwrap();
        let beat = |at_ms| AuthoredBeat {
            at_ms,
            text: "x".into(),
            highlight: None,
        };
        let placed = place(&[beat(0), beat(0), beat(30_000), beat(10_000_000)], &trace);
        assert_eq!(placed[0], Some(0));
        assert_eq!(
            placed[1],
            Some(1),
            "a second beat at the same time waits for the next event"
        );
        let i = placed[2].expect("an event at or after 30 s");
        assert!(trace.entries[i].t.0 >= 30_000 && trace.entries[i - 1].t.0 < 30_000);
        assert_eq!(placed[3], None, "past every event: not told");
    }

    fn question(at_ms: i64, outcomes: &[Outcome]) -> AuthoredQuestion {
        AuthoredQuestion {
            at_ms,
            prompt: "What happens next?".into(),
            choices: outcomes
                .iter()
                .map(|&outcome| crate::model::scenario::AuthoredChoice {
                    text: outcome.label().into(),
                    outcome,
                })
                .collect(),
            explain: String::new(),
        }
    }

    #[test]
    fn a_question_is_graded_by_the_first_of_its_outcomes_the_run_reaches() {
        let run = |name: &str| simulate(&crate::teach::course::open(name).unwrap()).unwrap();
        let kind = |t: &Trace, i: usize| crate::model::trace::json::kind(&t.entries[i].event);
        let unfenced = run("gc-pause");
        let fenced = run("gc-pause-fenced");
        // Client 1's late write, asked after client 2 has written: unfenced storage takes
        // it, fenced storage refuses it. The same question, two answers, both from the run.
        let late = |t: &Trace| {
            let c2 = t
                .entries
                .iter()
                .find(|e| matches!(e.event, Event::WriteAccepted { .. }) && e.t.0 > 20_000)
                .expect("client 2 writes");
            c2.t.0 + 1
        };
        let q = question(
            late(&unfenced),
            &[Outcome::WriteAccepted, Outcome::WriteRefused],
        );
        let (i, right) = decisive(&q, &unfenced).expect("a write comes");
        assert_eq!((kind(&unfenced, i), right), ("write_accepted", 0));
        let q = question(
            late(&fenced),
            &[Outcome::WriteAccepted, Outcome::WriteRefused],
        );
        let (i, right) = decisive(&q, &fenced).expect("a write comes");
        assert_eq!((kind(&fenced, i), right), ("write_rejected", 1));

        // Two believers: the moment client 2 is granted the lock while client 1 sleeps,
        // before any write that follows it.
        let q = question(0, &[Outcome::WriteRefused, Outcome::TwoBelievers]);
        let (i, right) = decisive(&q, &unfenced).expect("two believers");
        assert_eq!(right, 1);
        let after = projection::Projection::new(&unfenced).state_at(&unfenced, i + 1);
        assert_eq!(after.believers().count(), 2, "{:?}", unfenced.entries[i]);

        // An outcome the run never reaches leaves nothing to grade.
        let q = question(0, &[Outcome::JobAborted, Outcome::WriteRefused]);
        assert_eq!(decisive(&q, &unfenced), None);
    }
}
