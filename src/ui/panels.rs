//! The inspector (what every node believes at the cursor) and the verdict panel (what went
//! wrong so far, each with a jump). Both read the projected state and the checker's
//! verdict; neither decides anything.

use super::on;
use super::{css, when};
use crate::analysis::projection::State;
use crate::session::{Action, Panel, Run};
use crate::teach::narrate::{self};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::time::Time;
use std::rc::Rc;
use yew::prelude::*;

pub struct PanelProps {
    pub run: Rc<Run>,
    pub state: Rc<State>,
    pub t: f64,
    pub on_action: Callback<Action>,
    /// A question waits for its answer: the storage's fence, which decides what storage
    /// does with a late write, is hidden as the playbar's switch is (a stop that turns on
    /// it states it in its own words).
    pub hide_fence: bool,
    /// A recording with no scenario behind it: its service as it names it
    /// (`Recorded::unmodelled`). The stand-in scenario's service and fence are not said.
    /// A player opens no recording: its build has none of this.
    #[cfg(not(feature = "player"))]
    pub unmodelled: Option<Rc<str>>,
    /// The list of what was last focused or clicked on the diagram (a fold of labels, a
    /// mark drawn for several events), shown once the cursor has reached all of it.
    #[cfg(not(feature = "lite"))]
    pub list: Option<Rc<crate::view::layout::Listing>>,
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn inspector(props: &PanelProps) -> Html {
    let st = &props.state;
    let t = Time(props.t as i64);
    let clients = st.clients.iter().enumerate().map(|(i, c)| {
        let node = NodeId::Client(i as u8);
        let local = st.local(node, t);
        html! {
            <tr>
                <th scope="row">{ node.name() }</th>
                <td class="num">{ fmt_ms(local) }</td>
                <td>{ narrate::client_status(c) }</td>
                <td class={when(c.believes.is_some(), "believes")}>{ narrate::client_belief(c, local) }</td>
            </tr>
        }
    });
    // One row per coordinator node (Redlock's masters are five independent ones).
    let coords = props.run.scenario.coord_nodes();
    let coord_rows = coords.iter().map(|&node| {
        let (status, holds) = narrate::coord_row(st, node, coords.len() == 1);
        html! {
            <tr>
                <th scope="row">{ node.name().trim_start_matches("the ").to_string() }</th>
                <td class="num">{ fmt_ms(st.local(node, t)) }</td>
                <td>{ status }</td>
                <td>{ holds }</td>
            </tr>
        }
    });
    let flavor = props.run.scenario.coordinator.flavor;
    // A player opens no recording (`Session::recording_unmodelled`): none of this there.
    #[cfg(not(feature = "player"))]
    let unmodelled = props.unmodelled.clone();
    #[cfg(feature = "player")]
    let unmodelled: Option<Rc<str>> = None;
    let (service, offered) = match &unmodelled {
        Some(name) => narrate::recorded_service_line(name),
        None => narrate::service_line(flavor),
    };
    let storage_local = st.local(NodeId::Storage, t);
    let fence_mode = props.run.scenario.storage.fence;
    // What a count or a stacked mark on the diagram stands for, listed in full; not
    // while the cursor is back before it (nothing is told before its time).
    #[cfg(not(feature = "lite"))]
    let folded = props.list.as_ref().filter(|l| props.t >= l.at).map(|l| {
        html! {
            <div class="folded">
                <h3>{ l.heading.clone() }</h3>
                <ul>{ for l.items.iter().map(|i| html! { <li>{ i.clone() }</li> }) }</ul>
            </div>
        }
    });
    #[cfg(feature = "lite")]
    let folded: Option<Html> = None;
    // The first load runs the generic service alone (`session::carries::PageKit`), so it
    // carries that service's text only.
    #[cfg(not(feature = "lite"))]
    let explainer = flavor.explainer();
    #[cfg(feature = "lite")]
    let explainer = crate::model::flavors::generic::EXPLAINER;
    html! {
        <section class="panel inspector" aria-label="Inspector">
            <h2>{ narrate::inspector_heading(t) }</h2>
            <p class="service">
                <strong>{ service }</strong>
                { offered }
            </p>
            if unmodelled.is_none() {
                <details class="explainer">
                    <summary>{ narrate::explainer_summary(flavor) }</summary>
                    <p>{ explainer }</p>
                </details>
            }
            <table>
                <thead><tr><th scope="col">{ "node" }</th><th scope="col">{ "clock" }</th><th scope="col">{ "state" }</th><th scope="col">{ "believes" }</th></tr></thead>
                <tbody>
                    { for clients }
                    { for coord_rows }
                    <tr>
                        <th scope="row">{ "storage" }</th>
                        <td class="num">{ fmt_ms(storage_local) }</td>
                        if props.hide_fence {
                            <td title="Hidden until you answer the question">{ "fence: ?" }</td>
                        } else if unmodelled.is_some() {
                            <td title="A recording tells what storage did, not how its fence was set">{ narrate::RECORDED_FENCE }</td>
                        } else {
                            <td title={fence_mode.title()}>{ narrate::fence_words(fence_mode) }</td>
                        }
                        <td>{ narrate::storage_holds(st) }</td>
                    </tr>
                </tbody>
            </table>
            { for folded }
        </section>
    }
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn verdict_panel(props: &PanelProps) -> Html {
    let step = props.state.step;
    let at_end = step >= props.run.trace.len();
    let (safe, head, items) = narrate::verdict_so_far(&props.run.verdict, step, at_end);
    // Safe, but some client's work never got done: not the all-clear colour.
    let stalled = safe && at_end && !props.run.verdict.progress.live();
    let jump = |entry: u32| on(&props.on_action, Action::SeekEntry(entry as usize));
    html! {
        <section class={css(&["panel verdict", if safe { "safe" } else { "unsafe" }, when(stalled, "stalled")])} aria-label="Verdict">
            <h2>{ head }</h2>
            <ul>
                { for items.into_iter().map(|x| html! {
                    <li class={x.class}>
                        <button type="button" class="link" onclick={jump(x.entry)}>{ x.when }</button>
                        { format!(" {}", x.text) }
                    </li>
                }) }
            </ul>
        </section>
    }
}

/// A panel's `<details>`, open as the session says (`Navigation::panels`), telling the
/// session when the reader opens or closes it, with the panel's title as its summary. The
/// legend is a disclosure in the diagram's bar (a button-like summary; Escape closes it),
/// the others side panels. (A player draws them closed: `handover::closed_tools`.)
#[cfg(not(feature = "player"))]
pub fn panel_details(p: Panel, open: bool, on_action: &Callback<Action>, body: Html) -> Html {
    let cb = on_action.clone();
    let ontoggle = Callback::from(move |e: Event| {
        let open = e
            .target_dyn_into::<web_sys::Element>()
            .is_some_and(|d| d.has_attribute("open"));
        cb.emit(Action::SetPanel(p, open));
    });
    match p {
        Panel::Legend => html! {
            <details class="legend" {open} {ontoggle} onkeydown={super::legend::close_on_escape}>
                <summary class="control text">{ p.title() }</summary>
                { body }
            </details>
        },
        Panel::Settings | Panel::Editor | Panel::Explore | Panel::Calculator | Panel::Io => html! {
            <details class={css(&["panel", p.name()])} {open} {ontoggle}>
                <summary>{ p.title() }</summary>
                { body }
            </details>
        },
    }
}
