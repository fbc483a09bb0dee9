//! The first load of the browser app: the default page's player, with everything else
//! loaded on demand (`leaseline::ui::upgrade`). Built only for wasm with the `lite`
//! feature (index.html); natively it says where the real tool is.
//!
//! What it weighs, and why it is not lighter (issue #14 asks for 160,000 bytes gzip, all
//! first-load files together). `scripts/size.sh` measures the floors with
//! `tools/size-floor`, which drives the same core the way this page does but draws nothing.
//! On 2026-12-01:
//!
//! - the page's files other than this build (index.html with the first paint, the CSS,
//!   boot.js, first-paint.js, the icon): 9,668 bytes;
//! - this build's share of the core, mounted by Yew with no views: 161,773 (171,441 with
//!   those files — already over 160,000 before a single view is drawn);
//! - the same core with no Yew at all: 120,545 (130,213 with those files);
//! - this build as shipped: 182,374 (192,042 in all); its views cost about 20 KB.
//!
//! Cutting views cannot reach the target: with the stage, the verdict, the inspector, the
//! transcript and the walkthrough all taken out (13,079 bytes), the first load would still
//! weigh about 178,900 — the player alone (bar, caption, diagram) on Yew. Only a first load
//! without Yew could: the same regions written as HTML by the core (as the first paint
//! already is, `view::export::first_paint`), patched in place as the session changes, with
//! one delegated listener per event kind — about 30 KB of room above the no-Yew floor. The
//! price is a second renderer of the first view beside the whole app's Yew views, kept
//! equal by a test that renders both for the same session.
//!
//! A measure of that room, taken once: `first_paint::html`, which already writes eight of
//! the page's regions as strings (masthead, scenario bar, description, playback bar,
//! caption, legend, diagram, walkthrough), added 2,146 bytes to the no-Yew floor (120,553
//! to 122,699). With the views' states, the stage and the side panels as strings and the
//! patching (12–16 KB more, an estimate) and the 9,668 bytes of other files, a Yew-free
//! first load would come to about 144–148 KB in all.

#[cfg(target_arch = "wasm32")]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaseline-lite is the browser's first load; run `leaseline --help` for the tool");
    std::process::exit(2);
}
