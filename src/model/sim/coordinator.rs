//! The generic lock service: one holder at a time, leases with TTLs, fencing tokens.
//!
//! Invariants it keeps (and that the checker can still see broken by *other* parts of the
//! system): at most one lease at a time on this node; every grant takes the next token
//! from a counter that only goes up — unless the counter is kept in memory and the node
//! restarts, in which case it starts over and tokens repeat (a fault we teach).
//!
//! Expiry runs on the coordinator's own clock: it arms a timer for the lease's local
//! deadline, so a clock jump forward expires leases early (the Redis docs warn about
//! exactly this) unless the clock is monotonic.
//!
//! The owner id is a random number chosen by the client per acquisition. It makes release
//! and renewal safe against the wrong client, but it is *not* a fence: it carries
//! identity, not order (Kleppmann 2016; the Redis distlock docs use it the same way).
//!
//! Flavors (`model::flavors`) change this service through data — a [`Model`] — and Redlock
//! wraps five of them; the run loop talks only to the [`LockService`] trait. With the
//! generic model every flavor branch below is inert, so the generic coordinator behaves
//! exactly as a service with no flavors at all would (the golden digests check it).

use super::models::Models;
use super::node::{Ctx, TimerKind};
use super::rng::Rng;
use crate::model::flavors::{Expiry, Failover, Model, Tokens, Waiters};
use crate::model::msg::Msg;
use crate::model::scenario::{CoordinatorSpec, Durability, Invalidation};
use crate::model::trace::{Event, Forgot};
use crate::vocab::ids::NodeId;
use std::collections::VecDeque;
use std::marker::PhantomData;

/// What the run loop needs from any coordinator. `node` is the coordinator node the
/// input is for (always `coord` except with Redlock's masters).
pub trait LockService {
    fn on_message(&mut self, ctx: &mut Ctx, node: NodeId, from: NodeId, msg: &Msg);
    fn on_timer(&mut self, ctx: &mut Ctx, node: NodeId, timer: &TimerKind);
    /// The node crashed and comes back: lose what is not durable.
    fn on_restart(&mut self, ctx: &mut Ctx, node: NodeId);
    /// A new leader (or a promoted replica) takes over, `down_ms` after the old one
    /// stopped; what survives depends on the flavor's [`Failover`].
    fn on_failover(&mut self, ctx: &mut Ctx, node: NodeId, down_ms: i64);
    /// The service declares `client`'s session dead although it is alive (a health-check
    /// false positive): its lock is released.
    fn invalidate(&mut self, ctx: &mut Ctx, node: NodeId, client: NodeId);
    /// The token of the lease in force now, if any (read by exact-match storage).
    fn current_token(&self) -> Option<u64>;
    /// Renewals are dropped while `failing` (the "make renewals fail" fault).
    fn set_renewals_failing(&mut self, failing: bool);
    /// A copy of the service's whole state, behind the trait (a fork of a run: see
    /// [`super::Prefix`]).
    fn boxed_clone(&self) -> Box<dyn LockService>;
}

impl Clone for Box<dyn LockService> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// Any service behind the trait (the whole kit's service: `sim::Whole`).
impl LockService for Box<dyn LockService> {
    fn on_message(&mut self, ctx: &mut Ctx, node: NodeId, from: NodeId, msg: &Msg) {
        (**self).on_message(ctx, node, from, msg)
    }
    fn on_timer(&mut self, ctx: &mut Ctx, node: NodeId, timer: &TimerKind) {
        (**self).on_timer(ctx, node, timer)
    }
    fn on_restart(&mut self, ctx: &mut Ctx, node: NodeId) {
        (**self).on_restart(ctx, node)
    }
    fn on_failover(&mut self, ctx: &mut Ctx, node: NodeId, down_ms: i64) {
        (**self).on_failover(ctx, node, down_ms)
    }
    fn invalidate(&mut self, ctx: &mut Ctx, node: NodeId, client: NodeId) {
        (**self).invalidate(ctx, node, client)
    }
    fn current_token(&self) -> Option<u64> {
        (**self).current_token()
    }
    fn set_renewals_failing(&mut self, failing: bool) {
        (**self).set_renewals_failing(failing)
    }
    fn boxed_clone(&self) -> Box<dyn LockService> {
        (**self).boxed_clone()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub client: NodeId,
    pub owner: u64,
    pub token: u64,
    pub epoch: u32,
    pub expires_local: i64,
    ttl_ms: i64,
    /// When the lease was last written (granted or renewed), on this node's clock.
    written_local: i64,
}

#[derive(Clone, Debug)]
struct Waiter {
    client: NodeId,
    owner: u64,
    req: u32,
    ttl_ms: i64,
    /// With revision tokens: the revision at which the waiter's key was created.
    token: Option<u64>,
}

/// `K`: the models the run is built with, whose [`Models::model`] the service reads its model
/// through.
#[derive(Clone)]
pub struct GenericCoordinator<K: Models> {
    kit: PhantomData<K>,
    spec: CoordinatorSpec,
    model: &'static Model,
    /// The last token (or revision) issued (`first_token - 1` before any).
    counter: u64,
    lease: Option<Lease>,
    queue: VecDeque<Waiter>,
    renewals_failing: bool,
    /// Simulator bookkeeping: grants ever made, across restarts (see `Msg`'s docs).
    pub(crate) grants: u32,
    /// Lock-delay: no grant before this local time.
    delay_until: Option<i64>,
}

impl<K: Models> GenericCoordinator<K> {
    pub fn new(spec: &CoordinatorSpec) -> GenericCoordinator<K> {
        GenericCoordinator {
            kit: PhantomData,
            spec: spec.clone(),
            model: spec.flavor.model(),
            counter: spec.first_token - 1,
            lease: None,
            queue: VecDeque::new(),
            renewals_failing: false,
            grants: 0,
            delay_until: None,
        }
    }

    /// The service's model, as the run's kit reads it ([`Models::model`]).
    fn model(&self) -> &'static Model {
        K::model(self.model)
    }

    pub fn lease(&self) -> Option<&Lease> {
        self.lease.as_ref()
    }

    fn waiters(&self) -> Waiters {
        self.model().waiters.unwrap_or(self.spec.waiters)
    }

    /// How long a lease of `ttl_ms` lasts on this server from now. Consul's moment is
    /// drawn unless the scenario pins it (`coordinator.invalidation`); a pinned moment
    /// draws nothing, and the random one makes the same draws a service without the
    /// setting would, so a scenario that does not pin it runs the same.
    fn lease_len(&self, ctx: &mut Ctx, ttl_ms: i64) -> i64 {
        if !self.model().lazy_expiry {
            return ttl_ms;
        }
        match self.spec.invalidation {
            Invalidation::Random => consul_invalidation_after(ctx.rng, ttl_ms),
            Invalidation::Earliest => ttl_ms,
            Invalidation::Latest => ttl_ms.saturating_mul(2),
        }
    }

    /// When a lease that runs out at `expires` is revoked (`flavors::Expiry`).
    fn revoked_at(&self, expires: i64) -> i64 {
        self.model().expiry.revoked_at(expires, self.spec.tick_ms)
    }

    /// A create or delete in a revisioned store takes the next revision.
    fn bump_revision(&mut self) -> Option<u64> {
        (self.model().tokens == Tokens::Revision).then(|| {
            self.counter += 1;
            self.counter
        })
    }

    /// Grants the lock to `w`, the requester, whether it waited in the queue or not.
    fn grant(&mut self, ctx: &mut Ctx, w: Waiter) {
        let token = w.token.unwrap_or_else(|| {
            self.counter += 1;
            self.counter
        });
        // Redis and Redlock: the grant carries nothing ordered.
        let token = if self.model().tokens == Tokens::None {
            0
        } else {
            token
        };
        self.grants += 1;
        let len = self.lease_len(ctx, w.ttl_ms);
        let lease = Lease {
            client: w.client,
            owner: w.owner,
            token,
            epoch: self.grants,
            expires_local: ctx.now.saturating_add(len),
            ttl_ms: w.ttl_ms,
            written_local: ctx.now,
        };
        ctx.note(Event::LeaseGranted {
            client: w.client,
            token: lease.token,
            epoch: lease.epoch,
            expires_local: lease.expires_local,
        });
        ctx.timer_at(
            self.revoked_at(lease.expires_local),
            TimerKind::Expire { epoch: lease.epoch },
        );
        ctx.send(
            w.client,
            Msg::Granted {
                req: w.req,
                token: lease.token,
                ttl_ms: w.ttl_ms,
                epoch: lease.epoch,
            },
        );
        self.lease = Some(lease);
    }

    /// The lock just became free: hand it to the first waiter, if any — unless a
    /// lock-delay holds it back (its timer calls again).
    fn grant_next(&mut self, ctx: &mut Ctx) {
        if self.delay_until.is_some() {
            return;
        }
        if let Some(w) = self.queue.pop_front() {
            self.grant(ctx, w);
        }
    }

    /// The holder failed (expired or invalidated, not released): drop the lease and hold
    /// the lock back for the lock-delay, if the flavor has one.
    fn holder_failed(&mut self, ctx: &mut Ctx) {
        self.lease = None;
        self.bump_revision();
        let delay = self
            .spec
            .lock_delay_ms
            .unwrap_or(self.model().lock_delay_ms);
        if delay > 0 {
            let until = ctx.now.saturating_add(delay);
            self.delay_until = Some(until);
            ctx.note(Event::LockDelayed { until_local: until });
            ctx.timer_at(until, TimerKind::LockDelayOver);
        }
        self.grant_next(ctx);
    }
}

impl<K: Models> LockService for GenericCoordinator<K> {
    fn on_message(&mut self, ctx: &mut Ctx, _node: NodeId, from: NodeId, msg: &Msg) {
        // A lease that ran out, waiting for the service's next look to be revoked, is
        // gone as far as its holder is concerned: a keepalive is refused, and an acquire
        // waits like anyone's (its key is still there).
        let scans = matches!(self.model().expiry, Expiry::Scan { .. });
        let gone = |l: &Lease, now: i64| scans && now >= l.expires_local;
        match *msg {
            Msg::Acquire { req, owner, ttl_ms } => match &mut self.lease {
                None if self.delay_until.is_none() => self.grant(
                    ctx,
                    Waiter {
                        client: from,
                        owner,
                        req,
                        ttl_ms,
                        token: None,
                    },
                ),
                // A retry from the holder itself (its first grant was late or lost): answer
                // again with the same token rather than queueing it behind itself.
                Some(l) if l.owner == owner && !gone(l, ctx.now) => {
                    let (token, epoch) = (l.token, l.epoch);
                    ctx.send(
                        from,
                        Msg::Granted {
                            req,
                            token,
                            ttl_ms,
                            epoch,
                        },
                    );
                }
                _ => match self.waiters() {
                    Waiters::Queue => {
                        self.queue.retain(|w| w.client != from);
                        let token = self.bump_revision();
                        self.queue.push_back(Waiter {
                            client: from,
                            owner,
                            req,
                            ttl_ms,
                            token,
                        });
                        ctx.note(Event::RequestQueued { client: from });
                        ctx.send(from, Msg::Queued { req });
                    }
                    Waiters::Retry => ctx.send(from, Msg::Busy { req }),
                },
            },
            Msg::Renew {
                req,
                owner,
                token,
                ttl_ms,
            } => {
                if self.renewals_failing {
                    ctx.note(Event::RenewalDropped { client: from });
                    return;
                }
                let len = self.lease_len(ctx, ttl_ms);
                match &mut self.lease {
                    Some(l) if l.owner == owner && !gone(l, ctx.now) => {
                        l.expires_local = ctx.now.saturating_add(len);
                        l.written_local = ctx.now;
                        let (token, exp, epoch) = (l.token, l.expires_local, l.epoch);
                        ctx.note(Event::LeaseRenewed {
                            client: from,
                            token,
                            expires_local: exp,
                        });
                        ctx.timer_at(self.revoked_at(exp), TimerKind::Expire { epoch });
                        ctx.send(from, Msg::Renewed { req, token, ttl_ms });
                    }
                    _ => {
                        ctx.note(Event::RenewalRefused {
                            client: from,
                            token,
                        });
                        ctx.send(from, Msg::RenewRefused { req, token });
                    }
                }
            }
            Msg::Release { owner } => match &self.lease {
                Some(l) if l.owner == owner => {
                    ctx.note(Event::LeaseReleased {
                        client: from,
                        token: l.token,
                    });
                    self.lease = None;
                    self.bump_revision();
                    ctx.send(from, Msg::Released { ok: true });
                    self.grant_next(ctx);
                }
                _ => {
                    // A waiter that gave up may release too: drop it from the queue.
                    self.queue.retain(|w| w.owner != owner);
                    ctx.note(Event::ReleaseRefused { client: from });
                    ctx.send(from, Msg::Released { ok: false });
                }
            },
            // Replies and storage traffic are not for the coordinator.
            _ => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, _node: NodeId, timer: &TimerKind) {
        match *timer {
            TimerKind::Expire { epoch } => {
                let due = matches!(&self.lease, Some(l) if l.epoch == epoch && ctx.now >= l.expires_local);
                if due {
                    if let Some(l) = &self.lease {
                        ctx.note(Event::LeaseExpired {
                            client: l.client,
                            token: l.token,
                            epoch: l.epoch,
                        });
                    }
                    self.holder_failed(ctx);
                }
            }
            TimerKind::LockDelayOver if self.delay_until.is_some_and(|u| ctx.now >= u) => {
                self.delay_until = None;
                if self.lease.is_none() {
                    self.grant_next(ctx);
                }
            }
            _ => {}
        }
    }

    fn on_restart(&mut self, ctx: &mut Ctx, _node: NodeId) {
        self.lease = None;
        self.queue.clear();
        self.renewals_failing = false;
        self.delay_until = None;
        let forgot = match self.spec.counter {
            // A revisioned store (ZooKeeper, etcd) persists its revision.
            Durability::Memory if self.model().tokens != Tokens::Revision => {
                self.counter = self.spec.first_token - 1;
                Forgot::LeasesAndCounter
            }
            _ => Forgot::Leases,
        };
        ctx.note(Event::Restarted { forgot });
    }

    fn on_failover(&mut self, ctx: &mut Ctx, _node: NodeId, down_ms: i64) {
        // The run loop cleared every timer: re-arm what survives.
        if let Some(until) = self.delay_until {
            ctx.timer_at(until, TimerKind::LockDelayOver);
        }
        let lag = self.spec.replica_lag_ms;
        let failover = self.model().failover;
        let extend = match failover {
            Failover::Extend { extra_ms } => Some(extra_ms),
            _ => None,
        };
        let len = match (&self.lease, extend) {
            (Some(l), Some(extra)) => Some(self.lease_len(ctx, l.ttl_ms).saturating_add(extra)),
            _ => None,
        };
        let Some(l) = self.lease.as_mut() else {
            ctx.note(Event::FailedOver { lost: None });
            self.grant_next(ctx);
            return;
        };
        let lost = failover == Failover::LoseRecent && ctx.now - down_ms - l.written_local < lag;
        ctx.note(Event::FailedOver {
            lost: lost.then_some(l.client),
        });
        if lost {
            self.lease = None;
            self.grant_next(ctx);
            return;
        }
        if let Some(len) = len {
            l.expires_local = ctx.now.saturating_add(len);
            ctx.note(Event::LeaseExtended {
                client: l.client,
                token: l.token,
                expires_local: l.expires_local,
            });
        }
        let (at, epoch) = (l.expires_local, l.epoch);
        ctx.timer_at(self.revoked_at(at), TimerKind::Expire { epoch });
    }

    fn invalidate(&mut self, ctx: &mut Ctx, _node: NodeId, client: NodeId) {
        // A session created with no health checks has no check a false positive could
        // turn critical: nothing happens, and nothing is noted.
        if !self.spec.health_checks {
            return;
        }
        self.queue.retain(|w| w.client != client);
        let token = self
            .lease
            .as_ref()
            .filter(|l| l.client == client)
            .map(|l| l.token);
        ctx.note(Event::SessionInvalidated { client, token });
        if token.is_some() {
            self.holder_failed(ctx);
        }
    }

    fn current_token(&self) -> Option<u64> {
        if self.model().tokens == Tokens::None {
            return None;
        }
        self.lease.as_ref().map(|l| l.token)
    }

    fn set_renewals_failing(&mut self, failing: bool) {
        self.renewals_failing = failing;
    }

    fn boxed_clone(&self) -> Box<dyn LockService> {
        Box::new(self.clone())
    }
}

/// Consul: when, after a grant or renewal, the servers invalidate a session of `ttl_ms`: the TTL is
/// a lower bound, the timer is armed at twice it, and the reaping lands somewhere between.
pub fn consul_invalidation_after(rng: &mut Rng, ttl_ms: i64) -> i64 {
    ttl_ms + rng.range_i64(0, ttl_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::node::Cmd;
    use crate::model::sim::rng::Rng;
    use crate::model::sim::Whole;

    fn spec(first: u64, counter: Durability, waiters: Waiters) -> CoordinatorSpec {
        CoordinatorSpec {
            first_token: first,
            counter,
            waiters,
            ..CoordinatorSpec::default()
        }
    }

    fn sent(ctx: &Ctx) -> Vec<(NodeId, Msg)> {
        ctx.out
            .iter()
            .filter_map(|c| match c {
                Cmd::Send { to, msg } => Some((*to, msg.clone())),
                _ => None,
            })
            .collect()
    }

    /// `from` asks for a 10 s lease as owner `owner`.
    fn acquire(c: &mut GenericCoordinator<Whole>, ctx: &mut Ctx, from: NodeId, owner: u64) {
        c.on_message(
            ctx,
            NodeId::COORD,
            from,
            &Msg::Acquire {
                req: 1,
                owner,
                ttl_ms: 10_000,
            },
        );
    }

    /// `from`, owner `owner`, renews token `token` for another 10 s.
    fn renew(
        c: &mut GenericCoordinator<Whole>,
        ctx: &mut Ctx,
        from: NodeId,
        owner: u64,
        token: u64,
    ) {
        let msg = Msg::Renew {
            req: 2,
            owner,
            token,
            ttl_ms: 10_000,
        };
        c.on_message(ctx, NodeId::COORD, from, &msg);
    }

    const C1: NodeId = NodeId::Client(0);
    const C2: NodeId = NodeId::Client(1);

    /// When the coordinator's expiry timers are set to fire, in order.
    fn expiry_timers(ctx: &Ctx) -> Vec<i64> {
        ctx.out
            .iter()
            .filter_map(|c| match c {
                Cmd::Timer {
                    at_local,
                    kind: TimerKind::Expire { .. },
                } => Some(*at_local),
                _ => None,
            })
            .collect()
    }

    fn ticking(flavor: crate::model::scenario::Flavor, tick_ms: i64) -> GenericCoordinator<Whole> {
        GenericCoordinator::new(&CoordinatorSpec {
            flavor,
            tick_ms,
            ..CoordinatorSpec::default()
        })
    }

    #[test]
    fn etcd_revokes_on_its_lessors_next_look_and_refuses_a_keepalive_meanwhile() {
        let mut rng = Rng::new(1);
        let mut c = ticking(crate::model::scenario::Flavor::Etcd, 0);
        // Granted at 1: the 10 s lease runs out at 10,001, the lessor looks at 10,500.
        let mut ctx = Ctx::new(1, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        assert_eq!(expiry_timers(&ctx), [10_500]);
        // A grant on a look is revoked on that look.
        let mut ctx = Ctx::new(500, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        assert_eq!(expiry_timers(&ctx), [10_500]);
        // In the gap the lease is gone for its holder: the keepalive is refused, and its
        // acquire waits behind the key that is still there.
        let mut ctx = Ctx::new(10_600, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        assert!(matches!(sent(&ctx)[..], [(C1, Msg::RenewRefused { .. })]));
        let mut ctx = Ctx::new(10_600, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        assert!(matches!(sent(&ctx)[..], [(C1, Msg::Queued { .. })]));
    }

    #[test]
    fn zookeeper_expires_on_the_tick_strictly_after_the_timeout_and_a_late_ping_keeps_it() {
        let mut rng = Rng::new(1);
        let mut c = ticking(crate::model::scenario::Flavor::Zookeeper, 100);
        let mut ctx = Ctx::new(1, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        assert_eq!(expiry_timers(&ctx), [10_100]);
        // A deadline on a tick waits for the next one.
        let mut ctx = Ctx::new(100, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        assert_eq!(expiry_timers(&ctx), [10_200]);
        // A ping after the timeout but before the tick still keeps the session.
        let mut ctx = Ctx::new(10_150, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        assert!(matches!(sent(&ctx)[..], [(C1, Msg::Renewed { .. })]));
        assert_eq!(expiry_timers(&ctx), [20_200]);
        // With no tick, at once.
        let mut c = ticking(crate::model::scenario::Flavor::Zookeeper, 0);
        let mut ctx = Ctx::new(1, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        assert_eq!(expiry_timers(&ctx), [10_001]);
    }

    #[test]
    fn grants_with_increasing_tokens_and_queues_waiters() {
        let mut rng = Rng::new(1);
        let mut c =
            GenericCoordinator::<Whole>::new(&spec(33, Durability::Durable, Waiters::Queue));
        let mut ctx = Ctx::new(0, &mut rng);
        c.on_message(
            &mut ctx,
            NodeId::COORD,
            C1,
            &Msg::Acquire {
                req: 1,
                owner: 7,
                ttl_ms: 30_000,
            },
        );
        c.on_message(
            &mut ctx,
            NodeId::COORD,
            C2,
            &Msg::Acquire {
                req: 1,
                owner: 8,
                ttl_ms: 30_000,
            },
        );
        let s = sent(&ctx);
        assert_eq!(
            s[0],
            (
                C1,
                Msg::Granted {
                    req: 1,
                    token: 33,
                    ttl_ms: 30_000,
                    epoch: 1
                }
            )
        );
        assert_eq!(s[1], (C2, Msg::Queued { req: 1 }));
        // Expiry on the coordinator's clock hands the lock to the waiter with token 34.
        let mut ctx = Ctx::new(30_000, &mut rng);
        c.on_timer(&mut ctx, NodeId::COORD, &TimerKind::Expire { epoch: 1 });
        assert_eq!(
            sent(&ctx)[0],
            (
                C2,
                Msg::Granted {
                    req: 1,
                    token: 34,
                    ttl_ms: 30_000,
                    epoch: 2
                }
            )
        );
        assert_eq!(c.current_token(), Some(34));
    }

    #[test]
    fn a_renewed_lease_ignores_the_old_expiry_timer() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::<Whole>::new(&spec(1, Durability::Durable, Waiters::Retry));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        let mut ctx = Ctx::new(5_000, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        let mut ctx = Ctx::new(10_000, &mut rng);
        c.on_timer(&mut ctx, NodeId::COORD, &TimerKind::Expire { epoch: 1 });
        assert_eq!(c.current_token(), Some(1), "renewed until 15 s");
        let mut ctx = Ctx::new(15_000, &mut rng);
        c.on_timer(&mut ctx, NodeId::COORD, &TimerKind::Expire { epoch: 1 });
        assert_eq!(c.current_token(), None);
    }

    #[test]
    fn only_the_owner_releases_and_busy_in_retry_mode() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::<Whole>::new(&spec(1, Durability::Durable, Waiters::Retry));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        acquire(&mut c, &mut ctx, C2, 8);
        c.on_message(&mut ctx, NodeId::COORD, C2, &Msg::Release { owner: 8 });
        assert_eq!(c.current_token(), Some(1));
        c.on_message(&mut ctx, NodeId::COORD, C1, &Msg::Release { owner: 7 });
        assert_eq!(c.current_token(), None);
        let s = sent(&ctx);
        assert_eq!(s[1], (C2, Msg::Busy { req: 1 }));
        assert_eq!(s[2], (C2, Msg::Released { ok: false }));
        assert_eq!(s[3], (C1, Msg::Released { ok: true }));
    }

    #[test]
    fn in_memory_counter_repeats_tokens_after_restart() {
        for (durability, second) in [(Durability::Durable, 2), (Durability::Memory, 1)] {
            let mut rng = Rng::new(1);
            let mut c = GenericCoordinator::<Whole>::new(&spec(1, durability, Waiters::Queue));
            let mut ctx = Ctx::new(0, &mut rng);
            acquire(&mut c, &mut ctx, C1, 7);
            c.on_restart(&mut ctx, NodeId::COORD);
            assert_eq!(c.current_token(), None);
            acquire(&mut c, &mut ctx, C2, 8);
            assert_eq!(c.current_token(), Some(second));
        }
    }

    #[test]
    fn failing_renewals_are_dropped_silently() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::<Whole>::new(&spec(1, Durability::Durable, Waiters::Queue));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        c.set_renewals_failing(true);
        let mut ctx = Ctx::new(1, &mut rng);
        renew(&mut c, &mut ctx, C1, 7, 1);
        assert!(sent(&ctx).is_empty());
    }

    fn flavored(
        flavor: crate::model::scenario::Flavor,
        lock_delay_ms: Option<i64>,
    ) -> GenericCoordinator<Whole> {
        GenericCoordinator::new(&CoordinatorSpec {
            flavor,
            lock_delay_ms,
            ..CoordinatorSpec::default()
        })
    }

    fn granted_tokens(ctx: &Ctx) -> Vec<(NodeId, u64)> {
        sent(ctx)
            .into_iter()
            .filter_map(|(to, m)| match m {
                Msg::Granted { token, .. } => Some((to, token)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn revision_tokens_are_fixed_when_the_waiter_queues() {
        use crate::model::scenario::Flavor;
        let mut rng = Rng::new(1);
        let mut c = flavored(Flavor::Zookeeper, None);
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7); // create: zxid 1, held
        acquire(&mut c, &mut ctx, C2, 8); // create: zxid 2, queued
        c.on_message(&mut ctx, NodeId::COORD, C1, &Msg::Release { owner: 7 }); // delete: 3
        assert_eq!(granted_tokens(&ctx), [(C1, 1), (C2, 2)]);
        // The next create takes zxid 4, not 3.
        c.on_message(&mut ctx, NodeId::COORD, C2, &Msg::Release { owner: 8 });
        acquire(&mut c, &mut ctx, C1, 9);
        assert_eq!(c.current_token(), Some(5));
        // Redis: no token at all, and storage is told there is none current.
        let mut r = flavored(Flavor::Redis, None);
        acquire(&mut r, &mut ctx, C1, 7);
        assert_eq!(r.current_token(), None);
        assert_eq!(r.lease().map(|l| l.token), Some(0));
    }

    #[test]
    fn lock_delay_holds_the_lock_after_a_failure_but_not_a_release() {
        use crate::model::scenario::Flavor;
        let mut rng = Rng::new(1);
        let mut c = flavored(Flavor::Chubby, Some(5_000));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        acquire(&mut c, &mut ctx, C2, 8);
        // The holder fails: its lease expires at 10 s; nobody gets the lock until 15 s.
        let mut ctx = Ctx::new(10_000, &mut rng);
        c.on_timer(&mut ctx, NodeId::COORD, &TimerKind::Expire { epoch: 1 });
        assert!(granted_tokens(&ctx).is_empty());
        assert_eq!(c.current_token(), None);
        let mut ctx = Ctx::new(15_000, &mut rng);
        c.on_timer(&mut ctx, NodeId::COORD, &TimerKind::LockDelayOver);
        assert_eq!(granted_tokens(&ctx), [(C2, 2)]);
        // A clean release hands over at once.
        c.on_message(&mut ctx, NodeId::COORD, C2, &Msg::Release { owner: 8 });
        acquire(&mut c, &mut ctx, C1, 9);
        assert_eq!(c.current_token(), Some(3));
    }
}
