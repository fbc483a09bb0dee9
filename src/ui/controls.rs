//! The playback toolbar. Every control is disabled until there is a trace to play; the
//! accessible names ("Play", "Step back", "Step forward", "Time") are fixed so tests and
//! screen readers can find them.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
struct ButtonProps {
    /// The accessible name, also shown as text.
    label: AttrValue,
    /// A decorative glyph, hidden from assistive technology.
    glyph: AttrValue,
}

#[component]
fn ToolbarButton(props: &ButtonProps) -> Html {
    html! {
        <button type="button" class="control" aria-label={props.label.clone()} disabled=true>
            <span class="control-glyph" aria-hidden="true">{ props.glyph.clone() }</span>
            <span class="control-label">{ props.label.clone() }</span>
        </button>
    }
}

#[component]
pub fn Controls() -> Html {
    html! {
        <div class="controls" role="toolbar" aria-label="Playback">
            <ToolbarButton label="Step back" glyph={"\u{23ee}\u{fe0e}"} />
            <ToolbarButton label="Play" glyph={"\u{25b6}\u{fe0e}"} />
            <ToolbarButton label="Step forward" glyph={"\u{23ed}\u{fe0e}"} />
            <input type="range" class="scrubber" aria-label="Time"
                   min="0" max="0" step="1" value="0" disabled=true />
        </div>
    }
}
