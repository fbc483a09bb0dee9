//! The page footer: what kind of thing this is, and the determinism promise in plain words.

use yew::prelude::*;

/// A plain function, not a component: it has no state, and each component costs wasm size.
pub fn footer() -> Html {
    html! {
        <footer class="colophon">
            <p>
                { concat!("Leaseline ", env!("CARGO_PKG_VERSION"), " \u{b7} ") }
                { "A deterministic simulation: the same scenario and seed always give the same run. " }
                { "Everything runs in your browser." }
            </p>
        </footer>
    }
}
