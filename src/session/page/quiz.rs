//! The interview question's part of the page: starting one, stopping the run before each
//! of its outcomes, and what stays hidden until the reader has answered.

use super::*;

impl Session {
    pub(in crate::session) fn start_quiz(&mut self, q: usize) {
        if let Some(quiz) = Quiz::new(q) {
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
