//! Walkthroughs: short beats of narration keyed to events in the model, never to wall time.
//!
//! A beat names the event it waits for — its node, its kind, and the client it is about —
//! and is placed at the first such entry after the previous beat's. So a walkthrough follows
//! the run the model actually produced; if a change to the model moves or removes an event,
//! the library test finds the beat dangling and fails. The text is ours (the sources are
//! cited by name in the lessons' descriptions).
//!
//! A beat's text is a template whose numbers are read from the run it annotates, at the
//! entry it landed on (`{token}`, `{pause_s}`, …: see [`crate::teach::facts`]). After an
//! edit a beat quotes the edited run; a beat whose claim the edited run no longer bears
//! out is hidden, like a beat whose event never comes ([`Walkthrough::place`]).

use crate::model::trace::json::{about, kind};
use crate::model::trace::Trace;
use crate::teach::facts::Facts;
use crate::vocab::ids::NodeId;

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
    /// A template: its `{placeholders}` are filled from the run ([`Walkthrough::text`]).
    pub text: &'static str,
}

pub struct Walkthrough {
    /// A preset name or a library lesson id.
    pub scenario: &'static str,
    pub beats: &'static [Beat],
    /// "Break it yourself": a fault to try next (a template, like a beat's text).
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

    /// Where each beat is told in this run: [`locate`](Self::locate), then `None` also for
    /// a beat whose event comes but whose text states a fact this run does not have there
    /// (client 2 is no longer given the same token; the clock is no longer slow). A hidden
    /// beat still anchors the search for the next one, as its event did happen.
    pub fn place(&self, run: &Facts) -> Vec<Option<usize>> {
        self.locate(run.trace)
            .into_iter()
            .zip(self.beats)
            .map(|(at, b)| at.filter(|&i| run.fits(b.text, i)))
            .collect()
    }

    /// Beat `b`'s text with the numbers of the entry `at` it landed on.
    pub fn text(&self, b: usize, at: usize, run: &Facts) -> Option<String> {
        run.fill(self.beats.get(b)?.text, at)
    }

    /// Reads the text of every beat [`place`](Self::place) kept, and drops it: what a text
    /// is slow to read (the tail's share, which [`tail::share`](super::tail::share)
    /// remembers) is then ready before the reader reaches the beat. The page calls it
    /// after drawing the run, so the drawing does not wait for it.
    pub fn prepare(&self, placed: &[Option<usize>], run: &Facts) {
        for (b, at) in placed.iter().enumerate() {
            if let Some(at) = *at {
                let _ = self.text(b, at, run);
            }
        }
    }

    /// "Break it yourself" with this run's numbers (`None` if they are not in the run).
    pub fn try_it_text(&self, run: &Facts) -> Option<String> {
        run.fill(self.try_it, 0)
    }
}

pub(super) const C1: NodeId = NodeId::Client(0);
pub(super) const C2: NodeId = NodeId::Client(1);
const C3: NodeId = NodeId::Client(2);
pub(super) const COORD: NodeId = NodeId::COORD;
pub(super) const DB: NodeId = NodeId::Storage;

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

const GRANT_1: Beat = beat(on_about(COORD, "lease_granted", C1), "Client 1 asks for the lock and gets a lease with fencing token {token}. From this moment it believes the lock is its own.");
const EXPIRE_1: Beat = beat(
    on_about(COORD, "lease_expired", C1),
    "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
);
const GRANT_2: Beat = beat(
    on_about(COORD, "lease_granted", C2),
    "Client 2, waiting in line, gets the lock with token {token}. Two clients now believe they hold one lock — the band on the diagram.",
);
const C2_WRITES: Beat = beat(
    on_about(DB, "write_accepted", C2),
    "Client 2 writes with token {token}, as it should.",
);
const STALE_LANDS: Beat = beat(
    on_about(DB, "write_accepted", C1),
    "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
);

/// The default page's walkthrough, on its own: the first-load build (`lite`) carries only
/// this one (see [`WALKTHROUGHS`]).
pub const GC_PAUSE: Walkthrough = Walkthrough {
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
    try_it: "{if_unfenced}Press “Fix it: Storage checks the fencing token” to open the fenced run, and watch storage refuse token {c1_token}, because it has already seen {c2_token}.",
};

pub const WALKTHROUGHS: &[Walkthrough] = &[
    GC_PAUSE,
    Walkthrough {
        scenario: "session-checks-tradeoff",
        beats: &[
            GRANT_1,
            beat(on(COORD, "session_invalidated"), "{if_health_checks}Gossip wrongly reports client 1's node as dead, and the health check tied to its session goes critical. Consul ends the session and releases the lock while client 1 is still at work."),
            beat(on(COORD, "lock_delayed"), "Consul holds the lock back for the lock-delay, in case the old holder notices in time."),
            beat(on(C1, "belief_ended"), "Client 1's next renewal is refused, so it could know. Its code never acts on the loss: the job works on."),
            beat(on_about(COORD, "lease_granted", C2), "The lock-delay is over: client 2 gets the lock with token {token}."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1's job reaches its write, with token {token}, and it lands over client 2's. The lock-delay held client 2 off for a while; the job ran longer."),
            beat(on(C1, "paused"), "Then client 1 hangs. Here that costs nothing more: the lock is client 2's already. With a session that has no health check, the same hang is what the lock pays for the false positive it no longer has."),
        ],
        try_it: "Open the session with no health checks: the false positive ends nothing, client 1 writes as the only holder, and when it hangs client 2 waits for its TTL to run out and the lock-delay after it. Then the one with no TTL either: client 2 never gets the lock. Keeping the checks and fencing the write trades neither.",
    },
    Walkthrough {
        scenario: "vm-migration-pause",
        beats: &[
            GRANT_1,
            // Told only while the run's pause is still a migration: an edited cause keeps the
            // run and changes the story, so this beat gives way to the narration's own words.
            beat(on(C1, "paused"), "{if_cause_vm_migration}The hypervisor is moving client 1's VM to another host. For the last copy of its memory it stops the VM: for {pause_s} s no thread of client 1 runs, the job's or any other. Nothing inside the VM can notice."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on(C1, "resumed"), "The VM runs again on its new host, and client 1's threads carry on from where they stopped. Nothing tells them that time has passed, and the job does not ask: its next step is the write."),
            beat(on_about(DB, "write_accepted", C1), "Client 1's write with token {token} lands over client 2's. A GC pause, CPU starvation, paging or a SIGSTOP would end the same way: any stall longer than the lease does. No margin on the lease bounds a stall the hypervisor decides; storage that checks the token stops the write whatever froze the client."),
        ],
        try_it: "{if_unfenced}Press “Fix it: Storage checks the fencing token”: the VM stops for just as long, and storage refuses token {c1_token} because it has seen {c2_token}. Then change the pause's cause in the editor to CPU starvation or SIGSTOP: the run is the same, only what the pause is called changes.",
    },
    Walkthrough {
        scenario: "check-then-write",
        beats: &[
            GRANT_1,
            beat(on(C1, "check_passed"), "Before writing, client 1 does the careful thing: it checks its lease. {left_words} left. The check passes."),
            beat(on(C1, "paused"), "Then, in the instant between the check and the write, the process stalls for {pause_s} s."),
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
            beat(on(C1, "sent"), "At {t_s} s client 1 sends its write, while its lease is perfectly valid — but the network holds the packet: it will arrive {write_flight_s} s later."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "{held_words} late, the old packet arrives and overwrites the newer value. No client paused; a message outlived the lease that sent it."),
        ],
        try_it: "{if_unfenced}Press “Fix it: Storage checks the fencing token”: the late packet still arrives, and storage turns it away.",
    },
    Walkthrough {
        scenario: "ttl-shorter-than-work",
        beats: &[
            beat(on_about(COORD, "lease_granted", C1), "The migration runner takes a {ttl_min}-minute lease for a job that needs {work_min}."),
            beat(on_about(COORD, "lease_expired", C1), "Minute {t_min}: the lease lapses while runner 1 is mid-backfill."),
            beat(on_about(COORD, "lease_granted", C2), "The scheduled second runner acquires the lock and starts the same migration."),
            beat(on_about(DB, "write_accepted", C1), "Both runners now change the same schema; each overwrites the other's steps."),
            beat(on_about(DB, "effect_performed", C1), "And both swap the tables: the migration has run twice."),
        ],
        try_it: "Try both fixes, renewing while working and stopping when the lock is lost, and compare how long the job takes in each. With the watchdog, runner 2 still repeats its steps over the finished schema: the model has no step that resumes where runner 1 stopped, so repeating is harmless only if every step can be redone.",
    },
    Walkthrough {
        scenario: "starved-renewal",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "A {pause_s}-second pause freezes the whole process — the job and its renewal watchdog with it. In the Redisson report only the watchdog thread was starved of CPU; here the whole client stands in for it, and either way no renewal goes out."),
            EXPIRE_1,
            GRANT_2,
            beat(on(C1, "belief_ended"), "Client 1 wakes. Its watchdog's tick fell due first, so it runs first and sees that the lease is gone."),
            beat(on(C1, "loss_ignored"), "The job's policy on a lost lease is to log it and carry on: the loss is known, and nothing acts on it."),
            beat(on_about(DB, "write_accepted", C1), "So client 1's write with token {token} lands and replaces client 2's value. The log line is all that marks it."),
        ],
        try_it: "Make the pause shorter than the {c1_left_at_pause_s} s left on the lease when it began: the watchdog's next renewal arrives in time. Lengthen it: no renewal interval can help.",
    },
    Walkthrough {
        scenario: "partition-duplicate-effects",
        beats: &[
            GRANT_1,
            beat(on(C1, "link_cut"), "A network change cuts client 1 off from the lock service — but not from the database."),
            EXPIRE_1,
            // Not GRANT_2: client 1's watchdog sees the same deadline pass as client 2 is
            // granted, so no two clients believe at once — the harm comes from acting anyway.
            beat(on_about(COORD, "lease_granted", C2), "Client 2, waiting in line, gets the lock with token {token}."),
            beat(on(C1, "loss_ignored"), "Client 1 sees its session is gone. Its handler logs a warning and keeps going."),
            beat(on_about(DB, "effect_performed", C2), "The new holder sends the payment batch."),
            beat(on_about(DB, "effect_performed", C1), "Then the old one sends it again: duplicate payments."),
        ],
        try_it: "Heal the partition earlier, or switch the idempotency key on, and see which part of the damage each one prevents.",
    },
    Walkthrough {
        scenario: "watch-reachability",
        beats: &[
            GRANT_1,
            beat(on(C1, "link_cut"), "A network change cuts client 1 off from the lock service, but not from storage. From now on the service cannot tell client 1 anything, not even that its lease has ended."),
            beat(on(C1, "dropped"), "Client 1's watchdog sends its renewal, and the cut swallows it. No error comes back, only silence: silence is all client 1 can notice."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1's write with token {token} lands over client 2's. Client 1 does watch: its watchdog gives the lock up once its own count of the lease runs out. But it counts from when each reply arrived, a moment after the service began its count, and it looks only when a renewal falls due. Its count ran out after the service's, and nothing looked before the write."),
        ],
        try_it: "Open the fix that counts from when each renewal left and trusts the lease a second less: the watchdog's look finds that count run out, and the job stops before the service frees the lock. Then pause client 1 for a couple of seconds just after the cut: the watchdog's looks move with the pause, the write comes before the next one, and it lands. Storage that checks the token refuses it however late client 1 notices.",
    },
    Walkthrough {
        scenario: "slow-client-clock",
        beats: &[
            GRANT_1,
            EXPIRE_1,
            GRANT_2,
            beat(on(C1, "check_passed"), "Client 1 checks its lease on its own clock, which runs {drift}: {gone_s} s gone, {left_s} s left. The lock service's clock says {coord_clock_s}."),
            STALE_LANDS,
        ],
        try_it: "Open the fix that trusts the lease 10 s less, counted from the request: the same check now fails, and the stale write is never sent. Both clients still hold the lock in their minds for 5 s first: client 1 looks at its lease only when it checks.",
    },
    Walkthrough {
        scenario: "coordinator-clock-jump",
        beats: &[
            GRANT_1,
            beat(on(COORD, "clock_jumped"), "An operator steps the lock service's clock {jump}."),
            beat(on_about(COORD, "lease_expired", C1), "The lock service expires leases by its wall clock, so client 1's lease ends {early_s} s early."),
            GRANT_2,
            beat(on(C1, "check_passed"), "Client 1's own clock is fine: its check says {left_s} s remain."),
            STALE_LANDS,
        ],
        try_it: "Make the lock service's expiry clock monotonic and jump it again.",
    },
    Walkthrough {
        scenario: "counter-reset",
        beats: &[
            GRANT_1,
            beat(on(COORD, "restarted"), "The lock service restarts. Its token counter lived in memory, so it starts again from {reset_token}."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 is granted token {tied_token} — the same number client 1 holds."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and writes with {token}. The fence rejects only lower tokens, and {token} is not lower than {mark_before}."),
        ],
        try_it: "Make the counter durable: client 2 gets {c1_next} and the fence works again.",
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
        scenario: "token-wrong-resource",
        beats: &[
            beat(on(DB, "resource_declared"), "{if_mark_per_key}The lock protects account 42, and storage keeps the account as two keys, its balance and its history. Its fence remembers the highest token it has accepted per key, not per account."),
            GRANT_1,
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s, before it has written anything."),
            EXPIRE_1,
            GRANT_2,
            beat(on_about(DB, "write_accepted", C2), "Client 2 writes the balance with token {token}. The balance key's mark is now {token}; the history key still has none."),
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and writes its deposit to the history with token {token}. That key has no mark to compare with, so the fence lets the write in, though client 2 holds the lock for the whole account and has written to it."),
            beat(on_about(DB, "write_rejected", C1), "Its balance write is refused: {token} is below the balance key's mark, {mark_before}. The account is left half-changed: a deposit in its history that its balance never got."),
        ],
        try_it: "{if_mark_per_key}Open the fix: storage keeps one mark for the account, so client 1's write to the history meets token {c2_token} and is refused too.",
    },
    Walkthrough {
        scenario: "non-atomic-fence",
        beats: &[
            GRANT_1,
            GRANT_2,
            beat(on(C1, "resumed"), "Client 1 wakes just as client 2 is writing."),
            beat(on_about(DB, "write_accepted", C2), "Storage read the mark for both writes before either was applied; client 2's lands first."),
            beat(on_about(DB, "write_accepted", C1), "Client 1's stale write lands {gap_ms} ms later and pulls the mark back down to {mark_down}."),
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
        try_it: "{if_no_idempotency}Turn on the idempotency key: the second email is dropped by the service that sends it.",
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
            beat(on(C1, "message_held"), "Client 1's write is held up in the network; after {retry_words} it retries."),
            beat(on_about(DB, "write_accepted", C1), "The retry lands, client 1 finishes and releases the lock."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 takes the lock with token {token}."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Then the first copy of client 1's write arrives and replaces client 2's value."),
        ],
        try_it: "{if_unfenced}Press “Fix it: Storage checks the fencing token”: the late copy carries token {c1_token} and is refused.",
    },
    Walkthrough {
        scenario: "permanent-lock",
        beats: &[
            beat(on_about(COORD, "lease_granted", C1), "Client 1 takes the lock with token {token}. It never expires: only client 1's release can free it."),
            beat(on_about(COORD, "request_queued", C2), "Client 2 asks for the lock and waits in line."),
            beat(on(C1, "paused"), "Client 1 hangs. To everyone else it might as well have crashed, and it will never send its release. Client 2 waits for the rest of the run: safe, and nothing gets done."),
        ],
        try_it: "Open the fix: with a 10 s lease the lock service frees the lock and client 2 gets its turn. If client 1 ever woke, it would be the stale holder of the earlier lessons.",
    },
    Walkthrough {
        scenario: "idempotent-job",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s in the middle of its job."),
            EXPIRE_1,
            GRANT_2,
            beat(on_about(DB, "effect_performed", C2), "Client 2 rebuilds the search index for the day."),
            beat(on_about(DB, "effect_deduplicated", C1), "Client 1 wakes and rebuilds it again. The index service has already built this day and ignores the repeat: one wasted rebuild, nothing corrupted. No fix is needed here: this lock only saves work."),
        ],
        try_it: "Open the variant where the job is not idempotent: the same two holders now do the work twice.",
    },
    Walkthrough {
        scenario: "silent-renewal-failure",
        beats: &[
            GRANT_1,
            beat(on(COORD, "renewals_failing"), "From here the lock service drops renewals without answering, as it would after an expired credential or a lost keepalive."),
            beat(on_about(COORD, "renewal_dropped", C1), "Client 1's renewal goes out and nothing comes back. No error either: the watchdog just waits for its next tick."),
            EXPIRE_1,
            beat(on_about(COORD, "lease_granted", C2), "Client 2, waiting in line, gets the lock with token {token}."),
            beat(on(C1, "loss_ignored"), "Client 1's watchdog sees its deadline pass with no renewal answered. The job logs it and carries on."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1's write with token {token} lands over client 2's. The failure was in the log, and nothing acted on it."),
        ],
        try_it: "Try the fix that stops the job when the renewals stop, and compare it with fencing.",
    },
    Walkthrough {
        scenario: "progress-heartbeat",
        beats: &[
            beat(on_about(COORD, "lease_granted", C1), "Client 1 takes the lock with token {token}. Its library starts a watchdog thread that renews the lease on a timer, whatever the job is doing."),
            beat(on_about(DB, "write_accepted", C1), "Part 1 of the export is written. Part 2 begins with a call to another service, and the call hangs: the job's thread waits on it and does nothing else."),
            beat(on_about(COORD, "lease_renewed", C1), "The watchdog renews the lease, and goes on renewing. It is a thread of its own and it is fine: a renewal says the process lives, and nothing about whether the job has moved since the last one."),
            beat(on(C2, "job_aborted"), "Client 2 has been refused at every try, and gives up: its work never runs. The lock service cannot tell a stuck holder from a slow one, since all the watchdog tells it is that the process is alive."),
            beat(on_about(DB, "write_accepted", C1), "At {t_s} s the hung call returns and part 2 is written. Had it never returned, the watchdog would have renewed for as long as the process ran, and nobody would ever get the lock: the lock without a lease, back again."),
        ],
        try_it: "Press “Fix it: Renew after each part, and fence the writes”: the renewals stop while part 2 hangs, the lease lapses, client 2 takes the lock, and storage refuses client 1's late write when the call returns. Then compare the same renewals without a fence, and a part 2 that is only slow.",
    },
    Walkthrough {
        scenario: "reacquire-after-loss",
        beats: &[
            GRANT_1,
            beat(on_about(DB, "effect_performed", C1), "Client 1 sends the invoice for order 42. Its next step marks the order invoiced."),
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s, its watchdog with it."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on(C1, "belief_ended"), "Client 1 wakes. Its watchdog's tick fell due first, and it sees the lease gone: client 1 knows. What it does next is its policy on a loss."),
            beat(on(C1, "loss_ignored"), "This job's policy is to log the loss and carry on with the next step."),
            beat(on_about(DB, "write_accepted", C1), "So its write with token {token} lands over client 2's. Knowing was not enough: the job had to act on it."),
        ],
        try_it: "Open the other policies. Give up: safe, and the order is left invoiced but never marked so. Take the lock again: client 1 runs its job again from the acquire, so the invoice goes out twice. Take it again with an idempotency key on the invoice and a fence on the write: the second run is harmless.",
    },
    Walkthrough {
        scenario: "tail-latency",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "This run's scenario sets one pause from the tail: {pause_s} s, longer than the lease has left."),
            EXPIRE_1,
            beat(on_about(COORD, "lease_granted", C2), "Client 2, waiting in line, gets the lock with token {token}."),
            C2_WRITES,
            beat(on_about(DB, "write_accepted", C1), "Client 1's write with token {token} lands over client 2's. How often? The same scenario under {tail_runs} seeds, pauses drawn from one distribution whose p99 is {tail_p99_s} s: {tail_unsafe} runs ended unsafe, {tail_pct} %. A TTL above the p99 still leaves the tail to chance."),
        ],
        try_it: "Open the fix: with fencing no seed ends unsafe, however long the pause.",
    },
    Walkthrough {
        scenario: "stop-and-resume",
        beats: &[
            beat(on(C1, "link_cut"), "Both workers of the nightly job are cut off from the lock service."),
            beat(on(C1, "job_aborted"), "Client 1 tries three times and fails closed: it stops."),
            beat(on(C2, "job_aborted"), "So does client 2. Safe, and the night's report never goes out."),
        ],
        try_it: "Open the fix that waits and resumes: the same outage, and the report goes out once the lock service is back.",
    },
    Walkthrough {
        scenario: "release-lost",
        beats: &[
            GRANT_1,
            beat(on(C1, "link_cut"), "A network change cuts client 1 off from the lock service, but not from storage."),
            beat(on_about(DB, "write_accepted", C1), "Client 1's write lands, well inside its lease."),
            beat(on(C1, "belief_ended"), "Client 1 sends its release and moves on. The release is lost in the cut."),
            beat(on_about(COORD, "request_queued", C2), "Client 2 asks for the lock and is queued behind a holder that is already done."),
            beat(on_about(COORD, "lease_expired", C1), "Only now, when the lease runs out, is the lock free: the lock service cannot tell a finished holder from a slow one."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 gets the lock with token {token}. Safe, and slow: a lease whose holder vanishes makes everyone wait out its TTL."),
        ],
        try_it: "Try the shorter lease: the wait shrinks, and so does the time a slow holder may take.",
    },
    Walkthrough {
        scenario: "random-value-release",
        beats: &[
            beat(on_about(COORD, "lease_granted", C1), "Client 1 takes the Redis lock with SET NX and a random value only it knows."),
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s, longer than its TTL."),
            beat(on_about(COORD, "lease_expired", C1), "Redis expires the key. Nobody tells client 1."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2, retrying, takes the lock with its own random value."),
            beat(on_about(DB, "write_accepted", C2), "Client 2 writes."),
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and writes over it. The random value never reaches storage: it names a holder, it does not order writes."),
            beat(on_about(COORD, "release_refused", C1), "Its release is refused: the script deletes the key only if the value is still client 1's, so client 2 keeps its lock. That is what the random value is for in the Redis docs' recipe: a safe release. Storage here never sees it, so it stops no write (antirez 2016 would have the resource check it; Kleppmann 2016 wants a token storage can order)."),
        ],
        try_it: "Open the fix: a lock service that issues tokens, and storage that refuses a lower one.",
    },
    Walkthrough {
        scenario: "restore-from-backup",
        beats: &[
            GRANT_1,
            beat(on_about(DB, "write_accepted", C1), "Client 1 writes with token {token} and releases."),
            beat(on_about(COORD, "lease_granted", C2), "Client 2 takes the lock with token {token}."),
            beat(on_about(DB, "write_accepted", C2), "Client 2 writes with {token}. From now on storage refuses anything lower."),
            beat(on(COORD, "restarted"), "The lock service is restored from a backup taken before these grants. Its counter goes back to {reset_token}."),
            beat(on_about(COORD, "lease_granted", C3), "Client 3 is granted token {token}: a number already spent."),
            beat(on_about(DB, "write_rejected", C3), "Client 3 is the rightful holder, and storage refuses it: {token} is below {mark_before}. A reused token blocks the honest holder, as here, or lets a stale one through, as in the counter-reset lesson."),
        ],
        try_it: "Open the fix: the counter survives the restore, client 3 gets a new token and its write lands.",
    },
    Walkthrough {
        scenario: "exact-fence",
        beats: &[
            GRANT_1,
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s."),
            EXPIRE_1,
            GRANT_2,
            C2_WRITES,
            beat(on(DB, "restarted"), "The write path's process restarts. The highest revision it had seen lived in its memory, and is gone."),
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and its write with revision {token} lands: nothing remembers {c2_token}. etcd does: its lock gives each contender a key of its own under the lock prefix, client 1's went with its lease, and the owner is now client 2's key, created at revision {c2_token}. The fix asks etcd."),
        ],
        try_it: "Open the fix: one transaction checks that client 1's own key still exists with create revision {c1_token}, and refuses the write because it does not, with no mark of its own to forget.",
    },
    Walkthrough {
        scenario: "unique-constraint",
        beats: &[
            GRANT_1,
            GRANT_2,
            beat(on_about(DB, "effect_performed", C2), "Client 2 inserts the shipment row for order 42."),
            beat(on_about(DB, "effect_performed", C1), "Client 1 wakes and inserts a second one. Nothing in the insert carries a token, and nothing refuses it: two parcels for one order."),
        ],
        try_it: "Add the unique index on the order id: the database refuses the second insert, whoever sends it.",
    },
    Walkthrough {
        scenario: "conditional-write",
        beats: &[
            GRANT_1,
            beat(on_about(DB, "read_served", C1), "Client 1 reads order 42's ledger, still empty, at version 0, and starts working out its entry."),
            beat(on(C1, "paused"), "Client 1 freezes for {pause_s} s before it writes back."),
            EXPIRE_1,
            GRANT_2,
            beat(on_about(DB, "read_served", C2), "Client 2 reads the same ledger, also at version 0."),
            beat(on_about(DB, "write_accepted", C2), "Client 2 writes the ledger back with its entry, +30 (c2), and releases the lock."),
            beat(on_about(DB, "write_accepted", C1), "Client 1 wakes and writes back what it read plus its own entry, +50 (c1). Storage takes it: client 2's entry is gone, a lost update. As in Check, then write, nothing between client 1's read and its write noticed the lock had passed on."),
        ],
        try_it: "Open the fix: no lock at all. Each write carries the version its client read and lands only if the ledger is still there; client 1's is refused, and it reads again and adds its entry to client 2's.",
    },
];

/// The walkthrough's text before its first beat.
pub const INTRO: &str =
    "Follow the story one beat at a time with Next, or press Play and the beats follow the run.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;
    use crate::teach::library;
    use crate::teach::presets::preset;

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

#[cfg(test)]
mod fill_tests {
    //! Every number a beat quotes comes from the run: the stock runs read as they always
    //! did, and edited runs quote their own numbers or hide the beat.
    use super::*;
    use crate::analysis::projection::Projection;
    use crate::model::scenario::{Durability, FaultKind, Scenario};
    use crate::model::sim::simulate;
    use crate::teach::course;

    /// Each beat as told on `sc` (`None`: hidden), and "Break it yourself".
    fn told(name: &str, sc: &Scenario) -> (Vec<Option<String>>, Option<String>) {
        let w = course::walkthrough(name).unwrap();
        let trace = simulate(sc).unwrap();
        let projection = Projection::new(&trace);
        let run = Facts::new(&trace, sc, &projection, crate::model::sim::run);
        let texts = w
            .place(&run)
            .iter()
            .enumerate()
            .map(|(b, at)| at.and_then(|i| w.text(b, i, &run)))
            .collect();
        (texts, w.try_it_text(&run))
    }

    fn stock(name: &str) -> Scenario {
        course::open(name).unwrap()
    }

    /// The texts as the stock runs tell them, written out in full: what the beats'
    /// placeholders must fill in to on each lesson's own scenario.
    const TODAY: &[(&str, &[&str], &str)] = &[
    (
        "gc-pause",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "A stop-the-world garbage collection freezes client 1 in the middle of its job. Its code stops; its clock does not.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Client 1 wakes up. Its code never asks whether the lease survived the pause: it simply carries on.",
            "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
        ],
        "Press “Fix it: Storage checks the fencing token” to open the fenced run, and watch storage refuse token 33, because it has already seen 34.",
    ),
    (
        "session-checks-tradeoff",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 1. From this moment it believes the lock is its own.",
            "Gossip wrongly reports client 1's node as dead, and the health check tied to its session goes critical. Consul ends the session and releases the lock while client 1 is still at work.",
            "Consul holds the lock back for the lock-delay, in case the old holder notices in time.",
            "Client 1's next renewal is refused, so it could know. Its code never acts on the loss: the job works on.",
            "The lock-delay is over: client 2 gets the lock with token 2.",
            "Client 2 writes with token 2, as it should.",
            "Client 1's job reaches its write, with token 1, and it lands over client 2's. The lock-delay held client 2 off for a while; the job ran longer.",
            "Then client 1 hangs. Here that costs nothing more: the lock is client 2's already. With a session that has no health check, the same hang is what the lock pays for the false positive it no longer has.",
        ],
        "Open the session with no health checks: the false positive ends nothing, client 1 writes as the only holder, and when it hangs client 2 waits for its TTL to run out and the lock-delay after it. Then the one with no TTL either: client 2 never gets the lock. Keeping the checks and fencing the write trades neither.",
    ),
    (
        "vm-migration-pause",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "The hypervisor is moving client 1's VM to another host. For the last copy of its memory it stops the VM: for 20 s no thread of client 1 runs, the job's or any other. Nothing inside the VM can notice.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "The VM runs again on its new host, and client 1's threads carry on from where they stopped. Nothing tells them that time has passed, and the job does not ask: its next step is the write.",
            "Client 1's write with token 33 lands over client 2's. A GC pause, CPU starvation, paging or a SIGSTOP would end the same way: any stall longer than the lease does. No margin on the lease bounds a stall the hypervisor decides; storage that checks the token stops the write whatever froze the client.",
        ],
        "Press “Fix it: Storage checks the fencing token”: the VM stops for just as long, and storage refuses token 33 because it has seen 34. Then change the pause's cause in the editor to CPU starvation or SIGSTOP: the run is the same, only what the pause is called changes.",
    ),
    (
        "check-then-write",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Before writing, client 1 does the careful thing: it checks its lease. Fifteen seconds left. The check passes.",
            "Then, in the instant between the check and the write, the process stalls for 25 s.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
        ],
        "Make the pause shorter than the time left on the lease, then longer again: the check's answer is only as fresh as the moment it was given.",
    ),
    (
        "delayed-write",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "At 5 s client 1 sends its write, while its lease is perfectly valid — but the network holds the packet: it will arrive 40 s later.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Forty seconds late, the old packet arrives and overwrites the newer value. No client paused; a message outlived the lease that sent it.",
        ],
        "Press “Fix it: Storage checks the fencing token”: the late packet still arrives, and storage turns it away.",
    ),
    (
        "ttl-shorter-than-work",
        &[
            "The migration runner takes a 10-minute lease for a job that needs 25.",
            "Minute 10: the lease lapses while runner 1 is mid-backfill.",
            "The scheduled second runner acquires the lock and starts the same migration.",
            "Both runners now change the same schema; each overwrites the other's steps.",
            "And both swap the tables: the migration has run twice.",
        ],
        "Try both fixes, renewing while working and stopping when the lock is lost, and compare how long the job takes in each. With the watchdog, runner 2 still repeats its steps over the finished schema: the model has no step that resumes where runner 1 stopped, so repeating is harmless only if every step can be redone.",
    ),
    (
        "starved-renewal",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "A 20-second pause freezes the whole process — the job and its renewal watchdog with it. In the Redisson report only the watchdog thread was starved of CPU; here the whole client stands in for it, and either way no renewal goes out.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 1 wakes. Its watchdog's tick fell due first, so it runs first and sees that the lease is gone.",
            "The job's policy on a lost lease is to log it and carry on: the loss is known, and nothing acts on it.",
            "So client 1's write with token 33 lands and replaces client 2's value. The log line is all that marks it.",
        ],
        "Make the pause shorter than the 7 s left on the lease when it began: the watchdog's next renewal arrives in time. Lengthen it: no renewal interval can help.",
    ),
    (
        "partition-duplicate-effects",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "A network change cuts client 1 off from the lock service — but not from the database.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34.",
            "Client 1 sees its session is gone. Its handler logs a warning and keeps going.",
            "The new holder sends the payment batch.",
            "Then the old one sends it again: duplicate payments.",
        ],
        "Heal the partition earlier, or switch the idempotency key on, and see which part of the damage each one prevents.",
    ),
    (
        "watch-reachability",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "A network change cuts client 1 off from the lock service, but not from storage. From now on the service cannot tell client 1 anything, not even that its lease has ended.",
            "Client 1's watchdog sends its renewal, and the cut swallows it. No error comes back, only silence: silence is all client 1 can notice.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Client 1's write with token 33 lands over client 2's. Client 1 does watch: its watchdog gives the lock up once its own count of the lease runs out. But it counts from when each reply arrived, a moment after the service began its count, and it looks only when a renewal falls due. Its count ran out after the service's, and nothing looked before the write.",
        ],
        "Open the fix that counts from when each renewal left and trusts the lease a second less: the watchdog's look finds that count run out, and the job stops before the service frees the lock. Then pause client 1 for a couple of seconds just after the cut: the watchdog's looks move with the pause, the write comes before the next one, and it lands. Storage that checks the token refuses it however late client 1 notices.",
    ),
    (
        "slow-client-clock",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 1 checks its lease on its own clock, which runs 20% slow: 28 s gone, 2 s left. The lock service's clock says 35.",
            "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
        ],
        "Open the fix that trusts the lease 10 s less, counted from the request: the same check now fails, and the stale write is never sent. Both clients still hold the lock in their minds for 5 s first: client 1 looks at its lease only when it checks.",
    ),
    (
        "coordinator-clock-jump",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "An operator steps the lock service's clock 25 s forward.",
            "The lock service expires leases by its wall clock, so client 1's lease ends 20 s early.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 1's own clock is fine: its check says 15 s remain.",
            "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
        ],
        "Make the lock service's expiry clock monotonic and jump it again.",
    ),
    (
        "counter-reset",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "The lock service restarts. Its token counter lived in memory, so it starts again from 33.",
            "Client 2 is granted token 33 — the same number client 1 holds.",
            // Token 33, not 34: on this very run the restarted counter gives client 2 token
            // 33, and the beat, filled from the run, says so.
            "Client 2 writes with token 33, as it should.",
            "Client 1 wakes and writes with 33. The fence rejects only lower tokens, and 33 is not lower than 33.",
        ],
        "Make the counter durable: client 2 gets 34 and the fence works again.",
    ),
    (
        "random-id-fence",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes, sending its random owner id where the token should go.",
            "Client 1's random id happens to be the larger number, so its stale write passes the fence.",
        ],
        "Change the seed: with other random ids the stale write is sometimes refused — which is worse, because it looks like it works.",
    ),
    (
        "unguarded-path",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Client 1's stale write to the audit log lands: that path never checks the token.",
            "Its write to the account row is refused — the fence works where it is enforced, and only there.",
        ],
        "Route the audit write through the fence as well.",
    ),
    (
        "token-wrong-resource",
        &[
            "The lock protects account 42, and storage keeps the account as two keys, its balance and its history. Its fence remembers the highest token it has accepted per key, not per account.",
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1 freezes for 40 s, before it has written anything.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes the balance with token 34. The balance key's mark is now 34; the history key still has none.",
            "Client 1 wakes and writes its deposit to the history with token 33. That key has no mark to compare with, so the fence lets the write in, though client 2 holds the lock for the whole account and has written to it.",
            "Its balance write is refused: 33 is below the balance key's mark, 34. The account is left half-changed: a deposit in its history that its balance never got.",
        ],
        "Open the fix: storage keeps one mark for the account, so client 1's write to the history meets token 34 and is refused too.",
    ),
    (
        "non-atomic-fence",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 1 wakes just as client 2 is writing.",
            "Storage read the mark for both writes before either was applied; client 2's lands first.",
            "Client 1's stale write lands 2 ms later and pulls the mark back down to 33.",
        ],
        "Make the check atomic and the stale write is refused.",
    ),
    (
        "volatile-fence",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Storage restarts and forgets the highest token it had seen: the mark lived only in memory.",
            "Client 1's write with the old token lands and replaces client 2's value. No error, no log line: the update is simply gone.",
        ],
        "Keep the mark durable and restart storage again.",
    ),
    (
        "unfenceable-effect",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 sends the confirmation email.",
            "Client 1 wakes and sends it again. No token can guard an inbox.",
        ],
        "Turn on the idempotency key: the second email is dropped by the service that sends it.",
    ),
    (
        "coordinator-unreachable",
        &[
            "Both workers are cut off from the lock service.",
            "Client 1 gives up waiting and fails open: it runs without a lock.",
            "So does client 2.",
            "The nightly report goes out twice.",
        ],
        "Fail closed instead: nothing is duplicated, and nothing runs at all. Decide per job which cost you can bear.",
    ),
    (
        "reordered-retry",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1's write is held up in the network; after a second it retries.",
            "The retry lands, client 1 finishes and releases the lock.",
            "Client 2 takes the lock with token 34.",
            "Client 2 writes with token 34, as it should.",
            "Then the first copy of client 1's write arrives and replaces client 2's value.",
        ],
        "Press “Fix it: Storage checks the fencing token”: the late copy carries token 33 and is refused.",
    ),
    (
        "permanent-lock",
        &[
            "Client 1 takes the lock with token 33. It never expires: only client 1's release can free it.",
            "Client 2 asks for the lock and waits in line.",
            "Client 1 hangs. To everyone else it might as well have crashed, and it will never send its release. Client 2 waits for the rest of the run: safe, and nothing gets done.",
        ],
        "Open the fix: with a 10 s lease the lock service frees the lock and client 2 gets its turn. If client 1 ever woke, it would be the stale holder of the earlier lessons.",
    ),
    (
        "idempotent-job",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1 freezes for 40 s in the middle of its job.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 rebuilds the search index for the day.",
            "Client 1 wakes and rebuilds it again. The index service has already built this day and ignores the repeat: one wasted rebuild, nothing corrupted. No fix is needed here: this lock only saves work.",
        ],
        "Open the variant where the job is not idempotent: the same two holders now do the work twice.",
    ),
    (
        "silent-renewal-failure",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "From here the lock service drops renewals without answering, as it would after an expired credential or a lost keepalive.",
            "Client 1's renewal goes out and nothing comes back. No error either: the watchdog just waits for its next tick.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34.",
            "Client 1's watchdog sees its deadline pass with no renewal answered. The job logs it and carries on.",
            "Client 2 writes with token 34, as it should.",
            "Client 1's write with token 33 lands over client 2's. The failure was in the log, and nothing acted on it.",
        ],
        "Try the fix that stops the job when the renewals stop, and compare it with fencing.",
    ),
    (
        "progress-heartbeat",
        &[
            "Client 1 takes the lock with token 33. Its library starts a watchdog thread that renews the lease on a timer, whatever the job is doing.",
            "Part 1 of the export is written. Part 2 begins with a call to another service, and the call hangs: the job's thread waits on it and does nothing else.",
            "The watchdog renews the lease, and goes on renewing. It is a thread of its own and it is fine: a renewal says the process lives, and nothing about whether the job has moved since the last one.",
            "Client 2 has been refused at every try, and gives up: its work never runs. The lock service cannot tell a stuck holder from a slow one, since all the watchdog tells it is that the process is alive.",
            "At 54 s the hung call returns and part 2 is written. Had it never returned, the watchdog would have renewed for as long as the process ran, and nobody would ever get the lock: the lock without a lease, back again.",
        ],
        "Press “Fix it: Renew after each part, and fence the writes”: the renewals stop while part 2 hangs, the lease lapses, client 2 takes the lock, and storage refuses client 1's late write when the call returns. Then compare the same renewals without a fence, and a part 2 that is only slow.",
    ),
    (
        "reacquire-after-loss",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1 sends the invoice for order 42. Its next step marks the order invoiced.",
            "Client 1 freezes for 15 s, its watchdog with it.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 34, as it should.",
            "Client 1 wakes. Its watchdog's tick fell due first, and it sees the lease gone: client 1 knows. What it does next is its policy on a loss.",
            "This job's policy is to log the loss and carry on with the next step.",
            "So its write with token 33 lands over client 2's. Knowing was not enough: the job had to act on it.",
        ],
        "Open the other policies. Give up: safe, and the order is left invoiced but never marked so. Take the lock again: client 1 runs its job again from the acquire, so the invoice goes out twice. Take it again with an idempotency key on the invoice and a fence on the write: the second run is harmless.",
    ),
    (
        "tail-latency",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "This run's scenario sets one pause from the tail: 6 s, longer than the lease has left.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34.",
            "Client 2 writes with token 34, as it should.",
            "Client 1's write with token 33 lands over client 2's. How often? The same scenario under 1000 seeds, pauses drawn from one distribution whose p99 is 3 s: 4 runs ended unsafe, 0.4 %. A TTL above the p99 still leaves the tail to chance.",
        ],
        "Open the fix: with fencing no seed ends unsafe, however long the pause.",
    ),
    (
        "stop-and-resume",
        &[
            "Both workers of the nightly job are cut off from the lock service.",
            "Client 1 tries three times and fails closed: it stops.",
            "So does client 2. Safe, and the night's report never goes out.",
        ],
        "Open the fix that waits and resumes: the same outage, and the report goes out once the lock service is back.",
    ),
    (
        "release-lost",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "A network change cuts client 1 off from the lock service, but not from storage.",
            "Client 1's write lands, well inside its lease.",
            "Client 1 sends its release and moves on. The release is lost in the cut.",
            "Client 2 asks for the lock and is queued behind a holder that is already done.",
            "Only now, when the lease runs out, is the lock free: the lock service cannot tell a finished holder from a slow one.",
            "Client 2 gets the lock with token 34. Safe, and slow: a lease whose holder vanishes makes everyone wait out its TTL.",
        ],
        "Try the shorter lease: the wait shrinks, and so does the time a slow holder may take.",
    ),
    (
        "random-value-release",
        &[
            "Client 1 takes the Redis lock with SET NX and a random value only it knows.",
            "Client 1 freezes for 15 s, longer than its TTL.",
            "Redis expires the key. Nobody tells client 1.",
            "Client 2, retrying, takes the lock with its own random value.",
            "Client 2 writes.",
            "Client 1 wakes and writes over it. The random value never reaches storage: it names a holder, it does not order writes.",
            "Its release is refused: the script deletes the key only if the value is still client 1's, so client 2 keeps its lock. That is what the random value is for in the Redis docs' recipe: a safe release. Storage here never sees it, so it stops no write (antirez 2016 would have the resource check it; Kleppmann 2016 wants a token storage can order).",
        ],
        "Open the fix: a lock service that issues tokens, and storage that refuses a lower one.",
    ),
    (
        "restore-from-backup",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1 writes with token 33 and releases.",
            "Client 2 takes the lock with token 34.",
            "Client 2 writes with 34. From now on storage refuses anything lower.",
            "The lock service is restored from a backup taken before these grants. Its counter goes back to 33.",
            "Client 3 is granted token 33: a number already spent.",
            "Client 3 is the rightful holder, and storage refuses it: 33 is below 34. A reused token blocks the honest holder, as here, or lets a stale one through, as in the counter-reset lesson.",
        ],
        "Open the fix: the counter survives the restore, client 3 gets a new token and its write lands.",
    ),
    (
        "exact-fence",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 1. From this moment it believes the lock is its own.",
            "Client 1 freezes for 40 s.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 2. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 writes with token 2, as it should.",
            "The write path's process restarts. The highest revision it had seen lived in its memory, and is gone.",
            "Client 1 wakes and its write with revision 1 lands: nothing remembers 2. etcd does: its lock gives each contender a key of its own under the lock prefix, client 1's went with its lease, and the owner is now client 2's key, created at revision 2. The fix asks etcd.",
        ],
        "Open the fix: one transaction checks that client 1's own key still exists with create revision 1, and refuses the write because it does not, with no mark of its own to forget.",
    ),
    (
        "unique-constraint",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 inserts the shipment row for order 42.",
            "Client 1 wakes and inserts a second one. Nothing in the insert carries a token, and nothing refuses it: two parcels for one order.",
        ],
        "Add the unique index on the order id: the database refuses the second insert, whoever sends it.",
    ),
    (
        "conditional-write",
        &[
            "Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own.",
            "Client 1 reads order 42's ledger, still empty, at version 0, and starts working out its entry.",
            "Client 1 freezes for 40 s before it writes back.",
            "On the lock service's clock the lease has run out. The service is right to free the lock; nobody tells client 1.",
            "Client 2, waiting in line, gets the lock with token 34. Two clients now believe they hold one lock — the band on the diagram.",
            "Client 2 reads the same ledger, also at version 0.",
            "Client 2 writes the ledger back with its entry, +30 (c2), and releases the lock.",
            "Client 1 wakes and writes back what it read plus its own entry, +50 (c1). Storage takes it: client 2's entry is gone, a lost update. As in Check, then write, nothing between client 1's read and its write noticed the lock had passed on.",
        ],
        "Open the fix: no lock at all. Each write carries the version its client read and lands only if the ledger is still there; client 1's is refused, and it reads again and adds its entry to client 2's.",
    ),
    ];

    #[test]
    fn stock_runs_read_exactly_as_before() {
        assert_eq!(TODAY.len(), WALKTHROUGHS.len());
        for (w, (name, beats, try_it)) in WALKTHROUGHS.iter().zip(TODAY) {
            assert_eq!(w.scenario, *name);
            let (texts, try_now) = told(name, &stock(name));
            let want: Vec<Option<String>> = beats.iter().map(|t| Some(t.to_string())).collect();
            assert_eq!(texts, want, "{name}");
            assert_eq!(try_now.as_deref(), Some(*try_it), "{name}");
        }
    }

    thread_local! {
        /// Simulations run by [`counted`], on this test's thread.
        static RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn counted(sc: &Scenario) -> crate::model::trace::Trace {
        RUNS.with(|n| n.set(n.get() + 1));
        crate::model::sim::run(sc)
    }

    #[test]
    fn placing_the_tail_lesson_runs_nothing_its_text_runs_the_share() {
        let name = "tail-latency";
        let (w, sc) = (course::walkthrough(name).unwrap(), stock(name));
        let trace = simulate(&sc).unwrap();
        let projection = Projection::new(&trace);
        let run = Facts::new(&trace, &sc, &projection, counted);
        let placed = w.place(&run);
        assert!(placed.iter().all(Option::is_some), "{placed:?}");
        assert_eq!(RUNS.with(|n| n.get()), 0, "placing the beats ran the share");
        w.prepare(&placed, &run);
        assert_eq!(RUNS.with(|n| n.get()), super::super::tail::RUNS as usize);
        // Remembered: the beat's text, when the reader reaches it, runs nothing more.
        let last = placed.len() - 1;
        let text = w.text(last, placed[last].unwrap(), &run).unwrap();
        assert!(text.contains("under 1000 seeds"), "{text}");
        assert_eq!(RUNS.with(|n| n.get()), super::super::tail::RUNS as usize);
        // With no pause to draw the beat is hidden, as before, and still nothing runs.
        let mut calm = sc.clone();
        calm.faults.clear();
        let trace = simulate(&calm).unwrap();
        let projection = Projection::new(&trace);
        let run = Facts::new(&trace, &calm, &projection, counted);
        let last_text = w.beats[last].text;
        assert!((0..trace.entries.len()).all(|i| !run.fits(last_text, i)));
        assert_eq!(RUNS.with(|n| n.get()), super::super::tail::RUNS as usize);
    }

    #[test]
    fn gc_pause_quotes_an_edited_first_token() {
        let mut sc = stock("gc-pause");
        sc.coordinator.first_token = 50;
        let (texts, try_it) = told("gc-pause", &sc);
        assert_eq!(texts[0].as_deref(), Some("Client 1 asks for the lock and gets a lease with fencing token 50. From this moment it believes the lock is its own."));
        assert_eq!(texts[3].as_deref(), Some("Client 2, waiting in line, gets the lock with token 51. Two clients now believe they hold one lock — the band on the diagram."));
        assert_eq!(
            texts[4].as_deref(),
            Some("Client 2 writes with token 51, as it should.")
        );
        assert_eq!(try_it.as_deref(), Some("Press “Fix it: Storage checks the fencing token” to open the fenced run, and watch storage refuse token 50, because it has already seen 51."));
        assert!(texts.iter().all(Option::is_some));
    }

    /// The migration lesson's run says what froze client 1, in its beat and in the
    /// narration. Another cause keeps the run and its other beats; the beat that tells of a
    /// hypervisor is hidden, and the narration names the new cause.
    #[test]
    fn the_migration_beat_tells_its_cause_and_gives_way_to_another() {
        use crate::analysis::check::check;
        use crate::teach::narrate::transcript;
        use crate::vocab::names::PauseCause;
        // The transcript's line for the pause, as the page and the CLI tell it.
        let narrated = |sc: &Scenario| {
            let trace = simulate(sc).unwrap();
            let lines = transcript(&trace, &check(&trace), &Projection::new(&trace));
            let froze = lines.into_iter().find(|l| l.text.contains(" froze ("));
            froze.unwrap().text
        };
        let sc = stock("vm-migration-pause");
        let said = narrated(&sc);
        assert!(said.contains("a VM live migration"), "{said}");
        assert!(!said.contains("GC"), "{said}");
        let (texts, _) = told("vm-migration-pause", &sc);
        assert!(texts[1].as_deref().unwrap().contains("hypervisor"));

        let mut starved = sc.clone();
        for f in &mut starved.faults {
            if let FaultKind::Pause { cause, .. } = &mut f.kind {
                *cause = PauseCause::CpuStarvation;
            }
        }
        assert!(narrated(&starved).contains("CPU starvation"));
        let (edited, _) = told("vm-migration-pause", &starved);
        assert_eq!(edited[1], None, "no hypervisor in a starved run");
        for (b, t) in edited.iter().enumerate().filter(|(b, _)| *b != 1) {
            assert_eq!(t, &texts[b], "beat {b} tells the same run");
        }
    }

    #[test]
    fn check_then_write_quotes_an_edited_ttl_and_pause() {
        let mut sc = stock("check-then-write");
        for c in &mut sc.clients {
            c.ttl_ms = 40_000;
        }
        for f in &mut sc.faults {
            if let FaultKind::Pause { for_ms, .. } = &mut f.kind {
                *for_ms = 32_500;
            }
        }
        let (texts, _) = told("check-then-write", &sc);
        assert_eq!(texts[1].as_deref(), Some("Before writing, client 1 does the careful thing: it checks its lease. Twenty-five seconds left. The check passes."));
        assert_eq!(texts[2].as_deref(), Some("Then, in the instant between the check and the write, the process stalls for 32.5 s."));
        assert!(texts.iter().all(Option::is_some));
    }

    #[test]
    fn delayed_write_and_starved_renewal_quote_edited_lengths() {
        let mut sc = stock("delayed-write");
        for f in &mut sc.faults {
            if let FaultKind::Delay { extra_ms, .. } = &mut f.kind {
                *extra_ms = 45_000;
            }
        }
        let (texts, _) = told("delayed-write", &sc);
        assert!(
            texts[5]
                .as_deref()
                .unwrap()
                .starts_with("Forty-five seconds late, "),
            "{texts:?}"
        );

        let mut sc = stock("starved-renewal");
        for f in &mut sc.faults {
            if let FaultKind::Pause { for_ms, .. } = &mut f.kind {
                *for_ms = 30_000;
            }
        }
        let (texts, _) = told("starved-renewal", &sc);
        assert!(
            texts[1]
                .as_deref()
                .unwrap()
                .starts_with("A 30-second pause "),
            "{texts:?}"
        );
    }

    /// What fell due during the pause is handled in order when client 1 wakes: the
    /// watchdog's tick before the job's next step, so the watchdog learns of the loss first
    /// and the "continue" policy writes anyway — as the lesson's description says. And the
    /// pause has to be shorter than what was left of the lease (about 7 s), not than the
    /// TTL: a 6.5 s pause is renewed in time; 8.5 s is not.
    #[test]
    fn starved_renewal_tells_the_order_the_run_has() {
        use crate::model::trace::{Event, LossHow};
        let sc = stock("starved-renewal");
        let trace = simulate(&sc).unwrap();
        let at = |p: &dyn Fn(&crate::model::trace::Entry) -> bool| {
            trace.entries.iter().position(p).unwrap()
        };
        let woke = at(&|e| e.node == C1 && matches!(e.event, Event::Resumed));
        let watchdog = at(&|e| {
            e.node == C1
                && matches!(
                    e.event,
                    Event::BeliefEnded {
                        how: LossHow::WatchdogExpired,
                        ..
                    }
                )
        });
        let ignored = at(&|e| e.node == C1 && matches!(e.event, Event::LossIgnored));
        let write = at(&|e| {
            e.node == DB && matches!(&e.event, Event::WriteAccepted { client, .. } if *client == C1)
        });
        assert!(woke < watchdog && watchdog < ignored && ignored < write);
        // When each fell due: the watchdog every 3 s from the grant, the job's write after
        // its 10 s of work.
        let believed = trace.entries
            [at(&|e| e.node == C1 && matches!(e.event, Event::BeliefStarted { .. }))]
        .t
        .0;
        let c = &sc.clients[0];
        let (every, work) = (c.renew_every_ms.unwrap(), 10_000);
        let paused = trace.entries
            [at(&|e| e.node == C1 && matches!(e.event, Event::Paused { .. }))]
        .t
        .0;
        let tick_due = believed + every * ((paused - believed) / every + 1);
        assert!(tick_due < believed + work);
        let secs = |ms: i64| (ms + 500) / 1000;
        let want = format!(
            "the watchdog's tick (due at {} s) before the job's next step (due at {} s)",
            secs(tick_due),
            secs(believed + work)
        );
        assert!(sc.description.contains(&want), "{want}");
        assert!(!sc.description.contains("before the watchdog gets a turn"));
        // The beat after the loss does not say "no log line".
        let (texts, _) = told("starved-renewal", &sc);
        assert!(texts.iter().flatten().all(|t| !t.contains("no log line")));
        // The try-it's number, read from the run, is what decides.
        let pause = |ms: i64| {
            let mut sc = sc.clone();
            for f in &mut sc.faults {
                if let FaultKind::Pause { for_ms, .. } = &mut f.kind {
                    *for_ms = ms;
                }
            }
            crate::analysis::check::check(&simulate(&sc).unwrap()).safe
        };
        assert!(pause(6_500), "shorter than the 7 s left: renewed in time");
        assert!(
            !pause(8_500),
            "longer than the 7 s left, shorter than the 9 s TTL: lost"
        );
    }

    /// The delayed write's beat lands where the write leaves (5 s), not on the fault that
    /// arms the delay (4 s), and quotes the flight the run gives it.
    #[test]
    fn the_delayed_write_beat_lands_on_the_send() {
        use crate::model::msg::Msg;
        use crate::model::trace::Event;
        let sc = stock("delayed-write");
        let trace = simulate(&sc).unwrap();
        let projection = Projection::new(&trace);
        let run = Facts::new(&trace, &sc, &projection, crate::model::sim::run);
        let w = course::walkthrough("delayed-write").unwrap();
        let at = w.place(&run)[1].unwrap();
        let e = &trace.entries[at];
        assert!(
            matches!(
                &e.event,
                Event::Sent {
                    msg: Msg::Write { .. },
                    ..
                }
            ),
            "{:?}",
            e.event
        );
        assert_eq!(e.t.0, 5_010);
        let held = trace
            .entries
            .iter()
            .position(|e| matches!(e.event, Event::MessageHeld { .. }))
            .unwrap();
        assert!(held < at, "the delay was armed before the write left");
        let (texts, _) = told("delayed-write", &sc);
        assert_eq!(texts[1].as_deref(), Some("At 5 s client 1 sends its write, while its lease is perfectly valid — but the network holds the packet: it will arrive 40 s later."));
    }

    /// A "Break it yourself" that sends the learner to a fix names the button the page
    /// offers at that moment ("Fix it: …", the fix's own title), so the learner opens the
    /// fixed run, with its own verdict and note, rather than editing the lesson's run by
    /// hand (which marks it edited, and its beats no longer tell it). No suggestion asks
    /// for fencing through the settings while the fencing fix is on offer.
    #[test]
    fn a_suggested_fix_names_a_fix_button_the_page_offers() {
        let mut pointed = 0;
        for w in WALKTHROUGHS {
            let sc = stock(w.scenario);
            let (_, try_it) = told(w.scenario, &sc);
            let Some(t) = try_it else { continue };
            let offered = course::fixes_to_offer(course::lesson_of(w.scenario), &sc);
            if let Some(i) = t.find("“Fix it: ") {
                let title = &t[i + "“Fix it: ".len()..];
                let title = &title[..title.find('”').expect("a closing quote")];
                assert!(
                    offered.iter().any(|f| f.title == title),
                    "{}: no fix button \"Fix it: {title}\" is offered",
                    w.scenario
                );
                pointed += 1;
            }
            if offered.iter().any(|f| f.name == "fencing") {
                let lower = t.to_lowercase();
                assert!(
                    !lower.contains("turn fencing on") && !lower.contains("switch fencing on"),
                    "{}: {t}",
                    w.scenario
                );
            }
        }
        assert!(pointed >= 3, "{pointed}");
    }

    /// With fencing switched on by hand (the page keeps its name), the walkthrough neither
    /// says "turn fencing on" nor offers "Fix it" for fencing; and no fix is offered over a
    /// run that already has it.
    #[test]
    fn a_fix_already_on_is_not_offered_again() {
        use crate::model::scenario::FenceMode;
        for name in ["gc-pause", "delayed-write", "reordered-retry"] {
            let mut sc = stock(name);
            let (_, try_it) = told(name, &sc);
            assert!(try_it.unwrap().contains("Fix it: "), "{name}");
            assert!(course::fixes_to_offer(name, &sc)
                .iter()
                .any(|f| f.name == "fencing"));
            sc.storage.fence = FenceMode::Monotone;
            let (_, try_it) = told(name, &sc);
            assert_eq!(try_it, None, "{name}: no 'turn fencing on' while it is on");
            assert!(
                course::fixes_to_offer(name, &sc)
                    .iter()
                    .all(|f| f.name != "fencing"),
                "{name}"
            );
        }
        let mut sc = stock("unfenceable-effect");
        sc.storage.idempotency = true;
        assert_eq!(told("unfenceable-effect", &sc).1, None);
        // Every lesson with a walkthrough, over each of its own fixes: that fix is not
        // offered again, and the others still are.
        for w in WALKTHROUGHS {
            let lesson = course::lesson_of(w.scenario);
            for f in course::fixes(lesson) {
                let fixed = course::open(&f.scenario).unwrap();
                let offered = course::fixes_to_offer(lesson, &fixed);
                assert!(offered.iter().all(|o| o.name != f.name), "{}", f.scenario);
            }
            let base = stock(w.scenario);
            assert_eq!(
                course::fixes_to_offer(lesson, &base).len(),
                course::fixes(lesson).len(),
                "{lesson}: the base run is offered every fix"
            );
        }
    }

    /// The fix note does not claim a fix changes "one thing" (the watchdog fix renews and
    /// keys the swap).
    #[test]
    fn the_fix_note_claims_no_count() {
        let f = course::fix_of("ttl-shorter-than-work/watchdog").unwrap();
        let note = course::fix_note(&f);
        assert!(!note.contains("one thing"), "{note}");
        assert!(note.starts_with("What this run changes: a renewal watchdog"));
        let base = stock("ttl-shorter-than-work");
        let fixed = course::open("ttl-shorter-than-work/watchdog").unwrap();
        assert_ne!(base.storage.idempotency, fixed.storage.idempotency);
        assert_ne!(
            base.clients[0].renew_every_ms,
            fixed.clients[0].renew_every_ms
        );
    }

    #[test]
    fn ttl_lesson_quotes_an_edited_ttl() {
        let mut sc = stock("ttl-shorter-than-work");
        for c in &mut sc.clients {
            c.ttl_ms = 720_000;
        }
        let (texts, _) = told("ttl-shorter-than-work", &sc);
        assert_eq!(
            texts[0].as_deref(),
            Some("The migration runner takes a 12-minute lease for a job that needs 25.")
        );
        assert_eq!(
            texts[1].as_deref(),
            Some("Minute 12: the lease lapses while runner 1 is mid-backfill.")
        );
    }

    #[test]
    fn slow_clock_beat_reads_the_edited_drift() {
        let mut sc = stock("slow-client-clock");
        sc.clients[0].clock.drift_ppm = -250_000;
        let (texts, _) = told("slow-client-clock", &sc);
        // 28 s on a clock 25% slow is 37.3 s on the lock service's.
        assert_eq!(texts[3].as_deref(), Some("Client 1 checks its lease on its own clock, which runs 25% slow: 28 s gone, 2 s left. The lock service's clock says 37.3."));
    }

    #[test]
    fn clock_jump_beats_quote_the_edited_jump() {
        let mut sc = stock("coordinator-clock-jump");
        for f in &mut sc.faults {
            if let FaultKind::ClockJump { by_ms, .. } = &mut f.kind {
                *by_ms = 15_000;
            }
        }
        let (texts, _) = told("coordinator-clock-jump", &sc);
        assert_eq!(
            texts[1].as_deref(),
            Some("An operator steps the lock service's clock 15 s forward.")
        );
        // 15 s forward: the lease's 30 s run out on the server's clock 15 s early.
        assert_eq!(
            texts[2].as_deref(),
            Some(
                "The lock service expires leases by its wall clock, so client 1's lease ends 15 s early."
            )
        );
        assert_eq!(
            texts[4].as_deref(),
            Some("Client 1's own clock is fine: its check says 15 s remain.")
        );
        // A 40 s lease: the same jump ends it 25 s early, and the check finds 25 s left.
        let mut sc = stock("coordinator-clock-jump");
        for c in &mut sc.clients {
            c.ttl_ms = 40_000;
        }
        let (texts, _) = told("coordinator-clock-jump", &sc);
        assert_eq!(
            texts[2].as_deref(),
            Some(
                "The lock service expires leases by its wall clock, so client 1's lease ends 25 s early."
            )
        );
        assert_eq!(
            texts[4].as_deref(),
            Some("Client 1's own clock is fine: its check says 25 s remain.")
        );
    }

    #[test]
    fn a_backward_jump_hides_the_early_expiry_it_no_longer_causes() {
        let mut sc = stock("coordinator-clock-jump");
        for f in &mut sc.faults {
            if let FaultKind::ClockJump { by_ms, .. } = &mut f.kind {
                *by_ms = -5_000;
            }
        }
        let (texts, _) = told("coordinator-clock-jump", &sc);
        assert_eq!(
            texts[1].as_deref(),
            Some("An operator steps the lock service's clock 5 s back.")
        );
        // The lease still expires — 5 s late, not early: "ends … early" is not told.
        assert_eq!(texts[2], None);
    }

    #[test]
    fn a_durable_counter_hides_the_beats_whose_claims_it_breaks() {
        let mut sc = stock("counter-reset");
        sc.coordinator.counter = Durability::Durable;
        let (texts, try_it) = told("counter-reset", &sc);
        // The restart no longer resets the counter, client 2 no longer shares client 1's
        // token, and the stale write is refused (its beat's event never comes).
        let told: Vec<Option<&str>> = texts.iter().map(Option::as_deref).collect();
        assert_eq!(
            told,
            [
                Some("Client 1 asks for the lock and gets a lease with fencing token 33. From this moment it believes the lock is its own."),
                None,
                None,
                Some("Client 2 writes with token 34, as it should."),
                None,
            ]
        );
        assert_eq!(
            try_it.as_deref(),
            Some("Make the counter durable: client 2 gets 34 and the fence works again.")
        );
    }

    #[test]
    fn counter_reset_quotes_an_edited_first_token() {
        let mut sc = stock("counter-reset");
        sc.coordinator.first_token = 7;
        let (texts, try_it) = told("counter-reset", &sc);
        let told: Vec<Option<&str>> = texts.iter().map(Option::as_deref).collect();
        assert_eq!(
            told,
            [
                Some("Client 1 asks for the lock and gets a lease with fencing token 7. From this moment it believes the lock is its own."),
                Some("The lock service restarts. Its token counter lived in memory, so it starts again from 7."),
                Some("Client 2 is granted token 7 — the same number client 1 holds."),
                Some("Client 2 writes with token 7, as it should."),
                Some("Client 1 wakes and writes with 7. The fence rejects only lower tokens, and 7 is not lower than 7."),
            ]
        );
        assert_eq!(
            try_it.as_deref(),
            Some("Make the counter durable: client 2 gets 8 and the fence works again.")
        );
    }

    #[test]
    fn non_atomic_fence_and_retry_quote_the_run() {
        let mut sc = stock("non-atomic-fence");
        sc.coordinator.first_token = 50;
        let (texts, _) = told("non-atomic-fence", &sc);
        assert_eq!(
            texts[4].as_deref(),
            Some("Client 1's stale write lands 2 ms later and pulls the mark back down to 50.")
        );
        let mut sc = stock("reordered-retry");
        sc.coordinator.first_token = 90;
        for c in &mut sc.clients {
            c.timeout_ms = 2_500;
        }
        let (texts, try_it) = told("reordered-retry", &sc);
        assert_eq!(
            texts[1].as_deref(),
            Some("Client 1's write is held up in the network; after 2.5 s it retries.")
        );
        assert_eq!(
            texts[3].as_deref(),
            Some("Client 2 takes the lock with token 91.")
        );
        assert_eq!(
            try_it.as_deref(),
            Some("Press “Fix it: Storage checks the fencing token”: the late copy carries token 90 and is refused.")
        );
    }
}
