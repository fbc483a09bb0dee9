//! Faults placed by what happens in the run: "35 s after client 1 acquires the lock",
//! "when client 2's write is sent". An engineer thinks of a fault that way, and the true
//! time of the event it follows is something only the run knows (it moves with the seed,
//! the network's delays and every earlier fault).
//!
//! The simulator arms such a fault when its event is recorded (`model::sim`), so the time
//! is resolved as the run is built and the run is exactly the run of the same scenario
//! with that time written in. [`when`] reads the same matching back from a finished
//! trace, for the editor to show both: the event, and the time it gave.

use super::{Anchor, AnchorEvent, Fault};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;

impl AnchorEvent {
    /// The words in the scenario's JSON and the link.
    pub const WORDS: [(&'static str, AnchorEvent); 3] = [
        ("acquired", AnchorEvent::Acquired),
        ("write_sent", AnchorEvent::WriteSent),
        ("lost", AnchorEvent::Lost),
    ];

    /// What the editor's choice says (short: the select is a box among boxes; the row's
    /// sentence below it says the event in full).
    pub fn label(self) -> &'static str {
        match self {
            AnchorEvent::Acquired => "after a client acquires",
            AnchorEvent::WriteSent => "after a client writes",
            AnchorEvent::Lost => "after a client loses it",
        }
    }

    /// The event in a sentence's words, after the client's name: "client 1 acquires the
    /// lock".
    pub fn phrase(self) -> &'static str {
        match self {
            AnchorEvent::Acquired => "acquires the lock",
            AnchorEvent::WriteSent => "sends a write",
            AnchorEvent::Lost => "stops believing it holds the lock",
        }
    }
}

impl Anchor {
    /// Whether `event`, recorded on `node`, is one of the events this anchor counts: the
    /// client starting to believe it holds the lock, sending a write (or a conditional
    /// update) to storage, or ending its belief.
    pub fn is(&self, node: NodeId, event: &Event) -> bool {
        node == self.client
            && match (self.event, event) {
                (AnchorEvent::Acquired, Event::BeliefStarted { .. }) => true,
                // A write or a conditional update: the messages the drawing calls writes.
                (AnchorEvent::WriteSent, Event::Sent { msg, to, .. }) => {
                    *to == NodeId::Storage && msg.class() == "write"
                }
                (AnchorEvent::Lost, Event::BeliefEnded { .. }) => true,
                _ => false,
            }
    }
}

impl Anchor {
    /// The anchor in a sentence's words: "client 1 acquires the lock", "client 2 sends
    /// a write for the 2nd time".
    pub fn phrase(&self) -> String {
        let who = match self.client {
            NodeId::Client(i) => format!("client {}", u32::from(i) + 1),
            other => other.lane().to_string(),
        };
        let times = match self.nth {
            0 | 1 => String::new(),
            2 => " for the 2nd time".into(),
            3 => " for the 3rd time".into(),
            n => format!(" for the {n}th time"),
        };
        format!("{who} {}{times}", self.event.phrase())
    }
}

/// When a fault happened, or would have, in a finished run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultTime {
    /// At a true time the scenario gives.
    Fixed(i64),
    /// Its event happened at `event_ms`, so the fault came (or would have come) at `at_ms`.
    After { event_ms: i64, at_ms: i64 },
    /// Its event never happened in the run: the fault did not either.
    Never,
}

/// When `fault` happened in `trace`, the run of the scenario it belongs to.
pub fn when(fault: &Fault, trace: &Trace) -> FaultTime {
    let Some(anchor) = fault.after else {
        return FaultTime::Fixed(fault.at_ms);
    };
    anchor
        .time_in(trace)
        .map_or(FaultTime::Never, |event_ms| FaultTime::After {
            event_ms,
            at_ms: event_ms.saturating_add(fault.at_ms),
        })
}

impl Anchor {
    /// The true time of this anchor's event in `trace`, if it happened that many times.
    pub fn time_in(&self, trace: &Trace) -> Option<i64> {
        trace
            .entries
            .iter()
            .filter(|e| self.is(e.node, &e.event))
            .nth(self.nth.saturating_sub(1) as usize)
            .map(|e| e.t.0)
    }
}
