//! The search's engine, split so that it can run on several cores and still give one
//! answer: a pure, parallel part (evaluating schedules) and an in-order merge.
//!
//! Almost all of a search's time is spent evaluating schedules: simulating the scenario
//! with the faults written in, checking the run, keying it, and — for a safe run that may
//! be extended — deriving its candidate faults for the next depth. That is a pure function
//! of (base scenario, bounds, schedule) ([`Evaluator::eval`]), so any thread or Web Worker
//! may do it. Everything that decides the report — deduplication by run and by ordering,
//! the classes and their examples, the budget, progress and Cancel — is done by one
//! [`Explorer`], which merges the evaluations **strictly in job order**, whichever worker
//! sent them and in whatever order they arrived. The jobs are handed out in the very order
//! the breadth-first loop would try them (depth by depth; within a depth, each extended
//! run's candidates in turn), so the merge makes exactly the decisions of the one-thread
//! search, and the report is the same byte for byte for 1, 2, 3 … workers. One worker is
//! just the case where the merging thread evaluates every chunk itself.
//!
//! Why the jobs are schedules and not extended runs: a run's candidates (hundreds to tens
//! of thousands) vary a lot from run to run, so handing out runs would leave workers idle
//! behind a big one; chunks of schedules keep every worker equally busy and progress
//! smooth. A worker
//! handed a chunk of a parent's jobs simulates that parent once more, only up to its
//! jobs' fault instants, and finishes each job's run from there rather than from the
//! start ([`Evaluator::eval_all`]); each run is judged as soon as it is finished, so a
//! worker holds one run at a time.
//!
//! Memory is bounded by what is handed out, not by what waits. A run to extend waits in
//! the queue as its faults alone; its candidate faults (often tens of thousands, one per
//! instant and kind) are derived by the merge only when the hand-out reaches it
//! ([`Explorer::take`]) — one more simulation of that run, against the thousands of jobs
//! it then hands out. Keeping every waiting run's candidates instead grew a two-fault
//! search of a Redlock lesson past 5 GB within seconds (thousands of runs to extend,
//! each with some 58,000 candidates), which a browser's Web Worker ends as an error.
//!
//! The examples are rebuilt by the merge: a worker sends only a violating run's class, and
//! the merge rebuilds the scenario, digest and explanation only when the run becomes its
//! class's example (a few dozen times per search). Shrinking, at the end, is sequential.

use super::candidates::candidates;
use super::fault::Added;
use super::{hole, Report};
use super::{key, key_of, Bounds, Class, ClassKey, Counterexample, Ended, Progress};
use crate::analysis::check::{check, violations, Safety, Violation, ViolationKind};
use crate::model::scenario::Scenario;
use crate::model::sim::{run, Prefix};
use crate::model::trace::Trace;
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;
use std::collections::{BTreeMap, VecDeque};

/// The most threads (or Web Workers) one search uses.
pub const MAX_WORKERS: usize = 64;

/// Schedules per chunk handed to a thread: big enough that handing out costs nothing,
/// small enough that the threads finish a round together.
const CHUNK: usize = 64;

/// Chunks per thread in one round of the native driver.
const ROUND: usize = 8;

/// Evaluates schedules: the base scenario (without its own faults when the bounds say so)
/// and the bounds. Shared read-only by every worker.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub base: Scenario,
    pub bounds: Bounds,
}

/// What evaluating one schedule tells the merge (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The run's deduplication key ([`key::run_key`]).
    pub run: u64,
    /// The key of a safe run's ordering (0 for a violating run: never extended).
    pub order: u64,
    /// A violating run's class.
    pub class: Option<ClassKey>,
}

impl Evaluator {
    pub fn new(sc: &Scenario, bounds: &Bounds) -> Evaluator {
        let mut base = sc.clone();
        if !bounds.keep_scripted {
            base.faults.clear();
        }
        Evaluator {
            base,
            bounds: bounds.clone(),
        }
    }

    /// The base scenario with `faults` written in.
    pub fn scenario(&self, faults: &[Added]) -> Scenario {
        let mut sc = self.base.clone();
        faults.iter().for_each(|f| f.apply(&mut sc));
        sc
    }

    /// Evaluates one schedule.
    pub fn eval(&self, faults: &[Added]) -> Eval {
        let (_, keys, broken) = self.run_whole(faults);
        judge(faults, keys, &broken)
    }

    /// Evaluates a chunk of schedules in order, as [`Evaluator::eval`] would one by one.
    ///
    /// The jobs that extend one run come in a row, their last faults in time order (a
    /// group's candidates). Their runs all begin as the run they extend, up to the added
    /// fault, so that run is simulated once, moving forward from one job's fault instant
    /// to the next, and each job's run is finished from a copy of it ([`Prefix`]) rather
    /// than simulated from the start: the same trace (see [`Prefix`]), for a fraction of
    /// the work when the fault is late. A job it cannot finish that way (a drift changes
    /// a clock from the start) is simulated whole.
    pub fn eval_all(&self, jobs: &[Vec<Added>]) -> Vec<Eval> {
        let mut out = Vec::with_capacity(jobs.len());
        let mut rest = jobs;
        while let Some((first, _)) = rest.split_first() {
            let Some((_, parent)) = first.split_last() else {
                // The scenario as given: nothing to resume from.
                out.push(self.eval(first));
                rest = &rest[1..];
                continue;
            };
            let n = rest
                .iter()
                .take_while(|f| f.split_last().is_some_and(|(_, p)| p == parent))
                .count();
            let (group, more) = rest.split_at(n);
            self.eval_group(parent, group, &mut out);
            rest = more;
        }
        out
    }

    /// The faults that extend `trace` (the run of `sc`, the base with `faults`): its
    /// candidates at or after the last added fault — in time order, each set once (ties
    /// broken by the fault itself).
    fn next_faults(&self, sc: &Scenario, trace: &Trace, faults: &[Added]) -> Vec<Added> {
        let last = faults.last().map(|f| (f.at(), f.clone()));
        candidates(sc, trace, &self.bounds.classes, self.bounds.max_len_ms)
            .into_iter()
            .filter(|c| last.as_ref().is_none_or(|l| (c.at(), c.clone()) > *l))
            .collect()
    }

    /// Evaluates `group`, jobs that each add one fault to `parent` (see
    /// [`Evaluator::eval_all`]), into `out`.
    fn eval_group(&self, parent: &[Added], group: &[Vec<Added>], out: &mut Vec<Eval>) {
        let base = self.scenario(parent);
        let own = base.faults.len();
        // The candidates come kind by kind, each kind in time order: simulate in time
        // order. A drift is run whole: it changes a clock from the start.
        let mut by_time: Vec<usize> = (0..group.len()).collect();
        by_time.sort_by_key(|&i| resumable(&group[i]).map(Added::at));
        let mut prefix = Prefix::new(&base);
        // The keys of the stopped run's entries, the first entries of every run finished
        // from it.
        let mut shared = key::Keys::default();
        // The same for the safety properties: the judgement of those entries.
        let mut judged = Safety::new(&prefix.nodes());
        // The copy of `judged` each tail is judged with, kept for its room.
        let mut scratch = judged.clone();
        // One scenario for every job: the parent's, with the job's fault written in
        // (every kind but a drift only appends faults).
        let mut child = base.clone();
        let mut evals: Vec<Option<Eval>> = vec![None; group.len()];
        for i in by_time {
            let faults = &group[i];
            // Stop the run before the job's fault and read what it did so far, once.
            let resumes = resumable(faults).is_some_and(|f| {
                child.faults.truncate(own);
                f.apply(&mut child);
                let Some(t) = child.faults[own..].iter().map(|f| f.at_ms).min() else {
                    return false;
                };
                prefix.advance(Time(t));
                let entries = prefix.entries();
                shared.feed(&entries[shared.fed()..]);
                judged.feed(&entries[judged.fed()..]);
                true
            });
            // Only the keys and the verdict are asked of the run: the rest of it will
            // do, without a copy of its start.
            let tail = resumes.then(|| prefix.finish_tail(&child)).flatten();
            let (keys, broken) = match tail {
                Some(tail) => {
                    scratch.clone_from(&judged);
                    let read = (shared.clone().of_tail(&tail), scratch.judge_tail(&tail));
                    prefix.recycle(tail);
                    read
                }
                None => {
                    let (_, keys, broken) = self.run_whole(faults);
                    (keys, broken)
                }
            };
            evals[i] = Some(judge(faults, keys, &broken));
        }
        out.extend(evals.into_iter().flatten());
    }

    /// The run of the base with `faults`, simulated from the start, its keys and its
    /// safety violations.
    fn run_whole(&self, faults: &[Added]) -> Judged {
        let trace = run(&self.scenario(faults));
        let keys = key::Keys::default().of(&trace);
        let broken = violations(&trace);
        (trace, keys, broken)
    }

    /// Runs one schedule: its trace, and its class and example when it violates safety.
    pub fn example(&self, faults: &[Added]) -> (Option<(ClassKey, Counterexample)>, Trace) {
        let sc = self.scenario(faults);
        let trace = run(&sc);
        let verdict = check(&trace);
        if verdict.safe {
            return (None, trace);
        }
        let key = class_of(&verdict.violations, faults);
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
            kinds: key.0.clone(),
            cost: faults.iter().map(|f| f.cost(horizon)).sum(),
            digest: trace.digest_hex(),
        };
        (Some((key, example)), trace)
    }
}

/// The writes the fence refused in `trace`, when storage accepted none of them (and was
/// sent some): a run that is safe only because nothing gets done ([`Report::standstill`]).
fn standstill(trace: &Trace) -> Option<u32> {
    let stats = check(trace).stats;
    (stats.writes_accepted == 0 && stats.writes_rejected > 0).then_some(stats.writes_rejected)
}

/// A run, its (run, ordering) keys and its safety violations.
type Judged = (Trace, (u64, u64), Vec<Violation>);

/// The evaluation of the schedule `faults`, whose run has the (run, ordering) keys `keys`
/// and the safety violations `broken`.
fn judge(faults: &[Added], (run, order): (u64, u64), broken: &[Violation]) -> Eval {
    if broken.is_empty() {
        return Eval {
            run,
            order,
            class: None,
        };
    }
    Eval {
        run,
        order: 0,
        class: Some(class_of(broken, faults)),
    }
}

/// A violating run's class: its violation kinds, the clients they name, the kinds of the
/// faults added.
fn class_of(violations: &[Violation], faults: &[Added]) -> ClassKey {
    let mut kinds: Vec<ViolationKind> = violations.iter().map(|v| v.kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut clients: Vec<NodeId> = violations
        .iter()
        .flat_map(|v| v.nodes.iter().copied())
        .filter(|n| n.is_client())
        .collect();
    clients.sort();
    clients.dedup();
    let mut fault_kinds: Vec<_> = faults.iter().map(Added::class).collect();
    fault_kinds.sort();
    fault_kinds.dedup();
    (kinds, clients, fault_kinds)
}

/// A set of run or ordering keys. Only ever asked whether it holds a key and how many it
/// holds — never listed — so a hash set answers the same as an ordered one, on every
/// target, and in constant time (a search keeps up to a million keys).
// The keys are hashes already; the keys' own word mixer ([`super::key::Mix`]) spreads
// them over the table. Fixed, no random seed.
type KeySet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<super::key::Mix>>;

/// A job's added fault, when its run can be finished from its parent's (see
/// [`Evaluator::eval_all`]): every kind but a drift, which changes a clock from the start.
fn resumable(faults: &[Added]) -> Option<&Added> {
    faults.last().filter(|a| !matches!(a, Added::Drift { .. }))
}

/// An extended run and its candidate faults: its jobs are the run's faults plus each
/// candidate in turn. The root (the scenario as given) is one job, with no faults. The
/// candidates are derived when the hand-out reaches the group (see the module doc).
struct Group {
    parent: Vec<Added>,
    cands: Option<Vec<Added>>,
    root: bool,
}

impl Group {
    /// How many jobs: known once the candidates are derived ([`Explorer::ready`]).
    fn len(&self) -> usize {
        if self.root {
            1
        } else {
            self.cands.as_ref().map_or(0, Vec::len)
        }
    }

    fn job(&self, i: usize) -> Vec<Added> {
        // Sized once: a clone grown by one would be copied again (twice per job).
        let mut f = Vec::with_capacity(self.parent.len() + 1);
        f.extend_from_slice(&self.parent);
        f.extend(self.cands.as_ref().and_then(|c| c.get(i)).cloned());
        f
    }
}

/// A chunk of jobs handed out: the index of its first job, and the schedules in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub first: u64,
    pub jobs: Vec<Vec<Added>>,
}

/// The resumable search (see the module doc): hands out jobs in order, takes back their
/// evaluations in any order, merges them in job order.
pub struct Explorer {
    ev: Evaluator,
    /// The groups not yet fully merged, in job order.
    groups: VecDeque<Group>,
    /// Jobs of `groups[0]` merged.
    merged_in_front: usize,
    /// Jobs merged (the index of the next one to merge).
    merged: u64,
    /// Jobs handed out (the index of the next one to hand out), and where it is: a group
    /// of `groups` and a job of it.
    handed: u64,
    hand: (usize, usize),
    /// Evaluations that arrived before the ones they follow, by their first job.
    pending: BTreeMap<u64, Vec<Eval>>,
    runs: KeySet,
    orders: KeySet,
    /// In the order found (what a live list shows); `index` finds a class by its key.
    classes: Vec<Class>,
    index: BTreeMap<ClassKey, usize>,
    p: Progress,
    ended: Option<Ended>,
}

impl Explorer {
    pub fn new(sc: &Scenario, bounds: &Bounds) -> Explorer {
        let mut groups = VecDeque::new();
        groups.push_back(Group {
            parent: Vec::new(),
            cands: None,
            root: true,
        });
        Explorer {
            ev: Evaluator::new(sc, bounds),
            groups,
            merged_in_front: 0,
            merged: 0,
            handed: 0,
            hand: (0, 0),
            pending: BTreeMap::new(),
            runs: KeySet::default(),
            orders: KeySet::default(),
            classes: Vec::new(),
            index: BTreeMap::new(),
            p: Progress {
                total: 1,
                ..Progress::default()
            },
            ended: None,
        }
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.ev
    }

    pub fn progress(&self) -> &Progress {
        &self.p
    }

    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// How the search ended, once it has.
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }

    /// Up to `n` jobs not yet handed out, in order; `None` when there are none now (the
    /// search ended, or every job known is out and the next depth waits for the merge).
    /// Jobs past the budget are never handed out: the merge would stop before them.
    pub fn take(&mut self, n: usize) -> Option<Chunk> {
        if self.ended.is_some() {
            return None;
        }
        let first = self.handed;
        let room = self.budget().saturating_sub(first);
        let n = n.min(usize::try_from(room).unwrap_or(usize::MAX));
        let mut jobs = Vec::new();
        while jobs.len() < n {
            let (g, i) = self.hand;
            self.ready(g);
            let Some(group) = self.groups.get(g) else {
                break;
            };
            if i < group.len() {
                jobs.push(group.job(i));
                self.hand.1 += 1;
            } else {
                self.hand = (g + 1, 0);
            }
        }
        self.handed += jobs.len() as u64;
        (!jobs.is_empty()).then_some(Chunk { first, jobs })
    }

    /// Takes back the evaluations of the chunk whose first job is `first`.
    pub fn give(&mut self, first: u64, evals: Vec<Eval>) {
        self.pending.insert(first, evals);
    }

    /// Evaluates a chunk on this thread.
    pub fn eval_here(&self, chunk: &Chunk) -> Vec<Eval> {
        self.ev.eval_all(&chunk.jobs)
    }

    /// Derives the candidates of group `g`, if it waits without them: the faults that
    /// extend its run.
    fn ready(&mut self, g: usize) {
        let Some(group) = self.groups.get_mut(g) else {
            return;
        };
        if group.root || group.cands.is_some() {
            return;
        }
        let sc = self.ev.scenario(&group.parent);
        group.cands = Some(self.ev.next_faults(&sc, &run(&sc), &group.parent));
    }

    /// Merges every evaluation that is next in job order, calling `progress` every `every`
    /// schedules (returning `false` cancels); returns how the search ended, once it has.
    pub fn merge(
        &mut self,
        every: u64,
        progress: &mut dyn FnMut(&Progress, &[Class]) -> bool,
    ) -> Option<Ended> {
        while self.ended.is_none() {
            let Some(evals) = self.pending.remove(&self.merged) else {
                break;
            };
            for e in evals {
                if !self.merge_one(e, every.max(1), progress) {
                    break;
                }
            }
        }
        if self.ended.is_none() && self.groups.is_empty() {
            self.p.depth = self.ev.bounds.max_faults;
            self.ended = Some(Ended::Complete);
        }
        // Every job within the budget merged, and one more waiting: the loop would stop
        // before it.
        if self.ended.is_none() && self.merged == self.handed && self.merged >= self.budget() {
            self.stops_at_budget();
        }
        self.ended
    }

    /// Merges the next job's evaluation, as the breadth-first loop would try it; `false`
    /// when the search stops there.
    fn merge_one(
        &mut self,
        e: Eval,
        every: u64,
        progress: &mut dyn FnMut(&Progress, &[Class]) -> bool,
    ) -> bool {
        let Some(group) = self.groups.front() else {
            return false;
        };
        let (i, root) = (self.merged_in_front, group.root);
        let depth = group.parent.len() + usize::from(!root);
        if !root {
            if self.stops_at_budget() {
                return false;
            }
            self.p.depth = depth as u8;
        }
        self.p.tried += 1;
        let next = self.file(i, depth, e);
        if !root && self.p.tried.is_multiple_of(every) && !progress(&self.p, &self.classes) {
            self.ended = Some(Ended::Cancelled);
            return false;
        }
        if let Some(faults) = next {
            self.groups.push_back(Group {
                parent: faults,
                cands: None,
                root: false,
            });
        }
        self.merged += 1;
        self.merged_in_front += 1;
        // Groups fully merged leave the front (the hand-out cursor moves with them). A
        // group's length is known once its candidates are derived.
        while {
            self.ready(0);
            self.groups
                .front()
                .is_some_and(|g| self.merged_in_front >= g.len())
        } {
            self.groups.pop_front();
            self.merged_in_front = 0;
            self.hand = match self.hand {
                (0, _) => (0, 0),
                (g, i) => (g - 1, i),
            };
        }
        true
    }

    /// The faults of job `i` of the front group.
    fn front_job(&self, i: usize) -> Vec<Added> {
        self.groups.front().map(|g| g.job(i)).unwrap_or_default()
    }

    fn budget(&self) -> u64 {
        self.ev.bounds.budget.max(1)
    }

    /// Reaching the next job to merge (not the root), as the loop does: counts its run's
    /// candidates when it is the first of them, and stops there when the budget is spent.
    fn stops_at_budget(&mut self) -> bool {
        self.ready(0);
        let Some(group) = self.groups.front() else {
            return false;
        };
        if self.merged_in_front == 0 {
            self.p.total += group.len() as u64;
        }
        if self.p.tried >= self.ev.bounds.budget {
            self.ended = Some(Ended::Budget);
        }
        self.ended.is_some()
    }

    /// Files the evaluation of job `i` of the front group (`depth` faults): counts it,
    /// keeps a violating run in its class, and returns a safe run to extend (new, of an
    /// ordering not seen before, below the bound): its faults.
    ///
    /// The job's faults are listed only when needed: most runs are duplicates, or safe
    /// and not extended, and a list per schedule merged would be a copy for nothing.
    fn file(&mut self, i: usize, depth: usize, e: Eval) -> Option<Vec<Added>> {
        if !self.runs.insert(e.run) {
            return None;
        }
        self.p.distinct_runs += 1;
        let Some(key) = e.class else {
            let extend =
                self.orders.insert(e.order) && depth < usize::from(self.ev.bounds.max_faults);
            return extend.then(|| self.front_job(i));
        };
        let job = self.front_job(i);
        let faults = job.as_slice();
        self.p.violating += 1;
        let horizon = self.ev.base.horizon_ms;
        let rank = |faults: &[Added]| {
            (
                faults.len(),
                faults.iter().map(|f| f.cost(horizon)).sum::<i64>(),
                faults.first().map(Added::at),
            )
        };
        match self.index.get(&key) {
            Some(&i) => {
                let class = &mut self.classes[i];
                class.runs += 1;
                if rank(faults) < rank(&class.example.faults) {
                    class.example = self.ev.example(faults).0?.1;
                    self.p.found += 1;
                }
            }
            None => {
                let example = self.ev.example(faults).0?.1;
                self.index.insert(key.clone(), self.classes.len());
                self.classes.push(Class {
                    kinds: key.0,
                    clients: key.1,
                    fault_kinds: key.2,
                    runs: 1,
                    example,
                });
                self.p.found += 1;
            }
        }
        None
    }

    /// Ends the search: shrinks each class's example, calls `progress` a last time, and
    /// writes the report, its classes minimal first.
    pub fn finish(mut self, progress: &mut dyn FnMut(&Progress, &[Class]) -> bool) -> Report {
        let ended = self.ended.unwrap_or(Ended::Cancelled);
        self.shrink();
        progress(&self.p, &self.classes);
        let standstill = standstill(&run(&self.ev.scenario(&[])));
        let mut classes = self.classes;
        // Minimal first; ties by the class's key, so the order never depends on which
        // class the search happened to find first.
        classes.sort_by_cached_key(|c| {
            let e = &c.example;
            (e.faults.len(), e.cost, e.first.at, key_of(c))
        });
        Report {
            bounds: self.ev.bounds,
            schedules: self.p.tried,
            distinct_runs: self.p.distinct_runs,
            orderings: self.orders.len() as u64,
            violating: self.p.violating,
            breaks_as_given: classes.iter().any(|c| c.example.faults.is_empty()),
            standstill,
            classes,
            ended,
        }
    }

    /// Shrinks each class's example along its last fault's length (see the parent
    /// module's doc). Each class's shrinking reads only its own example.
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
        let sc = self.ev.scenario(prefix);
        let trace = run(&e.scenario);
        let mut shorter: Vec<Added> =
            candidates(&sc, &trace, &[last.class()], self.ev.bounds.max_len_ms)
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
            let (found, _) = self.ev.example(&faults);
            self.p.tried += 1;
            if let Some((k, example)) = found {
                if k == *key {
                    return Some(example);
                }
            }
        }
        None
    }
}

/// The search on `workers` threads (1..=[`MAX_WORKERS`]; 1: this thread alone): the same
/// report whatever the number (see the module doc).
pub fn explore_on(
    sc: &Scenario,
    bounds: &Bounds,
    workers: usize,
    every: u64,
    progress: &mut dyn FnMut(&Progress, &[Class]) -> bool,
) -> Report {
    let workers = workers.clamp(1, MAX_WORKERS);
    let mut x = Explorer::new(sc, bounds);
    loop {
        let chunks: Vec<Chunk> = if workers == 1 {
            x.take(4 * CHUNK).into_iter().collect()
        } else {
            std::iter::from_fn(|| x.take(CHUNK))
                .take(workers * ROUND)
                .collect()
        };
        if chunks.is_empty() {
            break;
        }
        let evals = if workers == 1 {
            vec![x.eval_here(&chunks[0])]
        } else {
            in_threads(&x, &chunks, workers)
        };
        for (c, e) in chunks.iter().zip(evals) {
            x.give(c.first, e);
        }
        if x.merge(every, progress).is_some() {
            break;
        }
    }
    x.merge(every, progress);
    x.finish(progress)
}

/// Evaluates `chunks` on `workers` scoped threads, each taking the next chunk in order as
/// it finishes one; the evaluations in the chunks' order.
fn in_threads(x: &Explorer, chunks: &[Chunk], workers: usize) -> Vec<Vec<Eval>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let out: Vec<Mutex<Vec<Eval>>> = chunks.iter().map(|_| Mutex::new(Vec::new())).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let (next, out) = (&next, &out);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = chunks.get(i) else { break };
                let evals = x.eval_here(c);
                if let Ok(mut slot) = out[i].lock() {
                    *slot = evals;
                }
            });
        }
    });
    out.into_iter()
        .map(|m| m.into_inner().unwrap_or_default())
        .collect()
}
