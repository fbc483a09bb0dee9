//! The learner's path through the teaching material: the chapter menu, which scenario a
//! name opens, where a walkthrough stands at the cursor, the interview quiz's state
//! machine, and the progress kept between visits.
//!
//! All of it is plain data and pure functions, tested natively; the browser view only
//! draws what these return and stores [`Progress::encode`]'s string in localStorage.
//!
//! Scenario names are the ones the command-line tool takes: a built-in preset
//! (`gc-pause`, `gc-pause-fenced`) or a library lesson, optionally with one of its fixes
//! (`check-then-write`, `check-then-write/fencing`).

use crate::model::scenario::{Flavor, Scenario};
use crate::model::trace::Trace;
use crate::teach::flavor_presets::{FlavorPreset, CHAPTER_SERVICES, FLAVOR_PRESETS};
use crate::teach::holds::{self, Standing};
use crate::teach::library::Lesson;
use crate::teach::library::{
    self, CHAPTER_EXCLUSIVITY, CHAPTER_FENCE, CHAPTER_LEASE, CHAPTER_REACHABLE, CHAPTER_TTL,
    CHAPTER_UNFENCEABLE, FENCING, LESSONS,
};
use crate::teach::presets::{self, Preset, PRESETS};
use crate::teach::quiz::{Question, Stop, QUESTIONS};
use crate::teach::walkthrough::{self, Walkthrough, WALKTHROUGHS};
use crate::vocab::names::is_slug;
use std::marker::PhantomData;

/// The chapters, in the order the sources argue them, then the real lock services (each
/// one's characteristic failure and remedy: the sources' point that the service matters
/// less than whether the resource enforces order).
pub const CHAPTERS: [&str; 7] = [
    CHAPTER_EXCLUSIVITY,
    CHAPTER_LEASE,
    CHAPTER_TTL,
    CHAPTER_REACHABLE,
    CHAPTER_FENCE,
    CHAPTER_UNFENCEABLE,
    CHAPTER_SERVICES,
];

/// The first lesson is Kleppmann's GC pause, which is also the default page; it lives
/// among the presets, its fix is the fenced preset.
const FIRST: &str = "gc-pause";
const FIRST_FIXED: &str = "gc-pause-fenced";

/// A fix as the menu shows it: its name, what it changes, and the scenario it opens.
#[derive(Clone, Debug, PartialEq)]
pub struct FixRef {
    /// The slug, for links (`lesson/fix`); never shown as the fix's name.
    pub name: &'static str,
    /// The fix's name in plain words, as every view shows it.
    pub title: &'static str,
    pub summary: &'static str,
    pub scenario: String,
    /// A fix, a change that only narrows the window, or a variant that shows the failure.
    pub standing: Standing,
}

/// One lesson in the menu.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRef {
    pub id: &'static str,
    pub title: String,
    pub fixes: Vec<FixRef>,
}

/// A chapter and its lessons, for the menu.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub title: &'static str,
    pub lessons: Vec<LessonRef>,
}

/// What a page carries of the course, as a type the page picks: its built-in scenarios,
/// lessons, lock services' lessons, walkthroughs and interview questions, and everything
/// read from them (which name opens what, the menu, a lesson's fixes, its walkthrough).
/// The whole app carries [`Complete`]; the first load [`FirstLoad`], the default page's
/// lesson and its fix, so the linker leaves every other lesson's text, and the JSON
/// reader their files need, out of its wasm. The functions of this module with the same
/// names answer for [`Complete`].
pub trait Catalog: Copy + std::fmt::Debug + PartialEq + Eq + 'static {
    const PRESETS: &'static [Preset];
    const LESSONS: &'static [Lesson];
    const SERVICES: &'static [FlavorPreset];
    const WALKTHROUGHS: &'static [Walkthrough];
    const QUESTIONS: &'static [Question];

    /// Opens a scenario by name: a preset, a lesson or a lock-service preset, or
    /// `lesson/fix`.
    fn open(name: &str) -> Option<Scenario> {
        match Self::PRESETS.iter().find(|p| p.name == name) {
            Some(p) => Some(p.scenario()),
            None => library::open_in(Self::lessons(), name),
        }
    }

    /// Every lesson of the menu but the first: the library's, then the lock services'.
    fn lessons() -> impl Iterator<Item = &'static Lesson> {
        Self::LESSONS
            .iter()
            .chain(Self::SERVICES.iter().map(|p| &p.lesson))
    }

    /// The built-in scenario that `sc` was edited from, told by its name and description
    /// (which an edit keeps, and a scenario written from scratch has its own of): a reload
    /// of an edited run, or a link to one, then says "Edited" and marks the description
    /// as the original's, as the page did before. `None` when no built-in shares both, or
    /// when `sc` is the built-in itself.
    fn origin_of(sc: &Scenario) -> Option<Scenario> {
        Self::names()
            .filter_map(|n| Self::open(&n))
            .find(|o| o.name == sc.name && o.description == sc.description)
            .filter(|o| o != sc)
    }

    /// Every name [`Catalog::open`] opens, in the menu's order: the presets, then each
    /// lesson followed by its fixes (`lesson/fix`).
    fn names() -> impl Iterator<Item = String> {
        Self::PRESETS
            .iter()
            .map(|p| p.name.to_string())
            .chain(Self::lessons().flat_map(|l| {
                std::iter::once(l.id.to_string())
                    .chain(Self::fixes(l.id).into_iter().map(|f| f.scenario))
            }))
    }

    /// The name a reader most likely meant by one that opens nothing — a letter dropped,
    /// doubled, swapped or mistyped, a fix's name shortened — so that the error can offer
    /// it: the nearest of [`Catalog::names`] within a quarter of its length in edits (at
    /// least two), the first in the menu's order on a tie. `None` when nothing is that near.
    fn nearest(name: &str) -> Option<String> {
        // Every built-in name is shorter (its test checks), so a longer one is no typo of
        // ours; this also bounds the work done for a hostile one.
        if name.len() > 64 {
            return None;
        }
        let reach = (name.chars().count() / 4).max(2);
        Self::names()
            .map(|n| (strsim::osa_distance(name, &n), n))
            .filter(|(d, _)| *d <= reach)
            .min_by_key(|(d, _)| *d)
            .map(|(_, n)| n)
    }

    /// What an error says of a name that opens nothing: `no scenario named "…"`, with the
    /// nearest name if there is one. `shown` is the name as the error may print it (a link's
    /// is clipped).
    fn unknown(name: &str, shown: &str) -> String {
        match Self::nearest(name) {
            Some(n) => format!("no scenario named \"{shown}\"; did you mean \"{n}\"?"),
            None => format!("no scenario named \"{shown}\""),
        }
    }

    /// The lock service a lesson is about, if it is one of the real services' presets.
    fn service_of(name: &str) -> Option<Flavor> {
        let id = lesson_of(name);
        Self::SERVICES
            .iter()
            .find(|p| p.name() == id)
            .map(|p| p.flavor)
    }

    /// The fixes of a lesson, as scenarios to open.
    fn fixes(lesson: &str) -> Vec<FixRef> {
        if lesson == FIRST {
            return vec![FixRef {
                name: FENCING.name,
                title: FENCING.title,
                summary: FENCING.summary,
                scenario: FIRST_FIXED.to_string(),
                standing: holds::standing(FENCING.expect.safe, FENCING.expect.narrows),
            }];
        }
        Self::lessons()
            .find(|l| l.id == lesson)
            .map(|l| {
                l.fixes
                    .iter()
                    .map(|f| {
                        let scenario = format!("{}/{}", l.id, f.name);
                        FixRef {
                            name: f.name,
                            title: f.title,
                            summary: f.summary,
                            standing: holds::standing(f.expect.safe, f.expect.narrows),
                            scenario,
                        }
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The fixes worth offering beside a run of `lesson` whose scenario is `sc`: those
    /// that would change it. A fix the run already has (fencing switched on by hand over
    /// the GC pause) is not offered again.
    fn fixes_to_offer(lesson: &str, sc: &Scenario) -> Vec<FixRef> {
        let apply = |name: &str| -> Option<fn(&mut Scenario)> {
            if lesson == FIRST {
                return Some(FENCING.apply);
            }
            let l = Self::lessons().find(|l| l.id == lesson)?;
            Some(l.fixes.iter().find(|f| f.name == name)?.apply)
        };
        Self::fixes(lesson)
            .into_iter()
            .filter(|f| {
                apply(f.name).is_none_or(|a| {
                    let mut fixed = sc.clone();
                    a(&mut fixed);
                    fixed != *sc
                })
            })
            .collect()
    }

    /// The fix a scenario name applies, if it is a fix variant.
    fn fix_of(name: &str) -> Option<FixRef> {
        Self::fixes(lesson_of(name))
            .into_iter()
            .find(|f| f.scenario == name)
    }

    /// The sources a scenario's lesson credits (a fix credits its lesson's); none for a
    /// scenario that is no lesson or preset.
    fn sources(name: &str) -> &'static [&'static str] {
        let id = lesson_of(name);
        let preset = |n: &str| Self::PRESETS.iter().find(|p| p.name == n);
        preset(name)
            .or_else(|| preset(id))
            .map(|p| p.sources)
            .or_else(|| Self::lessons().find(|l| l.id == id).map(|l| l.sources))
            .unwrap_or_default()
    }

    /// The line under a walkthrough that credits its sources ("Sources: A; B."); "" for
    /// none.
    fn sources_line(name: &str) -> String {
        let s = Self::sources(name);
        if s.is_empty() {
            String::new()
        } else {
            format!("Sources: {}.", s.join("; "))
        }
    }

    /// The chapter menu: every lesson under its chapter, titled by its scenario's name.
    fn menu() -> Vec<Chapter> {
        let lesson = |id: &'static str| LessonRef {
            id,
            title: Self::open(id).map(|s| s.name).unwrap_or_default(),
            fixes: Self::fixes(id),
        };
        CHAPTERS
            .iter()
            .map(|&title| {
                let first = (title == CHAPTER_EXCLUSIVITY).then(|| lesson(FIRST));
                Chapter {
                    title,
                    lessons: first
                        .into_iter()
                        .chain(
                            Self::lessons()
                                .filter(|l| l.chapter == title)
                                .map(|l| lesson(l.id)),
                        )
                        .collect(),
                }
            })
            .collect()
    }

    /// The walkthrough told over exactly this scenario, if any (fix variants have none:
    /// their panel shows what the fix changed and the verdict).
    fn walkthrough(name: &str) -> Option<&'static Walkthrough> {
        Self::WALKTHROUGHS.iter().find(|w| w.scenario == name)
    }

    /// How the compare menu names a variant: a fix by its title, the lesson's own run as
    /// such.
    fn variant_label(name: &str) -> String {
        match Self::fix_of(name) {
            Some(f) => format!("{}: {}", f.standing.word(), f.title),
            None => "the lesson's run, without a fix".to_string(),
        }
    }

    /// The variants worth comparing with a scenario: its lesson's unsafe run and every
    /// fix, by name (the current one excluded).
    fn variants(name: &str) -> Vec<String> {
        let lesson = lesson_of(name);
        std::iter::once(lesson.to_string())
            .chain(Self::fixes(lesson).into_iter().map(|f| f.scenario))
            .filter(|n| n != name && Self::open(n).is_some())
            .collect()
    }

    /// The quiz of built-in question `question`, from its first stop (`None`: no such
    /// question).
    fn quiz(question: usize) -> Option<Quiz<Self>> {
        (question < Self::QUESTIONS.len()).then_some(Quiz {
            catalog: PhantomData,
            question,
            author: false,
            stop: 0,
            picked: None,
            revealed: false,
            shown: false,
        })
    }
}

/// Everything the course has: what the whole app, the command-line tool and the tests
/// read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Complete;

impl Catalog for Complete {
    const PRESETS: &'static [Preset] = PRESETS;
    const LESSONS: &'static [Lesson] = LESSONS;
    const SERVICES: &'static [FlavorPreset] = FLAVOR_PRESETS;
    const WALKTHROUGHS: &'static [Walkthrough] = WALKTHROUGHS;
    const QUESTIONS: &'static [Question] = QUESTIONS;
}

/// The default page's lesson and its fix, with its walkthrough, its scenario built in
/// code (`presets::FIRST_LOAD`): what the first load carries. Every other name opens
/// nothing here, and the page hands it to the whole app (`session::handoff`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstLoad;

impl Catalog for FirstLoad {
    const PRESETS: &'static [Preset] = presets::FIRST_LOAD;
    const LESSONS: &'static [Lesson] = &[];
    const SERVICES: &'static [FlavorPreset] = &[];
    const WALKTHROUGHS: &'static [Walkthrough] = &[walkthrough::GC_PAUSE];
    const QUESTIONS: &'static [Question] = &[];
}

/// [`Catalog::open`] of the whole course.
pub fn open(name: &str) -> Option<Scenario> {
    Complete::open(name)
}

/// [`Catalog::nearest`] of the whole course.
pub fn nearest(name: &str) -> Option<String> {
    Complete::nearest(name)
}

/// [`Catalog::origin_of`] of the whole course.
pub fn origin_of(sc: &Scenario) -> Option<Scenario> {
    Complete::origin_of(sc)
}

/// [`Catalog::service_of`] of the whole course.
pub fn service_of(name: &str) -> Option<Flavor> {
    Complete::service_of(name)
}

/// The lesson a scenario name belongs to (a fix variant belongs to its lesson).
pub fn lesson_of(name: &str) -> &str {
    match name {
        FIRST_FIXED => FIRST,
        _ => name.split_once('/').map_or(name, |(id, _)| id),
    }
}

/// [`Catalog::fixes`] of the whole course.
pub fn fixes(lesson: &str) -> Vec<FixRef> {
    Complete::fixes(lesson)
}

/// [`Catalog::fixes_to_offer`] of the whole course.
pub fn fixes_to_offer(lesson: &str, sc: &Scenario) -> Vec<FixRef> {
    Complete::fixes_to_offer(lesson, sc)
}

/// What a fix's note says the variant changes: its summary, without claiming how many
/// settings that takes (a watchdog fix renews *and* keys the swap); a change that only
/// narrows the window says so, and what still breaks it.
pub fn fix_note(f: &FixRef) -> String {
    match f.standing {
        Standing::Fix => format!(
            "What this run changes: {}. Play it and compare the verdict.",
            f.summary
        ),
        Standing::Narrows(n) => format!(
            "What this run changes: {}. It narrows the window and is not a fix: {}.",
            f.summary, n.still
        ),
        Standing::Variant => format!(
            "What this run changes: {}. Not a fix: the same failure in another form.",
            f.summary
        ),
    }
}

/// What a button that opens the variant says ("Fix it: Storage checks the fencing token").
pub fn open_label(f: &FixRef) -> String {
    let verb = match f.standing {
        Standing::Fix => "Fix it",
        Standing::Narrows(_) => "Narrow it",
        Standing::Variant => "Compare",
    };
    format!("{verb}: {}", f.title)
}

/// [`Catalog::fix_of`] of the whole course.
pub fn fix_of(name: &str) -> Option<FixRef> {
    Complete::fix_of(name)
}

/// [`Catalog::sources`] of the whole course.
pub fn sources(name: &str) -> &'static [&'static str] {
    Complete::sources(name)
}

/// [`Catalog::sources_line`] of the whole course.
pub fn sources_line(name: &str) -> String {
    Complete::sources_line(name)
}

/// [`Catalog::menu`] of the whole course.
pub fn menu() -> Vec<Chapter> {
    Complete::menu()
}

/// [`Catalog::walkthrough`] of the whole course.
pub fn walkthrough(name: &str) -> Option<&'static Walkthrough> {
    Complete::walkthrough(name)
}

// ------------------------------------------------------------------ walkthrough beats

/// The beat the cursor has passed last: the last beat whose event is before `step`.
/// `located` is [`Walkthrough::locate`]'s answer for the current trace.
pub fn beat_at(located: &[Option<usize>], step: usize) -> Option<usize> {
    located
        .iter()
        .rposition(|e| matches!(e, Some(i) if *i < step))
}

/// The walkthrough's count as its header shows it: "beat 3 of 7" once the cursor has
/// passed a beat, "7 beats" before. Only the beats this run has count: after an edit some
/// beats' events may no longer happen.
pub fn beat_count(located: &[Option<usize>], step: usize) -> String {
    let total = located.iter().flatten().count();
    // The beats passed; none passed is exactly when `beat_at` has no beat.
    match located.iter().flatten().filter(|&&i| i < step).count() {
        0 => format!("{total} beats"),
        shown => format!("beat {shown} of {total}"),
    }
}

/// Where "Next" moves the cursor: just after the first beat's event not yet passed.
pub fn next_beat_step(located: &[Option<usize>], step: usize) -> Option<usize> {
    located.iter().flatten().map(|i| i + 1).find(|&s| s > step)
}

/// Where "Back" moves the cursor: just after the beat before the current one, or to the
/// start from the first beat.
pub fn prev_beat_step(located: &[Option<usize>], step: usize) -> usize {
    located
        .iter()
        .flatten()
        .map(|i| i + 1)
        .rev()
        .find(|&s| s < step)
        .unwrap_or(0)
}

// ------------------------------------------------------------------ interview quiz

/// A learner's way through one set of questions (a built-in interview question's stops, or
/// the questions an author wrote into the scenario on screen: `author`): which stop, what
/// they predicted, whether the answer has been revealed (by playing on past the decisive
/// event) and whether the reveal has played on to its consequence.
/// `C`: the catalog whose built-in questions ([`Catalog::QUESTIONS`]) it asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiz<C: Catalog> {
    catalog: PhantomData<C>,
    /// The built-in question (an index into the catalog's); 0 for an author's questions.
    pub question: usize,
    /// The questions are the scenario's own (`Scenario::questions`), asked on its run.
    pub author: bool,
    pub stop: usize,
    pub picked: Option<usize>,
    pub revealed: bool,
    pub shown: bool,
}

/// A stop as the page asks it, whoever wrote it: the words, and where in the run its
/// decisive moment and consequence are, with the choice that names what happened — read
/// from the run, never stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask<'a> {
    /// Facts stated beside the question (a built-in stop's givens).
    pub givens: Vec<String>,
    pub question: &'a str,
    pub choices: Vec<&'a str>,
    pub explain: &'a str,
    /// The decisive event's entry (the cursor holds just before it).
    pub at: Option<usize>,
    /// The consequence the reveal plays on to.
    pub then: Option<usize>,
    /// The choice naming what the run did there.
    pub answer: Option<usize>,
}

impl Ask<'static> {
    fn of_stop(stop: &'static Stop, sc: &Scenario, trace: &Trace) -> Ask<'static> {
        Ask {
            givens: stop.givens(sc),
            question: stop.question,
            choices: stop.choices.iter().map(|c| c.text).collect(),
            explain: stop.explain,
            at: stop.locate(trace),
            then: stop.consequence(trace),
            answer: stop.answer(trace),
        }
    }
}

/// How far past its consequence a reveal stops, as a share of the run (1/40): far enough
/// that the consequence's mark stands clear of the cursor line instead of under it.
const REVEAL_MARGIN_SHARE: i64 = 40;

impl Quiz<Complete> {
    /// [`Catalog::quiz`] of the whole course.
    pub fn new(question: usize) -> Option<Quiz<Complete>> {
        Complete::quiz(question)
    }
}

impl<C: Catalog> Quiz<C> {
    /// The questions an author wrote into `sc`, if it has any.
    pub fn of_author(sc: &Scenario) -> Option<Quiz<C>> {
        (!sc.questions.is_empty()).then_some(Quiz {
            catalog: PhantomData,
            question: 0,
            author: true,
            stop: 0,
            picked: None,
            revealed: false,
            shown: false,
        })
    }

    /// The scenario the current stop plays: the question's own, or a fix variant for a
    /// stop that asks what the right behaviour is (after the last stop, the last one's).
    /// `None` for an author's questions, which are asked on the run they came with.
    pub fn scenario(&self) -> Option<&'static str> {
        let q = self.question()?;
        let stop = q.stops.get(self.stop).or(q.stops.last());
        Some(stop.and_then(|s| s.on).unwrap_or(q.scenario))
    }

    /// How many stops the quiz has.
    pub fn stops(&self, sc: &Scenario) -> usize {
        match self.question() {
            Some(q) => q.stops.len(),
            None => sc.questions.len(),
        }
    }

    /// Whether the learner is still to answer the current stop: what would give the
    /// answer away (the scenario's description, the verdict, the fence switch) stays
    /// hidden until then.
    pub fn hides_answer(&self, sc: &Scenario) -> bool {
        self.stop < self.stops(sc) && !self.revealed
    }

    /// The true time (ms) where a reveal stops playing: just past the stop's consequence,
    /// never past the end of the run. `None` before the reveal or once it has been shown.
    pub fn reveal_until(&self, sc: &Scenario, trace: &Trace) -> Option<f64> {
        if !self.revealed || self.shown {
            return None;
        }
        let i = self.ask(sc, trace)?.then?;
        let margin = (trace.end.0 / REVEAL_MARGIN_SHARE).max(1);
        Some((trace.entries[i].t.0 + margin).min(trace.end.0) as f64)
    }

    /// The built-in question; `None` for an author's questions.
    pub fn question(&self) -> Option<&'static Question> {
        C::QUESTIONS.get(self.question).filter(|_| !self.author)
    }

    /// What the whole question asks, as its heading says it.
    pub fn asks<'a>(&self, sc: &'a Scenario) -> &'a str {
        match self.question() {
            Some(q) => q.asks,
            None if sc.name.trim().is_empty() => "Questions on this run",
            None => sc.name.as_str(),
        }
    }

    /// The built-in stop in play; `None` once every stop is done, and for an author's
    /// questions (see [`Quiz::ask`], which covers both).
    pub fn current(&self) -> Option<&'static Stop> {
        self.question()?.stops.get(self.stop)
    }

    /// The stop in play, asked of `trace` (the run of `sc`); `None` once every stop is done
    /// (the model answer shows).
    pub fn ask<'a>(&self, sc: &'a Scenario, trace: &Trace) -> Option<Ask<'a>> {
        if let Some(q) = self.question() {
            return Some(Ask::of_stop(q.stops.get(self.stop)?, sc, trace));
        }
        let q = sc.questions.get(self.stop)?;
        let decisive = crate::teach::authored::decisive(q, trace);
        Some(Ask {
            givens: Vec::new(),
            question: q.prompt.as_str(),
            choices: q.choices.iter().map(|c| c.text.as_str()).collect(),
            explain: q.explain.as_str(),
            at: decisive.map(|d| d.0),
            then: decisive.map(|d| d.0),
            answer: decisive.map(|d| d.1),
        })
    }

    /// The step the cursor may not pass until the learner has answered: the cursor holds
    /// just before the decisive event, with the event not yet applied.
    pub fn hold(&self, sc: &Scenario, trace: &Trace) -> Option<usize> {
        if self.revealed {
            return None;
        }
        self.ask(sc, trace)?.at
    }

    /// Whether the prediction matched what the model did (`None` before an answer, or if
    /// the moment never comes in this trace).
    pub fn right(&self, sc: &Scenario, trace: &Trace) -> Option<bool> {
        Some(self.picked? == self.ask(sc, trace)?.answer?)
    }

    /// On to the next stop.
    pub fn advance(&mut self) {
        self.stop += 1;
        self.picked = None;
        self.revealed = false;
        self.shown = false;
    }
}

/// Clamps a cursor move to a quiz's hold. Returns the step to go to and whether the move
/// reveals the answer: moving past the decisive event is allowed once a choice is picked
/// and the cursor is already waiting at it; otherwise the cursor stops there.
pub fn clamp_to_hold<C: Catalog>(
    quiz: &Quiz<C>,
    sc: &Scenario,
    trace: &Trace,
    from: usize,
    to: usize,
) -> (usize, bool) {
    match quiz.hold(sc, trace) {
        Some(h) if to > h => {
            if from == h && quiz.picked.is_some() {
                (to, true)
            } else {
                (h, false)
            }
        }
        _ => (to, false),
    }
}

// ------------------------------------------------------------------ progress

/// What a learner has done, kept between visits. No account, no network: the browser
/// stores [`Progress::encode`] in localStorage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Walkthroughs followed to their last beat, by scenario name (sorted).
    pub walked: Vec<String>,
    /// Answered stops: (question, stop, right), sorted, one per stop (the latest).
    pub answers: Vec<(u8, u8, bool)>,
}

impl Progress {
    const VERSION: &'static str = "1";

    pub fn walk(&mut self, name: &str) -> bool {
        match self.walked.binary_search_by(|w| w.as_str().cmp(name)) {
            Ok(_) => false,
            Err(i) => {
                self.walked.insert(i, name.to_string());
                true
            }
        }
    }

    pub fn answer(&mut self, question: usize, stop: usize, right: bool) {
        let key = (question as u8, stop as u8);
        match self.answers.binary_search_by(|a| (a.0, a.1).cmp(&key)) {
            Ok(i) => self.answers[i].2 = right,
            Err(i) => self.answers.insert(i, (key.0, key.1, right)),
        }
    }

    /// Whether the walkthrough of lesson `id` was followed to its end.
    pub fn has_walked(&self, id: &str) -> bool {
        self.walked.binary_search_by(|w| w.as_str().cmp(id)).is_ok()
    }

    /// (walked through, in all) over the lessons of `menu`: only the lessons it lists
    /// count, whatever else progress keeps ([`Progress::decode`]).
    pub fn walked_of(&self, menu: &[Chapter]) -> (usize, usize) {
        let lessons = menu.iter().flat_map(|c| &c.lessons);
        let walked = lessons.clone().filter(|l| self.has_walked(l.id)).count();
        (walked, lessons.count())
    }

    /// (answered, right) for one question.
    pub fn score(&self, question: usize) -> (usize, usize) {
        let mine = self.answers.iter().filter(|a| a.0 as usize == question);
        (mine.clone().count(), mine.filter(|a| a.2).count())
    }

    /// `1|w:gc-pause,check-then-write|q:0.0.1,0.1.0` — short, human-readable, versioned.
    pub fn encode(&self) -> String {
        let answers: Vec<String> = self
            .answers
            .iter()
            .map(|(q, s, r)| format!("{q}.{s}.{}", u8::from(*r)))
            .collect();
        format!(
            "{}|w:{}|q:{}",
            Self::VERSION,
            self.walked.join(","),
            answers.join(",")
        )
    }

    /// Reads what [`encode`](Self::encode) wrote. Stored data is not trusted: anything
    /// malformed (another version, a hand edit) is dropped rather than refused, so a bad
    /// entry costs that entry and never the page. A well-formed entry is kept even when
    /// this page does not know its lesson or question: the first load carries the default
    /// page's lesson alone, and a learner who finishes it there must not lose the others
    /// when the page writes their progress back. What the page shows counts only the
    /// lessons and questions it lists.
    pub fn decode(s: &str) -> Progress {
        let mut p = Progress::default();
        let mut parts = s.split('|');
        if parts.next() != Some(Self::VERSION) {
            return p;
        }
        for part in parts {
            if let Some(list) = part.strip_prefix("w:") {
                for name in list.split(',').filter(|n| is_slug(n, 80)) {
                    p.walk(name);
                }
            } else if let Some(list) = part.strip_prefix("q:") {
                for item in list.split(',') {
                    let mut f = item.split('.').map(|x| x.parse::<u8>().ok());
                    if let (Some(Some(q)), Some(Some(st)), Some(Some(r)), None) =
                        (f.next(), f.next(), f.next(), f.next())
                    {
                        if r <= 1 {
                            p.answer(usize::from(q), usize::from(st), r == 1);
                        }
                    }
                }
            }
        }
        p
    }
}

/// [`Catalog::variant_label`] of the whole course.
pub fn variant_label(name: &str) -> String {
    Complete::variant_label(name)
}

/// [`Catalog::variants`] of the whole course.
pub fn variants(name: &str) -> Vec<String> {
    Complete::variants(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mistyped name is offered the one it was nearest, a fix's shortened name its fix;
    /// a name far from every built-in, or longer than any, is offered none; and each
    /// offered name opens.
    #[test]
    fn a_mistyped_name_is_offered_the_nearest() {
        for (typed, meant) in [
            ("slow-client-clocks", "slow-client-clock"),
            ("gcpause", "gc-pause"),
            ("gc-puase", "gc-pause"),
            ("check-then-write/fence", "check-then-write/fencing"),
            ("redis-clock-jmp", "redis-clock-jump"),
        ] {
            assert_eq!(nearest(typed).as_deref(), Some(meant), "{typed}");
            assert!(open(meant).is_some(), "{meant}");
        }
        for far in ["nope", "x", "raft-election", &"gc-pause".repeat(10)] {
            assert_eq!(nearest(far), None, "{far}");
        }
        assert_eq!(
            Complete::unknown("gcpause", "gcpause"),
            "no scenario named \"gcpause\"; did you mean \"gc-pause\"?"
        );
        assert_eq!(
            Complete::unknown("nope", "nope"),
            "no scenario named \"nope\""
        );
        for name in Complete::names() {
            assert!(open(&name).is_some() && name.len() <= 64, "{name}");
        }
    }
    use crate::model::sim::{simulate, Kit, Pauses};

    /// The first load's catalog opens the default lesson and its fix as the whole course
    /// does, with the same walkthrough, sources and fix; a run the kit it plays with
    /// carries; and nothing else, which its page hands to the whole app.
    #[test]
    fn the_first_loads_catalog_is_the_default_lesson_of_the_whole_course() {
        for name in ["gc-pause", "gc-pause-fenced"] {
            let small = FirstLoad::open(name).unwrap();
            assert_eq!(Some(&small), Complete::open(name).as_ref(), "{name}");
            assert!(Pauses::carries(&small), "{name}");
            assert_eq!(FirstLoad::sources(name), Complete::sources(name), "{name}");
            assert_eq!(FirstLoad::fix_of(name), Complete::fix_of(name), "{name}");
            assert_eq!(
                FirstLoad::walkthrough(name).map(|w| w.scenario),
                Complete::walkthrough(name).map(|w| w.scenario),
                "{name}"
            );
        }
        assert_eq!(FirstLoad::fixes("gc-pause"), Complete::fixes("gc-pause"));
        for name in [
            "clean",
            "check-then-write",
            "check-then-write/fencing",
            "redis-failover",
        ] {
            assert!(Complete::open(name).is_some(), "{name}");
            assert_eq!(FirstLoad::open(name), None, "{name}");
        }
        assert_eq!(FirstLoad::quiz(0), None);
        assert!(Complete::quiz(0).is_some());
        // Its page reads each beat as the run reaches it, with no deferred task to read
        // ahead (`ui::guide::use_beats_prepared`): none quotes the tail's thousand runs.
        for name in ["gc-pause", "gc-pause-fenced"] {
            let beats = FirstLoad::walkthrough(name).map_or(&[][..], |w| w.beats);
            assert!(beats.iter().all(|b| !b.text.contains("{tail_")), "{name}");
        }
    }

    #[test]
    fn the_beat_count_counts_the_beats_this_run_has() {
        // Beat 1's event is gone after an edit; beats 0 and 2 happen at entries 4 and 9.
        let located = [Some(4), None, Some(9)];
        assert_eq!(beat_count(&located, 0), "2 beats");
        assert_eq!(beat_count(&located, 5), "beat 1 of 2");
        assert_eq!(beat_count(&located, 10), "beat 2 of 2");
    }

    fn trace(name: &str) -> Trace {
        simulate(&open(name).unwrap()).unwrap()
    }

    #[test]
    fn the_menu_holds_every_lesson_once_in_its_chapter() {
        let menu = menu();
        assert_eq!(menu.len(), 7);
        let ids: Vec<&str> = menu
            .iter()
            .flat_map(|c| c.lessons.iter().map(|l| l.id))
            .collect();
        assert_eq!(ids.len(), LESSONS.len() + FLAVOR_PRESETS.len() + 1);
        assert_eq!(ids[0], "gc-pause");
        for l in Complete::lessons() {
            assert_eq!(ids.iter().filter(|&&i| i == l.id).count(), 1, "{}", l.id);
        }
        for c in &menu {
            assert!(!c.lessons.is_empty(), "{} is empty", c.title);
            for l in &c.lessons {
                assert!(!l.title.is_empty(), "{} has no title", l.id);
                // The sources' failure modes are narrated beat by beat; a lock service's
                // preset is explained by its service's explainer instead.
                let narrated = walkthrough(l.id).is_some();
                assert!(narrated != service_of(l.id).is_some(), "{}", l.id);
                // (A service preset may show a mechanism working, with nothing to fix.)
                assert!(!narrated || !l.fixes.is_empty(), "{} has no fix", l.id);
                for f in &l.fixes {
                    assert!(open(&f.scenario).is_some(), "{} does not open", f.scenario);
                    assert_eq!(lesson_of(&f.scenario), l.id);
                    assert_eq!(fix_of(&f.scenario).as_ref(), Some(f));
                }
            }
        }
    }

    /// Every lesson and preset credits its sources, and a fix its lesson's.
    #[test]
    fn every_lesson_and_preset_names_its_sources() {
        for p in crate::teach::presets::PRESETS {
            assert!(!sources(p.name).is_empty(), "{}", p.name);
        }
        for l in menu().iter().flat_map(|c| c.lessons.iter()) {
            let s = sources(l.id);
            assert!(!s.is_empty(), "{} names no source", l.id);
            assert!(s.iter().all(|x| x.len() > 8 && x.contains(' ')), "{s:?}");
            for f in &l.fixes {
                assert_eq!(sources(&f.scenario), s, "{}", f.scenario);
            }
        }
        assert!(sources("custom").is_empty());
        assert_eq!(
            sources("gc-pause-fenced")[0],
            crate::teach::library::KLEPPMANN
        );
    }

    /// A fix is shown by a title in plain words, never by its slug.
    #[test]
    fn every_fix_has_a_plain_title_not_a_slug() {
        for l in menu().iter().flat_map(|c| c.lessons.iter()) {
            for f in &l.fixes {
                let t = f.title;
                assert!(t.len() > 8, "{}: title {t:?} is too short", f.scenario);
                assert!(
                    !t.contains('-'),
                    "{}: title {t:?} looks like a slug",
                    f.scenario
                );
                assert!(t.contains(' '), "{}: title {t:?} is one word", f.scenario);
                assert!(
                    t.as_bytes()[0].is_ascii_uppercase(),
                    "{}: {t:?}",
                    f.scenario
                );
                let word = f.standing.word();
                assert_eq!(variant_label(&f.scenario), format!("{word}: {t}"));
            }
        }
        assert_eq!(
            variant_label("ttl-shorter-than-work/abort-on-loss"),
            "narrows: Stop when the lock is lost"
        );
        assert_eq!(
            variant_label("partition-duplicate-effects/fencing-and-key"),
            "fix: Fencing plus an idempotency key"
        );
        assert_eq!(variant_label("gc-pause"), "the lesson's run, without a fix");
    }

    #[test]
    fn beats_follow_the_cursor_both_ways() {
        let located = [Some(3), None, Some(10), Some(20)];
        assert_eq!(beat_at(&located, 0), None);
        assert_eq!(beat_at(&located, 4), Some(0));
        assert_eq!(beat_at(&located, 11), Some(2));
        assert_eq!(beat_at(&located, 100), Some(3));
        assert_eq!(next_beat_step(&located, 0), Some(4));
        assert_eq!(next_beat_step(&located, 4), Some(11));
        assert_eq!(next_beat_step(&located, 21), None);
        assert_eq!(prev_beat_step(&located, 21), 11);
        assert_eq!(prev_beat_step(&located, 11), 4);
        assert_eq!(prev_beat_step(&located, 4), 0);
        // Walking Next from the start visits every located beat, in order.
        let w = walkthrough("gc-pause").unwrap();
        let t = trace("gc-pause");
        let located = w.locate(&t);
        let (mut step, mut seen) = (0, vec![]);
        while let Some(s) = next_beat_step(&located, step) {
            step = s;
            seen.push(beat_at(&located, step).unwrap());
        }
        assert_eq!(seen, (0..w.beats.len()).collect::<Vec<_>>());
        let mut back = vec![];
        while step > 0 {
            step = prev_beat_step(&located, step);
            back.push(beat_at(&located, step));
        }
        assert_eq!(back.last(), Some(&None));
        assert_eq!(back.len(), w.beats.len());
    }

    #[test]
    fn the_quiz_holds_until_a_choice_then_reveals_what_the_model_did() {
        let sc = open("gc-pause").unwrap();
        let t = trace("gc-pause");
        let mut q = Quiz::new(0).unwrap();
        let h = q.hold(&sc, &t).expect("the first stop comes");
        // Playing towards the stop stops at it, with the event not yet applied.
        assert_eq!(clamp_to_hold(&q, &sc, &t, 0, h + 50), (h, false));
        // Without a choice, playing on stays put.
        assert_eq!(clamp_to_hold(&q, &sc, &t, h, h + 1), (h, false));
        q.picked = Some(1);
        assert_eq!(q.right(&sc, &t), Some(false));
        assert_eq!(clamp_to_hold(&q, &sc, &t, h, h + 1), (h + 1, true));
        q.revealed = true;
        assert_eq!(q.hold(&sc, &t), None);
        q.advance();
        let h2 = q.hold(&sc, &t).expect("the second stop comes");
        assert!(h2 > h);
        q.picked = Some(0);
        assert_eq!(
            q.right(&sc, &t),
            Some(true),
            "unfenced storage accepts token 33"
        );
        q.advance();
        assert!(q.ask(&sc, &t).is_none());
        assert!(Quiz::new(QUESTIONS.len()).is_none());
    }

    #[test]
    fn an_authors_questions_hold_and_grade_from_the_run_they_came_with() {
        use crate::model::scenario::{AuthoredChoice, AuthoredQuestion, Outcome};
        let choice = |text: &str, outcome| AuthoredChoice {
            text: text.into(),
            outcome,
        };
        let mut sc = open("gc-pause").unwrap();
        assert_eq!(
            Quiz::<Complete>::of_author(&sc),
            None,
            "no questions, no quiz"
        );
        sc.questions = vec![
            AuthoredQuestion {
                at_ms: 0,
                prompt: "Which comes first?".into(),
                choices: vec![
                    choice("A lease runs out", Outcome::LeaseExpired),
                    choice("A write lands", Outcome::WriteAccepted),
                ],
                explain: String::new(),
            },
            AuthoredQuestion {
                at_ms: 0,
                prompt: "Is a write ever refused?".into(),
                choices: vec![
                    choice("Yes", Outcome::WriteRefused),
                    choice("It gives up", Outcome::JobAborted),
                ],
                explain: String::new(),
            },
        ];
        let t = crate::model::sim::simulate(&sc).unwrap();
        let mut q = Quiz::<Complete>::of_author(&sc).unwrap();
        assert_eq!((q.stops(&sc), q.scenario()), (2, None));
        assert!(q.hides_answer(&sc));
        let ask = q.ask(&sc, &t).unwrap();
        let h = q.hold(&sc, &t).expect("the run reaches one of them");
        let happened = crate::model::trace::json::kind(&t.entries[h].event);
        let right = if happened == "lease_expired" { 0 } else { 1 };
        assert_eq!(ask.answer, Some(right), "{happened}");
        q.picked = Some(right);
        assert_eq!(q.right(&sc, &t), Some(true));
        assert_eq!(clamp_to_hold(&q, &sc, &t, h, h + 1), (h + 1, true));
        q.revealed = true;
        assert!(!q.hides_answer(&sc));
        // Unfenced, nothing is refused and nobody gives up: nothing to grade.
        q.advance();
        assert_eq!(q.hold(&sc, &t), None);
        q.picked = Some(0);
        assert_eq!(q.right(&sc, &t), None);
        q.advance();
        assert!(q.ask(&sc, &t).is_none() && !q.hides_answer(&sc));
    }

    #[test]
    fn progress_round_trips_and_survives_garbage() {
        let mut p = Progress::default();
        assert!(p.walk("gc-pause"));
        assert!(!p.walk("gc-pause"));
        p.walk("check-then-write");
        p.answer(0, 1, false);
        p.answer(0, 0, true);
        p.answer(0, 1, true);
        assert_eq!(p.encode(), "1|w:check-then-write,gc-pause|q:0.0.1,0.1.1");
        assert_eq!(Progress::decode(&p.encode()), p);
        assert_eq!(p.score(0), (2, 2));
        assert_eq!(p.score(1), (0, 0));
        for junk in [
            "",
            "2|w:gc-pause",
            "1|w:Nope!,,|q:300.0.1,0.300.1,0.0.2,x.y.z,0.0,0.0.1.1",
            "1|||",
            "\u{0}|q:",
        ] {
            assert_eq!(Progress::decode(junk), Progress::default(), "{junk:?}");
        }
        // Well-formed entries are kept whether or not this build lists their lesson or
        // question (the first load lists the default page's alone); malformed ones are
        // dropped, each on its own.
        let mixed = Progress::decode("1|w:some-later-lesson,gc-pause,a b|q:0.0.1,7.0.1,0.1.5|zz:1");
        assert_eq!(
            mixed.walked,
            vec!["gc-pause".to_string(), "some-later-lesson".to_string()]
        );
        assert_eq!(mixed.answers, vec![(0, 0, true), (7, 0, true)]);
    }

    #[test]
    fn only_the_lessons_the_menu_lists_count_as_walked() {
        let p = Progress::decode("1|w:check-then-write,some-removed-lesson,gc-pause");
        let menu = menu();
        let total = menu.iter().map(|c| c.lessons.len()).sum::<usize>();
        assert_eq!(p.walked_of(&menu), (2, total));
        assert!(p.has_walked("gc-pause") && !p.has_walked("slow-client-clock"));
        assert_eq!(Progress::default().walked_of(&menu), (0, total));
    }

    #[test]
    fn variants_are_the_lesson_and_its_fixes() {
        assert_eq!(variants("gc-pause"), vec!["gc-pause-fenced".to_string()]);
        assert_eq!(variants("gc-pause-fenced"), vec!["gc-pause".to_string()]);
        let v = variants("partition-duplicate-effects");
        assert!(v.contains(&"partition-duplicate-effects/stop-on-loss".to_string()));
        assert!(!v.contains(&"partition-duplicate-effects".to_string()));
        assert!(variants("custom").is_empty());
    }
}
