//! The ground floor: the words every other floor speaks.
//!
//! Node ids and every name a node goes by ([`ids`]), true time and how a number of
//! milliseconds is written ([`time`]), the small JSON writer every export and trace line
//! uses ([`json`]), and the ordered map keyed by small ids that replaces hashing where
//! order matters ([`vecmap`]). Nothing here knows about leases, scenarios or the page.
//!
//! May import: std and serde only. Everything else may import this.

pub mod ids;
pub mod json;
pub mod time;
pub mod vecmap;
