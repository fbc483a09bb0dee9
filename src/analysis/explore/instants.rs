//! Where a fault can make a difference, read off a run: the critical instants.
//!
//! Time is not enumerated millisecond by millisecond. What decides a run's outcome is the
//! *order* of its events relative to each other and to the lease deadlines, so the
//! instants that matter are the run's own: the true time of each event, and of each lease
//! deadline on each clock (the lock service's expiry, each client's believed deadline).
//! Between two consecutive critical instants nothing is due, so any fault starting or
//! ending in that gap orders the same way; one representative per gap (the instant right
//! after the earlier one) is tried. A fault at `t` acts before the events due at `t` (the
//! simulator schedules faults first), so the representative `c + 1` is "just after `c`"
//! and, at the same time, "just before" whatever comes next.

use crate::model::clock::Clock;
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use std::collections::BTreeSet;

/// A lease deadline as one node counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub node: NodeId,
    /// True time it was set (the grant, the renewal).
    pub set_at: i64,
    /// True time it falls due on the node's clock as the run started.
    pub due: i64,
    /// Local time left at `set_at`, on the node's timer clock.
    pub local_left: i64,
}

/// The critical instants of one run.
pub struct Instants {
    /// Event times and deadlines, sorted, within the horizon.
    pub critical: Vec<i64>,
    /// One representative per gap: the first critical instant, then each one plus 1.
    pub gaps: Vec<i64>,
    pub deadlines: Vec<Deadline>,
    horizon: i64,
}

impl Instants {
    pub fn of(trace: &Trace, horizon: i64) -> Instants {
        let clock = |node: NodeId| {
            trace
                .nodes
                .iter()
                .find(|(n, _)| *n == node)
                .map_or(Clock::default(), |(_, c)| *c)
        };
        let mut deadlines = Vec::new();
        for e in &trace.entries {
            let local = match e.event {
                Event::BeliefStarted { deadline_local, .. }
                | Event::DeadlineExtended { deadline_local, .. } => deadline_local,
                Event::LeaseGranted { expires_local, .. }
                | Event::LeaseRenewed { expires_local, .. } => expires_local,
                _ => continue,
            };
            let c = clock(e.node);
            deadlines.push(Deadline {
                node: e.node,
                set_at: e.t.0,
                due: c.true_time_of(local, e.t).0,
                local_left: local - c.timer_reading(e.t),
            });
        }
        let mut set: BTreeSet<i64> = trace.entries.iter().map(|e| e.t.0).collect();
        set.extend(deadlines.iter().map(|d| d.due));
        set.retain(|&t| (0..=horizon).contains(&t));
        let critical: Vec<i64> = set.into_iter().collect();
        let mut gaps: BTreeSet<i64> = critical.iter().map(|c| c + 1).collect();
        gaps.extend(critical.first().copied());
        gaps.retain(|&t| t <= horizon);
        Instants {
            critical,
            gaps: gaps.into_iter().collect(),
            deadlines,
            horizon,
        }
    }

    /// The gaps of one node's own events: a fault that only that node feels (a pause)
    /// orders the same anywhere between two of its events.
    pub fn node_gaps(&self, trace: &Trace, nodes: &[NodeId]) -> Vec<i64> {
        let mut set: BTreeSet<i64> = trace
            .entries
            .iter()
            .filter(|e| nodes.contains(&e.node))
            .map(|e| e.t.0 + 1)
            .collect();
        set.extend(self.critical.first().copied());
        set.retain(|&t| t <= self.horizon);
        set.into_iter().collect()
    }

    /// Lengths for a fault starting at `start` so that it ends in each later gap, up to
    /// `max` (which is always offered, if the run is long enough to need it).
    pub fn lengths(&self, start: i64, max: i64) -> Vec<i64> {
        self.ends(start, &[0], &self.gaps, max)
    }

    /// Lengths for a fault that delays what comes after it: with `shifts` the offsets of
    /// the delayed node's later actions from its first one, each action is made to land in
    /// each later gap (a pause ending at `u` moves an action `d` after it to `u + d`), and
    /// onto each critical instant itself: an action at the same millisecond as another
    /// event orders by which was scheduled first, a third possibility.
    pub fn shifted_lengths(&self, start: i64, shifts: &[i64], max: i64) -> Vec<i64> {
        let mut targets: Vec<i64> = self.gaps.iter().chain(&self.critical).copied().collect();
        targets.sort();
        targets.dedup();
        self.ends(start, shifts, &targets, max)
    }

    fn ends(&self, start: i64, shifts: &[i64], targets: &[i64], max: i64) -> Vec<i64> {
        let mut set = BTreeSet::new();
        for &d in shifts {
            set.extend(
                targets
                    .iter()
                    .map(|&g| g - d)
                    .filter(|&u| u > start && u - start <= max)
                    .map(|u| u - start),
            );
        }
        if max > 0 && set.last().is_none_or(|&l| l < max) && start + max <= self.horizon {
            set.insert(max);
        }
        set.into_iter().collect()
    }

    pub fn horizon(&self) -> i64 {
        self.horizon
    }
}
