//! Editing a scenario from the page: every action becomes data, then the run is redone.
//!
//! An action taken at the cursor (pause this client, cut that link, jump a clock) is a
//! fault inserted at the cursor's time; a settings change edits a parameter. Either way the
//! result is a new, validated [`Scenario`] — the past before the cursor is unchanged (faults
//! cannot act before their time) and the future is re-simulated: a fork, as in RaftScope.
//! [`History`] keeps the scenarios for undo and redo.

use crate::analysis::projection::State;
use crate::model::scenario::{
    Fault, FaultKind, FenceMode, Flavor, PauseCause, Scenario, ScenarioError,
};
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
/// minimum (etcd 2 s, which etcd itself would raise a shorter TTL to; Consul 10 s;
/// ZooKeeper 4 s, 2 × the sample config's tickTime of 2 s), the watchdog is switched off for
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
            // (A pause placed by an event has no fixed time to resume it at.)
            let pause = next.faults.iter_mut().rev().find(|f| match f.kind {
                _ if f.after.is_some() => false,
                FaultKind::Pause {
                    node: n, for_ms, ..
                } => n == *node && f.at_ms <= *at_ms && *at_ms < f.at_ms + for_ms,
                _ => false,
            });
            match pause {
                Some(Fault {
                    after: None,
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
    // The first load makes no edit of its own (its fence switch sets the field, and any
    // other edit hands over to the whole app: `session::handoff`), so it carries no
    // validator; see `model::sim::simulate`. The links' player switches the fence of any
    // built-in scenario, validated as the whole app does.
    #[cfg(not(feature = "lite"))]
    next.validate()?;
    Ok(next)
}

/// What the stage's action menu can be open for: a node, or the link between two nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Node(NodeId),
    Link(NodeId, NodeId),
}

/// The actions a selected node or link offers at the cursor, decided from the projected
/// state there (a paused node offers "Resume now", a cut link "Heal"). Each is an edit at
/// `at_ms`, the cursor's time; views only draw the list.
#[derive(Clone, Debug, PartialEq)]
pub struct Actions {
    /// What they act on, as a learner calls it ("client 1", "link client 1 – storage").
    pub title: String,
    pub items: Vec<(String, Edit)>,
}

pub fn actions_for(target: Target, state: &State, at_ms: i64) -> Actions {
    let fault = |kind: FaultKind| {
        Edit::AddFault(Fault {
            at_ms,
            kind,
            after: None,
        })
    };
    let mut items: Vec<(String, Edit)> = Vec::new();
    let title = match target {
        Target::Node(node) => {
            let (paused, down) = (state.is_paused(node), state.is_down(node));
            if paused {
                items.push(("Resume now".into(), Edit::ResumeAt { node, at_ms }));
            } else if !down {
                for s in [5, 10, 40] {
                    let for_ms = s * 1000;
                    items.push((
                        format!("Pause {s} s"),
                        fault(FaultKind::Pause {
                            node,
                            for_ms,
                            cause: PauseCause::Gc,
                        }),
                    ));
                }
            }
            for (label, by_ms) in [("Clock +10 s", 10_000), ("Clock −10 s", -10_000)] {
                items.push((label.into(), fault(FaultKind::ClockJump { node, by_ms })));
            }
            if !node.is_client() && !down {
                let down_ms = 1_000;
                items.push((
                    "Restart".into(),
                    fault(FaultKind::Restart { node, down_ms }),
                ));
            }
            node.name()
        }
        Target::Link(a, b) => {
            if state.cut.contains(&crate::model::sim::pair(a, b)) {
                items.push(("Heal".into(), fault(FaultKind::Heal { a, b })));
            } else {
                items.push(("Partition".into(), fault(FaultKind::Partition { a, b })));
            }
            let (from, to, extra_ms) = (a, b, 20_000);
            items.push((
                format!("Delay next message {} → {} by 20 s", a.name(), b.name()),
                fault(FaultKind::Delay { from, to, extra_ms }),
            ));
            format!("link {} – {}", a.name(), b.name())
        }
    };
    Actions { title, items }
}

/// Undo and redo over whole scenarios (they are small; the runs are what is recomputed).
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    past: Vec<Rc<Scenario>>,
    present: Rc<Scenario>,
    future: Vec<Rc<Scenario>>,
    /// The scenario as it was opened: what its name and description were written for.
    origin: Rc<Scenario>,
}

/// How many edits undo remembers.
pub const UNDO_DEPTH: usize = 100;

impl History {
    pub fn new(sc: Scenario) -> History {
        let present = Rc::new(sc);
        History {
            past: Vec::new(),
            origin: present.clone(),
            present,
            future: Vec::new(),
        }
    }

    /// A history whose scenario on screen, `present`, is already not the one its link
    /// names, `origin` (a built-in scenario opened with another service, seed or fence):
    /// the page says so as it would after the same edits (see [`edited`](Self::edited)).
    pub fn opened_from(origin: Scenario, present: Rc<Scenario>) -> History {
        History {
            past: Vec::new(),
            origin: Rc::new(origin),
            present,
            future: Vec::new(),
        }
    }

    /// Whether the scenario on screen is no longer the one opened (an edit, a fence
    /// switched, a draft run from the editor): its description then speaks of the original.
    /// Undoing back to it makes it the original again.
    pub fn edited(&self) -> bool {
        !Rc::ptr_eq(&self.present, &self.origin) && *self.present != *self.origin
    }

    pub fn current(&self) -> &Rc<Scenario> {
        &self.present
    }

    /// The scenario as it was opened (what [`edited`](Self::edited) compares with).
    pub fn origin(&self) -> &Rc<Scenario> {
        &self.origin
    }

    /// Whether the walkthrough beside the run was written for another run: the run was
    /// edited, and its beats are the opened scenario's (a built-in lesson's, or an author's
    /// that this edit left as they were). Beats an author has just written are this run's.
    pub fn beats_predate_edit(&self) -> bool {
        self.edited() && self.present.walkthrough == self.origin.walkthrough
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

    /// Makes `sc` the present as a scenario opened anew (an import): its description is
    /// its own again, while undo still goes back to the run it replaced.
    pub fn open_over(&mut self, sc: Scenario) {
        self.replace(sc);
        self.origin = self.present.clone();
    }

    /// The scenario before the last edit (what undo would return to).
    /// The scenarios before the one on screen, oldest first (what undo walks back through).
    pub fn past(&self) -> &[Rc<Scenario>] {
        &self.past
    }

    pub fn previous(&self) -> Option<&Rc<Scenario>> {
        self.past.last()
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

/// How the page introduces a description that no longer describes the run on screen.
pub const ORIGINAL: &str = "From the original scenario (before your edits): ";

impl crate::session::Session {
    /// The scenario's description as the page shows it: as written while the run is the
    /// one opened, marked as the original's once it has been edited (its "30 s lease" may
    /// no longer be this run's); empty when there is none.
    pub fn description(&self) -> String {
        let d = &self.doc.history.current().description;
        if d.is_empty() || !self.doc.history.edited() {
            d.clone()
        } else {
            format!("{ORIGINAL}{d}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;
    use crate::vocab::time::Time;

    fn labels(a: &Actions) -> Vec<&str> {
        a.items.iter().map(|(l, _)| l.as_str()).collect()
    }

    #[test]
    fn actions_follow_the_state_at_the_cursor() {
        let sc = preset("gc-pause").unwrap().scenario();
        let trace = simulate(&sc).unwrap();
        let p = crate::analysis::projection::Projection::new(&trace);
        let at = |ms| {
            p.state_at(
                &trace,
                crate::analysis::projection::step_at_time(&trace, Time(ms)),
            )
        };
        let c1 = Target::Node(NodeId::Client(0));
        let running = actions_for(c1, &at(1_000), 1_000);
        assert_eq!(running.title, "client 1");
        assert_eq!(
            labels(&running),
            [
                "Pause 5 s",
                "Pause 10 s",
                "Pause 40 s",
                "Clock +10 s",
                "Clock −10 s"
            ]
        );
        assert_eq!(
            running.items[0].1,
            Edit::AddFault(Fault {
                after: None,
                at_ms: 1_000,
                kind: FaultKind::Pause {
                    node: NodeId::Client(0),
                    for_ms: 5_000,
                    cause: PauseCause::Gc,
                }
            })
        );
        // Mid-pause: it can only be resumed (at the cursor) or have its clock jumped.
        let paused = actions_for(c1, &at(40_000), 40_000);
        assert_eq!(
            labels(&paused),
            ["Resume now", "Clock +10 s", "Clock −10 s"]
        );
        let resume = &paused.items[0].1;
        assert!(
            apply(&sc, resume).is_ok(),
            "resuming a paused client is valid"
        );
        // Servers can also restart.
        let lock = actions_for(Target::Node(NodeId::COORD), &at(1_000), 1_000);
        assert_eq!(lock.title, "the lock service");
        assert_eq!(labels(&lock).last(), Some(&"Restart"));
        // Every offered edit is valid on the scenario.
        for (label, e) in running.items.iter().chain(&lock.items) {
            assert!(apply(&sc, e).is_ok(), "{label}");
        }
    }

    #[test]
    fn a_link_offers_partition_or_heal_as_it_stands() {
        let (a, b) = (NodeId::Client(0), NodeId::Storage);
        let mut st = State::initial(&simulate(&preset("clean").unwrap().scenario()).unwrap());
        let link = actions_for(Target::Link(a, b), &st, 2_500);
        assert_eq!(link.title, "link client 1 – storage");
        assert_eq!(
            labels(&link),
            ["Partition", "Delay next message client 1 → storage by 20 s"]
        );
        st.cut.insert(crate::model::sim::pair(a, b));
        let cut = actions_for(Target::Link(a, b), &st, 2_500);
        assert_eq!(
            cut.items[0],
            (
                "Heal".to_string(),
                Edit::AddFault(Fault {
                    after: None,
                    at_ms: 2_500,
                    kind: FaultKind::Heal { a, b }
                })
            )
        );
    }

    #[test]
    fn a_fault_then_undo_restores_the_digest() {
        let base = preset("clean").unwrap().scenario();
        let d0 = simulate(&base).unwrap().digest();
        let mut h = History::new(base);
        h.edit(&Edit::AddFault(Fault {
            after: None,
            at_ms: 1_000,
            kind: FaultKind::Pause {
                node: NodeId::Client(0),
                for_ms: 15_000,
                cause: PauseCause::Gc,
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
    #[cfg_attr(
        feature = "player",
        ignore = "a player makes no edit of its own (the whole app does)"
    )]
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

    /// After an edit the description is marked as the original's, so it is not read as
    /// describing the run on screen; undoing back to the opened scenario unmarks it.
    #[test]
    fn an_edited_run_marks_its_description_as_the_originals() {
        let sc = preset("gc-pause").unwrap().scenario();
        let mut h = History::new(sc.clone());
        assert!(!h.edited());
        h.edit(&Edit::SetTtl(20_000)).unwrap();
        assert!(h.edited());
        h.undo();
        assert!(!h.edited());
        // A draft run from the editor that changes nothing is not an edit.
        h.replace(sc.clone());
        assert!(!h.edited());
        let mut s = crate::session::Session::default_page();
        s.doc.history = History::new(sc.clone());
        assert_eq!(s.description(), sc.description);
        s.doc
            .history
            .edit(&Edit::SetCheckBeforeWrite(true))
            .unwrap();
        assert_eq!(s.description(), format!("{ORIGINAL}{}", sc.description));
    }
}
