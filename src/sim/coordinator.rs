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
//! Later flavors (Redlock's masters, a ZooKeeper ensemble) implement [`LockService`]
//! with their own semantics; the run loop talks only to the trait.

use super::node::{Ctx, Msg, NodeId, TimerKind};
use crate::scenario::{CoordinatorSpec, Durability, Waiters};
use crate::trace::{Event, Forgot};
use std::collections::VecDeque;

/// What the run loop needs from any coordinator.
pub trait LockService {
    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg);
    fn on_timer(&mut self, ctx: &mut Ctx, timer: &TimerKind);
    /// The node crashed and comes back: lose what is not durable.
    fn on_restart(&mut self, ctx: &mut Ctx);
    /// The token of the lease in force now, if any (read by exact-match storage).
    fn current_token(&self) -> Option<u64>;
    /// Renewals are dropped while `failing` (the "make renewals fail" fault).
    fn set_renewals_failing(&mut self, failing: bool);
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub client: NodeId,
    pub owner: u64,
    pub token: u64,
    pub epoch: u32,
    pub expires_local: i64,
}

#[derive(Clone, Debug)]
struct Waiter {
    client: NodeId,
    owner: u64,
    req: u32,
    ttl_ms: i64,
}

pub struct GenericCoordinator {
    spec: CoordinatorSpec,
    /// The last token issued (`first_token - 1` before any grant).
    counter: u64,
    lease: Option<Lease>,
    queue: VecDeque<Waiter>,
    renewals_failing: bool,
    /// Simulator bookkeeping: grants ever made, across restarts (see `Msg`'s docs).
    grants: u32,
}

impl GenericCoordinator {
    pub fn new(spec: &CoordinatorSpec) -> GenericCoordinator {
        GenericCoordinator {
            spec: spec.clone(),
            counter: spec.first_token - 1,
            lease: None,
            queue: VecDeque::new(),
            renewals_failing: false,
            grants: 0,
        }
    }

    pub fn lease(&self) -> Option<&Lease> {
        self.lease.as_ref()
    }

    fn grant(&mut self, ctx: &mut Ctx, client: NodeId, owner: u64, req: u32, ttl_ms: i64) {
        self.counter += 1;
        self.grants += 1;
        let lease = Lease {
            client,
            owner,
            token: self.counter,
            epoch: self.grants,
            expires_local: ctx.now.saturating_add(ttl_ms),
        };
        ctx.note(Event::LeaseGranted {
            client,
            token: lease.token,
            epoch: lease.epoch,
            expires_local: lease.expires_local,
        });
        ctx.timer_at(
            lease.expires_local,
            TimerKind::Expire { epoch: lease.epoch },
        );
        ctx.send(
            client,
            Msg::Granted {
                req,
                token: lease.token,
                ttl_ms,
                epoch: lease.epoch,
            },
        );
        self.lease = Some(lease);
    }

    /// The lock just became free: hand it to the first waiter, if any.
    fn grant_next(&mut self, ctx: &mut Ctx) {
        if let Some(w) = self.queue.pop_front() {
            self.grant(ctx, w.client, w.owner, w.req, w.ttl_ms);
        }
    }
}

impl LockService for GenericCoordinator {
    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) {
        match *msg {
            Msg::Acquire { req, owner, ttl_ms } => match &mut self.lease {
                None => self.grant(ctx, from, owner, req, ttl_ms),
                // A retry from the holder itself (its first grant was late or lost): answer
                // again with the same token rather than queueing it behind itself.
                Some(l) if l.owner == owner => {
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
                Some(_) => match self.spec.waiters {
                    Waiters::Queue => {
                        self.queue.retain(|w| w.client != from);
                        self.queue.push_back(Waiter {
                            client: from,
                            owner,
                            req,
                            ttl_ms,
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
                match &mut self.lease {
                    Some(l) if l.owner == owner => {
                        l.expires_local = ctx.now.saturating_add(ttl_ms);
                        let (token, exp, epoch) = (l.token, l.expires_local, l.epoch);
                        ctx.note(Event::LeaseRenewed {
                            client: from,
                            token,
                            expires_local: exp,
                        });
                        ctx.timer_at(exp, TimerKind::Expire { epoch });
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

    fn on_timer(&mut self, ctx: &mut Ctx, timer: &TimerKind) {
        if let TimerKind::Expire { epoch } = *timer {
            let due =
                matches!(&self.lease, Some(l) if l.epoch == epoch && ctx.now >= l.expires_local);
            if due {
                if let Some(l) = self.lease.take() {
                    ctx.note(Event::LeaseExpired {
                        client: l.client,
                        token: l.token,
                        epoch: l.epoch,
                    });
                }
                self.grant_next(ctx);
            }
        }
    }

    fn on_restart(&mut self, ctx: &mut Ctx) {
        self.lease = None;
        self.queue.clear();
        self.renewals_failing = false;
        let forgot = match self.spec.counter {
            Durability::Durable => Forgot::Leases,
            Durability::Memory => {
                self.counter = self.spec.first_token - 1;
                Forgot::LeasesAndCounter
            }
        };
        ctx.note(Event::Restarted { forgot });
    }

    fn current_token(&self) -> Option<u64> {
        self.lease.as_ref().map(|l| l.token)
    }

    fn set_renewals_failing(&mut self, failing: bool) {
        self.renewals_failing = failing;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::node::Cmd;
    use crate::sim::rng::Rng;

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
    fn acquire(c: &mut GenericCoordinator, ctx: &mut Ctx, from: NodeId, owner: u64) {
        c.on_message(
            ctx,
            from,
            &Msg::Acquire {
                req: 1,
                owner,
                ttl_ms: 10_000,
            },
        );
    }

    const C1: NodeId = NodeId::Client(0);
    const C2: NodeId = NodeId::Client(1);

    #[test]
    fn grants_with_increasing_tokens_and_queues_waiters() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::new(&spec(33, Durability::Durable, Waiters::Queue));
        let mut ctx = Ctx::new(0, &mut rng);
        c.on_message(
            &mut ctx,
            C1,
            &Msg::Acquire {
                req: 1,
                owner: 7,
                ttl_ms: 30_000,
            },
        );
        c.on_message(
            &mut ctx,
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
        c.on_timer(&mut ctx, &TimerKind::Expire { epoch: 1 });
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
        let mut c = GenericCoordinator::new(&spec(1, Durability::Durable, Waiters::Retry));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        let mut ctx = Ctx::new(5_000, &mut rng);
        c.on_message(
            &mut ctx,
            C1,
            &Msg::Renew {
                req: 2,
                owner: 7,
                token: 1,
                ttl_ms: 10_000,
            },
        );
        let mut ctx = Ctx::new(10_000, &mut rng);
        c.on_timer(&mut ctx, &TimerKind::Expire { epoch: 1 });
        assert_eq!(c.current_token(), Some(1), "renewed until 15 s");
        let mut ctx = Ctx::new(15_000, &mut rng);
        c.on_timer(&mut ctx, &TimerKind::Expire { epoch: 1 });
        assert_eq!(c.current_token(), None);
    }

    #[test]
    fn only_the_owner_releases_and_busy_in_retry_mode() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::new(&spec(1, Durability::Durable, Waiters::Retry));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        acquire(&mut c, &mut ctx, C2, 8);
        c.on_message(&mut ctx, C2, &Msg::Release { owner: 8 });
        assert_eq!(c.current_token(), Some(1));
        c.on_message(&mut ctx, C1, &Msg::Release { owner: 7 });
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
            let mut c = GenericCoordinator::new(&spec(1, durability, Waiters::Queue));
            let mut ctx = Ctx::new(0, &mut rng);
            c.on_message(
                &mut ctx,
                C1,
                &Msg::Acquire {
                    req: 1,
                    owner: 7,
                    ttl_ms: 10_000,
                },
            );
            c.on_restart(&mut ctx);
            assert_eq!(c.current_token(), None);
            c.on_message(
                &mut ctx,
                C2,
                &Msg::Acquire {
                    req: 1,
                    owner: 8,
                    ttl_ms: 10_000,
                },
            );
            assert_eq!(c.current_token(), Some(second));
        }
    }

    #[test]
    fn failing_renewals_are_dropped_silently() {
        let mut rng = Rng::new(1);
        let mut c = GenericCoordinator::new(&spec(1, Durability::Durable, Waiters::Queue));
        let mut ctx = Ctx::new(0, &mut rng);
        acquire(&mut c, &mut ctx, C1, 7);
        c.set_renewals_failing(true);
        let mut ctx = Ctx::new(1, &mut rng);
        c.on_message(
            &mut ctx,
            C1,
            &Msg::Renew {
                req: 2,
                owner: 7,
                token: 1,
                ttl_ms: 10_000,
            },
        );
        assert!(sent(&ctx).is_empty());
    }
}
