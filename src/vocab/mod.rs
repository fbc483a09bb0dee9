//! The ground floor: the words every other floor speaks.
//!
//! Node ids and every name a node goes by ([`ids`]), true time ([`time`]), how every number is
//! written ([`numbers`]), the enums with one name table each
//! ([`names`]: fence modes, violation kinds), the small JSON writer every export and trace line
//! uses ([`json`]), and the ordered map keyed by small ids that replaces hashing where
//! order matters ([`vecmap`]). Nothing here knows about leases, scenarios or the page.
//!
//! May import: std and serde only. Everything else may import this.

pub mod ids;
pub mod json;
pub mod names;
pub mod numbers;
pub mod time;
pub mod vecmap;
