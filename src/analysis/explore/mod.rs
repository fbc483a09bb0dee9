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
pub mod fault;
pub mod hole;
pub mod instants;
pub mod key;
pub mod request;

use crate::analysis::check::{check, Violation, ViolationKind};
use crate::model::scenario::Scenario;
use crate::model::sim::run;
use crate::model::trace::{json, Trace};
use crate::vocab::ids::NodeId;
use candidates::candidates;
use fault::{Added, FaultClass};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

/// Fewest and most faults the search may add (issue #15: K = 1..3).
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
    pub ended: Ended,
}

impl Report {
    /// No violation, and every schedule within the bounds was tried. Never "safe": safe
    /// within these bounds only.
    pub fn safe_within_bounds(&self) -> bool {
        self.classes.is_empty() && self.ended == Ended::Complete
    }
}

type ClassKey = (Vec<ViolationKind>, Vec<NodeId>, Vec<FaultClass>);

struct Search<'a> {
    base: Scenario,
    bounds: &'a Bounds,
    runs: BTreeSet<u64>,
    orders: BTreeSet<u64>,
    /// In the order found (what a live list shows); `index` finds a class by its key.
    classes: Vec<Class>,
    index: BTreeMap<ClassKey, usize>,
    p: Progress,
    every: u64,
    progress: &'a mut dyn FnMut(&Progress, &[Class]) -> bool,
}

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
    let mut base = sc.clone();
    if !bounds.keep_scripted {
        base.faults.clear();
    }
    let mut s = Search {
        base,
        bounds,
        runs: BTreeSet::new(),
        orders: BTreeSet::new(),
        classes: Vec::new(),
        index: BTreeMap::new(),
        p: Progress::default(),
        every: every.max(1),
        progress,
    };
    let ended = s.search();
    s.shrink();
    (s.progress)(&s.p, &s.classes);
    let mut classes = s.classes;
    // Minimal first; ties by the class's key, so the order never depends on which class
    // the search happened to find first.
    classes.sort_by_cached_key(|c| {
        let e = &c.example;
        (e.faults.len(), e.cost, e.first.at, key_of(c))
    });
    Report {
        bounds: bounds.clone(),
        schedules: s.p.tried,
        distinct_runs: s.p.distinct_runs,
        orderings: s.orders.len() as u64,
        violating: s.p.violating,
        breaks_as_given: classes.iter().any(|c| c.example.faults.is_empty()),
        classes,
        ended,
    }
}

impl Search<'_> {
    fn search(&mut self) -> Ended {
        let mut frontier: Vec<(Vec<Added>, Trace)> = Vec::new();
        self.p.total = 1;
        if let Some(t) = self.try_schedule(&[]) {
            frontier.push((Vec::new(), t));
        }
        for depth in 1..=self.bounds.max_faults {
            self.p.depth = depth;
            let mut next = Vec::new();
            for (faults, trace) in std::mem::take(&mut frontier) {
                let mut sc = self.base.clone();
                faults.iter().for_each(|f| f.apply(&mut sc));
                let last = faults.last().map(|f| (f.at(), f.clone()));
                let cands: Vec<Added> =
                    candidates(&sc, &trace, &self.bounds.classes, self.bounds.max_len_ms)
                        .into_iter()
                        // In time order, each set once (ties broken by the fault itself).
                        .filter(|c| last.as_ref().is_none_or(|l| (c.at(), c.clone()) > *l))
                        .collect();
                self.p.total += cands.len() as u64;
                for c in cands {
                    if self.p.tried >= self.bounds.budget {
                        return Ended::Budget;
                    }
                    let mut schedule = faults.clone();
                    schedule.push(c);
                    let extend = self.try_schedule(&schedule);
                    if self.p.tried.is_multiple_of(self.every)
                        && !(self.progress)(&self.p, &self.classes)
                    {
                        return Ended::Cancelled;
                    }
                    if let (Some(t), true) = (extend, depth < self.bounds.max_faults) {
                        next.push((schedule, t));
                    }
                }
            }
            frontier = next;
        }
        Ended::Complete
    }

    /// Shrinks each class's example along its last fault's length (see the module doc).
    /// (Each class's shrinking reads only its own example, so the order does not matter.)
    fn shrink(&mut self) {
        for i in 0..self.classes.len() {
            let key = key_of(&self.classes[i]);
            for _ in 0..32 {
                let Some(better) = self.shorter(i, &key) else {
                    break;
                };
                self.classes[i].example = better;
                self.p.found += 1;
            }
        }
    }

    /// A shorter example of the class `i` (whose key is `key`), if the violating run's
    /// instants offer one.
    fn shorter(&mut self, i: usize, key: &ClassKey) -> Option<Counterexample> {
        let e = &self.classes.get(i)?.example;
        let (last, prefix) = e.faults.split_last()?;
        let shape = last.shape()?;
        let horizon = e.scenario.horizon_ms;
        let mut sc = self.base.clone();
        prefix.iter().for_each(|f| f.apply(&mut sc));
        let trace = run(&e.scenario);
        let mut shorter: Vec<Added> =
            candidates(&sc, &trace, &[last.class()], self.bounds.max_len_ms)
                .into_iter()
                .filter(|c| {
                    c.shape().as_ref() == Some(&shape) && c.cost(horizon) < last.cost(horizon)
                })
                .collect();
        shorter.sort_by_key(|c| c.cost(horizon));
        let prefix = prefix.to_vec();
        for c in shorter {
            let mut faults = prefix.clone();
            faults.push(c);
            let (found, _) = self.evaluate(&faults);
            self.p.tried += 1;
            if let Some((k, example)) = found {
                if k == *key {
                    return Some(example);
                }
            }
        }
        None
    }

    /// Runs one schedule; returns its trace when it is safe, new, and of an ordering not
    /// seen before (the runs worth extending).
    fn try_schedule(&mut self, faults: &[Added]) -> Option<Trace> {
        self.p.tried += 1;
        let (found, trace) = self.evaluate(faults);
        if !self.runs.insert(key::run_key(&trace)) {
            return None;
        }
        self.p.distinct_runs += 1;
        let Some((key, example)) = found else {
            return self.orders.insert(ordering(&trace)).then_some(trace);
        };
        self.p.violating += 1;
        let rank = |e: &Counterexample| (e.faults.len(), e.cost, e.faults.first().map(Added::at));
        let classes = &mut self.classes;
        let i = *self.index.entry(key.clone()).or_insert_with(|| {
            classes.push(Class {
                kinds: key.0,
                clients: key.1,
                fault_kinds: key.2,
                runs: 0,
                example: example.clone(),
            });
            self.p.found += 1;
            classes.len() - 1
        });
        let class = &mut classes[i];
        class.runs += 1;
        if rank(&example) < rank(&class.example) {
            class.example = example;
            self.p.found += 1;
        }
        None
    }

    /// Runs one schedule: its trace, and its class and example when it violates safety.
    fn evaluate(&self, faults: &[Added]) -> (Option<(ClassKey, Counterexample)>, Trace) {
        let mut sc = self.base.clone();
        faults.iter().for_each(|f| f.apply(&mut sc));
        let trace = run(&sc);
        let verdict = check(&trace);
        if verdict.safe {
            return (None, trace);
        }
        let mut kinds: Vec<ViolationKind> = verdict.violations.iter().map(|v| v.kind).collect();
        kinds.sort();
        kinds.dedup();
        let mut clients: Vec<NodeId> = verdict
            .violations
            .iter()
            .flat_map(|v| v.nodes.iter().copied())
            .filter(|n| n.is_client())
            .collect();
        clients.sort();
        clients.dedup();
        let mut fault_kinds: Vec<FaultClass> = faults.iter().map(Added::class).collect();
        fault_kinds.sort();
        fault_kinds.dedup();
        let horizon = sc.horizon_ms;
        let through = verdict
            .violations
            .iter()
            .find(|v| {
                matches!(
                    v.kind,
                    ViolationKind::StaleWrite | ViolationKind::TokenRegression
                )
            })
            .and_then(|v| hole::let_through(&sc, &trace, v));
        let example = Counterexample {
            through,
            faults: faults.to_vec(),
            first: verdict.violations[0].clone(),
            scenario: sc,
            kinds: kinds.clone(),
            cost: faults.iter().map(|f| f.cost(horizon)).sum(),
            digest: trace.digest_hex(),
        };
        (Some(((kinds, clients, fault_kinds), example)), trace)
    }
}

/// A key of the run's order of events without their times: who did what, about whom.
fn ordering(trace: &Trace) -> u64 {
    let mut h = key::Mix::default();
    for e in &trace.entries {
        e.node.hash(&mut h);
        // The event's variant, not its fields: `Sent` to the lock service is one step
        // whatever the message's id or arrival time.
        std::mem::discriminant(&e.event).hash(&mut h);
        json::about(&e.event).hash(&mut h);
    }
    h.finish()
}
