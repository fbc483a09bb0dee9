//! The playback toolbar: play/pause, stepping, notable events, start/end, the next
//! violation, a time slider, speed, the fencing switch, undo and redo. Every control has an
//! accessible name and a keyboard shortcut (listed in its title).

use super::on;
use super::{css, when};
use crate::session::Action;
use crate::vocab::numbers::clock;
use wasm_bindgen::JsCast;
use yew::prelude::*;

pub struct PlaybarProps {
    pub playing: bool,
    pub t: f64,
    /// The slider's ends: the span the reader may play (the whole run by default).
    pub from: f64,
    pub end: f64,
    /// The cursor stands at the span's start, or its end.
    pub at_start: bool,
    pub at_end: bool,
    pub step: usize,
    pub steps: usize,
    pub speed: String,
    pub fenced: bool,
    /// A quiz stop is waiting for an answer the fence switch would give away.
    pub hide_fence: bool,
    /// A recording with no scenario of the model behind it (`Recorded::unmodelled`): its
    /// fence is what its trace shows, and there is no run of it to switch. A player opens
    /// no recording: its build has none of this.
    #[cfg(not(feature = "player"))]
    pub recorded_fence: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    pub has_violation: bool,
    pub on_action: Callback<Action>,
}

fn icon(name: &str) -> Html {
    let d = crate::view::icons::path(name);
    html! { <svg class="control-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d={d} /></svg> }
}

/// A stepping button of class `class`: `control`, or `control notable` for the
/// notable-event jumps, which a short or narrow embed leaves to the keyboard (tools.css;
/// the first paint's copies carry the same class).
fn button(
    class: &'static str,
    label: &str,
    key: &str,
    icon_name: &str,
    disabled: bool,
    action: Action,
    cb: &Callback<Action>,
) -> Html {
    html! {
        <button type="button" {class} aria-label={label.to_string()} title={format!("{label} ({key})")} {disabled}
                onclick={on(cb, action)}>
            { icon(icon_name) }
        </button>
    }
}

fn text_button(label: &str, key: &str, text: &str, action: Action, cb: &Callback<Action>) -> Html {
    html! {
        <button type="button" class="control" aria-label={label.to_string()} title={format!("{label} ({key})")}
                onclick={on(cb, action)}>{ text.to_string() }</button>
    }
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn playbar(p: &PlaybarProps) -> Html {
    // A player opens no recording (`Session::recording_unmodelled`): none of this there.
    #[cfg(not(feature = "player"))]
    let recorded_fence = p.recorded_fence;
    #[cfg(feature = "player")]
    let recorded_fence = false;
    let cb = &p.on_action;
    let (at_start, at_end) = (p.at_start, p.at_end);
    let scrub = {
        let cb = cb.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                let v = i.value_as_number();
                if v.is_finite() {
                    cb.emit(Action::Seek(v));
                }
            }
        })
    };
    let play_label = if p.playing { "Pause" } else { "Play" };
    let toggle = on(cb, Action::TogglePlay);
    let fence = on(cb, Action::ToggleFence);
    html! {
        <div class="controls" role="toolbar" aria-label="Playback">
            <div class="group">
                { button("control", "Jump to start", "Home", "start", at_start, Action::ToStart, cb) }
                { button("control notable", "Previous notable event", "Shift+←", "back-notable", at_start, Action::PrevNotable, cb) }
                { button("control", "Step back", "←", "prev", at_start, Action::StepBack, cb) }
                <button type="button" class="control primary" aria-label={play_label} title={format!("{play_label} (Space)")} onclick={toggle}>
                    { icon(if p.playing { "pause" } else { "play" }) }
                    <span class="control-label">{ play_label }</span>
                </button>
                { button("control", "Step forward", "→", "next", at_end, Action::StepForward, cb) }
                { button("control notable", "Next notable event", "Shift+→", "fwd-notable", at_end, Action::NextNotable, cb) }
                { button("control", "Jump to end", "End", "end", at_end, Action::ToEnd, cb) }
            </div>
            <label class="scrub">
                <span class="sr-only">{ "Time" }</span>
                <input type="range" class="scrubber" aria-label="Time" min={(p.from as i64).to_string()} max={(p.end as i64).to_string()} step="1"
                       value={(p.t as i64).to_string()} aria-valuetext={format!("t = {}, event {} of {}", crate::vocab::numbers::fmt_ms(p.t as i64), p.step, p.steps)} oninput={scrub} />
                <output class="time" aria-hidden="true">{ clock(p.t as i64, p.end as i64) }</output>
            </label>
            <div class="group">
                { text_button("Slower", "[", "−", Action::Slower, cb) }
                <span class="speed" role="status" aria-label={format!("Speed {}", p.speed)}>{ p.speed.clone() }</span>
                { text_button("Faster", "]", "+", Action::Faster, cb) }
            </div>
            <div class="group">
                if p.hide_fence {
                    <button type="button" class="control fence" disabled=true title="Hidden until you answer the question">{ crate::teach::narrate::FENCE_HIDDEN }</button>
                } else if recorded_fence {
                    <button type="button" class="control fence" disabled=true
                            title="This recording names no scenario of the model: its fence is what its trace shows, and there is no model run of it to switch">{ crate::teach::narrate::FENCE_AS_RECORDED }</button>
                } else {
                    <button type="button" class={css(&["control fence", when(p.fenced, "on")])} aria-pressed={p.fenced.to_string()}
                            title="Fencing: storage rejects writes with an older token (F)" onclick={fence}>
                        { crate::teach::narrate::fence_switch(p.fenced) }
                    </button>
                }
                // What a fencing token is, one click (or Enter) beside the switch.
                <details class="primer">
                    <summary class="control" title="What is a fencing token?">
                        <span class="primer-i" aria-hidden="true">{ "i" }</span><span class="sr-only">{ "What is a fencing token?" }</span>
                    </summary>
                    <p class="primer-text" role="note">{ crate::teach::narrate::FENCING_PRIMER }</p>
                </details>
                <button type="button" class="control text" disabled={!p.has_violation} title="Jump to the next violation (V)"
                        onclick={on(cb, Action::NextViolation)}>{ "Next violation" }</button>
                <button type="button" class="control text" disabled={!p.can_undo} title="Undo (Ctrl+Z)"
                        onclick={on(cb, Action::Undo)}>{ "Undo" }</button>
                <button type="button" class="control text" disabled={!p.can_redo} title="Redo (Ctrl+Shift+Z)"
                        onclick={on(cb, Action::Redo)}>{ "Redo" }</button>
            </div>
        </div>
    }
}
