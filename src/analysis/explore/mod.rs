//! Explore: every way a scenario breaks, within bounds — a search over added faults that
//! returns minimal counterexamples, or says the scenario held for every schedule tried.
//!
//! The search is breadth-first over *schedules*: the scenario as given (depth 0), then
//! every run with one fault added, then two, up to the bound `K`. A run is extended only
//! with faults derived from that run itself ([`candidates`], at its critical
//! [`instants`]), and only at or after its last added fault: faults never change what
//! happened before them, so adding them in time order reaches every set of faults once.
//!
//! Three rules keep it small and its answers minimal:
//! - a run that violates safety is a counterexample and is not extended (a superset of
//!   its faults is never minimal);
//! - runs are deduplicated by their trace (the same trace is one run however it was
//!   reached), compared by a [`key`] of its entries rather than the public digest, which
//!   would write every entry out as JSON;
//! - only one run per *ordering* — the sequence of who did what, without times — is
//!   extended further, so a deeper level grows with the number of distinct orderings, not
//!   with every millisecond a fault could be shifted by.
//!
//! A fault's own consequences are instants too (a paused client's write lands after a
//! write the pause itself caused), which the run it extends cannot show; so each class's
//! example is then *shrunk*: its last fault is shortened to the lengths derived from the
//! violating run itself, shortest first, while the run stays in the class.
//!
//! Violations are grouped into classes (violation kinds × clients involved × kinds of
//! added fault); each class keeps its minimal example: fewest added faults, then least
//! total fault time, then earliest. The same input gives the same report, whatever the
//! machine: integer time, no hash-ordered iteration, no clock read.
//!
//! Progress and cancellation: the caller's closure is called every `every` schedules with
//! the counts so far; returning `false` stops the search (a worker's Cancel). Nothing here
//! reads the wall clock, so it runs the same in a Web Worker. [`explore_live`]'s closure
//! also sees the classes found so far, in the order they were found (each with its best
//! example yet), so a page can list them while the search goes on; the report's classes
//! are the same ones, shrunk and sorted minimal first.

pub mod candidates;
pub mod engine;
pub mod fault;
pub mod hole;
pub mod instants;
pub mod key;
pub mod report;
pub mod request;
pub mod wire;

use crate::analysis::check::{Violation, ViolationKind};
use crate::model::scenario::Scenario;
use crate::vocab::ids::NodeId;
use fault::{Added, FaultClass};

pub use engine::{explore_on, Eval, Evaluator, Explorer, MAX_WORKERS};

/// The most faults the search may add; it adds at least one, so `K` is 1..=3.
pub const MAX_FAULTS: u8 = 3;

/// What the search may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// At most this many added faults, 1..=3.
    pub max_faults: u8,
    /// The longest pause, cut, delay, outage or clock jump, in ms.
    pub max_len_ms: i64,
    /// The kinds of fault it may add, in the order they are tried.
    pub classes: Vec<FaultClass>,
    /// Stop after this many schedules (the report then says it did not finish).
    pub budget: u64,
    /// Keep the scenario's own faults (`false`: start from the scenario without them).
    pub keep_scripted: bool,
}

impl Bounds {
    /// The defaults for `sc`: one fault of any kind, lengths up to twice the longest lease
    /// (enough to outlast any lease), a million schedules.
    pub fn for_scenario(sc: &Scenario) -> Bounds {
        let ttl = sc.clients.iter().map(|c| c.ttl_ms).max().unwrap_or(0);
        Bounds {
            max_faults: 1,
            max_len_ms: (2 * ttl).clamp(1, sc.horizon_ms.max(1)),
            classes: FaultClass::ALL.to_vec(),
            budget: 1_000_000,
            keep_scripted: true,
        }
    }

    /// Refuses bounds the search cannot honour, naming the option.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_FAULTS).contains(&self.max_faults) {
            return Err(format!(
                "max faults: {} is not between 1 and {MAX_FAULTS}",
                self.max_faults
            ));
        }
        if self.max_len_ms < 1 {
            return Err(format!(
                "max pause: {} ms is not a positive length",
                self.max_len_ms
            ));
        }
        if self.classes.is_empty() {
            return Err("faults: no fault kind chosen".into());
        }
        Ok(())
    }
}

/// The counts so far, for a progress bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Schedules simulated.
    pub tried: u64,
    /// Schedules known so far (tried plus those waiting at the current depth).
    pub total: u64,
    pub distinct_runs: u64,
    pub violating: u64,
    /// The number of added faults being tried now.
    pub depth: u8,
    /// Bumped each time a class is found or its example improves: a caller that lists the
    /// classes as they come need look again only when it changed.
    pub found: u64,
}

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every schedule within the bounds was tried.
    Complete,
    /// It stopped at the budget of schedules.
    Budget,
    /// The progress callback asked it to stop.
    Cancelled,
}

/// One counterexample: the faults added, the scenario that reproduces it, and what broke.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    pub faults: Vec<Added>,
    /// The input scenario with the faults written in: run it to see the violation.
    pub scenario: Scenario,
    /// The first violation of the run.
    pub first: Violation,
    pub kinds: Vec<ViolationKind>,
    /// Total added fault time (see [`Added::cost`]).
    pub cost: i64,
    /// For a stale write or a repeated token: the broken part that let it through a fence
    /// (see [`hole`]).
    pub through: Option<hole::Hole>,
    pub digest: String,
}

/// A class of violations and its minimal example.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    pub kinds: Vec<ViolationKind>,
    /// The clients the violations name.
    pub clients: Vec<NodeId>,
    /// The kinds of the added faults (empty: the scenario breaks as given).
    pub fault_kinds: Vec<FaultClass>,
    /// Distinct violating runs in the class.
    pub runs: u64,
    pub example: Counterexample,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub bounds: Bounds,
    /// Schedules simulated (the scenario as given counts as one).
    pub schedules: u64,
    /// Distinct traces among them.
    pub distinct_runs: u64,
    /// Distinct orderings of events among the safe runs (those extended further).
    pub orderings: u64,
    /// Distinct runs that violate safety.
    pub violating: u64,
    /// Minimal first: fewest faults, least fault time, then by class.
    pub classes: Vec<Class>,
    /// The scenario (with or without its own faults, as bounded) breaks with none added.
    pub breaks_as_given: bool,
    /// In that run with no fault added, storage accepted no write and its fence refused
    /// this many (a service that issues no token, fenced): safe because nothing gets done,
    /// which the report says beside "safe within these bounds". `None` when a write lands,
    /// or none is sent.
    pub standstill: Option<u32>,
    pub ended: Ended,
}

impl Report {
    /// No violation, and every schedule within the bounds was tried. Never "safe": safe
    /// within these bounds only.
    pub fn safe_within_bounds(&self) -> bool {
        self.classes.is_empty() && self.ended == Ended::Complete
    }
}

/// What a class groups by: violation kinds × clients × kinds of added fault.
pub type ClassKey = (Vec<ViolationKind>, Vec<NodeId>, Vec<FaultClass>);

/// A class's key: what it groups by.
fn key_of(c: &Class) -> ClassKey {
    (c.kinds.clone(), c.clients.clone(), c.fault_kinds.clone())
}

/// Searches `sc` within `bounds`, calling `progress` every `every` schedules (and once at
/// the end); the search stops when it returns `false`.
pub fn explore(
    sc: &Scenario,
    bounds: &Bounds,
    every: u64,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Report {
    explore_live(sc, bounds, every, &mut |p, _| progress(p))
}

/// [`explore`], with the classes found so far handed to `progress` too, in the order they
/// were found, each with its best example yet (not yet shrunk: see the module doc).
pub fn explore_live(
    sc: &Scenario,
    bounds: &Bounds,
    every: u64,
    progress: &mut dyn FnMut(&Progress, &[Class]) -> bool,
) -> Report {
    engine::explore_on(sc, bounds, 1, every, progress)
}
