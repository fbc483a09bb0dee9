//! The players and the whole app, in the browser (the core half is `session::handoff`).
//!
//! A player — the first load (`lite`) or the links' player (`player`) — draws the same
//! page, with the lessons menu, the editor, the exports, sharing and comparing left out.
//! Their buttons and panels are still there, closed; opening one asks for the whole app.
//! `static/boot.js` then fetches and compiles it while the run stays on screen (a status
//! line says so), this build is unmounted, and the whole app mounts with the session
//! handed over — as it stands by then — and does what was asked. A failed fetch says so,
//! with a Retry button; the page keeps working meanwhile.

use crate::session::handoff::Handoff;
use crate::session::{Action, Panel, Session};
use yew::prelude::*;

/// The global `static/boot.js` leaves the handoff in for the whole app to read.
const HANDOFF_GLOBAL: &str = "leaselineHandoff";

fn global(name: &str) -> Option<wasm_bindgen::JsValue> {
    let v = js_sys::Reflect::get(&js_sys::global(), &name.into()).ok()?;
    (!v.is_undefined() && !v.is_null()).then_some(v)
}

/// The session the page starts with: the one handed over by a player, if it handed
/// one over, else the one the address names (read before the first render, see
/// `Session::opened_at`).
pub fn initial_session() -> Session {
    #[cfg(not(feature = "player"))]
    if let Some(text) = global(HANDOFF_GLOBAL).and_then(|v| v.as_string()) {
        let _ = js_sys::Reflect::delete_property(&js_sys::global(), &HANDOFF_GLOBAL.into());
        match Handoff::decode(&text) {
            Ok(h) => {
                let s = Session::resumed(&h);
                // A host's scenario the player passed on unread and the whole app refused:
                // the host is told, as the whole app's own listener tells it (`ui::host`).
                if let Some(Err(message)) = h.host.as_deref().map(crate::session::embed::parse) {
                    let refused = crate::session::embed::Event::Error { message };
                    super::host::post_to_host(&refused, &s.embed.origins);
                }
                return s;
            }
            Err(e) => {
                let mut s = Session::opened_at(&super::hooks::hash());
                s.doc.error = Some(e);
                return s;
            }
        }
    }
    Session::opened_at(&super::hooks::hash())
}

/// Moves the reader to the panel the session asks for (`Effect::Focus`): a handoff's, or
/// the Explore panel when a search is asked for. The session has opened it already.
#[cfg(not(feature = "player"))]
#[hook]
fn use_focus(session: &Session, on_action: &Callback<Action>) {
    let asked = session.effects.focus();
    let on_action = on_action.clone();
    use_effect_with(asked, move |asked| {
        if let Some((n, p)) = *asked {
            focus_panel(p);
            on_action.emit(Action::Done(n));
        }
    });
}

/// The whole app: moves the reader to the panels the session asks for ([`use_focus`]),
/// and draws nothing (a player's status line is its own).
#[cfg(not(feature = "player"))]
#[hook]
pub fn use_handover(session: &Session, on_action: &Callback<Action>) -> Html {
    use_focus(session, on_action);
    html! {}
}

#[cfg(not(feature = "player"))]
fn focus_panel(panel: Panel) {
    use wasm_bindgen::JsCast;
    let selector = match panel {
        Panel::Legend => "details.legend".to_string(),
        p => format!("details.panel.{}", p.name()),
    };
    let doc = web_sys::window().and_then(|w| w.document());
    let Some(el) = doc.and_then(|d| d.query_selector(&selector).ok().flatten()) else {
        return;
    };
    if let Some(summary) = el.query_selector("summary").ok().flatten() {
        if let Some(h) = summary.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.focus();
            h.scroll_into_view();
        }
    }
}

#[cfg(feature = "player")]
pub use player::*;

#[cfg(feature = "player")]
mod player {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use yew::AppHandle;

    thread_local! {
        /// The player's app, unmounted when the whole app takes over.
        static APP: RefCell<Option<AppHandle<crate::ui::App>>> = const { RefCell::new(None) };
        /// While the whole app loads, the page's state as of the last render: the reader
        /// may play, step or switch the fence meanwhile, and the handoff carries that.
        static NOW: RefCell<Option<Handoff>> = const { RefCell::new(None) };
        /// The reader's latest ask for the whole app (a second one while it loads — another
        /// tool, a pinch going on — replaces the first rather than loading it again).
        static ASKED: RefCell<Option<Rc<Handoff>>> = const { RefCell::new(None) };
        /// Whether the whole app is being fetched: one download, however many asks.
        static LOADING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Keeps the mounted app's handle so the handover can unmount it.
    pub fn keep(handle: AppHandle<crate::ui::App>) {
        APP.with(|a| *a.borrow_mut() = Some(handle));
    }

    #[wasm_bindgen]
    extern "C" {
        /// `static/boot.js`: fetches and compiles the whole app, and resolves to the
        /// function that leaves the handoff for it and starts it.
        #[wasm_bindgen(catch, js_namespace = globalThis, js_name = leaselineUpgrade)]
        fn upgrade() -> Result<js_sys::Promise, JsValue>;
    }

    /// Loading the whole app.
    #[derive(Clone, Copy, PartialEq)]
    enum Load {
        Idle,
        Loading,
        Failed,
    }

    /// A player: when the session asks for the whole app, loads it and hands over;
    /// draws what the reader sees meanwhile (a status line, or the failure and Retry).
    #[hook]
    pub fn use_handover(session: &Session, on_action: &Callback<Action>) -> Html {
        let load = use_state(|| Load::Idle);
        {
            let load = load.clone();
            let asked = session.effects.load();
            // Watched by its serial alone: a new one is a new ask (a Retry). It is left
            // waiting, not drained: this build is unmounted when the whole app starts,
            // and a failed load is asked again under a new serial.
            let serial = asked.as_ref().map(|&(n, _)| n);
            use_effect_with(serial, move |_| {
                if let Some((_, h)) = asked {
                    ASKED.with(|a| *a.borrow_mut() = Some(h));
                    load.set(Load::Loading);
                    if !LOADING.with(|l| l.replace(true)) {
                        wasm_bindgen_futures::spawn_local(async move {
                            let started = start_whole_app().await;
                            LOADING.with(|l| l.set(false));
                            if started.is_err() {
                                load.set(Load::Failed);
                            }
                        });
                    }
                }
            });
        }
        if *load == Load::Loading {
            NOW.with(|n| *n.borrow_mut() = Some(session.handoff(None, None)));
        }
        match *load {
            Load::Idle => html! {},
            Load::Loading => html! {
                <p class="handover" role="status">{ "Loading the lessons, the editor and the other tools…" }</p>
            },
            Load::Failed => {
                html! {
                    <div class="error" role="alert">
                        <span>{ "The rest of Leaseline (the lessons, the editor and the other tools) did not load: the network may be down. The run on screen still plays." }</span>
                        <button type="button" class="control text" onclick={crate::ui::on(on_action, Action::Upgrade(None))}>{ "Retry" }</button>
                    </div>
                }
            }
        }
    }

    async fn start_whole_app() -> Result<(), ()> {
        let promise = upgrade().map_err(|_| ())?;
        let start = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|_| ())?;
        let start: js_sys::Function = start.dyn_into().map_err(|_| ())?;
        let asked = ASKED.with(|a| a.borrow().clone()).ok_or(())?;
        let text = match NOW.with(|n| n.borrow_mut().take()) {
            Some(now) => asked.caught_up(&now).encode(),
            None => asked.encode(),
        };
        // Unmount this build first: its listeners (keys, frames, the address) stop, and the
        // whole app mounts into an empty page.
        if let Some(app) = APP.with(|a| a.borrow_mut().take()) {
            app.destroy();
        }
        start
            .call1(&JsValue::NULL, &JsValue::from_str(&text))
            .map(|_| ())
            .map_err(|_| ())
    }

    /// A closed panel's summary: its click (or Enter, or Space) asks for the whole app,
    /// which opens the panel (the `<details>` opens here too, showing "Loading…").
    fn asks(on_action: &Callback<Action>, panel: Panel) -> Callback<MouseEvent> {
        crate::ui::on(on_action, Action::Upgrade(Some(panel)))
    }

    /// The whole app's side panels, closed: opening one loads the whole app, which opens it.
    pub fn closed_tools(on_action: &Callback<Action>) -> Html {
        html! {
            { for Panel::SIDE.into_iter().map(|panel| html! {
                <details class={crate::ui::css(&["panel", panel.name()])}>
                    <summary onclick={asks(on_action, panel)}>{ panel.title() }</summary>
                    <p>{ "Loading…" }</p>
                </details>
            }) }
        }
    }

    /// The diagram's Legend, closed (it draws the exported picture's key: whole app).
    pub fn closed_legend(on_action: &Callback<Action>) -> Html {
        html! {
            <details class="legend">
                <summary class="control text" onclick={asks(on_action, Panel::Legend)}>{ Panel::Legend.title() }</summary>
            </details>
        }
    }
}
