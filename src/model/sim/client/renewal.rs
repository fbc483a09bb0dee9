//! The renewal watchdog: each tick on the client's own clock, whether its lease still
//! stands by that clock, and the renewal it sends.

use super::*;

impl<K: Models> Client<K> {
    pub(super) fn on_renew_tick(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        let (Some(b), Some(c), Some(every)) = (self.belief, self.creds, self.renew_every(spec))
        else {
            return;
        };
        match self.model().on_expiry {
            // ZooKeeper's client: silence for two thirds of the session timeout makes it
            // Disconnected (Curator's SUSPENDED); it has no lease of its own to expire.
            OnExpiry::Disconnect
                if !self.disconnected && ctx.now - self.last_heard >= spec.ttl_ms * 2 / 3 =>
            {
                self.disconnected = true;
                self.disconnected_at = ctx.now;
                ctx.note(Event::Disconnected);
                if self.stop_on_disconnect {
                    self.lose_async(ctx, spec, LossHow::Suspended);
                    return;
                }
            }
            // Curator: once SUSPENDED has lasted the session timeout, it reports LOST
            // (its simulated session expiration). That ends the belief — and, like every
            // loss, does only what the job's loss policy says: the lock recipe itself
            // interrupts nothing.
            OnExpiry::Disconnect
                if self.disconnected && ctx.now - self.disconnected_at >= spec.ttl_ms =>
            {
                self.lose_async(ctx, spec, LossHow::Lost);
                return;
            }
            OnExpiry::Disconnect => {}
            OnExpiry::Jeopardy if ctx.now >= b.deadline && !self.jeopardy => {
                self.jeopardy = true;
                let deadline = b.deadline.saturating_add(self.grace_ms);
                self.belief = Some(Belief { deadline, ..b });
                ctx.note(Event::Jeopardy {
                    grace_ms: self.grace_ms,
                    deadline_local: deadline,
                });
            }
            _ if ctx.now >= b.deadline => {
                self.lose_async(ctx, spec, LossHow::WatchdogExpired);
                return;
            }
            _ => {}
        }
        self.send_renew(ctx, spec, c);
        ctx.timer_in(
            every,
            TimerKind::RenewTick {
                gen: self.renew_gen,
            },
        );
    }

    /// One renewal of the lease `c` names, from the watchdog or a `renew` step; its send
    /// time is where a lease counted from the request starts again.
    pub(super) fn send_renew(&mut self, ctx: &mut Ctx, spec: &ClientSpec, c: Creds) {
        let req = self.req();
        self.renew_sent = (req, ctx.now);
        ctx.send(
            NodeId::COORD,
            Msg::Renew {
                req,
                owner: c.owner,
                token: c.token,
                ttl_ms: spec.ttl_ms,
            },
        );
    }
}
