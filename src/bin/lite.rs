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
//! - lol_alloc's free-list allocator instead of the standard one (below), and wasm-opt
//!   -O1 run until it stops shrinking (index.html: gzip packs -O1's output smaller than
//!   -Os's or -Oz's, by about 1 KB);
//! - what the page carries, chosen in `session::carries`: runs built with the kit the
//!   default page needs (the generic service and pauses, `model::sim::Pauses`) and the
//!   catalog of the default lesson alone (`teach::course::FirstLoad`, its scenario built
//!   in code), drawn in the plain detail (`view::layout::detail::Plain`: no hover texts
//!   on shapes that span time, nothing merged or spread), so the linker leaves every
//!   other service, fault and lesson, the JSON reader, the drawing's merging and the
//!   words and marks of the events only other services and faults make
//!   (`teach::narrate::TellsEvents`, `view::layout::MarksEvents`, by the kit) out. Tests
//!   in `model::sim::kit`, `teach::course` and `tests/it/detail.rs` hold the small kit,
//!   catalog and detail to the whole app's runs, names and drawing;
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

/// The first load's allocator: lol_alloc's free list, the smallest of those measured (wasm
/// after wasm-opt, gzip -9, the same build each time): lol_alloc 162,456 B; a size-class
/// allocator of our own 162,485 B; talc 4 163,544 B; the standard one (dlmalloc) 164,867 B.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: the page's wasm runs on one thread (no shared memory, no wasm threads), which
    // is what AssumeSingleThreaded asks of its caller.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[cfg(target_arch = "wasm32")]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaseline-lite is the browser's first load; run `leaseline --help` for the tool");
    std::process::exit(2);
}
