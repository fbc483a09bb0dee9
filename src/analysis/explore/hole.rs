//! Which broken part let a stale write through a fence.
//!
//! A fence that is switched on and still lets a stale write land is broken somewhere else:
//! a write path that never looks at the token, a client that sends its random owner id
//! instead of the token, a high-water mark kept in memory and forgotten in a restart, a
//! token counter that starts again after one, or a mark kept per key for a resource of
//! several keys. The search says which, so a reader learns
//! what to repair, not only that the fence failed. The answer is read off the scenario and
//! the run before the write: the first of these that applies to that write is named. A
//! token handed out twice breaks the fence before any write reaches it, so a token
//! regression after a counter reset is named too.

use crate::analysis::check::{Violation, ViolationKind};
use crate::model::scenario::{FenceMode, FenceWith, MarkScope, Scenario};
use crate::model::trace::{Event, Forgot, Trace};
use crate::vocab::ids::NodeId;

/// The broken part of a fence that let a stale write land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hole {
    /// Storage checks no token at all (`fence: none`): not a broken fence, no fence.
    NoFence,
    /// The write went through a path that never looks at the token.
    UnguardedPath { key: String },
    /// The client sent its random owner id, which is unique but not ordered.
    RandomId { client: NodeId },
    /// Storage restarted and forgot its high-water mark.
    VolatileMark,
    /// The lock service restarted and its token counter started again: a token repeated.
    CounterReset,
    /// The fence read the mark and wrote later: another write passed the same check.
    NonAtomic,
    /// The fence keeps its mark per key while the lock protects a resource of several
    /// keys: a key the newer holder had not written yet had no mark to refuse the token.
    MarkPerKey { key: String, resource: String },
}

impl Hole {
    /// One clause for the report: what let the write through.
    pub fn describe(&self) -> String {
        match self {
            Hole::NoFence => "storage checks no token".into(),
            Hole::UnguardedPath { key } => {
                format!("the write path for {key} never looks at the token")
            }
            Hole::RandomId { client } => format!(
                "{} sent its random owner id, not the token: ids are unique but not ordered",
                client.name()
            ),
            Hole::VolatileMark => {
                "storage restarted and forgot its high-water mark, kept only in memory".into()
            }
            Hole::CounterReset => {
                "the lock service restarted and its token counter started again, so a token was handed out twice".into()
            }
            Hole::NonAtomic => {
                "the fence reads the mark and writes later, so two writes passed the same check"
                    .into()
            }
            Hole::MarkPerKey { key, resource } => format!(
                "the fence keeps its mark per key: {key} had none, though the lock protects all of {resource}"
            ),
        }
    }
}

/// What let `v` through, when `v` is a stale write of `trace` (a run of `sc`), or a token
/// handed out again (the fence's input broken before any write).
pub fn let_through(sc: &Scenario, trace: &Trace, v: &Violation) -> Option<Hole> {
    let upto = trace.entries.get(..=v.entry as usize)?;
    let forgot = |what: Forgot| {
        upto.iter()
            .any(|e| matches!(e.event, Event::Restarted { forgot } if forgot == what))
    };
    if v.kind == ViolationKind::TokenRegression {
        return forgot(Forgot::LeasesAndCounter).then_some(Hole::CounterReset);
    }
    if v.kind != ViolationKind::StaleWrite {
        return None;
    }
    let Event::WriteAccepted { client, key, .. } = &upto.last()?.event else {
        return None;
    };
    if sc.storage.fence == FenceMode::None {
        return Some(Hole::NoFence);
    }
    if sc.storage.unfenced_keys.iter().any(|k| **k == **key) {
        return Some(Hole::UnguardedPath {
            key: key.to_string(),
        });
    }
    let spec = match client {
        NodeId::Client(i) => sc.clients.get(usize::from(*i)),
        _ => None,
    };
    if spec.is_some_and(|c| c.fence_with == FenceWith::OwnerId) {
        return Some(Hole::RandomId { client: *client });
    }
    let per_key = sc.storage.mark_per == MarkScope::Key && sc.storage.fence != FenceMode::Exact;
    let of = sc
        .storage
        .resources
        .iter()
        .find(|r| r.keys.iter().any(|k| **k == **key));
    if let Some(r) = of.filter(|_| per_key) {
        return Some(Hole::MarkPerKey {
            key: key.to_string(),
            resource: r.name.clone(),
        });
    }
    if forgot(Forgot::Mark) {
        return Some(Hole::VolatileMark);
    }
    if forgot(Forgot::LeasesAndCounter) {
        return Some(Hole::CounterReset);
    }
    (sc.storage.fence == FenceMode::NonAtomic).then_some(Hole::NonAtomic)
}
