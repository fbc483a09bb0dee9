//! Browser plumbing as hooks: the animation-frame loop, keyboard shortcuts, the page's
//! visibility and the reduced-motion preference, and frame-cost sampling.
//!
//! The frame loop requests an animation frame only while playing: paused, finished or in a
//! hidden tab, nothing is scheduled, so an idle page costs no CPU (RaftScope's issue #2).

use super::model::{Action, Model};
use std::cell::{Cell, RefCell};
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

thread_local! {
    /// When the current frame's tick was dispatched (performance.now()), for sampling.
    static TICK_START: Cell<Option<f64>> = const { Cell::new(None) };
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

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
            TICK_START.with(|t| t.set(Some(now())));
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

/// After a render caused by a frame tick: record how long tick + render took, in
/// `window.leaselineFrames` (read by the end-to-end benchmark).
pub fn sample_frame_cost() {
    let Some(start) = TICK_START.with(|t| t.take()) else {
        return;
    };
    let Some(w) = web_sys::window() else { return };
    let key = wasm_bindgen::JsValue::from_str("leaselineFrames");
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
    if arr.length() < 20_000 {
        arr.push(&wasm_bindgen::JsValue::from_f64(now() - start));
    }
}

/// Listens for `event` on `target` and returns the clean-up that stops listening and frees
/// the closure: what an effect returns, so nothing outlives the component.
fn listen<T: ?Sized>(
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
        let reduced = web_sys::window()
            .and_then(|w| {
                w.match_media("(prefers-reduced-motion: reduce)")
                    .ok()
                    .flatten()
            })
            .is_some_and(|m| m.matches());
        if reduced {
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

fn hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Deep links: follows the fragment the page was opened with, and every later change of
/// it (a link in the chapter menu, the browser's Back and Forward).
#[hook]
pub fn use_deep_links(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let first = hash();
        if !first.is_empty() {
            dispatch.emit(Action::Navigate(first));
        }
        let listener = Closure::<dyn FnMut()>::new(move || dispatch.emit(Action::Navigate(hash())));
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

/// Writes the view into the URL fragment (see `share`): a new browser-history entry for a
/// change the user made, the same entry rewritten for a cursor move or a change that came
/// from a link. Nothing is written while playing (the fragment follows when playback
/// stops), and an embed never adds entries (they would land in its host page's history).
#[hook]
pub fn use_link_writer(model: &Model) {
    let written_rev = use_mut_ref(|| 0u32);
    let key = (model.rev, model.playing, model.cursor.step, model.from_link);
    let fragment = (!model.playing).then(|| crate::share::encode(&model.view_state()));
    let embed = model.embed;
    use_effect_with(key, move |&(rev, _, _, from_link)| {
        let Some(fragment) = fragment else { return };
        let current = hash();
        // The default page needs no fragment until the reader does something.
        let default_page = || fragment == crate::share::encode(&crate::share::ViewState::default());
        if fragment == current || (current.is_empty() && default_page()) {
            *written_rev.borrow_mut() = rev;
            return;
        }
        let push = rev != *written_rev.borrow() && !from_link && !embed;
        *written_rev.borrow_mut() = rev;
        if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
            let url = Some(fragment.as_str());
            let _ = if push {
                h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", url)
            } else {
                h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", url)
            };
        }
    });
}

/// Posts an event to the host page: to each allowed origin, or to any when none is set
/// (the events carry nothing private: times, steps, verdict sentences).
pub fn post_to_host(event: &crate::embed::Event, origins: &[String]) {
    let Some(w) = web_sys::window() else { return };
    let Some(parent) = w.parent().ok().flatten() else {
        return;
    };
    let Ok(value) = js_sys::JSON::parse(&crate::embed::encode(event)) else {
        return;
    };
    if origins.is_empty() {
        let _ = parent.post_message(&value, "*");
    }
    for o in origins {
        let _ = parent.post_message(&value, o);
    }
}

/// The postMessage API of an embed: validates every message from the parent page (and,
/// with an allow-list, from an allowed origin only) and dispatches it; a refused message
/// is answered with an `error` event naming the field.
#[hook]
pub fn use_host_messages(embed: bool, origins: Rc<Vec<String>>, dispatch: Callback<Action>) {
    let current = use_mut_ref(|| (false, Rc::new(Vec::new())));
    *current.borrow_mut() = (embed, origins);
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let (embed, origins) = current.borrow().clone();
                let Some(w) = web_sys::window() else { return };
                let from_parent = match (e.source(), w.parent().ok().flatten()) {
                    (Some(src), Some(parent)) => {
                        js_sys::Object::is(&src, &parent) && !js_sys::Object::is(&parent, &w)
                    }
                    _ => false,
                };
                if !embed || !from_parent || !(origins.is_empty() || origins.contains(&e.origin()))
                {
                    return;
                }
                let data = e.data();
                let text = data
                    .as_string()
                    .or_else(|| js_sys::JSON::stringify(&data).ok().map(String::from));
                match text.map(|t| crate::embed::parse(&t)) {
                    Some(Ok(cmd)) => dispatch.emit(Action::Host(cmd)),
                    Some(Err(message)) => {
                        post_to_host(&crate::embed::Event::Error { message }, &origins)
                    }
                    None => {}
                }
            });
        listen(web_sys::window().map(Into::into), "message", listener)
    });
}

/// Tells the host page what happens in an embed: ready, the cursor's step, each violation
/// the cursor passes, each quiz answer.
#[hook]
pub fn use_host_events(model: &Model) {
    let last = use_mut_ref(|| None::<(usize, String)>);
    let embed = model.embed;
    let origins = model.origins.clone();
    let step = model.cursor.step;
    let run = model.run.clone();
    let t = model.cursor.t as i64;
    use_effect_with((embed, step, Rc::as_ptr(&run) as usize), move |_| {
        if !embed {
            return;
        }
        let mut last = last.borrow_mut();
        // The step the host last heard of, if it heard of this run at all.
        let from = last
            .as_ref()
            .filter(|(_, d)| *d == run.digest)
            .map(|(s, _)| *s);
        let events =
            crate::embed::cursor_events(&run.trace, &run.verdict, &run.digest, from, step, t);
        for e in &events {
            post_to_host(e, &origins);
        }
        *last = Some((step, run.digest.clone()));
    });
    let quiz = model.quiz.filter(|q| q.revealed);
    let answer = quiz.and_then(|q| q.right(&model.run.trace));
    let origins = model.origins.clone();
    use_effect_with(quiz.map(|q| (q.question, q.stop)), move |q| {
        if let (true, Some((question, stop)), Some(right)) = (embed, *q, answer) {
            let e = crate::embed::Event::QuizAnswered {
                question,
                stop,
                right,
            };
            post_to_host(&e, &origins);
        }
    });
}
