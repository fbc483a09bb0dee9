//! The first load of the browser app: the default page's player, with everything else
//! loaded on demand (`leaseline::ui::upgrade`). Built only for wasm with the `lite`
//! feature (index.html); natively it says where the real tool is.
//!
//! What it weighs, and why it is not lighter (issue #14 asks for 160,000 bytes gzip, all
//! first-load files together). `scripts/size.sh` measures the floors with
//! `tools/size-floor`, which drives the same core the way this page does but draws nothing.
//! On 2026-12-01, built with the page's size cuts (`scripts/cuts.sh`: std rebuilt with the
//! app, panics that trap at once, std's small variants — 23,772 bytes off this build):
//!
//! - the page's files other than this build (index.html with the first paint, the CSS,
//!   boot.js, first-paint.js, the icon): 9,669 bytes;
//! - this build's share of the core, mounted by Yew with no views: 142,176 (151,845 with
//!   those files: 8 KB under 160,000 before a single view is drawn);
//! - the same core with no Yew at all: 107,169 (116,838 with those files);
//! - this build as shipped: about 158,500 (168,200 in all); its views cost about 16 KB.
//!
//! Before the cuts the floor with Yew alone was 171,441, over the target; now the target
//! is within reach of a Yew first load only if its views weigh half what they do. Cutting
//! whole views is not the way (with the stage, the verdict, the inspector, the transcript
//! and the walkthrough all taken out, 13,079 bytes before the cuts, the page stops being
//! the default page's player). A first load without Yew would reach it with room to spare:
//! the same regions written as HTML by the core (as the first paint already is,
//! `view::export::first_paint`), patched in place as the session changes, with one
//! delegated listener per event kind. The price is a second renderer of the first view
//! beside the whole app's Yew views, kept equal by a test that renders both for the same
//! session.
//!
//! A measure of that room, taken once before the cuts: `first_paint::html`, which already
//! writes eight of the page's regions as strings (masthead, scenario bar, description,
//! playback bar, caption, legend, diagram, walkthrough), added 2,146 bytes to the no-Yew
//! floor (120,553 to 122,699).

// A crate root's modules sit beside it; this one sits in `lite/` so Cargo does not take it
// for a binary of its own.
#[cfg(target_arch = "wasm32")]
#[path = "lite/size_classes.rs"]
mod size_classes;

/// The first load allocates from power-of-two size classes instead of dlmalloc (see
/// `size_classes`): a few hundred bytes of wasm instead of about 4.5 KB.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: size_classes::SizeClasses<size_classes::MemoryGrow> =
    size_classes::SizeClasses::new(size_classes::MemoryGrow);

#[cfg(target_arch = "wasm32")]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaseline-lite is the browser's first load; run `leaseline --help` for the tool");
    std::process::exit(2);
}
