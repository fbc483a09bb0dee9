//! The page's state and its reducer: [`Session`] in parts (`parts`: the document,
//! playback, the frame, navigation, the embedding, teaching, the effects), and
//! [`Session::reduce`], which routes each action to the reducer of the part it concerns
//! (`play`, `document`, `quiz`, …) and records it in the link.
//!
//! [`Session::reduce`] is a pure function of (state, [`Action`]): the browser layer wraps
//! it in Yew's `Reducible` and adds only what touches the browser (frames, keys, storage,
//! the address bar), carrying out the effects it leaves (`Effect`). A [`Run`] is simulated once per scenario (an edit, undo, redo, the
//! fencing switch) and then only *read*. Actions that change nothing return the same `Rc`,
//! so the page skips the render (a tick while paused costs nothing).

mod document;
mod parts;
mod picker;
mod play;
mod quiz;
mod readouts;
mod versus;

use super::panel::{Menu, Panel};
use super::run::{Run, Versus};
use crate::model::scenario::Scenario;
use crate::session::carries::{PageCourse, PageKit};
use crate::session::edit::{Edit, History};
use crate::session::embed::Command;
use crate::session::share;
use crate::teach::course::{self, clamp_to_hold, Catalog, Progress, Quiz};
use crate::teach::narrate;
use crate::teach::walkthrough::Walkthrough;
use crate::view::playback::{self, Cursor, DISCRETE_STEP_REAL_MS, SPEEDS};
use crate::vocab::numbers::within;
pub use parts::{Document, Effect, Effects, Embedding, Frame, Navigation, Playback, Teaching};
use std::rc::Rc;

/// The page a visitor lands on: the scenario an empty link opens.
pub const DEFAULT: &str = share::DEFAULT_SCENARIO;

/// The scenario picker: the playground presets, which one is on screen, and — when the
/// scenario on screen is none of them — what to call it ("Lesson: …", "Custom: …").
#[derive(Clone, Debug, PartialEq)]
pub struct Picker {
    /// (name, summary, selected) of each preset the picker lists.
    pub options: Vec<(&'static str, &'static str, bool)>,
    pub other: Option<String>,
}

/// What the stage's action menu is open for: the same value `edit::actions_for` reads.
pub use crate::session::edit::Target as Selection;

/// The page's state, in parts (`parts`): each action changes the few it concerns.
#[derive(Clone)]
pub struct Session {
    /// What is on screen: the scenario, its history and run, the run beside it.
    pub doc: Document,
    /// Where the cursor is and how it moves.
    pub play: Playback,
    /// Which stretch of the run is shown, and what on it is selected.
    pub frame: Frame,
    /// The menus, the address, the handoff to the whole app.
    pub nav: Navigation,
    /// What a host page asked of an embedded run.
    pub embed: Embedding,
    /// The walkthrough's beats, the quiz, the learner's progress.
    pub teach: Teaching,
    /// What the page must do once: a search to start, the whole app to load, a panel to
    /// move the reader to.
    pub effects: Effects,
}

/// What Compare calls the run before the last edit (not a scenario name: those have no `@`).
pub const BEFORE_LAST_EDIT: &str = "@before";

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    TogglePlay,
    Pause,
    /// An animation frame at this real timestamp (ms).
    Tick(f64),
    StepForward,
    StepBack,
    NextNotable,
    PrevNotable,
    ToStart,
    ToEnd,
    NextViolation,
    /// Scrub to a true time (ms).
    Seek(f64),
    /// Jump to just after this entry.
    SeekEntry(usize),
    /// Jump to the time of run B's entry (a click on the comparison's second diagram).
    SeekEntryB(usize),
    Faster,
    Slower,
    Select(Option<Selection>),
    Edit(Edit),
    ToggleFence,
    Undo,
    Redo,
    /// Open a scenario by name (a preset, a lesson, `lesson/fix`).
    Open(String),
    /// Follow a deep link (a URL fragment).
    Navigate(String),
    NextBeat,
    PrevBeat,
    StartQuiz(usize),
    /// Ask the questions the scenario on screen carries (its author's), from the start of
    /// what may be played.
    AskAuthor,
    /// The learner's prediction at a quiz stop.
    Pick(usize),
    /// On to the next stop after a reveal.
    QuizNext,
    /// Straight to the current stop's question, skipping the run up to it.
    SkipToStop,
    EndQuiz,
    ToggleMenu(Menu),
    /// Progress read back from storage.
    LoadProgress(String),
    /// A scenario as JSON text (a file or a paste), validated before it replaces anything.
    Import(String),
    /// The editor's draft, run as an edit of the scenario on screen: undo returns to the
    /// run before it, and the cursor keeps its time.
    RunDraft(String),
    /// A command from the host page of an embed, already validated.
    Host(Command),
    /// A host's `load` message with a scenario object of its own, as text, checked: the
    /// links' player, which shows built-in runs only (its links name them), hands it to the
    /// whole app, which reads it again with `embed::parse` and loads it (or, should the
    /// text not read, says what is wrong).
    HostLoad(String),
    /// Compare with a variant ("" = the fence switched, [`BEFORE_LAST_EDIT`] = the run
    /// before the last edit), or stop comparing.
    Compare(Option<String>),
    ResetProgress,
    SetReducedMotion(bool),
    /// A value refused before it became an edit (it did not parse).
    ShowError(String),
    DismissError,
    /// The page has carried out the effect of this serial (`Effects`).
    Done(u32),
    /// The reader opened (`true`) or closed a panel.
    SetPanel(Panel, bool),
    /// The first-load build: load the whole app and carry on there, opening this panel
    /// or, with `None`, retrying the handoff asked for last.
    /// The whole app has everything already and ignores it.
    Upgrade(Option<Panel>),
    /// Search the run on screen for every way it breaks (the Explore panel; a fix
    /// variant's "does this fix hold?").
    ExploreHere,
    /// Open a lesson's fix and search it at once (the walkthrough's last beat: "does the
    /// fix hold?").
    ExploreFix(String),
    /// Zoom or pan the diagram's time axis.
    Zoom(super::zoom::Zoom),
    /// A recording of a real run (its text), with the scenario it ran (JSON) if known, and
    /// its name if it is a built-in one (`session::recorded`).
    OpenRecorded {
        text: String,
        scenario: Option<String>,
        name: Option<String>,
    },
}

impl Session {
    pub fn new(scenario: Scenario) -> Session {
        let history = History::new(scenario);
        let run = Rc::new(Run::new(history.current().clone()));
        let state = Rc::new(run.state_at(0));
        let mut doc = Document::new(history, run);
        doc.name = Some(Rc::from(DEFAULT));
        Session {
            doc,
            play: Playback::new(state),
            frame: Frame::default(),
            nav: Navigation::default(),
            embed: Embedding::default(),
            teach: Teaching::default(),
            effects: Effects::default(),
        }
    }

    /// The default page: the unfenced GC-pause scenario, ready to play, with its
    /// walkthrough beside it.
    pub fn default_page() -> Session {
        let sc = PageCourse::open(DEFAULT).unwrap_or_else(|| unreachable!("gc-pause is built in"));
        let mut m = Session::new(sc);
        m.locate_beats();
        // No fragment yet: the page has not read its own link. Writing the default page's
        // fragment now would overwrite an address like `#s=…&embed=1&autoplay=1` before it
        // is followed (and, while it autoplays, nothing would write it back).
        m
    }

    /// Moves the cursor, refreshing the projected state and the caption. A quiz stop
    /// holds the cursor just before its decisive event until the learner has answered.
    pub(super) fn move_to(&mut self, mut c: Cursor) {
        if let Some(q) = &mut self.teach.quiz {
            let (sc, trace) = (&self.doc.run.scenario, &self.doc.run.trace);
            let (step, reveal) = clamp_to_hold(q, sc, trace, self.play.cursor.step, c.step);
            if reveal {
                q.revealed = true;
                // Kept between visits: the built-in questions' answers (an author's
                // questions are told to the host page instead, `session::statements`).
                if let (Some(right), false) = (q.right(sc, trace), q.author) {
                    self.teach.progress.answer(q.question, q.stop, right);
                }
                // Play on from just after the decisive event through its consequence
                // (stopped below, at `reveal_until`), however the learner moved on.
                c = Cursor::at_step(trace, self.play.cursor.step + 1);
                if !self.play.playing {
                    self.play.playing = true;
                    self.play.last_frame = None;
                    self.play.dwell = 0.0;
                }
            } else if step != c.step {
                c = Cursor::at_step(trace, step);
                self.play.playing = false;
            }
            // Landing exactly on the stop (not past it) is a stop too: the question is
            // asked with the run paused, never while it plays on. Once a choice is picked,
            // playing on crosses the quiet time up to the decisive event (which may come
            // long after the entry before it) and reveals it there.
            if !q.revealed && q.picked.is_none() && q.hold(sc, trace) == Some(c.step) {
                self.play.playing = false;
            }
            // The reveal pauses once the consequence is drawn clear of the cursor line.
            if let Some(until) = q.reveal_until(sc, trace) {
                if c.t >= until {
                    c = Cursor::at_time(trace, until);
                    q.shown = true;
                    self.play.playing = false;
                }
            }
        }
        // Nothing outside the span is reached, by playback, a jump or a host's seek.
        let c = self.inside_span(c);
        self.play.cursor = c;
        if self.span_window().is_some() && self.at_span_end() {
            self.play.playing = false;
        }
        // A zoomed diagram keeps the cursor in view (playback, a step, a jump).
        let end = self.doc.run.end_ms() as i64;
        self.frame.zoom = self.zoom_inside_span(self.frame.zoom.map(|w| w.following(c.t, end)));
        if let Some(b) = course::beat_at(&self.teach.beats, c.step) {
            if b + 1 == self.teach.beats.len() {
                if let Some(name) = &self.doc.name {
                    self.teach.progress.walk(name);
                }
            }
        }
        if c.step != self.play.state.step {
            self.play.state = Rc::new(self.doc.run.state_at(c.step));
        }
        if let Some(v) = &mut self.doc.versus {
            let b = Cursor::at_time(&v.run.trace, c.t).step;
            if b != v.state.step {
                v.state = Rc::new(v.run.state_at(b));
            }
        }
        // The caption is the latest notable entry at or before the cursor.
        let idx = self.doc.run.notable.partition_point(|&i| i < c.step);
        self.play.caption = match idx.checked_sub(1).map(|j| self.doc.run.notable[j]) {
            Some(i) if i < c.step => narrate::sentence_with::<PageKit>(
                &self.doc.run.trace,
                &self.doc.run.verdict,
                i,
                &self.doc.run.state_at(i + 1),
            )
            .unwrap_or_default(),
            _ => String::new(),
        };
        if self.play.cursor.at_end(&self.doc.run.trace) {
            self.play.playing = false;
            // At the end, the caption says how the story ended.
            self.play.caption = narrate::ending(&self.doc.run.verdict);
        }
    }

    pub(super) fn rerun(&mut self) {
        let t = self.play.cursor.t;
        // Anything that re-runs the scenario leaves a recording for the model's own run.
        self.doc.recorded = None;
        self.doc.run = Rc::new(Run::new(self.doc.history.current().clone()));
        self.play.state = Rc::new(self.doc.run.state_at(0));
        // An edit can shorten the run: the window stays inside it.
        let end = self.doc.run.end_ms() as i64;
        self.frame.zoom = self.zoom_inside_span(self.frame.zoom.and_then(|w| {
            super::zoom::apply(Some(w), super::zoom::Zoom::To(w.from, w.to), t, end)
        }));
        self.locate_beats();
        if let Some(v) = &self.doc.versus {
            let with = v.with.clone();
            self.compare_with(&with);
        }
        let c = Cursor::at_time(&self.doc.run.trace, t);
        self.play.cursor = Cursor::START;
        self.move_to(c);
    }

    /// Places the walkthrough's beats on the current run. After an edit a beat whose event
    /// no longer happens, or whose text states a fact the run no longer has, is simply
    /// skipped (the library test keeps the stock runs whole).
    pub(super) fn locate_beats(&mut self) {
        let authored = &self.doc.run.scenario.walkthrough;
        self.teach.beats = Rc::new(if authored.is_empty() {
            self.built_in_walkthrough()
                .map_or_else(Vec::new, |w| w.place(&self.doc.run.facts()))
        } else {
            crate::teach::authored::place(authored, &self.doc.run.trace)
        });
        self.beats_inside_span();
    }

    /// The built-in walkthrough told over this run: the named scenario's, unless the
    /// scenario carries an author's own, which is the one told.
    fn built_in_walkthrough(&self) -> Option<&'static Walkthrough> {
        let authored = !self.doc.run.scenario.walkthrough.is_empty();
        let name = self.doc.name.as_deref().filter(|_| !authored)?;
        PageCourse::walkthrough(name)
    }

    /// Reads the text of every beat placed on this run and drops it
    /// (`Walkthrough::prepare`), so that what a text is slow to read (the tail's share) is
    /// ready before the reader reaches its beat. The page calls it after drawing the run.
    pub fn prepare_beats(&self) {
        if let Some(w) = self.built_in_walkthrough() {
            w.prepare(&self.teach.beats, &self.doc.run.facts());
        }
    }

    /// Replaces the scenario with a named one, at the start, paused.
    pub(super) fn open(&mut self, name: &str) -> bool {
        let Some(sc) = PageCourse::open(name) else {
            // Only a name from the menu or a checked host message comes here, so it is never
            // a typo to offer a near name for (and the first load keeps that out of its wasm).
            self.doc.error = Some(format!("s: no scenario named \"{name}\""));
            return false;
        };
        self.load(Some(name), sc);
        true
    }

    /// Makes `sc` the scenario on screen, under `name` (a built-in name, or "custom").
    pub(super) fn load(&mut self, name: Option<&str>, sc: Scenario) {
        self.doc.name = name.map(Rc::from);
        // Opening a scenario is navigation, not an edit: it starts a fresh history (the
        // browser's Back button, through the fragment, goes back to the previous one).
        self.doc.history = History::new(sc);
        self.frame.zoom = None;
        self.play.playing = false;
        self.frame.selected = None;
        self.doc.error = None;
        self.play.cursor = Cursor::START;
        self.rerun();
        let start = self.span_start();
        self.move_to(start);
    }

    /// Asks the page to search the run on screen (the Explore panel), if `ask`.
    pub(super) fn ask_explore(&mut self, ask: bool) {
        if ask {
            self.open_panel(Panel::Explore);
            self.effects.push(Effect::Explore);
        }
    }

    /// Opens a panel and moves the reader to it, as if they had opened it.
    pub(super) fn open_panel(&mut self, p: Panel) {
        self.nav.panels.set(p, true);
        self.effects.push(Effect::Focus(p));
    }

    pub(super) fn notable_after(&self, step: usize) -> Option<usize> {
        self.doc.run.notable.iter().copied().find(|&i| i >= step)
    }

    pub(super) fn notable_before(&self, step: usize) -> Option<usize> {
        self.doc
            .run
            .notable
            .iter()
            .copied()
            .rev()
            .find(|&i| i + 1 < step)
    }
}

/// How an action is recorded in the link (see the end of `reduce`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Navigate,
    Changes,
    Other,
}

impl Session {
    /// Applies one action. Returns `self` itself when nothing changed, so the page can
    /// skip the render by pointer comparison.
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // A player draws the whole run only: a zoom that changes nothing (Fit, or
        // zooming out of the whole run) stays here; any other is the whole app's.
        #[cfg(feature = "player")]
        if let Action::Zoom(z) = action {
            let end = self.doc.run.end_ms() as i64;
            if super::zoom::apply(self.frame.zoom, z, self.play.cursor.t, end) == self.frame.zoom {
                return self;
            }
        }
        #[cfg(feature = "player")]
        if action.needs_whole_app() || matches!(action, Action::Upgrade(_)) {
            let mut m = (*self).clone();
            m.play.playing = false;
            // A zoom is kept, though not drawn (a player draws the whole run), so one that
            // goes on while the whole app loads — a pinch, + pressed again — asks for all
            // of it, not its last step.
            if let Action::Zoom(z) = action {
                let end = self.doc.run.end_ms() as i64;
                m.frame.zoom = super::zoom::apply(self.frame.zoom, z, self.play.cursor.t, end);
            }
            m.nav.upgrade = match action {
                Action::Upgrade(None) => m.nav.upgrade.clone(),
                Action::Upgrade(Some(panel)) => Some(Rc::new(self.handoff(None, Some(panel)))),
                a => Some(Rc::new(self.handoff(Some(&a), None))),
            };
            if let Some(h) = m.nav.upgrade.clone() {
                m.effects.push(Effect::LoadWholeApp(h));
            }
            return Rc::new(m);
        }
        let trace = &self.doc.run.trace;
        let mut m = match action {
            // The hot path: a frame while paused changes nothing and renders nothing.
            Action::Tick(_) | Action::Pause if !self.play.playing => return self,
            Action::Select(s) if s == self.frame.selected => return self,
            Action::SetPanel(p, open) if self.nav.panels.is_open(p) == open => return self,
            Action::Done(n) if !self.effects.waits(n) => return self,
            _ => (*self).clone(),
        };
        let action_kind = match &action {
            Action::Navigate(_) => Kind::Navigate,
            Action::Open(_)
            | Action::ExploreFix(_)
            | Action::Edit(_)
            | Action::ToggleFence
            | Action::Undo
            | Action::Redo
            | Action::StartQuiz(_)
            | Action::AskAuthor
            | Action::EndQuiz
            | Action::ToggleMenu(_)
            | Action::Import(_)
            | Action::RunDraft(_)
            | Action::Compare(_)
            | Action::OpenRecorded { .. }
            | Action::Host(Command::Open(_) | Command::Load(_))
            | Action::HostLoad(_) => Kind::Changes,
            _ => Kind::Other,
        };
        match action {
            Action::TogglePlay => m.toggle_play(),
            Action::Pause => m.play.playing = false,
            Action::Tick(now) => {
                if let play::Ticked::Held = m.tick(now) {
                    return Rc::new(m);
                }
            }
            Action::Zoom(z) => {
                let z =
                    super::zoom::apply(m.frame.zoom, z, m.play.cursor.t, m.doc.run.end_ms() as i64);
                m.frame.zoom = m.zoom_inside_span(z);
            }
            Action::StepForward => m.pause_at(Cursor::at_step(trace, m.play.cursor.step + 1)),
            Action::StepBack => {
                m.pause_at(Cursor::at_step(trace, m.play.cursor.step.saturating_sub(1)))
            }
            Action::NextNotable => m.jump_to_notable(true),
            Action::PrevNotable => m.jump_to_notable(false),
            Action::ToStart => {
                let start = m.span_start();
                m.pause_at(start);
            }
            Action::ToEnd => {
                let end = m.span_end();
                m.pause_at(end);
            }
            Action::NextViolation => m.jump_to_next_violation(),
            Action::Seek(t) => m.move_to(Cursor::at_time(trace, t)),
            Action::SeekEntryB(i) => m.jump_to_entry_of_b(i),
            Action::SeekEntry(i) => m.pause_at(Cursor::at_step(trace, i + 1)),
            Action::Faster => m.change_speed(true),
            Action::Slower => m.change_speed(false),
            Action::Select(s) => m.frame.selected = s,
            #[cfg(not(feature = "player"))]
            Action::Edit(e) => m.edit(&e),
            #[cfg(not(feature = "lite"))]
            Action::ToggleFence => m.toggle_fence(),
            // The first load's one edit: its scenario (the default page's, fenced or not)
            // stays valid either way, so it needs none of the edits' validation.
            #[cfg(feature = "lite")]
            Action::ToggleFence => {
                let mut sc = (*m.doc.run.scenario).clone();
                sc.storage.fence = sc.storage.fence.flipped();
                m.doc.history.replace(sc);
                m.rerun();
            }
            Action::Undo => {
                if m.doc.history.undo() {
                    m.rerun();
                }
            }
            Action::Redo => {
                if m.doc.history.redo() {
                    m.rerun();
                }
            }
            Action::Open(name) => {
                m.teach.quiz = None;
                if m.open(&name) {
                    m.nav.menu = None;
                }
            }
            #[cfg(not(feature = "player"))]
            Action::Navigate(fragment) => m.navigate(&fragment),
            // A plain link to a scenario this build carries (any other was handed over
            // above): opened as the whole app's `navigate` opens it, keeping the run when
            // it is the one on screen, unedited. Not `navigate` itself: that links the whole
            // link parser, measured at 7.8 KB gzip of the links' player's wasm (247,337 →
            // 255,144). The first load, opened at the default page only, hands every link
            // over (`needs_whole_app`), which keeps this out of it.
            #[cfg(all(feature = "player", not(feature = "lite")))]
            Action::Navigate(fragment) => {
                use super::link::{plain, Plain};
                let Some((names, asks)) = plain(&fragment) else {
                    return Rc::new(m);
                };
                // An embed stays an embed, and a page stays a page; its options are the
                // link's, as the whole app's `navigate` reads them.
                m.embed.on = asks.embed;
                m.embed.diagram_only = asks.diagram_only;
                m.embed.autoplay = asks.autoplay;
                m.embed.origins = Rc::new(asks.origins);
                // The span first: opening places the beats and the cursor inside it.
                let span_changed = std::mem::replace(&mut m.frame.span, asks.span) != asks.span;
                match names {
                    Plain::Scenario(name) => {
                        let shown = m.doc.name.as_deref() == Some(name)
                            && PageCourse::open(name)
                                .is_some_and(|sc| **m.doc.history.current() == sc);
                        if !shown {
                            m.teach.quiz = None;
                            m.open(name);
                        } else if span_changed {
                            m.locate_beats();
                            let c = m.play.cursor;
                            m.move_to(c);
                        }
                    }
                    Plain::Quiz(q) => {
                        m.teach.quiz = None;
                        m.start_quiz(q);
                    }
                }
                m.nav.menu = None;
                m.nav.chapter = None;
                if span_changed {
                    let start = m.span_start();
                    m.move_to(start);
                }
                // The diagram shows the span (a player zooms no further).
                m.frame.zoom = m.zoom_inside_span(None);
                m.play_if_asked(asks.autoplay);
            }
            // (The first load is never embedded: static/first-paint.js opens it at the
            // default page only.)
            #[cfg(not(feature = "lite"))]
            Action::Host(cmd) => m.host(cmd),
            #[cfg(not(feature = "player"))]
            Action::HostLoad(text) => match super::embed::parse(&text) {
                Ok(cmd) => m.host(cmd),
                Err(e) => m.doc.error = Some(e),
            },
            Action::Compare(None) => m.doc.versus = None,
            #[cfg(not(feature = "player"))]
            Action::Compare(Some(with)) => m.compare_with(&with),
            Action::NextBeat => m.jump_to_beat(true),
            Action::PrevBeat => m.jump_to_beat(false),
            #[cfg(not(feature = "lite"))]
            Action::StartQuiz(q) => m.start_quiz(q),
            #[cfg(not(feature = "player"))]
            Action::AskAuthor => m.ask_author(),
            Action::Pick(i) => m.pick(i),
            #[cfg(not(feature = "lite"))]
            Action::QuizNext => m.next_stop(),
            #[cfg(not(feature = "lite"))]
            Action::SkipToStop => m.skip_to_stop(),
            Action::EndQuiz => m.teach.quiz = None,
            Action::ToggleMenu(which) => {
                m.nav.menu = if m.nav.menu == Some(which) {
                    None
                } else {
                    Some(which)
                };
                m.nav.chapter = None;
            }
            Action::LoadProgress(s) => m.teach.progress = Progress::decode(&s),
            #[cfg(not(feature = "player"))]
            Action::RunDraft(text) => m.run_draft(&text),
            #[cfg(not(feature = "player"))]
            Action::Import(text) => m.import(&text),
            Action::ResetProgress => m.teach.progress = Progress::default(),
            Action::SetReducedMotion(on) => m.play.reduced_motion = on,
            Action::ShowError(e) => m.doc.error = Some(e),
            Action::DismissError => m.doc.error = None,
            Action::Done(n) => {
                m.effects.done(n);
            }
            Action::SetPanel(p, open) => {
                m.nav.panels.set(p, open);
            }
            Action::Upgrade(_) => return self,
            Action::ExploreHere => m.ask_explore(true),
            #[cfg(not(feature = "player"))]
            Action::ExploreFix(name) => {
                m.teach.quiz = None;
                if m.open(&name) {
                    m.nav.menu = None;
                    m.ask_explore(true);
                }
            }
            #[cfg(not(feature = "player"))]
            Action::OpenRecorded {
                text,
                scenario,
                name,
            } => {
                m.doc.wants_recording = None;
                m.open_recorded(&text, scenario.as_deref(), name.as_deref());
            }
            // Handed over above, before anything changed (see `handoff`). Listed rather
            // than caught by `_`, so that a new action does not compile in a player until
            // it says what a player does with it.
            #[cfg(feature = "lite")]
            Action::Navigate(_)
            | Action::StartQuiz(_)
            | Action::QuizNext
            | Action::SkipToStop
            | Action::Host(_) => return self,
            #[cfg(feature = "player")]
            Action::Edit(_)
            | Action::HostLoad(_)
            | Action::Compare(Some(_))
            | Action::AskAuthor
            | Action::RunDraft(_)
            | Action::Import(_)
            | Action::ExploreFix(_)
            | Action::OpenRecorded { .. } => return self,
        }
        // What a link records: a new browser-history entry for a change the user made, the
        // same entry rewritten for one that came from a link.
        if action_kind != Kind::Other {
            m.nav.rev = m.nav.rev.wrapping_add(1);
            m.nav.from_link = matches!(action_kind, Kind::Navigate);
        }
        m.refresh_fragment();
        Rc::new(m)
    }
}
