//! The safety calculator panel (issue #16): with this TTL and margin, and these bounds on
//! pauses, delays and drift, how long can two clients both believe they hold the lock? The
//! bound, its terms and advice are the core's (`analysis::bound`, the advice `cli`'s, so
//! the page and `leaseline bound` say the same); this panel only reads the reader's numbers,
//! says which field is wrong when one is, and opens the run that attains the bound.

use super::adapter::RunProps;
use crate::analysis::bound::{bound, holder_of, Env, Holder};
use crate::session::share::{encode, Source, ViewState};
use crate::session::Action;
use crate::vocab::numbers::decimal;
use yew::prelude::*;

/// The fields, in order: (key, label, what a refusal of `leaseline bound` calls it).
const FIELDS: [(&str, &str, &str); 5] = [
    ("ttl", "TTL (ms)", "--ttl"),
    ("margin", "Safety margin (ms)", "--margin"),
    ("pause", "Longest pause P (ms)", "--max-pause-ms"),
    ("delay", "Longest one-way delay D (ms)", "--max-delay-ms"),
    ("drift", "Largest clock drift ρ (ppm)", "--max-drift-ppm"),
];

fn start_values(h: &Holder, env: &Env) -> [String; 5] {
    [
        h.ttl_ms.to_string(),
        h.margin_ms.to_string(),
        env.max_pause_ms.map_or(String::new(), |p| p.to_string()),
        env.max_delay_ms.to_string(),
        env.max_drift_ppm.to_string(),
    ]
}

/// A whole number of ms (or ppm) at least 0, or the message for its field.
fn parse(text: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(v) if v >= 0 => Ok(v),
        Ok(_) => Err("must be 0 or more".into()),
        Err(_) if text.trim().is_empty() => Err("a number is needed".into()),
        Err(_) => Err("not a whole number".into()),
    }
}

#[component]
pub fn Calculator(props: &RunProps) -> Html {
    let sc = props.run.scenario.clone();
    let holder = holder_of(&sc, 0);
    let env0 = Env::of_scenario(&sc);
    let values = {
        let start = holder.as_ref().map(|h| start_values(h, &env0)).ok();
        use_state(move || start.unwrap_or_default())
    };
    let unbounded = use_state(|| false);
    // Another scenario: start again from its client and its bounds.
    {
        let (values, unbounded) = (values.clone(), unbounded.clone());
        let start = holder.as_ref().map(|h| start_values(h, &env0)).ok();
        use_effect_with(props.run.digest.clone(), move |_| {
            values.set(start.unwrap_or_default());
            unbounded.set(false);
        });
    }
    let h0 = match holder {
        Ok(h) => h,
        Err(r) => {
            return shell(html! {
                <p class="hint">{ format!("Not for this scenario: {}.", r.reason) }</p>
            })
        }
    };
    // Read every field; a bad one gets its message, and nothing is computed.
    let mut errors: [Option<String>; 5] = Default::default();
    let mut nums = [0i64; 5];
    for (i, v) in values.iter().enumerate() {
        if i == 2 && *unbounded {
            continue;
        }
        match parse(v) {
            Ok(n) => nums[i] = n,
            Err(e) => errors[i] = Some(e),
        }
    }
    if errors[0].is_none() && nums[0] == 0 {
        errors[0] = Some("a lease of 0 ms is no lease".into());
    }
    if errors[0].is_none() && errors[1].is_none() && nums[1] >= nums[0] {
        errors[1] = Some("the margin must be shorter than the TTL".into());
    }
    let mut h = h0;
    h.ttl_ms = nums[0];
    h.margin_ms = nums[1];
    let env = Env {
        max_pause_ms: (!*unbounded).then_some(nums[2]),
        max_delay_ms: nums[3],
        max_drift_ppm: nums[4],
    };
    let result = if errors.iter().any(Option::is_some) {
        None
    } else {
        match bound(&sc, &h, &env) {
            Ok(b) => Some(b),
            Err(r) => {
                match FIELDS.iter().position(|f| f.2 == r.option) {
                    Some(i) => errors[i] = Some(r.reason),
                    None => errors[0] = Some(format!("{}: {}", r.option, r.reason)),
                }
                None
            }
        }
    };
    let field = |i: usize| {
        let (key, label, _) = FIELDS[i];
        let text = values[i].clone();
        let handle = values.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut v = (*handle).clone();
            v[i] = super::value_of(&e);
            handle.set(v);
        });
        let id = format!("calc-{key}");
        let err_id = format!("{id}-error");
        let disabled = i == 2 && *unbounded;
        html! {
            <div class="calc-field">
                <label for={id.clone()}>{ label }</label>
                <input id={id} type="number" min="0" step="1" inputmode="numeric" value={text} {oninput} {disabled}
                       aria-invalid={errors[i].is_some().to_string()} aria-describedby={errors[i].as_ref().map(|_| err_id.clone())} />
                if let Some(e) = &errors[i] {
                    <span class="field-error" id={err_id}>{ e.clone() }</span>
                }
            </div>
        }
    };
    let on_unbounded = {
        let unbounded = unbounded.clone();
        Callback::from(move |_| unbounded.set(!*unbounded))
    };
    let answer = match &result {
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
                    <p class={classes!("calc-verdict", if b.safe { "safe" } else { "unsafe" })}
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
            <div class="calc-fields">
                { field(0) }{ field(1) }{ field(2) }
                <label class="check">
                    <input type="checkbox" checked={*unbounded} onchange={on_unbounded} />
                    <span>{ "Pauses have no bound" }</span>
                </label>
                { field(3) }{ field(4) }
            </div>
            { answer }
        </>
    })
}

fn shell(body: Html) -> Html {
    html! {
        <details class="panel calculator">
            <summary>{ "Safety calculator" }</summary>
            { body }
        </details>
    }
}
