//! The bundle's floor: what Leaseline would weigh with Yew and the web-free core but no views.
//!
//! A size budget is best argued with measured numbers. This crate answers "how small
//! could the page be if every view cost nothing?": one Yew component that mounts, and one
//! function that drives the core the way the page does — open a lesson, decode a link,
//! simulate, check, project, lay out, narrate, export, answer the embed protocol, compare,
//! edit a draft, run the page's session — so the linker keeps exactly the core code and text the app ships.
//! `scripts/size.sh` builds it like Trunk builds the app (wasm-bindgen, then wasm-opt -Oz)
//! and prints its gzip size beside the real bundle's.
//!
//! Anything this misses only makes the floor lower, so the figure is a lower bound.
//!
//! With the `first-load` feature it measures the first load's floor instead:
//! the core built as the first load builds it (`leaseline/lite`), driven only the way the
//! first load's page drives it — the default page's session and its actions, the diagram
//! laid out at a width, the stage, the caption, the walkthrough, the transcript, the link
//! and the embed protocol — with no views. Without the `yew` feature (on by default) the
//! same core is mounted with no Yew at all, so the two builds tell Yew's share apart from
//! the core's: what a first load that is not a Yew app could weigh at the least.

use wasm_bindgen::prelude::*;

/// The first load's allocator (`src/bin/lite.rs`), so its floor is built the way it is.
#[cfg(all(feature = "first-load", target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: one thread, as in the page.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[cfg(not(feature = "first-load"))]
mod whole {
    use leaseline::analysis::{check, compare, projection};
    use leaseline::model::{scenario::Scenario, sim};
    use leaseline::session::{draft, edit, embed, share, Action};
    use leaseline::teach::{course, narrate};
    use leaseline::view::{export, layout, playback};

    /// Runs the core once, on inputs the optimiser cannot see through (the page's own URL).
    pub fn exercise(input: &str) -> String {
        let view = share::decode(input).unwrap_or_default();
        let sc = Scenario::from_json(input)
            .ok()
            .or_else(|| course::open(input))
            .or_else(|| course::open(share::DEFAULT_SCENARIO))
            .unwrap_or_else(|| Scenario::from_json("{}").unwrap_or_else(|_| unreachable!()));
        let trace = sim::run(&sc);
        let verdict = check::check(&trace);
        let projection = projection::Projection::new(&trace);
        let step = input.len().min(trace.entries.len().saturating_sub(1));
        let state = projection.state_at(&trace, step);
        let diagram = layout::diagram(&trace, &verdict);
        let stage = layout::stage_nodes(&sc.nodes());
        let mut out = export::svg::standalone(&diagram, input);
        out += &export::svg::diagram_body(&diagram);
        out += &export::mermaid::sequence(&trace, &verdict);
        out += &export::trace_json(&trace);
        out += &narrate::sentence(&trace, &verdict, step, &state).unwrap_or_default();
        out += &narrate::ending(&verdict);
        out += &narrate::verdict_line(&verdict);
        out += &format!("{:?}", narrate::notable_steps(&trace));
        out += &format!("{:?}", playback::flights(&trace));
        out += &format!(
            "{} {}",
            layout::stage_links(&stage, &state).len(),
            layout::packets(&stage, &trace, &state, step as f64).len()
        );
        out += &share::encode(&view);
        out += &sc.to_json_pretty();
        if let Ok(command) = embed::parse(input) {
            out += &format!("{command:?}");
        }
        for event in embed::cursor_events(&trace, &verdict, input, None, step, step as i64) {
            out += &embed::encode(&event);
        }
        let other = sim::run(&compare::fence_flipped(&sc));
        out += &format!("{:?}", compare::first_divergence(&trace, &other));
        out += &course::variants(input).join(",");
        for chapter in course::menu() {
            out += &format!("{}", chapter.lessons.len());
        }
        if let Some(w) = course::walkthrough(input) {
            out += &format!("{:?}", w.locate(&trace));
        }
        if let Some(mut quiz) = course::Quiz::new(step) {
            out += &format!("{:?} {:?}", quiz.hold(&sc, &trace), quiz.right(&sc, &trace));
            quiz.advance();
        }
        let mut progress = course::Progress::decode(input);
        progress.walk(input);
        out += &progress.encode();
        let mut d = draft::Draft::from_scenario(&sc);
        if let Err(e) = d.set_int("seed", input, false) {
            out += &e;
        }
        out += &d.text();
        let mut history = edit::History::new(sc);
        let _ = history.edit(&edit::Edit::SetFlavor(Default::default()));
        history.undo();
        // The page's session is core too: the reducer, the link both ways, the picker.
        let mut session = std::rc::Rc::new(leaseline::session::Session::default_page());
        for a in [
            Action::Navigate(input.to_string()),
            Action::TogglePlay,
            Action::Tick(step as f64),
            Action::StepForward,
            Action::Compare(Some(String::new())),
            Action::Import(input.to_string()),
            Action::StartQuiz(step),
        ] {
            session = session.reduce(a);
        }
        out += session.nav.fragment.as_deref().unwrap_or_default();
        out += &format!("{:?}", session.picker());
        out
    }
}
#[cfg(not(feature = "first-load"))]
use whole::exercise;

/// The first load's share of the core, driven as its page drives it.
#[cfg(feature = "first-load")]
fn exercise(input: &str) -> String {
    use leaseline::session::edit::{actions_for, Target};
    use leaseline::session::carries::{PageDetail, PageKit};
    use leaseline::session::{embed, share, Action, Session};
    use leaseline::teach::{course, narrate, quiz};
    use leaseline::view::{export, layout};
    use leaseline::vocab::ids::NodeId;
    use std::rc::Rc;

    let n = input.len();
    let x = n as f64;
    let node = NodeId::Client((n % 2) as u8);
    let mut s = Rc::new(Session::default_page());
    let mut out = String::new();
    for a in [
        Action::Navigate(input.to_string()),
        Action::TogglePlay,
        Action::Tick(x),
        Action::StepForward,
        Action::StepBack,
        Action::NextNotable,
        Action::PrevNotable,
        Action::ToStart,
        Action::ToEnd,
        Action::NextViolation,
        Action::Seek(x),
        Action::SeekEntry(n),
        Action::Faster,
        Action::Slower,
        Action::ToggleFence,
        Action::Select(Some(Target::Node(node))),
        Action::NextBeat,
        Action::PrevBeat,
        Action::StartQuiz(n),
        Action::Pick(n),
        Action::QuizNext,
        Action::Open(input.to_string()),
        Action::Upgrade(leaseline::session::Panel::named(input)),
        Action::Pause,
    ] {
        s = s.reduce(a);
    }
    // The stage's menu offers edits, and the first load applies them.
    let menu = actions_for(Target::Node(node), &s.play.state, n as i64);
    out += &menu.title;
    for (label, edit) in menu.items {
        out += &label;
        s = s.reduce(Action::Edit(edit));
    }
    s = s.reduce(Action::Undo).reduce(Action::Redo);
    let run = &s.doc.run;
    // The timeline: the diagram laid out at the box's width, its axis and its body.
    let width = layout::fitted_width::<PageDetail>(x);
    // (In the detail the page draws in, `session::carries`.)
    let (i, t, v, h) = (&run.index, &run.trace, &run.verdict, layout::LANE_H);
    let d = layout::layout_rows::<PageDetail>(i, t, v, width, h, None);
    out += &export::svg::diagram_body_in_play(&d);
    let scale = layout::scale_of(run.trace.end.0, width, None);
    for t in layout::ticks_with::<PageDetail>(&scale) {
        out += &t.label;
    }
    // The stage, the panels, the caption, the transcript.
    out += &format!(
        "{} {}",
        layout::stage_links_with::<PageDetail>(&run.stage, &s.play.state).len(),
        layout::packets(&run.stage, &run.trace, &s.play.state, x).len()
    );
    let step = s.play.cursor.step;
    let (t, v) = (&run.trace, &run.verdict);
    out += &narrate::sentence_with::<PageKit>(t, v, step, &s.play.state).unwrap_or_default();
    out += &narrate::ending(&run.verdict);
    out += &narrate::verdict_line(&run.verdict);
    out += &narrate::verdict_so_far(&run.verdict, step, n == 0).1;
    for line in narrate::transcript_with::<PageKit>(t, v, &run.projection) {
        out += &line.text;
    }
    out += &s.play.caption;
    // The walkthrough: the beat at the cursor, its facts filled in.
    if let Some(w) = course::walkthrough(input) {
        let facts = run.facts();
        for (b, at) in w.locate(&run.trace).into_iter().enumerate() {
            out += &at.and_then(|at| w.text(b, at, &facts)).unwrap_or_default();
        }
        out += &w.try_it_text(&facts).unwrap_or_default();
    }
    if let Some(q) = quiz::QUESTIONS.get(n) {
        out += q.asks;
        out += q.model_answer;
    }
    out += &format!("{:?} {:?}", s.teach.beats, s.picker());
    // The address bar and an embed's host page.
    out += s.nav.fragment.as_deref().unwrap_or_default();
    out += &share::encode(&share::ViewState::default());
    if let Ok(command) = embed::parse(input) {
        out += &format!("{command:?}");
    }
    for event in embed::cursor_events(&run.trace, &run.verdict, input, None, step, n as i64) {
        out += &embed::encode(&event);
    }
    out
}

#[wasm_bindgen]
extern "C" {
    /// The page's fragment: an input the optimiser cannot predict.
    #[wasm_bindgen(thread_local_v2, js_namespace = location, js_name = hash)]
    static HASH: String;
}

#[cfg(feature = "yew")]
#[yew::function_component]
fn Floor() -> yew::Html {
    let input = HASH.with(String::clone);
    yew::html! { <pre>{ exercise(&input) }</pre> }
}

#[cfg(feature = "yew")]
#[wasm_bindgen(start)]
pub fn start() {
    yew::Renderer::<Floor>::new().render();
}

#[cfg(not(feature = "yew"))]
#[wasm_bindgen]
extern "C" {
    /// Where the output goes when there is no Yew: the page's title, as good as any.
    #[wasm_bindgen(js_namespace = document, js_name = title, setter)]
    fn set_title(s: &str);
}

#[cfg(not(feature = "yew"))]
#[wasm_bindgen(start)]
pub fn start() {
    set_title(&HASH.with(|h| exercise(h)));
}
