//! View geometry: what the page and the exports draw, as plain numbers and strings.
//!
//! [`layout`] turns a run into the space-time diagram's lanes, arrows, bands and labels and
//! the stage's node positions (no Html: pure functions, tested natively); [`playback`] maps
//! real time to simulated time (speeds, dwell on notable events, flights of messages);
//! [`export`] writes a run as SVG, Mermaid and JSON; [`legend`] is the one table of what
//! each shape of the diagram means, which the exported picture and the app's legend draw;
//! [`icons`] are the playback toolbar's. How much a drawing adds beyond its shapes is a
//! type the page picks ([`layout::detail`]).
//!
//! May import: [`crate::vocab`], [`crate::model`], [`crate::analysis`], [`crate::teach::walkthrough`],
//! [`crate::teach::narrate`] (the verdict's words, for the exported picture).

pub mod export;
pub mod icons;
pub mod labels;
pub mod layout;
pub mod legend;
pub mod playback;
