//! What the browser benchmarks read from the page, in one place: the cost of each frame
//! (`window.leaselineFrames`, from a tick or a zoom's redraw to after the render) and of
//! each settled zoom window (`window.leaselineSettles`, from the window settling to its
//! drawing being on screen). `tests/e2e/bench-frames.mjs` reads both. Nothing else in the
//! page reads them; a page no benchmark drives only appends numbers to two arrays.

use std::cell::Cell;
use wasm_bindgen::JsCast;

thread_local! {
    /// When the current frame's tick (or a zoom's redraw) began (performance.now()).
    static TICK_START: Cell<Option<f64>> = const { Cell::new(None) };
    /// When a settled zoom window began to be laid out.
    static SETTLING: Cell<Option<f64>> = const { Cell::new(None) };
}

/// The page's clock (`performance.now()`, ms), or 0 where there is none.
pub(super) fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// At most this many samples are kept of each, so a long session cannot grow them unbounded.
const KEPT: u32 = 20_000;

/// Appends `ms` to `window[key]`, creating the array on first use.
fn sample(key: &str, ms: f64) {
    let Some(w) = web_sys::window() else { return };
    let key = wasm_bindgen::JsValue::from_str(key);
    let arr = match js_sys::Reflect::get(&w, &key)
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
    {
        Some(a) => a,
        None => {
            let a = js_sys::Array::new();
            let _ = js_sys::Reflect::set(&w, &key, &a);
            a
        }
    };
    if arr.length() < KEPT {
        arr.push(&wasm_bindgen::JsValue::from_f64(ms));
    }
}

/// A frame's tick is being dispatched.
pub fn frame_started() {
    TICK_START.with(|t| t.set(Some(now())));
}

/// A zoom or a pan asked for a redraw: its cost, from here to after the render, is sampled
/// as a frame's is (the benchmark zooms and pans a long run).
#[cfg(not(feature = "player"))]
pub fn redraw_asked() {
    TICK_START.with(|t| {
        if t.get().is_none() {
            t.set(Some(now()));
        }
    });
}

/// After a render caused by a frame tick (or a zoom, [`redraw_asked`]): records how long
/// tick and render took.
pub fn sample_frame_cost() {
    if let Some(start) = TICK_START.with(|t| t.take()) {
        sample("leaselineFrames", now() - start);
    }
}

/// A zoom window held still and is about to be laid out anew.
#[cfg(not(feature = "player"))]
pub fn settle_started() {
    SETTLING.with(|s| s.set(Some(now())));
}

/// The settled window's drawing is on screen: records how long it took.
#[cfg(not(feature = "player"))]
pub fn settle_drawn() {
    if let Some(start) = SETTLING.with(|s| s.take()) {
        sample("leaselineSettles", now() - start);
    }
}
