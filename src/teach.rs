//! Walkthroughs: short beats of narration keyed to events in the model, never to wall time.
//!
//! A beat names the event it waits for — its node, its kind, and the client it is about —
//! and is placed at the first such entry after the previous beat's. So a walkthrough follows
//! the run the model actually produced; if a change to the model moves or removes an event,
//! the library test finds the beat dangling and fails. The text is ours (the sources are
//! cited by name in the lessons' descriptions).

use crate::sim::node::NodeId;
use crate::trace::Trace;
use crate::trace_json::{about, kind};

/// The event a beat waits for.
#[derive(Clone, Copy, Debug)]
pub struct Trigger {
    pub node: NodeId,
    /// The event's kind tag (see `trace_json::kind`).
    pub kind: &'static str,
    /// The client the event is about, for events that name one.
    pub about: Option<NodeId>,
}

#[derive(Clone, Copy, Debug)]
pub struct Beat {
    pub on: Trigger,
    pub text: &'static str,
}

pub struct Walkthrough {
    /// A preset name or a library lesson id.
    pub scenario: &'static str,
    pub beats: &'static [Beat],
    /// "Break it yourself": a fault to try next.
    pub try_it: &'static str,
}

impl Walkthrough {
    /// The trace entry each beat lands on, in order; `None` for a beat whose event never
    /// comes (a dangling beat).
    pub fn locate(&self, trace: &Trace) -> Vec<Option<usize>> {
        let mut from = 0;
        self.beats
            .iter()
            .map(|b| {
                let hit = trace.entries[from..].iter().position(|e| {
                    e.node == b.on.node
                        && kind(&e.event) == b.on.kind
                        && (b.on.about.is_none() || about(&e.event) == b.on.about)
                });
                hit.map(|i| {
                    from += i + 1;
                    from - 1
                })
            })
            .collect()
    }
}

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);
const COORD: NodeId = NodeId::COORD;
const DB: NodeId = NodeId::Storage;

const fn on(node: NodeId, kind: &'static str) -> Trigger {
    Trigger {
        node,
        kind,
        about: None,
    }
}

const fn on_about(node: NodeId, kind: &'static str, client: NodeId) -> Trigger {
    Trigger {
        node,
        kind,
        about: Some(client),
    }
}

const fn beat(on: Trigger, text: &'static str) -> Beat {
    Beat { on, text }
}

const GRANT_1: Beat = beat(on_about(COORD, "lease_granted", C1), "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.");
const EXPIRE_1: Beat = beat(
    on_about(COORD, "lease_expired", C1),
    "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
);
const GRANT_2: Beat = beat(
    on_about(COORD, "lease_granted", C2),
    "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
);
const C2_WRITES: Beat = beat(
    on_about(DB, "write_accepted", C2),
    "Client 2 writes with token 34, as it should.",
);
const STALE_LANDS: Beat = beat(
    on_about(DB, "write_accepted", C1),
    "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
);

pub const WALKTHROUGHS: &[Walkthrough] = &[
    Walkthrough {
        scenario: "gc-pause",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "A stop-the-world garbage collection freezes client 1 in the middle of its job. Its code stops; its clock does not."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on(C1, "resumed"), "Client 1 wakes up. Its code never asks whether the lease survived the pause: it simply carries on."),
            STALE_LANDS,
        ],
        try_it: "Turn fencing on and watch storage refuse token 33, because it has already seen 34.",
    },
    Walkthrough {
        scenario: "check-then-write",
        beats: &[
            GRANT_1,
            beat(on(C1, "check_passed"), "Before writing, client 1 does the careful thing: it checks its lease. Fifteen seconds left. The check passes."),
            beat(on(C1, "paused"), "Then, in the instant between the check and the write, the process stalls for 25 s."),
            EXPIRE_1,
            GRANT_2,
            STALE_LANDS,
        ],
        try_it: "Make the pause shorter than the time left on the lease, then longer again: the check's answer is only as fresh as the moment it was given.",
    },
    Walkthrough {
        scenario: "delayed-write",
        beats: &[
            GRANT_1,
            beat(on(C1, "message_held"), "Client 1 sends its write while its lease is perfectly valid — but the network holds the packet."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Forty seconds late, the old packet arrives and overwrites the newer value. No client paused; a message outlived the lease that sent it."),
        ],
        try_it: "Switch fencing on: the late packet still arrives, and storage turns it away.",
    },
    Walkthrough {
        scenario: "ttl-shorter-than-work",
        beats: &[
            beat(on_about(COORD, "lease_granted", C1), "The migration runner takes a 10-minute lease for a job that needs 25."),
            beat(on_about(COORD, "lease_expired", C1), "Minute 10: the lease lapses while runner 1 is mid-backfill."),
            beat(on_about(COORD, "lease_granted", C2), "The scheduled second runner acquires the lock and starts the same migration."),
            beat(on_about(DB, "write_accepted", C1), "Both runners now change the same schema; each overwrites the other's steps."),
            beat(on_about(DB, "effect_performed", C1), "And both swap the tables: the migration has run twice."),
        ],
        try_it: "Try the watchdog fix, then the abort-on-loss fix, and compare how long the job takes in each.",
    },
    Walkthrough {
        scenario: "starved-renewal",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "A 20-second pause freezes the whole process — the job and its renewal watchdog with it."),
            EXPIRE_1,
            GRANT_2,
            beat(on(C1, "belief_ended"), "Client 1 wakes; its watchdog notices the lease is gone, but the job logs it and carries on."),
            STALE_LANDS,
        ],
        try_it: "Shorten the pause below the TTL: the watchdog keeps the lease alive. Lengthen it: no renewal interval can help.",
    },
    Walkthrough {
        scenario: "partition-duplicate-effects",
        beats: &[
            GRANT_1,
            beat(on(C1, "link_cut"), "A network change cuts client 1 off from the lock service — but not from the database."),
            EXPIRE_1,
            GRANT_2,
            beat(on(C1, "loss_ignored"), "Client 1 sees its session is gone. Its handler logs a warning and keeps going."),
            beat(on_about(DB, "effect_performed", C2), "The new holder sends the payment batch."),
            beat(on_about(DB, "effect_performed", C1), "Then the old one sends it again: duplicate payments."),
        ],
        try_it: "Heal the partition earlier, or switch the idempotency key on, and see which part of the damage each one prevents.",
    },
    Walkthrough {
        scenario: "slow-client-clock",
        beats: &[
            GRANT_1,
            EXPIRE_1,
            GRANT_2,
            beat(on(C1, "check_passed"), "Client 1 checks its lease on its own clock, which runs 20% slow: 28 s gone, 2 s left. The lock service's clock says 35."),
            STALE_LANDS,
        ],
        try_it: "Give client 1 a safety margin of 8 s and rerun: the same check now fails in time.",
    },
    Walkthrough {
        scenario: "coordinator-clock-jump",
        beats: &[
            GRANT_1,
            beat(on(COORD, "clock_jumped"), "An operator steps the lock server's clock 25 s forward."),
            beat(on_about(COORD, "lease_expired", C1), "The server expires leases by its wall clock, so client 1's lease ends 20 s early."),
            GRANT_2,
            beat(on(C1, "check_passed"), "Client 1's own clock is fine: its check says 15 s remain."),
            STALE_LANDS,
        ],
        try_it: "Make the server's expiry clock monotonic and jump it again.",
    },
    Walkthrough {
        scenario: "counter-reset",
        beats: &[
            GRANT_1,
            beat(on(COORD, "restarted"), "The lock server restarts. Its token counter lived in memory, so it starts again from 33."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 is granted token 33 — the same number client 1 holds."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and writes with 33. The fence rejects only lower tokens, and 33 is not lower than 33."),
        ],
        try_it: "Make the counter durable: client 2 gets 34 and the fence works again.",
    },
    Walkthrough {
        scenario: "random-id-fence",
        beats: &[
            GRANT_1,
            GRANT_2,
            beat(on_about(DB, "write_accepted", C2), "Client 2 writes, sending its random owner id where the token should go."),
            beat(on_about(DB, "write_accepted", C1), "Client 1's random id happens to be the larger number, so its stale write passes the fence."),
        ],
        try_it: "Change the seed: with other random ids the stale write is sometimes refused — which is worse, because it looks like it works.",
    },
    Walkthrough {
        scenario: "unguarded-path",
        beats: &[
            GRANT_1,
            GRANT_2,
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1's stale write to the audit log lands: that path never checks the token."),
            beat(on_about(DB, "write_rejected", C1), "Its write to the account row is refused — the fence works where it is enforced, and only there."),
        ],
        try_it: "Route the audit write through the fence as well.",
    },
    Walkthrough {
        scenario: "non-atomic-fence",
        beats: &[
            GRANT_1,
            GRANT_2,
            beat(on(C1, "resumed"), "Client 1 wakes just as client 2 is writing."),
            beat(on_about(DB, "write_accepted", C2), "Storage read the mark for both writes before either was applied; client 2's lands first."),
            beat(on_about(DB, "write_accepted", C1), "Client 1's stale write lands 2 ms later and pulls the mark back down to 33."),
        ],
        try_it: "Make the check atomic and the stale write is refused.",
    },
    Walkthrough {
        scenario: "volatile-fence",
        beats: &[
            GRANT_1,
            GRANT_2,
            C2_WRITES,
            beat(on(DB, "restarted"), "Storage restarts and forgets the highest token it had seen: the mark lived only in memory."),
            STALE_LANDS,
        ],
        try_it: "Keep the mark durable and restart storage again.",
    },
    Walkthrough {
        scenario: "unfenceable-effect",
        beats: &[
            GRANT_1,
            GRANT_2,
            beat(on_about(DB, "effect_performed", C2), "Client 2 sends the confirmation email."),
            beat(on_about(DB, "effect_performed", C1), "Client 1 wakes and sends it again. No token can guard an inbox."),
        ],
        try_it: "Turn on the idempotency key: the second email is dropped by the service that sends it.",
    },
    Walkthrough {
        scenario: "coordinator-unreachable",
        beats: &[
            beat(on(C1, "link_cut"), "Both workers are cut off from the lock service."),
            beat(on(C1, "failed_open"), "Client 1 gives up waiting and fails open: it runs without a lock."),
            beat(on(C2, "failed_open"), "So does client 2."),
            beat(on_about(DB, "effect_performed", C2), "The nightly report goes out twice."),
        ],
        try_it: "Fail closed instead: nothing is duplicated, and nothing runs at all. Decide per job which cost you can bear.",
    },
    Walkthrough {
        scenario: "reordered-retry",
        beats: &[
            GRANT_1,
            beat(on(C1, "message_held"), "Client 1's write is held up in the network; after a second it retries."),
            beat(on_about(DB, "write_accepted", C1), "The retry lands, client 1 finishes and releases the lock."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 takes the lock with token 34."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Then the first copy of client 1's write arrives and replaces client 2's value."),
        ],
        try_it: "Switch fencing on: the late copy carries token 33 and is refused.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{library, preset};
    use crate::sim::simulate;

    #[test]
    fn every_beat_lands_on_its_event_in_order() {
        for w in WALKTHROUGHS {
            let sc = preset(w.scenario)
                .map(|p| p.scenario())
                .or_else(|| library::find(w.scenario))
                .unwrap_or_else(|| panic!("no scenario {}", w.scenario));
            let trace = simulate(&sc).unwrap();
            let at = w.locate(&trace);
            for (b, hit) in w.beats.iter().zip(&at) {
                assert!(
                    hit.is_some(),
                    "{}: dangling beat {:?}: {}",
                    w.scenario,
                    b.on,
                    b.text
                );
            }
            assert!(
                at.windows(2).all(|p| p[0] < p[1]),
                "{}: beats out of order",
                w.scenario
            );
        }
    }

    #[test]
    fn every_lesson_and_the_default_have_a_walkthrough() {
        for id in library::LESSONS.iter().map(|l| l.id).chain(["gc-pause"]) {
            assert!(
                WALKTHROUGHS.iter().any(|w| w.scenario == id),
                "{id} has no walkthrough"
            );
        }
    }
}
