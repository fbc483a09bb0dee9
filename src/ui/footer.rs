//! The page footer: the keyboard shortcuts, what kind of thing this is, and the determinism
//! promise in plain words.

use yew::prelude::*;

/// The page's footer as markup: the shortcuts `hooks::use_shortcuts` (and the walkthrough's
/// own arrow keys) handle, as a learner reads them, then the colophon. Keep the two in step.
/// Static text, so one string rather than a tree of elements: the first load's wasm
/// carries the words, not the code to build them.
const FOOTER: &str = concat!(
    r#"<footer class="colophon"><details class="keys"><summary>Keyboard shortcuts</summary><dl>"#,
    "<dt><kbd>Space</kbd></dt><dd>play or pause</dd>",
    "<dt><kbd>\u{2190} \u{2192}</kbd></dt><dd>step back or forward one event</dd>",
    "<dt><kbd>Shift + \u{2190} \u{2192}</kbd></dt><dd>previous or next notable event</dd>",
    "<dt><kbd>Home, End</kbd></dt><dd>jump to the start or the end</dd>",
    "<dt><kbd>[ ]</kbd></dt><dd>slower, faster</dd>",
    "<dt><kbd>V</kbd></dt><dd>jump to the next violation</dd>",
    "<dt><kbd>F</kbd></dt><dd>fencing on or off</dd>",
    "<dt><kbd>Ctrl + Z</kbd></dt><dd>undo the last fault or setting</dd>",
    "<dt><kbd>Ctrl + Shift + Z</kbd></dt><dd>redo</dd>",
    "<dt><kbd>Esc</kbd></dt><dd>close a node&#39;s or a link&#39;s actions</dd>",
    "<dt><kbd>\u{2190} \u{2192}</kbd></dt><dd>previous or next beat, while the walkthrough has focus</dd>",
    "</dl></details><p>Leaseline ",
    env!("CARGO_PKG_VERSION"),
    " \u{b7} A deterministic simulation: the same scenario and seed always give the same run. ",
    "Everything runs in your browser.</p></footer>",
);

/// A plain function, not a component: it has no state, and each component costs wasm size.
pub fn footer() -> Html {
    Html::from_html_unchecked(AttrValue::Static(FOOTER))
}
