//! The bundle's floor: what Leaseline would weigh with Yew and the web-free core but no views.
//!
//! The app's size budget is argued about in issues #4 and #7. This crate answers "how small
//! could the page be if every view cost nothing?": one Yew component that mounts, and one
//! function that drives the core the way the page does — open a lesson, decode a link,
//! simulate, check, project, lay out, narrate, export, answer the embed protocol, compare,
//! edit a draft, run the page's session — so the linker keeps exactly the core code and text the app ships.
//! `scripts/size.sh` builds it like Trunk builds the app (wasm-bindgen, then wasm-opt -Oz)
//! and prints its gzip size beside the real bundle's.
//!
//! Anything this misses only makes the floor lower, so the figure is a lower bound.

use leaseline::analysis::{check, compare, projection};
use leaseline::model::{scenario::Scenario, sim};
use leaseline::session::{draft, edit, embed, share, Action};
use leaseline::teach::{course, narrate};
use leaseline::view::{export, layout, playback};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// Runs the core once, on inputs the optimiser cannot see through (the page's own URL).
fn exercise(input: &str) -> String {
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
        out += &format!("{:?} {:?}", quiz.hold(&trace), quiz.right(&trace));
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
    out += session.fragment.as_deref().unwrap_or_default();
    out += &format!("{:?}", session.picker());
    out
}

#[wasm_bindgen]
extern "C" {
    /// The page's fragment: an input the optimiser cannot predict.
    #[wasm_bindgen(thread_local_v2, js_namespace = location, js_name = hash)]
    static HASH: String;
}

#[function_component]
fn Floor() -> Html {
    let input = HASH.with(String::clone);
    html! { <pre>{ exercise(&input) }</pre> }
}

#[wasm_bindgen(start)]
pub fn start() {
    yew::Renderer::<Floor>::new().render();
}
