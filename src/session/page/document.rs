//! The document's reducer: the edits, the fencing switch, the editor's draft and an
//! imported file, each checked before it replaces the scenario on screen.
//!
//! A refused one leaves the scenario and its run as they were and says why, naming the
//! field (`Document::error`).

use super::*;

impl Session {
    /// An edit of the scenario on screen, kept in the undo history.
    #[cfg_attr(feature = "player", allow(dead_code))]
    pub(super) fn edit(&mut self, e: &Edit) {
        if self.refuse_stand_in() {
            return;
        }
        match self.doc.history.edit(e) {
            Ok(()) => {
                self.doc.error = None;
                self.frame.selected = None;
                self.rerun();
            }
            Err(err) => self.doc.error = Some(err.to_string()),
        }
    }

    /// A recording with no scenario of the model behind it is on screen: an edit of the
    /// scenario under it (a fault from the stage, the fence) would run the stand-in, which
    /// is not the recording's, so it is refused with a word on where a scenario comes from.
    /// The editor's draft is not an edit of it: it is a scenario of the reader's own.
    fn refuse_stand_in(&mut self) -> bool {
        let refused = self.recording_unmodelled().is_some();
        if refused {
            self.doc.error = Some(crate::teach::narrate::unmodelled_edit());
        }
        refused
    }

    /// Fenced writes on or off.
    pub(super) fn toggle_fence(&mut self) {
        // The switch is drawn disabled over such a recording; this is its key.
        if self.refuse_stand_in() {
            return;
        }
        let f = self.doc.run.scenario.storage.fence.flipped();
        match self.doc.history.edit(&Edit::SetFence(f)) {
            Ok(()) => self.rerun(),
            Err(err) => self.doc.error = Some(err.to_string()),
        }
    }

    /// The editor's draft, run as an edit of the scenario on screen.
    #[cfg_attr(feature = "player", allow(dead_code))]
    pub(super) fn run_draft(&mut self, text: &str) {
        match Scenario::from_json(text) {
            Ok(sc) => {
                self.doc.history.replace(sc);
                self.doc.error = None;
                self.frame.selected = None;
                self.rerun();
            }
            Err(e) => self.doc.error = Some(format!("editor: {e}")),
        }
    }

    /// A scenario from a file or a paste: it replaces the one on screen, and undo goes
    /// back to the one it replaced.
    #[cfg_attr(feature = "player", allow(dead_code))]
    pub(super) fn import(&mut self, text: &str) {
        match Scenario::from_json(text) {
            Ok(sc) => {
                self.teach.quiz = None;
                // Undo (and Compare's "before my last edit") go back to the run the
                // import replaced.
                let mut history = self.doc.history.clone();
                history.open_over(sc.clone());
                self.load(None, sc);
                self.doc.history = history;
            }
            // The current scenario stays; the message names the field.
            Err(e) => self.doc.error = Some(format!("import: {e}")),
        }
    }
}
