//! The first load of the browser app: the default page's player, with everything else
//! loaded on demand (`leaseline::ui::upgrade`). Built only for wasm with the `lite`
//! feature (index.html); natively it says where the real tool is.
//!
//! What it weighs is held to a budget, all first-load files together, gzipped:
//! `scripts/size.sh` fails the size tier above its ceiling, and prints what each part and
//! each floor weighs today. What keeps it under:
//!
//! - built with the page's size cuts (`scripts/cuts.sh`: std rebuilt with the app, panics
//!   that trap at once, std's small variants): the largest single saving;
//! - its own allocator (`lite/size_classes.rs`, below), and wasm-opt -Os run until it
//!   stops shrinking (index.html);
//! - a simulation that leaves out what the default page never runs — every service but
//!   the generic one (`model::flavors::simulated`, `model::sim`'s `Service`), every fault
//!   but a pause (`model::sim`), and the telling of the events only those make
//!   (`model::trace::left_out_events`): the next largest. A test in `teach::presets` holds
//!   the default page to that scope;
//! - integers and clocks without 128-bit arithmetic (`vocab::json`, `model::clock`).
//!
//! Its floor is measured by `tools/size-floor` (the same core driven the way this page
//! drives it, drawing nothing), with Yew and with no Yew at all, beside the page's other
//! files (index.html with the first paint, the CSS, boot.js, first-paint.js, the icon).
//! Most of the first load is that floor: its views are a small part of what it weighs, Yew
//! a larger one. A first load without Yew (the same regions written as HTML by the core, as
//! the first paint already is, patched in place, with delegated listeners) would have room
//! for more; it would also be a second renderer of the first view beside the whole app's
//! Yew views.

// A crate root's modules sit beside it; this one sits in `lite/` so Cargo does not take it
// for a binary of its own.
#[cfg(target_arch = "wasm32")]
#[path = "lite/size_classes.rs"]
mod size_classes;

/// The first load allocates from power-of-two size classes instead of dlmalloc (see
/// `size_classes`): a few hundred bytes of wasm instead of several kilobytes.
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
