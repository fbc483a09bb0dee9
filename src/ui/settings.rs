//! The settings panel: the fence mode and the main parameters. Each change is an edit of
//! the scenario (so it can be undone) and re-runs the model. A value that does not parse
//! or validate is refused at its field, in plain words and the field's unit (the core's
//! `session::form`, which the editor uses too: times in seconds); the scenario stays.

use crate::session::edit::{self, Edit};
use crate::session::form::{self, Problem};
use crate::session::{Action, Run};

use super::{css, when};
use crate::model::scenario::{FenceMode, Flavor};
use crate::vocab::ids::NodeId;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties)]
pub struct SettingsProps {
    pub run: Rc<Run>,
    pub on_action: Callback<Action>,
    /// The page's banner; this panel says its own errors at their fields instead.
    pub on_error: Callback<String>,
}

impl PartialEq for SettingsProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run.scenario, &o.run.scenario)
    }
}

/// The number in an `<input type="number">`, parsed by the browser (NaN if it is not one).
fn input_number(e: &Event) -> f64 {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map_or(f64::NAN, |i| i.value_as_number())
}

pub(super) fn input_checked(e: &Event) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|i| i.checked())
}

/// What a field of this panel needs to check an edit before it is sent: the scenario on
/// screen, where to send it, and where to say what was wrong (the field's id and why).
#[derive(Clone)]
struct Out {
    run: Rc<Run>,
    on: Callback<Action>,
    err: UseStateHandle<Option<(String, String)>>,
}

impl Out {
    /// Sends `edit` if the scenario stays valid; otherwise says why at field `id`.
    fn send(&self, id: &str, edit: Edit) {
        match edit::apply(&self.run.scenario, &edit) {
            Ok(_) => {
                self.err.set(None);
                self.on.emit(Action::Edit(edit));
            }
            Err(e) => self
                .err
                .set(Some((id.to_string(), Problem::of(&e).message))),
        }
    }

    fn refuse(&self, id: &str, why: String) {
        self.err.set(Some((id.to_string(), why)));
    }

    /// The message for field `id`, if it has one.
    fn why(&self, id: &str) -> Option<String> {
        self.err
            .as_ref()
            .filter(|(i, _)| i == id)
            .map(|(_, w)| w.clone())
    }
}

/// A number field for the document field `path` (a time in seconds, or ppm), labelled and
/// checked by the core's form, that emits an edit or says at the field what was wrong.
fn number_field(
    out: &Out,
    path: &'static str,
    value: i64,
    make: impl Fn(i64) -> Edit + 'static,
) -> Html {
    let o = out.clone();
    let secs = form::field(path).1 == form::Unit::Seconds;
    let scale = if secs { 1000.0 } else { 1.0 };
    let onchange = Callback::from(move |e: Event| {
        let v = input_number(&e);
        if v.is_finite() && (v * scale).abs() < 9.0e15 {
            o.send(path, make((v * scale).round() as i64))
        } else {
            o.refuse(path, form::unreadable(path, &super::value_of(&e)))
        }
    });
    let why = out.why(path);
    let id = form::error_id(path);
    html! {
        <label class={css(&["field", when(why.is_some(), "invalid")])} title={path}>
            <span>{ form::label(path) }</span>
            <input type="number" step="any" value={crate::vocab::numbers::decimal(value, if secs { 3 } else { 0 })} {onchange}
                   aria-invalid={why.is_some().to_string()} aria-describedby={why.is_some().then(|| id.clone())} />
            if let Some(why) = why { <small class="field-error" {id}>{ why }</small> }
        </label>
    }
}

#[component]
pub fn Settings(props: &SettingsProps) -> Html {
    let sc = &props.run.scenario;
    let c0 = &sc.clients[0];
    let on = &props.on_action;
    let out = Out {
        run: props.run.clone(),
        on: on.clone(),
        err: use_state(|| None),
    };
    let fence_change = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(f) = FenceMode::parse(&super::value_of(&e)) {
                on.emit(Action::Edit(Edit::SetFence(f)))
            }
        })
    };
    let flavor_change = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(f) = Flavor::parse(&super::value_of(&e)) {
                on.emit(Action::Edit(Edit::SetFlavor(f)))
            }
        })
    };
    let renew_toggle = {
        let on = on.clone();
        let ttl = c0.ttl_ms;
        Callback::from(move |e: Event| {
            on.emit(Action::Edit(Edit::SetRenew(
                input_checked(&e).then_some((ttl / 3).max(1)),
            )))
        })
    };
    let check_toggle = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            on.emit(Action::Edit(Edit::SetCheckBeforeWrite(input_checked(&e))))
        })
    };
    html! {
        <>
            <div class="fields">
                <label class="field">
                    <span>{ "Lock service" }</span>
                    <select onchange={flavor_change} aria-label="Lock service">
                        { for Flavor::ALL.iter().map(|f| html! { <option value={f.name()} selected={sc.coordinator.flavor == *f}>{ f.name() }</option> }) }
                    </select>
                </label>
                <label class="field">
                    <span>{ "Fence at storage" }</span>
                    <select onchange={fence_change}>
                        { for FenceMode::ALL.iter().map(|f| html! { <option value={f.name()} title={f.title()} selected={sc.storage.fence == *f}>{ f.label() }</option> }) }
                    </select>
                </label>
                { number_field(&out, "clients[0].ttl_ms", c0.ttl_ms, Edit::SetTtl) }
                { number_field(&out, "clients[0].margin_ms", c0.margin_ms, Edit::SetMargin) }
                <label class="field check">
                    <input type="checkbox" checked={c0.renew_every_ms.is_some()} onchange={renew_toggle} />
                    <span>{ "Renewal watchdog" }</span>
                </label>
                if let Some(every) = c0.renew_every_ms {
                    { number_field(&out, "clients[0].renew_every_ms", every, |ms| Edit::SetRenew(Some(ms))) }
                }
                <label class="field check">
                    <input type="checkbox" checked={c0.check_before_write} onchange={check_toggle} />
                    <span>{ "Check the lease before each write" }</span>
                </label>
            </div>
            <table class="clocks">
                <caption>{ "Clocks" }<small class="hint">{ crate::teach::narrate::PPM }</small></caption>
                <thead><tr><th scope="col">{ "node" }</th><th scope="col">{ "drift (ppm)" }</th><th scope="col">{ "offset (s)" }</th></tr></thead>
                <tbody>
                    { for sc.nodes().into_iter().map(|node| {
                        let c = sc.clock_of(node);
                        html! {
                            <tr>
                                <th scope="row">{ node.name() }</th>
                                <td>{ clock_input(&out, node, "drift", c.drift_ppm) }</td>
                                <td>{ clock_input(&out, node, "offset", c.offset_ms) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </>
    }
}

fn clock_input(out: &Out, node: NodeId, what: &'static str, value: i64) -> Html {
    let o = out.clone();
    let label = format!("{} clock {what}", node.name());
    // The document field the error names, for its unit and words: a clock's offset or drift.
    let path = if what == "drift" {
        "clock.drift_ppm"
    } else {
        "clock.offset_ms"
    };
    let scale = if what == "drift" { 1.0 } else { 1000.0 };
    let id = label.clone();
    let onchange = Callback::from(move |e: Event| {
        let v = input_number(&e);
        if v.is_finite() && (v * scale).abs() < 9.0e15 {
            let x = (v * scale).round() as i64;
            o.send(
                &id,
                if what == "drift" {
                    Edit::SetDrift { node, ppm: x }
                } else {
                    Edit::SetOffset { node, ms: x }
                },
            )
        } else {
            o.refuse(&id, form::unreadable(path, &super::value_of(&e)))
        }
    });
    let why = out.why(&label);
    let err_id = form::error_id(&label);
    html! {
        <>
            <input type="number" step="any" aria-label={label} value={crate::vocab::numbers::decimal(value, if scale == 1000.0 { 3 } else { 0 })} {onchange}
                   aria-invalid={why.is_some().to_string()} aria-describedby={why.is_some().then(|| err_id.clone())} />
            if let Some(why) = why { <small class="field-error" id={err_id}>{ why }</small> }
        </>
    }
}
