//! A client: a job of steps run against the lock service and storage, as data.
//!
//! The client is where "acquire a lock and proceed" lives, with every knob the seeds
//! discuss: where its lease deadline is counted from, a safety margin, a renewal
//! watchdog (a thread that renews while the process lives) or renewals the job sends as
//! it makes progress (`renew` steps, which stop when the work is stuck), whether it
//! checks its lease before writing, what it does when it learns the
//! lease is gone (continue, abort, re-acquire), and whether it fails open or closed when
//! the coordinator cannot be reached.
//!
//! **Belief.** A client believes it holds the lock from the moment a grant reaches it
//! until it *learns otherwise*: a lease check on its own clock finds the deadline passed,
//! a renewal is refused, its watchdog sees the lease run out, storage rejects a write, it
//! releases, or its job ends. Nothing else ends a belief — in particular a paused client
//! learns nothing while frozen, and the code after a pause runs on the belief it had
//! before (Kleppmann 2016's GC pause). The checker reads these `BeliefStarted` /
//! `BeliefEnded` entries to find intervals with two believers.
//!
//! The believed deadline is `base + ttl − margin` on the client's own clock, where `base`
//! is when the acquire left (count from request: conservative, the grant's flight time is
//! counted as spent) or when the grant arrived (count from grant: optimistic, the lease
//! already started ticking on the coordinator before the client heard of it).
//!
//! **Flavors.** The client library of a real service differs in a few places, read from
//! the flavor's [`Model`]: a default keepalive period, what happens when the lease runs out
//! locally (lose it; ZooKeeper's Disconnected, then Curator's LOST; Chubby's jeopardy and grace),
//! whether writes can carry a token at all, and — Redlock only — acquiring on five masters
//! and trusting the lock for its computed validity. With the generic model every one of
//! these is inert.

mod renewal;
mod storage_io;

use super::models::Models;
use super::node::{Ctx, TimerKind};
use crate::model::flavors::{generic, redlock, Model, OnExpiry, Tokens};
use crate::model::msg::{Msg, RejectReason, Text};
use crate::model::scenario::{
    ClientSpec, CoordinatorSpec, CountFrom, FailMode, FenceWith, LossPolicy, Step,
};
use crate::model::trace::{AbortWhy, Event, LossHow};
use crate::vocab::ids::NodeId;
use std::marker::PhantomData;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belief {
    pub token: u64,
    pub epoch: u32,
    /// On the client's timer clock.
    pub deadline: i64,
}

/// What the last grant gave the client. Kept after the belief ends so a "continue"
/// client keeps writing with its old token — that is the bug it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Creds {
    token: u64,
    epoch: u32,
    owner: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    NotStarted,
    Acquiring { req: u32, queued: bool },
    Working,
    Writing { req: u32 },
    Reading { req: u32 },
    Effecting { req: u32 },
    Finished,
    Aborted,
}

/// After learning of a loss: go on with the next step, stop, or resume at `pc` (already set).
enum Flow {
    Proceed,
    Stop,
    Jumped,
}

/// The last read of a key: what an `update` of it writes back and compares against.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    key: Text,
    value: Text,
    version: u64,
}

/// `K`: the models the run is built with, whose [`Models::model`] the client reads its
/// service's model through.
#[derive(Clone)]
pub struct Client<K: Models> {
    kit: PhantomData<K>,
    me: NodeId,
    /// The last read, and how many conditional writes of the current update storage has
    /// refused so far.
    seen: Option<Seen>,
    conflicts: u32,
    pc: usize,
    pub phase: Phase,
    /// Bumped whenever a new operation starts; timers of older operations are ignored.
    gen: u32,
    renew_gen: u32,
    belief: Option<Belief>,
    creds: Option<Creds>,
    owner: u64,
    next_req: u32,
    attempts: u32,
    /// Acquire attempts of the current step the lock service answered "held by someone
    /// else": when the client gives up, they tell a refusal from an outage.
    refusals: u32,
    /// Acquire attempts of the current step: (req, local send time).
    acquire_sent: Vec<(u32, i64)>,
    /// The last renewal sent: (req, local send time).
    renew_sent: (u32, i64),
    /// The client failed open: it runs on without a lock, so lease checks do not apply.
    unlocked: bool,
    model: &'static Model,
    /// Chubby's grace period.
    grace_ms: i64,
    /// ZooKeeper: Disconnected counts as a loss.
    stop_on_disconnect: bool,
    /// Chubby: in jeopardy. ZooKeeper: disconnected, since when (local).
    jeopardy: bool,
    disconnected: bool,
    disconnected_at: i64,
    /// When a reply of the lock service last arrived (local).
    last_heard: i64,
    /// Redlock: the current round's grants, answers, newest epoch and start (local).
    votes: u32,
    answers: u32,
    vote_epoch: u32,
    round_start: i64,
}

impl<K: Models> Client<K> {
    pub fn new(me: NodeId) -> Client<K> {
        Client {
            kit: PhantomData,
            me,
            seen: None,
            conflicts: 0,
            pc: 0,
            phase: Phase::NotStarted,
            gen: 0,
            renew_gen: 0,
            belief: None,
            creds: None,
            owner: 0,
            next_req: 1,
            attempts: 0,
            refusals: 0,
            acquire_sent: Vec::new(),
            renew_sent: (0, 0),
            unlocked: false,
            model: &generic::MODEL,
            grace_ms: 0,
            stop_on_disconnect: false,
            jeopardy: false,
            disconnected: false,
            disconnected_at: 0,
            last_heard: 0,
            votes: 0,
            answers: 0,
            vote_epoch: 0,
            round_start: 0,
        }
    }

    /// The service's model, as the run's kit reads it ([`Models::model`]).
    fn model(&self) -> &'static Model {
        K::model(self.model)
    }

    /// A client of the lock service `coord` describes.
    pub fn for_flavor(me: NodeId, coord: &CoordinatorSpec) -> Client<K> {
        Client {
            model: coord.flavor.model(),
            grace_ms: coord.grace_ms,
            stop_on_disconnect: coord.stop_on_disconnect,
            ..Client::new(me)
        }
    }

    /// Sends `msg` to every coordinator node (one, or Redlock's five masters).
    fn to_coords(&self, ctx: &mut Ctx, msg: Msg) {
        for i in 0..self.model().nodes {
            ctx.send(NodeId::Coord(i), msg.clone());
        }
    }

    /// The watchdog's period: the scenario's, else the flavor's default keepalive.
    fn renew_every(&self, spec: &ClientSpec) -> Option<i64> {
        spec.renew_every_ms.or_else(|| {
            (self.model().keepalive_div > 0)
                .then(|| (spec.ttl_ms / self.model().keepalive_div).max(1))
        })
    }

    pub fn belief(&self) -> Option<Belief> {
        self.belief
    }

    pub fn on_start(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        ctx.note(Event::JobStarted);
        self.run_steps(ctx, spec);
    }

    fn req(&mut self) -> u32 {
        let r = self.next_req;
        self.next_req += 1;
        r
    }

    /// Runs steps from `pc` until one has to wait for a reply or a timer.
    fn run_steps(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        loop {
            let Some(step) = spec.job.get(self.pc) else {
                self.end_belief(ctx, LossHow::JobEnded);
                self.phase = Phase::Finished;
                ctx.note(Event::JobFinished);
                return;
            };
            ctx.note(Event::StepStarted {
                step: self.pc as u32,
            });
            match step {
                Step::Acquire => {
                    self.owner = ctx.rng.next_u64();
                    self.attempts = 0;
                    self.refusals = 0;
                    self.unlocked = false;
                    self.acquire_sent.clear();
                    self.send_acquire(ctx, spec);
                    return;
                }
                Step::Work { ms } => {
                    self.gen += 1;
                    self.phase = Phase::Working;
                    ctx.timer_in(*ms, TimerKind::WorkDone { gen: self.gen });
                    return;
                }
                Step::Check => {
                    if !self.unlocked && !self.check_lease(ctx) {
                        match self.lose(ctx, spec, LossHow::DeadlinePassed) {
                            Flow::Proceed => {}
                            Flow::Stop => return,
                            Flow::Jumped => continue,
                        }
                    }
                }
                Step::Read { .. } => {
                    self.attempts = 0;
                    let req = self.req();
                    self.send_read(ctx, spec, req);
                    return;
                }
                Step::Write { .. } | Step::Update { .. } => {
                    if spec.check_before_write && !self.unlocked && !self.check_lease(ctx) {
                        match self.lose(ctx, spec, LossHow::DeadlinePassed) {
                            Flow::Proceed => {}
                            Flow::Stop => return,
                            Flow::Jumped => continue,
                        }
                    }
                    self.attempts = 0;
                    let req = self.req();
                    self.send_write(ctx, spec, req);
                    return;
                }
                Step::Effect { .. } => {
                    self.attempts = 0;
                    let req = self.req();
                    self.send_effect(ctx, spec, req);
                    return;
                }
                Step::Release => {
                    if let Some(c) = self.creds.take() {
                        self.to_coords(ctx, Msg::Release { owner: c.owner });
                    }
                    self.end_belief(ctx, LossHow::Released);
                }
                // The job's own heartbeat: it renews only when the work gets this far, and
                // does not wait for the answer (a refusal arrives as a watchdog's would).
                // With no lock believed there is nothing to renew.
                Step::Renew => {
                    if let (Some(_), Some(c)) = (self.belief, self.creds) {
                        self.send_renew(ctx, spec, c);
                    }
                }
            }
            self.pc += 1;
        }
    }

    fn send_acquire(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        self.gen += 1;
        let req = self.req();
        self.phase = Phase::Acquiring { req, queued: false };
        self.acquire_sent.push((req, ctx.now));
        (self.votes, self.answers, self.vote_epoch) = (0, 0, 0);
        self.round_start = ctx.now;
        self.to_coords(
            ctx,
            Msg::Acquire {
                req,
                owner: self.owner,
                ttl_ms: spec.ttl_ms,
            },
        );
        ctx.timer_in(spec.timeout_ms, TimerKind::RequestTimeout { gen: self.gen });
    }

    /// The lock is ours: believe it until `deadline` (local), then go on with the job.
    fn believe(&mut self, ctx: &mut Ctx, spec: &ClientSpec, token: u64, epoch: u32, deadline: i64) {
        self.belief = Some(Belief {
            token,
            epoch,
            deadline,
        });
        self.creds = Some(Creds {
            token,
            epoch,
            owner: self.owner,
        });
        self.last_heard = ctx.now;
        (self.jeopardy, self.disconnected) = (false, false);
        ctx.note(Event::BeliefStarted {
            token,
            epoch,
            deadline_local: deadline,
        });
        if let Some(every) = self.renew_every(spec) {
            self.renew_gen += 1;
            ctx.timer_in(
                every,
                TimerKind::RenewTick {
                    gen: self.renew_gen,
                },
            );
        }
        self.next_step(ctx, spec);
    }

    /// Redlock: every master answered, or the round timed out. The lock is held iff a
    /// majority granted and validity is left, measured on this client's clock *now* — after
    /// any pause that held the replies back.
    fn decide_round(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        let validity_ms = redlock::validity_ms(spec.ttl_ms, ctx.now - self.round_start);
        self.gen += 1;
        let granted = self.votes;
        if granted >= redlock::MAJORITY && validity_ms > 0 {
            ctx.note(Event::QuorumAcquired {
                granted,
                validity_ms,
            });
            let deadline = ctx.now.saturating_add(validity_ms - spec.margin_ms);
            self.believe(ctx, spec, 0, self.vote_epoch, deadline);
            return;
        }
        ctx.note(Event::QuorumFailed {
            granted,
            validity_ms,
        });
        // Some master said "held": the round was refused, not unanswered.
        if self.answers > granted {
            self.refusals += 1;
        }
        self.to_coords(ctx, Msg::Release { owner: self.owner });
        if self.exhausted(spec) {
            self.give_up_acquire(ctx, spec);
        } else {
            let wait = spec.retry.interval_ms + ctx.rng.range_i64(0, spec.retry.jitter_ms);
            ctx.timer_in(wait, TimerKind::RetryAcquire { gen: self.gen });
        }
    }

    /// A lease check on the client's own clock.
    fn check_lease(&mut self, ctx: &mut Ctx) -> bool {
        match self.belief {
            Some(b) if ctx.now < b.deadline => {
                ctx.note(Event::CheckPassed {
                    deadline_local: b.deadline,
                });
                true
            }
            _ => false,
        }
    }

    fn end_belief(&mut self, ctx: &mut Ctx, how: LossHow) {
        if let Some(b) = self.belief.take() {
            ctx.note(Event::BeliefEnded {
                token: b.token,
                how,
            });
        }
        // The watchdog has nothing left to renew.
        self.renew_gen += 1;
    }

    /// The client has learned its lease is gone; apply its policy.
    fn lose(&mut self, ctx: &mut Ctx, spec: &ClientSpec, how: LossHow) -> Flow {
        self.end_belief(ctx, how);
        match spec.on_loss {
            LossPolicy::Continue => {
                ctx.note(Event::LossIgnored);
                Flow::Proceed
            }
            LossPolicy::Abort => {
                self.abort(ctx, AbortWhy::LostLease);
                Flow::Stop
            }
            LossPolicy::Reacquire => {
                match spec.job[..=self.pc.min(spec.job.len() - 1)]
                    .iter()
                    .rposition(|s| *s == Step::Acquire)
                {
                    Some(i) => {
                        self.creds = None;
                        self.pc = i;
                        Flow::Jumped
                    }
                    None => {
                        self.abort(ctx, AbortWhy::LostLease);
                        Flow::Stop
                    }
                }
            }
        }
    }

    /// A loss learned while an operation is under way (a refused renewal mid-work).
    fn lose_async(&mut self, ctx: &mut Ctx, spec: &ClientSpec, how: LossHow) {
        match self.lose(ctx, spec, how) {
            Flow::Proceed | Flow::Stop => {}
            Flow::Jumped => {
                self.gen += 1;
                self.run_steps(ctx, spec);
            }
        }
    }

    fn abort(&mut self, ctx: &mut Ctx, why: AbortWhy) {
        self.end_belief(ctx, LossHow::JobEnded);
        self.gen += 1;
        self.phase = Phase::Aborted;
        ctx.note(Event::JobAborted { why });
    }

    fn next_step(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        self.pc += 1;
        self.run_steps(ctx, spec);
    }

    pub fn on_message(&mut self, ctx: &mut Ctx, spec: &ClientSpec, msg: &Msg) {
        if self.model().nodes > 1 {
            // Redlock: grants and refusals are votes of the current round, or stale.
            let (granted, req, epoch) = match *msg {
                Msg::Granted { req, epoch, .. } => (true, req, epoch),
                Msg::Busy { req } => (false, req, 0),
                _ => (false, 0, 0),
            };
            if req != 0 {
                if matches!(self.phase, Phase::Acquiring { req: r, .. } if r == req) {
                    self.answers += 1;
                    if granted {
                        self.votes += 1;
                        self.vote_epoch = self.vote_epoch.max(epoch);
                    }
                    if self.answers >= u32::from(self.model().nodes) {
                        self.decide_round(ctx, spec);
                    }
                }
                return;
            }
        }
        if matches!(
            msg,
            Msg::Renewed { .. } | Msg::RenewRefused { .. } | Msg::Granted { .. }
        ) {
            self.last_heard = ctx.now;
        }
        match (&self.phase, msg) {
            (
                Phase::Acquiring { .. },
                Msg::Granted {
                    req,
                    token,
                    ttl_ms,
                    epoch,
                },
            ) => {
                let Some(&(_, sent)) = self.acquire_sent.iter().find(|(r, _)| r == req) else {
                    return;
                };
                let base = match spec.count_from {
                    CountFrom::Request => sent,
                    CountFrom::Grant => ctx.now,
                };
                let deadline = base.saturating_add(ttl_ms - spec.margin_ms);
                self.believe(ctx, spec, *token, *epoch, deadline);
            }
            (Phase::Acquiring { req: r, .. }, Msg::Queued { req })
                if self.acquire_sent.iter().any(|(q, _)| q == req) =>
            {
                self.phase = Phase::Acquiring {
                    req: *r,
                    queued: true,
                };
            }
            (Phase::Acquiring { req: r, .. }, Msg::Busy { req }) if r == req => {
                self.refusals += 1;
                let wait = spec.retry.interval_ms + ctx.rng.range_i64(0, spec.retry.jitter_ms);
                ctx.timer_in(wait, TimerKind::RetryAcquire { gen: self.gen });
            }
            (_, Msg::Renewed { req, token, ttl_ms }) => {
                let Some(b) = self.belief.as_mut() else {
                    return;
                };
                if b.token != *token {
                    return;
                }
                let base = match spec.count_from {
                    CountFrom::Request if self.renew_sent.0 == *req => self.renew_sent.1,
                    CountFrom::Request => return,
                    CountFrom::Grant => ctx.now,
                };
                let deadline = base.saturating_add(ttl_ms - spec.margin_ms);
                if self.disconnected {
                    self.disconnected = false;
                    ctx.note(Event::Reconnected);
                }
                if self.jeopardy {
                    // Chubby: the grace period is over; the new lease is the deadline.
                    self.jeopardy = false;
                    b.deadline = deadline;
                    ctx.note(Event::Safe);
                }
                if deadline > b.deadline {
                    b.deadline = deadline;
                    ctx.note(Event::DeadlineExtended {
                        token: *token,
                        deadline_local: deadline,
                    });
                }
            }
            (_, Msg::RenewRefused { token, .. })
                if self.belief.is_some_and(|b| b.token == *token) =>
            {
                let how = match self.model().on_expiry {
                    OnExpiry::Disconnect => LossHow::SessionExpired,
                    _ => LossHow::RenewRefused,
                };
                self.lose_async(ctx, spec, how);
            }
            (Phase::Writing { req: r }, Msg::WriteAck { req }) if r == req => {
                self.conflicts = 0;
                self.next_step(ctx, spec)
            }
            (
                Phase::Reading { req: r },
                Msg::ReadReply {
                    req,
                    value,
                    version,
                },
            ) if r == req => {
                if let Some(Step::Read { key }) = spec.job.get(self.pc) {
                    self.seen = Some(Seen {
                        key: key.as_str().into(),
                        value: value.clone(),
                        version: *version,
                    });
                }
                self.next_step(ctx, spec)
            }
            (
                Phase::Writing { req: r },
                Msg::WriteRejected {
                    req,
                    reason: RejectReason::VersionChanged { .. },
                },
            ) if r == req => self.on_version_changed(ctx, spec),
            (Phase::Writing { req: r }, Msg::WriteRejected { req, .. }) if r == req => {
                match self.lose(ctx, spec, LossHow::Fenced) {
                    Flow::Proceed => self.next_step(ctx, spec),
                    Flow::Stop => {}
                    Flow::Jumped => self.run_steps(ctx, spec),
                }
            }
            (Phase::Effecting { req: r }, Msg::EffectDone { req, .. }) if r == req => {
                self.next_step(ctx, spec)
            }
            // Late replies to operations the client has moved past.
            _ => {}
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, spec: &ClientSpec, timer: &TimerKind) {
        match *timer {
            TimerKind::WorkDone { gen } if gen == self.gen && self.phase == Phase::Working => {
                self.next_step(ctx, spec)
            }
            TimerKind::RetryAcquire { gen } if gen == self.gen => {
                if matches!(self.phase, Phase::Acquiring { .. }) {
                    self.send_acquire(ctx, spec);
                }
            }
            TimerKind::RequestTimeout { gen } if gen == self.gen => self.on_timeout(ctx, spec),
            TimerKind::RenewTick { gen } if gen == self.renew_gen => self.on_renew_tick(ctx, spec),
            _ => {}
        }
    }

    fn exhausted(&mut self, spec: &ClientSpec) -> bool {
        self.attempts += 1;
        spec.retry.max_attempts > 0 && self.attempts >= spec.retry.max_attempts
    }

    fn on_timeout(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        match self.phase.clone() {
            Phase::Acquiring { queued: true, .. } => {}
            Phase::Acquiring { queued: false, .. } if self.model().nodes > 1 => {
                self.decide_round(ctx, spec)
            }
            Phase::Acquiring { queued: false, .. } => {
                if !self.exhausted(spec) {
                    let wait = spec.retry.interval_ms + ctx.rng.range_i64(0, spec.retry.jitter_ms);
                    ctx.timer_in(wait, TimerKind::RetryAcquire { gen: self.gen });
                    return;
                }
                self.give_up_acquire(ctx, spec);
            }
            // A retry of a write or effect reuses its request id: whichever copy is
            // answered first completes the step, and an old copy may still land later.
            Phase::Writing { req } => {
                if self.exhausted(spec) {
                    ctx.note(Event::GaveUp);
                    self.abort(ctx, AbortWhy::StorageUnreachable);
                } else {
                    self.send_write(ctx, spec, req);
                }
            }
            Phase::Reading { req } => {
                if self.exhausted(spec) {
                    ctx.note(Event::GaveUp);
                    self.abort(ctx, AbortWhy::StorageUnreachable);
                } else {
                    self.send_read(ctx, spec, req);
                }
            }
            Phase::Effecting { req } => {
                if self.exhausted(spec) {
                    ctx.note(Event::GaveUp);
                    self.abort(ctx, AbortWhy::StorageUnreachable);
                } else {
                    self.send_effect(ctx, spec, req);
                }
            }
            Phase::NotStarted | Phase::Working | Phase::Finished | Phase::Aborted => {}
        }
    }

    fn give_up_acquire(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        ctx.note(Event::GaveUp);
        match spec.unreachable {
            FailMode::Open => {
                ctx.note(Event::FailedOpen);
                self.unlocked = true;
                // Tell the coordinator to forget this owner in case a request did land.
                self.to_coords(ctx, Msg::Release { owner: self.owner });
                self.next_step(ctx, spec);
            }
            // The service answered, so this is not an outage: the lock was held.
            FailMode::Closed if self.refusals > 0 => self.abort(
                ctx,
                AbortWhy::Refused {
                    times: self.refusals,
                },
            ),
            FailMode::Closed => self.abort(ctx, AbortWhy::CoordinatorUnreachable),
        }
    }

    pub fn id(&self) -> NodeId {
        self.me
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::node::Cmd;
    use crate::model::sim::rng::Rng;
    use crate::model::sim::Whole;

    fn spec(job: Vec<Step>) -> ClientSpec {
        ClientSpec {
            start_ms: 0,
            clock: Default::default(),
            ttl_ms: 10_000,
            margin_ms: 1_000,
            count_from: CountFrom::Request,
            renew_every_ms: None,
            on_loss: LossPolicy::Abort,
            check_before_write: true,
            fence_with: FenceWith::Token,
            retry: Default::default(),
            timeout_ms: 500,
            unreachable: FailMode::Closed,
            job,
        }
    }

    fn events(ctx: &Ctx) -> Vec<Event> {
        ctx.out
            .iter()
            .filter_map(|c| {
                if let Cmd::Note(e) = c {
                    Some(e.clone())
                } else {
                    None
                }
            })
            .collect()
    }

    /// A client of `s` that started at 0 and got token `token` (a 10 s lease) at 5 ms.
    fn granted(s: &ClientSpec, token: u64) -> (Client<Whole>, Rng) {
        let mut rng = Rng::new(3);
        let mut c = Client::<Whole>::new(NodeId::Client(0));
        c.on_start(&mut Ctx::new(0, &mut rng), s);
        let grant = Msg::Granted {
            req: 1,
            token,
            ttl_ms: 10_000,
            epoch: 1,
        };
        c.on_message(&mut Ctx::new(5, &mut rng), s, &grant);
        (c, rng)
    }

    fn write_step() -> Step {
        Step::Write {
            key: "x".into(),
            value: "v".into(),
        }
    }

    #[test]
    fn deadline_counts_from_the_request_minus_the_margin() {
        let s = spec(vec![Step::Acquire, Step::Work { ms: 100 }]);
        let mut rng = Rng::new(3);
        let mut c = Client::<Whole>::new(NodeId::Client(0));
        c.on_start(&mut Ctx::new(1_000, &mut rng), &s);
        let mut ctx = Ctx::new(1_050, &mut rng);
        c.on_message(
            &mut ctx,
            &s,
            &Msg::Granted {
                req: 1,
                token: 33,
                ttl_ms: 10_000,
                epoch: 1,
            },
        );
        assert_eq!(c.belief().map(|b| b.deadline), Some(1_000 + 10_000 - 1_000));
        let grant = ClientSpec {
            count_from: CountFrom::Grant,
            ..s.clone()
        };
        let mut c = Client::<Whole>::new(NodeId::Client(0));
        c.on_start(&mut Ctx::new(1_000, &mut rng), &grant);
        c.on_message(
            &mut Ctx::new(1_050, &mut rng),
            &grant,
            &Msg::Granted {
                req: 1,
                token: 33,
                ttl_ms: 10_000,
                epoch: 1,
            },
        );
        assert_eq!(c.belief().map(|b| b.deadline), Some(1_050 + 9_000));
    }

    #[test]
    fn check_before_write_aborts_a_late_writer() {
        let s = spec(vec![Step::Acquire, Step::Work { ms: 20_000 }, write_step()]);
        let (mut c, mut rng) = granted(&s, 1);
        let mut ctx = Ctx::new(20_005, &mut rng);
        c.on_timer(&mut ctx, &s, &TimerKind::WorkDone { gen: c.gen });
        let ev = events(&ctx);
        assert!(ev.contains(&Event::BeliefEnded {
            token: 1,
            how: LossHow::DeadlinePassed
        }));
        assert!(ev.contains(&Event::JobAborted {
            why: AbortWhy::LostLease
        }));
        assert_eq!(c.phase, Phase::Aborted);
    }

    #[test]
    fn without_a_check_the_stale_token_is_written() {
        let s = ClientSpec {
            check_before_write: false,
            ..spec(vec![Step::Acquire, Step::Work { ms: 20_000 }, write_step()])
        };
        let (mut c, mut rng) = granted(&s, 33);
        let mut ctx = Ctx::new(20_005, &mut rng);
        c.on_timer(&mut ctx, &s, &TimerKind::WorkDone { gen: c.gen });
        assert!(ctx.out.iter().any(|cmd| matches!(
            cmd,
            Cmd::Send {
                msg: Msg::Write {
                    token: Some(33),
                    ..
                },
                ..
            }
        )));
        assert!(
            c.belief().is_some(),
            "it never looked, so it still believes"
        );
    }

    #[test]
    fn a_fence_rejection_ends_the_belief_and_reacquire_goes_back() {
        let s = ClientSpec {
            on_loss: LossPolicy::Reacquire,
            check_before_write: false,
            ..spec(vec![Step::Acquire, write_step()])
        };
        let (mut c, mut rng) = granted(&s, 33);
        let mut ctx = Ctx::new(10, &mut rng);
        c.on_message(
            &mut ctx,
            &s,
            &Msg::WriteRejected {
                req: 2,
                reason: crate::model::msg::RejectReason::NoToken,
            },
        );
        assert!(c.belief().is_none());
        assert!(ctx.out.iter().any(|cmd| matches!(
            cmd,
            Cmd::Send {
                msg: Msg::Acquire { .. },
                ..
            }
        )));
    }

    #[test]
    fn unreachable_coordinator_fails_open_or_closed() {
        for (mode, writes) in [(FailMode::Open, true), (FailMode::Closed, false)] {
            let s = ClientSpec {
                unreachable: mode,
                retry: crate::model::scenario::RetrySpec {
                    interval_ms: 100,
                    jitter_ms: 0,
                    max_attempts: 1,
                },
                ..spec(vec![Step::Acquire, write_step()])
            };
            let mut rng = Rng::new(3);
            let mut c = Client::<Whole>::new(NodeId::Client(0));
            c.on_start(&mut Ctx::new(0, &mut rng), &s);
            let mut ctx = Ctx::new(500, &mut rng);
            c.on_timer(&mut ctx, &s, &TimerKind::RequestTimeout { gen: c.gen });
            let wrote = ctx.out.iter().any(|cmd| {
                matches!(
                    cmd,
                    Cmd::Send {
                        msg: Msg::Write { token: None, .. },
                        ..
                    }
                )
            });
            assert_eq!(wrote, writes, "{mode:?}");
        }
    }

    #[test]
    fn watchdog_renews_then_notices_a_lapse() {
        let s = ClientSpec {
            renew_every_ms: Some(3_000),
            ..spec(vec![Step::Acquire, Step::Work { ms: 60_000 }])
        };
        let (mut c, mut rng) = granted(&s, 1);
        let mut ctx = Ctx::new(3_005, &mut rng);
        c.on_timer(&mut ctx, &s, &TimerKind::RenewTick { gen: c.renew_gen });
        assert!(ctx.out.iter().any(|cmd| matches!(
            cmd,
            Cmd::Send {
                msg: Msg::Renew { .. },
                ..
            }
        )));
        // No reply ever comes; at the deadline (9 s local) the watchdog gives up.
        let mut ctx = Ctx::new(9_500, &mut rng);
        c.on_timer(&mut ctx, &s, &TimerKind::RenewTick { gen: c.renew_gen });
        assert!(events(&ctx).contains(&Event::BeliefEnded {
            token: 1,
            how: LossHow::WatchdogExpired
        }));
    }

    /// A `renew` step sends one renewal and goes straight on; its answer extends the
    /// lease, and a refusal is a loss, as a watchdog's would be. With no lock believed it
    /// sends nothing.
    #[test]
    fn a_renew_step_renews_once_and_goes_on() {
        let s = spec(vec![
            Step::Acquire,
            Step::Work { ms: 4_000 },
            Step::Renew,
            Step::Work { ms: 4_000 },
        ]);
        let (mut c, mut rng) = granted(&s, 7);
        let mut ctx = Ctx::new(4_005, &mut rng);
        c.on_timer(&mut ctx, &s, &TimerKind::WorkDone { gen: c.gen });
        let renews = ctx
            .out
            .iter()
            .filter(|cmd| {
                matches!(
                    cmd,
                    Cmd::Send {
                        msg: Msg::Renew { token: 7, .. },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(renews, 1);
        assert_eq!(c.phase, Phase::Working, "it did not wait for the answer");
        assert_eq!(c.pc, 3);
        let mut ctx = Ctx::new(4_015, &mut rng);
        c.on_message(
            &mut ctx,
            &s,
            &Msg::Renewed {
                req: 2,
                token: 7,
                ttl_ms: 10_000,
            },
        );
        // Counted from the renewal's request (4 005) less the margin.
        assert_eq!(c.belief().map(|b| b.deadline), Some(4_005 + 9_000));
        let mut ctx = Ctx::new(4_020, &mut rng);
        c.on_message(&mut ctx, &s, &Msg::RenewRefused { req: 2, token: 7 });
        assert!(events(&ctx).contains(&Event::BeliefEnded {
            token: 7,
            how: LossHow::RenewRefused
        }));
        assert_eq!(c.phase, Phase::Aborted);

        // Never granted: nothing to renew.
        let s = spec(vec![Step::Renew, Step::Work { ms: 1 }]);
        let mut rng = Rng::new(3);
        let mut c = Client::<Whole>::new(NodeId::Client(0));
        let mut ctx = Ctx::new(0, &mut rng);
        c.on_start(&mut ctx, &s);
        assert!(!ctx.out.iter().any(|cmd| matches!(cmd, Cmd::Send { .. })));
    }
}
