//! The page's two neighbours: the address bar (the view written into the URL fragment) and,
//! in an embed, the host page (its commands in, our events out, by postMessage).
//!
//! What to write and what to tell are decided in the core (`Session::fragment`,
//! `embed::cursor_events`); these hooks only deliver it.

use super::hooks::{followed, hash, listen};
use crate::session::{Action, Session};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

/// Writes the view into the URL fragment (see `share`): a new browser-history entry for a
/// change the user made, the same entry rewritten for a cursor move or a change that came
/// from a link. Nothing is written while playing (the fragment follows when playback
/// stops), and an embed never adds entries (they would land in its host page's history).
/// `fragment` is the session's (`None` while playing), `rev` and `from_link` say whether
/// the change is a new history entry, `embed` that no entry may be added, and `zoom` is
/// the diagram's window: a change of it is written once the window has settled.
#[hook]
pub fn use_link_writer(
    fragment: Option<Rc<str>>,
    rev: u32,
    from_link: bool,
    embed: bool,
    zoom: Option<crate::session::zoom::Window>,
) {
    let written_rev = use_mut_ref(|| 0u32);
    #[cfg(not(feature = "player"))]
    let (last_zoom, pending) = (
        use_mut_ref(|| zoom),
        use_mut_ref(|| None::<gloo_timers::callback::Timeout>),
    );
    #[cfg(feature = "player")]
    let _ = zoom;
    use_effect_with(
        (fragment, rev, from_link),
        move |(fragment, rev, from_link)| {
            let (rev, from_link) = (*rev, *from_link);
            #[cfg(not(feature = "player"))]
            let zoomed = {
                // A newer fragment replaces one still waiting to be written.
                drop(pending.borrow_mut().take());
                std::mem::replace(&mut *last_zoom.borrow_mut(), zoom) != zoom
            };
            let Some(fragment) = fragment.as_deref() else {
                return;
            };
            let current = hash();
            // A view that came from a link the address has already moved past (a second
            // Forward before the first was drawn): the newer entry is not ours to rewrite;
            // its own hashchange brings the page there.
            if from_link && followed().is_some_and(|f| f != current) {
                return;
            }
            // The default page needs no fragment until the reader does something.
            let default_page = || {
                fragment
                    == crate::session::share::encode(&crate::session::share::ViewState::default())
            };
            if fragment == current || (current.is_empty() && default_page()) {
                *written_rev.borrow_mut() = rev;
                return;
            }
            let push = rev != *written_rev.borrow() && !from_link && !embed;
            *written_rev.borrow_mut() = rev;
            // A zoom or a pan rewrites the link at every step of the gesture, and each
            // rewrite makes the browser save the state of every form field on the page
            // (the editor's hundreds: ~20 ms a time). The window is written once it has
            // stood still for a moment instead.
            #[cfg(not(feature = "player"))]
            if zoomed && !push {
                let url = fragment.to_string();
                let later = move || write_link(&url, false);
                *pending.borrow_mut() = Some(gloo_timers::callback::Timeout::new(200, later));
                return;
            }
            write_link(fragment, push);
        },
    );
}

/// Puts `fragment` in the address bar: a new history entry (`push`) or the current one.
fn write_link(fragment: &str, push: bool) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let url = Some(fragment);
        let _ = if push {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", url)
        } else {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", url)
        };
    }
}

/// Posts an event to the host page: to each allowed origin, or to any when none is set
/// (the events carry nothing private: times, steps, verdict sentences).
pub fn post_to_host(event: &crate::session::embed::Event, origins: &[String]) {
    post_text(&crate::session::embed::encode(event), origins);
}

/// Posts a message, given as JSON text, to the parent page as an object, as
/// [`post_to_host`] does.
fn post_text(text: &str, origins: &[String]) {
    let Some(w) = web_sys::window() else { return };
    let Some(parent) = w.parent().ok().flatten() else {
        return;
    };
    let Ok(value) = js_sys::JSON::parse(text) else {
        return;
    };
    if origins.is_empty() {
        let _ = parent.post_message(&value, "*");
    }
    for o in origins {
        let _ = parent.post_message(&value, o);
    }
}

/// An embed's conversation with its host page: its commands in, the cursor's events out.
/// The first load is never embedded (`static/first-paint.js` opens it at the default page
/// only), so it carries none of it.
#[hook]
pub fn use_embed_host(session: &Session, dispatch: &Callback<Action>) {
    #[cfg(not(feature = "lite"))]
    {
        use_host_messages(
            session.embed.on,
            session.embed.origins.clone(),
            dispatch.clone(),
        );
        use_host_events(session);
        use_fit_to_content(session);
    }
    #[cfg(feature = "lite")]
    let _ = (session, dispatch);
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
                // The H5P resizer's and an LMS's own messages are not commands to us.
                if text.as_deref().is_some_and(crate::session::fit::foreign) {
                    return;
                }
                match text.map(|t| command(&t)) {
                    Some(Ok(action)) => dispatch.emit(action),
                    Some(Err(message)) => {
                        post_to_host(&crate::session::embed::Event::Error { message }, &origins)
                    }
                    None => {}
                }
            });
        listen(web_sys::window().map(Into::into), "message", listener)
    });
}

/// A host's message as the action it asks for, or what is wrong with it. The links' player
/// shows built-in runs only, which its links name: a `load` of the host's own scenario,
/// checked whole here, is handed to the whole app as the message's text
/// (`Action::HostLoad`), and the whole app loads it.
fn command(text: &str) -> Result<Action, String> {
    use crate::session::embed::{parse, Command};
    parse(text).map(|c| match c {
        Command::Load(_) if cfg!(feature = "player") => Action::HostLoad(text.to_string()),
        c => Action::Host(c),
    })
}

/// Tells the host page what happens in an embed: ready, the cursor's step, each violation
/// the cursor passes, each quiz answer, and the learner's progress as statements.
#[hook]
pub fn use_host_events(session: &Session) {
    // A whole app a player handed its embed over to starts where the host's news stands:
    // the player told it `ready`, the cursor and the progress so far, of the run on
    // screen unless the handover loaded another (a host's own scenario).
    let told = session.embed.told.clone();
    let same_run = told
        .as_ref()
        .is_some_and(|(_, d)| *d == session.doc.run.digest);
    let last = use_mut_ref(|| told);
    let embed = session.embed.on;
    let origins = session.embed.origins.clone();
    let step = session.play.cursor.step;
    let run = session.doc.run.clone();
    let t = session.play.cursor.t as i64;
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
        let events = crate::session::embed::cursor_events(
            &run.trace,
            &run.verdict,
            &run.digest,
            from,
            step,
            t,
        );
        for e in &events {
            post_to_host(e, &origins);
        }
        *last = Some((step, run.digest.clone()));
    });
    // Progress a course platform records: worked out at each render (the tracker keeps
    // what was told, so each statement is new), posted once the render is committed.
    let tracker = use_mut_ref(|| {
        let mut t = crate::session::statements::Tracker::default();
        if same_run {
            t.observe(session);
        }
        t
    });
    let statements = if embed {
        tracker.borrow_mut().observe(session)
    } else {
        Vec::new()
    };
    {
        let origins = session.embed.origins.clone();
        use_effect_with(statements, move |statements| {
            for e in statements {
                post_to_host(e, &origins);
            }
        });
    }
    // An interview question's stops, by number; an author's questions have no number a
    // link names, and are told by the statements alone.
    let quiz = session.teach.quiz.filter(|q| q.revealed && !q.author);
    let answer = quiz.and_then(|q| q.right(&session.doc.run.scenario, &session.doc.run.trace));
    let origins = session.embed.origins.clone();
    let first = use_mut_ref(|| same_run);
    use_effect_with(quiz.map(|q| (q.question, q.stop)), move |q| {
        // (An answer out when the page was handed over was told by the player.)
        if std::mem::take(&mut *first.borrow_mut()) {
            return;
        }
        if let (true, Some((question, stop)), Some(right)) = (embed, *q, answer) {
            let e = crate::session::embed::Event::QuizAnswered {
                question,
                stop,
                right,
            };
            post_to_host(&e, &origins);
        }
    });
}

/// Fit to content: tells the host page the height the embed needs (`session::fit`),
/// whenever it changes — after a render that may change what is shown (another run, step,
/// beat or quiz state, a panel, a message) and when the frame's width changes (the text
/// wraps anew).
#[cfg(not(feature = "lite"))]
#[hook]
fn use_fit_to_content(session: &Session) {
    let embed = session.embed.on;
    let told = use_mut_ref(Told::default);
    let origins = session.embed.origins.clone();
    let key = (
        embed,
        Rc::as_ptr(&session.doc.run) as usize,
        session.play.cursor.step,
        session.teach.quiz,
        session.nav.menu.is_some(),
        session.doc.error.is_some(),
    );
    {
        let (told, origins) = (told.clone(), origins.clone());
        use_effect_with(key, move |k| {
            if k.0 {
                tell_height(&told, &origins);
            }
        });
    }
    use_effect_with(embed, move |&embed| {
        let listener = Closure::<dyn Fn()>::new(move || tell_height(&told, &origins));
        let window = web_sys::window().filter(|_| embed).map(Into::into);
        listen(window, "resize", listener)
    });
}

/// The height an embed last asked its host for, the frame's height when it asked, and
/// what the page showed when it last measured ([`shown`]).
#[cfg(not(feature = "lite"))]
#[derive(Default)]
struct Told {
    height: i64,
    from: i64,
    shown: String,
}

/// What the embed's height depends on, read without laying the page out: the frame's
/// size, the drawing's usual height and width in its units, and the words of every box
/// below it. While a run plays the step changes every frame and these seldom do, so the
/// measurement ([`needed_height`], two layouts) is made only when they change.
#[cfg(not(feature = "lite"))]
fn shown(window: &web_sys::Window, doc: &web_sys::Document) -> String {
    let px = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| {
        v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as i64
    };
    let mut s = format!("{}x{}", px(window.inner_width()), px(window.inner_height()));
    if let Some(svg) = doc.query_selector(".embed svg.timeline").ok().flatten() {
        for attr in ["data-natural", "viewBox"] {
            s.push('|');
            s.push_str(&svg.get_attribute(attr).unwrap_or_default());
        }
    }
    if let Ok(boxes) = doc.query_selector_all(".embed :is(.guide, .verdict, .share, .error)") {
        for i in 0..boxes.length() {
            s.push('|');
            s.push_str(
                &boxes
                    .item(i)
                    .and_then(|n| n.text_content())
                    .unwrap_or_default(),
            );
        }
    }
    s
}

/// Posts the fit-to-content messages when the height the embed needs differs from the
/// last one told: any growth, or a shrink of more than two pixels. (Measured in a frame of
/// whole pixels, boxes of fractional height round differently from one height to the
/// next, and a frame that followed each pixel would swing between two heights for ever.)
///
/// Once the frame has changed to a height it asked for, the host is known to fit it, and
/// the page says so (`data-fitted` on the root): the drawing then stops keeping its share
/// of a fixed frame's height (tools.css), which in a fitted frame would only squeeze the
/// text below it into a scrolling box. A host that fitted the frame once is trusted to
/// fit it again, so the mark stays.
#[cfg(not(feature = "lite"))]
fn tell_height(told: &std::cell::RefCell<Told>, origins: &[String]) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(doc) = window.document() else { return };
    let now = shown(&window, &doc);
    if told.borrow().shown == now {
        return;
    }
    let Some(h) = needed_height() else { return };
    let inner = window
        .inner_height()
        .ok()
        .and_then(|v| v.as_f64())
        .map_or(0, |px| px.round() as i64);
    let mut told = told.borrow_mut();
    told.shown = now;
    let asked = told
        .height
        .clamp(crate::session::fit::LEAST, crate::session::fit::MOST);
    let near = |a: i64, b: i64| (a - b).abs() <= 2;
    if told.height > 0 && near(inner, asked) && !near(told.from, asked) {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("data-fitted", "");
        }
    }
    if h > told.height || h < told.height - 2 {
        told.height = h;
        told.from = inner;
        for m in crate::session::fit::messages(h) {
            post_text(&m, origins);
        }
    }
}

/// The frame's height with nothing scrolled inside it and the drawing's lanes at their
/// usual height, measured rather than worked out: for the length of one synchronous layout
/// the page is laid out at its content's own height (`data-measuring` on the root, whose
/// rules in tools.css let every box take the height its content asks for) with the
/// drawing's frame as tall as its lanes at their usual height (`data-natural`, in the
/// drawing's units, scaled by its width on screen); then put back as it was, before
/// anything is painted. Working it out from the boxes as they are laid out in the frame
/// missed what the drawing's share of the frame's height (45% of it) took from the text
/// below it, so on a phone a walkthrough stayed a scrolling box in a frame that said it
/// fitted.
#[cfg(not(feature = "lite"))]
fn needed_height() -> Option<i64> {
    use crate::vocab::numbers;
    let window = web_sys::window()?;
    let doc = window.document()?;
    let root = doc.document_element()?;
    let shell = doc.query_selector(".shell.embed").ok()??;
    // The drawing's frame and its height at the usual lanes, in whole CSS pixels.
    let drawing = doc
        .query_selector(".embed .timeline-frame")
        .ok()
        .flatten()
        .and_then(|frame| {
            let svg = frame.query_selector("svg.timeline[data-natural]").ok()??;
            // (Both written by the timeline with `tenths`, and read back without the
            // standard float parser.)
            let natural = numbers::parse_decimal(&svg.get_attribute("data-natural")?)?;
            let view_box = svg.get_attribute("viewBox")?;
            let units = numbers::parse_decimal(view_box.split_whitespace().nth(2)?)?;
            let px = svg.get_bounding_client_rect().width();
            (units > 0.0 && px > 0.0).then(|| (frame, (natural * px / units).ceil() as i64))
        });
    let _ = root.set_attribute("data-measuring", "");
    let kept = drawing.as_ref().map(|(frame, natural)| {
        let style = frame.get_attribute("style");
        let height = format!("height:{natural}px");
        let _ = frame.set_attribute("style", &height);
        (frame, style)
    });
    let need = shell.get_bounding_client_rect().bottom() + window.scroll_y().unwrap_or(0.0);
    if let Some((frame, style)) = kept {
        let _ = match style {
            Some(s) => frame.set_attribute("style", &s),
            None => frame.remove_attribute("style"),
        };
    }
    let _ = root.remove_attribute("data-measuring");
    Some(need.ceil() as i64)
}
