//! The player of every built-in link but the default page: a preset, a lesson, a fix or an
//! interview question, opened from a shared link or embedded in a course page (`embed=1`).
//! It is the first load's page (`src/bin/lite.rs`) — the run, its walkthrough, the stage's
//! edits, no tools — built with the whole app's kit, catalog and detail
//! (`session::carries`), the quiz and the embed's view and host messages (`ui::host`), so
//! it plays any built-in scenario with every lock service and fault and asks every
//! question.
//! A tool (the editor, explore, the calculator, exports, compare, the lessons menu, the
//! panels) hands the page to the whole app, as on the default page (`ui::upgrade`), with
//! a question under way where it stands (`session::handoff`). Built only for wasm with the
//! `player` feature (index.html, static/first-paint.js, static/boot.js).
//!
//! It keeps the standard allocator: the first load's lol_alloc was measured on the default
//! run alone, and its free list is searched on every allocation, which the longest
//! built-in runs (eight clients, a partition's retries) would feel.

#[cfg(target_arch = "wasm32")]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaseline-player is a browser build; run `leaseline --help` for the tool");
    std::process::exit(2);
}
