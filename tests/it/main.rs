//! The crate's integration tests, in one binary with a module per subject, so that
//! `cargo test` links the whole crate once rather than once a subject.
//!
//! Two tests live beside this binary: `tests/explore_memory.rs`, whose binary counts its
//! own allocations and so must run alone, and `tests/wasm.rs`, the browser tests.

// Helpers shared by the subjects below, and the lab's own verdict module, included so the
// lab's comparison is tested as the lab runs it.
mod big_run;
mod common;
#[allow(dead_code)]
#[path = "../../tools/lab/src/verdict.rs"]
mod lab_verdict;

// The model and its checker.
mod anchors;
mod bound;
mod conditional;
mod digests;
mod flavors;
mod liveness;
mod resource;
mod sim_resume;
mod sweep;
mod truth;

// Recorded runs: our own format, Jepsen's, the lab's recordings, model against reality.
mod jepsen;
mod lab_fixtures;
mod reality;
mod record;
mod recorded;

// Explore.
mod explore;
mod explore_sweep;
mod explore_workers;

// What is taught: presets, lessons, the library of fixes.
mod beats;
mod lessons_loss;
mod library;
mod presets;
mod reveal;

// What is drawn and exported.
mod detail;
mod export;
mod labels;
mod layout_lod;

// The page's state, links and embeds.
mod embedding_docs;
mod session;
mod share;

// The house: floors, names, docs, and every parser under generated input.
mod docs;
mod fault_kinds;
mod fuzz;
mod layers;
mod names;
