//! The "Legend" disclosure beside the diagram: a native `<details>` whose summary opens a
//! small panel saying what each shape in this run's diagram means (the `<details>` is the
//! page's, `panels::panel_details`, open as the session says).
//!
//! The rows are the core's table ([`crate::view::legend`]), limited to the shapes this
//! diagram draws, and each sample is the core's SVG of that shape with the diagram's own
//! classes, so the page's stylesheet colours it exactly as it colours the diagram (in both
//! themes). Escape inside it closes it and gives the focus back to its summary.

// The timeline's props: the run alone, compared by pointer (no render per frame).
use super::timeline::StaticProps;
use crate::view::export::svg::{swatch, SWATCH_H, SWATCH_W};
use crate::view::legend::used;
use crate::vocab::numbers::tenths;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Escape in an open legend closes it, leaving the focus on its summary.
pub(super) fn close_on_escape(e: KeyboardEvent) {
    // Yew delegates events to the page's root, so the `<details>` is found from the target.
    let Some(details) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("details.legend").ok().flatten())
    else {
        return;
    };
    if e.key() != "Escape" || !details.has_attribute("open") {
        return;
    }
    e.stop_propagation();
    let _ = details.remove_attribute("open");
    let summary = details.query_selector("summary").ok().flatten();
    if let Some(s) = summary.and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = s.focus();
    }
}

#[component]
pub fn Legend(props: &StaticProps) -> Html {
    let (w, h) = (tenths(SWATCH_W), tenths(SWATCH_H));
    let view_box = format!("0 0 {w} {h}");
    html! {
            <section class="legend-panel" aria-label="Legend">
                <ul>
                    { for used(&props.run.diagram).into_iter().map(|e| html! {
                        <li>
                            <svg class="swatch" viewBox={view_box.clone()} width={w.clone()} height={h.clone()} aria-hidden="true">
                                { Html::from_html_unchecked(AttrValue::from(swatch(e.swatch, e.name))) }
                            </svg>
                            <span><strong>{ e.name }</strong>{ " " }{ e.meaning }</span>
                        </li>
                    }) }
                </ul>
            </section>
    }
}
