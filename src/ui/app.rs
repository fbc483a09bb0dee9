//! The root component: the session ([`Session`], reduced in the core) and the page's parts. Leaves receive data
//! and emit [`Action`]s; nothing below this file holds state that matters.

#[cfg(not(feature = "player"))]
use super::editor::Editor;
use super::footer::footer;
use super::guide::{guide, GuideData};
use super::header::header;
use super::hooks::{
    use_deep_links, use_frames, use_narrow_stage, use_page_signals, use_progress_store,
    use_shortcuts,
};
use super::host::use_embed_host;
use super::host::use_link_writer;
#[cfg(not(feature = "player"))]
use super::io::Io;
#[cfg(not(feature = "player"))]
use super::lessons::Menus;
use super::on;
#[cfg(not(feature = "player"))]
use super::panels::panel_details;
use super::panels::{inspector, verdict_panel, PanelProps};
use super::playbar::{playbar, PlaybarProps};
#[cfg(not(feature = "player"))]
use super::settings::Settings;
use super::sharing::base;
#[cfg(not(feature = "lite"))]
use super::sharing::embed_bar;
#[cfg(not(feature = "player"))]
use super::sharing::share_dialog;
use super::stage::{stage, use_action_menu, StageProps};
use super::timeline::Timeline;
use super::transcript::Transcript;
#[cfg(not(feature = "player"))]
use super::versus::{compare_bar, second_diagram};
use super::{css, when};
#[cfg(not(feature = "player"))]
use crate::session::Panel;
use crate::session::{Action, Menu};
#[cfg(not(feature = "player"))]
use std::rc::Rc;
use yew::prelude::*;

/// The whole page.
#[component]
pub fn App() -> Html {
    // The address is read before the first render (see `Session::opened_at`).
    // (or, in the whole app after the first load handed over, the session it handed over).
    let model = use_reducer(super::handover::initial_session);
    let dispatch = {
        let d = model.dispatcher();
        use_memo((), move |_| {
            Callback::from(move |a: Action| {
                #[cfg(not(feature = "player"))]
                if matches!(a, Action::Zoom(_)) {
                    super::bench::redraw_asked();
                }
                d.dispatch(a)
            })
        })
    };
    let on_action: Callback<Action> = (*dispatch).clone();
    let on_frame = {
        let d = model.dispatcher();
        use_memo((), move |_| {
            Callback::from(move |ts: f64| d.dispatch(Action::Tick(ts)))
        })
    };
    use_frames(model.play.playing, (*on_frame).clone());
    use_shortcuts(on_action.clone());
    use_page_signals(on_action.clone());
    let narrow = use_narrow_stage();
    use_deep_links(on_action.clone());
    use_progress_store(model.teach.progress.encode(), on_action.clone());
    use_link_writer(
        model.nav.fragment.clone(),
        model.nav.rev,
        model.nav.from_link,
        model.embed.on,
        model.frame.zoom,
    );
    use_embed_host(&model, &on_action);
    use_action_menu(model.frame.selected);
    super::guide::use_question_in_view(&model);
    super::guide::use_beats_prepared(&model);
    let handover = super::handover::use_handover(&model, &on_action);
    super::recorded::use_recording_fetch(model.doc.wants_recording.clone(), on_action.clone());
    // The share links, rebuilt when the view's link changes (never per frame). A player
    // shares nothing (its Share button asks for the whole app), but an embed's bar links
    // to the run in the full page.
    let links = {
        let m = model.clone();
        use_memo(model.nav.fragment.clone(), move |_| {
            // (The first load is never embedded.)
            if cfg!(feature = "lite") || (cfg!(feature = "player") && !m.embed.on) {
                return (String::new(), String::new());
            }
            let (full, embed) = m.share_fragments();
            (format!("{}{full}", base()), format!("{}{embed}", base()))
        })
    };
    // B's diagram speaks of B's entries: one mapping, made once.
    let on_action_b = {
        let cb = on_action.clone();
        use_memo((), move |_| {
            cb.reform(|a| match a {
                Action::SeekEntry(i) => Action::SeekEntryB(i),
                a => a,
            })
        })
    };
    use_effect(super::bench::sample_frame_cost);
    // The diagram's box: in the page before the timeline's first render, which lays the
    // drawing out at its width from the start (`TimelineProps::frame`). A new one each
    // render, not a hook's: the timeline reads it at its first render only, and a second
    // `use_node_ref` caller costs the first load's wasm more than this does.
    let frame = NodeRef::default();
    // The list of what the reader last focused or clicked on the diagram (a fold of
    // labels, a mark drawn for several events), for the inspector (the first load, in the
    // plain detail, draws neither).
    #[cfg(not(feature = "lite"))]
    let list = use_state_eq(|| None::<std::rc::Rc<crate::view::layout::Listing>>);
    #[cfg(not(feature = "lite"))]
    let on_list = {
        let f = list.setter();
        Some((*use_memo((), move |_| Callback::from(move |x| f.set(x)))).clone())
    };
    #[cfg(feature = "lite")]
    let on_list: Option<Callback<Option<std::rc::Rc<crate::view::layout::Listing>>>> = None;

    let run = model.doc.run.clone();
    // The built-in scenario on screen; "" for one that came from outside.
    let name = model.doc.name.as_deref().unwrap_or_default();
    let picker = model.picker();
    #[cfg(not(feature = "player"))]
    let on_error = {
        let cb = on_action.clone();
        Callback::from(move |e: String| cb.emit(Action::ShowError(e)))
    };
    let on_preset = {
        let cb = on_action.clone();
        Callback::from(move |e: Event| cb.emit(Action::Open(super::value_of(&e))))
    };
    // While a quiz question waits for its answer, what would give it away is hidden: the
    // description, the whole-run transcript, the fence switch and "Next violation".
    let hides = model.hides_answer();
    let bar = PlaybarProps {
        playing: model.play.playing,
        t: model.play.cursor.t,
        from: model.span_window().map_or(0.0, |w| w.from as f64),
        end: model.span_window().map_or(run.end_ms(), |w| w.to as f64),
        at_start: model.at_span_start(),
        at_end: model.at_span_end(),
        step: model.play.cursor.step,
        steps: run.trace.len(),
        speed: model.speed_label(),
        fenced: run.fenced(),
        hide_fence: hides,
        #[cfg(not(feature = "player"))]
        recorded_fence: model.recording_unmodelled().is_some(),
        can_undo: model.can_undo(),
        can_redo: model.can_redo(),
        has_violation: !hides && !run.verdict.violations.is_empty(),
        on_action: on_action.clone(),
    };
    let panel = PanelProps {
        run: run.clone(),
        state: model.play.state.clone(),
        t: model.play.cursor.t,
        on_action: on_action.clone(),
        hide_fence: hides,
        #[cfg(not(feature = "player"))]
        unmodelled: model.recording_unmodelled(),
        #[cfg(not(feature = "lite"))]
        list: (*list).clone(),
    };
    let stage_props = StageProps {
        run: run.clone(),
        state: model.play.state.clone(),
        t: model.play.cursor.t,
        selected: model.frame.selected,
        on_action: on_action.clone(),
        narrow,
    };
    let verdict_class = if run
        .verdict
        .violations
        .iter()
        .any(|v| (v.entry as usize) < model.play.cursor.step)
    {
        "unsafe"
    } else {
        "safe"
    };
    // The parts both layouts show, built once.
    #[cfg(not(feature = "player"))]
    let share = share_dialog(
        model.nav.menu == Some(Menu::Share),
        &links,
        &model.share_title(),
        &on_action,
    );
    let controls = playbar(&bar);
    let hint = if model.embed.on {
        crate::teach::narrate::PLAY_HINT_EMBED
    } else {
        crate::teach::narrate::PLAY_HINT
    };
    let caption = html! {
        <p class={css(&["caption", verdict_class])} aria-live="polite" aria-atomic="true">
            { if model.play.caption.is_empty() { hint.to_string() } else { model.play.caption.clone() } }
        </p>
    };
    #[cfg(not(feature = "player"))]
    let zoom_bar = html! { <super::zoom::ZoomBar run={run.clone()} zoom={model.frame.zoom} cursor_t={model.play.cursor.t} on_action={on_action.clone()} /> };
    // A player draws the whole run, or a link's span: zooming in hands over to the whole
    // app, whose zoom bar (with the overview strip) takes the place of this button.
    #[cfg(feature = "player")]
    let zoom_bar = {
        // The first load never zooms and opens no span: its window is the whole run, said
        // without the label's formatting (about 500 bytes of its wasm).
        #[cfg(feature = "lite")]
        let window = "Whole run".to_string();
        #[cfg(not(feature = "lite"))]
        let window = crate::session::zoom::Window::label(model.frame.zoom, run.end_ms() as i64);
        let zoom_in = crate::session::zoom::Zoom::By {
            factor: crate::session::zoom::STEP_FACTOR,
            around: None,
        };
        html! {
            <div class="zoom-bar" role="group" aria-label="Zoom">
                <button type="button" class="control zoom" aria-label="Zoom in" title="Zoom in (+)"
                        onclick={on(&on_action, Action::Zoom(zoom_in))}>{ "+" }</button>
                <span class="zoom-window">{ window }</span>
            </div>
        }
    };
    let diagram = html! {
        <section ref={frame.clone()} class="diagram" aria-label="Space-time diagram" tabindex="0" data-digest={run.digest.clone()} data-entries={run.trace.len().to_string()} data-overlap-ms={run.verdict.stats.double_holder_ms.to_string()}>
            <Timeline run={run.clone()} state={model.play.state.clone()} cursor_t={model.play.cursor.t} veil={model.quiz_waiting()} zoom={model.diagram_window()} highlight={model.highlight()} on_action={on_action.clone()} {on_list} {frame} />
            { zoom_bar }
        </section>
    };
    let walkthrough = guide(
        &GuideData {
            name,
            beats: &model.teach.beats,
            step: model.play.cursor.step,
            at_start: model.at_span_start(),
            embed: model.embed.on,
            quiz: model.teach.quiz,
            waiting: model.quiz_waiting(),
            playing: model.play.playing,
            edited: model.doc.history.beats_predate_edit(),
            run: &run,
        },
        &on_action,
    );
    let verdict = verdict_panel(&panel);
    // (A player's Share button asks for the whole app, which opens the dialog.)
    #[cfg(all(feature = "player", not(feature = "lite")))]
    let share = html! {};
    #[cfg(not(feature = "lite"))]
    if model.embed.on {
        // Embedded in a course page: the run and its controls, no site around them. With
        // `view=diagram`, only the diagram, its controls and the caption; a quiz keeps its
        // panel, since the diagram waits for its answers.
        let only = model.embed.diagram_only;
        let walkthrough = if only && model.teach.quiz.is_none() {
            html! {}
        } else {
            walkthrough
        };
        let verdict = if only {
            html! {}
        } else {
            verdict
        };
        return html! {
            <div class="shell embed">
                { embed_bar(model.title(), model.nav.menu == Some(Menu::Share), links.0.clone(), &on_action) }
                <main id="main" class="workspace">
                    { share }
                    if let Some(err) = &model.doc.error {
                        <div class="error" role="alert">{ format!("Not applied — {err}") }</div>
                    }
                    { controls }
                    { caption }
                    { diagram }
                    { walkthrough }
                    { verdict }
                </main>
            </div>
        };
    }
    // The panels, open as the session says; a search the session asks for.
    #[cfg(not(feature = "player"))]
    let side =
        |p: Panel, body: Html| panel_details(p, model.nav.panels.is_open(p), &on_action, body);
    #[cfg(not(feature = "player"))]
    let explore_asks = model.effects.explore();
    // A recording with no scenario behind it: the scenario under it only stands in, so
    // the tools that read a scenario (its settings, a search, the bounds) say so instead
    // of answering about the stand-in. The editor stays: it starts a scenario of one's own.
    #[cfg(not(feature = "player"))]
    let tool = |p: Panel, verb: &str, body: Html| match model.recording_unmodelled() {
        Some(_) => side(
            p,
            html! { <p class="hint unmodelled">{ crate::teach::narrate::unmodelled_tool(verb) }</p> },
        ),
        None => side(p, body),
    };
    #[cfg(not(feature = "player"))]
    let (menus_and_share, legend, view, tools) = (
        html! {
            <>
                { share }
                <Menus open={model.nav.menu} current={Rc::<str>::from(name)} progress={model.teach.progress.clone()} chapter={model.nav.chapter} on_action={on_action.clone()} />
            </>
        },
        side(
            Panel::Legend,
            html! { <super::legend::Legend run={run.clone()} /> },
        ),
        if model.doc.versus.is_some() {
            // Comparing: the two drawings and what tells them apart, together on one
            // screen; the walkthrough waits below them.
            html! {
                <>
                    <div class="view versus-on">{ diagram }</div>
                    { compare_bar(&run, model.doc.versus.as_ref(), name, model.can_undo(), &on_action) }
                    { second_diagram(model.doc.versus.as_ref(), model.play.cursor.t, model.diagram_window(), &on_action_b) }
                    { walkthrough }
                </>
            }
        } else {
            html! { <div class="view">{ diagram }{ walkthrough }</div> }
        },
        html! {
            <>
                { tool(Panel::Settings, "set", html! { <Settings run={run.clone()} on_action={on_action.clone()} {on_error} /> }) }
                { side(Panel::Editor, html! { <Editor run={run.clone()} on_action={on_action.clone()} /> }) }
                { tool(Panel::Explore, "search", html! { <super::explore::Explore run={run.clone()} on_action={on_action.clone()} asks={explore_asks} /> }) }
                { tool(Panel::Calculator, "bound", html! { <super::calculator::Calculator run={run.clone()} on_action={on_action.clone()} /> }) }
                { side(Panel::Io, html! { <Io run={run.clone()} zoom={model.frame.zoom} on_action={on_action.clone()} /> }) }
            </>
        },
    );
    // A player: what the whole app would draw there, closed, asking for it when opened.
    #[cfg(feature = "player")]
    let _ = (links, on_action_b);
    #[cfg(feature = "player")]
    let (menus_and_share, legend, view, tools) = (
        html! {},
        super::handover::closed_legend(&on_action),
        html! { <div class="view">{ diagram }{ walkthrough }</div> },
        super::handover::closed_tools(&on_action),
    );
    html! {
        <div class="shell">
            { header() }
            <main id="main" class="workspace">
                <div class="scenario-bar">
                    <label>
                        <span>{ "Scenario" }</span>
                        <select onchange={on_preset} aria-label="Scenario">
                            { for picker.options.iter().map(|&(name, summary, selected)| html! {
                                <option value={name} {selected}>{ summary }</option>
                            }) }
                            if let Some(other) = &picker.other {
                                <option value="" selected=true disabled=true>{ other.clone() }</option>
                            }
                        </select>
                    </label>
                    <button type="button" class="control text" aria-expanded={(model.nav.menu == Some(Menu::Lessons)).to_string()} aria-controls="lessons-menu"
                            onclick={on(&on_action, Action::ToggleMenu(Menu::Lessons))}>{ "Lessons" }</button>
                    <button type="button" class="control text" aria-expanded={(model.nav.menu == Some(Menu::Interview)).to_string()} aria-controls="interview-menu"
                            onclick={on(&on_action, Action::ToggleMenu(Menu::Interview))}>{ "Interview prep" }</button>
                    <button type="button" class="control text" aria-expanded={(model.nav.menu == Some(Menu::Share)).to_string()} aria-controls="share-dialog"
                            onclick={on(&on_action, Action::ToggleMenu(Menu::Share))}>{ "Share" }</button>
                    <button type="button" class="control text" aria-pressed={model.doc.versus.is_some().to_string()}
                            onclick={on(&on_action, model.compare_toggle())}>{ "Compare" }</button>
                </div>
                // Beside the bar, not in it: on a phone it moves below the diagram and the
                // controls (style.css), so the run is on the first screen.
                if let Some(r) = &model.doc.recorded {
                    <p class="scenario-description recorded"><strong>{ r.title.to_string() }</strong>{ ". " }{ r.about.clone() }</p>
                } else if hides {
                    <p class="scenario-description">{ crate::teach::narrate::DESCRIPTION_HIDDEN }</p>
                } else {
                    <p class={css(&["scenario-description", when(model.doc.history.edited(), "original")])}>{ model.description() }</p>
                }
                if let Some(err) = &model.doc.error {
                    <div class="error" role="alert">
                        <span>{ format!("Not applied — {err}") }</span>
                        <button type="button" class="quiet" aria-label="Dismiss" onclick={on(&on_action, Action::DismissError)}>{ "✕" }</button>
                    </div>
                }
                { handover }
                { menus_and_share }
                { controls }
                { caption }
                { legend }
                { view }
                <div class="lower">
                    { stage(&stage_props) }
                    <div class="side">
                        { verdict }
                        { inspector(&panel) }
                        if !hides {
                            <Transcript run={run.clone()} on_action={on_action.clone()} />
                        }
                        { tools }
                    </div>
                </div>
            </main>
            { footer() }
        </div>
    }
}
