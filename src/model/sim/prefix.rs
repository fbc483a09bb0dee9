//! A run stopped at an instant and finished with faults added at or after it: what a
//! search that tries many faults on one run uses to skip simulating the common start
//! again. Exact because the simulator queues the scenario's faults of fixed times first
//! (see [`Prefix`]).

use super::*;

/// A run of a scenario stopped before an instant `t`: every event due before `t` handled,
/// none due at or after it. [`Prefix::finish`] completes a copy of it for the scenario
/// with more faults appended, all at or after `t`, giving the trace [`run`] gives for that
/// scenario, byte for byte, without simulating the start again.
///
/// Why that is exact: [`run`] queues the scenario's faults of fixed times first, in order
/// (one placed by an event is queued when its event comes, like everything later), so
/// the faults appended to it are queued right after those, before the clients'
/// starts and everything the run queues later. Nothing they do happens before `t`, so up
/// to `t` the run with them is this run, but for the queue's tie-breaking numbers, which
/// are all larger by the number of added faults from that point on. Finishing inserts the
/// added faults at exactly that point of the queue's numbering
/// ([`EventQueue::insert_before`]), so every later tie between events due at one instant
/// is broken as in the full run; the generator's draws, the nodes and the trace so far
/// are copied as they are. A scenario that differs in anything else (a clock's drift, a
/// client, the seed) cannot be finished from here: `finish` says so.
pub struct Prefix<'s> {
    sim: Sim<'s>,
    before: Time,
    /// The longest run finished from here so far: room to reserve for the next, so that
    /// its trace is not grown (and copied) step by step.
    longest: std::cell::Cell<usize>,
    /// A finished tail's buffer handed back ([`Prefix::recycle`]), for the next tail to
    /// write into: a search finishes hundreds of thousands of tails from a few prefixes,
    /// and a new buffer for each would be a large allocation (and a free) per run.
    spare: std::cell::Cell<Vec<Entry>>,
}

impl<'s> Prefix<'s> {
    /// The run of `sc`, before anything happened.
    pub fn new(sc: &'s Scenario) -> Prefix<'s> {
        Prefix {
            sim: Sim::new(sc),
            before: Time(i64::MIN),
            longest: std::cell::Cell::new(0),
            spare: std::cell::Cell::new(Vec::new()),
        }
    }

    /// The instant the run is stopped before.
    pub fn before(&self) -> Time {
        self.before
    }

    /// The run's nodes in lane order, each with its clock at the start (a trace's `nodes`).
    pub fn nodes(&self) -> Vec<(NodeId, Clock)> {
        self.sim.nodes()
    }

    /// The trace's entries so far: the first entries of every run finished from here.
    pub fn entries(&self) -> &[Entry] {
        &self.sim.trace
    }

    /// Handles the events due before `t` (an earlier `t` than the current one does
    /// nothing). It stops as [`run`]'s loop would at the horizon or the event limit,
    /// leaving the rest to `finish`.
    pub fn advance(&mut self, t: Time) {
        let horizon = Time(self.sim.sc.horizon_ms);
        let limit = self.sim.sc.max_events as usize;
        while let Some(p) = self.sim.queue.peek_time() {
            if p >= t || p > horizon || self.sim.trace.len() >= limit {
                break;
            }
            let Some((p, ev)) = self.sim.queue.pop() else {
                break;
            };
            self.sim.now = p;
            self.sim.dispatch(ev, false);
        }
        self.before = self.before.max(t);
    }

    /// The trace of `child` — this run's scenario with faults appended, all at or after
    /// [`Prefix::before`] — finished from here; `None` when `child` is not such a
    /// scenario, or in the first-load build, which never resumes (then run it whole).
    pub fn finish(&self, child: &Scenario) -> Option<Trace> {
        let trace = self.resume(child, true)?.run();
        self.longest
            .set(self.longest.get().max(trace.entries.len()));
        Some(trace)
    }

    /// As [`Prefix::finish`], but without a copy of the entries so far: the rest of the
    /// run ([`Tail`]), for a reader that has read those entries already (a search judging
    /// the many runs that extend one, see `analysis::explore`).
    pub fn finish_tail(&self, child: &Scenario) -> Option<Tail> {
        let mut sim = self.resume(child, false)?;
        let outcome = sim.go();
        let len = sim.skipped + sim.trace.len();
        self.longest.set(self.longest.get().max(len));
        Some(Tail {
            skipped: sim.skipped,
            entries: sim.trace,
            outcome,
            end: sim.now,
        })
    }

    /// Hands back a tail read to the end: its buffer is reused by the next
    /// [`Prefix::finish_tail`] (the entries are dropped).
    pub fn recycle(&self, tail: Tail) {
        let mut entries = tail.entries;
        entries.clear();
        self.spare.set(entries);
    }

    /// The copy of this run going on with `child`'s added faults (see [`Prefix::finish`]).
    fn resume<'c>(&self, child: &'c Scenario, whole: bool) -> Option<Sim<'c>> {
        let n = self.sim.sc.faults.len();
        // The queue numbered the faults of fixed times first, before anything else.
        let queued = self.sim.sc.faults.iter().filter(|f| f.after.is_none());
        let first_after = queued.count() as u64;
        if !extends(self.sim.sc, child) {
            return None;
        }
        let added = &child.faults[n..];
        // (An added fault placed by an event is not resumed: run the child whole.)
        if added
            .iter()
            .any(|f| Time(f.at_ms) < self.before || f.after.is_some())
        {
            return None;
        }
        let room = self.longest.get().max(self.sim.trace.len());
        // A whole trace is kept by the caller: only a tail's buffer comes back.
        let spare = if whole { Vec::new() } else { self.spare.take() };
        let mut sim = self.sim.fork(child, whole, room, spare);
        let faults = added
            .iter()
            .enumerate()
            .map(|(i, f)| (Time(f.at_ms), Ev::Fault((n + i) as u32)))
            .collect();
        sim.queue.insert_before(first_after, faults);
        Some(sim)
    }
}

/// Whether `b` is `a` with faults appended and nothing else changed. Every field is named,
/// so a field added to [`Scenario`] must be considered here.
pub(super) fn extends(a: &Scenario, b: &Scenario) -> bool {
    let Scenario {
        version,
        name,
        description,
        seed,
        horizon_ms,
        max_events,
        coordinator,
        storage,
        network,
        clients,
        faults,
        walkthrough,
        questions,
    } = a;
    b.faults.len() >= faults.len()
        && b.faults[..faults.len()] == faults[..]
        && *version == b.version
        && *seed == b.seed
        && *horizon_ms == b.horizon_ms
        && *max_events == b.max_events
        && *coordinator == b.coordinator
        && *storage == b.storage
        && *network == b.network
        && *clients == b.clients
        && *name == b.name
        && *description == b.description
        && *walkthrough == b.walkthrough
        && *questions == b.questions
}
