//! The faults the search may add to a scenario, as data: one [`Added`] per fault a learner
//! would name ("client 1 pauses for 25 s"), even when the scenario needs two entries for it
//! (a partition and its heal) or none (a clock drift is a property of the clock, not an
//! event).
//!
//! Each added fault knows its kind ([`FaultClass`], what the search's vocabulary is made
//! of), the true time it starts, its *cost* (how much fault time it adds, so the smallest
//! counterexample can be preferred) and how to write itself into a scenario.

use crate::model::scenario::{Fault, FaultKind, Scenario};
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

const CLASS_NAMES: [(FaultClass, &str); 8] = [
    (FaultClass::Pause, "pause"),
    (FaultClass::Partition, "partition"),
    (FaultClass::Clock, "clock"),
    (FaultClass::Delay, "delay"),
    (FaultClass::Restart, "restart"),
    (FaultClass::Failover, "failover"),
    (FaultClass::FalsePositive, "false-positive"),
    (FaultClass::FailRenewals, "fail-renewals"),
];

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

    pub fn name(self) -> &'static str {
        CLASS_NAMES.iter().find(|r| r.0 == self).map_or("", |r| r.1)
    }

    pub fn parse(s: &str) -> Option<FaultClass> {
        CLASS_NAMES.iter().find(|r| r.1 == s).map(|r| r.0)
    }

    /// Every word, for messages and the usage text.
    pub fn names() -> String {
        let v: Vec<&str> = CLASS_NAMES.iter().map(|r| r.1).collect();
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
        let mut push = |at_ms: i64, kind: FaultKind| sc.faults.push(Fault { at_ms, kind });
        match *self {
            Added::Drift { node, ppm } => drift(sc, node, ppm),
            Added::Pause { node, at, ms } => push(at, FaultKind::Pause { node, for_ms: ms }),
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
                        at_ms: at,
                        kind: FaultKind::Partition { a: client, b },
                    });
                    sc.faults.push(Fault {
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

    /// The fault in a few words, naming nodes as the page does: "pause client 1 for 25.000s
    /// at 15.051s".
    pub fn describe(&self) -> String {
        match *self {
            Added::Drift { node, ppm } => format!("{}'s clock rate {ppm:+} ppm", node.name()),
            Added::Pause { node, at, ms } => {
                format!("pause {} for {} at {}", node.name(), fmt_ms(ms), fmt_ms(at))
            }
            Added::Partition {
                client,
                cut,
                at,
                heal,
            } => format!(
                "cut {} from {} at {}, healed at {}",
                client.name(),
                match cut {
                    Cut::LockService => "the lock service",
                    Cut::Storage => "storage",
                    Cut::Both => "the lock service and storage",
                },
                fmt_ms(at),
                fmt_ms(heal)
            ),
            Added::Jump { node, at, by } => {
                format!(
                    "{}'s clock jumps {} at {}",
                    node.name(),
                    signed(by),
                    fmt_ms(at)
                )
            }
            Added::Delay {
                from,
                to,
                at,
                extra,
            } => format!(
                "hold the next {} → {} message sent from {} for {} more",
                from.name(),
                to.name(),
                fmt_ms(at),
                fmt_ms(extra)
            ),
            Added::Restart { node, at, down } => outage("restart", node, "", at, down),
            Added::Failover { node, at, down } => outage("fail", node, " over", at, down),
            Added::FalsePositive { client, at } => {
                format!("declare {}'s session dead at {}", client.name(), fmt_ms(at))
            }
            Added::FailRenewals { at, ms } => {
                format!("drop every renewal for {} at {}", fmt_ms(ms), fmt_ms(at))
            }
        }
    }
}

fn outage(verb: &str, node: NodeId, tail: &str, at: i64, down: i64) -> String {
    format!(
        "{verb} {}{tail} at {}, down {}",
        node.name(),
        fmt_ms(at),
        fmt_ms(down)
    )
}

fn signed(ms: i64) -> String {
    if ms >= 0 {
        format!("+{}", fmt_ms(ms))
    } else {
        fmt_ms(ms)
    }
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
