//! The page footer: the keyboard shortcuts, what kind of thing this is, and the determinism
//! promise in plain words.

use yew::prelude::*;

/// The shortcuts `hooks::use_shortcuts` (and the walkthrough's own arrow keys) handle, as a
/// learner reads them. Keep the two in step.
const KEYS: [(&str, &str); 11] = [
    ("Space", "play or pause"),
    ("\u{2190} \u{2192}", "step back or forward one event"),
    (
        "Shift + \u{2190} \u{2192}",
        "previous or next notable event",
    ),
    ("Home, End", "jump to the start or the end"),
    ("[ ]", "slower, faster"),
    ("V", "jump to the next violation"),
    ("F", "fencing on or off"),
    ("Ctrl + Z", "undo the last fault or setting"),
    ("Ctrl + Shift + Z", "redo"),
    ("Esc", "close a node's or a link's actions"),
    (
        "\u{2190} \u{2192}",
        "previous or next beat, while the walkthrough has focus",
    ),
];

/// A plain function, not a component: it has no state, and each component costs wasm size.
pub fn footer() -> Html {
    html! {
        <footer class="colophon">
            <details class="keys">
                <summary>{ "Keyboard shortcuts" }</summary>
                <dl>
                    { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
            </details>
            <p>
                { concat!("Leaseline ", env!("CARGO_PKG_VERSION"), " \u{b7} ") }
                { "A deterministic simulation: the same scenario and seed always give the same run. " }
                { "Everything runs in your browser." }
            </p>
        </footer>
    }
}
