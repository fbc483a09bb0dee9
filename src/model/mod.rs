//! The model: what a run is made of, and the engine that produces it.
//!
//! Read it bottom-up, in the order each part may import the ones before it:
//! - [`flavors`]: the six real lock services (plus the textbook one) as data tables —
//!   tokens, expiry, fail-over, lock-delay, what the client library does;
//! - [`scenario`]: a run's input as data (clients, clocks, network, faults), its JSON codec
//!   and its validation;
//! - [`clock`]: a node's local clock (offset, drift, jumps) as a pure function of true time;
//! - [`msg`]: what nodes say to each other;
//! - [`trace`]: the run's output, an immutable list of timestamped events;
//! - [`sim`]: the sans-I/O handlers and the run loop that turns a scenario into a trace;
//! - [`recorded`]: a real run's recorded trace (`docs/trace-format.md`), read and turned
//!   into a [`trace::Trace`], and the model's runs written in that format.
//!
//! May import: [`crate::vocab`]. Nothing here reads the trace back (that is
//! [`crate::analysis`]) or knows that a page exists.

pub mod clock;
pub mod flavors;
pub mod msg;
pub mod recorded;
pub mod scenario;
pub mod sim;
pub mod trace;
