//! The interview question's part of the page: starting one, stopping the run before each
//! of its outcomes, and what stays hidden until the reader has answered.

use super::*;

impl Session {
    pub(in crate::session) fn start_quiz(&mut self, q: usize) {
        if let Some(quiz) = Quiz::new(q) {
            if quiz.scenario().is_some_and(|name| self.open(name)) {
                self.quiz = Some(quiz);
                self.menu = None;
            }
        }
    }

    /// On to the quiz's next stop, playing towards it: in the same run from where the
    /// reveal paused (or back to the stop, if the learner scrubbed past it), or from the
    /// start of the fix variant the stop plays.
    pub(in crate::session) fn next_stop(&mut self) {
        let Some(mut q) = self.quiz else { return };
        q.advance();
        let more = q.stop < q.stops(&self.run.scenario);
        if let Some(name) = q
            .scenario()
            .filter(|&n| more && self.name.as_deref() != Some(n))
        {
            if !self.open(name) {
                return;
            }
        }
        self.quiz = Some(q);
        let hold = q.hold(&self.run.scenario, &self.run.trace);
        if let Some(h) = hold.filter(|&h| h < self.cursor.step) {
            self.move_to(Cursor::at_step(&self.run.trace, h));
        }
        self.playing = more && !self.quiz_waiting();
        self.last_frame = None;
        self.dwell = 0.0;
    }

    /// "Skip to the stop": straight to the moment the question is asked.
    pub(in crate::session) fn skip_to_stop(&mut self) {
        let hold = self
            .quiz
            .and_then(|q| q.hold(&self.run.scenario, &self.run.trace));
        if let Some(h) = hold.filter(|&h| h > self.cursor.step) {
            self.playing = false;
            self.move_to(Cursor::at_step(&self.run.trace, h));
        }
    }

    /// The quiz stop the cursor is waiting at, if it waits at one.
    pub fn quiz_waiting(&self) -> bool {
        self.quiz
            .and_then(|q| q.hold(&self.run.scenario, &self.run.trace))
            .is_some_and(|h| h == self.cursor.step)
    }

    /// Whether a question waits for its answer, so that what would give it away (the
    /// run's name and description, the verdict, the fence switch, "Next violation") stays
    /// hidden.
    pub fn hides_answer(&self) -> bool {
        self.quiz
            .is_some_and(|q| q.hides_answer(&self.run.scenario))
    }
}
