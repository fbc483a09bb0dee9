//! The playback toolbar. Every control is disabled until there is a trace to play; the
//! accessible names ("Play", "Step back", "Step forward", "Time") are fixed so tests and
//! screen readers can find them.

use yew::prelude::*;

const ICON_STEP_BACK: &str = "M3 3h2v10H3zM13 3 6 8l7 5z";
const ICON_PLAY: &str = "M4 2.5v11L13 8z";
const ICON_STEP_FORWARD: &str = "M11 3h2v10h-2zM3 3l7 5-7 5z";

#[derive(Properties, PartialEq)]
struct ButtonProps {
    /// The accessible name, also shown as text.
    label: AttrValue,
    /// Path data of a decorative 16×16 icon, hidden from assistive technology. Icons are
    /// inline SVG rather than Unicode symbols because many system fonts lack ⏮ and ⏭.
    icon: AttrValue,
}

#[component]
fn ToolbarButton(props: &ButtonProps) -> Html {
    html! {
        <button type="button" class="control" aria-label={props.label.clone()} disabled=true>
            <svg class="control-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                <path d={props.icon.clone()} />
            </svg>
            <span class="control-label">{ props.label.clone() }</span>
        </button>
    }
}

#[component]
pub fn Controls() -> Html {
    html! {
        <div class="controls" role="toolbar" aria-label="Playback">
            <ToolbarButton label="Step back" icon={ICON_STEP_BACK} />
            <ToolbarButton label="Play" icon={ICON_PLAY} />
            <ToolbarButton label="Step forward" icon={ICON_STEP_FORWARD} />
            <input type="range" class="scrubber" aria-label="Time"
                   min="0" max="0" step="1" value="0" disabled=true />
        </div>
    }
}
