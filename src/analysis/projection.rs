//! The state of the world at any step of a trace, without re-running the model.
//!
//! A view scrubbing a timeline asks "what did everyone believe at step k?" many times a
//! second. [`Projection`] answers by folding the trace from the nearest keyframe — a
//! snapshot taken every [`KEYFRAME_EVERY`] entries when the projection is built — so a
//! seek costs at most that many small folds, whatever the trace's length.
//!
//! The fold reads only trace entries (and each node's starting clock, recorded in the
//! trace). It is the one interpreter of events: the checker judges the states it yields
//! (see [`walk`] and `check::INVARIANTS`), so the picture and the verdict can never
//! disagree with the run, or with each other.

use crate::model::clock::Clock;
use crate::model::msg::Text;
use crate::model::sim::pair;
use crate::model::trace::{Entry, Event, Forgot, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;
use crate::vocab::vecmap::{VecMap, VecSet};

/// Entries between two keyframes.
pub const KEYFRAME_EVERY: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobStatus {
    NotStarted,
    Running,
    Finished,
    Aborted,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientView {
    /// `(token, believed deadline on its own clock)` while it believes it holds the lock.
    pub believes: Option<(u64, i64)>,
    pub paused: bool,
    pub status: JobStatus,
    /// The step it is on (0-based), once started.
    pub step: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseView {
    pub client: NodeId,
    pub token: u64,
    /// On the coordinator's clock.
    pub expires_local: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    pub value: Text,
    pub token: Option<u64>,
    pub writer: NodeId,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InFlight {
    pub from: NodeId,
    pub to: NodeId,
    /// The index of the entry that sent it: its label is read from there when drawn
    /// ([`InFlight::label`]) — not written out at every send, which the checker's fold
    /// (and so every run a search tries) would pay for.
    pub entry: u32,
    /// The message family (see `Msg::class`), for styling.
    pub class: &'static str,
    pub sent: Time,
    pub arrives: Time,
}

impl InFlight {
    /// The message's label, read from `trace` (the trace it was projected from).
    pub fn label(&self, trace: &Trace) -> String {
        match trace.entries.get(self.entry as usize).map(|e| &e.event) {
            Some(Event::Sent { msg, .. }) => msg.label(),
            _ => String::new(),
        }
    }
}

/// Everything a view shows at one step.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Entries applied.
    pub step: usize,
    /// True time of the last applied entry.
    pub t: Time,
    pub clients: Vec<ClientView>,
    pub lease: Option<LeaseView>,
    pub last_token: Option<u64>,
    /// Any coordinator node down / paused (with one node: the coordinator).
    pub coord_down: bool,
    pub coord_paused: bool,
    /// Per coordinator node, for flavors with several (Redlock's masters): which are down
    /// (crashed or without a leader), which paused, and the lease each holds.
    pub coords_down: VecSet<NodeId>,
    pub coords_paused: VecSet<NodeId>,
    pub leases: VecMap<NodeId, LeaseView>,
    pub storage_down: bool,
    pub storage_paused: bool,
    pub cells: VecMap<Text, CellView>,
    pub marks: VecMap<Text, u64>,
    pub cut: VecSet<(NodeId, NodeId)>,
    pub in_flight: VecMap<u32, InFlight>,
    /// Each node's clock (offset including jumps so far), in lane order.
    pub clocks: Vec<(NodeId, Clock)>,
    /// Token and holder of each epoch granted so far. Epochs are grants: unique even when
    /// an in-memory token counter restarts and repeats tokens.
    pub epochs: VecMap<u32, (u64, NodeId)>,
    /// The highest token issued so far (token 0 — a service that issues none — never
    /// counts).
    pub max_token: Option<u64>,
    /// Per resource, the newest epoch storage has accepted a write from (see
    /// [`write_epoch`]). A key is its own resource unless the run declared it part of one
    /// ([`State::resource_of`]). The run's memory, not storage's: unlike `marks`, a storage
    /// restart keeps it.
    pub accepted_epochs: VecMap<Text, u32>,
    /// Key → the resource it belongs to, as the run declared them (`ResourceDeclared`).
    pub resources: VecMap<Text, Text>,
    /// Per key, how many writes storage has accepted for it: its version.
    pub versions: VecMap<Text, u64>,
    /// Per client and key, the version it last knew the key at: the one a read returned,
    /// or the one its own accepted write made. A write landing on a newer version than
    /// that overwrote a write its writer never saw.
    pub reads: VecMap<(NodeId, Text), u64>,
    /// Each effect performed so far: who performed it first, when, and how many times.
    pub effects: VecMap<Text, EffectSeen>,
    pub counts: Counts,
}

/// An effect as the run has seen it so far: a repeat is told against its first time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectSeen {
    /// The client it was first performed for.
    pub first: NodeId,
    pub first_at: Time,
    /// How many times it has been performed.
    pub times: u32,
}

// The explore search copies its judge's state into the same state once per run it tries
// (`Safety::judge_tail`): field by field, into the room each already has.
crate::vocab::clone_fields!(State {
    step,
    t,
    clients,
    lease,
    last_token,
    coord_down,
    coord_paused,
    coords_down,
    coords_paused,
    leases,
    storage_down,
    storage_paused,
    cells,
    marks,
    cut,
    in_flight,
    clocks,
    epochs,
    max_token,
    accepted_epochs,
    resources,
    versions,
    reads,
    effects,
    counts,
});

/// Running totals of the run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub grants: u32,
    pub writes_accepted: u32,
    pub writes_rejected: u32,
    pub effects_performed: u32,
}

/// The epoch a write counts as: its lease's, and a write carrying no lease counts as
/// older than every epoch.
pub fn write_epoch(epoch: Option<u32>) -> u32 {
    epoch.unwrap_or(0)
}

impl State {
    /// The state before the first entry.
    pub fn initial(trace: &Trace) -> State {
        State::start(&trace.nodes)
    }

    /// The state before the first entry of a run of `nodes`, each with its clock at the
    /// start (a trace's `nodes`).
    pub fn start(nodes: &[(NodeId, Clock)]) -> State {
        let n = nodes.iter().filter(|(n, _)| n.is_client()).count();
        State {
            step: 0,
            t: Time::ZERO,
            clients: vec![
                ClientView {
                    believes: None,
                    paused: false,
                    status: JobStatus::NotStarted,
                    step: None
                };
                n
            ],
            lease: None,
            last_token: None,
            coord_down: false,
            coord_paused: false,
            coords_down: VecSet::new(),
            coords_paused: VecSet::new(),
            leases: VecMap::new(),
            storage_down: false,
            storage_paused: false,
            cells: VecMap::new(),
            marks: VecMap::new(),
            cut: VecSet::new(),
            in_flight: VecMap::new(),
            clocks: nodes.to_vec(),
            epochs: VecMap::new(),
            max_token: None,
            accepted_epochs: VecMap::new(),
            versions: VecMap::new(),
            reads: VecMap::new(),
            resources: VecMap::new(),
            effects: VecMap::new(),
            counts: Counts::default(),
        }
    }

    /// A node's wall-clock reading at true time `t` (normally the cursor's time).
    pub fn local(&self, node: NodeId, t: Time) -> i64 {
        self.clocks
            .iter()
            .find(|(n, _)| *n == node)
            .map_or(t.0, |(_, c)| c.wall(t))
    }

    /// The resource a write to `key` changes: the one the run declared the key part of,
    /// or the key itself.
    pub fn resource_of<'a>(&'a self, key: &'a Text) -> &'a Text {
        self.resources.get(&**key).unwrap_or(key)
    }

    /// Whether node `n` is paused (a client's GC, a frozen server).
    pub fn is_paused(&self, n: NodeId) -> bool {
        match n {
            NodeId::Client(i) => self.clients.get(usize::from(i)).is_some_and(|c| c.paused),
            NodeId::Coord(_) => self.coords_paused.contains(&n),
            NodeId::Storage => self.storage_paused,
        }
    }

    /// Whether node `n` is down (crashed, or a coordinator without a leader); clients
    /// never are.
    pub fn is_down(&self, n: NodeId) -> bool {
        match n {
            NodeId::Client(_) => false,
            NodeId::Coord(_) => self.coords_down.contains(&n),
            NodeId::Storage => self.storage_down,
        }
    }

    /// The token client `n` believes it holds, if any.
    pub fn belief_of(&self, n: NodeId) -> Option<u64> {
        match n {
            NodeId::Client(i) => self.clients.get(usize::from(i))?.believes.map(|b| b.0),
            _ => None,
        }
    }

    /// The lease coordinator node `n` holds: for which client, with which token.
    pub fn lease_on(&self, n: NodeId) -> Option<(NodeId, u64)> {
        self.leases.get(&n).map(|l| (l.client, l.token))
    }

    pub fn believers(&self) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        self.clients
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.believes.map(|(tok, _)| (NodeId::Client(i as u8), tok)))
    }

    fn client(&mut self, n: NodeId) -> Option<&mut ClientView> {
        match n {
            NodeId::Client(i) => self.clients.get_mut(usize::from(i)),
            _ => None,
        }
    }

    fn set_paused(&mut self, n: NodeId, p: bool) {
        match n {
            NodeId::Client(_) => {
                if let Some(c) = self.client(n) {
                    c.paused = p
                }
            }
            NodeId::Coord(_) => {
                set(&mut self.coords_paused, n, p);
                self.coord_paused = !self.coords_paused.is_empty();
            }
            NodeId::Storage => self.storage_paused = p,
        }
    }

    fn set_coord_down(&mut self, n: NodeId, d: bool) {
        set(&mut self.coords_down, n, d);
        self.coord_down = !self.coords_down.is_empty();
        if d {
            self.drop_lease(n);
        }
    }

    /// Coordinator node `n` no longer holds a lease.
    fn drop_lease(&mut self, n: NodeId) {
        self.leases.remove(&n);
        self.lease = None;
    }

    /// Applies entry `i` (the next one: `self.step` must be `i`).
    pub fn apply(&mut self, trace: &Trace, i: usize) {
        debug_assert_eq!(self.step, i, "entries are applied in order");
        self.apply_entry(&trace.entries[i]);
    }

    /// Applies the next entry, `e`.
    pub fn apply_entry(&mut self, e: &Entry) {
        self.step += 1;
        self.t = e.t;
        let n = e.node;
        // A recorded trace may leave its job lines out: a client that sends or takes the
        // lock has started its job, whatever its lines say (the model starts it first).
        if e.event.shows_job_under_way() {
            if let Some(c) = self.client(n).filter(|c| c.status == JobStatus::NotStarted) {
                c.status = JobStatus::Running;
            }
        }
        match &e.event {
            Event::JobStarted => {
                if let Some(c) = self.client(n) {
                    c.status = JobStatus::Running
                }
            }
            Event::StepStarted { step } => {
                if let Some(c) = self.client(n) {
                    c.step = Some(*step)
                }
            }
            Event::JobFinished | Event::JobAborted { .. } => {
                let done = if matches!(e.event, Event::JobFinished) {
                    JobStatus::Finished
                } else {
                    JobStatus::Aborted
                };
                if let Some(c) = self.client(n) {
                    c.status = done
                }
            }
            Event::Sent {
                id,
                to,
                msg,
                arrives: Some(a),
            } => {
                self.in_flight.insert(
                    *id,
                    InFlight {
                        from: n,
                        to: *to,
                        entry: (self.step - 1) as u32,
                        class: msg.class(),
                        sent: e.t,
                        arrives: *a,
                    },
                );
            }
            Event::Received { id, .. } | Event::Dropped { id, .. } => {
                self.in_flight.remove(id);
            }
            Event::BeliefStarted {
                token,
                deadline_local,
                ..
            } => {
                if let Some(c) = self.client(n) {
                    c.believes = Some((*token, *deadline_local))
                }
            }
            Event::DeadlineExtended {
                token,
                deadline_local,
            } => {
                if let Some(c) = self.client(n) {
                    c.believes = Some((*token, *deadline_local))
                }
            }
            Event::BeliefEnded { .. } => {
                if let Some(c) = self.client(n) {
                    c.believes = None
                }
            }
            Event::LeaseGranted {
                client,
                token,
                expires_local,
                ..
            }
            | Event::LeaseRenewed {
                client,
                token,
                expires_local,
            }
            | Event::LeaseExtended {
                client,
                token,
                expires_local,
            } => {
                let view = LeaseView {
                    client: *client,
                    token: *token,
                    expires_local: *expires_local,
                };
                self.leases.insert(n, view.clone());
                self.lease = Some(view);
                if let Event::LeaseGranted { epoch, .. } = e.event {
                    self.last_token = Some(*token);
                    self.counts.grants += 1;
                    if *token != 0 {
                        self.max_token = Some(self.max_token.map_or(*token, |m| m.max(*token)));
                    }
                    self.epochs.insert(epoch, (*token, *client));
                }
            }
            Event::LeaseReleased { .. }
            | Event::LeaseExpired { .. }
            | Event::SessionInvalidated { token: Some(_), .. }
            | Event::FailedOver { lost: Some(_) } => self.drop_lease(n),
            Event::FailingOver { down_ms } if *down_ms > 0 => {
                self.set_paused(n, false);
                set(&mut self.coords_down, n, true);
                self.coord_down = true;
            }
            Event::FailedOver { .. } => self.set_coord_down(n, false),
            Event::WriteAccepted {
                client,
                key,
                value,
                token,
                epoch,
                mark,
                ..
            } => {
                self.counts.writes_accepted += 1;
                let mine = write_epoch(*epoch);
                let resource = self.resource_of(key).clone();
                let newest = self.accepted_epochs.get_or_insert_with(resource, || mine);
                *newest = (*newest).max(mine);
                self.cells.insert(
                    key.clone(),
                    CellView {
                        value: value.clone(),
                        token: *token,
                        writer: *client,
                    },
                );
                if let Some(m) = mark {
                    self.marks.insert(key.clone(), *m);
                }
                let v = self.versions.get_or_insert_with(key.clone(), || 0);
                *v += 1;
                let v = *v;
                if let Some(r) = self.reads.get_mut(&(*client, key.clone())) {
                    *r = v;
                }
            }
            Event::ReadServed {
                client,
                key,
                version,
            } => {
                self.reads.insert((*client, key.clone()), *version);
            }
            Event::ResourceDeclared { resource, keys, .. } => {
                for k in keys {
                    self.resources.insert(k.clone(), resource.clone());
                }
            }
            Event::WriteRejected { .. } => self.counts.writes_rejected += 1,
            Event::EffectPerformed { client, name } => {
                self.counts.effects_performed += 1;
                let (client, t) = (*client, self.t);
                self.effects
                    .get_or_insert_with(name.clone(), || EffectSeen {
                        first: client,
                        first_at: t,
                        times: 0,
                    })
                    .times += 1;
            }
            Event::Paused { .. } => self.set_paused(n, true),
            Event::Resumed => self.set_paused(n, false),
            Event::LinkCut { peer } => {
                self.cut.insert(pair(n, *peer));
            }
            Event::LinkHealed { peer } => {
                self.cut.remove(&pair(n, *peer));
            }
            Event::ClockJumped { by_ms } => {
                if let Some((_, c)) = self.clocks.iter_mut().find(|(x, _)| *x == n) {
                    c.jump(*by_ms)
                }
            }
            Event::Crashed { .. } => {
                self.set_paused(n, false);
                match n {
                    NodeId::Coord(_) => self.set_coord_down(n, true),
                    NodeId::Storage => self.storage_down = true,
                    NodeId::Client(_) => {}
                }
            }
            Event::Restarted { forgot } => match n {
                NodeId::Coord(_) => self.set_coord_down(n, false),
                NodeId::Storage => {
                    self.storage_down = false;
                    if *forgot == Forgot::Mark {
                        self.marks.clear();
                    }
                }
                NodeId::Client(_) => {}
            },
            _ => {}
        }
    }
}

/// A trace with keyframes, ready to answer "the state at step k".
pub struct Projection {
    keyframes: Vec<State>,
}

impl Projection {
    pub fn new(trace: &Trace) -> Projection {
        let mut keyframes = Vec::with_capacity(trace.len() / KEYFRAME_EVERY + 1);
        let mut s = State::initial(trace);
        keyframes.push(s.clone());
        for i in 0..trace.len() {
            s.apply(trace, i);
            if (i + 1) % KEYFRAME_EVERY == 0 {
                keyframes.push(s.clone());
            }
        }
        Projection { keyframes }
    }

    /// The state after the first `k` entries (clamped to the trace's length).
    pub fn state_at(&self, trace: &Trace, k: usize) -> State {
        let k = k.min(trace.len());
        let j = (k / KEYFRAME_EVERY).min(self.keyframes.len() - 1);
        let mut s = self.keyframes[j].clone();
        for i in j * KEYFRAME_EVERY..k {
            s.apply(trace, i);
        }
        s
    }
}

/// The one linear fold over the whole trace: calls `f(i, before, after)` for each entry
/// `i`, with the state right before and right after it, and returns the final state. No
/// keyframes and no clones per entry: a second state follows one entry behind.
pub fn walk(trace: &Trace, mut f: impl FnMut(usize, &State, &State)) -> State {
    let mut before = State::initial(trace);
    let mut after = before.clone();
    for i in 0..trace.len() {
        after.apply(trace, i);
        f(i, &before, &after);
        before.apply(trace, i);
    }
    after
}

/// Something a node is in for a while, as the diagram draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// A client believes it holds the lock with this token.
    Belief {
        token: u64,
    },
    Paused,
    /// Crashed, or a coordinator without a leader.
    Down,
    /// A coordinator node holds a lease for `client` with `token`.
    Lease {
        client: NodeId,
        token: u64,
    },
}

/// A span of one node, from the state's point of view: it starts at the entry after which
/// the state shows it and ends at the entry after which the state no longer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub node: NodeId,
    pub span: Span,
    pub from: Time,
    pub to: Time,
    /// The entry that ended it; `None`: still going when the run stopped (`to` is the end).
    pub ended_by: Option<usize>,
}

/// What node `n` is in, in state `st`: its belief, pause, lease and down spans.
fn spans(st: &State, n: NodeId) -> [Option<Span>; 4] {
    [
        st.belief_of(n).map(|token| Span::Belief { token }),
        st.is_paused(n).then_some(Span::Paused),
        st.lease_on(n)
            .map(|(client, token)| Span::Lease { client, token }),
        st.is_down(n).then_some(Span::Down),
    ]
}

/// Every interval of the run, read off the projection's states (one [`walk`]): those that
/// end, in the order they end (at one entry: beliefs, pauses, leases, then down times, in
/// lane order); then those still going at the end — beliefs, pauses, down times, leases.
pub fn intervals(trace: &Trace) -> Vec<Interval> {
    let mut out = Vec::new();
    // Per lane, per kind: since when and from which entry's state.
    let mut open: Vec<[Option<(Time, Span)>; 4]> = vec![[None; 4]; trace.nodes.len()];
    walk(trace, |i, before, after| {
        let t = trace.entries[i].t;
        for (lane, (n, _)) in trace.nodes.iter().enumerate() {
            let (was, now) = (spans(before, *n), spans(after, *n));
            for k in 0..4 {
                if was[k] == now[k] {
                    continue;
                }
                if let Some((from, span)) = open[lane][k].take() {
                    out.push(Interval {
                        node: *n,
                        span,
                        from,
                        to: t,
                        ended_by: Some(i),
                    });
                }
                open[lane][k] = now[k].map(|s| (t, s));
            }
        }
    });
    for k in [0, 1, 3, 2] {
        for (lane, (n, _)) in trace.nodes.iter().enumerate() {
            if let Some((from, span)) = open[lane][k] {
                out.push(Interval {
                    node: *n,
                    span,
                    from,
                    to: trace.end,
                    ended_by: None,
                });
            }
        }
    }
    out
}

/// The true time at which a node whose clock is `clock` reaches the reading `local` on its
/// timer (wall or monotonic, as it measures deadlines): where a deadline it believes in
/// falls on the diagram's axis. Its clock only runs forward between jumps, so this is the
/// one such instant (the earliest at or after the start of the run); a jump changes
/// `clock`, and with it the answer.
pub fn deadline_in_true_time(clock: &Clock, local: i64) -> Time {
    clock.true_time_of(local, Time(0))
}

/// How many entries happened at or before true time `t`: the step a time cursor shows.
pub fn step_at_time(trace: &Trace, t: Time) -> usize {
    trace.entries.partition_point(|e| e.t <= t)
}

fn set(v: &mut VecSet<NodeId>, n: NodeId, on: bool) {
    if on {
        v.insert(n);
    } else {
        v.remove(&n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;

    /// A recorded trace with no job lines: a client that takes the lock is running its
    /// job from then, as the progress report counts it, not "not started".
    #[test]
    fn a_client_that_acts_without_job_lines_is_running() {
        let c1 = NodeId::Client(0);
        let belief = Event::BeliefStarted {
            token: 0,
            epoch: 0,
            deadline_local: 5_000,
        };
        let nodes = [c1, NodeId::Client(1), NodeId::COORD, NodeId::Storage];
        let trace = crate::model::trace::by_hand(&nodes, vec![(c1, belief)]);
        let st = Projection::new(&trace).state_at(&trace, 1);
        assert_eq!(st.clients[0].status, JobStatus::Running);
        assert_eq!(st.clients[1].status, JobStatus::NotStarted);
    }

    #[test]
    fn keyframed_seek_equals_a_plain_fold_at_every_step() {
        let mut sc = preset("gc-pause").unwrap().scenario();
        sc.clients[1].renew_every_ms = Some(50); // plenty of entries
        let trace = simulate(&sc).unwrap();
        assert!(trace.len() > 3 * KEYFRAME_EVERY);
        let p = Projection::new(&trace);
        // Hand-checked against the scenario, not against a fold: c1 pauses at 10 s for
        // 40 s, so it is paused after the entry at 10,000 ms and until the one at 50,000.
        let at = |ev: fn(&Event) -> bool| {
            let i = trace
                .entries
                .iter()
                .position(|e| e.node == NodeId::Client(0) && ev(&e.event))
                .unwrap();
            (i, trace.entries[i].t)
        };
        let (pause, pause_t) = at(|e| matches!(e, Event::Paused { for_ms: 40_000, .. }));
        let (resume, resume_t) = at(|e| matches!(e, Event::Resumed));
        assert_eq!((pause_t, resume_t), (Time(10_000), Time(50_000)));
        let mut plain = State::initial(&trace);
        for k in 0..=trace.len() {
            let seen = p.state_at(&trace, k);
            let paused = pause < k && k <= resume;
            assert_eq!(seen.is_paused(NodeId::Client(0)), paused, "c1 at step {k}");
            assert!(!seen.is_paused(NodeId::Client(1)), "c2 at step {k}");
            assert_eq!(seen, plain, "step {k}");
            if k < trace.len() {
                plain.apply(&trace, k);
            }
        }
    }

    #[test]
    fn walk_sees_each_entry_between_the_states_a_seek_shows() {
        let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let p = Projection::new(&trace);
        let mut seen = 0;
        let end = walk(&trace, |i, before, after| {
            if i % 37 == 0 {
                assert_eq!(*before, p.state_at(&trace, i), "before {i}");
                assert_eq!(*after, p.state_at(&trace, i + 1), "after {i}");
            }
            seen += 1;
        });
        assert_eq!(seen, trace.len());
        assert_eq!(end, p.state_at(&trace, trace.len()));
        assert_eq!(end.counts.grants as usize, end.epochs.len());
    }

    /// A hand-built trace: one entry a second, on nodes c1, coord, storage.
    fn hand_trace(events: Vec<(NodeId, Event)>) -> Trace {
        crate::model::trace::by_hand(&[NodeId::Client(0), NodeId::COORD, NodeId::Storage], events)
    }

    #[test]
    fn intervals_are_what_the_states_show() {
        let runs = [
            ("gc-pause", preset("gc-pause").unwrap().scenario()),
            ("eight-clients", preset("eight-clients").unwrap().scenario()),
            (
                "counter-reset",
                crate::teach::library::find("counter-reset").unwrap(),
            ),
            (
                "volatile-fence",
                crate::teach::library::find("volatile-fence").unwrap(),
            ),
            (
                "redlock-clock-jump",
                crate::teach::flavor_presets::find("redlock-clock-jump").unwrap(),
            ),
        ];
        for (name, sc) in runs {
            let trace = simulate(&sc).unwrap();
            let proj = Projection::new(&trace);
            let all = intervals(&trace);
            assert!(!all.is_empty(), "{name}");
            for iv in &all {
                let shows = |st: &State| spans(st, iv.node).contains(&Some(iv.span));
                match iv.ended_by {
                    Some(j) => {
                        assert!(
                            shows(&proj.state_at(&trace, j)),
                            "{name}: {iv:?} before its end"
                        );
                        assert!(
                            !shows(&proj.state_at(&trace, j + 1)),
                            "{name}: {iv:?} after its end"
                        );
                        assert_eq!(iv.to, trace.entries[j].t);
                    }
                    None => {
                        assert!(shows(&proj.state_at(&trace, trace.len())), "{name}: {iv:?}");
                        assert_eq!(iv.to, trace.end);
                    }
                }
                let k = step_at_time(&trace, iv.from);
                assert!(
                    shows(&proj.state_at(&trace, k)),
                    "{name}: {iv:?} at its start"
                );
            }
        }
        let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let c1 = intervals(&trace);
        let c1: Vec<_> = c1
            .iter()
            .filter(|iv| iv.node == NodeId::Client(0))
            .map(|iv| iv.span)
            .collect();
        assert!(c1.contains(&Span::Belief { token: 33 }) && c1.contains(&Span::Paused));
    }

    #[test]
    fn a_crash_ends_a_pause_and_a_crash_while_down_does_not_restart_the_down_time() {
        let s = NodeId::Storage;
        let trace = hand_trace(vec![
            (
                s,
                Event::Paused {
                    for_ms: 10_000,
                    cause: crate::vocab::names::PauseCause::Gc,
                },
            ),
            (s, Event::Crashed { down_ms: 5_000 }),
            (s, Event::Crashed { down_ms: 5_000 }),
            (
                s,
                Event::Restarted {
                    forgot: Forgot::Nothing,
                },
            ),
        ]);
        let iv: Vec<_> = intervals(&trace)
            .iter()
            .map(|iv| (iv.span, iv.from.0, iv.to.0))
            .collect();
        assert_eq!(iv, [(Span::Paused, 0, 1000), (Span::Down, 1000, 3000)]);
    }

    #[test]
    fn a_new_token_without_a_loss_ends_one_belief_and_starts_another() {
        let c = NodeId::Client(0);
        let believe = |token| {
            (
                c,
                Event::BeliefStarted {
                    token,
                    epoch: 1,
                    deadline_local: 9_000,
                },
            )
        };
        let trace = hand_trace(vec![believe(5), believe(5), believe(6)]);
        let iv: Vec<_> = intervals(&trace)
            .iter()
            .map(|iv| (iv.span, iv.from.0, iv.to.0, iv.ended_by))
            .collect();
        assert_eq!(
            iv,
            [
                (Span::Belief { token: 5 }, 0, 2000, Some(2)),
                (Span::Belief { token: 6 }, 2000, 3000, None)
            ]
        );
    }

    #[test]
    fn a_deadline_maps_to_the_instant_the_clock_reads_it() {
        let fast = Clock {
            offset_ms: 2_000,
            drift_ppm: 100_000,
            monotonic: false,
        };
        // Reads 2,000 + 1.1 t: 35,000 at t = 30,000.
        assert_eq!(deadline_in_true_time(&fast, 35_000), Time(30_000));
        assert_eq!(fast.wall(Time(30_000)), 35_000);
        // A monotonic timer ignores the offset (jumps).
        let mono = Clock {
            monotonic: true,
            ..fast
        };
        assert_eq!(deadline_in_true_time(&mono, 33_000), Time(30_000));
        // A reading already passed at the start maps to the start.
        assert_eq!(deadline_in_true_time(&fast, 1_000), Time(0));
        assert_eq!(
            deadline_in_true_time(&Clock::default(), 29_500),
            Time(29_500)
        );
    }

    /// The hover readings and the cursor's read a node's clock the same way: the state at
    /// that time, with every jump up to it.
    #[test]
    fn a_local_reading_counts_the_jumps_up_to_its_time() {
        let c = NodeId::Client(0);
        let trace = hand_trace(vec![
            (c, Event::JobStarted),
            (c, Event::ClockJumped { by_ms: 5_000 }),
        ]);
        let p = Projection::new(&trace);
        let local = |t| {
            p.state_at(&trace, step_at_time(&trace, Time(t)))
                .local(c, Time(t))
        };
        assert_eq!(local(999), 999);
        assert_eq!(local(1_000), 6_000);
        assert_eq!(local(1_500), 6_500);
        assert_eq!(
            p.state_at(&trace, 2).local(NodeId::Storage, Time(1_500)),
            1_500
        );
    }

    /// The gc-pause preset by the clock: c1's pause fault is at 10,000 ms for 40,000 ms.
    #[test]
    fn gc_pause_client_1_is_paused_from_10_000_ms_until_its_resume_at_50_000_ms() {
        let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let p = Projection::new(&trace);
        let c1_paused_at = |ms| {
            p.state_at(&trace, step_at_time(&trace, Time(ms)))
                .is_paused(NodeId::Client(0))
        };
        let by_time: Vec<_> = [0, 9_999, 10_000, 30_010, 49_999, 50_000, 60_005]
            .into_iter()
            .map(|ms| (ms, c1_paused_at(ms)))
            .collect();
        assert_eq!(
            by_time,
            [
                (0, false),
                (9_999, false),
                (10_000, true),
                (30_010, true),
                (49_999, true),
                (50_000, false),
                (60_005, false),
            ]
        );
        let paused: Vec<_> = intervals(&trace)
            .iter()
            .filter(|iv| iv.span == Span::Paused)
            .map(|iv| (iv.node, iv.from.0, iv.to.0))
            .collect();
        assert_eq!(paused, [(NodeId::Client(0), 10_000, 50_000)]);
    }

    #[test]
    fn gc_pause_mid_run_shows_two_believers_and_a_paused_client() {
        let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let p = Projection::new(&trace);
        let s = p.state_at(&trace, step_at_time(&trace, Time(40_000)));
        assert!(s.clients[0].paused);
        assert_eq!(
            s.believers().collect::<Vec<_>>(),
            [(NodeId::Client(0), 33), (NodeId::Client(1), 34)]
        );
        assert_eq!(
            s.lease.as_ref().map(|l| (l.client, l.token)),
            Some((NodeId::Client(1), 34))
        );
        assert_eq!(s.cells.get("account:42").and_then(|c| c.token), Some(34));
        let end = p.state_at(&trace, trace.len());
        assert_eq!(
            end.cells.get("account:42").and_then(|c| c.token),
            Some(33),
            "unfenced: the stale write landed"
        );
        assert!(end.in_flight.is_empty());
    }
}
