//! The browser layer (Yew). Placeholder until the foundation helper fills it.
pub fn mount() {}
