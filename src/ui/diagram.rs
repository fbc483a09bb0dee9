//! The space-time diagram area. Empty for now: once a scenario runs, it will draw geometry
//! precomputed by the (browser-free) layout module — one lifeline per node, time flowing
//! down, messages as arrows between lifelines.

use yew::prelude::*;

/// The drawing's coordinate system. The svg scales to its container; these only fix the
/// aspect ratio the layout will target.
const VIEW_WIDTH: u32 = 800;
const VIEW_HEIGHT: u32 = 420;

#[component]
pub fn Diagram() -> Html {
    let view_box = format!("0 0 {VIEW_WIDTH} {VIEW_HEIGHT}");
    html! {
        <section class="diagram" aria-label="Space-time diagram">
            <svg class="diagram-canvas" viewBox={view_box} role="img"
                 aria-label="Empty diagram: no scenario has run yet"
                 preserveAspectRatio="xMidYMid meet" />
            <p class="diagram-empty">{ "No scenario has run yet." }</p>
        </section>
    }
}
