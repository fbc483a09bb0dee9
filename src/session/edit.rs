//! Editing a scenario from the page: every action becomes data, then the run is redone.
//!
//! An action taken at the cursor (pause this client, cut that link, jump a clock) is a
//! fault inserted at the cursor's time; a settings change edits a parameter. Either way the
//! result is a new, validated [`Scenario`] — the past before the cursor is unchanged (faults
//! cannot act before their time) and the future is re-simulated: a fork, as in RaftScope.
//! [`History`] keeps the scenarios for undo and redo.

use crate::model::scenario::{Fault, FaultKind, FenceMode, Flavor, Scenario, ScenarioError};
use crate::vocab::ids::NodeId;
use std::rc::Rc;

/// One change a user can make.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A fault at the time it carries (the cursor's).
    AddFault(Fault),
    /// End `node`'s pause that covers `at_ms`, at `at_ms`.
    ResumeAt {
        node: NodeId,
        at_ms: i64,
    },
    SetFence(FenceMode),
    /// TTL for every client.
    SetTtl(i64),
    /// Watchdog interval for every client (`None` = off).
    SetRenew(Option<i64>),
    /// Safety margin for every client.
    SetMargin(i64),
    SetDrift {
        node: NodeId,
        ppm: i64,
    },
    SetOffset {
        node: NodeId,
        ms: i64,
    },
    /// Check the lease before each write, for every client.
    SetCheckBeforeWrite(bool),
    /// Switch the lock service, adapting what the new one would refuse (see [`set_flavor`]).
    SetFlavor(Flavor),
}

fn clock_mut(sc: &mut Scenario, node: NodeId) -> Option<&mut crate::model::scenario::ClockSpec> {
    match node {
        NodeId::Client(i) => sc.clients.get_mut(usize::from(i)).map(|c| &mut c.clock),
        NodeId::Coord(0) if sc.coordinator.clocks.is_empty() => Some(&mut sc.coordinator.clock),
        // Redlock's masters each have a clock of their own: give every node up to this
        // one an entry (a copy of the shared clock) and edit this one's.
        NodeId::Coord(i) => {
            let c = &mut sc.coordinator;
            let i = usize::from(i);
            while c.clocks.len() <= i {
                c.clocks.push(c.clock);
            }
            c.clocks.get_mut(i)
        }
        NodeId::Storage => Some(&mut sc.storage.clock),
    }
}

/// Switches `sc` to flavor `f` so that it stays valid: TTLs are raised to the flavor's
/// minimum (etcd 2 s, Consul 10 s, ZooKeeper 4 s), the watchdog is switched off for
/// Redlock (extension is not modelled), and clocks and faults of coordinator nodes the new
/// flavor does not have are dropped (leaving Redlock's five masters for one coordinator).
pub fn set_flavor(sc: &mut Scenario, f: Flavor) {
    sc.coordinator.flavor = f;
    let min = f.model().min_ttl_ms;
    for c in &mut sc.clients {
        c.ttl_ms = c.ttl_ms.max(min);
        if f.nodes() > 1 {
            c.renew_every_ms = None;
        }
    }
    sc.coordinator.clocks.truncate(usize::from(f.nodes()));
    let gone = |n: NodeId| matches!(n, NodeId::Coord(i) if i >= f.nodes());
    sc.faults.retain(|x| match x.kind {
        FaultKind::Pause { node, .. }
        | FaultKind::ClockJump { node, .. }
        | FaultKind::Restart { node, .. }
        | FaultKind::Failover { node, .. } => !gone(node),
        FaultKind::Partition { a, b } | FaultKind::Heal { a, b } => !gone(a) && !gone(b),
        FaultKind::Delay { from, to, .. } => !gone(from) && !gone(to),
        FaultKind::FailRenewals { .. } | FaultKind::FalsePositive { .. } => true,
    });
    sc.network.links.retain(|l| !gone(l.from) && !gone(l.to));
}

/// Applies `edit` to a copy of `sc` and validates the result; on error `sc` is untouched.
pub fn apply(sc: &Scenario, edit: &Edit) -> Result<Scenario, ScenarioError> {
    let mut next = sc.clone();
    match edit {
        Edit::AddFault(f) => next.faults.push(f.clone()),
        Edit::ResumeAt { node, at_ms } => {
            let pause = next.faults.iter_mut().rev().find(|f| match f.kind {
                FaultKind::Pause { node: n, for_ms } => {
                    n == *node && f.at_ms <= *at_ms && *at_ms < f.at_ms + for_ms
                }
                _ => false,
            });
            match pause {
                Some(Fault {
                    at_ms: start,
                    kind: FaultKind::Pause { for_ms, .. },
                }) => *for_ms = (*at_ms - *start).max(1),
                _ => {
                    return Err(ScenarioError::new(
                        "faults",
                        format!("{node} is not paused at {at_ms} ms"),
                    ))
                }
            }
        }
        Edit::SetFence(f) => next.storage.fence = *f,
        Edit::SetTtl(ms) => {
            for c in &mut next.clients {
                c.ttl_ms = *ms;
                c.margin_ms = c.margin_ms.min(ms - 1).max(0);
            }
        }
        Edit::SetRenew(every) => next
            .clients
            .iter_mut()
            .for_each(|c| c.renew_every_ms = *every),
        Edit::SetMargin(ms) => next.clients.iter_mut().for_each(|c| c.margin_ms = *ms),
        Edit::SetDrift { node, ppm } => {
            if let Some(c) = clock_mut(&mut next, *node) {
                c.drift_ppm = *ppm;
            }
        }
        Edit::SetOffset { node, ms } => {
            if let Some(c) = clock_mut(&mut next, *node) {
                c.offset_ms = *ms;
            }
        }
        Edit::SetCheckBeforeWrite(on) => next
            .clients
            .iter_mut()
            .for_each(|c| c.check_before_write = *on),
        Edit::SetFlavor(f) => set_flavor(&mut next, *f),
    }
    next.validate()?;
    Ok(next)
}

/// Undo and redo over whole scenarios (they are small; the runs are what is recomputed).
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    past: Vec<Rc<Scenario>>,
    present: Rc<Scenario>,
    future: Vec<Rc<Scenario>>,
}

/// How many edits undo remembers.
pub const UNDO_DEPTH: usize = 100;

impl History {
    pub fn new(sc: Scenario) -> History {
        History {
            past: Vec::new(),
            present: Rc::new(sc),
            future: Vec::new(),
        }
    }

    pub fn current(&self) -> &Rc<Scenario> {
        &self.present
    }

    /// Applies an edit; on success it becomes the present and the redo list is dropped.
    pub fn edit(&mut self, edit: &Edit) -> Result<(), ScenarioError> {
        let next = apply(&self.present, edit)?;
        self.replace(next);
        Ok(())
    }

    /// Makes `sc` the present (e.g. a loaded preset), keeping the old one for undo.
    pub fn replace(&mut self, sc: Scenario) {
        let old = std::mem::replace(&mut self.present, Rc::new(sc));
        self.past.push(old);
        if self.past.len() > UNDO_DEPTH {
            self.past.remove(0);
        }
        self.future.clear();
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    pub fn undo(&mut self) -> bool {
        match self.past.pop() {
            Some(p) => {
                let cur = std::mem::replace(&mut self.present, p);
                self.future.push(cur);
                true
            }
            None => false,
        }
    }

    pub fn redo(&mut self) -> bool {
        match self.future.pop() {
            Some(f) => {
                let cur = std::mem::replace(&mut self.present, f);
                self.past.push(cur);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;

    #[test]
    fn a_fault_then_undo_restores_the_digest() {
        let base = preset("clean").unwrap().scenario();
        let d0 = simulate(&base).unwrap().digest();
        let mut h = History::new(base);
        h.edit(&Edit::AddFault(Fault {
            at_ms: 1_000,
            kind: FaultKind::Pause {
                node: NodeId::Client(0),
                for_ms: 15_000,
            },
        }))
        .unwrap();
        let d1 = simulate(h.current()).unwrap().digest();
        assert_ne!(d0, d1);
        assert!(h.undo());
        assert_eq!(simulate(h.current()).unwrap().digest(), d0);
        assert!(h.redo());
        assert_eq!(simulate(h.current()).unwrap().digest(), d1);
    }

    #[test]
    fn resuming_early_shortens_the_pause() {
        let sc = preset("gc-pause").unwrap().scenario();
        let short = apply(
            &sc,
            &Edit::ResumeAt {
                node: NodeId::Client(0),
                at_ms: 20_000,
            },
        )
        .unwrap();
        // Woken at 20 s, client 1 writes with its still-valid lease: no stale write.
        assert!(check(&simulate(&short).unwrap()).safe);
        assert!(apply(
            &sc,
            &Edit::ResumeAt {
                node: NodeId::Client(1),
                at_ms: 20_000
            }
        )
        .is_err());
    }

    #[test]
    fn an_invalid_edit_names_the_field_and_keeps_the_scenario() {
        let mut h = History::new(preset("gc-pause").unwrap().scenario());
        let before = h.current().clone();
        let e = h.edit(&Edit::SetTtl(0)).unwrap_err();
        assert_eq!(e.path, "clients[0].ttl_ms");
        assert_eq!(h.current(), &before);
        assert!(!h.can_undo());
    }

    #[test]
    fn fence_toggle_turns_corruption_into_rejection() {
        let sc = preset("gc-pause").unwrap().scenario();
        let fenced = apply(&sc, &Edit::SetFence(FenceMode::Monotone)).unwrap();
        assert!(!check(&simulate(&sc).unwrap()).safe);
        assert!(check(&simulate(&fenced).unwrap()).safe);
    }

    #[test]
    fn every_flavor_can_be_picked_from_every_preset_and_back() {
        let presets = crate::teach::presets::PRESETS.iter().map(|p| p.scenario());
        let flavored = crate::teach::flavor_presets::FLAVOR_PRESETS
            .iter()
            .map(|p| p.scenario());
        for sc in presets.chain(flavored) {
            for f in Flavor::ALL {
                let next = apply(&sc, &Edit::SetFlavor(f))
                    .unwrap_or_else(|e| panic!("{} → {}: {e}", sc.name, f.name()));
                assert_eq!(
                    simulate(&next).unwrap().nodes.len(),
                    sc.clients.len() + usize::from(f.nodes()) + 1
                );
            }
        }
        // A Redlock master's clock is its own.
        let sc = crate::teach::flavor_presets::find("redlock-clock-jump").unwrap();
        let skewed = apply(
            &sc,
            &Edit::SetOffset {
                node: NodeId::Coord(3),
                ms: 500,
            },
        )
        .unwrap();
        assert_eq!(skewed.clock_of(NodeId::Coord(3)).offset_ms, 500);
        assert_eq!(skewed.clock_of(NodeId::Coord(1)).offset_ms, 0);
    }
}
