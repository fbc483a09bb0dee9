//! The browser layer: Yew components only, behind the `web` feature.
//!
//! Everything here draws; nothing here decides. The model, the checker and the layout live
//! outside `ui` and compile without a browser, so `cargo test --no-default-features` proves
//! that no protocol logic leaks into a view.
//!
//! The page's state is `crate::session::Session`, a pure reducer in the core; `adapter` only
//! plugs it into Yew. The leaves receive the data they draw and emit actions: `timeline` (the
//! space-time diagram, drawn from `layout::Diagram` and revealed up to the cursor by a
//! clip), `stage` (nodes, links and packets, with each node's and link's actions),
//! `playbar`, `panels` (inspector and verdict), `transcript` (the run as text), `settings`, `guide` (the walkthrough beat
//! or the interview stop at the cursor), `lessons` (the chapter and interview menus) and
//! `io` (exports and import), `legend` (the diagram's key, a click away), `sharing` (the share dialog and the embed's header),
//! `versus` (two runs side by side), `editor` (the scenario editor's form);
//! `hooks` holds the animation frame loop, the keyboard shortcuts, the page signals, deep
//! links and the stored progress; `host` writes the address bar and speaks to an embed's
//! host page.
//!
//! Landmarks are part of the contract (the browser tests look for them): `banner` (header),
//! `main`, a `region` named "Space-time diagram", a `toolbar` named "Playback", and
//! `contentinfo` (footer).

mod adapter;
mod app;
mod bench;
#[cfg(not(feature = "player"))]
mod calculator;
#[cfg(not(feature = "player"))]
mod editor;
#[cfg(not(feature = "player"))]
mod explore;
mod footer;
mod guide;
mod handover;
mod header;
mod hooks;
mod host;
#[cfg(not(feature = "player"))]
mod io;
#[cfg(not(feature = "player"))]
mod legend;
#[cfg(not(feature = "player"))]
mod lessons;
mod panels;
mod playbar;
#[cfg(not(feature = "player"))]
mod record;
mod recorded;
#[cfg(not(feature = "player"))]
mod settings;
mod sharing;
mod stage;
mod timeline;
mod transcript;
#[cfg(not(feature = "player"))]
mod versus;
#[cfg(not(feature = "player"))]
mod zoom;

pub use app::App;

/// A click that emits `action`. One closure type for every such button (rather than a
/// closure of its own each) keeps the wasm small: each closure type is code of its own, and
/// the first load's buttons alone would cost about half a kilobyte more.
pub(crate) fn on(
    cb: &yew::Callback<crate::session::Action>,
    action: crate::session::Action,
) -> yew::Callback<web_sys::MouseEvent> {
    let cb = cb.clone();
    yew::Callback::from(move |_| cb.emit(action.clone()))
}

/// A `class` attribute from its parts, the empty ones left out: `css(&["node", when(paused,
/// "paused")])`. A plain string, where Yew's `classes!` builds an ordered set of the parts
/// for each element, and costs the first load's wasm more. clippy.toml refuses `classes!`,
/// so this stays the one way.
pub(crate) fn css(parts: &[&str]) -> String {
    let mut out = String::new();
    for p in parts.iter().filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(p);
    }
    out
}

/// `name` when `on`, else nothing: one optional part of [`css`].
pub(crate) fn when(on: bool, name: &'static str) -> &'static str {
    if on {
        name
    } else {
        ""
    }
}

/// The value of the `<input>`, `<textarea>` or `<select>` an event came from ("" if none):
/// the one way every view reads a control.
pub(crate) fn value_of(e: &web_sys::Event) -> String {
    use wasm_bindgen::JsCast;
    let Some(t) = e.target() else {
        return String::new();
    };
    if let Some(i) = t.dyn_ref::<web_sys::HtmlInputElement>() {
        i.value()
    } else if let Some(a) = t.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        a.value()
    } else if let Some(s) = t.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.value()
    } else {
        String::new()
    }
}

use yew::{AppHandle, Renderer};

/// Mounts the app into the document body. The wasm binary's `main` calls this. The app
/// lives as long as the page: dropping the returned handle does not unmount it.
pub fn mount() {
    remove_first_paint();
    let app = Renderer::<App>::new().render();
    // A player keeps its handle: the whole app unmounts it when it takes over.
    #[cfg(feature = "player")]
    handover::keep(app);
    #[cfg(not(feature = "player"))]
    let _ = app;
}

/// Takes away the run drawn at build time (`view::export::first_paint`): the app draws
/// the page itself from here on.
fn remove_first_paint() {
    let doc = web_sys::window().and_then(|w| w.document());
    let id = crate::view::export::first_paint::ID;
    if let Some(e) = doc.and_then(|d| d.get_element_by_id(id)) {
        e.remove();
    }
}

/// Mounts the app into `root` and returns its handle, so a test can render into a fresh
/// element and tear it down again with [`AppHandle::destroy`].
pub fn mount_to(root: web_sys::Element) -> AppHandle<App> {
    Renderer::<App>::with_root(root).render()
}
