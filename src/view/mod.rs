//! View geometry: what the page and the exports draw, as plain numbers and strings.
//!
//! [`layout`] turns a run into the space-time diagram's lanes, arrows, bands and labels and
//! the stage's node positions (no Html: pure functions, tested natively); [`playback`] maps
//! real time to simulated time (speeds, dwell on notable events, flights of messages);
//! [`export`] writes a run as SVG, Mermaid and JSON.
//!
//! May import: [`crate::vocab`], [`crate::model`], [`crate::analysis`], [`crate::teach::walkthrough`].

pub mod export;
pub mod layout;
pub mod playback;
