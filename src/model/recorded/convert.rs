//! A [`Recording`] as the model's own [`Trace`], so the checker, the projection and the
//! statistics run on a real run unchanged.
//!
//! Each recorded event becomes the model events that mean the same thing
//! (`docs/trace-format.md`, "From the recording to the model's trace"): a grant the client
//! hears of is the lock service's `LeaseGranted` and the client's `BeliefStarted`, a write
//! storage answers is its `Received` then `WriteAccepted`/`WriteRejected`. Two facts a
//! recording does not state are derived here, deterministically:
//!
//! - **epochs**: each `granted` is a new one, numbered in time order; a write carries its
//!   client's latest. The checker tells a superseded writer by them, tokens or not.
//! - **indeterminate acquires** (`acquire_indeterminate`): judged as grants, so every
//!   overlap they could cause is shown; the request's arrow stays unanswered (drawn as
//!   lost), and [`super::assumed`] puts the assumption into words.
//! - **arrows**: a request (`*_sent`) arrives when its answer is recorded; one without an
//!   answer is drawn as lost. Which answer is a request's is found in a first pass.
//!
//! Time: the model counts integer milliseconds; microseconds are divided rounding down.

use super::{Recording, Role, What};
use crate::model::clock::Clock;
use crate::model::msg::Msg;
use crate::model::trace::{Entry, Event, LossHow, Outcome, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::names::PauseCause;
use crate::vocab::time::Time;

/// µs → the model's ms, rounding toward minus infinity.
pub fn ms(us: i64) -> i64 {
    us.div_euclid(1000)
}

/// The model's name for each header node: clients `c1`…, lock service nodes `coord`,
/// `coord2`…, storage `storage`, in header order within each role.
pub fn model_ids(r: &Recording) -> Vec<NodeId> {
    let (mut c, mut k) = (0u8, 0u8);
    r.header
        .nodes
        .iter()
        .map(|n| match n.role {
            Role::Client => {
                c += 1;
                NodeId::Client(c - 1)
            }
            Role::LockService => {
                k += 1;
                NodeId::Coord(k - 1)
            }
            Role::Storage => NodeId::Storage,
        })
        .collect()
}

/// For each line (by position in `r.lines`): the position of its answer (a request's) or
/// of its end (a pause's), if any.
pub(super) fn answers(r: &Recording) -> Vec<Option<usize>> {
    let n = r.header.nodes.len();
    let mut out = vec![None; r.lines.len()];
    // Per node: open acquires, renews, releases, pauses (positions), and open writes.
    let mut open: Vec<[Vec<usize>; 4]> = vec![Default::default(); n];
    let mut writes = Writes::new();
    for (i, l) in r.lines.iter().enumerate() {
        let mut close = |slot: usize, node: usize| {
            if let Some(j) = open[node][slot].pop() {
                out[j] = Some(i);
            }
        };
        match &l.what {
            What::AcquireSent => open[l.node][0].push(i),
            What::RenewSent => open[l.node][1].push(i),
            What::ReleaseSent => open[l.node][2].push(i),
            What::PauseBegan => open[l.node][3].push(i),
            What::Granted { .. } | What::AcquireFailed => close(0, l.node),
            What::Renewed { .. } | What::RenewFailed => close(1, l.node),
            What::Released | What::ReleaseRefused => close(2, l.node),
            What::PauseEnded => close(3, l.node),
            What::WriteSent { key, .. } => writes.entry((l.node, key.clone())).or_default().push(i),
            What::WriteAccepted {
                client, key, value, ..
            } => answer_write(r, &mut writes, &mut out, i, *client, key, Some(value)),
            What::WriteRejected {
                client, key, value, ..
            } => answer_write(r, &mut writes, &mut out, i, *client, key, value.as_ref()),
            _ => {}
        }
    }
    out
}

/// Storage's answer `i` closes the latest open write of `client` to `key` (with `value`,
/// when the answer names it).
fn answer_write(
    r: &Recording,
    writes: &mut Writes,
    out: &mut [Option<usize>],
    i: usize,
    client: usize,
    key: &str,
    value: Option<&String>,
) {
    let Some(open) = writes.get_mut(&(client, key.to_string())) else {
        return;
    };
    let found = open.iter().rposition(|&j| {
        matches!(&r.lines[j].what, What::WriteSent { value: v, .. } if value.is_none_or(|x| x == v))
    });
    if let Some(p) = found {
        out[open.remove(p)] = Some(i);
    }
}

/// Open writes by client and key (an ordered map: no hash order anywhere).
type Writes = std::collections::BTreeMap<(usize, String), Vec<usize>>;

/// The model's trace of a recording.
pub fn to_trace(r: &Recording) -> Trace {
    let ids = model_ids(r);
    let coord = NodeId::COORD;
    let answer = answers(r);
    // The other way round: for each answer, the request it closes.
    let mut asked: Vec<Option<usize>> = vec![None; r.lines.len()];
    for (j, a) in answer.iter().enumerate() {
        if let Some(i) = a {
            asked[*i] = Some(j);
        }
    }
    let end = r.lines.last().map_or(0, |l| ms(l.t_us));
    // Per client (by header position): the token it believes in, and its latest epoch.
    let mut belief: Vec<Option<u64>> = vec![None; ids.len()];
    let mut epoch_of: Vec<Option<u32>> = vec![None; ids.len()];
    let mut epochs = 0u32;
    // Per write request (by line position): the epoch it carried.
    let mut sent_epoch: Vec<Option<u32>> = vec![None; r.lines.len()];
    // Per key: the epoch of the value storage holds.
    let mut cells: Vec<(String, Option<u32>)> = Vec::new();
    let mut entries: Vec<Entry> = Vec::with_capacity(r.lines.len() * 2);
    // What the lock protects opens the run, as it does a model run's.
    for (name, keys) in &r.header.resources {
        entries.push(Entry {
            t: Time(0),
            node: NodeId::Storage,
            local: 0,
            event: Event::ResourceDeclared {
                resource: name.as_str().into(),
                keys: keys.iter().map(|k| k.as_str().into()).collect(),
                one_mark: None,
            },
        });
    }
    for (i, l) in r.lines.iter().enumerate() {
        let (t, local, me) = (Time(ms(l.t_us)), ms(l.local_us), ids[l.node]);
        let mut push = |node: NodeId, event: Event| {
            entries.push(Entry {
                t,
                node,
                local: if node == me { local } else { t.0 },
                event,
            })
        };
        let id = i as u32;
        let arrives = answer[i].map(|j| Time(ms(r.lines[j].t_us)));
        let owner = u64::from(l.node as u32) + 1;
        let sent = |to: NodeId, msg: Msg| Event::Sent {
            id,
            to,
            msg,
            arrives,
        };
        // The request this answer closes, as the service received it.
        let received = |from: NodeId| {
            let j = asked[i]?;
            Some(Event::Received { id: j as u32, from })
        };
        match &l.what {
            What::JobStarted => push(me, Event::JobStarted),
            What::JobFinished => push(me, Event::JobFinished),
            What::JobAborted { why } => push(me, Event::JobAborted { why: *why }),
            What::AcquireSent => push(
                me,
                sent(
                    coord,
                    Msg::Acquire {
                        req: id,
                        owner,
                        ttl_ms: 0,
                    },
                ),
            ),
            What::RenewSent => push(
                me,
                sent(
                    coord,
                    Msg::Renew {
                        req: id,
                        owner,
                        token: belief[l.node].unwrap_or(0),
                        ttl_ms: 0,
                    },
                ),
            ),
            What::ReleaseSent => push(me, sent(coord, Msg::Release { owner })),
            What::WriteSent { key, value, token } => {
                sent_epoch[i] = epoch_of[l.node];
                push(
                    me,
                    sent(
                        NodeId::Storage,
                        Msg::Write {
                            req: id,
                            key: key.as_str().into(),
                            value: value.as_str().into(),
                            token: *token,
                            epoch: epoch_of[l.node],
                        },
                    ),
                )
            }
            What::Granted { .. } | What::AcquireIndeterminate => {
                // An indeterminate acquire is judged as a grant with no token and no
                // known lease (the pessimistic reading: it may have been granted, and
                // nothing says when it would end); its request stays drawn unanswered.
                let (token, ttl_ms) = match &l.what {
                    What::Granted { token, ttl_ms } => (token.unwrap_or(0), *ttl_ms),
                    _ => (0, super::MAX_TTL_MS),
                };
                let ttl_ms = &ttl_ms;
                epochs += 1;
                if let Some(e) = received(me) {
                    push(coord, e);
                }
                push(
                    coord,
                    Event::LeaseGranted {
                        client: me,
                        token,
                        epoch: epochs,
                        expires_local: t.0.saturating_add(*ttl_ms),
                    },
                );
                push(
                    me,
                    Event::BeliefStarted {
                        token,
                        epoch: epochs,
                        deadline_local: local.saturating_add(*ttl_ms),
                    },
                );
                belief[l.node] = Some(token);
                epoch_of[l.node] = Some(epochs);
            }
            What::AcquireFailed | What::RenewFailed => {
                if let Some(e) = received(me) {
                    push(coord, e);
                }
            }
            What::Renewed { ttl_ms } => {
                if let Some(e) = received(me) {
                    push(coord, e);
                }
                // The reader refuses `renewed` while the client holds nothing.
                let token = belief[l.node].unwrap_or(0);
                push(
                    coord,
                    Event::LeaseRenewed {
                        client: me,
                        token,
                        expires_local: t.0.saturating_add(*ttl_ms),
                    },
                );
                push(
                    me,
                    Event::DeadlineExtended {
                        token,
                        deadline_local: local.saturating_add(*ttl_ms),
                    },
                );
            }
            What::ExpiryObserved => {
                if let Some(token) = belief[l.node].take() {
                    push(
                        me,
                        Event::BeliefEnded {
                            token,
                            how: LossHow::DeadlinePassed,
                        },
                    );
                }
            }
            What::Released | What::ReleaseRefused => {
                if let Some(e) = received(me) {
                    push(coord, e);
                }
                let token = belief[l.node].take();
                push(
                    coord,
                    if matches!(l.what, What::Released) {
                        Event::LeaseReleased {
                            client: me,
                            token: token.unwrap_or(0),
                        }
                    } else {
                        Event::ReleaseRefused { client: me }
                    },
                );
                if let Some(token) = token {
                    push(
                        me,
                        Event::BeliefEnded {
                            token,
                            how: LossHow::Released,
                        },
                    );
                }
            }
            What::LeaseExpired { client, token } => push(
                me,
                Event::LeaseExpired {
                    client: ids[*client],
                    token: token.unwrap_or(0),
                    epoch: epoch_of[*client].unwrap_or(0),
                },
            ),
            What::PauseBegan => {
                let until = answer[i].map_or(end, |j| ms(r.lines[j].t_us));
                push(
                    me,
                    // A recording does not say what froze the process.
                    Event::Paused {
                        for_ms: until - t.0,
                        cause: PauseCause::Gc,
                    },
                )
            }
            What::PauseEnded => push(me, Event::Resumed),
            What::LinkCut { peer } => push(me, Event::LinkCut { peer: ids[*peer] }),
            What::LinkHealed { peer } => push(me, Event::LinkHealed { peer: ids[*peer] }),
            What::WriteAccepted {
                client,
                key,
                value,
                token,
            } => {
                let j = asked[i];
                if let Some(j) = j {
                    push(
                        me,
                        Event::Received {
                            id: j as u32,
                            from: ids[*client],
                        },
                    );
                }
                let epoch = j.map_or(epoch_of[*client], |j| sent_epoch[j]);
                let replaced_epoch = match cells.iter_mut().find(|(k, _)| k == key) {
                    Some((_, e)) => std::mem::replace(e, epoch),
                    None => {
                        cells.push((key.clone(), epoch));
                        None
                    }
                };
                push(
                    me,
                    Event::WriteAccepted {
                        client: ids[*client],
                        key: key.as_str().into(),
                        value: value.as_str().into(),
                        token: *token,
                        epoch,
                        replaced_epoch,
                        mark: None,
                    },
                )
            }
            What::WriteRejected {
                client,
                key,
                token,
                reason,
                ..
            } => {
                if let Some(j) = asked[i] {
                    push(
                        me,
                        Event::Received {
                            id: j as u32,
                            from: ids[*client],
                        },
                    );
                }
                push(
                    me,
                    Event::WriteRejected {
                        client: ids[*client],
                        key: key.as_str().into(),
                        token: *token,
                        reason: reason.clone(),
                    },
                )
            }
            What::ReadServed {
                client,
                key,
                version,
            } => push(
                me,
                Event::ReadServed {
                    client: ids[*client],
                    key: key.as_str().into(),
                    version: *version,
                },
            ),
            What::Effect { client, what } => push(
                me,
                Event::EffectPerformed {
                    client: ids[*client],
                    name: what.as_str().into(),
                },
            ),
        }
    }
    // Lanes: the header's nodes in the model's lane order, and always a lock service and
    // a storage lane (requests are drawn to them even when the header names none).
    let mut lanes: Vec<NodeId> = ids.clone();
    for n in [coord, NodeId::Storage] {
        if !lanes.contains(&n) {
            lanes.push(n);
        }
    }
    lanes.sort();
    Trace {
        nodes: lanes.into_iter().map(|n| (n, Clock::default())).collect(),
        entries,
        outcome: Outcome::Quiescent,
        end: Time(end),
    }
}
