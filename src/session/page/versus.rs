//! Compare and the host page: the second run built beside this one (a variant, the fence
//! switched, or the run before the last edit), and an embed's host page's commands.

use super::*;
use crate::session::carries::PageCourse;
use crate::teach::course::Catalog;

impl Session {
    /// Builds the second run: a named variant on this run's seed, this scenario with the
    /// fence switched (`""`), or the scenario before the last edit ([`BEFORE_LAST_EDIT`]).
    pub(in crate::session) fn compare_with(&mut self, with: &str) {
        let a = self.doc.history.current();
        let b = if with.is_empty() {
            Some(crate::analysis::compare::fence_flipped(a))
        } else if with == BEFORE_LAST_EDIT {
            // The last run that differs from this one: running the editor again with
            // nothing changed adds a step to undo, not a run to compare with. With none,
            // there is nothing before: compare stops.
            self.doc
                .history
                .past()
                .iter()
                .rev()
                .find(|p| ***p != **a)
                .map(|p| (**p).clone())
        } else {
            PageCourse::open(with).map(|mut sc| {
                sc.seed = a.seed;
                sc
            })
        };
        self.doc.versus = b.map(|sc| {
            let run = Rc::new(Run::new(Rc::new(sc)));
            let divergence =
                crate::analysis::compare::first_divergence(&self.doc.run.trace, &run.trace);
            let state = Rc::new(run.state_at(Cursor::at_time(&run.trace, self.play.cursor.t).step));
            Versus {
                with: Rc::from(with),
                run,
                divergence,
                note: None,
                state,
            }
        });
    }

    /// Carries out a host page's command (embed mode; see `embed`).
    pub(in crate::session) fn host(&mut self, cmd: Command) {
        match cmd {
            Command::Play => {
                if !self.play.playing {
                    if self.play.cursor.at_end(&self.doc.run.trace) {
                        self.move_to(Cursor::START);
                    }
                    self.play.playing = true;
                    self.play.last_frame = None;
                }
            }
            Command::Pause => self.play.playing = false,
            Command::Seek(t) => {
                let c = Cursor::at_time(&self.doc.run.trace, t as f64);
                self.move_to(c);
            }
            Command::Open(name) => {
                self.teach.quiz = None;
                self.open(&name);
            }
            Command::Load(sc) => {
                self.teach.quiz = None;
                self.load(None, *sc);
            }
        }
    }

    /// What the Compare button does: stop comparing; or, after an edit, compare with the
    /// run before it (the question is what the edit changed); else with the fence switched.
    pub fn compare_toggle(&self) -> Action {
        Action::Compare(match (self.doc.versus.is_some(), self.can_undo()) {
            (true, _) => None,
            (false, true) => Some(BEFORE_LAST_EDIT.to_string()),
            (false, false) => Some(String::new()),
        })
    }
}
