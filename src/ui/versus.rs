//! Compare: a second run beside the first, on the same seed and under the same cursor —
//! fenced against unfenced, or the lesson's unsafe run against a fix. The bar names the
//! first event where the two runs part and each side's verdict; both diagrams are the
//! same `Timeline` component, each fed its own run and its own projected state.

use super::on;
use super::timeline::Timeline;
use crate::session::{Action, Run, Versus, BEFORE_LAST_EDIT};
use crate::teach::course::{variant_label, variants};
use crate::teach::narrate;
use yew::prelude::*;

/// The compare bar: what B is, where the runs part (with a jump), and each verdict.
/// `edited`: there is a run before the last edit to compare with.
pub fn compare_bar(
    a: &Run,
    vs: Option<&Versus>,
    name: &str,
    edited: bool,
    cb: &Callback<Action>,
) -> Html {
    let Some(vs) = vs else {
        return html! {};
    };
    if let Some(note) = &vs.note {
        return reality_bar(a, vs, note, cb);
    }
    let choose = {
        let cb = cb.clone();
        Callback::from(move |e: Event| cb.emit(Action::Compare(Some(super::value_of(&e)))))
    };
    let (head, text) = narrate::divergence(&a.trace, &vs.run.trace, vs.divergence);
    let divergence = match vs.divergence {
        Some(i) => html! {
            <p class="divergence">
                <strong>{ head }</strong>
                { text }
                <button type="button" class="link" onclick={on(cb, Action::SeekEntry(i))}>{ "Jump there" }</button>
            </p>
        },
        None => html! { <p class="divergence">{ text }</p> },
    };
    html! {
        <section class="panel compare" aria-label="Compare">
            <header class="guide-head">
                <h2>{ "Compare" }</h2>
                <label>
                    <span class="sr-only">{ "Compare with" }</span>
                    <select aria-label="Compare with" onchange={choose}>
                        <option value="" selected={vs.with.is_empty()}>{ "this run with the fence switched" }</option>
                        if edited {
                            <option value={BEFORE_LAST_EDIT} selected={&*vs.with == BEFORE_LAST_EDIT}>{ "this run before my last edit" }</option>
                        }
                        { for variants(name).into_iter().map(|n| html! {
                            <option value={n.clone()} selected={*vs.with == *n}>{ variant_label(&n) }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="quiet" onclick={on(cb, Action::Compare(None))}>{ "Stop comparing" }</button>
            </header>
            { divergence }
            <ul class="sides">
                <li class={if a.verdict.violations.is_empty() { "safe" } else { "unsafe" }}>
                    <strong>{ "A: " }</strong>{ narrate::side_line(&a.scenario, &a.verdict, &vs.run.scenario) }
                </li>
                <li class={if vs.run.verdict.violations.is_empty() { "safe" } else { "unsafe" }}>
                    <strong>{ narrate::side_b(&vs.with, BEFORE_LAST_EDIT) }</strong>{ narrate::side_line(&vs.run.scenario, &vs.run.verdict, &a.scenario) }
                </li>
            </ul>
        </section>
    }
}

/// A recording beside the model's run of its scenario (`session::recorded`): what the
/// comparison found, and each side's verdict.
fn reality_bar(real: &Run, vs: &Versus, note: &str, cb: &Callback<Action>) -> Html {
    let side = |who: &'static str, run: &Run, other: &Run| {
        html! {
            <li class={if run.verdict.violations.is_empty() { "safe" } else { "unsafe" }}>
                <strong>{ who }</strong>{ narrate::side_line(&run.scenario, &run.verdict, &other.scenario) }
            </li>
        }
    };
    html! {
        <section class="panel compare reality" aria-label="Model vs reality">
            <header class="guide-head">
                <h2>{ "Model vs reality" }</h2>
                <button type="button" class="quiet" onclick={on(cb, Action::Compare(None))}>{ "Hide the model's run" }</button>
            </header>
            <p class="divergence">
                { note.to_string() }
                if let Some(i) = vs.divergence {
                    { " " }
                    <button type="button" class="link" onclick={on(cb, Action::SeekEntry(i))}>{ "Jump there" }</button>
                }
            </p>
            <ul class="sides">
                { side("Real (above): ", real, &vs.run) }
                { side("Model (below): ", &vs.run, real) }
            </ul>
        </section>
    }
}

/// B's diagram under the same cursor time as A's, with B's state as the session keeps it.
/// `on_action` is the page's callback with B's entry clicks already mapped to
/// [`Action::SeekEntryB`] (made once by the caller, so B redraws only when its state does).
pub fn second_diagram(
    vs: Option<&Versus>,
    cursor_t: f64,
    zoom: Option<crate::session::zoom::Window>,
    on_action: &Callback<Action>,
) -> Html {
    let Some(vs) = vs else {
        return html! {};
    };
    html! {
        <section class="diagram versus" aria-label={if vs.note.is_some() { "Space-time diagram: the model's run" } else { "Space-time diagram B" }} data-digest={vs.run.digest.clone()}>
            <Timeline run={vs.run.clone()} state={vs.state.clone()} {cursor_t} veil=false {zoom} on_action={on_action.clone()} />
        </section>
    }
}
