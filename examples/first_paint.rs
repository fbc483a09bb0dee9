//! Writes the default page's first paint (see `leaseline::view::export::first_paint`) to
//! stdout: the whole run of the default scenario, in the page the app draws around it at
//! its start, as an HTML fragment for `index.html`. `scripts/first-paint.mjs` runs it after
//! every Trunk build:
//!
//!     cargo run -q --no-default-features --example first_paint

use leaseline::session::Session;
use leaseline::teach::{course, narrate};
use leaseline::view::export::first_paint::{self, Around};
use leaseline::view::layout;
use leaseline::vocab::numbers::clock;

/// The diagram's box on a wide screen, in CSS pixels: the page's width (style.css,
/// `--max-width`) less its padding, the walkthrough's column and the gap between them.
/// The app lays its drawing out at its box's width, so the first paint is laid out at this
/// one and fills the box exactly as the app's drawing will; a narrower screen scales it.
/// Laid out at any other width, it would be scaled to the box and come out taller or
/// shorter than the app's drawing, which `first-paint.test.mjs` checks at 1280×800.
const WIDE_BOX: f64 = 802.0;

fn main() {
    // The words around the diagram, read from the default page's session as the app reads
    // them at its start.
    let page = Session::default_page();
    let run = &page.run;
    let name = page.name.as_deref().unwrap_or_default();
    let picker = page.picker();
    let options: Vec<(&str, bool)> = picker.options.iter().map(|o| (o.1, o.2)).collect();
    let description = page.description();
    let time = clock(0, run.end_ms() as i64);
    let speed = page.speed_label();
    let fence = narrate::fence_switch(run.fenced());
    let beats = course::beat_count(&page.beats, page.cursor.step);
    let sources = course::sources_line(name);
    let d = layout::layout(&run.trace, &run.verdict, WIDE_BOX, None);
    let around = Around {
        options: &options,
        description: &description,
        time: &time,
        speed: &speed,
        fence,
        beats: &beats,
        sources: &sources,
    };
    print!(
        "{}",
        first_paint::html(&d, &run.scenario.name, &run.digest, &around)
    );
}
