//! What the views read off the session beyond its fields: the lane to highlight, the
//! window the diagram draws, the page's title, the speed as a label, whether undo and
//! redo have anything to do.

use super::*;

impl Session {
    /// The node whose lane an author's beat at the cursor asks to be marked (none during a
    /// quiz, which tells a different story).
    pub fn highlight(&self) -> Option<crate::vocab::ids::NodeId> {
        if self.teach.quiz.is_some() {
            return None;
        }
        let b = course::beat_at(&self.teach.beats, self.play.cursor.step)?;
        self.doc.run.scenario.walkthrough.get(b)?.highlight
    }

    /// The window both diagrams are drawn in: the reader's zoom; or, while two runs are
    /// compared that end at different times (a recording beside the model's run, a run
    /// before an edit), both whole on one time axis, the longer run's, so that one moment
    /// sits at one place in both; else the whole run (`None`).
    pub fn diagram_window(&self) -> Option<crate::session::zoom::Window> {
        if self.frame.zoom.is_some() {
            return self.frame.zoom;
        }
        let vs = self.doc.versus.as_ref()?;
        let (a, b) = (self.doc.run.trace.end.0, vs.run.trace.end.0);
        (a != b).then(|| crate::session::zoom::Window {
            from: 0,
            to: a.max(b),
        })
    }

    /// The run's title, as an embed's bar shows it: hidden as the picker's name is while
    /// a question waits.
    pub fn title(&self) -> &str {
        if self.hides_answer() {
            narrate::QUESTION_RUN
        } else {
            &self.doc.run.scenario.name
        }
    }

    /// The name the Share dialog gives an embed's frame (its `title`, what a screen reader
    /// says of it on the course page). A built-in question's embed opens unanswered, so it
    /// is named for the question, never for its run, whether or not the author has answered.
    pub fn share_title(&self) -> String {
        match self.teach.quiz.filter(|q| !q.author) {
            Some(q) => format!(
                "interview question {} of {}",
                q.question + 1,
                PageCourse::QUESTIONS.len()
            ),
            None => self.doc.run.scenario.name.clone(),
        }
    }

    pub fn can_undo(&self) -> bool {
        self.doc.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.doc.history.can_redo()
    }

    pub fn speed_label(&self) -> String {
        playback::speed_label(self.play.speed)
    }
}
