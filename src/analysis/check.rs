//! The safety checker: reads a trace, returns a verdict.
//!
//! It never looks at the model's state — only at what the trace says happened — so a bug
//! in a handler cannot hide a violation from it. What it reports:
//!
//! - **Two believers** ([`Overlap`]): intervals where two or more clients believe they hold
//!   the lock. Real systems do this (Kleppmann 2016), so it is a *hazard*, not by itself a
//!   violation: the question is whether the resource lets the stale holder act.
//! - **Stale writes** (violation): storage accepted a write from an epoch older than one it
//!   had already accepted for that key. That is the seeds' criterion — "the resource must
//!   reject effects from every superseded epoch" — read at the resource, which is the only
//!   place a fence can act. Epochs are grants (unique even when an in-memory token counter
//!   repeats tokens); a write carrying no lease counts as older than every epoch.
//! - **Lost updates** (violation): a stale write that replaced a value from a newer epoch.
//! - **Fence rejections** (not violations: the fence working), with their reasons.
//! - **Token regressions** (violation): a grant whose token is not above every token issued
//!   before it — an in-memory counter that restarted.
//! - **Duplicate effects** (violation): an unfenceable side effect performed more than once.

use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::time::{fmt_ms, Time};
use crate::vocab::vecmap::VecMap;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    StaleWrite,
    LostUpdate,
    TokenRegression,
    DuplicateEffect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub kind: ViolationKind,
    pub at: Time,
    /// Index of the trace entry where it happened.
    pub entry: u32,
    pub nodes: Vec<NodeId>,
    pub cause: String,
}

/// An interval where two or more clients believed they held the lock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Overlap {
    pub from: Time,
    pub to: Time,
    /// Trace index where the overlap began.
    pub entry: u32,
    /// The believers, with the tokens they believed in.
    pub clients: Vec<(NodeId, u64)>,
}

/// A write the fence refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub at: Time,
    pub entry: u32,
    pub client: NodeId,
    pub token: Option<u64>,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub double_holder_ms: i64,
    pub writes_accepted: u32,
    pub stale_writes_accepted: u32,
    pub stale_writes_rejected: u32,
    pub lost_updates: u32,
    pub effects_performed: u32,
    pub grants: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub safe: bool,
    pub violations: Vec<Violation>,
    pub overlaps: Vec<Overlap>,
    pub rejections: Vec<Rejection>,
    pub stats: Stats,
}

/// Reads the trace and judges it.
pub fn check(trace: &Trace) -> Verdict {
    let mut v = Vec::new();
    let mut overlaps = Vec::new();
    let mut rejections = Vec::new();
    let mut stats = Stats::default();

    // Who believes, with which token, since when.
    let mut believers: VecMap<NodeId, u64> = VecMap::new();
    let mut open: Option<OpenOverlap> = None;
    // Per key: the newest epoch accepted so far.
    let mut newest: VecMap<&str, u32> = VecMap::new();
    // Token and holder of each epoch; the highest token issued so far.
    let mut epochs: VecMap<u32, (u64, NodeId)> = VecMap::new();
    let mut max_token: Option<u64> = None;
    let mut effects: VecMap<&str, NodeId> = VecMap::new();

    for (i, e) in trace.entries.iter().enumerate() {
        let i = i as u32;
        let mut changed = false;
        match &e.event {
            Event::BeliefStarted { token, .. } => {
                believers.insert(e.node, *token);
                changed = true;
            }
            Event::BeliefEnded { .. } => {
                believers.remove(&e.node);
                changed = true;
            }
            Event::LeaseGranted {
                client,
                token,
                epoch,
                ..
            } => {
                stats.grants += 1;
                // Token 0: a service that issues no token (Redis, Redlock) — nothing to order.
                if let Some(m) = max_token.filter(|m| *token != 0 && token <= m) {
                    v.push(Violation {
                        kind: ViolationKind::TokenRegression,
                        at: e.t,
                        entry: i,
                        nodes: vec![e.node, *client],
                        cause: format!(
                            "the coordinator issued token {token} to {} although it had already issued token {m}: its counter went back", client.name()
                        ),
                    });
                }
                if *token != 0 {
                    max_token = Some(max_token.map_or(*token, |m| m.max(*token)));
                }
                epochs.insert(*epoch, (*token, *client));
            }
            Event::WriteAccepted {
                client,
                key,
                token,
                epoch,
                replaced_epoch,
                ..
            } => {
                stats.writes_accepted += 1;
                let mine = epoch.unwrap_or(0);
                let prev = newest.get(key.as_str()).copied();
                match prev {
                    Some(p) if p > mine => {
                        stats.stale_writes_accepted += 1;
                        let (ptoken, pholder) = epochs.get(&p).copied().unwrap_or((0, *client));
                        let what = token
                            .map_or("with no token".to_string(), |t| format!("with token {t}"));
                        v.push(Violation {
                            kind: ViolationKind::StaleWrite,
                            at: e.t,
                            entry: i,
                            nodes: vec![*client, pholder, NodeId::Storage],
                            cause: format!(
                                "storage accepted {}'s write {what} after it had accepted {} from {}: a superseded holder changed the data", client.name(), if ptoken == 0 { "a write".to_string() } else { format!("token {ptoken}") }, pholder.name()
                            ),
                        });
                        if replaced_epoch.is_some_and(|r| r > mine) {
                            stats.lost_updates += 1;
                            v.push(Violation {
                                kind: ViolationKind::LostUpdate,
                                at: e.t,
                                entry: i,
                                nodes: vec![*client, pholder, NodeId::Storage],
                                cause: format!(
                                    "{}'s stale write overwrote {key}, which held a newer holder's value: that update is silently lost", client.name()
                                ),
                            });
                        }
                    }
                    _ => {
                        newest.insert(key.as_str(), prev.map_or(mine, |p| p.max(mine)));
                    }
                }
            }
            Event::WriteRejected {
                client,
                token,
                reason,
                ..
            } => {
                stats.stale_writes_rejected += 1;
                rejections.push(Rejection {
                    at: e.t,
                    entry: i,
                    client: *client,
                    token: *token,
                    reason: reason.to_string(),
                });
            }
            Event::EffectPerformed { client, name } => {
                stats.effects_performed += 1;
                if let Some(first) = effects.get(name.as_str()) {
                    v.push(Violation {
                        kind: ViolationKind::DuplicateEffect,
                        at: e.t,
                        entry: i,
                        nodes: vec![*client, *first],
                        cause: format!("\"{name}\" was performed a second time, by {} (first by {}): nothing could fence it", client.name(), first.name()),
                    });
                } else {
                    effects.insert(name.as_str(), *client);
                }
            }
            _ => {}
        }
        if changed {
            close_or_open(&mut open, &mut overlaps, &believers, e.t, i);
        }
    }
    if let Some((from, entry, clients)) = open {
        overlaps.push(Overlap {
            from,
            to: trace.end.max(from),
            entry,
            clients,
        });
    }
    stats.double_holder_ms = overlaps.iter().map(|o| o.to.0 - o.from.0).sum();
    v.sort_by_key(|x| (x.entry, x.kind));
    Verdict {
        safe: v.is_empty(),
        violations: v,
        overlaps,
        rejections,
        stats,
    }
}

/// An overlap still in progress: since when, from which entry, who.
type OpenOverlap = (Time, u32, Vec<(NodeId, u64)>);

/// Keeps `open` in step with the set of believers: an overlap is a maximal interval with
/// the same two-or-more believers.
fn close_or_open(
    open: &mut Option<OpenOverlap>,
    overlaps: &mut Vec<Overlap>,
    believers: &VecMap<NodeId, u64>,
    t: Time,
    i: u32,
) {
    let now: Vec<(NodeId, u64)> = believers.iter().map(|(n, t)| (*n, *t)).collect();
    if let Some((from, entry, clients)) = open.as_ref() {
        if *clients == now {
            return;
        }
        if t > *from {
            overlaps.push(Overlap {
                from: *from,
                to: t,
                entry: *entry,
                clients: clients.clone(),
            });
        }
        *open = None;
    }
    if now.len() >= 2 {
        *open = Some((t, i, now));
    }
}

impl Verdict {
    /// One paragraph for the CLI and the transcript.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        if self.safe {
            s.push_str("SAFE: storage never accepted a write from a superseded holder.\n");
        } else {
            s.push_str(&format!(
                "UNSAFE: {} violation(s).\n",
                self.violations.len()
            ));
        }
        for o in &self.overlaps {
            let who: Vec<String> = o
                .clients
                .iter()
                .map(|(n, t)| format!("{n} (token {t})"))
                .collect();
            s.push_str(&format!(
                "  two believers {} → {}: {}\n",
                o.from,
                o.to,
                who.join(" and ")
            ));
        }
        for r in &self.rejections {
            s.push_str(&format!(
                "  {}  fence rejected {}'s write: {}\n",
                r.at, r.client, r.reason
            ));
        }
        for x in &self.violations {
            s.push_str(&format!("  {}  {:?}: {}\n", x.at, x.kind, x.cause));
        }
        let st = &self.stats;
        s.push_str(&format!(
            "  double-holder time {}, writes accepted {}, stale accepted {}, stale rejected {}, lost updates {}\n",
            fmt_ms(st.double_holder_ms),
            st.writes_accepted,
            st.stale_writes_accepted,
            st.stale_writes_rejected,
            st.lost_updates
        ));
        s
    }
}
