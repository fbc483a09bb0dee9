//! Reading a run: what happened, and whether it was safe.
//!
//! [`projection`] is the one fold of the trace — who believes what, which lease is live,
//! what storage holds — at any step, from keyframes, without re-simulating; [`believed`]
//! reads off the same fold, for each lease a client believed in and the lock service
//! expired, where the client's clock ended it against where the service did. [`check`] reads
//! a run and returns the verdict (two believers, stale writes, lost updates, token
//! regressions, duplicate effects) and, beside it, [`liveness`]: whose work never completed.
//! [`compare`] lines two runs up and finds where they part. [`explore`] searches the
//! schedules of added faults around a scenario for minimal counterexamples. [`bound`] is
//! the safety calculator: the worst-case overlap of two believers from a client's lease
//! settings and bounds on pauses, delays and drift, with the run that attains it.
//!
//! May import: [`crate::vocab`] and [`crate::model`]. No prose for learners lives here
//! (that is [`crate::teach::walkthrough`]), and no geometry (that is [`crate::view`]).

pub mod believed;
pub mod bound;
pub mod check;
pub mod compare;
pub mod explore;
pub mod liveness;
pub mod projection;
