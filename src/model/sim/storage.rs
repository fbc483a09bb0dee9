//! The protected resource: keys with values, a fence, and unfenceable side effects.
//!
//! This is where safety is decided. The lock service can only say who *should* write;
//! storage decides whose write *lands*. Fence modes, from none to the right one:
//!
//! - `none`: every write lands — the lock is advisory and the resource trusts it.
//! - `monotone`: remember the highest token accepted per key and reject a lower one; the
//!   comparison and the write are one atomic step (Kleppmann 2016's fencing; the seeds'
//!   `UPDATE … WHERE fence_token <= ?`).
//! - `strict`: reject a token lower than *or equal to* the mark (one write per epoch).
//! - `exact`: accept only the lock's current token. This models a resource that lives in
//!   the same store as the lock (an etcd transaction comparing the lock key's revision),
//!   so storage reads the coordinator's state atomically; it is the only mode that also
//!   refuses a holder whose lease expired before anyone else took it.
//! - `non_atomic`: read the mark, compare, and write `check_gap_ms` later, setting the mark
//!   to this write's token. A second write can pass its check in the gap, and a lower
//!   token can even pull the mark back down: the race the seeds warn about.
//!
//! The mark is kept per key unless `mark_per` is `resource`: then every key of one of
//! `resources` (what the lock protects) shares its resource's mark. Per key, a stale token
//! passes on a key of the resource that the newest holder has not written yet.
//!
//! The mark may be `memory`-only: a storage restart then forgets it and a stale token
//! passes again. Values themselves are durable.
//!
//! Every key also has a version: how many writes storage has accepted for it. A `read`
//! answers with the value and the version, and a conditional write (`WriteIf`) applies
//! only if the key is still at the version its writer read — a compare-and-set, one
//! atomic step, like a conditional PUT or `UPDATE … WHERE version = $v`; otherwise it is
//! refused (`VersionChanged`). It checks the fence too, when there is one, and never waits
//! out `check_gap_ms`: the comparison and the write are one step.
//!
//! Effects ("send email") cannot be fenced; with `idempotency` on, an effect carrying an
//! idempotency key runs at most once per key.

use super::node::{Ctx, TimerKind};
use crate::model::msg::{Msg, RejectReason, Text};
use crate::model::scenario::{Durability, FenceMode, MarkScope, StorageSpec};
use crate::model::trace::{Event, Forgot};
use crate::vocab::ids::NodeId;
use crate::vocab::vecmap::{VecMap, VecSet};

/// What a key holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub value: Text,
    pub token: Option<u64>,
    pub epoch: Option<u32>,
    pub writer: NodeId,
}

#[derive(Clone, Debug)]
struct Pending {
    from: NodeId,
    req: u32,
    key: Text,
    value: Text,
    token: Option<u64>,
    epoch: Option<u32>,
}

#[derive(Clone)]
pub struct Storage {
    spec: StorageSpec,
    cells: VecMap<Text, Cell>,
    marks: VecMap<Text, u64>,
    pending: VecMap<u32, Pending>,
    next_pending: u32,
    used_keys: VecSet<Text>,
    /// Per key, how many writes have been accepted: durable, like the values.
    versions: VecMap<Text, u64>,
}

impl Storage {
    pub fn new(spec: &StorageSpec) -> Storage {
        Storage {
            spec: spec.clone(),
            cells: VecMap::new(),
            marks: VecMap::new(),
            pending: VecMap::new(),
            next_pending: 0,
            used_keys: VecSet::new(),
            versions: VecMap::new(),
        }
    }

    pub fn version(&self, key: &str) -> u64 {
        self.versions.get(key).copied().unwrap_or(0)
    }

    pub fn cell(&self, key: &str) -> Option<&Cell> {
        self.cells.get(key)
    }

    /// `current` is the lock's current token, consulted only by the `exact` mode.
    pub fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg, current: Option<u64>) {
        match msg {
            Msg::Write {
                req,
                key,
                value,
                token,
                epoch,
            } => {
                let (mark, verdict) = self.fence(key, *token, current);
                if let Err(reason) = verdict {
                    return refuse(ctx, from, *req, key, *token, reason);
                }
                let p = Pending {
                    from,
                    req: *req,
                    key: key.clone(),
                    value: value.clone(),
                    token: *token,
                    epoch: *epoch,
                };
                if self.spec.fence == FenceMode::NonAtomic && self.spec.check_gap_ms > 0 {
                    ctx.note(Event::FenceChecked {
                        client: from,
                        key: key.clone(),
                        token: *token,
                        mark,
                    });
                    let id = self.next_pending;
                    self.next_pending += 1;
                    self.pending.insert(id, p);
                    ctx.timer_in(self.spec.check_gap_ms, TimerKind::ApplyWrite { id });
                } else {
                    self.apply(ctx, p);
                }
            }
            Msg::Read { req, key } => {
                let version = self.version(key);
                ctx.note(Event::ReadServed {
                    client: from,
                    key: key.clone(),
                    version,
                });
                let value = self
                    .cells
                    .get(key)
                    .map_or_else(|| "".into(), |c| c.value.clone());
                ctx.send(
                    from,
                    Msg::ReadReply {
                        req: *req,
                        value,
                        version,
                    },
                );
            }
            Msg::WriteIf {
                req,
                key,
                value,
                token,
                epoch,
                version,
            } => {
                let now = self.version(key);
                let verdict = if now != *version {
                    Err(RejectReason::VersionChanged {
                        read: *version,
                        now,
                    })
                } else {
                    self.fence(key, *token, current).1
                };
                if let Err(reason) = verdict {
                    return refuse(ctx, from, *req, key, *token, reason);
                }
                let p = Pending {
                    from,
                    req: *req,
                    key: key.clone(),
                    value: value.clone(),
                    token: *token,
                    epoch: *epoch,
                };
                self.apply(ctx, p);
            }
            Msg::Effect {
                req,
                name,
                idempotency_key,
                ..
            } => {
                let duplicate = match idempotency_key {
                    Some(k) if self.spec.idempotency => !self.used_keys.insert(k.clone()),
                    _ => false,
                };
                if duplicate {
                    ctx.note(Event::EffectDeduplicated {
                        client: from,
                        name: name.clone(),
                    });
                } else {
                    ctx.note(Event::EffectPerformed {
                        client: from,
                        name: name.clone(),
                    });
                }
                ctx.send(
                    from,
                    Msg::EffectDone {
                        req: *req,
                        duplicate,
                    },
                );
            }
            _ => {}
        }
    }

    /// The fence's judgement of a write of `token` to `key`, and the mark it compared with.
    /// A key written through a path that ignores the token is not checked.
    fn fence(
        &self,
        key: &Text,
        token: Option<u64>,
        current: Option<u64>,
    ) -> (Option<u64>, Result<(), RejectReason>) {
        let mark = self.marks.get(&*self.mark_key(key)).copied();
        if self.spec.unfenced_keys.iter().any(|k| **k == **key) {
            return (mark, Ok(()));
        }
        (mark, self.check(token, mark, current))
    }

    fn check(
        &self,
        token: Option<u64>,
        mark: Option<u64>,
        current: Option<u64>,
    ) -> Result<(), RejectReason> {
        let fenced = self.spec.fence != FenceMode::None;
        let token = match token {
            None if fenced => return Err(RejectReason::NoToken),
            None => return Ok(()),
            Some(t) => t,
        };
        match (self.spec.fence, mark) {
            (FenceMode::None, _) => Ok(()),
            (FenceMode::Exact, _) => {
                if current == Some(token) {
                    Ok(())
                } else {
                    Err(RejectReason::NotCurrent { token, current })
                }
            }
            (FenceMode::Strict, Some(m)) if token <= m => {
                Err(RejectReason::NotAbove { token, mark: m })
            }
            (FenceMode::Monotone | FenceMode::NonAtomic, Some(m)) if token < m => {
                Err(RejectReason::Lower { token, mark: m })
            }
            _ => Ok(()),
        }
    }

    /// The name the fence's mark is kept under for a write to `key`: the key itself, or,
    /// with `mark_per: resource`, the resource the key belongs to — one mark for all of
    /// what the lock protects.
    fn mark_key(&self, key: &Text) -> Text {
        if self.spec.mark_per == MarkScope::Resource {
            let of = self
                .spec
                .resources
                .iter()
                .find(|r| r.keys.iter().any(|k| **k == **key));
            if let Some(r) = of {
                return r.name.as_str().into();
            }
        }
        key.clone()
    }

    fn apply(&mut self, ctx: &mut Ctx, p: Pending) {
        let replaced_epoch = self.cells.get(&p.key).and_then(|c| c.epoch);
        let at = self.mark_key(&p.key);
        let mark = match (self.spec.fence, p.token) {
            (FenceMode::None, _) | (_, None) => self.marks.get(&at).copied(),
            // The non-atomic path writes the mark it computed before the gap: it can move
            // the mark backwards.
            (FenceMode::NonAtomic, Some(t)) => {
                self.marks.insert(at, t);
                Some(t)
            }
            (_, Some(t)) => {
                let m = self.marks.get_or_insert_with(at, || t);
                *m = (*m).max(t);
                Some(*m)
            }
        };
        ctx.note(Event::WriteAccepted {
            client: p.from,
            key: p.key.clone(),
            value: p.value.clone(),
            token: p.token,
            epoch: p.epoch,
            replaced_epoch,
            mark,
        });
        *self.versions.get_or_insert_with(p.key.clone(), || 0) += 1;
        self.cells.insert(
            p.key,
            Cell {
                value: p.value,
                token: p.token,
                epoch: p.epoch,
                writer: p.from,
            },
        );
        ctx.send(p.from, Msg::WriteAck { req: p.req });
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, timer: &TimerKind) {
        if let TimerKind::ApplyWrite { id } = *timer {
            if let Some(p) = self.pending.remove(&id) {
                self.apply(ctx, p);
            }
        }
    }

    pub fn on_restart(&mut self, ctx: &mut Ctx) {
        // Writes between check and apply die with the process; their clients time out.
        self.pending.clear();
        let forgot = match self.spec.mark {
            Durability::Durable => Forgot::Nothing,
            Durability::Memory => {
                self.marks.clear();
                Forgot::Mark
            }
        };
        ctx.note(Event::Restarted { forgot });
    }
}

/// Refuses a write: the trace says so, and the writer hears why.
fn refuse(
    ctx: &mut Ctx,
    from: NodeId,
    req: u32,
    key: &Text,
    token: Option<u64>,
    reason: RejectReason,
) {
    ctx.note(Event::WriteRejected {
        client: from,
        key: key.clone(),
        token,
        reason: reason.clone(),
    });
    ctx.send(from, Msg::WriteRejected { req, reason });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::node::Cmd;
    use crate::model::sim::rng::Rng;

    const C1: NodeId = NodeId::Client(0);
    const C2: NodeId = NodeId::Client(1);

    fn storage(fence: FenceMode, mark: Durability) -> Storage {
        Storage::new(&StorageSpec {
            fence,
            mark,
            check_gap_ms: 10,
            ..StorageSpec::default()
        })
    }

    fn write(token: u64, req: u32) -> Msg {
        Msg::Write {
            req,
            key: "x".into(),
            value: format!("v{token}").into(),
            token: Some(token),
            epoch: Some(token as u32),
        }
    }

    /// Feeds writes in order and returns which were accepted.
    fn outcome(s: &mut Storage, tokens: &[u64]) -> Vec<bool> {
        let mut rng = Rng::new(0);
        tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut ctx = Ctx::new(0, &mut rng);
                s.on_message(&mut ctx, C1, &write(*t, i as u32), Some(34));
                ctx.out.iter().any(|c| {
                    matches!(
                        c,
                        Cmd::Send {
                            msg: Msg::WriteAck { .. },
                            ..
                        }
                    )
                })
            })
            .collect()
    }

    #[test]
    fn each_fence_mode_decides_as_documented() {
        assert_eq!(
            outcome(
                &mut storage(FenceMode::None, Durability::Durable),
                &[34, 33]
            ),
            [true, true]
        );
        assert_eq!(
            outcome(
                &mut storage(FenceMode::Monotone, Durability::Durable),
                &[34, 33, 34]
            ),
            [true, false, true]
        );
        assert_eq!(
            outcome(
                &mut storage(FenceMode::Strict, Durability::Durable),
                &[34, 33, 34, 35]
            ),
            [true, false, false, true]
        );
        assert_eq!(
            outcome(
                &mut storage(FenceMode::Exact, Durability::Durable),
                &[33, 34, 35]
            ),
            [false, true, false]
        );
    }

    #[test]
    fn rejection_reason_names_both_tokens() {
        let mut s = storage(FenceMode::Monotone, Durability::Durable);
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(0, &mut rng);
        s.on_message(&mut ctx, C2, &write(34, 1), None);
        s.on_message(&mut ctx, C1, &write(33, 2), None);
        let reason = ctx.out.iter().find_map(|c| match c {
            Cmd::Send {
                msg: Msg::WriteRejected { reason, .. },
                ..
            } => Some(reason.to_string()),
            _ => None,
        });
        assert_eq!(reason.as_deref(), Some("token 33 < 34"));
        assert_eq!(s.cell("x").map(|c| &*c.value), Some("v34"));
    }

    #[test]
    fn volatile_mark_is_forgotten_on_restart() {
        for (mark, second) in [(Durability::Durable, false), (Durability::Memory, true)] {
            let mut s = storage(FenceMode::Monotone, mark);
            outcome(&mut s, &[34]);
            let mut rng = Rng::new(0);
            s.on_restart(&mut Ctx::new(0, &mut rng));
            assert_eq!(outcome(&mut s, &[33]), [second]);
        }
    }

    #[test]
    fn non_atomic_check_lets_a_stale_write_pass_in_the_gap() {
        let mut s = storage(FenceMode::NonAtomic, Durability::Durable);
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(0, &mut rng);
        // 33 is checked (no mark yet), then 34 is checked and applied, then 33 lands.
        s.on_message(&mut ctx, C1, &write(33, 1), None);
        s.on_message(&mut ctx, C2, &write(34, 2), None);
        s.on_timer(&mut ctx, &TimerKind::ApplyWrite { id: 1 });
        s.on_timer(&mut ctx, &TimerKind::ApplyWrite { id: 0 });
        assert_eq!(s.cell("x").map(|c| &*c.value), Some("v33"));
    }

    #[test]
    fn a_conditional_write_lands_only_at_the_version_read() {
        let mut s = storage(FenceMode::None, Durability::Durable);
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(0, &mut rng);
        let write_if = |req, value: &str, version| Msg::WriteIf {
            req,
            key: "x".into(),
            value: value.into(),
            token: None,
            epoch: None,
            version,
        };
        s.on_message(&mut ctx, C2, &write_if(1, "a", 0), None);
        s.on_message(&mut ctx, C1, &write_if(2, "b", 0), None);
        let refused: Vec<RejectReason> = ctx
            .out
            .iter()
            .filter_map(|c| match c {
                Cmd::Send {
                    msg: Msg::WriteRejected { reason, .. },
                    ..
                } => Some(reason.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(refused, [RejectReason::VersionChanged { read: 0, now: 1 }]);
        assert_eq!(refused[0].to_string(), "version 0 ≠ 1");
        assert_eq!(
            (s.cell("x").map(|c| &*c.value), s.version("x")),
            (Some("a"), 1)
        );
        // A plain write moves the version on too.
        s.on_message(&mut ctx, C1, &write(34, 3), None);
        s.on_message(&mut ctx, C1, &write_if(4, "c", 2), None);
        assert_eq!(
            (s.cell("x").map(|c| &*c.value), s.version("x")),
            (Some("c"), 3)
        );
    }

    #[test]
    fn idempotency_key_runs_an_effect_once() {
        let mut s = Storage::new(&StorageSpec {
            idempotency: true,
            ..StorageSpec::default()
        });
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(0, &mut rng);
        let e = Msg::Effect {
            req: 1,
            name: "email".into(),
            idempotency_key: Some("k".into()),
            token: None,
        };
        s.on_message(&mut ctx, C1, &e, None);
        s.on_message(&mut ctx, C2, &e, None);
        let performed = ctx
            .out
            .iter()
            .filter(|c| matches!(c, Cmd::Note(Event::EffectPerformed { .. })))
            .count();
        assert_eq!(performed, 1);
    }
}
