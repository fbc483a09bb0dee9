//! The share dialog and the embed's own small header. The link is the whole view state
//! (`share::encode`); the iframe snippet is the same link in embed mode, with a `title`
//! so screen readers can name the frame.

use super::guide::on;
use crate::session::{Action, Menu};
use yew::prelude::*;

/// The page's address without its fragment.
pub fn base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// Copies text with the asynchronous clipboard API where the page may use it. The fields
/// stay selectable, so copying by hand always works too.
fn copy(text: &str) {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return };
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let clipboard = get(&w, "navigator").and_then(|n| get(&n, "clipboard"));
    if let Some(c) = clipboard.filter(|c| !c.is_undefined()) {
        if let Some(f) = get(&c, "writeText").and_then(|f| f.dyn_into::<js_sys::Function>().ok()) {
            // A refusal (no permission, no focus) returns a rejected promise: catch it.
            if let Ok(p) = f.call1(&c, &text.into()) {
                if let Ok(p) = p.dyn_into::<js_sys::Promise>() {
                    wasm_bindgen_futures::spawn_local(async move {
                        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
                    });
                }
            }
        }
    }
}

fn copy_button(label: &'static str, text: String) -> Html {
    let onclick = Callback::from(move |_: MouseEvent| copy(&text));
    html! { <button type="button" class="control text" {onclick}>{ label }</button> }
}

/// The share dialog, when open. `links` are the full app's link and the embed's
/// (`Session::share_fragments` behind this page's address), `title` the scenario's name.
pub fn share_dialog(
    open: bool,
    links: &(String, String),
    title: &str,
    cb: &Callback<Action>,
) -> Html {
    if !open {
        return html! {};
    }
    let (link, embed_link) = links.clone();
    let snippet = crate::session::share::iframe_snippet(&embed_link, title, &Default::default());
    html! {
        <section id="share-dialog" class="panel share" aria-label="Share">
            <header class="guide-head">
                <h2>{ "Share this run" }</h2>
                <button type="button" class="quiet" onclick={on(cb, Action::ToggleMenu(Menu::Share))}>{ "Close" }</button>
            </header>
            <label class="field">
                <span>{ "Link: the scenario, the cursor and what is open" }</span>
                <input type="text" readonly=true value={link.clone()} aria-label="Link to this run" />
            </label>
            { copy_button("Copy link", link) }
            <label class="field">
                <span>{ "Embed in a course page" }</span>
                <textarea readonly=true rows="3" value={snippet.clone()} aria-label="Embed code" />
            </label>
            { copy_button("Copy embed code", snippet) }
            <p class="hint">{ "The embed shows the timeline without the site around it; a host page can drive it with postMessage (docs/embedding.md)." }</p>
        </section>
    }
}

/// The embed's header: the scenario's name, Share, and a way out to the full app (`full`,
/// memoized by the caller: it is not recomputed on every frame).
pub fn embed_bar(title: &str, share_open: bool, full: String, cb: &Callback<Action>) -> Html {
    html! {
        <header class="masthead embed-bar">
            <span class="embed-title">{ title.to_string() }</span>
            <button type="button" class="quiet" aria-expanded={share_open.to_string()} aria-controls="share-dialog"
                    onclick={on(cb, Action::ToggleMenu(Menu::Share))}>{ "Share" }</button>
            <a class="quiet" href={full} target="_blank" rel="noopener" aria-label="Open in Leaseline (new tab)">{ "Leaseline ↗" }</a>
        </header>
    }
}
