//! The first load and the whole app, in the browser (the core half is
//! `session::handoff`).
//!
//! The first load (`lite`) draws the same page, with the lessons, the editor, the exports,
//! sharing and comparing left out. Their buttons and panels are still there, closed; opening
//! one asks for the whole app. `static/boot.js` then fetches and compiles it while the run
//! stays on screen (a status line says so), this build is unmounted, and the whole app
//! mounts with the session handed over and does what was asked. A failed fetch says so,
//! with a Retry button; the page keeps working meanwhile.

#[cfg(not(feature = "lite"))]
use crate::session::handoff::Handoff;
use crate::session::{Action, Session};
use yew::prelude::*;

/// The global `static/boot.js` leaves the handoff in for the whole app to read.
const HANDOFF_GLOBAL: &str = "leaselineHandoff";

fn global(name: &str) -> Option<wasm_bindgen::JsValue> {
    let v = js_sys::Reflect::get(&js_sys::global(), &name.into()).ok()?;
    (!v.is_undefined() && !v.is_null()).then_some(v)
}

/// The session the page starts with: the one handed over by the first load, if it handed
/// one over, else the one the address names (read before the first render, see
/// `Session::opened_at`).
pub fn initial_session() -> Session {
    #[cfg(not(feature = "lite"))]
    if let Some(text) = global(HANDOFF_GLOBAL).and_then(|v| v.as_string()) {
        let _ = js_sys::Reflect::delete_property(&js_sys::global(), &HANDOFF_GLOBAL.into());
        match Handoff::decode(&text) {
            Ok(h) => {
                PANEL.with(|p| *p.borrow_mut() = h.panel.clone());
                return Session::resumed(&h);
            }
            Err(e) => {
                let mut s = Session::opened_at(&super::hooks::hash());
                s.error = Some(e);
                return s;
            }
        }
    }
    Session::opened_at(&super::hooks::hash())
}

#[cfg(not(feature = "lite"))]
thread_local! {
    /// The panel the handoff asked to open, until the page is drawn.
    static PANEL: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The whole app: once drawn, opens the panel the first load was asked for and moves the
/// focus to it, as if the reader's click had opened it here. Draws nothing.
#[cfg(not(feature = "lite"))]
#[hook]
pub fn use_handover(_session: &Session, _on_action: &Callback<Action>) -> Html {
    use_effect_with((), |_| {
        if let Some(p) = PANEL.with(|p| p.borrow_mut().take()) {
            open_panel(&p);
        }
    });
    html! {}
}

#[cfg(not(feature = "lite"))]
pub(super) fn open_panel(panel: &str) {
    use wasm_bindgen::JsCast;
    let selector = if panel == "legend" {
        "details.legend".to_string()
    } else {
        format!("details.panel.{panel}")
    };
    let doc = web_sys::window().and_then(|w| w.document());
    let Some(el) = doc.and_then(|d| d.query_selector(&selector).ok().flatten()) else {
        return;
    };
    let _ = el.set_attribute("open", "");
    if let Some(summary) = el.query_selector("summary").ok().flatten() {
        if let Some(h) = summary.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.focus();
            h.scroll_into_view();
        }
    }
}

#[cfg(feature = "lite")]
pub use lite::*;

#[cfg(feature = "lite")]
mod lite {
    use super::*;
    use crate::session::handoff::PANELS;
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use yew::AppHandle;

    thread_local! {
        /// The first load's app, unmounted when the whole app takes over.
        static APP: RefCell<Option<AppHandle<crate::ui::App>>> = const { RefCell::new(None) };
    }

    /// Keeps the mounted app's handle so the handover can unmount it.
    pub fn keep(handle: AppHandle<crate::ui::App>) {
        APP.with(|a| *a.borrow_mut() = Some(handle));
    }

    #[wasm_bindgen]
    extern "C" {
        /// `static/boot.js`: fetches and compiles the whole app, leaves the handoff for it,
        /// and resolves to the function that starts it.
        #[wasm_bindgen(catch, js_namespace = globalThis, js_name = leaselineUpgrade)]
        fn upgrade(handoff: &str) -> Result<js_sys::Promise, JsValue>;
    }

    /// Loading the whole app.
    #[derive(Clone, Copy, PartialEq)]
    enum Load {
        Idle,
        Loading,
        Failed,
    }

    /// The first load: when the session asks for the whole app, loads it and hands over;
    /// draws what the reader sees meanwhile (a status line, or the failure and Retry).
    #[hook]
    pub fn use_handover(session: &Session, on_action: &Callback<Action>) -> Html {
        let load = use_state(|| Load::Idle);
        {
            let load = load.clone();
            let handoff = session.upgrade.clone();
            use_effect_with(session.upgrade_try, move |_| {
                if let Some(h) = handoff {
                    load.set(Load::Loading);
                    let text = h.encode();
                    wasm_bindgen_futures::spawn_local(async move {
                        match start_whole_app(&text).await {
                            Ok(()) => {}
                            Err(()) => load.set(Load::Failed),
                        }
                    });
                }
            });
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

    async fn start_whole_app(handoff: &str) -> Result<(), ()> {
        let promise = upgrade(handoff).map_err(|_| ())?;
        let start = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|_| ())?;
        let start: js_sys::Function = start.dyn_into().map_err(|_| ())?;
        // Unmount this build first: its listeners (keys, frames, the address) stop, and the
        // whole app mounts into an empty page.
        if let Some(app) = APP.with(|a| a.borrow_mut().take()) {
            app.destroy();
        }
        start.call0(&JsValue::NULL).map(|_| ()).map_err(|_| ())
    }

    /// A closed panel's summary: its click (or Enter, or Space) asks for the whole app,
    /// which opens the panel (the `<details>` opens here too, showing "Loading…").
    fn asks(on_action: &Callback<Action>, panel: &'static str) -> Callback<MouseEvent> {
        // The whole app opens only the panels a handoff may name.
        debug_assert!(PANELS.contains(&panel), "{panel}");
        crate::ui::on(on_action, Action::Upgrade(Some(panel.to_string())))
    }

    /// The whole app's side panels, in its order, each with its summary's words: the
    /// first load draws them closed (see [`closed_tools`]).
    const TOOLS: [(&str, &str); 5] = [
        ("settings", "Settings"),
        ("editor", "Scenario editor"),
        ("explore", "Explore: every way it breaks"),
        ("calculator", "Safety calculator"),
        ("io", "Export and import"),
    ];

    /// The whole app's side panels, closed: opening one loads the whole app, which opens it.
    pub fn closed_tools(on_action: &Callback<Action>) -> Html {
        html! {
            { for TOOLS.iter().map(|&(panel, title)| html! {
                <details class={crate::ui::css(&["panel", panel])}>
                    <summary onclick={asks(on_action, panel)}>{ title }</summary>
                    <p>{ "Loading…" }</p>
                </details>
            }) }
        }
    }

    /// The diagram's Legend, closed (it draws the exported picture's key: whole app).
    pub fn closed_legend(on_action: &Callback<Action>) -> Html {
        html! {
            <details class="legend">
                <summary class="control text" onclick={asks(on_action, "legend")}>{ "Legend" }</summary>
            </details>
        }
    }
}
