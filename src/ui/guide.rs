//! The guide beside the diagram: the walkthrough's beat at the cursor (Back / Next), the
//! fix a variant applies, or an interview question's predict-then-reveal stop.
//!
//! Everything shown is read from the core: the beat comes from where the cursor stands
//! among the beats' events (`course::beat_at`), its numbers from the run
//! (`Walkthrough::text`), the right answer from what the model did (`Stop::answer`), never
//! from a stored script.

use super::css;
use super::on;
use crate::session::carries::PageCourse;
use crate::session::link;
use crate::session::{Action, Run, Session};
use crate::teach::course::Catalog;
use crate::teach::course::Quiz;
use crate::teach::course::{self, FixRef};
use crate::teach::holds::Standing;
use yew::prelude::*;

/// What the guide draws: the page's scenario name, where its beats landed, the cursor's
/// step, whether it is embedded, and the quiz with its hold.
pub struct GuideData<'a> {
    pub name: &'a str,
    pub beats: &'a [Option<usize>],
    pub step: usize,
    /// The cursor is at the start of what may be played (the run's, or a link's span).
    pub at_start: bool,
    pub embed: bool,
    pub quiz: Option<Quiz<PageCourse>>,
    /// The cursor waits at the quiz stop for the learner's answer.
    pub waiting: bool,
    /// The run on screen is an edit of the scenario the walkthrough was written for.
    pub edited: bool,
    pub playing: bool,
    pub run: &'a Run,
}

/// A button per fix; with `explore`, each followed by "does the fix hold?", which opens the
/// fix and searches it (a timing fix breaks under a longer pause, a fence holds: the search
/// shows which, rather than the page asserting it).
fn fix_buttons(fixes: &[FixRef], cb: &Callback<Action>, explore: bool) -> Html {
    html! {
        <div class="guide-actions">
            { for fixes.iter().map(|f| html! {
                <>
                    <button type="button" class="action" title={f.summary} onclick={on(cb, Action::Open(f.scenario.clone()))}>
                        { course::open_label(f) }
                    </button>
                    if explore {
                        // The fix's title in its name: a lesson may offer several.
                        <button type="button" class="control text" aria-label={format!("Explore: does the fix hold? ({})", f.title)} onclick={on(cb, Action::ExploreFix(f.scenario.clone()))}>
                            { "Explore: does the fix hold?" }
                        </button>
                    }
                </>
            }) }
        </div>
    }
}

/// Where the lesson's argument comes from, credited where the learner reads it.
fn sources(name: &str) -> Html {
    let line = PageCourse::sources_line(name);
    if line.is_empty() {
        return html! {};
    }
    html! { <p class="sources">{ line }</p> }
}

fn walkthrough(m: &GuideData, cb: &Callback<Action>) -> Html {
    // An author's own walkthrough (carried in the scenario) is told as it was written,
    // with no fixes or sources of ours below it; else the built-in lesson's.
    let authored = &m.run.scenario.walkthrough;
    let w = PageCourse::walkthrough(m.name).filter(|_| authored.is_empty());
    if w.is_none() && authored.is_empty() {
        return html! {};
    }
    let beat = course::beat_at(m.beats, m.step);
    let at_end = beat.is_some() && course::next_beat_step(m.beats, m.step).is_none();
    let onkeydown = {
        let cb = cb.clone();
        // → and ← move between beats while the walkthrough has focus (and do not also
        // step the timeline: the global shortcut never sees the key).
        Callback::from(move |e: KeyboardEvent| {
            let a = match e.key().as_str() {
                "ArrowRight" => Action::NextBeat,
                "ArrowLeft" => Action::PrevBeat,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            cb.emit(a);
        })
    };
    // The beat's numbers are read from this run (`Walkthrough::place` kept only the beats
    // whose facts it has).
    let facts = m.run.facts();
    let text = beat
        .and_then(|b| match w {
            Some(w) => w.text(b, m.beats[b]?, &facts),
            None => authored.get(b).map(|a| a.text.clone()),
        })
        .unwrap_or_else(|| crate::teach::walkthrough::INTRO.to_string());
    let try_it = w.and_then(|w| at_end.then(|| w.try_it_text(&facts)).flatten());
    html! {
        <section class="guide panel" aria-label="Walkthrough" tabindex="0" {onkeydown}>
            <header class="guide-head">
                <h2>{ "Walkthrough" }</h2>
                <span class="beat-count">{ course::beat_count(m.beats, m.step) }</span>
                // (Not inside an embed: following it would leave the host's page state.)
                if let (Some(b), false, Some(_)) = (beat, m.embed, w) {
                    <a class="beat-link" href={link::scenario(m.name, Some(b))} title="A link to this beat">{ "Link" }</a>
                }
            </header>
            if m.edited {
                // The beats follow this run's events, but their words were written for the
                // original: say so rather than let them claim what this run may not do.
                <p class="hint edited-note">{ "You have edited this scenario: these beats tell the original run, and may no longer match this one. Undo goes back to it." }</p>
            }
            <p class="beat" aria-live="polite">{ text }</p>
            <div class="guide-actions">
                <button type="button" class="control text" disabled={m.at_start} onclick={on(cb, Action::PrevBeat)} title="Previous beat (←)">{ "Back" }</button>
                <button type="button" class="control text" disabled={at_end} onclick={on(cb, Action::NextBeat)} title="Next beat (→)">{ "Next" }</button>
            </div>
            if at_end {
                // (Not inside an embed: the frame has no stage or settings to break it with;
                // not after an edit, which may already have broken or fixed it.)
                if let (Some(t), false) = (try_it, m.embed || m.edited) {
                    <p class="try-it"><strong>{ "Break it yourself: " }</strong>{ t }</p>
                }
                // Only the fixes this run does not already have: no "Fix it: fencing" while
                // fencing is on.
                // (Not inside an embed: it has no Explore panel.)
                if w.is_some() {
                    { fix_buttons(&PageCourse::fixes_to_offer(course::lesson_of(m.name), &m.run.scenario), cb, !m.embed) }
                }
            }
            { ask_author(m, cb) }
            if w.is_some() {
                { sources(m.name) }
            }
        </section>
    }
}

fn fix_note(m: &GuideData, cb: &Callback<Action>) -> Html {
    let Some(f) = PageCourse::fix_of(m.name) else {
        return html! {};
    };
    let lesson = course::lesson_of(m.name).to_string();
    html! {
        <section class="guide panel" aria-label="Fix">
            <h2>{ format!("{}: {}", f.standing.heading(), f.title) }</h2>
            <p class="beat">{ course::fix_note(&f) }</p>
            <div class="guide-actions">
                <button type="button" class="control text" onclick={on(cb, Action::Open(lesson))}>{ "Back to the lesson's run" }</button>
                // The sources' argument, shown by search: a fence holds for every pause, a
                // timing fix only for the pauses it was sized for.
                <button type="button" class="control text" onclick={on(cb, Action::ExploreHere)}>{ explore_label(f.standing) }</button>
            </div>
            { sources(m.name) }
        </section>
    }
}

/// What the search of the run on screen is asked: a change that only narrows the window
/// is searched for the smallest way it still breaks (the search finds it; nothing here
/// names it).
fn explore_label(standing: Standing) -> &'static str {
    match standing {
        Standing::Narrows(_) => "Explore: show the smallest way it still breaks",
        _ => "Explore: does this fix hold?",
    }
}

/// Reads the walkthrough's beats once the page has drawn a run (`Session::prepare_beats`),
/// in a task of its own: a beat that quotes the tail's share waits on a thousand runs
/// (10 ms natively here, several times that in a phone's browser), which would
/// otherwise hold up the page's drawing of the run, or stall the animation when the run
/// reaches that beat.
#[cfg(not(feature = "lite"))]
#[hook]
pub fn use_beats_prepared(model: &UseReducerHandle<Session>) {
    let m = model.clone();
    // The beats are placed with the run (`Session::rerun`): a new run, new beats.
    use_effect_with(model.doc.run.clone(), move |_| {
        let later = gloo_timers::callback::Timeout::new(0, move || m.prepare_beats());
        // A run replaced before the task ran needs it no longer.
        move || drop(later)
    });
}

/// The first load's one lesson quotes nothing slow to read, and a deferred task costs
/// its wasm 1.5 KB gzip: its beats are read as they are reached. (A hook in every build,
/// since Yew's component macro cannot take a hook call under `cfg`.)
#[cfg(feature = "lite")]
#[hook]
pub fn use_beats_prepared(_model: &UseReducerHandle<Session>) {}

/// Brings the interview question into view when the run stops at it: on a phone the guide
/// sits below the diagram, out of sight, and the run would seem to have stalled with
/// nothing to answer. `nearest` moves the page no more than it must (not at all on a
/// desktop, where the question is already in view).
///
/// An embed's frame never scrolls; a short one scrolls the question's own box instead
/// (tools.css), and where that box was left is an accident of what it showed before. So
/// the box is scrolled to the stop's first given where the givens, the question and the
/// first line of the first choice fit, else to the question: what is asked, and the
/// start of what to answer, are in view, never a choice's tail or the hint alone. Once
/// the answer is revealed, it opens at the answer's first line. The host's page is not
/// moved.
#[cfg(not(feature = "lite"))]
#[hook]
pub fn use_question_in_view(model: &UseReducerHandle<Session>) {
    let waiting = model.quiz_waiting();
    let revealed = model.teach.quiz.is_some_and(|q| q.revealed);
    use_effect_with((waiting, revealed), |&(waiting, revealed)| {
        if !waiting && !revealed {
            return;
        }
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(el) = doc.query_selector("section.quiz").ok().flatten() else {
            return;
        };
        if el.closest(".embed").ok().flatten().is_none() {
            if waiting {
                let options = web_sys::ScrollIntoViewOptions::new();
                options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                el.scroll_into_view_with_scroll_into_view_options(&options);
            }
            return;
        }
        // Where a part of the box starts, in the box's scrolled content.
        let origin = el.get_bounding_client_rect().top() - f64::from(el.scroll_top());
        let top_of = |sel: &str| {
            let part = el.query_selector(sel).ok().flatten()?;
            Some(part.get_bounding_client_rect().top() - origin)
        };
        let top = if waiting {
            let (Some(question), Some(choice)) = (top_of(".stop-question"), top_of(".choice"))
            else {
                return;
            };
            let first = top_of(".stop-given").unwrap_or(question);
            // One line of the choice: its padding and a line of text.
            let needed = choice + 28.0 - first;
            if needed <= f64::from(el.client_height()) {
                first
            } else {
                question
            }
        } else {
            let Some(answer) = top_of(".verdict-line") else {
                return;
            };
            answer
        };
        // A few pixels above, so the box's top edge does not touch the words.
        el.set_scroll_top((top - 4.0).max(0.0) as i32);
    });
}

/// The first load asks no question: nothing to bring into view. (A hook in every build,
/// since Yew's component macro cannot take a hook call under `cfg`.)
#[cfg(feature = "lite")]
#[hook]
pub fn use_question_in_view(_model: &UseReducerHandle<Session>) {}

#[cfg(not(feature = "lite"))]
fn quiz(m: &GuideData, cb: &Callback<Action>) -> Html {
    let Some(q) = m.quiz else { return html! {} };
    let (sc, trace) = (&m.run.scenario, &m.run.trace);
    let stops = q.stops(sc);
    let body = match q.ask(sc, trace) {
        Some(ask) if !q.revealed => {
            if m.waiting {
                html! {
                    <>
                        { for ask.givens.iter().map(|g| html! { <p class="stop-given">{ g.clone() }</p> }) }
                        <p class="stop-question">{ ask.question.to_string() }</p>
                        <div class="choices" role="group" aria-label="Your prediction">
                            { for ask.choices.iter().enumerate().map(|(i, c)| html! {
                                <button type="button" class="choice" aria-pressed={(q.picked == Some(i)).to_string()} onclick={on(cb, Action::Pick(i))}>{ c.to_string() }</button>
                            }) }
                        </div>
                        <p class="hint">{ if q.picked.is_some() { "Now press Play to see what the model does." } else { "Pick what you predict; then play on." } }</p>
                        if q.picked.is_some() {
                            <div class="guide-actions">
                                <button type="button" class="action" onclick={on(cb, Action::TogglePlay)}>{ "Play on" }</button>
                            </div>
                        }
                    </>
                }
            } else if ask.at.is_none() {
                // An author's question whose outcomes this run never reaches (after an
                // edit, say): there is nothing to predict, and the page says so rather
                // than play to the end waiting for it.
                html! {
                    <>
                        <p class="stop-question">{ ask.question.to_string() }</p>
                        <p class="hint" role="status">{ "This run reaches none of this question's choices, so it cannot be graded here." }</p>
                        <div class="guide-actions">
                            <button type="button" class="action" onclick={on(cb, Action::QuizNext)}>{ if q.stop + 1 < stops { "Next stop" } else { "Finish" } }</button>
                        </div>
                    </>
                }
            } else if m.playing {
                html! {
                    <>
                        <p class="hint" role="status">{ "Playing on to the question. The run stops just before the decisive moment." }</p>
                        <div class="guide-actions">
                            <button type="button" class="action" onclick={on(cb, Action::SkipToStop)}>{ "Skip to the stop" }</button>
                        </div>
                    </>
                }
            } else {
                html! {
                    <>
                        <p class="hint">{ crate::teach::narrate::QUIZ_HINT }</p>
                        <div class="guide-actions">
                            <button type="button" class="action" onclick={on(cb, Action::TogglePlay)}>{ "Play" }</button>
                            <button type="button" class="control text" onclick={on(cb, Action::SkipToStop)}>{ "Skip to the stop" }</button>
                        </div>
                    </>
                }
            }
        }
        Some(ask) => {
            let right = q.right(sc, trace);
            let happened = ask
                .answer
                .and_then(|i| ask.choices.get(i))
                .copied()
                .unwrap_or("");
            let next = match (q.stop + 1 < stops, q.author) {
                (true, _) => "Next stop",
                (false, false) => "Show the model answer",
                (false, true) => "Finish",
            };
            html! {
                <>
                    <p class={css(&["verdict-line", if right == Some(true) { "right" } else { "wrong" }])} role="status">
                        { match right { Some(true) => "Right.", Some(false) => "Not quite.", None => "" } }
                        { format!(" What this run did: {happened}.") }
                    </p>
                    if !ask.explain.is_empty() {
                        <p class="explain">{ ask.explain.to_string() }</p>
                    }
                    if m.playing {
                        <p class="hint">{ "Playing on to show what follows…" }</p>
                    } else {
                        <div class="guide-actions">
                            <button type="button" class="action" onclick={on(cb, Action::QuizNext)}>{ next }</button>
                        </div>
                    }
                </>
            }
        }
        None => match q.question() {
            Some(question) => html! {
                <>
                    <h3>{ "A model answer" }</h3>
                    <p class="explain">{ question.model_answer }</p>
                    <div class="guide-actions">
                        if q.question + 1 < PageCourse::QUESTIONS.len() {
                            <button type="button" class="action" onclick={on(cb, Action::StartQuiz(q.question + 1))}>{ "Next question" }</button>
                        }
                    </div>
                </>
            },
            None => html! {
                <>
                    <p class="explain" role="status">{ format!("You have answered all {stops} questions.") }</p>
                    <div class="guide-actions">
                        <button type="button" class="action" onclick={on(cb, Action::EndQuiz)}>{ "Back to the run" }</button>
                    </div>
                </>
            },
        },
    };
    let heading = match q.author {
        false => format!(
            "Interview question {} of {}",
            q.question + 1,
            PageCourse::QUESTIONS.len()
        ),
        true => "Questions".to_string(),
    };
    html! {
        <section class="guide panel quiz" aria-label={if q.author { "Questions" } else { "Interview question" }}>
            <header class="guide-head">
                <h2>{ heading }</h2>
                <span class="beat-count">{ format!("stop {} of {}", (q.stop + 1).min(stops), stops) }</span>
                <button type="button" class="quiet" onclick={on(cb, Action::EndQuiz)}>{ "Leave" }</button>
            </header>
            <p class="asks">{ q.asks(sc).to_string() }</p>
            { body }
        </section>
    }
}

/// A lock service's preset: what the service is, the fence it offers, and its remedies.
fn service_note(m: &GuideData, cb: &Callback<Action>) -> Html {
    let Some(f) = PageCourse::service_of(m.name) else {
        return html! {};
    };
    html! {
        <section class="guide panel" aria-label="Lock service">
            <h2>{ format!("Lock service: {}", f.name()) }</h2>
            <p class="beat">{ m.run.scenario.description.clone() }</p>
            <p class="hint">{ format!("Fence it offers: {}.", f.fence_offered()) }</p>
            { fix_buttons(&PageCourse::fixes_to_offer(m.name, &m.run.scenario), cb, false) }
            { sources(m.name) }
        </section>
    }
}

/// The button that asks the questions an author wrote into the scenario on screen, if it
/// carries any.
#[cfg(not(feature = "player"))]
fn ask_author(m: &GuideData, cb: &Callback<Action>) -> Html {
    let n = m.run.scenario.questions.len();
    if n == 0 {
        return html! {};
    }
    let label = if n == 1 {
        "Answer the question on this run".to_string()
    } else {
        format!("Answer the {n} questions on this run")
    };
    html! {
        <div class="guide-actions">
            <button type="button" class="action ask-author" onclick={on(cb, Action::AskAuthor)}>{ label }</button>
        </div>
    }
}

/// A player offers no author's question: it opens built-in scenarios only, which carry
/// none (see [`guide`]).
#[cfg(feature = "player")]
fn ask_author(_: &GuideData, _: &Callback<Action>) -> Html {
    html! {}
}

/// A scenario that carries an author's questions and no walkthrough: its description (in
/// an embed, which has no picker to show it) and the button that asks them.
#[cfg(not(feature = "player"))]
fn questions_offer(m: &GuideData, cb: &Callback<Action>) -> Html {
    let text = m.run.scenario.description.trim();
    html! {
        <section class="guide panel about" aria-label="Questions on this run">
            if m.embed && !text.is_empty() {
                <p class="beat">{ text.to_string() }</p>
            }
            { ask_author(m, cb) }
        </section>
    }
}

/// What an embedded scenario with no lesson of ours is about: its author's description
/// (the whole app shows it under the scenario picker, which an embed does not have).
fn about(m: &GuideData) -> Html {
    let text = m.run.scenario.description.trim();
    if !m.embed || text.is_empty() {
        return html! {};
    }
    html! {
        <section class="guide panel about" aria-label="About this run">
            <p class="beat">{ text.to_string() }</p>
        </section>
    }
}

/// The guide for the current page: the quiz wins over the walkthrough (an author's own
/// first, with a button for the author's questions), which wins over a fix's note, then a
/// lock service's note; a scenario with an author's questions and no walkthrough offers
/// them; an embedded scenario with none of these shows its description, and anything else
/// nothing.
pub fn guide(m: &GuideData, cb: &Callback<Action>) -> Html {
    // The first load asks no question, ours or an author's: starting one needs another
    // build (`session::resume`), so it leaves the quiz's views out.
    #[cfg(not(feature = "lite"))]
    if m.quiz.is_some() {
        return quiz(m, cb);
    }
    let told = PageCourse::walkthrough(m.name).is_some() || !m.run.scenario.walkthrough.is_empty();
    #[cfg(not(feature = "player"))]
    if !told && !m.run.scenario.questions.is_empty() {
        return questions_offer(m, cb);
    }
    if told {
        walkthrough(m, cb)
    } else if PageCourse::fix_of(m.name).is_some() {
        fix_note(m, cb)
    } else if PageCourse::service_of(m.name).is_some() {
        service_note(m, cb)
    } else {
        about(m)
    }
}
