//! The faults the search may add to a scenario, as data: one [`Added`] per fault a learner
//! would name ("client 1 pauses for 25 s"), even when the scenario needs two entries for it
//! (a partition and its heal) or none (a clock drift is a property of the clock, not an
//! event).
//!
//! Each added fault knows its kind ([`FaultClass`], what the search's vocabulary is made
//! of), the true time it starts, its *cost* (how much fault time it adds, so the smallest
//! counterexample can be preferred) and how to write itself into a scenario.

use crate::model::scenario::{Fault, FaultKind, Kind, PauseCause, Scenario};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;

/// A kind of fault the search may add: the words of `--faults`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultClass {
    /// A client freezes (a GC pause); its clock keeps running.
    Pause,
    /// A client is cut from the lock service, from storage, or from both, and healed later.
    Partition,
    /// A node's clock jumps, or runs at another rate from the start.
    Clock,
    /// One message is held up on its way.
    Delay,
    /// The lock service or storage crashes and restarts.
    Restart,
    /// The lock service loses its leader and a new one takes over.
    Failover,
    /// The lock service declares a live client's session dead.
    FalsePositive,
    /// The lock service drops every renewal for a while.
    FailRenewals,
}

impl FaultClass {
    pub const ALL: [FaultClass; 8] = [
        FaultClass::Pause,
        FaultClass::Partition,
        FaultClass::Clock,
        FaultClass::Delay,
        FaultClass::Restart,
        FaultClass::Failover,
        FaultClass::FalsePositive,
        FaultClass::FailRenewals,
    ];

    /// The class a scenario's fault of kind `k` is of: a heal ends a partition, a jump is
    /// one of the clock's faults. Its word is the kind's row's `class`.
    pub fn of(k: Kind) -> FaultClass {
        match k {
            Kind::Pause => FaultClass::Pause,
            Kind::Partition | Kind::Heal => FaultClass::Partition,
            Kind::ClockJump => FaultClass::Clock,
            Kind::Delay => FaultClass::Delay,
            Kind::Restart => FaultClass::Restart,
            Kind::Failover => FaultClass::Failover,
            Kind::FalsePositive => FaultClass::FalsePositive,
            Kind::FailRenewals => FaultClass::FailRenewals,
        }
    }

    /// Its word, as the fault kinds' table writes it: `pause`, `clock`, `false-positive`.
    pub fn name(self) -> &'static str {
        Kind::ALL
            .into_iter()
            .find(|&k| FaultClass::of(k) == self)
            .map_or("", |k| k.spec().class)
    }

    pub fn parse(s: &str) -> Option<FaultClass> {
        Kind::ALL
            .into_iter()
            .find(|k| k.spec().class == s)
            .map(FaultClass::of)
    }

    /// Every word, for messages and the usage text.
    pub fn names() -> String {
        let v: Vec<&str> = FaultClass::ALL.iter().map(|c| c.name()).collect();
        v.join(", ")
    }
}

/// What a partition cuts a client from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cut {
    /// Every node of the lock service.
    LockService,
    Storage,
    Both,
}

/// One fault added by the search. Times are true times in ms.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Added {
    /// Changes a node's clock rate by `ppm` from the start of the run (first in order: it
    /// has no instant).
    Drift {
        node: NodeId,
        ppm: i64,
    },
    Pause {
        node: NodeId,
        at: i64,
        ms: i64,
    },
    Partition {
        client: NodeId,
        cut: Cut,
        at: i64,
        heal: i64,
    },
    Jump {
        node: NodeId,
        at: i64,
        by: i64,
    },
    /// Holds the next message `from` → `to` sent at or after `at` for `extra` ms more.
    Delay {
        from: NodeId,
        to: NodeId,
        at: i64,
        extra: i64,
    },
    Restart {
        node: NodeId,
        at: i64,
        down: i64,
    },
    Failover {
        node: NodeId,
        at: i64,
        down: i64,
    },
    FalsePositive {
        client: NodeId,
        at: i64,
    },
    FailRenewals {
        at: i64,
        ms: i64,
    },
}

impl Added {
    pub fn class(&self) -> FaultClass {
        match self {
            Added::Drift { .. } | Added::Jump { .. } => FaultClass::Clock,
            Added::Pause { .. } => FaultClass::Pause,
            Added::Partition { .. } => FaultClass::Partition,
            Added::Delay { .. } => FaultClass::Delay,
            Added::Restart { .. } => FaultClass::Restart,
            Added::Failover { .. } => FaultClass::Failover,
            Added::FalsePositive { .. } => FaultClass::FalsePositive,
            Added::FailRenewals { .. } => FaultClass::FailRenewals,
        }
    }

    /// The true time the fault starts (a drift is there from the start).
    pub fn at(&self) -> i64 {
        match *self {
            Added::Drift { .. } => 0,
            Added::Pause { at, .. }
            | Added::Partition { at, .. }
            | Added::Jump { at, .. }
            | Added::Delay { at, .. }
            | Added::Restart { at, .. }
            | Added::Failover { at, .. }
            | Added::FalsePositive { at, .. }
            | Added::FailRenewals { at, .. } => at,
        }
    }

    /// How much fault it adds, in ms: the length of a pause, cut, delay or outage, the
    /// size of a jump, and for a drift the clock error it has built up by `horizon_ms`.
    /// The search prefers the counterexample with the smallest total.
    pub fn cost(&self, horizon_ms: i64) -> i64 {
        match *self {
            Added::Drift { ppm, .. } => {
                (i128::from(ppm.abs()) * i128::from(horizon_ms) / 1_000_000) as i64
            }
            Added::Pause { ms, .. } | Added::FailRenewals { ms, .. } => ms,
            Added::Partition { at, heal, .. } => heal - at,
            Added::Jump { by, .. } => by.abs(),
            Added::Delay { extra, .. } => extra,
            Added::Restart { down, .. } | Added::Failover { down, .. } => down,
            Added::FalsePositive { .. } => 0,
        }
    }

    /// The fault with its length set to zero: two faults of one shape differ only in how
    /// long they last (a drift has no shape to shrink along).
    pub fn shape(&self) -> Option<Added> {
        let mut f = self.clone();
        match &mut f {
            Added::Drift { .. } | Added::FalsePositive { .. } => return None,
            Added::Pause { ms, .. } | Added::FailRenewals { ms, .. } => *ms = 0,
            Added::Partition { at, heal, .. } => *heal = *at,
            Added::Jump { by, .. } => *by = by.signum(),
            Added::Delay { extra, .. } => *extra = 0,
            Added::Restart { down, .. } | Added::Failover { down, .. } => *down = 0,
        }
        Some(f)
    }

    /// Writes the fault into `sc`: appended after the scenario's own faults, so a fault at
    /// `t` still acts before the events due at `t`.
    pub fn apply(&self, sc: &mut Scenario) {
        let mut push = |at_ms: i64, kind: FaultKind| {
            sc.faults.push(Fault {
                at_ms,
                kind,
                after: None,
            })
        };
        match *self {
            Added::Drift { node, ppm } => drift(sc, node, ppm),
            Added::Pause { node, at, ms } => push(
                at,
                FaultKind::Pause {
                    node,
                    for_ms: ms,
                    cause: PauseCause::Gc,
                },
            ),
            Added::Partition {
                client,
                cut,
                at,
                heal,
            } => {
                let mut peers = Vec::new();
                if cut != Cut::Storage {
                    peers.extend(sc.coord_nodes());
                }
                if cut != Cut::LockService {
                    peers.push(NodeId::Storage);
                }
                for b in peers {
                    sc.faults.push(Fault {
                        after: None,
                        at_ms: at,
                        kind: FaultKind::Partition { a: client, b },
                    });
                    sc.faults.push(Fault {
                        after: None,
                        at_ms: heal,
                        kind: FaultKind::Heal { a: client, b },
                    });
                }
            }
            Added::Jump { node, at, by } => push(at, FaultKind::ClockJump { node, by_ms: by }),
            Added::Delay {
                from,
                to,
                at,
                extra,
            } => push(
                at,
                FaultKind::Delay {
                    from,
                    to,
                    extra_ms: extra,
                },
            ),
            Added::Restart { node, at, down } => push(
                at,
                FaultKind::Restart {
                    node,
                    down_ms: down,
                },
            ),
            Added::Failover { node, at, down } => push(
                at,
                FaultKind::Failover {
                    node,
                    down_ms: down,
                },
            ),
            Added::FalsePositive { client, at } => {
                push(at, FaultKind::FalsePositive { node: client })
            }
            Added::FailRenewals { at, ms } => push(at, FaultKind::FailRenewals { for_ms: ms }),
        }
    }

    /// The fault as an instruction, naming nodes as the page does: "pause client 1 for
    /// 25.000s at 15.051s". Every fault reads as a verb phrase with the node's own name in
    /// it (and its article: "the lock service", "storage", "client 1"), so a summary can
    /// join them with ", then " and capitalise the first letter into a sentence.
    pub fn describe(&self) -> String {
        match *self {
            Added::Drift { node, ppm } => format!(
                "run {} clock {} ppm {} from the start",
                possessive(node),
                ppm.unsigned_abs(),
                if ppm < 0 { "slow" } else { "fast" }
            ),
            Added::Pause { node, at, ms } => {
                format!("pause {} for {} at {}", node.name(), fmt_ms(ms), fmt_ms(at))
            }
            Added::Partition {
                client,
                cut,
                at,
                heal,
            } => format!(
                "cut {} off from {} at {} and heal the cut at {}",
                client.name(),
                match cut {
                    Cut::LockService => "the lock service",
                    Cut::Storage => "storage",
                    Cut::Both => "both the lock service and storage",
                },
                fmt_ms(at),
                fmt_ms(heal)
            ),
            Added::Jump { node, at, by } => format!(
                "jump {} clock {} by {} at {}",
                possessive(node),
                if by < 0 { "back" } else { "forward" },
                fmt_ms(by.abs()),
                fmt_ms(at)
            ),
            Added::Delay {
                from,
                to,
                at,
                extra,
            } => format!(
                "hold back the next message from {} to {}, sent at or after {}, for {} more",
                from.name(),
                to.name(),
                fmt_ms(at),
                fmt_ms(extra)
            ),
            Added::Restart { node, at, down } => format!(
                "crash {} at {} and restart it {}",
                node.name(),
                fmt_ms(at),
                after(down)
            ),
            Added::Failover { node, at, down } => format!(
                "fail over {} at {}, a new leader taking over {}",
                node.name(),
                fmt_ms(at),
                after(down)
            ),
            Added::FalsePositive { client, at } => format!(
                "have the lock service declare {} session dead at {}",
                possessive(client),
                fmt_ms(at)
            ),
            Added::FailRenewals { at, ms } => format!(
                "have the lock service drop every renewal for {} from {}",
                fmt_ms(ms),
                fmt_ms(at)
            ),
        }
    }
}

/// "5.000s later", or "at once" for an outage of no length.
fn after(ms: i64) -> String {
    if ms == 0 {
        "at once".into()
    } else {
        format!("{} later", fmt_ms(ms))
    }
}

/// "client 1's", "the lock service's", "storage's".
fn possessive(node: NodeId) -> String {
    format!("{}'s", node.name())
}

/// Adds `ppm` to one node's clock rate.
fn drift(sc: &mut Scenario, node: NodeId, ppm: i64) {
    match node {
        NodeId::Client(i) => {
            if let Some(c) = sc.clients.get_mut(usize::from(i)) {
                c.clock.drift_ppm += ppm;
            }
        }
        NodeId::Coord(i) => {
            let i = usize::from(i);
            // A node without its own entry uses the shared clock: give it one first.
            let shared = sc.coordinator.clock;
            if i == 0 && sc.coordinator.clocks.is_empty() {
                sc.coordinator.clock.drift_ppm += ppm;
                return;
            }
            while sc.coordinator.clocks.len() <= i {
                sc.coordinator.clocks.push(shared);
            }
            sc.coordinator.clocks[i].drift_ppm += ppm;
        }
        NodeId::Storage => sc.storage.clock.drift_ppm += ppm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node kind a sentence may name: a client, the lock service, one of Redlock's
    /// other masters, storage.
    const NODES: [NodeId; 5] = [
        NodeId::Client(0),
        NodeId::Client(1),
        NodeId::Coord(0),
        NodeId::Coord(2),
        NodeId::Storage,
    ];

    /// The faults of one class, once with each node kind in each role it can take.
    fn examples(class: FaultClass) -> Vec<Added> {
        let mut v = Vec::new();
        for node in NODES {
            match class {
                FaultClass::Pause => v.push(Added::Pause {
                    node,
                    at: 15_051,
                    ms: 25_000,
                }),
                FaultClass::Partition => {
                    for cut in [Cut::LockService, Cut::Storage, Cut::Both] {
                        v.push(Added::Partition {
                            client: node,
                            cut,
                            at: 1_000,
                            heal: 9_000,
                        });
                    }
                }
                FaultClass::Clock => {
                    for by in [-3_000, 3_000] {
                        v.push(Added::Jump {
                            node,
                            at: 2_000,
                            by,
                        });
                        v.push(Added::Drift { node, ppm: by });
                    }
                }
                FaultClass::Delay => {
                    for to in NODES.into_iter().filter(|&to| to != node) {
                        v.push(Added::Delay {
                            from: node,
                            to,
                            at: 4_000,
                            extra: 6_000,
                        });
                    }
                }
                FaultClass::Restart => {
                    for down in [0, 2_000] {
                        v.push(Added::Restart {
                            node,
                            at: 5_000,
                            down,
                        });
                    }
                }
                FaultClass::Failover => {
                    for down in [0, 2_000] {
                        v.push(Added::Failover {
                            node,
                            at: 5_000,
                            down,
                        });
                    }
                }
                FaultClass::FalsePositive => v.push(Added::FalsePositive {
                    client: node,
                    at: 7_000,
                }),
                FaultClass::FailRenewals => v.push(Added::FailRenewals {
                    at: 3_000,
                    ms: 8_000,
                }),
            }
        }
        v
    }

    fn nodes_of(f: &Added) -> Vec<NodeId> {
        match *f {
            Added::Drift { node, .. }
            | Added::Pause { node, .. }
            | Added::Jump { node, .. }
            | Added::Restart { node, .. }
            | Added::Failover { node, .. } => vec![node],
            Added::Partition { client, .. } | Added::FalsePositive { client, .. } => {
                vec![client]
            }
            Added::Delay { from, to, .. } => vec![from, to],
            Added::FailRenewals { .. } => vec![],
        }
    }

    /// Words that open a noun phrase. An article after one of them ("the next the lock
    /// service") is the mistake a node's name, which carries its own article, invites.
    const DETERMINERS: [&str; 6] = ["the", "a", "an", "next", "every", "each"];
    const ARTICLES: [&str; 3] = ["the", "a", "an"];

    #[test]
    fn every_fault_sentence_reads_as_english_for_every_node_kind() {
        for class in FaultClass::ALL {
            let all = examples(class);
            assert!(!all.is_empty(), "{class:?} has no example");
            for f in all {
                assert_eq!(f.class(), class);
                let s = f.describe();
                let first = s.chars().next().unwrap();
                assert!(first.is_ascii_lowercase(), "{s:?} must start with a verb");
                assert!(!s.ends_with('.'), "{s:?}: the summary adds the full stop");
                assert!(!s.contains('→') && !s.contains("  "), "{s:?}");
                for n in nodes_of(&f) {
                    assert!(s.contains(&n.name()), "{s:?} does not name {}", n.name());
                }
                let words: Vec<String> = s
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .filter(|w| !w.is_empty())
                    .map(str::to_ascii_lowercase)
                    .collect();
                for w in words.windows(2) {
                    assert_ne!(w[0], w[1], "{s:?} repeats {:?}", w[0]);
                    assert!(
                        !(DETERMINERS.contains(&w[0].as_str())
                            && ARTICLES.contains(&w[1].as_str())),
                        "{s:?} stacks {:?} on {:?}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }

    #[test]
    fn a_held_message_names_both_ends_in_order() {
        let f = Added::Delay {
            from: NodeId::COORD,
            to: NodeId::Client(0),
            at: 12_000,
            extra: 5_000,
        };
        assert_eq!(
            f.describe(),
            "hold back the next message from the lock service to client 1, sent at or after \
             12.000s, for 5.000s more"
        );
    }
}
