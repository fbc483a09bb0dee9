//! The safety calculator panel: with this TTL and margin, and these bounds on pauses,
//! delays and drift, how long can two clients both believe they hold the lock? The bound,
//! its terms and advice are the core's (`analysis::bound`, `teach::advice`, so the page and
//! `leaseline bound` say the same), and so is reading the form (`session::calculator`:
//! starting values, each field's rules, where a refusal belongs); this panel only draws it
//! and opens the run that attains the bound. Each number has a slider beside its field (the
//! two move together), and the lock service can be switched to ask the same question of
//! another one.

use super::adapter::RunProps;
use super::css;
use crate::model::flavors::Flavor;
use crate::session::calculator::{uncovered, Form, FIELDS, PAUSE};
use crate::session::share::{encode, Source, ViewState};
use crate::session::Action;
use crate::vocab::numbers::decimal;
use yew::prelude::*;

#[component]
pub fn Calculator(props: &RunProps) -> Html {
    let sc = props.run.scenario.clone();
    let form = {
        let start = Form::of(&sc);
        use_state(move || start)
    };
    // Another scenario: start again from its client and its bounds.
    {
        let form = form.clone();
        let start = Form::of(&sc);
        use_effect_with(props.run.digest.clone(), move |_| form.set(start));
    }
    let flavor = form.flavor_of(&sc);
    let on_flavor = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            f.flavor = Flavor::parse(&super::value_of(&e));
            form.set(f);
        })
    };
    let service = html! {
        <div class="calc-field">
            <label for="calc-flavor">{ "Lock service" }</label>
            <select id="calc-flavor" onchange={on_flavor}>
                { for Flavor::ALL.iter().map(|f| html! {
                    <option value={f.name()} selected={*f == flavor}>{ f.name() }</option>
                }) }
            </select>
        </div>
    };
    let reading = match form.read(&sc) {
        Ok(r) => r,
        Err(r) => {
            return shell(html! {
                <>
                    <div class="calc-fields">{ service }</div>
                    <p class="hint" role="status">{ format!("Not for this client on {}: {}.", flavor.name(), r.reason) }</p>
                </>
            })
        }
    };
    let (h0, errors, result) = (reading.holder, &reading.errors, &reading.bound);
    let left_out = uncovered(&sc);
    let field = |i: usize| {
        let (key, label, _) = FIELDS[i];
        let text = form.values[i].clone();
        let handle = form.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut f = (*handle).clone();
            f.values[i] = super::value_of(&e);
            handle.set(f);
        });
        let id = format!("calc-{key}");
        let err_id = format!("{id}-error");
        let disabled = i == PAUSE && form.unbounded;
        // The slider's reach: the field's usual range, stretched to a larger typed value.
        let reach = SLIDER_MAX[i].max(text.trim().parse::<i64>().unwrap_or(0));
        let slide = oninput.clone();
        html! {
            <div class="calc-field">
                <label for={id.clone()}>{ label }</label>
                <input id={id} type="number" min="0" step="1" inputmode="numeric" value={text.clone()} {oninput} {disabled}
                       aria-invalid={errors[i].is_some().to_string()} aria-describedby={errors[i].as_ref().map(|_| err_id.clone())} />
                <input type="range" min="0" max={reach.to_string()} step={SLIDER_STEP[i].to_string()} value={text}
                       aria-label={format!("{label}, slider")} oninput={slide} {disabled} />
                if let Some(e) = &errors[i] {
                    <span class="field-error" id={err_id}>{ e.clone() }</span>
                }
            </div>
        }
    };
    let on_unbounded = {
        let form = form.clone();
        Callback::from(move |_| {
            let mut f = (*form).clone();
            f.unbounded = !f.unbounded;
            form.set(f);
        })
    };
    let answer = match result {
        None => html! {},
        Some(b) => {
            let verdict = match b.worst_overlap_ms {
                _ if b.safe => "Safe".to_string(),
                Some(ms) => format!(
                    "Unsafe by {} s: two clients can both believe they hold the lock this long",
                    decimal(ms, 3)
                ),
                None => "Unsafe, without bound: a pause can last any time".to_string(),
            };
            let worst = b.worst_case.clone().map(|w| {
                let link = encode(&ViewState {
                    source: Source::Custom(w),
                    ..ViewState::default()
                });
                let cb = props.on_action.clone();
                Callback::from(move |_| cb.emit(Action::Navigate(link.clone())))
            });
            html! {
                <div class="calc-result" role="status" aria-live="polite">
                    <p class={css(&["calc-verdict", if b.safe { "safe" } else { "unsafe" }])}
                       data-overlap-ms={b.worst_overlap_ms.map(|v| v.to_string())}>
                        <strong>{ verdict }</strong>
                    </p>
                    <p class="calc-formula"><code>{ b.formula.clone() }</code></p>
                    <ul class="calc-terms">
                        { for b.terms.iter().map(|t| html! {
                            <li class={(t.name == b.dominant).then_some("dominant")}>
                                <strong>{ format!("{}: {} ms", t.name, t.ms) }</strong>{ format!(" — {}", t.why) }
                            </li>
                        }) }
                    </ul>
                    <p>{ crate::teach::advice::bound_advice(b) }</p>
                    if let Some(open) = worst {
                        <button type="button" class="control text" onclick={open}>{ "Show me the worst case" }</button>
                    }
                </div>
            }
        }
    };
    shell(html! {
        <>
            <p class="hint">{ format!("Client 1 of this scenario ({}), its lease counted from the {}.", h0.flavor.name(), if h0.count_from == crate::model::scenario::CountFrom::Grant { "grant" } else { "request" }) }</p>
            if !left_out.is_empty() {
                <p class="hint">{ format!("This run also has {}, which these bounds (pauses, delays, drift) leave out: the figure says nothing about {}.", left_out.join(", "), if left_out.len() > 1 { "them" } else { "it" }) }</p>
            }
            <div class="calc-fields">
                { service }
                { field(0) }{ field(1) }{ field(2) }
                <label class="check">
                    <input type="checkbox" checked={form.unbounded} onchange={on_unbounded} />
                    <span>{ "Pauses have no bound" }</span>
                </label>
                { field(3) }{ field(4) }
            </div>
            { answer }
        </>
    })
}

/// Each slider's usual reach (TTL, margin, pause, delay in ms; drift in ppm, up to 10 %),
/// and its step.
const SLIDER_MAX: [i64; 5] = [120_000, 60_000, 120_000, 5_000, 100_000];
const SLIDER_STEP: [i64; 5] = [100, 100, 100, 1, 10];

fn shell(body: Html) -> Html {
    html! {
        <details class="panel calculator">
            <summary>{ "Safety calculator" }</summary>
            { body }
        </details>
    }
}
