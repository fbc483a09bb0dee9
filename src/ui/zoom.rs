//! The zoom controls under the diagram: Zoom out, Zoom in, Fit, what window is shown, and
//! the overview strip — the whole run in miniature with the window in view marked, which
//! a drag moves and a click centres. The strip shows what has happened by the cursor, as
//! the diagram does: its bars are revealed up to the cursor, so it never draws a run's
//! end before the run reaches it (an interview question's answer among them). What a
//! zoom does to the window is the session's
//! (`session::zoom`); the drawing for a window is the core's (`view::layout::layout`).

use super::css;
use crate::session::zoom::{Window, Zoom, STEP_FACTOR};
use crate::session::{Action, Run};
use crate::view::layout::LEFT;
/// The page's drawing, in the detail it draws.
type Diagram = crate::view::layout::Diagram<crate::session::carries::PageDetail>;
use crate::vocab::numbers::tenths;
use crate::vocab::numbers::within;
use std::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// The strip's height per lane, in its own units.
const ROW: f64 = 6.0;

#[derive(Properties)]
pub struct ZoomProps {
    pub run: Rc<Run>,
    pub zoom: Option<Window>,
    /// The playback cursor (true time, ms): the strip is revealed up to it.
    pub cursor_t: f64,
    pub on_action: Callback<Action>,
}

impl PartialEq for ZoomProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run)
            && self.zoom == o.zoom
            && self.cursor_t == o.cursor_t
            && self.on_action == o.on_action
    }
}

fn n(v: f64) -> String {
    tenths(v)
}

/// Where a pointer is along the strip, as true time (ms).
fn strip_t(e: &PointerEvent, d: &Diagram) -> Option<f64> {
    let el: web_sys::Element = wasm_bindgen::JsCast::dyn_into(e.current_target()?).ok()?;
    let r = el.get_bounding_client_rect();
    (r.width() > 0.0).then(|| {
        let x = (f64::from(e.client_x()) - r.left()) * d.width / r.width();
        d.scale.t(within(x, d.scale.x0, d.scale.x1))
    })
}

#[derive(Properties)]
struct StripProps {
    run: Rc<Run>,
}

impl PartialEq for StripProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run)
    }
}

/// The strip's picture of the whole run: its own component, drawn once per run, so a zoom
/// or a pan (which moves only the marked window) does not compare a long run's thousands
/// of bars again.
#[component]
fn StripBars(props: &StripProps) -> Html {
    let d = &props.run.diagram;
    let row = |y: f64| {
        // The lane of a diagram y, as a row of the strip.
        d.lanes
            .iter()
            .position(|l| (l.y - y).abs() < crate::view::layout::LANE_H / 2.0)
            .map_or(0.0, |i| 2.0 + ROW * i as f64)
    };
    html! {
        <g>
            { for d.bars.iter().map(|b| html! {
                <rect class={css(&["ov", b.tone.class()])} x={n(b.x0)} y={n(row(b.y))} width={n((b.x1 - b.x0).max(1.0))} height={n(ROW - 2.0)} />
            }) }
        </g>
    }
}

#[component]
pub fn ZoomBar(props: &ZoomProps) -> Html {
    let d = &props.run.diagram;
    let end = props.run.end_ms() as i64;
    let w = props.zoom.unwrap_or(Window { from: 0, to: end });
    // A drag of the marked window: where it started (pointer time, window) while held.
    let drag = use_mut_ref(|| Cell::new(None::<(f64, Window)>));
    let cb = &props.on_action;
    let button = |label: &'static str,
                  key: &'static str,
                  text: &'static str,
                  z: Zoom,
                  off: bool| {
        let cb = cb.clone();
        html! {
            <button type="button" class="control zoom" aria-label={label} title={format!("{label} ({key})")} disabled={off}
                    onclick={Callback::from(move |_| cb.emit(Action::Zoom(z)))}>{ text }</button>
        }
    };
    let onpointerdown = {
        let (cb, drag, d) = (cb.clone(), drag.clone(), props.run.clone());
        Callback::from(move |e: PointerEvent| {
            let Some(t) = strip_t(&e, &d.diagram) else {
                return;
            };
            if (w.from as f64..=w.to as f64).contains(&t) {
                // Hold the window to drag it.
                drag.borrow().set(Some((t, w)));
                if let Some(el) = e
                    .current_target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                {
                    let _ = el.set_pointer_capture(e.pointer_id());
                }
            } else {
                // Elsewhere: centre the window there.
                let half = w.span() / 2;
                let t = t as i64;
                cb.emit(Action::Zoom(Zoom::To(t - half, t - half + w.span())));
            }
        })
    };
    let onpointermove = {
        let (cb, drag, d) = (cb.clone(), drag.clone(), props.run.clone());
        Callback::from(move |e: PointerEvent| {
            let Some((t0, w0)) = drag.borrow().get() else {
                return;
            };
            if let Some(t) = strip_t(&e, &d.diagram) {
                let by = (t - t0).round() as i64;
                cb.emit(Action::Zoom(Zoom::To(w0.from + by, w0.to + by)));
            }
        })
    };
    let onpointerup = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| drag.borrow().set(None))
    };
    let height = ROW * d.lanes.len() as f64 + 4.0;
    let (x0, x1) = (d.scale.x(w.from as f64), d.scale.x(w.to as f64));
    let whole = props.zoom.is_none();
    // The reveal's edge, the cursor's x: the bars' picture is clipped there (a bar that
    // starts at the cursor itself, which a waiting question may be about, shows nothing
    // yet) and only the window's outline spans the rest.
    let edge = within(d.scale.x(props.cursor_t), d.scale.x0, d.scale.x1);
    html! {
        <div class="zoom-bar" role="group" aria-label="Zoom">
            { button("Zoom out", "−", "−", Zoom::By { factor: 1.0 / STEP_FACTOR, around: None }, whole) }
            { button("Zoom in", "+", "+", Zoom::By { factor: STEP_FACTOR, around: None }, false) }
            { button("Fit the whole run", "0", "Fit", Zoom::Fit, whole) }
            <span class="zoom-window" aria-live="polite">
                { Window::label(props.zoom, end) }
            </span>
            <svg class="overview" viewBox={format!("{} 0 {} {}", n(LEFT), n(d.width - LEFT), n(height))} preserveAspectRatio="none"
                 // A picture for the pointer: the keyboard zooms with + - 0, and a zoomed
                 // window follows the cursor as the arrows step through the run.
                 aria-hidden="true"
                 {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}>
                <defs>
                    <clipPath id="ov-reveal"><rect x="0" y="0" width={n(edge)} height={n(height)} /></clipPath>
                </defs>
                <g clip-path="url(#ov-reveal)"><StripBars run={props.run.clone()} /></g>
                <rect class="ov-window" x={n(x0)} y="0" width={n((x1 - x0).max(2.0))} height={n(height)} />
            </svg>
        </div>
    }
}
