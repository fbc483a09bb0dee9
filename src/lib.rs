//! Leaseline: a deterministic model of lease-based distributed locking, for teaching.
//!
//! Clients acquire leases from a coordinator, renew them, work, and write to a storage
//! resource carrying fencing tokens. Faults (pauses, partitions, clock jumps, delayed
//! messages, restarts) are data in the [`scenario::Scenario`]. A run produces an immutable
//! [`trace::Trace`]; the [`check`] module reads that trace and reports what went wrong;
//! [`projection`] folds the trace into "who believes what" at any step so a view can scrub
//! without re-simulating.
//!
//! # The determinism contract
//! Same scenario + seed → the same trace, byte for byte, natively and in wasm32. So: integer
//! time (milliseconds), our own PRNG ([`sim::rng`]), an event queue ordered by
//! (time, sequence number), no hash-ordered iteration and no `usize` in anything hashed.
//!
//! Everything outside `ui` (behind the `web` feature) is free of browser dependencies.

pub mod check;
pub mod cli;
pub mod compare;
pub mod course;
pub mod draft;
pub mod edit;
pub mod embed;
pub mod export;
pub mod layout;
pub mod link;
pub mod narrate;
pub mod playback;
pub mod projection;
pub mod scenario;
pub mod share;
pub mod sim;
pub mod teach;
pub mod trace;
pub mod trace_json;
pub mod vecmap;

#[cfg(feature = "web")]
pub mod ui;
