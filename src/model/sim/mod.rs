//! The simulator: nodes, their clocks, the network, faults, and the run loop.
//!
//! [`run`] turns a validated [`Scenario`] into a [`Trace`]. The loop pops the earliest
//! event, hands it to the node it concerns — unless that node is paused (the event waits
//! until it resumes) or down (the event is lost) — and carries out the commands the node's
//! handler returns. Handlers never see true time; they see their own clock's reading.
//!
//! Faults are scheduled from the scenario before anything else, so a fault at time `t`
//! cannot change what happened before `t`: the trace before it is a prefix of the run
//! without it (a property the tests check).
//!
//! A search that tries many faults on one run uses that property to skip the common
//! start: a [`Prefix`] is the run stopped before an instant, and finishing a copy of it
//! with faults added at or after that instant gives exactly the trace [`run`] gives for
//! the scenario with those faults (tests/it/sim_resume.rs checks it entry by entry).

pub mod client;
pub mod coordinator;
mod kit;
mod models;
pub mod node;
mod prefix;
pub mod queue;
pub mod redlock;
pub mod rng;
pub mod storage;

use crate::model::clock::Clock;
use crate::model::msg::Msg;
use crate::model::scenario::{FaultKind, Scenario, ScenarioError};
use crate::model::trace::{DropWhy, Entry, Event, Outcome, Tail, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;
use crate::vocab::vecmap::{VecMap, VecSet};
use client::Client;
use coordinator::LockService;

use node::{Cmd, Ctx, TimerKind};
use queue::EventQueue;
use rng::Rng;
use storage::Storage;

pub use kit::{Kit, Pauses, Whole};
pub use models::Models;
pub use prefix::Prefix;

/// Validates `scenario` and runs it.
pub fn simulate(scenario: &Scenario) -> Result<Trace, ScenarioError> {
    scenario.validate()?;
    Ok(run(scenario))
}

/// Runs an already validated scenario. (An unvalidated one cannot panic either, but it
/// may run for as long as its limits allow.)
pub fn run(scenario: &Scenario) -> Trace {
    run_with::<Whole>(scenario)
}

/// Runs an already validated scenario with the services and faults of kit `K`: the run
/// [`run`] gives, when `K` [carries](Kit::carries) the scenario.
pub fn run_with<K: Kit>(scenario: &Scenario) -> Trace {
    Sim::<K>::new(scenario).run()
}

#[derive(Clone, Debug)]
pub(crate) enum Ev {
    Start(u8),
    Deliver {
        id: u32,
        from: NodeId,
        to: NodeId,
        msg: Msg,
    },
    Timer {
        node: NodeId,
        id: u64,
        version: u32,
    },
    Fault(u32),
    Resume(NodeId),
    Recover(NodeId),
    /// A failed-over coordinator node has a new leader, after `down_ms`.
    Elected(NodeId, i64),
    RenewalsRestored,
}

/// What the run loop keeps for each node, besides the node's own state.
#[derive(Clone)]
struct NodeRt {
    clock: Clock,
    paused_until: Option<Time>,
    /// Events that arrived while the node was paused, in arrival order.
    deferred: Vec<Ev>,
    down: bool,
    /// Armed timers: id → (local deadline, kind, version). A clock jump re-arms wall-clock
    /// timers with a new version; queue entries of older versions are ignored.
    timers: VecMap<u64, (i64, TimerKind, u32)>,
}

pub(crate) struct Sim<'s, K: Kit = Whole> {
    sc: &'s Scenario,
    now: Time,
    rng: Rng,
    queue: EventQueue<Ev>,
    rt: Vec<NodeRt>,
    clients: Vec<Client<K>>,
    /// The lock service, as the kit builds it ([`Kit::Service`]): the run loop never
    /// depends on which one it is, so a flavor with other semantics plugs in here.
    coord: K::Service,
    storage: Storage,
    cut: VecSet<(NodeId, NodeId)>,
    held: VecMap<(NodeId, NodeId), i64>,
    trace: Vec<Entry>,
    /// Entries of the run before `trace`'s first: those of the prefix a [`Tail`] was
    /// finished from, which it does not copy.
    skipped: usize,
    next_msg: u32,
    next_timer: u64,
    cmd_buf: Vec<Cmd>,
    initial_clocks: Vec<Clock>,
    /// Coordinator nodes (1, or Redlock's 5).
    coords: usize,
    /// The faults placed by an event of the run: each one's index, and how many more of
    /// its events until it is queued (0: queued). See `arm`.
    waiting: Vec<(u32, u32)>,
}

pub(crate) fn pair(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl<'s, K: Kit> Sim<'s, K> {
    fn new(sc: &'s Scenario) -> Sim<'s, K> {
        let n = sc.client_count();
        let rt = sc
            .nodes()
            .into_iter()
            .map(|node| {
                let c = sc.clock_of(node);
                // Redis expires keys on the wall clock, whatever the scenario asks for.
                let wall = matches!(node, NodeId::Coord(_))
                    && K::model(sc.coordinator.flavor.model()).wall_expiry;
                NodeRt {
                    clock: Clock {
                        offset_ms: c.offset_ms,
                        drift_ppm: c.drift_ppm,
                        monotonic: c.monotonic && !wall,
                    },
                    paused_until: None,
                    deferred: Vec::new(),
                    down: false,
                    timers: VecMap::new(),
                }
            })
            .collect::<Vec<NodeRt>>();
        let initial_clocks = rt.iter().map(|r| r.clock).collect();
        let mut sim = Sim {
            sc,
            now: Time::ZERO,
            rng: Rng::new(sc.seed),
            queue: EventQueue::default(),
            rt,
            clients: (0..n)
                .map(|i| Client::for_flavor(NodeId::Client(i), &sc.coordinator))
                .collect(),
            coord: K::service(&sc.coordinator),
            storage: Storage::new(&sc.storage),
            cut: VecSet::new(),
            held: VecMap::new(),
            trace: Vec::new(),
            skipped: 0,
            next_msg: 0,
            next_timer: 0,
            cmd_buf: Vec::new(),
            initial_clocks,
            coords: usize::from(sc.coordinator.flavor.nodes()),
            waiting: Vec::new(),
        };
        // What the lock protects is part of the run's record: the checker reads it there.
        for r in &sc.storage.resources {
            let event = Event::ResourceDeclared {
                resource: r.name.as_str().into(),
                keys: r.keys.iter().map(|k| k.as_str().into()).collect(),
                one_mark: Some(sc.storage.mark_per == crate::model::scenario::MarkScope::Resource),
            };
            sim.note(NodeId::Storage, event);
        }
        // A fault at a true time is queued now; one placed by an event waits for it.
        for (i, f) in sc.faults.iter().enumerate() {
            match f.after {
                None => sim.queue.push(Time(f.at_ms), Ev::Fault(i as u32)),
                Some(anchor) => sim.waiting.push((i as u32, anchor.nth.max(1))),
            }
        }
        for (i, c) in sc.clients.iter().enumerate().take(usize::from(n)) {
            sim.queue.push(Time(c.start_ms), Ev::Start(i as u8));
        }
        sim
    }

    /// A copy of the run so far, going on with `sc` (see [`Prefix`]), with the trace so
    /// far (`whole`) or without it (for a [`Tail`]), and room for `room` entries in all.
    /// `spare` is an emptied buffer to write the trace into (its room is kept).
    fn fork<'c>(
        &self,
        sc: &'c Scenario,
        whole: bool,
        room: usize,
        spare: Vec<Entry>,
    ) -> Sim<'c, K> {
        let coord = self.coord.clone();
        let mut trace = spare;
        trace.clear();
        if whole {
            trace.reserve(room.max(self.trace.capacity()));
            trace.extend_from_slice(&self.trace);
        } else {
            trace.reserve(room.saturating_sub(self.trace.len()));
        }
        Sim {
            sc,
            now: self.now,
            rng: self.rng.clone(),
            queue: self.queue.clone(),
            rt: self.rt.clone(),
            clients: self.clients.clone(),
            coord,
            storage: self.storage.clone(),
            cut: self.cut.clone(),
            held: self.held.clone(),
            skipped: self.skipped + if whole { 0 } else { self.trace.len() },
            trace,
            next_msg: self.next_msg,
            next_timer: self.next_timer,
            cmd_buf: Vec::new(),
            initial_clocks: self.initial_clocks.clone(),
            coords: self.coords,
            waiting: self.waiting.clone(),
        }
    }

    fn idx(&self, node: NodeId) -> usize {
        let n = self.clients.len();
        match node {
            NodeId::Client(i) => usize::from(i).min(n.saturating_sub(1)),
            NodeId::Coord(i) => n + usize::from(i).min(self.coords - 1),
            NodeId::Storage => n + self.coords,
        }
    }

    fn note(&mut self, node: NodeId, event: Event) {
        let local = self.rt[self.idx(node)].clock.wall(self.now);
        self.trace.push(Entry {
            t: self.now,
            node,
            local,
            event,
        });
        if !self.waiting.is_empty() {
            self.arm();
        }
    }

    /// Queues each waiting fault whose event the entry just recorded is, for the last
    /// time it waited for: at now plus its `at_ms`. Faults armed by one entry are queued in
    /// the scenario's order, so the run stays the same from one build to the next.
    fn arm(&mut self) {
        let Some(e) = self.trace.last() else {
            return;
        };
        for (i, left) in &mut self.waiting {
            let Some(f) = self.sc.faults.get(*i as usize) else {
                continue;
            };
            if *left > 0 && f.after.is_some_and(|a| a.is(e.node, &e.event)) {
                *left -= 1;
                if *left == 0 {
                    self.queue.push(self.now.plus(f.at_ms), Ev::Fault(*i));
                }
            }
        }
    }

    fn run(mut self) -> Trace {
        let outcome = self.go();
        Trace {
            nodes: self.nodes(),
            entries: self.trace,
            outcome,
            end: self.now,
        }
    }

    /// The run's nodes in lane order, each with its clock at the start (a trace's `nodes`).
    fn nodes(&self) -> Vec<(NodeId, Clock)> {
        let clocks = self.initial_clocks.iter().copied();
        self.sc.nodes().into_iter().zip(clocks).collect()
    }

    /// Runs to the end: the horizon, the event limit, or an empty queue.
    fn go(&mut self) -> Outcome {
        let horizon = Time(self.sc.horizon_ms);
        let limit = self.sc.max_events as usize;
        loop {
            let Some(t) = self.queue.peek_time() else {
                break Outcome::Quiescent;
            };
            if t > horizon {
                self.now = horizon;
                break Outcome::HorizonReached;
            }
            if self.skipped + self.trace.len() >= limit {
                break Outcome::EventLimitReached;
            }
            let Some((t, ev)) = self.queue.pop() else {
                break Outcome::Quiescent;
            };
            self.now = t;
            self.dispatch(ev, false);
        }
    }

    /// `buffered`: the event is being replayed from a paused node's backlog (it already
    /// arrived; the network is not consulted again).
    fn dispatch(&mut self, ev: Ev, buffered: bool) {
        match ev {
            Ev::Start(i) => {
                let node = NodeId::Client(i);
                if self.paused(node) {
                    self.defer(node, ev);
                    return;
                }
                self.handle(node, |sim, ctx| {
                    let spec = &sim.sc.clients[usize::from(i)];
                    sim.clients[usize::from(i)].on_start(ctx, spec)
                });
            }
            Ev::Deliver {
                id,
                from,
                to,
                ref msg,
            } => {
                let r = self.idx(to);
                if self.rt[r].down {
                    self.note(
                        to,
                        Event::Dropped {
                            id,
                            to,
                            why: DropWhy::NodeDown,
                        },
                    );
                    return;
                }
                if !buffered && self.cut.contains(&pair(from, to)) {
                    self.note(
                        to,
                        Event::Dropped {
                            id,
                            to,
                            why: DropWhy::Partitioned,
                        },
                    );
                    return;
                }
                if self.paused(to) {
                    self.defer(to, ev);
                    return;
                }
                self.note(to, Event::Received { id, from });
                // `msg` is borrowed from `ev`, this call's own: no copy needed.
                self.handle(to, |sim, ctx| sim.on_message(ctx, to, from, msg));
            }
            Ev::Timer { node, id, version } => {
                let r = self.idx(node);
                match self.rt[r].timers.get(&id) {
                    Some((_, _, v)) if *v == version => {}
                    _ => return,
                }
                if self.paused(node) {
                    self.defer(node, ev);
                    return;
                }
                let Some((_, kind, _)) = self.rt[r].timers.remove(&id) else {
                    return;
                };
                self.handle(node, |sim, ctx| match node {
                    NodeId::Client(i) => {
                        let spec = &sim.sc.clients[usize::from(i)];
                        sim.clients[usize::from(i)].on_timer(ctx, spec, &kind)
                    }
                    NodeId::Coord(_) => sim.coord.on_timer(ctx, node, &kind),
                    NodeId::Storage => sim.storage.on_timer(ctx, &kind),
                });
            }
            Ev::Fault(i) => self.fault(i),
            Ev::Resume(node) => {
                let r = self.idx(node);
                if self.rt[r].paused_until.is_some_and(|u| u <= self.now) {
                    self.rt[r].paused_until = None;
                    self.note(node, Event::Resumed);
                    for ev in std::mem::take(&mut self.rt[r].deferred) {
                        self.dispatch(ev, true);
                    }
                }
            }
            // Queued only by faults other than a pause, which the kit applies.
            Ev::Recover(_) | Ev::Elected(..) | Ev::RenewalsRestored => K::after_fault(self, ev),
        }
    }

    /// An event only faults other than a pause queue (the whole kit's, [`Kit::after_fault`]).
    fn after_fault(&mut self, ev: Ev) {
        match ev {
            Ev::Recover(node) => {
                let r = self.idx(node);
                if self.rt[r].down {
                    self.rt[r].down = false;
                    self.restart(node);
                }
            }
            Ev::Elected(node, down_ms) => {
                let r = self.idx(node);
                if self.rt[r].down {
                    self.rt[r].down = false;
                    self.handle(node, |sim, ctx| sim.coord.on_failover(ctx, node, down_ms));
                }
            }
            Ev::RenewalsRestored => {
                self.coord.set_renewals_failing(false);
                self.note(NodeId::COORD, Event::RenewalsRestored);
            }
            _ => {}
        }
    }

    fn paused(&self, node: NodeId) -> bool {
        self.rt[self.idx(node)].paused_until.is_some()
    }

    /// Keeps `ev` for when the paused `node` wakes (moved, not copied: a message in flight
    /// is a hundred bytes, and a search defers many).
    fn defer(&mut self, node: NodeId, ev: Ev) {
        let r = self.idx(node);
        self.rt[r].deferred.push(ev);
    }

    fn on_message(&mut self, ctx: &mut Ctx, to: NodeId, from: NodeId, msg: &Msg) {
        match to {
            NodeId::Client(i) => {
                let spec = &self.sc.clients[usize::from(i)];
                self.clients[usize::from(i)].on_message(ctx, spec, msg)
            }
            NodeId::Coord(_) => self.coord.on_message(ctx, to, from, msg),
            NodeId::Storage => {
                let current = self.coord.current_token();
                self.storage.on_message(ctx, from, msg, current)
            }
        }
    }

    /// Runs one handler of `node` with a context on the node's own clock, then carries out
    /// its commands.
    fn handle(&mut self, node: NodeId, f: impl FnOnce(&mut Sim<'s, K>, &mut Ctx)) {
        let r = self.idx(node);
        let now_local = self.rt[r].clock.timer_reading(self.now);
        // The handler needs `&mut self` for node state and the rng for randomness; lend it
        // a private generator and put the advanced one back afterwards.
        let mut rng = std::mem::replace(&mut self.rng, Rng::new(0));
        let mut ctx = Ctx {
            now: now_local,
            rng: &mut rng,
            out: std::mem::take(&mut self.cmd_buf),
        };
        f(self, &mut ctx);
        let mut out = std::mem::take(&mut ctx.out);
        drop(ctx);
        self.rng = rng;
        for cmd in out.drain(..) {
            self.apply(node, cmd);
        }
        self.cmd_buf = out;
    }

    fn apply(&mut self, node: NodeId, cmd: Cmd) {
        match cmd {
            Cmd::Note(ev) => self.note(node, ev),
            Cmd::Timer { at_local, kind } => {
                let r = self.idx(node);
                let id = self.next_timer;
                self.next_timer += 1;
                let at = self.rt[r].clock.true_time_of(at_local, self.now);
                self.rt[r].timers.insert(id, (at_local, kind, 0));
                self.queue.push(
                    at,
                    Ev::Timer {
                        node,
                        id,
                        version: 0,
                    },
                );
            }
            Cmd::Send { to, msg } => self.send(node, to, msg),
        }
    }

    fn send(&mut self, from: NodeId, to: NodeId, msg: Msg) {
        let id = self.next_msg;
        self.next_msg += 1;
        let link = self.sc.network.link(from, to);
        let why = if self.cut.contains(&pair(from, to)) {
            Some(DropWhy::Partitioned)
        } else if self.rng.chance_pct(link.loss_pct) {
            Some(DropWhy::Lost)
        } else {
            None
        };
        if let Some(why) = why {
            self.note(
                from,
                Event::Sent {
                    id,
                    to,
                    msg,
                    arrives: None,
                },
            );
            self.note(from, Event::Dropped { id, to, why });
            return;
        }
        let extra = self.held.remove(&(from, to)).unwrap_or(0);
        let delay = self.rng.range_i64(link.min_delay_ms, link.max_delay_ms) + extra;
        let at = self.now.plus(delay);
        self.note(
            from,
            Event::Sent {
                id,
                to,
                msg: msg.clone(),
                arrives: Some(at),
            },
        );
        self.queue.push(at, Ev::Deliver { id, from, to, msg });
    }

    fn restart(&mut self, node: NodeId) {
        self.handle(node, |sim, ctx| match node {
            NodeId::Coord(_) => sim.coord.on_restart(ctx, node),
            NodeId::Storage => sim.storage.on_restart(ctx),
            NodeId::Client(_) => {}
        });
    }

    fn fault(&mut self, i: u32) {
        let Some(f) = self.sc.faults.get(i as usize) else {
            return;
        };
        match f.kind {
            // The cause is carried to the trace for the narration and does nothing else.
            FaultKind::Pause {
                node,
                for_ms,
                cause,
            } => {
                let r = self.idx(node);
                let until = self.now.plus(for_ms);
                let was = self.rt[r].paused_until;
                self.rt[r].paused_until = Some(was.map_or(until, |w| w.max(until)));
                self.note(node, Event::Paused { for_ms, cause });
                self.queue.push(until, Ev::Resume(node));
            }
            _ => K::fault(self, &f.kind),
        }
    }

    /// A fault other than a pause (the whole kit's, [`Kit::fault`]).
    fn other_fault(&mut self, kind: &FaultKind) {
        match *kind {
            // Applied by `fault`.
            FaultKind::Pause { .. } => {}
            FaultKind::Partition { a, b } => {
                self.cut.insert(pair(a, b));
                self.note(a, Event::LinkCut { peer: b });
            }
            FaultKind::Heal { a, b } => {
                self.cut.remove(&pair(a, b));
                self.note(a, Event::LinkHealed { peer: b });
            }
            FaultKind::Delay { from, to, extra_ms } => {
                *self.held.get_or_insert_with((from, to), || 0) += extra_ms;
                self.note(from, Event::MessageHeld { to, extra_ms });
            }
            FaultKind::ClockJump { node, by_ms } => {
                let r = self.idx(node);
                self.rt[r].clock.jump(by_ms);
                self.note(node, Event::ClockJumped { by_ms });
                if !self.rt[r].clock.monotonic {
                    // Wall-clock timers now fire at a different true time.
                    let clock = self.rt[r].clock;
                    let now = self.now;
                    let mut rearm = Vec::new();
                    for (id, (at_local, _, version)) in self.rt[r].timers.iter_mut() {
                        *version += 1;
                        rearm.push((clock.true_time_of(*at_local, now), *id, *version));
                    }
                    for (at, id, version) in rearm {
                        self.queue.push(at, Ev::Timer { node, id, version });
                    }
                }
            }
            FaultKind::Restart { node, down_ms } => {
                // The "delayed restart" remedy: a coordinator node stays down long enough
                // to join no lock that was live when it crashed.
                let down_ms = match node {
                    NodeId::Coord(_) => down_ms.max(self.sc.coordinator.restart_delay_ms),
                    _ => down_ms,
                };
                let r = self.idx(node);
                self.note(node, Event::Crashed { down_ms });
                let rt = self.stop(r);
                if down_ms == 0 {
                    self.restart(node);
                } else {
                    rt.down = true;
                    self.queue.push(self.now.plus(down_ms), Ev::Recover(node));
                }
            }
            FaultKind::FailRenewals { for_ms } => {
                self.coord.set_renewals_failing(true);
                self.note(NodeId::COORD, Event::RenewalsFailing { for_ms });
                self.queue.push(self.now.plus(for_ms), Ev::RenewalsRestored);
            }
            FaultKind::Failover { node, down_ms } => {
                let r = self.idx(node);
                self.note(node, Event::FailingOver { down_ms });
                let rt = self.stop(r);
                if down_ms == 0 {
                    self.handle(node, |sim, ctx| sim.coord.on_failover(ctx, node, 0));
                } else {
                    rt.down = true;
                    self.queue
                        .push(self.now.plus(down_ms), Ev::Elected(node, down_ms));
                }
            }
            FaultKind::FalsePositive { node: client } => {
                self.handle(NodeId::COORD, |sim, ctx| {
                    sim.coord.invalidate(ctx, NodeId::COORD, client)
                });
            }
        }
    }

    /// A node stops (crash or leader loss): its timers, backlog and pause are gone.
    fn stop(&mut self, r: usize) -> &mut NodeRt {
        let rt = &mut self.rt[r];
        rt.timers.clear();
        rt.deferred.clear();
        rt.paused_until = None;
        rt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::{Fault, LinkOverride, LinkSpec};
    use crate::teach::presets::preset;

    fn sends(trace: &Trace) -> Vec<(NodeId, NodeId, Time, Option<Time>)> {
        trace
            .entries
            .iter()
            .filter_map(|e| match &e.event {
                Event::Sent { to, arrives, .. } => Some((e.node, *to, e.t, *arrives)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn links_have_their_own_delays_and_a_partition_is_per_pair() {
        let mut sc = preset("clean").unwrap().scenario();
        sc.network.default = LinkSpec {
            min_delay_ms: 5,
            max_delay_ms: 5,
            loss_pct: 0,
        };
        sc.network.links.push(LinkOverride {
            from: NodeId::Client(0),
            to: NodeId::Storage,
            min_delay_ms: 40,
            max_delay_ms: 40,
            loss_pct: 0,
        });
        // Client 1 is cut from the coordinator, not from storage, from t = 1 ms.
        sc.faults.push(Fault {
            after: None,
            at_ms: 1,
            kind: FaultKind::Partition {
                a: NodeId::Client(0),
                b: NodeId::COORD,
            },
        });
        let t = run(&sc);
        for (from, to, at, arrives) in sends(&t) {
            match (from, to) {
                (NodeId::Client(0), NodeId::Storage) => assert_eq!(arrives, Some(at.plus(40))),
                (NodeId::Client(0), NodeId::COORD) | (NodeId::COORD, NodeId::Client(0))
                    if at.0 >= 1 =>
                {
                    assert_eq!(arrives, None, "cut link drops at send")
                }
                _ if arrives.is_some() => assert_eq!(arrives, Some(at.plus(5))),
                _ => {}
            }
        }
        // The grant sent at 5 ms was in flight when the cut began: dropped on arrival.
        assert!(t.entries.iter().any(|e| matches!(
            e.event,
            Event::Dropped {
                why: DropWhy::Partitioned,
                ..
            }
        )));
    }

    #[test]
    fn total_loss_drops_everything_and_a_held_message_is_late_once() {
        let mut sc = preset("clean").unwrap().scenario();
        sc.network.default.loss_pct = 100;
        let lost = run(&sc);
        assert!(sends(&lost).iter().all(|s| s.3.is_none()));

        let mut sc = preset("clean").unwrap().scenario();
        sc.faults.push(Fault {
            after: None,
            at_ms: 0,
            kind: FaultKind::Delay {
                from: NodeId::Client(0),
                to: NodeId::COORD,
                extra_ms: 3_000,
            },
        });
        let c1_to_coord: Vec<_> = sends(&run(&sc))
            .into_iter()
            .filter(|s| s.0 == NodeId::Client(0) && s.1 == NodeId::COORD)
            .collect();
        assert_eq!(c1_to_coord[0].3, Some(c1_to_coord[0].2.plus(3_005)));
        assert_eq!(c1_to_coord[1].3, Some(c1_to_coord[1].2.plus(5)));
    }

    #[test]
    fn a_run_ends_with_an_explicit_outcome() {
        let sc = preset("clean").unwrap().scenario();
        assert_eq!(run(&sc).outcome, Outcome::Quiescent);
        let mut short = sc.clone();
        short.horizon_ms = 1_000;
        let t = run(&short);
        assert_eq!((t.outcome, t.end), (Outcome::HorizonReached, Time(1_000)));
        let mut few = sc;
        few.max_events = 10;
        let t = run(&few);
        assert_eq!(t.outcome, Outcome::EventLimitReached);
        assert!(t.len() >= 10 && t.len() < 20);
    }

    #[test]
    fn a_paused_node_handles_what_arrived_when_it_resumes() {
        let t = run(&preset("gc-pause").unwrap().scenario());
        let resumed = t
            .entries
            .iter()
            .position(|e| e.node == NodeId::Client(0) && e.event == Event::Resumed)
            .unwrap();
        assert_eq!(t.entries[resumed].t, Time(50_000));
        // Nothing of client 1's happens between the pause and the resume.
        let paused = t
            .entries
            .iter()
            .position(|e| e.node == NodeId::Client(0) && matches!(e.event, Event::Paused { .. }))
            .unwrap();
        assert!(t.entries[paused + 1..resumed]
            .iter()
            .all(|e| e.node != NodeId::Client(0)));
    }
}
