//! The safety calculator panel: with this TTL and margin, this work before the write and
//! this fence, and these bounds on pauses, delays and drift, how long can two clients both
//! believe they hold the lock — and can that reach the data? The bound, its terms, the
//! verdict's words and the advice are the core's (`analysis::bound`, `teach::advice`, so
//! the page and `leaseline bound` say the same), and so is reading the form
//! (`session::calculator`: starting values, each field's rules, where a refusal belongs);
//! this panel only draws it and opens the run that attains the bound, in view, with the
//! cursor where the overlap starts. Each number has a slider beside its field (the two move
//! together), and the lock service and the fence can be switched to ask the same question
//! of another setup.

use super::adapter::RunProps;
use super::css;
use crate::model::flavors::Flavor;
use crate::model::scenario::{FenceMode, Scenario};
use crate::session::calculator::{
    last_write_w, later_note, uncovered_note, worst_case_link, Form, FIELDS, PAUSE, WORK,
};
use crate::session::Action;
use crate::teach::advice::{
    bound_advice, bound_verdict, DAMAGE_MEANS, OVERLAP_MEANS, WORST_CASE_NOTE,
};
use yew::prelude::*;

#[component]
pub fn Calculator(props: &RunProps) -> Html {
    let sc = props.run.scenario.clone();
    let form = {
        let start = Form::of(&sc);
        use_state(move || start)
    };
    // The worst case this panel opened last: when it is the run on screen, the reader's
    // numbers stay as they were (they are the question that run answers).
    let opened = use_mut_ref(|| None::<Scenario>);
    // Another scenario: start again from its client, its fence and its bounds.
    {
        let (form, opened, sc) = (form.clone(), opened.clone(), sc.clone());
        let start = Form::of(&sc);
        use_effect_with(props.run.digest.clone(), move |_| {
            let ours = opened.borrow_mut().take().is_some_and(|w| w == *sc);
            if !ours {
                form.set(start);
            }
        });
    }
    let flavor = form.flavor_of(&sc);
    let fence = form.fence_of(&sc);
    let on_flavor = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            f.flavor = Flavor::parse(&super::value_of(&e));
            form.set(f);
        })
    };
    let on_fence = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            if let Some(m) = FenceMode::parse(&super::value_of(&e)) {
                f.fence = Some(m);
            }
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
    let fence_field = html! {
        <div class="calc-field">
            <label for="calc-fence">{ "Fence at storage" }</label>
            <select id="calc-fence" onchange={on_fence}>
                { for FenceMode::ALL.iter().map(|f| html! {
                    <option value={f.name()} title={f.title()} selected={*f == fence}>{ f.label() }</option>
                }) }
            </select>
        </div>
    };
    let reading = match form.read(&sc) {
        Ok(r) => r,
        Err(r) => {
            return shell(html! {
                <>
                    <div class="calc-fields">{ service }{ fence_field }</div>
                    <p class="hint" role="status">{ format!("Not for this client on {}: {}.", flavor.name(), r.reason) }</p>
                </>
            })
        }
    };
    let (h0, errors, result) = (reading.holder, &reading.errors, &reading.bound);
    let left_out = uncovered_note(&sc);
    let later = later_note(&sc, 0);
    // A button rather than a number to copy: W's field then asks about the last write.
    let ask_last = last_write_w(&sc, 0)
        .filter(|w| form.values[WORK].trim() != w.to_string())
        .map(|w| {
            let form = form.clone();
            let onclick = Callback::from(move |_| {
                let mut f = (*form).clone();
                f.values[WORK] = w.to_string();
                form.set(f);
            });
            html! {
                <button type="button" class="control text" {onclick}>{ format!("Ask about the last write: W = {w} ms") }</button>
            }
        });
    let on_unbounded = {
        let form = form.clone();
        Callback::from(move |_| {
            let mut f = (*form).clone();
            f.unbounded = !f.unbounded;
            form.set(f);
        })
    };
    let field = |i: usize| {
        let label = FIELDS[i].label;
        let text = form.values[i].clone();
        let handle = form.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut f = (*handle).clone();
            f.values[i] = super::value_of(&e);
            handle.set(f);
        });
        let id = format!("calc-{}", FIELDS[i].key);
        let err_id = format!("{id}-error");
        let disabled = i == PAUSE && form.unbounded;
        // The slider's reach: the field's usual range, stretched to a larger typed value.
        let reach = SLIDER_MAX[i].max(text.trim().parse::<i64>().unwrap_or(0));
        let slide = oninput.clone();
        html! {
            <div class="calc-field">
                // With the pause it lifts, not in whatever cell of the grid comes next; above
                // its label, so that the fields' boxes, aligned at their feet, still line up.
                if i == PAUSE {
                    <label class="check">
                        <input type="checkbox" checked={form.unbounded} onchange={on_unbounded.clone()} />
                        <span>{ "Pauses have no bound" }</span>
                    </label>
                }
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
    let answer = match result {
        None => html! {},
        Some(b) => {
            let words = bound_verdict(b);
            // The run that attains the bound, opened where its overlap starts.
            let worst = b
                .worst_case
                .clone()
                .zip(worst_case_link(b))
                .map(|(w, link)| {
                    let (cb, opened) = (props.on_action.clone(), opened.clone());
                    Callback::from(move |_| {
                        *opened.borrow_mut() = Some(w.clone());
                        cb.emit(Action::Navigate(link.clone()));
                        diagram_into_view();
                    })
                });
            html! {
                <div class="calc-result" role="status" aria-live="polite">
                    <p class={css(&["calc-verdict", if b.safe { "safe" } else { "unsafe" }])}
                       data-overlap-ms={b.worst_overlap_ms.map(|v| v.to_string())}>
                        <strong>{ words.headline }</strong>
                    </p>
                    <dl class="calc-meaning">
                        <div class="calc-overlap">
                            <dt>{ "Overlap" }</dt>
                            <dd><span>{ OVERLAP_MEANS }</span>{ " " }<strong>{ words.overlap }</strong></dd>
                        </div>
                        <div class="calc-damage">
                            <dt>{ "Damage" }</dt>
                            <dd><span>{ DAMAGE_MEANS }</span>{ " " }<strong>{ words.damage }</strong></dd>
                        </div>
                    </dl>
                    <p class="calc-advice">
                        <strong>{ if b.safe { "Why it is safe: " } else { "What would make it safe: " } }</strong>
                        { bound_advice(b) }
                    </p>
                    <p class="calc-formula"><code>{ b.formula.clone() }</code></p>
                    <ul class="calc-terms">
                        { for b.terms.iter().map(|t| html! {
                            <li class={(t.name == b.dominant).then_some("dominant")}>
                                <strong>{ format!("{}: {}", t.name, t.shown()) }</strong>{ format!(" — {}", t.why) }
                            </li>
                        }) }
                    </ul>
                    if let Some(open) = worst {
                        <div class="calc-worst">
                            <button type="button" class="control text" onclick={open} aria-describedby="calc-worst-note">{ "Show me the worst case" }</button>
                            <p class="hint" id="calc-worst-note">{ WORST_CASE_NOTE }</p>
                        </div>
                    }
                </div>
            }
        }
    };
    shell(html! {
        <>
            <p class="hint">{ format!("Client 1 of this scenario ({}), its lease counted from the {}; W is the work its job does between taking the lock and its first write (or effect).", h0.flavor.name(), if h0.count_from == crate::model::scenario::CountFrom::Grant { "grant" } else { "request" }) }</p>
            if let Some(note) = later {
                <div class="calc-later">
                    <p class="hint">{ note }</p>
                    { for ask_last }
                </div>
            }
            if let Some(note) = left_out {
                <p class="hint">{ note }</p>
            }
            <div class="calc-fields">
                { service }
                { fence_field }
                { field(0) }{ field(1) }{ field(WORK) }{ field(PAUSE) }{ field(4) }{ field(5) }
            </div>
            { answer }
        </>
    })
}

/// Brings the diagram into view once the page has drawn the run just opened: the reader
/// asked from the calculator, far below it. Smooth, unless the reader prefers reduced
/// motion.
fn diagram_into_view() {
    gloo_timers::callback::Timeout::new(0, || {
        let Some(w) = web_sys::window() else { return };
        let reduced = w
            .match_media("(prefers-reduced-motion: reduce)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches());
        let el = w
            .document()
            .and_then(|d| d.query_selector("section.diagram").ok().flatten());
        if let Some(el) = el {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Start);
            options.set_behavior(if reduced {
                web_sys::ScrollBehavior::Instant
            } else {
                web_sys::ScrollBehavior::Smooth
            });
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    })
    .forget();
}

/// Each slider's usual reach (TTL, margin, work, pause, delay in ms; drift in ppm, up to
/// 10 %), and its step, in the order of `FIELDS`.
const SLIDER_MAX: [i64; 6] = [120_000, 60_000, 120_000, 120_000, 5_000, 100_000];
const SLIDER_STEP: [i64; 6] = [100, 100, 100, 100, 1, 10];

fn shell(body: Html) -> Html {
    html! {
        <>
            { body }
        </>
    }
}
