//! The session's parts: what is on screen (the document), how it plays, which stretch of
//! it is shown, where the reader is in the page, what a host page asked for, the lesson
//! and the quiz, and what the page must do once (its effects).
//!
//! Each part is a plain record: the reducer (`page`) routes an action to the parts it
//! concerns. Kept apart so a reader looking for "is it playing?" or "is it embedded?"
//! finds one small struct, and a change to one part cannot touch the others unseen.

use super::Menu;
use crate::analysis::projection::State;
use crate::session::carries::PageCourse;
use crate::session::edit::{History, Target};
use crate::session::handoff::Handoff;
use crate::session::panel::{OpenPanels, Panel};
use crate::session::run::{Recorded, Run, Versus};
use crate::session::zoom::{Span, Window};
use crate::teach::course::{Progress, Quiz};
use crate::view::playback::{Cursor, DEFAULT_SPEED};
use std::rc::Rc;

/// What is on screen: the scenario's history, the run it gives, what it is called, the
/// run beside it and the last refusal.
#[derive(Clone)]
pub struct Document {
    /// The named scenario the history started from: a preset or a lesson variant.
    pub name: Option<Rc<str>>,
    pub history: History,
    pub run: Rc<Run>,
    /// Side by side: the second run, what it is ("" = this scenario with the fence
    /// switched, else a variant's name), and the first entry where the two differ.
    pub versus: Option<Versus>,
    /// A recording of a real run on screen instead of a simulated one (`super::recorded`).
    pub recorded: Option<Rc<Recorded>>,
    /// A built-in recording the link names, for the page to fetch (its name).
    pub wants_recording: Option<Rc<str>>,
    /// The last refused edit, naming the field; the scenario is unchanged.
    pub error: Option<String>,
}

impl Document {
    pub(super) fn new(history: History, run: Rc<Run>) -> Document {
        Document {
            name: None,
            history,
            run,
            versus: None,
            recorded: None,
            wants_recording: None,
            error: None,
        }
    }
}

/// Playback: where the cursor is, what the run believes there, and the clock of play.
#[derive(Clone)]
pub struct Playback {
    pub cursor: Cursor,
    pub state: Rc<State>,
    pub playing: bool,
    pub speed: usize,
    pub reduced_motion: bool,
    /// The latest notable sentence the cursor has passed (the caption and live region).
    pub caption: String,
    pub(in crate::session) last_frame: Option<f64>,
    pub(in crate::session) discrete_wait: f64,
    /// Real ms left to hold on the notable event just reached.
    pub(in crate::session) dwell: f64,
}

impl Playback {
    pub(super) fn new(state: Rc<State>) -> Playback {
        Playback {
            cursor: Cursor::START,
            state,
            playing: false,
            speed: DEFAULT_SPEED,
            reduced_motion: false,
            caption: String::new(),
            last_frame: None,
            discrete_wait: 0.0,
            dwell: 0.0,
        }
    }

    /// Starts playing from where the cursor is, with a fresh frame clock.
    pub(super) fn start(&mut self) {
        self.playing = true;
        self.last_frame = None;
        self.discrete_wait = 0.0;
        self.dwell = 0.0;
    }
}

/// Which stretch of the run is shown and what on it is selected.
#[derive(Clone, Default)]
pub struct Frame {
    /// The diagram's window of true time (`None`: the whole run); see [`crate::session::zoom`].
    pub zoom: Option<Window>,
    /// The stretch of the run the reader may play (`from=`, `to=`; default the whole run):
    /// see `session::span`.
    pub span: Span,
    /// What the stage's action menu is open for.
    pub selected: Option<Target>,
}

/// Where the reader is in the page and how the address records it.
#[derive(Clone, Default)]
pub struct Navigation {
    pub menu: Option<Menu>,
    /// The chapter a link asked for (the menu scrolls it into view).
    pub chapter: Option<usize>,
    /// Bumped by every change a link should record as a new history entry.
    pub rev: u32,
    /// The last change came from a link: write the fragment back without a new entry.
    pub from_link: bool,
    /// The view as a link fragment (`#s=…`), `None` while playing and before the first
    /// action (the page's own link is read first). Computed once per action, so a paused
    /// page renders without encoding anything.
    pub fragment: Option<Rc<str>>,
    /// The panels open.
    pub panels: OpenPanels,
    /// The first-load build only: the whole app was asked for, to carry on from this
    /// handoff (see `handoff`); a Retry asks again with it.
    pub upgrade: Option<Rc<Handoff>>,
}

/// What a host page asked of an embedded run.
#[derive(Clone, Default)]
pub struct Embedding {
    /// Embedded in a host page: no site chrome, and host commands are obeyed.
    pub on: bool,
    pub autoplay: bool,
    /// An embed shows only the diagram, its controls and the caption (`view=diagram`).
    pub diagram_only: bool,
    /// Host origins allowed to send commands (empty: the parent page, any origin).
    pub origins: Rc<Vec<String>>,
    /// Handed over by a player that was the embed until now: the step and the run (its
    /// digest) the host last heard of — `ready`, the cursor, the progress — which it is
    /// not told again.
    pub told: Option<(usize, String)>,
}

/// The lesson told beside the run and the question asked of it.
#[derive(Clone, Default)]
pub struct Teaching {
    /// Where each walkthrough beat lands in the current run (empty without a walkthrough).
    pub beats: Rc<Vec<Option<usize>>>,
    /// The interview question being played, if any.
    pub quiz: Option<Quiz<PageCourse>>,
    pub progress: Progress,
}

/// Something the page must do once, outside the session: the reducer returns it, and the
/// browser layer carries it out and drains it (`Action::Done`).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Search the run on screen for every way it breaks (the Explore panel).
    Explore,
    /// The first-load build: load the whole app and hand this over to it.
    LoadWholeApp(Rc<Handoff>),
    /// Move the reader to this panel (its summary takes the focus, scrolled into view).
    Focus(Panel),
}

/// The effects not yet carried out, each with its serial number (increasing over the
/// page's life), so a layer that sees the same one twice does it once. One of each kind
/// waits at most: a newer ask supersedes an older one of its kind (two searches asked
/// before the page drew start one).
#[derive(Clone, Default)]
pub struct Effects {
    next: u32,
    explore: Option<u32>,
    load: Option<(u32, Rc<Handoff>)>,
    focus: Option<(u32, Panel)>,
}

impl Effects {
    /// Asks for `e` to be done.
    pub fn push(&mut self, e: Effect) {
        let n = self.next;
        self.next = n.wrapping_add(1);
        match e {
            Effect::Explore => self.explore = Some(n),
            Effect::LoadWholeApp(h) => self.load = Some((n, h)),
            Effect::Focus(p) => self.focus = Some((n, p)),
        }
    }

    /// A search asked for, by its serial.
    pub fn explore(&self) -> Option<u32> {
        self.explore
    }

    /// The whole app asked for, with what to hand over to it.
    pub fn load(&self) -> Option<(u32, Rc<Handoff>)> {
        self.load.clone()
    }

    /// A panel to move the reader to.
    pub fn focus(&self) -> Option<(u32, Panel)> {
        self.focus
    }

    /// The effects waiting, oldest first (what the tests read; the page asks by kind).
    #[cfg(test)]
    pub fn pending(&self) -> Vec<(u32, Effect)> {
        let mut all: Vec<(u32, Effect)> = [
            self.explore.map(|n| (n, Effect::Explore)),
            self.load.clone().map(|(n, h)| (n, Effect::LoadWholeApp(h))),
            self.focus.map(|(n, p)| (n, Effect::Focus(p))),
        ]
        .into_iter()
        .flatten()
        .collect();
        all.sort_by_key(|&(n, _)| n);
        all
    }

    /// Whether the effect of serial `n` still waits.
    pub fn waits(&self, n: u32) -> bool {
        self.explore == Some(n)
            || self.load.as_ref().is_some_and(|l| l.0 == n)
            || self.focus.is_some_and(|f| f.0 == n)
    }

    /// Forgets the effect of serial `n`: it has been carried out. Whether it was waiting.
    pub fn done(&mut self, n: u32) -> bool {
        let waited = self.waits(n);
        if self.explore == Some(n) {
            self.explore = None;
        }
        if self.load.as_ref().is_some_and(|l| l.0 == n) {
            self.load = None;
        }
        if self.focus.is_some_and(|f| f.0 == n) {
            self.focus = None;
        }
        waited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_effect_waits_until_it_is_done() {
        let mut fx = Effects::default();
        assert_eq!(fx.explore(), None);
        fx.push(Effect::Explore);
        fx.push(Effect::LoadWholeApp(Rc::default()));
        fx.push(Effect::Explore);
        // The second search supersedes the first; the load waits beside it.
        assert_eq!(fx.explore(), Some(2));
        assert_eq!(fx.load().map(|(n, _)| n), Some(1));
        assert_eq!(fx.pending().len(), 2);
        assert!(!fx.waits(0));
        assert!(fx.done(2));
        assert_eq!(fx.explore(), None);
        // Done twice changes nothing the second time.
        assert!(fx.done(1));
        assert!(!fx.done(1));
        assert!(fx.pending().is_empty());
        // Serials keep increasing after a drain, so a new effect is never taken for one done.
        fx.push(Effect::Focus(Panel::Editor));
        assert_eq!(fx.focus(), Some((3, Panel::Editor)));
        assert_eq!(fx.pending(), [(3, Effect::Focus(Panel::Editor))]);
    }
}
