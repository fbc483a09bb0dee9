//! The page's one reducer: the scenario history, the current run, the cursor, playback, the
//! quiz hold, the comparison, the menus and what a host page asked for.
//!
//! [`Session::reduce`] is a pure function of (state, [`Action`]): the browser layer wraps
//! it in Yew's `Reducible` and adds only what touches the browser (frames, keys, storage,
//! the address bar). A [`Run`] is simulated once per scenario (an edit, undo, redo, the
//! fencing switch) and then only *read*. Actions that change nothing return the same `Rc`,
//! so the page skips the render (a tick while paused costs nothing).

mod picker;
mod quiz;
mod readouts;
mod versus;

use super::run::{Run, Versus};
use crate::analysis::projection::State;
use crate::model::scenario::Scenario;
use crate::session::edit::{Edit, History};
use crate::session::embed::Command;
use crate::session::share;
use crate::teach::course::{self, clamp_to_hold, Progress, Quiz};
use crate::teach::narrate;
use crate::teach::presets::PRESETS;
use crate::view::playback::{self, Cursor, DEFAULT_SPEED, DISCRETE_STEP_REAL_MS, SPEEDS};
use crate::vocab::numbers::within;
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

/// Which menu is open over the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    Lessons,
    Interview,
    /// The share dialog: the link and an iframe snippet.
    Share,
}

#[derive(Clone)]
pub struct Session {
    /// The named scenario the history started from: a preset or a lesson variant.
    pub name: Option<Rc<str>>,
    /// Where each walkthrough beat lands in the current run (empty without a walkthrough).
    pub beats: Rc<Vec<Option<usize>>>,
    /// The interview question being played, if any.
    pub quiz: Option<Quiz>,
    pub progress: Progress,
    pub menu: Option<Menu>,
    /// The chapter a link asked for (the menu scrolls it into view).
    pub chapter: Option<usize>,
    /// Embedded in a host page: no site chrome, and host commands are obeyed.
    pub embed: bool,
    pub autoplay: bool,
    /// An embed shows only the diagram, its controls and the caption (`view=diagram`).
    pub diagram_only: bool,
    /// Host origins allowed to send commands (empty: the parent page, any origin).
    pub origins: Rc<Vec<String>>,
    /// Bumped by every change a link should record as a new history entry.
    pub rev: u32,
    /// The last change came from a link: write the fragment back without a new entry.
    pub from_link: bool,
    /// Side by side: the second run, what it is ("" = this scenario with the fence
    /// switched, else a variant's name), and the first entry where the two differ.
    pub versus: Option<Versus>,
    pub history: History,
    pub run: Rc<Run>,
    pub cursor: Cursor,
    pub state: Rc<State>,
    pub playing: bool,
    pub speed: usize,
    pub reduced_motion: bool,
    pub selected: Option<Selection>,
    /// The last refused edit, naming the field; the scenario is unchanged.
    pub error: Option<String>,
    /// The latest notable sentence the cursor has passed (the caption and live region).
    pub caption: String,
    /// The view as a link fragment (`#s=…`), `None` while playing and before the first
    /// action (the page's own link is read first). Computed once per action, so a paused
    /// page renders without encoding anything.
    pub fragment: Option<Rc<str>>,
    /// The first-load build only: the whole app is asked for, to carry on from this
    /// handoff (see `handoff`); bumped `upgrade_try` asks again after a failed load.
    pub upgrade: Option<Rc<super::handoff::Handoff>>,
    pub upgrade_try: u32,
    /// Bumped when the reader asks Explore to search the run on screen ("does this fix
    /// hold?"); the Explore panel starts a search when it changes.
    pub explore_asks: u32,
    /// A recording of a real run on screen instead of a simulated one (`super::recorded`).
    pub recorded: Option<Rc<super::run::Recorded>>,
    /// A built-in recording the link names, for the page to fetch (its name).
    pub wants_recording: Option<Rc<str>>,
    /// The diagram's window of true time (`None`: the whole run); see [`super::zoom`].
    pub zoom: Option<super::zoom::Window>,
    /// The stretch of the run the reader may play (`from=`, `to=`; default the whole run):
    /// see `session::span`.
    pub span: super::zoom::Span,
    pub(super) last_frame: Option<f64>,
    pub(super) discrete_wait: f64,
    /// Real ms left to hold on the notable event just reached.
    pub(super) dwell: f64,
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
    /// Compare with a variant ("" = the fence switched, [`BEFORE_LAST_EDIT`] = the run
    /// before the last edit), or stop comparing.
    Compare(Option<String>),
    ResetProgress,
    SetReducedMotion(bool),
    /// A value refused before it became an edit (it did not parse).
    ShowError(String),
    DismissError,
    /// The first-load build: load the whole app and carry on there, opening this panel
    /// (one of `handoff::PANELS`) or, with `None`, retrying the handoff asked for last.
    /// The whole app has everything already and ignores it.
    Upgrade(Option<String>),
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
        Session {
            name: Some(Rc::from(DEFAULT)),
            beats: Rc::new(Vec::new()),
            quiz: None,
            progress: Progress::default(),
            menu: None,
            chapter: None,
            embed: false,
            autoplay: false,
            diagram_only: false,
            origins: Rc::new(Vec::new()),
            rev: 0,
            from_link: false,
            versus: None,
            history,
            run,
            cursor: Cursor::START,
            state,
            playing: false,
            speed: DEFAULT_SPEED,
            reduced_motion: false,
            selected: None,
            error: None,
            caption: String::new(),
            fragment: None,
            upgrade: None,
            upgrade_try: 0,
            explore_asks: 0,
            zoom: None,
            span: super::zoom::Span::default(),
            recorded: None,
            wants_recording: None,
            last_frame: None,
            discrete_wait: 0.0,
            dwell: 0.0,
        }
    }

    /// The default page: the unfenced GC-pause scenario, ready to play, with its
    /// walkthrough beside it.
    pub fn default_page() -> Session {
        let sc = course::open(DEFAULT).unwrap_or_else(|| unreachable!("gc-pause is built in"));
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
        if let Some(q) = &mut self.quiz {
            let (sc, trace) = (&self.run.scenario, &self.run.trace);
            let (step, reveal) = clamp_to_hold(q, sc, trace, self.cursor.step, c.step);
            if reveal {
                q.revealed = true;
                // Kept between visits: the built-in questions' answers (an author's
                // questions are told to the host page instead, `session::statements`).
                if let (Some(right), false) = (q.right(sc, trace), q.author) {
                    self.progress.answer(q.question, q.stop, right);
                }
                // Play on from just after the decisive event through its consequence
                // (stopped below, at `reveal_until`), however the learner moved on.
                c = Cursor::at_step(trace, self.cursor.step + 1);
                if !self.playing {
                    self.playing = true;
                    self.last_frame = None;
                    self.dwell = 0.0;
                }
            } else if step != c.step {
                c = Cursor::at_step(trace, step);
                self.playing = false;
            }
            // Landing exactly on the stop (not past it) is a stop too: the question is
            // asked with the run paused, never while it plays on. Once a choice is picked,
            // playing on crosses the quiet time up to the decisive event (which may come
            // long after the entry before it) and reveals it there.
            if !q.revealed && q.picked.is_none() && q.hold(sc, trace) == Some(c.step) {
                self.playing = false;
            }
            // The reveal pauses once the consequence is drawn clear of the cursor line.
            if let Some(until) = q.reveal_until(sc, trace) {
                if c.t >= until {
                    c = Cursor::at_time(trace, until);
                    q.shown = true;
                    self.playing = false;
                }
            }
        }
        // Nothing outside the span is reached, by playback, a jump or a host's seek.
        let c = self.inside_span(c);
        self.cursor = c;
        if self.span_window().is_some() && self.at_span_end() {
            self.playing = false;
        }
        // A zoomed diagram keeps the cursor in view (playback, a step, a jump).
        let end = self.run.end_ms() as i64;
        self.zoom = self.zoom_inside_span(self.zoom.map(|w| w.following(c.t, end)));
        if let Some(b) = course::beat_at(&self.beats, c.step) {
            if b + 1 == self.beats.len() {
                if let Some(name) = &self.name {
                    self.progress.walk(name);
                }
            }
        }
        if c.step != self.state.step {
            self.state = Rc::new(self.run.state_at(c.step));
        }
        if let Some(v) = &mut self.versus {
            let b = Cursor::at_time(&v.run.trace, c.t).step;
            if b != v.state.step {
                v.state = Rc::new(v.run.state_at(b));
            }
        }
        // The caption is the latest notable entry at or before the cursor.
        let idx = self.run.notable.partition_point(|&i| i < c.step);
        self.caption = match idx.checked_sub(1).map(|j| self.run.notable[j]) {
            Some(i) if i < c.step => narrate::sentence(
                &self.run.trace,
                &self.run.verdict,
                i,
                &self.run.state_at(i + 1),
            )
            .unwrap_or_default(),
            _ => String::new(),
        };
        if self.cursor.at_end(&self.run.trace) {
            self.playing = false;
            // At the end, the caption says how the story ended.
            self.caption = narrate::ending(&self.run.verdict);
        }
    }

    pub(super) fn rerun(&mut self) {
        let t = self.cursor.t;
        // Anything that re-runs the scenario leaves a recording for the model's own run.
        self.recorded = None;
        self.run = Rc::new(Run::new(self.history.current().clone()));
        self.state = Rc::new(self.run.state_at(0));
        // An edit can shorten the run: the window stays inside it.
        let end = self.run.end_ms() as i64;
        self.zoom = self.zoom_inside_span(self.zoom.and_then(|w| {
            super::zoom::apply(Some(w), super::zoom::Zoom::To(w.from, w.to), t, end)
        }));
        self.locate_beats();
        if let Some(v) = &self.versus {
            let with = v.with.clone();
            self.compare_with(&with);
        }
        let c = Cursor::at_time(&self.run.trace, t);
        self.cursor = Cursor::START;
        self.move_to(c);
    }

    /// Places the walkthrough's beats on the current run. After an edit a beat whose event
    /// no longer happens, or whose text states a fact the run no longer has, is simply
    /// skipped (the library test keeps the stock runs whole).
    pub(super) fn locate_beats(&mut self) {
        // An author's own walkthrough, carried in the scenario, is the one told.
        let authored = &self.run.scenario.walkthrough;
        self.beats = Rc::new(if authored.is_empty() {
            self.name
                .as_deref()
                .and_then(course::walkthrough)
                .map_or_else(Vec::new, |w| w.place(&self.run.facts()))
        } else {
            crate::teach::authored::place(authored, &self.run.trace)
        });
        self.beats_inside_span();
    }

    /// Replaces the scenario with a named one, at the start, paused.
    pub(super) fn open(&mut self, name: &str) -> bool {
        let Some(sc) = course::open(name) else {
            self.error = Some(format!("s: no scenario named \"{name}\""));
            return false;
        };
        self.load(Some(name), sc);
        true
    }

    /// Makes `sc` the scenario on screen, under `name` (a built-in name, or "custom").
    pub(super) fn load(&mut self, name: Option<&str>, sc: Scenario) {
        self.name = name.map(Rc::from);
        // Opening a scenario is navigation, not an edit: it starts a fresh history (the
        // browser's Back button, through the fragment, goes back to the previous one).
        self.history = History::new(sc);
        self.zoom = None;
        self.playing = false;
        self.selected = None;
        self.error = None;
        self.cursor = Cursor::START;
        self.rerun();
        let start = self.span_start();
        self.move_to(start);
    }

    pub(super) fn notable_after(&self, step: usize) -> Option<usize> {
        self.run.notable.iter().copied().find(|&i| i >= step)
    }

    pub(super) fn notable_before(&self, step: usize) -> Option<usize> {
        self.run
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
        // The first load draws the whole run only: a zoom that changes nothing (Fit, or
        // zooming out of the whole run) stays here; any other is the whole app's.
        #[cfg(feature = "lite")]
        if let Action::Zoom(z) = action {
            let end = self.run.end_ms() as i64;
            if super::zoom::apply(self.zoom, z, self.cursor.t, end) == self.zoom {
                return self;
            }
        }
        #[cfg(feature = "lite")]
        if action.needs_whole_app() || matches!(action, Action::Navigate(_) | Action::Upgrade(_)) {
            let mut m = (*self).clone();
            m.playing = false;
            m.upgrade_try = m.upgrade_try.wrapping_add(1);
            m.upgrade = match action {
                Action::Upgrade(None) => m.upgrade.clone(),
                Action::Upgrade(Some(panel)) => Some(Rc::new(self.handoff(None, Some(&panel)))),
                a => Some(Rc::new(self.handoff(Some(&a), None))),
            };
            return Rc::new(m);
        }
        let trace = &self.run.trace;
        let mut m = match action {
            // The hot path: a frame while paused changes nothing and renders nothing.
            Action::Tick(_) | Action::Pause if !self.playing => return self,
            Action::Select(s) if s == self.selected => return self,
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
            | Action::Host(Command::Open(_) | Command::Load(_)) => Kind::Changes,
            _ => Kind::Other,
        };
        match action {
            Action::TogglePlay => {
                if m.playing {
                    m.playing = false;
                } else {
                    if m.at_span_end() {
                        let start = m.span_start();
                        m.move_to(start);
                    }
                    m.playing = true;
                    m.last_frame = None;
                    m.discrete_wait = 0.0;
                    m.dwell = 0.0;
                }
            }
            Action::Pause => m.playing = false,
            Action::Tick(now) => {
                let dt = m.last_frame.map_or(0.0, |l| within(now - l, 0.0, 100.0));
                m.last_frame = Some(now);
                if m.reduced_motion {
                    // Discrete steps: one notable event at a time, no in-between frames.
                    m.discrete_wait += dt;
                    if m.discrete_wait < DISCRETE_STEP_REAL_MS {
                        return Rc::new(m);
                    }
                    m.discrete_wait = 0.0;
                    let c = match m.notable_after(m.cursor.step) {
                        Some(i) => Cursor::at_step(trace, i + 1),
                        None => Cursor::end(trace),
                    };
                    m.move_to(c);
                } else {
                    if m.dwell > 0.0 {
                        // Holding on a notable event so its caption can be read.
                        m.dwell -= dt;
                        return Rc::new(m);
                    }
                    let at = |i: usize| trace.entries.get(i).map(|e| e.t.0 as f64);
                    let gap = (
                        m.cursor.step.checked_sub(1).and_then(at).unwrap_or(0.0),
                        at(m.cursor.step).unwrap_or(m.run.end_ms()),
                    );
                    let t = playback::advance(
                        m.cursor.t,
                        dt,
                        SPEEDS[m.speed],
                        &m.run.flights,
                        gap,
                        m.run.end_ms(),
                    );
                    // Never pass a notable event in one frame: stop on it and dwell, so
                    // every one is drawn, captioned and announced (several can share a ms).
                    let c = match m.notable_after(m.cursor.step) {
                        Some(i) if trace.entries[i].t.0 as f64 <= t => {
                            m.dwell = playback::dwell_ms(SPEEDS[m.speed]);
                            Cursor::at_step(trace, i + 1)
                        }
                        _ if t >= m.run.end_ms() => Cursor::end(trace),
                        _ => Cursor::at_time(trace, t),
                    };
                    m.move_to(c);
                }
            }
            Action::Zoom(z) => {
                let z = super::zoom::apply(m.zoom, z, m.cursor.t, m.run.end_ms() as i64);
                m.zoom = m.zoom_inside_span(z);
            }
            Action::StepForward => {
                m.playing = false;
                m.move_to(Cursor::at_step(trace, m.cursor.step + 1));
            }
            Action::StepBack => {
                m.playing = false;
                m.move_to(Cursor::at_step(trace, m.cursor.step.saturating_sub(1)));
            }
            Action::NextNotable => {
                m.playing = false;
                let c = m
                    .notable_after(m.cursor.step)
                    .map_or(Cursor::end(trace), |i| Cursor::at_step(trace, i + 1));
                m.move_to(c);
            }
            Action::PrevNotable => {
                m.playing = false;
                let c = m
                    .notable_before(m.cursor.step)
                    .map_or(Cursor::START, |i| Cursor::at_step(trace, i + 1));
                m.move_to(c);
            }
            Action::ToStart => {
                m.playing = false;
                let start = m.span_start();
                m.move_to(start);
            }
            Action::ToEnd => {
                m.playing = false;
                let end = m.span_end();
                m.move_to(end);
            }
            Action::NextViolation => {
                m.playing = false;
                let next = m
                    .run
                    .verdict
                    .violations
                    .iter()
                    .map(|v| v.entry as usize)
                    .find(|&i| i >= m.cursor.step);
                let first = m.run.verdict.violations.first().map(|v| v.entry as usize);
                if let Some(i) = next.or(first) {
                    m.move_to(Cursor::at_step(trace, i + 1));
                }
            }
            Action::Seek(t) => m.move_to(Cursor::at_time(trace, t)),
            Action::SeekEntryB(i) => {
                m.playing = false;
                let t = m.versus.as_ref().and_then(|v| v.run.trace.entries.get(i));
                let t = t.map_or(0.0, |e| e.t.0 as f64);
                m.move_to(Cursor::at_time(trace, t));
            }
            Action::SeekEntry(i) => {
                m.playing = false;
                m.move_to(Cursor::at_step(trace, i + 1));
            }
            Action::Faster => m.speed = (m.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => m.speed = m.speed.saturating_sub(1),
            Action::Select(s) => m.selected = s,
            #[cfg(not(feature = "lite"))]
            Action::Edit(e) => match m.history.edit(&e) {
                Ok(()) => {
                    m.error = None;
                    m.selected = None;
                    m.rerun();
                }
                Err(err) => m.error = Some(err.to_string()),
            },
            #[cfg(not(feature = "lite"))]
            Action::ToggleFence => {
                let f = m.run.scenario.storage.fence.flipped();
                match m.history.edit(&Edit::SetFence(f)) {
                    Ok(()) => m.rerun(),
                    Err(err) => m.error = Some(err.to_string()),
                }
            }
            // The first load's one edit: its scenario (the default page's, fenced or not)
            // stays valid either way, so it needs none of the edits' validation.
            #[cfg(feature = "lite")]
            Action::ToggleFence => {
                let mut sc = (*m.run.scenario).clone();
                sc.storage.fence = sc.storage.fence.flipped();
                m.history.replace(sc);
                m.rerun();
            }
            Action::Undo => {
                if m.history.undo() {
                    m.rerun();
                }
            }
            Action::Redo => {
                if m.history.redo() {
                    m.rerun();
                }
            }
            Action::Open(name) => {
                m.quiz = None;
                if m.open(&name) {
                    m.menu = None;
                }
            }
            #[cfg(not(feature = "lite"))]
            Action::Navigate(fragment) => m.navigate(&fragment),
            #[cfg(not(feature = "lite"))]
            Action::Host(cmd) => m.host(cmd),
            Action::Compare(None) => m.versus = None,
            #[cfg(not(feature = "lite"))]
            Action::Compare(Some(with)) => m.compare_with(&with),
            Action::NextBeat => {
                m.playing = false;
                if let Some(s) = course::next_beat_step(&m.beats, m.cursor.step) {
                    m.move_to(Cursor::at_step(trace, s));
                }
            }
            Action::PrevBeat => {
                m.playing = false;
                let s = course::prev_beat_step(&m.beats, m.cursor.step);
                m.move_to(Cursor::at_step(trace, s));
            }
            #[cfg(not(feature = "lite"))]
            Action::StartQuiz(q) => m.start_quiz(q),
            #[cfg(not(feature = "lite"))]
            Action::AskAuthor => {
                if let Some(q) = Quiz::of_author(&m.run.scenario) {
                    m.quiz = Some(q);
                    m.menu = None;
                    m.playing = false;
                    let start = m.span_start();
                    m.move_to(start);
                }
            }
            Action::Pick(i) => {
                if let Some(q) = &mut m.quiz {
                    let ask = q.ask(&m.run.scenario, &m.run.trace);
                    if !q.revealed && ask.is_some_and(|a| i < a.choices.len()) {
                        q.picked = Some(i);
                    }
                }
            }
            #[cfg(not(feature = "lite"))]
            Action::QuizNext => m.next_stop(),
            #[cfg(not(feature = "lite"))]
            Action::SkipToStop => m.skip_to_stop(),
            Action::EndQuiz => m.quiz = None,
            Action::ToggleMenu(which) => {
                m.menu = if m.menu == Some(which) {
                    None
                } else {
                    Some(which)
                };
                m.chapter = None;
            }
            Action::LoadProgress(s) => m.progress = Progress::decode(&s),
            #[cfg(not(feature = "lite"))]
            Action::RunDraft(text) => match Scenario::from_json(&text) {
                Ok(sc) => {
                    m.history.replace(sc);
                    m.error = None;
                    m.selected = None;
                    m.rerun();
                }
                Err(e) => m.error = Some(format!("editor: {e}")),
            },
            #[cfg(not(feature = "lite"))]
            Action::Import(text) => match Scenario::from_json(&text) {
                Ok(sc) => {
                    m.quiz = None;
                    // Undo (and Compare's "before my last edit") go back to the run the
                    // import replaced.
                    let mut history = m.history.clone();
                    history.open_over(sc.clone());
                    m.load(None, sc);
                    m.history = history;
                }
                // The current scenario stays; the message names the field.
                Err(e) => m.error = Some(format!("import: {e}")),
            },
            Action::ResetProgress => m.progress = Progress::default(),
            Action::SetReducedMotion(on) => m.reduced_motion = on,
            Action::ShowError(e) => m.error = Some(e),
            Action::DismissError => m.error = None,
            Action::Upgrade(_) => return self,
            Action::ExploreHere => m.explore_asks = m.explore_asks.wrapping_add(1),
            #[cfg(not(feature = "lite"))]
            Action::ExploreFix(name) => {
                m.quiz = None;
                if m.open(&name) {
                    m.menu = None;
                    m.explore_asks = m.explore_asks.wrapping_add(1);
                }
            }
            #[cfg(not(feature = "lite"))]
            Action::OpenRecorded {
                text,
                scenario,
                name,
            } => {
                m.wants_recording = None;
                m.open_recorded(&text, scenario.as_deref(), name.as_deref());
            }
            // Handed over above, before anything changed (see `handoff`).
            #[cfg(feature = "lite")]
            _ => return self,
        }
        // What a link records: a new browser-history entry for a change the user made, the
        // same entry rewritten for one that came from a link.
        if action_kind != Kind::Other {
            m.rev = m.rev.wrapping_add(1);
            m.from_link = matches!(action_kind, Kind::Navigate);
        }
        m.refresh_fragment();
        Rc::new(m)
    }
}
