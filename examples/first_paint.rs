//! Writes the default page's first paint (see `leaseline::view::export::first_paint`) to
//! stdout: the whole run of the default scenario, as an HTML fragment for `index.html`.
//! `scripts/first-paint.mjs` runs it after every Trunk build:
//!
//!     cargo run -q --no-default-features --example first_paint

use leaseline::analysis::check::check;
use leaseline::model::sim::simulate;
use leaseline::session::DEFAULT;
use leaseline::view::{export::first_paint, layout};

fn main() {
    let sc = leaseline::teach::course::open(DEFAULT).expect("the default scenario is built in");
    let trace = simulate(&sc).expect("the default scenario runs");
    let d = layout::diagram(&trace, &check(&trace));
    print!("{}", first_paint::html(&d, &sc.name, &trace.digest_hex()));
}
