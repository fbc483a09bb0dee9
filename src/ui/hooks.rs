//! Browser plumbing as hooks: the animation-frame loop, keyboard shortcuts, the page's
//! visibility and the reduced-motion preference (the frame-cost samples the benchmarks
//! read are `super::bench`'s).
//!
//! The frame loop requests an animation frame only while playing: paused, finished or in a
//! hidden tab, nothing is scheduled, so an idle page costs no CPU (CPU use is a known
//! complaint against RaftScope).

use crate::session::zoom::{Zoom, STEP_FACTOR};
use crate::session::Action;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

struct FrameLoop {
    running: bool,
    pending: Option<i32>,
    closure: Option<Closure<dyn FnMut(f64)>>,
}

fn request(lp: &FrameLoop) -> Option<i32> {
    let c = lp.closure.as_ref()?;
    web_sys::window()?
        .request_animation_frame(c.as_ref().unchecked_ref())
        .ok()
}

pub(super) use super::bench::now;

/// Calls `on_frame(timestamp)` once per animation frame while `running` is true, and
/// schedules nothing otherwise. `on_frame` must be stable (a reducer's dispatcher is).
#[hook]
pub fn use_frames(running: bool, on_frame: Callback<f64>) {
    let lp = use_mut_ref(|| FrameLoop {
        running: false,
        pending: None,
        closure: None,
    });
    if lp.borrow().closure.is_none() {
        // The closure holds only a weak reference to its own cell: no cycle, and it is
        // dropped with the component, never while it runs.
        let weak: Weak<RefCell<FrameLoop>> = Rc::downgrade(&lp);
        let c = Closure::<dyn FnMut(f64)>::new(move |ts: f64| {
            let Some(cell) = weak.upgrade() else { return };
            let go = {
                let mut l = cell.borrow_mut();
                l.pending = None;
                l.running
            };
            if !go {
                return;
            }
            super::bench::frame_started();
            on_frame.emit(ts);
            let mut l = cell.borrow_mut();
            if l.running && l.pending.is_none() {
                l.pending = request(&l);
            }
        });
        lp.borrow_mut().closure = Some(c);
    }
    {
        let lp = lp.clone();
        use_effect_with(running, move |&running| {
            let mut l = lp.borrow_mut();
            l.running = running;
            if running && l.pending.is_none() {
                l.pending = request(&l);
            }
            if !running {
                if let (Some(id), Some(w)) = (l.pending.take(), web_sys::window()) {
                    let _ = w.cancel_animation_frame(id);
                }
            }
        });
    }
    use_effect_with((), move |_| {
        move || {
            let mut l = lp.borrow_mut();
            l.running = false;
            if let (Some(id), Some(w)) = (l.pending.take(), web_sys::window()) {
                let _ = w.cancel_animation_frame(id);
            }
        }
    });
}

/// Listens for `event` on `target` and returns the clean-up that stops listening and frees
/// the closure: what an effect returns, so nothing outlives the component.
pub(super) fn listen<T: ?Sized>(
    target: Option<web_sys::EventTarget>,
    event: &'static str,
    listener: Closure<T>,
) -> impl FnOnce() {
    if let Some(t) = &target {
        let _ = t.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
    }
    move || {
        if let Some(t) = target {
            let _ = t.remove_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
        }
        drop(listener);
    }
}

/// Calls `f` whenever `el` changes size (and once when it is first observed), until the
/// returned observer is dropped. A `ResizeObserver`: it hears a box that grows because
/// something beside it shrank, which the window's `resize` event does not.
#[cfg(not(feature = "lite"))]
pub(super) fn on_resize(el: Option<web_sys::Element>, f: impl Fn() + 'static) -> Option<Observed> {
    let el = el?;
    let callback = Closure::<dyn Fn()>::new(f);
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(&el);
    Some(Observed {
        observer,
        _callback: callback,
    })
}

/// A live [`on_resize`]: dropping it stops observing and frees the callback.
#[cfg(not(feature = "lite"))]
pub(super) struct Observed {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn Fn()>,
}

#[cfg(not(feature = "lite"))]
impl Drop for Observed {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

fn is_field(target: Option<web_sys::EventTarget>) -> (bool, bool) {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return (false, false);
    };
    let tag = el.tag_name().to_ascii_lowercase();
    let text_like = matches!(tag.as_str(), "input" | "select" | "textarea");
    (
        text_like,
        tag == "button" || el.get_attribute("role").as_deref() == Some("button"),
    )
}

/// Whether the window is narrow enough for the narrow stage (`ui::stage`): at most 448 CSS
/// pixels wide, where the usual stage, scaled to its box, would draw its words below
/// 10 px (7 px on a 320 px phone).
fn narrow_now() -> bool {
    matches("(max-width: 448px)")
}

/// Whether the media query `q` matches now (the one reader of `matchMedia`, whose binding
/// every build already carries for the reduced-motion preference).
fn matches(q: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(q).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// [`narrow_now`], following the window as it is resized or turned.
#[cfg(not(feature = "lite"))]
#[hook]
pub fn use_narrow_stage() -> bool {
    let narrow = use_state_eq(narrow_now);
    {
        let set = narrow.setter();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn Fn()>::new(move || set.set(narrow_now()));
            listen(web_sys::window().map(Into::into), "resize", listener)
        });
    }
    *narrow
}

/// The first load reads the window's width at each render, with no listener of its own
/// (which would cost it most of a kilobyte): it renders on every frame of play and on every
/// action, so a turned phone gets its stage at the next one. (A hook in every build, since
/// Yew's component macro cannot take a hook call under `cfg`.)
#[cfg(feature = "lite")]
#[hook]
pub fn use_narrow_stage() -> bool {
    narrow_now()
}

/// Global keyboard shortcuts. Keys typed into a field, and Space on a button, keep their
/// usual meaning.
#[hook]
pub fn use_shortcuts(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                let (field, button) = is_field(e.target());
                let ctrl = e.ctrl_key() || e.meta_key();
                let action = match (e.key().as_str(), e.shift_key(), ctrl) {
                    ("z" | "Z", false, true) => Some(Action::Undo),
                    ("z" | "Z", true, true) | ("y" | "Y", _, true) => Some(Action::Redo),
                    _ if field || ctrl || e.alt_key() => None,
                    (" ", _, _) if button => None,
                    (" ", _, _) => Some(Action::TogglePlay),
                    ("ArrowRight", true, _) => Some(Action::NextNotable),
                    ("ArrowLeft", true, _) => Some(Action::PrevNotable),
                    ("ArrowRight", false, _) => Some(Action::StepForward),
                    ("ArrowLeft", false, _) => Some(Action::StepBack),
                    ("[", _, _) => Some(Action::Slower),
                    ("]", _, _) => Some(Action::Faster),
                    ("Home", _, _) => Some(Action::ToStart),
                    ("End", _, _) => Some(Action::ToEnd),
                    ("f" | "F", _, _) => Some(Action::ToggleFence),
                    ("+" | "=", _, _) => Some(Action::Zoom(Zoom::By {
                        factor: STEP_FACTOR,
                        around: None,
                    })),
                    ("-" | "_", _, _) => Some(Action::Zoom(Zoom::By {
                        factor: 1.0 / STEP_FACTOR,
                        around: None,
                    })),
                    ("0", _, _) => Some(Action::Zoom(Zoom::Fit)),
                    ("v" | "V", _, _) => Some(Action::NextViolation),
                    ("Escape", _, _) => Some(Action::Select(None)),
                    _ => None,
                };
                if let Some(a) = action {
                    e.prevent_default();
                    dispatch.emit(a);
                }
            });
        listen(web_sys::window().map(Into::into), "keydown", listener)
    });
}

/// Pauses playback when the tab is hidden; reports the reduced-motion preference.
#[hook]
pub fn use_page_signals(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        if matches("(prefers-reduced-motion: reduce)") {
            dispatch.emit(Action::SetReducedMotion(true));
        }
        let doc = web_sys::window().and_then(|w| w.document());
        let d2 = doc.clone();
        let listener = Closure::<dyn FnMut()>::new(move || {
            if d2.as_ref().is_some_and(|d| d.hidden()) {
                dispatch.emit(Action::Pause);
            }
        });
        listen(doc.map(Into::into), "visibilitychange", listener)
    });
}

pub(super) fn hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

thread_local! {
    /// The fragment the page last followed from the address bar (see [`followed`]).
    static FOLLOWED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The fragment the page last followed after a change of the address (Back, Forward, a
/// link), if any. While the address shows another, a newer change is on its way (its
/// `hashchange` not yet handled): the link writer must not rewrite that entry with the
/// view of the older one, or the newer entry would be lost (`host::use_link_writer`).
pub(super) fn followed() -> Option<String> {
    FOLLOWED.with(|f| f.borrow().clone())
}

/// Deep links: follows every change of the fragment after the page opened (a link in the
/// chapter menu, the browser's Back and Forward); the one it opened with is followed before
/// the first render (`Session::opened_at`).
#[hook]
pub fn use_deep_links(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener = Closure::<dyn FnMut()>::new(move || {
            let h = hash();
            FOLLOWED.with(|f| *f.borrow_mut() = Some(h.clone()));
            dispatch.emit(Action::Navigate(h))
        });
        listen(web_sys::window().map(Into::into), "hashchange", listener)
    });
}

const PROGRESS_KEY: &str = "leaseline.progress";

fn storage() -> Option<web_sys::Storage> {
    // Private modes and sandboxed iframes may refuse storage: progress is then kept for
    // the visit only.
    web_sys::window()?.local_storage().ok().flatten()
}

/// Keeps the learner's progress in localStorage: read once on mount, written on change.
#[hook]
pub fn use_progress_store(encoded: String, dispatch: Callback<Action>) {
    let loaded = use_mut_ref(|| false);
    use_effect_with(encoded, move |s| {
        if !*loaded.borrow() {
            *loaded.borrow_mut() = true;
            if let Some(saved) = storage().and_then(|st| st.get_item(PROGRESS_KEY).ok().flatten()) {
                dispatch.emit(Action::LoadProgress(saved));
            }
        } else if let Some(st) = storage() {
            let _ = st.set_item(PROGRESS_KEY, s);
        }
    });
}
