//! Progress a course platform can record: what a learner did in an embed, told to the
//! host page as statements shaped like xAPI's (actor left to the host, which knows who is
//! signed in; a verb, an object and a result).
//!
//! - `progressed` a lesson: the walkthrough reached beat k of n (told once per beat, the
//!   first time it is reached); an author's own walkthrough is a lesson too, its id the
//!   scenario's name;
//! - `completed` a lesson: its last beat was reached;
//! - `answered` a question: a stop's prediction was revealed against the run (the stop,
//!   the choice, whether the run did what was picked);
//! - `completed` a question: its last stop was answered, with the score (right answers of
//!   the stops answered).
//!
//! The [`Tracker`] reads each new [`Session`] and says what is new since the last one; the
//! grades are the quiz's own (`Quiz::right`, read off the run), never stored answers.
//! Web-free: the sequence for a lesson and a question is tested natively.

use super::embed::{Event, Statement};
use super::Session;
use crate::model::scenario::Scenario;
use crate::session::carries::PageCourse;
use crate::teach::course::{self, Quiz};

/// Which question a quiz plays: whether it is an author's, and the built-in one's number.
type QuestionKey = (bool, usize);

/// What the host has been told so far.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// The lesson being walked (its scenario's name) and the beats told of it.
    lesson: Option<(String, Vec<usize>)>,
    /// The question being played (whether it is an author's, and which built-in one
    /// otherwise) and, per stop, whether its answer was right (`None` until answered).
    question: Option<(QuestionKey, Vec<Option<bool>>)>,
}

impl Tracker {
    /// The statements `s` makes true that have not been told yet, in the order they
    /// happened.
    pub fn observe(&mut self, s: &Session) -> Vec<Event> {
        let mut out = Vec::new();
        self.lesson_progress(s, &mut out);
        self.quiz_progress(s, &mut out);
        out
    }

    fn lesson_progress(&mut self, s: &Session, out: &mut Vec<Event>) {
        // A walkthrough is shown outside a quiz: a named lesson's, or an author's own,
        // which is named by its scenario's name (it has no name of ours).
        if s.teach.quiz.is_some() {
            return;
        }
        let authored = &s.doc.run.scenario;
        let name = if authored.walkthrough.is_empty() {
            match s.doc.name.as_deref() {
                Some(name) => name,
                None => return,
            }
        } else if authored.name.is_empty() {
            "custom"
        } else {
            authored.name.as_str()
        };
        let total = s.teach.beats.iter().flatten().count();
        if total == 0 {
            return;
        }
        if self.lesson.as_ref().is_none_or(|(n, _)| n != name) {
            self.lesson = Some((name.to_string(), Vec::new()));
        }
        let Some((_, told)) = &mut self.lesson else {
            return;
        };
        let Some(b) = course::beat_at(&s.teach.beats, s.play.cursor.step) else {
            return;
        };
        // Beats are counted as the header counts them: only those this run has.
        let k = s.teach.beats[..=b].iter().flatten().count();
        if told.contains(&k) {
            return;
        }
        told.push(k);
        let object = ("lesson", name.to_string(), s.title().to_string());
        out.push(Event::Statement(Statement {
            verb: "progressed",
            object: object.clone(),
            result: vec![("beat", k as i64), ("beats", total as i64)],
            success: None,
            response: None,
        }));
        if k == total {
            out.push(Event::Statement(Statement {
                verb: "completed",
                object,
                result: vec![("beats", total as i64)],
                success: None,
                response: None,
            }));
        }
    }

    fn quiz_progress(&mut self, s: &Session, out: &mut Vec<Event>) {
        let Some(q) = s.teach.quiz else { return };
        let sc = &s.doc.run.scenario;
        let stops = q.stops(sc);
        let key = (q.author, q.question);
        if self.question.as_ref().is_none_or(|(n, _)| *n != key) {
            self.question = Some((key, vec![None; stops]));
        }
        let Some((_, answers)) = &mut self.question else {
            return;
        };
        if !q.revealed || answers.get(q.stop).is_none_or(Option::is_some) {
            return;
        }
        let Some(right) = q.right(sc, &s.doc.run.trace) else {
            return;
        };
        answers[q.stop] = Some(right);
        let object = question_object(&q, sc);
        out.push(Event::Statement(Statement {
            verb: "answered",
            object: object.clone(),
            result: vec![("stop", q.stop as i64)],
            success: Some(right),
            response: choice(&q, s),
        }));
        if q.stop + 1 == stops {
            let raw = answers.iter().filter(|a| **a == Some(true)).count();
            out.push(Event::Statement(Statement {
                verb: "completed",
                object,
                result: vec![("score", raw as i64), ("max", stops as i64)],
                success: Some(raw == stops),
                response: None,
            }));
        }
    }
}

/// A question as a statement's object: its link's id (`quiz=1` is question 1; an author's
/// questions are named by their scenario, `questions:NAME`), and what it asks.
fn question_object(q: &Quiz<PageCourse>, sc: &Scenario) -> (&'static str, String, String) {
    let id = if q.author {
        let name = sc.name.trim();
        format!(
            "questions:{}",
            if name.is_empty() { "custom" } else { name }
        )
    } else {
        format!("quiz={}", q.question + 1)
    };
    ("question", id, q.asks(sc).to_string())
}

/// The choice picked at the stop in play, as its text.
fn choice(q: &Quiz<PageCourse>, s: &Session) -> Option<String> {
    let ask = q.ask(&s.doc.run.scenario, &s.doc.run.trace)?;
    Some(ask.choices.get(q.picked?)?.to_string())
}
