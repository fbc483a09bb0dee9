//! The teaching part's reducer: the walkthrough's beats, and the interview question —
//! starting one, stopping the run before each of its outcomes, the reader's pick, and what
//! stays hidden until the reader has answered.

use super::*;
use crate::session::carries::PageCourse;
use crate::teach::course::Catalog;

impl Session {
    /// Pauses on the next (`forward`) or previous beat of the walkthrough.
    // Inlined: each arm of the reducer keeps only its own direction (the first load counts bytes).
    #[inline(always)]
    pub(super) fn jump_to_beat(&mut self, forward: bool) {
        self.play.playing = false;
        let (beats, step) = (&self.teach.beats, self.play.cursor.step);
        let s = if forward {
            course::next_beat_step(beats, step)
        } else {
            Some(course::prev_beat_step(beats, step))
        };
        if let Some(s) = s {
            let c = Cursor::at_step(&self.doc.run.trace, s);
            self.move_to(c);
        }
    }

    /// Asks the questions the scenario on screen carries (its author's), from the start of
    /// what may be played.
    #[cfg_attr(feature = "player", allow(dead_code))]
    pub(super) fn ask_author(&mut self) {
        if let Some(q) = Quiz::of_author(&self.doc.run.scenario) {
            self.teach.quiz = Some(q);
            self.nav.menu = None;
            self.play.playing = false;
            let start = self.span_start();
            self.move_to(start);
        }
    }

    /// The reader's prediction at a quiz stop: one of the choices asked, before the reveal.
    pub(super) fn pick(&mut self, i: usize) {
        let run = &self.doc.run;
        if let Some(q) = &mut self.teach.quiz {
            let ask = q.ask(&run.scenario, &run.trace);
            if !q.revealed && ask.is_some_and(|a| i < a.choices.len()) {
                q.picked = Some(i);
            }
        }
    }

    pub(in crate::session) fn start_quiz(&mut self, q: usize) {
        if let Some(quiz) = PageCourse::quiz(q) {
            if quiz.scenario().is_some_and(|name| self.open(name)) {
                self.teach.quiz = Some(quiz);
                self.nav.menu = None;
            }
        }
    }

    /// On to the quiz's next stop, playing towards it: in the same run from where the
    /// reveal paused (or back to the stop, if the learner scrubbed past it), or from the
    /// start of the fix variant the stop plays.
    pub(in crate::session) fn next_stop(&mut self) {
        let Some(mut q) = self.teach.quiz else { return };
        q.advance();
        let more = q.stop < q.stops(&self.doc.run.scenario);
        if let Some(name) = q
            .scenario()
            .filter(|&n| more && self.doc.name.as_deref() != Some(n))
        {
            if !self.open(name) {
                return;
            }
        }
        self.teach.quiz = Some(q);
        let hold = q.hold(&self.doc.run.scenario, &self.doc.run.trace);
        if let Some(h) = hold.filter(|&h| h < self.play.cursor.step) {
            self.move_to(Cursor::at_step(&self.doc.run.trace, h));
        }
        self.play.playing = more && !self.quiz_waiting();
        self.play.last_frame = None;
        self.play.dwell = 0.0;
    }

    /// "Skip to the stop": straight to the moment the question is asked.
    pub(in crate::session) fn skip_to_stop(&mut self) {
        let hold = self
            .teach
            .quiz
            .and_then(|q| q.hold(&self.doc.run.scenario, &self.doc.run.trace));
        if let Some(h) = hold.filter(|&h| h > self.play.cursor.step) {
            self.play.playing = false;
            self.move_to(Cursor::at_step(&self.doc.run.trace, h));
        }
    }

    /// The quiz stop the cursor is waiting at, if it waits at one.
    pub fn quiz_waiting(&self) -> bool {
        self.teach
            .quiz
            .and_then(|q| q.hold(&self.doc.run.scenario, &self.doc.run.trace))
            .is_some_and(|h| h == self.play.cursor.step)
    }

    /// Whether a question waits for its answer, so that what would give it away (the
    /// run's name and description, the verdict, the fence switch, "Next violation") stays
    /// hidden.
    pub fn hides_answer(&self) -> bool {
        self.teach
            .quiz
            .is_some_and(|q| q.hides_answer(&self.doc.run.scenario))
    }
}
