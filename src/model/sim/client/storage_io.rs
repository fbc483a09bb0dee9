//! What a client sends storage: its reads, its writes and conditional updates with the
//! token (or owner id) they carry, a side effect's request, and what it does when an
//! update finds the key changed since its read.

use super::*;

impl<K: Models> Client<K> {
    pub(super) fn send_read(&mut self, ctx: &mut Ctx, spec: &ClientSpec, req: u32) {
        let Some(Step::Read { key }) = spec.job.get(self.pc) else {
            return;
        };
        self.gen += 1;
        self.phase = Phase::Reading { req };
        let key = key.as_str().into();
        ctx.send(NodeId::Storage, Msg::Read { req, key });
        ctx.timer_in(spec.timeout_ms, TimerKind::RequestTimeout { gen: self.gen });
    }

    pub(super) fn send_write(&mut self, ctx: &mut Ctx, spec: &ClientSpec, req: u32) {
        let (token, epoch) = match self.creds {
            Some(c) => (self.fence_value(spec, c), Some(c.epoch)),
            None => (None, None),
        };
        let msg = match spec.job.get(self.pc) {
            Some(Step::Write { key, value }) => Msg::Write {
                req,
                // Shared from here on: the trace, the queue and storage copy only the
                // pointer.
                key: key.as_str().into(),
                value: value.as_str().into(),
                token,
                epoch,
            },
            Some(Step::Update {
                key,
                value,
                if_unchanged,
            }) => {
                // What the last read of the key returned, with this client's entry added.
                let (old, version) = match &self.seen {
                    Some(s) if *s.key == **key => (s.value.clone(), s.version),
                    _ => (Text::from(""), 0),
                };
                let value: Text = if old.is_empty() {
                    value.as_str().into()
                } else {
                    format!("{old}, {value}").into()
                };
                let key: Text = key.as_str().into();
                if *if_unchanged {
                    Msg::WriteIf {
                        req,
                        key,
                        value,
                        token,
                        epoch,
                        version,
                    }
                } else {
                    Msg::Write {
                        req,
                        key,
                        value,
                        token,
                        epoch,
                    }
                }
            }
            _ => return,
        };
        self.gen += 1;
        self.phase = Phase::Writing { req };
        ctx.send(NodeId::Storage, msg);
        ctx.timer_in(spec.timeout_ms, TimerKind::RequestTimeout { gen: self.gen });
    }

    /// Storage refused a conditional write: the key changed since the read. Not a loss of
    /// the lock (there may be none): go back to the last read of the key and redo the
    /// update on what is there now, until the retry settings say stop.
    pub(super) fn on_version_changed(&mut self, ctx: &mut Ctx, spec: &ClientSpec) {
        self.conflicts += 1;
        let key = match spec.job.get(self.pc) {
            Some(Step::Update { key, .. }) => key,
            _ => return,
        };
        let read = spec.job[..self.pc]
            .iter()
            .rposition(|s| matches!(s, Step::Read { key: k } if k == key));
        let limit = spec.retry.max_attempts;
        match read {
            Some(i) if limit == 0 || self.conflicts < limit => {
                self.pc = i;
                self.gen += 1;
                self.run_steps(ctx, spec);
            }
            _ => {
                ctx.note(Event::GaveUp);
                let times = self.conflicts;
                self.abort(ctx, AbortWhy::VersionConflicts { times });
            }
        }
    }

    pub(super) fn send_effect(&mut self, ctx: &mut Ctx, spec: &ClientSpec, req: u32) {
        let Some(Step::Effect {
            name,
            idempotency_key,
        }) = spec.job.get(self.pc)
        else {
            return;
        };
        self.gen += 1;
        self.phase = Phase::Effecting { req };
        let msg = Msg::Effect {
            req,
            name: name.as_str().into(),
            idempotency_key: idempotency_key.as_deref().map(Text::from),
            token: self.creds.and_then(|c| self.fence_value(spec, c)),
        };
        ctx.send(NodeId::Storage, msg);
        ctx.timer_in(spec.timeout_ms, TimerKind::RequestTimeout { gen: self.gen });
    }

    /// What this client's writes carry as a fence: the token, or (the mistake) its owner id,
    /// kept within 2^53 like every token. Nothing when the service issues no token.
    pub(super) fn fence_value(&self, spec: &ClientSpec, c: Creds) -> Option<u64> {
        match spec.fence_with {
            FenceWith::Token if self.model().tokens == Tokens::None => None,
            FenceWith::Token => Some(c.token),
            FenceWith::OwnerId => Some(c.owner & ((1 << 53) - 1)),
        }
    }
}
