//! How a handler talks to the run loop: its context, its commands, its timers.
//!
//! Who is in a run is [`crate::vocab::ids`]; what nodes say to each other is
//! [`crate::model::msg`].
//!
//! Handlers are *sans-I/O* (as in stateright): a node's `on_message` / `on_timer` never
//! sends, sleeps or reads a clock itself. It reads its own clock from [`Ctx::now`], and
//! pushes [`Cmd`]s — send this, wake me at local time X, note this in the trace — that the
//! run loop carries out. That keeps each handler a small, testable function of
//! (state, input) and keeps true time out of every node's reach.

use super::rng::Rng;
use crate::model::msg::Msg;
use crate::vocab::ids::NodeId;

/// A timer a node asked for; it comes back to the same node's `on_timer`.
/// `gen` lets a handler ignore a timer that belongs to an operation it has moved past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerKind {
    /// Client: the current work step is done.
    WorkDone { gen: u32 },
    /// Client: no reply to the current request in time.
    RequestTimeout { gen: u32 },
    /// Client: try the acquire again.
    RetryAcquire { gen: u32 },
    /// Client: the renewal watchdog's tick.
    RenewTick { gen: u32 },
    /// Coordinator: the lease of this epoch may have run out.
    Expire { epoch: u32 },
    /// Coordinator: a lock-delay may be over.
    LockDelayOver,
    /// Storage: a non-atomic write finally lands.
    ApplyWrite { id: u32 },
}

/// What a handler asks the run loop to do.
#[derive(Clone, Debug)]
pub enum Cmd {
    Send {
        to: NodeId,
        msg: Msg,
    },
    /// Wake this node when its own timer clock reads `at_local`.
    Timer {
        at_local: i64,
        kind: TimerKind,
    },
    Note(crate::model::trace::Event),
}

/// A handler's window on the world: its own clock's reading, the run's random stream, and
/// the buffer its commands go to.
pub struct Ctx<'a> {
    /// The node's timer-clock reading now (local ms).
    pub now: i64,
    pub rng: &'a mut Rng,
    pub out: Vec<Cmd>,
}

impl<'a> Ctx<'a> {
    pub fn new(now: i64, rng: &'a mut Rng) -> Ctx<'a> {
        Ctx {
            now,
            rng,
            out: Vec::new(),
        }
    }

    pub fn send(&mut self, to: NodeId, msg: Msg) {
        self.out.push(Cmd::Send { to, msg });
    }

    pub fn timer_at(&mut self, at_local: i64, kind: TimerKind) {
        self.out.push(Cmd::Timer { at_local, kind });
    }

    pub fn timer_in(&mut self, after_ms: i64, kind: TimerKind) {
        self.timer_at(self.now.saturating_add(after_ms), kind);
    }

    pub fn note(&mut self, event: crate::model::trace::Event) {
        self.out.push(Cmd::Note(event));
    }
}
