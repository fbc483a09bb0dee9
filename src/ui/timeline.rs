//! The space-time diagram: one lane per node, true time across, drawn from
//! `layout::Diagram`. The static drawing is its own component keyed by the run's pointer, so
//! it renders once per run; playback only moves the reveal clip, the cursor line and the
//! clock readings, redraws the few labels the cursor is crossing (so none is cut), and
//! shows a screen reader the shapes the cursor has reached and none beyond.

use super::{css, when};
use crate::analysis::projection::step_at_time;
use crate::session::carries::PageDetail;
use crate::session::gesture::Gesture;
use crate::session::zoom::{Window, Zoom};
use crate::session::{Action, Run};
use crate::view::layout::LEFT;
/// The page's drawing, in the detail it draws.
type Diagram = crate::view::layout::Diagram<crate::session::carries::PageDetail>;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::numbers::within;
use crate::vocab::time::Time;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct StaticProps {
    pub run: Rc<Run>,
}

impl PartialEq for StaticProps {
    fn eq(&self, o: &Self) -> bool {
        // A trace is never deep-compared: same run, same drawing.
        Rc::ptr_eq(&self.run, &o.run)
    }
}

#[derive(Properties)]
struct BodyProps {
    diagram: Rc<Diagram>,
}

impl PartialEq for BodyProps {
    fn eq(&self, o: &Self) -> bool {
        // A drawing is never deep-compared: same layout, same markup.
        Rc::ptr_eq(&self.diagram, &o.diagram)
    }
}

fn n(v: f64) -> String {
    crate::vocab::numbers::tenths(v)
}

/// Everything that depends only on the run: the bands, bars, arrows and marks, written as
/// SVG markup by the core's exporter (the same markup "Export SVG" saves), so the page and
/// the export cannot disagree. Rendered once per run and zoom window.
#[component]
fn DiagramBody(props: &BodyProps) -> Html {
    Html::from_html_unchecked(AttrValue::from(
        crate::view::export::svg::diagram_body_in_play(&props.diagram),
    ))
}

/// The number an event's target (or the nearest element around it) carries in `attr`,
/// found by `selector` (`[attr]`): the trace entry of a band or mark under a click
/// (`data-entry`), or which fold of labels it is (`data-fold`).
fn data_of(e: &web_sys::Event, selector: &str, attr: &str) -> Option<usize> {
    let el: web_sys::Element = wasm_bindgen::JsCast::dyn_into(e.target()?).ok()?;
    el.closest(selector)
        .ok()??
        .get_attribute(attr)?
        .parse()
        .ok()
}

#[derive(Properties)]
pub struct TimelineProps {
    pub run: Rc<Run>,
    pub state: Rc<crate::analysis::projection::State>,
    pub cursor_t: f64,
    /// Hide what is at the cursor itself: a quiz holds just before its decisive event,
    /// which may share the cursor's millisecond, and its mark must not give it away.
    pub veil: bool,
    /// The window of true time in view (`None`: the whole run); see `session::zoom`.
    pub zoom: Option<Window>,
    /// A lane to mark: the node an author's beat at the cursor points the reader to.
    #[prop_or_default]
    pub highlight: Option<crate::vocab::ids::NodeId>,
    pub on_action: Callback<Action>,
    /// Told the list of what the reader focused or clicked — a fold of labels ("+3"), a
    /// mark drawn for several events — for the inspector to show; `None` when the drawing
    /// changes (its folds and stacks are gone). The whole app's.
    #[prop_or_default]
    pub on_list: Option<Callback<Option<Rc<crate::view::layout::Listing>>>>,
    /// The `.diagram` box around the timeline, when its parent has it in the page before the
    /// timeline's first render (the page's own diagram): measured then, the first drawing
    /// is laid out at the box's width, where it would otherwise be drawn at the usual width
    /// and drawn again once measured (a second render, and a frame at the wrong width).
    #[prop_or_default]
    pub frame: NodeRef,
}

impl PartialEq for TimelineProps {
    fn eq(&self, o: &Self) -> bool {
        // The projected state is replaced, never mutated: compare it by pointer too.
        // (`frame` is left out: it is read at the first render only, and the page hands a
        // new one with each of its renders.)
        Rc::ptr_eq(&self.run, &o.run)
            && Rc::ptr_eq(&self.state, &o.state)
            && self.cursor_t == o.cursor_t
            && self.veil == o.veil
            && self.zoom == o.zoom
            && self.highlight == o.highlight
            && self.on_action == o.on_action
            && self.on_list == o.on_list
    }
}

/// The drawing for the window in view, `width` units across: the run's own when it is
/// shown whole at the usual width; else laid out again from the run's index (only what the
/// window shows, its labels placed for it and the width).
fn drawing(run: &Run, zoom: Option<Window>, width: f64, lane_h: f64) -> Rc<Diagram> {
    // The first load never zooms (a zoom hands over to the whole app) and opens no span;
    // the links' player draws a link's span, but zooms no further itself.
    let window = zoom
        .filter(|_| !cfg!(feature = "lite"))
        .map(|w| (w.from, w.to));
    if window.is_none() && width == run.diagram.width && lane_h == run.diagram.lane_h {
        return run.diagram.clone();
    }
    // (The first load's lanes are always the usual height: it is never an embed.)
    #[cfg(feature = "lite")]
    let lane_h = crate::view::layout::LANE_H;
    Rc::new(crate::view::layout::layout_rows::<PageDetail>(
        &run.index,
        &run.trace,
        &run.verdict,
        width,
        lane_h,
        window,
    ))
}

#[hook]
fn use_wheel_zoom(svg: NodeRef, s: crate::view::layout::Scale, width: f64, cb: Callback<Action>) {
    // Ctrl + wheel (a trackpad's pinch sends the same) zooms around the pointer;
    // Shift + wheel, or a sideways swipe, pans. A native listener, as the page must
    // not scroll or zoom itself meanwhile (Yew's own wheel listener is passive). The first
    // load draws the whole run: a zoom in there hands over to the whole app (which zooms
    // where the pointer was), and a pan, which has nowhere to go, is left to the page.
    let span = (s.t1 - s.t0).max(1.0);
    use_effect_with((s.t0 as i64, s.t1 as i64, width as i64), move |_| {
        let el = svg.cast::<web_sys::Element>();
        let target = el.clone().map(Into::into);
        let listener = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::WheelEvent)>::new(
            move |e: web_sys::WheelEvent| {
                let Some(el) = &el else { return };
                let r = el.get_bounding_client_rect();
                if r.width() <= 0.0 {
                    return;
                }
                let x = (f64::from(e.client_x()) - r.left()) * width / r.width();
                let (dx, dy) = (e.delta_x(), e.delta_y());
                let zoom = if e.ctrl_key() || e.meta_key() {
                    Zoom::By {
                        factor: within((dy * 0.002).exp(), 0.5, 2.0),
                        around: Some(s.t(x.max(LEFT))),
                    }
                } else if !cfg!(feature = "player") && (e.shift_key() || dx.abs() > dy.abs()) {
                    let by = if dx.abs() > dy.abs() { dx } else { dy };
                    Zoom::Pan((by * span / r.width()).round() as i64)
                } else {
                    return;
                };
                e.prevent_default();
                cb.emit(Action::Zoom(zoom));
            },
        );
        super::hooks::listen(target, "wheel", listener)
    });
}

/// How long a zoom window must hold still before it is laid out anew (see [`Timeline`]).
#[cfg(not(feature = "player"))]
const SETTLE_MS: u32 = 150;

/// The zoom window to draw: `zoom` once it has held still for [`SETTLE_MS`], or at once for
/// a new run. (The whole app's: a player's only window is a link's span, drawn at once.)
#[cfg(not(feature = "player"))]
#[hook]
fn use_settled(run: &Rc<Run>, zoom: Option<Window>) -> Option<Window> {
    let settled = use_state_eq(|| (RunKey(run.clone()), zoom));
    {
        let settled = settled.clone();
        use_effect_with((RunKey(run.clone()), zoom), move |(run, zoom)| {
            let (run, zoom) = (run.clone(), *zoom);
            let mut timer = None;
            if settled.0 != run {
                // A new run, drawn at once at its window: it is the settled one.
                settled.set((run, zoom));
            } else if settled.1 != zoom {
                timer = Some(gloo_timers::callback::Timeout::new(SETTLE_MS, move || {
                    super::bench::settle_started();
                    settled.set((run, zoom));
                }));
            }
            move || drop(timer)
        });
    }
    if settled.0 == RunKey(run.clone()) {
        settled.1
    } else {
        zoom
    }
}

/// Shows each shape of the drawing the edge has reached (in the drawing's units) and hides
/// the rest from a screen reader and from the page's text, as the reveal's clip hides them
/// from the eye: the clip leaves the rest of the run in the page, and a question's answer
/// must not be heard before it is given. A shape is reached where it begins
/// (`svg::shape_starts`); a fold of labels ("+3"), at its moment (once every label it
/// stands for could be seen), and it then also joins the tab order and the screen
/// reader's buttons. Only what the edge crossed since the last render is touched (a new
/// drawing is set whole). The starts are counted by a pass over them on each render
/// rather than sorted once: a pass over a few thousand numbers costs a frame
/// microseconds, where a sort's code cost the links' player 0.5 KB gzip. After a settled
/// zoom window's drawing, tells the benchmark hooks (`super::bench::settle_drawn`).
#[cfg(not(feature = "lite"))]
#[hook]
fn use_reached_shown(svg: &NodeRef, drawn: &Rc<Diagram>, edge: f64) {
    let key = Rc::as_ptr(drawn) as usize;
    // The body's children in order: its shapes, then its folds; and how many are shapes.
    let order = use_memo(key, |_| {
        let mut starts = crate::view::export::svg::shape_starts(&**drawn);
        let shapes = starts.len();
        starts.extend(drawn.folds.iter().map(|f| f.label.at));
        (starts, shapes)
    });
    let reached = order.0.iter().filter(|&&x| x <= edge).count();
    // The drawing and the edge last set.
    let set = use_mut_ref(|| (0usize, f64::NAN));
    let svg = svg.clone();
    use_effect_with((key, reached), move |_| {
        // No zoom window settles in a player: its only window is a link's span.
        #[cfg(not(feature = "player"))]
        super::bench::settle_drawn();
        let Some(kids) = svg
            .cast::<web_sys::Element>()
            .and_then(|root| root.query_selector_all("g.body > *").ok())
        else {
            return;
        };
        let mut last = set.borrow_mut();
        let whole = last.0 != key;
        let (starts, shapes) = &*order;
        for (i, &x) in (0..).zip(starts.iter()) {
            let shown = x <= edge;
            if !whole && shown == (x <= last.1) {
                continue;
            }
            let Some(el) = kids
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            else {
                continue;
            };
            let fold = i as usize >= *shapes;
            if shown {
                let _ = el.remove_attribute("visibility");
                if fold {
                    let _ = el.set_attribute("tabindex", "0");
                    let _ = el.remove_attribute("aria-hidden");
                }
            } else {
                let _ = el.set_attribute("visibility", "hidden");
                if fold {
                    let _ = el.remove_attribute("tabindex");
                    let _ = el.set_attribute("aria-hidden", "true");
                }
            }
        }
        *last = (key, edge);
    });
}

/// Gives each shape that spans time the hover text true at the edge (in the drawing's
/// units; see `Diagram::told`): while the cursor is inside a lease, a pause or a message
/// on its way, its start and never its end. The drawing in play comes with the open texts;
/// they change only when the edge passes some shape's end, so the number of ended shapes
/// is the key.
#[cfg(not(feature = "lite"))]
#[hook]
fn use_told(svg: &NodeRef, drawn: &Rc<Diagram>, edge: f64) {
    let ended = drawn.told().iter().filter(|t| t.until <= edge).count();
    let (svg, drawn) = (svg.clone(), drawn.clone());
    use_effect_with((Rc::as_ptr(&drawn) as usize, ended), move |_| {
        let Some(root) = svg.cast::<web_sys::Element>() else {
            return;
        };
        let Ok(list) = root.query_selector_all("title[data-told]") else {
            return;
        };
        let told = drawn.told();
        for i in 0..list.length() {
            let Some(el) = list
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            else {
                continue;
            };
            let k: Option<usize> = el.get_attribute("data-told").and_then(|v| v.parse().ok());
            if let Some(t) = k.and_then(|k| told.get(k)) {
                let text = t.at(edge);
                if el.text_content().as_deref() != Some(text) {
                    el.set_text_content(Some(text));
                }
            }
        }
    });
}

/// A run as a memo key: by identity, never deep-compared.
#[derive(Clone)]
struct RunKey(Rc<Run>);

impl PartialEq for RunKey {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

/// Converts a pointer event's x to the diagram's x (the svg scales with its container).
fn svg_x(e: &MouseEvent, width: f64) -> Option<f64> {
    let target = e.current_target()?;
    let el: web_sys::Element = wasm_bindgen::JsCast::dyn_into(target).ok()?;
    let r = el.get_bounding_client_rect();
    (r.width() > 0.0).then(|| (f64::from(e.client_x()) - r.left()) * width / r.width())
}

/// The width to lay a drawing out at in the `.diagram` box `b`: the box's, as
/// `layout::fitted_width` turns it into the drawing's in the page's detail (so it never
/// scrolls sideways, the whole run is in view, and its text stays 11 px), in an embed and
/// on a page alike.
fn fit_in(b: &web_sys::Element) -> Option<f64> {
    let px = f64::from(b.client_width());
    Some(crate::view::layout::fitted_width::<
        crate::session::carries::PageDetail,
    >(px))
}

/// An embed's lane height: as tall as its drawing's frame `f` has room for, for `lanes`
/// lanes laid out `fit` units wide (`layout::lane_height_for`), so that every lane is in
/// view however short the course page made the frame; `None` outside an embed, whose
/// page scrolls instead, or before the frame is measured. (The embed's stylesheet gives
/// the frame its height from the room the page leaves it, not from the drawing's, so
/// shorter lanes never make the frame shorter in turn.)
/// Returns the lane height and the frame's least height in CSS pixels: its lanes at their
/// shortest, below which the frame scrolls rather than be squeezed by the text below it.
#[cfg(not(feature = "lite"))]
fn rows_in(f: &web_sys::Element, fit: f64, lanes: usize) -> Option<(i64, i64)> {
    use crate::view::layout::{lane_height_for, BOTTOM, LANE_H_MIN, TOP};
    f.closest(".embed").ok().flatten()?;
    let (w, h) = (f64::from(f.client_width()), f64::from(f.client_height()));
    let least = (TOP + LANE_H_MIN * lanes as f64 + BOTTOM) * w / fit;
    // A frame squeezed to nothing by the text around it still gets its least height (and
    // the shortest lanes), or it would stay at nothing.
    let lane_h = if h > 0.0 {
        lane_height_for(lanes, h * fit / w)
    } else {
        LANE_H_MIN
    };
    (w > 0.0).then(|| (lane_h as i64, least.ceil() as i64))
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    // (`use_state_eq`: setting the value it holds renders nothing.)
    let hover = use_state_eq(|| None::<f64>);
    let svg = use_node_ref();
    // The width the drawing is laid out at (see [`fit_in`]): measured before the first
    // render when the parent's box is already in the page ([`TimelineProps::frame`]), so
    // the first drawing is the right one; measured again once mounted (a box read before
    // the rest of the page was drawn may have changed since: a scrollbar came) and
    // whenever the window is resized, and drawn again only if it changed. (An
    // `Option<f64>` state, as the hover's is: one instantiation of it for both.)
    let fit = {
        let frame = props.frame.clone();
        use_state_eq(move || frame.cast::<web_sys::Element>().and_then(|b| fit_in(&b)))
    };
    {
        let (fit, svg) = (fit.clone(), svg.clone());
        use_effect_with((), move |_| {
            let measure = move || {
                let scroller = svg
                    .cast::<web_sys::Element>()
                    .and_then(|e| e.closest(".diagram").ok().flatten());
                if let Some(w) = scroller.and_then(|b| fit_in(&b)) {
                    fit.set(Some(w));
                }
            };
            measure();
            let listener = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(measure);
            super::hooks::listen(web_sys::window().map(Into::into), "resize", listener)
        });
    }
    let fit = fit.unwrap_or(crate::view::layout::DIAGRAM_WIDTH);
    // An embed's lanes, as tall as its frame has room for ([`rows_in`]): measured whenever
    // the frame changes size — the course page resizing the iframe, or the walkthrough
    // below the drawing growing or shrinking as its beat changes — and for each run's
    // number of lanes.
    let frame = use_node_ref();
    #[cfg(not(feature = "lite"))]
    let lane_h = {
        let rows = use_state_eq(|| None::<(i64, i64)>);
        let lanes = props.run.trace.nodes.len();
        {
            let (rows, frame) = (rows.clone(), frame.clone());
            use_effect_with((lanes, fit as i64), move |&(lanes, _)| {
                let measure = {
                    let frame = frame.clone();
                    move || {
                        if let Some(f) = frame.cast::<web_sys::Element>() {
                            rows.set(rows_in(&f, fit, lanes));
                        }
                    }
                };
                measure();
                let observer = super::hooks::on_resize(frame.cast::<web_sys::Element>(), measure);
                move || drop(observer)
            });
        }
        (
            rows.map_or(crate::view::layout::LANE_H, |(h, _)| h as f64),
            rows.map(|(_, least)| format!("min-height:{least}px")),
        )
    };
    #[cfg(not(feature = "lite"))]
    let (lane_h, least) = lane_h;
    #[cfg(feature = "lite")]
    let (lane_h, least) = (crate::view::layout::LANE_H, None::<String>);
    // The window drawn: the one asked for, once it has held still for [`SETTLE_MS`]
    // (the whole app's zoom); until then the last drawing stands in, moved and stretched
    // onto the new window by one transform, so a wheel turn, a drag or a key held down
    // costs a frame no new shapes (a wide window of a long run is a few thousand).
    // A new run is drawn at once.
    #[cfg(not(feature = "player"))]
    let shown = use_settled(&props.run, props.zoom);
    #[cfg(feature = "player")]
    let shown = props.zoom;
    // The run's own drawing when it is shown whole at the usual width; laid out again for
    // a zoom window or a narrow box (only what the window shows, its labels placed for it),
    // once per window and width.
    let drawn = {
        let run = props.run.clone();
        use_memo(
            (RunKey(props.run.clone()), shown, fit as i64, lane_h as i64),
            move |(_, zoom, _, _)| drawing(&run, *zoom, fit, lane_h),
        )
    };
    let d: &Diagram = &drawn;
    // The window in view (which the axis, the cursor and the pointer read) and, while the
    // drawing is of another, the transform that carries it there.
    // (A player's only window, a link's span, is drawn at once: no stand-in.)
    #[cfg(feature = "player")]
    let s = d.scale;
    #[cfg(not(feature = "player"))]
    let (s, stretch) = if shown == props.zoom {
        (d.scale, None)
    } else {
        let w = props.zoom.map(|w| (w.from, w.to));
        let s = crate::view::layout::scale_of(props.run.trace.end.0, d.width, w);
        let (a, b) = d.scale.onto(&s);
        // (Integer formatting: no float formatter in the wasm for this.)
        let fixed = |v: f64| crate::vocab::numbers::decimal((v * 1e6).round() as i64, 6);
        (
            s,
            Some(format!("matrix({} 0 0 1 {} 0)", fixed(a), fixed(b))),
        )
    };
    let cx = within(s.x(props.cursor_t), s.x0, s.x1);
    let width = d.width;
    // A fold of labels focused, clicked or pressed (Enter, Space) shows its list in the
    // inspector, as a click on a mark drawn for several events does; a new drawing (run,
    // window, width) has new folds and stacks, so the list goes.
    #[cfg(not(feature = "lite"))]
    let show_fold = {
        let (cb, drawn) = (props.on_list.clone(), drawn.clone());
        move |e: &web_sys::Event| -> bool {
            let Some(k) = data_of(e, "[data-fold]", "data-fold") else {
                return false;
            };
            if let Some(cb) = &cb {
                cb.emit(drawn.fold_listing(k).map(Rc::new));
            }
            true
        }
    };
    // A click on a mark drawn for several events lists them and goes to the last of them
    // (where the mark stands: every event it is drawn for has happened).
    #[cfg(not(feature = "lite"))]
    let show_stack = {
        let (cb, drawn, act) = (
            props.on_list.clone(),
            drawn.clone(),
            props.on_action.clone(),
        );
        move |e: &web_sys::Event| -> bool {
            let Some(k) = data_of(e, "[data-stack]", "data-stack") else {
                return false;
            };
            let (Some(m), Some(last)) = (drawn.marks.get(k), drawn.stack_end(k)) else {
                return false;
            };
            if let Some(cb) = &cb {
                cb.emit(drawn.stack_listing(k, m.x + 0.5).map(Rc::new));
            }
            act.emit(Action::SeekEntry(last));
            true
        }
    };
    #[cfg(not(feature = "lite"))]
    {
        let cb = props.on_list.clone();
        use_effect_with((RunKey(props.run.clone()), shown, fit as i64), move |_| {
            if let Some(cb) = cb {
                cb.emit(None);
            }
        });
    }
    #[cfg(not(feature = "lite"))]
    let (onfocusin, onkeydown) = {
        let show = show_fold.clone();
        let onfocusin = Callback::from(move |e: FocusEvent| {
            show(&e);
        });
        let show = show_fold.clone();
        let onkeydown = Callback::from(move |e: KeyboardEvent| {
            if matches!(e.key().as_str(), "Enter" | " ") && show(&e) {
                e.prevent_default();
            }
        });
        (Some(onfocusin), Some(onkeydown))
    };
    #[cfg(feature = "lite")]
    let (onfocusin, onkeydown) = (
        None::<Callback<FocusEvent>>,
        None::<Callback<KeyboardEvent>>,
    );
    let gesture = use_mut_ref(Gesture::default);
    use_wheel_zoom(svg.clone(), s, width, props.on_action.clone());
    // Drag to pan, pinch to zoom, double-click to fit. The links' player draws the whole
    // run, so its pinch hands the page over with the zoom asked for (the latest, if it
    // goes on while the whole app loads); the first load, kept small, has none of it.
    #[cfg(not(feature = "lite"))]
    let (onpointerdown, onpointermove, onpointerup, ondblclick) = {
        let onpointerdown = {
            let gesture = gesture.clone();
            Callback::from(move |e: PointerEvent| {
                if let Some(x) = svg_x(&e, width) {
                    gesture.borrow_mut().down(e.pointer_id(), x);
                }
            })
        };
        let onpointermove = {
            let (gesture, cb) = (gesture.clone(), props.on_action.clone());
            let zoomed = props.zoom.is_some();
            Callback::from(move |e: PointerEvent| {
                let Some(x) = svg_x(&e, width) else { return };
                if let Some(z) = gesture.borrow_mut().moved(e.pointer_id(), x, &s, zoomed) {
                    cb.emit(Action::Zoom(z));
                }
            })
        };
        let onpointerup = {
            let gesture = gesture.clone();
            Callback::from(move |e: PointerEvent| gesture.borrow_mut().up(e.pointer_id()))
        };
        let ondblclick = super::on(&props.on_action, Action::Zoom(Zoom::Fit));
        (
            Some(onpointerdown),
            Some(onpointermove),
            Some(onpointerup),
            Some(ondblclick),
        )
    };
    #[cfg(feature = "lite")]
    let (onpointerdown, onpointermove, onpointerup, ondblclick) = (
        None::<Callback<PointerEvent>>,
        None::<Callback<PointerEvent>>,
        None::<Callback<PointerEvent>>,
        None::<Callback<MouseEvent>>,
    );
    let onclick = {
        let cb = props.on_action.clone();
        let gesture = gesture.clone();
        Callback::from(move |e: MouseEvent| {
            // The click that ends a drag or a pinch is not a click on the diagram.
            if gesture.borrow_mut().take_dragged() {
                return;
            }
            #[cfg(not(feature = "lite"))]
            if show_fold(&e) || show_stack(&e) {
                return;
            }
            if let Some(entry) = data_of(&e, "[data-entry]", "data-entry") {
                // A band or a mark: jump to its event.
                cb.emit(Action::SeekEntry(entry));
            } else if let Some(x) = svg_x(&e, width) {
                if x >= LEFT {
                    cb.emit(Action::Seek(s.t(x).max(0.0)));
                }
            }
        })
    };
    let onmousemove = {
        let hover = hover.clone();
        Callback::from(move |e: MouseEvent| {
            hover.set(svg_x(&e, width).filter(|x| *x >= LEFT).map(|x| s.t(x)))
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let cursor_t = Time(props.cursor_t as i64);
    // While hovering, each lane shows its node's own clock at the pointer, beside the line:
    // the projection's clocks at that time, as the cursor's readings are.
    let hover_readings = |t: f64| {
        let x = s.x(t);
        let anchor_end = x > d.width - 150.0;
        let tt = Time(t as i64);
        let at = props.run.state_at(step_at_time(&props.run.trace, tt));
        html! {
            <g class="hover">
                <line x1={n(x)} y1="18" x2={n(x)} y2={n(d.height - 8.0)} />
                { for d.lanes.iter().map(|l| {
                    let local = at.local(l.node, tt);
                    html! {
                        <text class="clock-reading" x={n(if anchor_end { x - 5.0 } else { x + 5.0 })} y={n(l.y - d.lane_h / 2.0 + 12.0)}
                              text-anchor={if anchor_end { "end" } else { "start" }}>
                            { fmt_ms(local) }
                        </text>
                    }
                }) }
            </g>
        }
    };
    // The drawing is revealed up to `edge`; a label that starts before it and runs past it
    // is drawn once more, beyond the edge only, so it reads whole ("two believers", not
    // "two believ") and nothing is drawn twice; a label placed left of the moment it tells
    // of is drawn whole once the edge reaches that moment (`Diagram::labels_at`).
    let edge = if props.veil { cx - 9.0 } else { cx + 0.5 };
    // (None while a stand-in drawing is stretched: its labels are where it puts them.)
    #[cfg(feature = "player")]
    let crossed = d.labels_at(edge);
    #[cfg(not(feature = "player"))]
    let crossed = if stretch.is_none() {
        d.labels_at(edge)
    } else {
        Vec::new()
    };
    let text = |c: &crate::view::layout::LabelAcross| {
        html! {
            <text class={when(c.alarm, "alarm")} x={n(c.label.x)} y={n(c.label.y)}>{ c.label.text.clone() }</text>
        }
    };
    let across = html! {
        <>
            <g class="across" clip-path="url(#across)">
                { for crossed.iter().filter(|c| !c.whole).map(text) }
            </g>
            <g class="across whole">
                { for crossed.iter().filter(|c| c.whole).map(|c| html! {
                    <>
                        if let Some((x0, y0, x1, y1)) = c.label.leader {
                            <line class="leader" x1={n(x0)} y1={n(y0)} x2={n(x1)} y2={n(y1)} />
                        }
                        { text(c) }
                    </>
                }) }
            </g>
        </>
    };
    // The axis of the window in view (the stand-in drawing's own is of its window).
    #[cfg(not(feature = "player"))]
    let own;
    #[cfg(not(feature = "player"))]
    let ticks: &[crate::view::layout::Tick] = if stretch.is_none() {
        &d.ticks
    } else {
        own = crate::view::layout::ticks_with::<PageDetail>(&s);
        &own
    };
    #[cfg(feature = "player")]
    let ticks = &d.ticks;
    #[cfg(not(feature = "lite"))]
    {
        use_reached_shown(&svg, &drawn, d.scale.x(s.t(edge)));
        use_told(&svg, &drawn, d.scale.x(s.t(edge)));
    }
    #[cfg(not(feature = "lite"))]
    let natural = Some(n(crate::view::layout::TOP
        + crate::view::layout::LANE_H * d.lanes.len() as f64
        + crate::view::layout::BOTTOM));
    #[cfg(feature = "lite")]
    let natural = None::<String>;
    let body = html! { <DiagramBody diagram={(*drawn).clone()} /> };
    #[cfg(not(feature = "player"))]
    let body = html! { <g transform={stretch}>{ body }</g> };
    let label = format!(
        "Space-time diagram of {} nodes; cursor at {}",
        d.lanes.len(),
        Time(props.cursor_t as i64)
    );
    // The lanes' names and their clocks at the cursor sit in a narrow strip of their own
    // over the drawing's left margin (sticky, like a spreadsheet's frozen first column,
    // should the box ever scroll sideways: the drawing is laid out to fit it).
    let names = html! {
        <svg class="lane-names" aria-hidden="true" viewBox={format!("0 0 {} {}", n(LEFT), n(d.height))}
             width={format!("{}%", n(LEFT * 100.0 / d.width))}>
            <rect class="shade" x="0" y="20" width={n(LEFT)} height={n(d.height - 20.0)} />
            { for d.lanes.iter().map(|l| html! {
                <>
                    <text class={css(&["lane-name", when(props.highlight == Some(l.node), "highlighted")])} x="8" y={n(l.y - 2.0)}>{ l.label }</text>
                    // The node's own clock at the cursor, where no drawing can cover it.
                    <text class="clock-reading" x="8" y={n(d.clock_y(l))}>
                        { format!("clock {}", fmt_ms(props.state.local(l.node, cursor_t))) }
                    </text>
                </>
            }) }
        </svg>
    };
    html! {
        <div ref={frame} class="timeline-frame" style={least}>
        { names }
        // (`data-natural`: the drawing's height with lanes of the usual height, in its own
        // units, from which an embed tells its host the height it would like: `host.rs`.)
        <svg ref={svg} class="timeline" viewBox={format!("0 0 {} {}", n(d.width), n(d.height))} role="img" aria-label={label}
             data-natural={natural}
             {onclick} {onmousemove} {onmouseleave} {ondblclick} {onpointerdown} {onpointermove} {onfocusin} {onkeydown}
             onpointerup={onpointerup.clone()} onpointercancel={onpointerup}>
            <defs>
                <clipPath id="reveal"><rect x="0" y="0" width={n(edge)} height={n(d.height)} /></clipPath>
                <clipPath id="across"><rect x={n(edge)} y="0" width={n((d.width - edge).max(0.0))} height={n(d.height)} /></clipPath>
                <marker id="arrow-end" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0 0L10 5L0 10z" class="arrowhead" />
                </marker>
                <marker id="x-end" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8">
                    <path d="M1 1L9 9M9 1L1 9" class="x-head" />
                </marker>
            </defs>
            <g class="axis">
                { for ticks.iter().map(|t| html! {
                    <g>
                        <line x1={n(t.x)} y1="20" x2={n(t.x)} y2={n(d.height - 8.0)} />
                        <text x={n(t.x)} y="14">{ t.label.clone() }</text>
                    </g>
                }) }
            </g>
            { for d.lanes.iter().map(|l| html! {
                <g class={css(&["lane", when(l.node.is_client(), "client"), when(props.highlight == Some(l.node), "highlighted")])}>
                    <line x1={n(LEFT)} y1={n(l.y)} x2={n(s.x1)} y2={n(l.y)} />
                </g>
            }) }
            <g clip-path="url(#reveal)">
                { body }
            </g>
            { across }
            <line class="cursor" x1={n(cx)} y1="18" x2={n(cx)} y2={n(d.height - 8.0)} />
            if let Some(h) = *hover {
                { hover_readings(h) }
            }
        </svg>
        </div>
    }
}
