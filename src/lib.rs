//! Leaseline: a deterministic model of lease-based distributed locking, for teaching.
//!
//! Clients acquire leases from a coordinator, renew them, work, and write to a storage
//! resource carrying fencing tokens. Faults (pauses, partitions, clock jumps, delayed
//! messages, restarts) are data in the [`model::scenario::Scenario`]. A run produces an immutable
//! [`model::trace::Trace`]; the [`analysis::check`] module reads that trace and reports what went wrong;
//! [`analysis::projection`] folds the trace into "who believes what" at any step so a view can scrub
//! without re-simulating.
//!
//! # The determinism contract
//! Same scenario + seed → the same trace, byte for byte, natively and in wasm32. So: integer
//! time (milliseconds), our own PRNG ([`model::sim::rng`]), an event queue ordered by
//! (time, sequence number), no hash-ordered iteration and no `usize` in anything hashed.
//!
//! Everything outside `ui` (behind the `web` feature) is free of browser dependencies.
// The first-load build (`lite`) compiles the whole crate and uses a part of it; what it
// leaves unused is the whole app's, not dead code.
#![cfg_attr(feature = "player", allow(dead_code, unused_imports))]

pub mod analysis;
pub mod cli;
pub mod model;
pub mod session;
pub mod teach;
pub mod view;
pub mod vocab;

#[cfg(feature = "web")]
pub mod ui;
