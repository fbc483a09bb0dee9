//! The page footer: what kind of thing this is, and the determinism promise in plain words.

use yew::prelude::*;

#[component]
pub fn Footer() -> Html {
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
