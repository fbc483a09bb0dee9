//! The settings panel: the fence mode and the main parameters. Each change is an edit of
//! the scenario (so it can be undone) and re-runs the model. A value that does not parse
//! or validate is refused with the field named; the current scenario stays.

use crate::session::edit::Edit;
use crate::session::{Action, Run};

use crate::model::scenario::{FenceMode, Flavor};
use crate::vocab::ids::NodeId;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties)]
pub struct SettingsProps {
    pub run: Rc<Run>,
    pub on_action: Callback<Action>,
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

fn input_checked(e: &Event) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|i| i.checked())
}

/// A number field in seconds or ppm that emits an edit, or an error naming the field.
fn number_field(
    label: &str,
    unit: &str,
    value: f64,
    scale: f64,
    on: &Callback<Action>,
    err: &Callback<String>,
    make: impl Fn(i64) -> Edit + 'static,
) -> Html {
    let (on, err, name) = (on.clone(), err.clone(), label.to_string());
    let onchange = Callback::from(move |e: Event| {
        let v = input_number(&e);
        if v.is_finite() && (v * scale).abs() < 9.0e15 {
            on.emit(Action::Edit(make((v * scale).round() as i64)))
        } else {
            err.emit(format!(
                "{name}: \"{}\" is not a number",
                super::value_of(&e)
            ))
        }
    });
    html! {
        <label class="field">
            <span>{ format!("{label} ({unit})") }</span>
            <input type="number" step="any" value={crate::vocab::numbers::decimal(value as i64, if scale == 1000.0 { 3 } else { 0 })} {onchange} />
        </label>
    }
}

#[component]
pub fn Settings(props: &SettingsProps) -> Html {
    let sc = &props.run.scenario;
    let c0 = &sc.clients[0];
    let on = &props.on_action;
    let err = &props.on_error;
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
        <details class="panel settings">
            <summary>{ "Settings" }</summary>
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
                { number_field("TTL", "s", c0.ttl_ms as f64, 1000.0, on, err, Edit::SetTtl) }
                { number_field("Safety margin", "s", c0.margin_ms as f64, 1000.0, on, err, Edit::SetMargin) }
                <label class="field check">
                    <input type="checkbox" checked={c0.renew_every_ms.is_some()} onchange={renew_toggle} />
                    <span>{ "Renewal watchdog" }</span>
                </label>
                if let Some(every) = c0.renew_every_ms {
                    { number_field("Renew every", "s", every as f64, 1000.0, on, err, |ms| Edit::SetRenew(Some(ms))) }
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
                                <td>{ clock_input(node, "drift", c.drift_ppm as f64, 1.0, on, err) }</td>
                                <td>{ clock_input(node, "offset", c.offset_ms as f64, 1000.0, on, err) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </details>
    }
}

fn clock_input(
    node: NodeId,
    what: &'static str,
    value: f64,
    scale: f64,
    on: &Callback<Action>,
    err: &Callback<String>,
) -> Html {
    let (on, err) = (on.clone(), err.clone());
    let label = format!("{} clock {what}", node.name());
    let name = label.clone();
    let onchange = Callback::from(move |e: Event| {
        let v = input_number(&e);
        if v.is_finite() && (v * scale).abs() < 9.0e15 {
            let x = (v * scale).round() as i64;
            on.emit(Action::Edit(if what == "drift" {
                Edit::SetDrift { node, ppm: x }
            } else {
                Edit::SetOffset { node, ms: x }
            }))
        } else {
            err.emit(format!(
                "{name}: \"{}\" is not a number",
                super::value_of(&e)
            ))
        }
    });
    html! { <input type="number" step="any" aria-label={label} value={crate::vocab::numbers::decimal(value as i64, if scale == 1000.0 { 3 } else { 0 })} {onchange} /> }
}
