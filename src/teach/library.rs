//! The scenario library: the failure modes of the two source texts, each as a lesson with
//! its unsafe variant and its fixes, and the verdict each variant must reach.
//!
//! A lesson's base scenario is a JSON file in `library/` (so it reads as an example of the
//! format); a fix is a small, named change to it — switch on fencing, make a counter
//! durable, stop on loss. The expected verdicts are checked natively on every test run, so
//! a change to the model that breaks a lesson's story fails loudly.
//!
//! The browser's chapter menu opens every lesson and fix (see `course`); the CLI runs any
//! variant as `lesson` or `lesson/fix`.

use crate::analysis::check::ViolationKind::{self, *};
use crate::model::scenario::{
    ClientSpec, Durability, FailMode, FenceMode, FenceWith, Flavor, LossPolicy, MarkScope,
    Scenario, Step,
};
use crate::teach::holds::{self, Narrows};

/// What a variant's verdict must show.
#[derive(Clone, Copy, Debug)]
pub struct Expect {
    pub safe: bool,
    /// Kinds of violation that must appear.
    pub must: &'static [ViolationKind],
    /// Kinds that must not.
    pub must_not: &'static [ViolationKind],
    /// At least one write refused by the fence.
    pub rejected: bool,
    /// For a change expected safe: what one added fault still breaks (`None`: nothing
    /// does, within the explorer's default bounds). See `teach::holds`.
    pub narrows: Option<Narrows>,
}

impl Expect {
    /// The same, for a change that only narrows the window.
    pub const fn narrowed(self, n: Narrows) -> Expect {
        Expect {
            narrows: Some(n),
            ..self
        }
    }
}

pub(crate) const UNSAFE_STALE: Expect = Expect {
    safe: false,
    must: &[StaleWrite, LostUpdate],
    must_not: &[],
    rejected: false,
    narrows: None,
};
pub(crate) const FENCED: Expect = Expect {
    safe: true,
    must: &[],
    must_not: &[],
    rejected: true,
    narrows: None,
};
pub(crate) const SAFE: Expect = Expect {
    safe: true,
    must: &[],
    must_not: &[],
    rejected: false,
    narrows: None,
};

pub struct Fix {
    /// The slug of links and the CLI: `check-then-write/fencing`.
    pub name: &'static str,
    /// What the learner reads: plain words, never the slug ("Stop when the lock is lost").
    pub title: &'static str,
    pub summary: &'static str,
    pub apply: fn(&mut Scenario),
    pub expect: Expect,
}

pub struct Lesson {
    pub id: &'static str,
    /// Which argument of the sources it belongs to.
    pub chapter: &'static str,
    /// Where its argument comes from, as the learner reads the credit (at least one).
    pub sources: &'static [&'static str],
    pub(crate) json: &'static str,
    pub expect: Expect,
    pub fixes: &'static [Fix],
}

impl Lesson {
    pub fn scenario(&self) -> Scenario {
        // Checked by the library test; an invalid file fails it, not a user.
        Scenario::from_json(self.json).unwrap_or_else(|e| panic!("lesson {}: {e}", self.id))
    }

    pub fn variant(&self, fix: &str) -> Option<Scenario> {
        let f = self.fixes.iter().find(|f| f.name == fix)?;
        let mut sc = self.scenario();
        (f.apply)(&mut sc);
        Some(sc)
    }
}

fn fence(sc: &mut Scenario) {
    sc.storage.fence = FenceMode::Monotone;
}

fn clients(sc: &mut Scenario, f: impl Fn(&mut ClientSpec)) {
    sc.clients.iter_mut().for_each(f);
}

/// Client 1 drops its watchdog and renews from the job instead: a `renew` step after each
/// part's write that more work follows, so a renewal says a part got done.
fn renew_after_each_part(sc: &mut Scenario) {
    let Some(c) = sc.clients.first_mut() else {
        return;
    };
    c.renew_every_ms = None;
    let mut job = Vec::with_capacity(c.job.len() + 2);
    for (i, s) in c.job.iter().enumerate() {
        job.push(s.clone());
        let more_work = matches!(c.job.get(i + 1), Some(Step::Work { .. }));
        if matches!(s, Step::Write { .. }) && more_work {
            job.push(Step::Renew);
        }
    }
    c.job = job;
}

pub const FENCING: Fix = Fix {
    name: "fencing",
    title: "Storage checks the fencing token",
    summary: "storage rejects a token lower than the highest it has accepted",
    apply: fence,
    expect: FENCED,
};

/// The fix that checks the lease at every step boundary and stops the job once it is
/// gone; `summary` tells it in the words of its lesson, `still` what its lesson's run
/// still lets through.
const fn abort_on_loss(summary: &'static str, still: Narrows) -> Fix {
    Fix {
        name: "abort-on-loss",
        title: "Stop when the lock is lost",
        summary,
        apply: check_and_abort,
        expect: SAFE.narrowed(still),
    }
}

fn check_and_abort(sc: &mut Scenario) {
    clients(sc, |c| {
        c.check_before_write = true;
        c.on_loss = LossPolicy::Abort;
    });
}

// The sources, as each lesson credits them where the learner reads it.
pub const KLEPPMANN: &str = "Kleppmann 2016, How to do distributed locking";
pub const ANTIREZ: &str = "antirez 2016, Is Redlock safe?";
pub const REDIS: &str = "Redis docs, Distributed locks with Redis";
pub const CHUBBY: &str = "Burrows 2006, the Chubby paper";
pub const ZOOKEEPER: &str = "ZooKeeper docs, lock recipe and sessions";
pub const CURATOR: &str = "Apache Curator docs, InterProcessMutex";
pub const ETCD: &str = "etcd docs, Notes on the usage of lock and lease";
pub const CONSUL: &str = "Consul docs, Sessions";
pub const REDISSON: &str = "Redisson issue 2665, a starved watchdog";
/// The two essays the course is built on (seeds 000 and 004).
pub const DANGEROUS: &str = "essay, Distributed Locks Are More Dangerous Than They Look";
pub const ASSUMPTIONS: &str = "essay, Distributed Lock Assumptions";

pub const CHAPTER_EXCLUSIVITY: &str = "An acquired lock is not exclusivity";
/// Why a lock has a lease at all: without one a vanished holder blocks everyone forever;
/// with one, a holder can outlive its authority (the chapters after this one).
pub const CHAPTER_LEASE: &str = "A lease trades deadlock for a stale holder";
pub const CHAPTER_TTL: &str = "The TTL does not cover the work";
pub const CHAPTER_REACHABLE: &str = "The lock service is not always reachable";
pub const CHAPTER_FENCE: &str = "What a fence needs: ordered, durable, atomic";
pub const CHAPTER_UNFENCEABLE: &str = "When you cannot fence";

pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "permanent-lock",
        chapter: CHAPTER_LEASE,
        sources: &[DANGEROUS, ASSUMPTIONS],
        json: include_str!("library/permanent-lock.json"),
        expect: SAFE,
        fixes: &[Fix {
            name: "lease",
            title: "Give the lock a lease",
            summary: "a 10 s lease: the lock service frees the lock when the holder goes quiet, and client 2 gets its turn",
            apply: |sc| clients(sc, |c| c.ttl_ms = 10_000),
            expect: SAFE,
        }],
    },
    // After the lock without a lease, the same trade one level down: a lock service that
    // frees a lock when a health check says its holder is dead also frees it when the
    // check is wrong; a session with no checks is never freed early, nor when it should be.
    Lesson {
        id: "session-checks-tradeoff",
        chapter: CHAPTER_LEASE,
        sources: &[CONSUL, DANGEROUS],
        json: include_str!("library/session-checks-tradeoff.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            Fix {
                name: "no-checks",
                title: "A session with no health checks",
                summary: "the session has no health check, so the false positive ends nothing: client 1 keeps the lock and writes; when it then hangs, only its TTL ends the session, and client 2 waits for that and the lock-delay",
                apply: |sc| sc.coordinator.health_checks = false,
                expect: SAFE.narrowed(holds::SESSION_CHECKS_TRADEOFF_NO_CHECKS),
            },
            Fix {
                name: "no-checks-no-ttl",
                title: "No health checks and no TTL",
                summary: "no health check and no TTL (here a day, the longest Consul allows, which the run never reaches): nothing ends client 1's session once it hangs, and client 2 waits for the rest of the run",
                apply: |sc| {
                    sc.coordinator.health_checks = false;
                    if let Some(c) = sc.clients.first_mut() {
                        c.ttl_ms = 86_400_000;
                    }
                },
                expect: SAFE.narrowed(holds::SESSION_CHECKS_TRADEOFF_NO_CHECKS_NO_TTL),
            },
            Fix {
                name: "sequencer",
                title: "Keep the checks; storage checks Consul's LockIndex",
                summary: "the checks stay, and with them the false positive; storage checks the sequencer's LockIndex and refuses client 1's write: 1 < 2",
                apply: fence,
                expect: FENCED,
            },
        ],
    },
    // Right after the opening GC pause in its chapter: the same stale holder, frozen by
    // something other than a collector, so the learner does not take "pause" to mean "GC".
    Lesson {
        id: "vm-migration-pause",
        chapter: CHAPTER_EXCLUSIVITY,
        sources: &[ASSUMPTIONS, DANGEROUS, KLEPPMANN],
        json: include_str!("library/vm-migration-pause.json"),
        expect: UNSAFE_STALE,
        fixes: &[FENCING],
    },
    Lesson {
        id: "check-then-write",
        chapter: CHAPTER_EXCLUSIVITY,
        sources: &[KLEPPMANN, DANGEROUS],
        json: include_str!("library/check-then-write.json"),
        expect: UNSAFE_STALE,
        fixes: &[FENCING],
    },
    Lesson {
        id: "delayed-write",
        chapter: CHAPTER_EXCLUSIVITY,
        sources: &[KLEPPMANN, DANGEROUS],
        json: include_str!("library/delayed-write.json"),
        expect: UNSAFE_STALE,
        fixes: &[FENCING],
    },
    Lesson {
        id: "ttl-shorter-than-work",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS],
        json: include_str!("library/ttl-shorter-than-work.json"),
        expect: Expect { safe: false, must: &[StaleWrite, LostUpdate, DuplicateEffect], must_not: &[], rejected: false, narrows: None },
        fixes: &[
            Fix {
                name: "watchdog",
                title: "Renew while working; swap the tables once",
                summary: "a renewal watchdog extends the lease every 200 s while the work is alive, so the second runner waits for the first to finish; it then runs its own steps again, and only the table swap, which carries an idempotency key, is done once",
                apply: |sc| {
                    clients(sc, |c| c.renew_every_ms = Some(200_000));
                    sc.storage.idempotency = true;
                },
                expect: SAFE.narrowed(holds::TTL_SHORTER_THAN_WORK_WATCHDOG),
            },
            abort_on_loss("each step boundary checks the lease and the job stops cleanly once it is gone", holds::TTL_SHORTER_THAN_WORK_ABORT_ON_LOSS),
        ],
    },
    Lesson {
        id: "starved-renewal",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS, REDISSON],
        json: include_str!("library/starved-renewal.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            FENCING,
            abort_on_loss("the job checks its lease at every step boundary and stops once it is gone", holds::STARVED_RENEWAL_ABORT_ON_LOSS),
        ],
    },
    Lesson {
        id: "partition-duplicate-effects",
        chapter: CHAPTER_REACHABLE,
        sources: &[ASSUMPTIONS],
        json: include_str!("library/partition-duplicate-effects.json"),
        expect: Expect { safe: false, must: &[DuplicateEffect, StaleWrite], must_not: &[], rejected: false, narrows: None },
        fixes: &[
            Fix {
                name: "stop-on-loss",
                title: "Treat a lost session as a stop",
                summary: "losing the session is a stop signal, wired to the same path as lease loss",
                apply: |sc| clients(sc, |c| c.on_loss = LossPolicy::Abort),
                expect: SAFE.narrowed(holds::PARTITION_DUPLICATE_EFFECTS_STOP_ON_LOSS),
            },
            Fix {
                name: "idempotency-key",
                title: "Idempotency key on the payments",
                summary: "the payment service drops a batch whose key it has seen (the data still needs a fence)",
                apply: |sc| sc.storage.idempotency = true,
                expect: Expect { safe: false, must: &[StaleWrite], must_not: &[DuplicateEffect], rejected: false, narrows: None },
            },
            Fix {
                name: "fencing-and-key",
                title: "Fencing plus an idempotency key",
                summary: "fencing guards the ledger, the idempotency key guards the payments",
                apply: |sc| {
                    fence(sc);
                    sc.storage.idempotency = true;
                },
                expect: FENCED,
            },
        ],
    },
    // After the partitioned reconciler that never acts on its loss: this holder does act,
    // and the lesson is about when — a client cut off from the service can only count
    // the silence, and must stop before the service's count can end, not after.
    Lesson {
        id: "watch-reachability",
        chapter: CHAPTER_REACHABLE,
        sources: &[ASSUMPTIONS, CHUBBY, CURATOR],
        json: include_str!("library/watch-reachability.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            Fix {
                name: "watch-silence",
                title: "Count the silence from the last renewal sent, and stop early",
                summary: "client 1 counts its lease from when each answered renewal left and trusts it 1 s less: at 12 s its watchdog finds that count run out and stops the job, before the lock service frees the lock at 13 s",
                apply: |sc| {
                    if let Some(c) = sc.clients.first_mut() {
                        c.count_from = crate::model::scenario::CountFrom::Request;
                        c.margin_ms = 1_000;
                    }
                },
                expect: SAFE.narrowed(holds::WATCH_REACHABILITY_WATCH_SILENCE),
            },
            FENCING,
        ],
    },
    Lesson {
        id: "slow-client-clock",
        chapter: CHAPTER_TTL,
        sources: &[REDIS, ANTIREZ],
        json: include_str!("library/slow-client-clock.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            FENCING,
            Fix {
                name: "safety-margin",
                title: "Trust the lease 10 s less, counted from the request",
                // Only the margin changes, and where the lease is counted from, as a margin
                // needs: counted from the grant, a delay before the grant is read moves the
                // deadline with it. The lease stays 30 s, so the 28 s of work no longer fits in
                // the 20 s client 1 trusts: its check before the write fails on any clock, and
                // the job is given up. Safe, and no work lands: a margin only helps work that
                // fits in the lease less the margin (a longer lease would be a second change,
                // and on its own it would pass this run without any margin).
                summary: "client 1 counts its 30 s lease from when it sent the request and trusts it 10 s less, so the 28 s job no longer fits: its check before the write fails on any clock, the stale write is never sent, and the job is given up; it still believes in the lock until that check, after client 2 has it",
                apply: |sc| {
                    if let Some(c) = sc.clients.first_mut() {
                        c.margin_ms = 10_000;
                        c.count_from = crate::model::scenario::CountFrom::Request;
                    }
                },
                expect: SAFE,
            },
        ],
    },
    Lesson {
        id: "coordinator-clock-jump",
        chapter: CHAPTER_TTL,
        sources: &[KLEPPMANN, REDIS],
        json: include_str!("library/coordinator-clock-jump.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            FENCING,
            Fix {
                name: "monotonic-expiry",
                title: "Expire leases on a monotonic clock",
                summary: "the lock service expires leases on a monotonic clock that steps cannot move",
                apply: |sc| sc.coordinator.clock.monotonic = true,
                expect: SAFE.narrowed(holds::COORDINATOR_CLOCK_JUMP_MONOTONIC_EXPIRY),
            },
        ],
    },
    Lesson {
        id: "counter-reset",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS],
        json: include_str!("library/counter-reset.json"),
        expect: Expect { safe: false, must: &[TokenRegression, StaleWrite], must_not: &[], rejected: false, narrows: None },
        fixes: &[Fix {
            name: "durable-counter",
            title: "Keep the token counter across restarts",
            summary: "the token counter survives a restart, so the next grant is 34",
            apply: |sc| sc.coordinator.counter = Durability::Durable,
            expect: FENCED,
        }],
    },
    Lesson {
        id: "random-id-fence",
        chapter: CHAPTER_FENCE,
        sources: &[KLEPPMANN, REDIS, DANGEROUS],
        json: include_str!("library/random-id-fence.json"),
        expect: UNSAFE_STALE,
        fixes: &[Fix {
            name: "monotonic-token",
            title: "Send the token, not a random id",
            summary: "send the grant's token, which only goes up, instead of the random owner id",
            apply: |sc| clients(sc, |c| c.fence_with = FenceWith::Token),
            expect: FENCED,
        }],
    },
    Lesson {
        id: "unguarded-path",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS, CONSUL],
        json: include_str!("library/unguarded-path.json"),
        expect: Expect { safe: false, must: &[StaleWrite, LostUpdate], must_not: &[], rejected: true, narrows: None },
        fixes: &[Fix {
            name: "every-path",
            title: "Check the token on every write path",
            summary: "every write path checks the token, for each resource it writes",
            apply: |sc| sc.storage.unfenced_keys.clear(),
            expect: FENCED,
        }],
    },
    // Beside the unguarded path: a fence every path enforces, compared against the wrong
    // mark — per key, while the lock protects the whole account.
    Lesson {
        id: "token-wrong-resource",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS, CHUBBY, KLEPPMANN],
        json: include_str!("library/token-wrong-resource.json"),
        expect: Expect { safe: false, must: &[StaleWrite], must_not: &[LostUpdate], rejected: true, narrows: None },
        fixes: &[Fix {
            name: "one-mark",
            title: "One mark for the whole account",
            summary: "storage keeps the highest token per account, the resource the lock is named for, and checks a write to any of its keys against it",
            apply: |sc| sc.storage.mark_per = MarkScope::Resource,
            expect: FENCED,
        }],
    },
    Lesson {
        id: "non-atomic-fence",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS],
        json: include_str!("library/non-atomic-fence.json"),
        expect: UNSAFE_STALE,
        fixes: &[Fix {
            name: "atomic",
            title: "Compare and write in one step",
            summary: "compare and write in one atomic step (a conditional UPDATE)",
            apply: fence,
            expect: FENCED,
        }],
    },
    Lesson {
        id: "volatile-fence",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS],
        json: include_str!("library/volatile-fence.json"),
        expect: UNSAFE_STALE,
        fixes: &[Fix {
            name: "durable-mark",
            title: "Keep the highest token across restarts",
            summary: "the high-water mark is stored with the data and survives a restart",
            apply: |sc| sc.storage.mark = Durability::Durable,
            expect: FENCED,
        }],
    },
    Lesson {
        id: "unfenceable-effect",
        chapter: CHAPTER_UNFENCEABLE,
        sources: &[DANGEROUS, ANTIREZ],
        json: include_str!("library/unfenceable-effect.json"),
        expect: Expect { safe: false, must: &[DuplicateEffect], must_not: &[], rejected: false, narrows: None },
        fixes: &[Fix {
            name: "idempotency-key",
            title: "Send once per idempotency key",
            summary: "the email service sends a message once per idempotency key",
            apply: |sc| sc.storage.idempotency = true,
            expect: SAFE,
        }],
    },
    Lesson {
        id: "coordinator-unreachable",
        chapter: CHAPTER_REACHABLE,
        sources: &[ASSUMPTIONS],
        json: include_str!("library/coordinator-unreachable.json"),
        expect: Expect { safe: false, must: &[DuplicateEffect], must_not: &[], rejected: false, narrows: None },
        fixes: &[Fix {
            name: "fail-closed",
            title: "Fail closed: no lock, no work",
            summary: "no lock, no work: safe, and the nightly job does not run at all",
            apply: |sc| clients(sc, |c| c.unreachable = FailMode::Closed),
            expect: SAFE,
        }],
    },
    Lesson {
        id: "reordered-retry",
        chapter: CHAPTER_EXCLUSIVITY,
        sources: &[DANGEROUS],
        json: include_str!("library/reordered-retry.json"),
        expect: UNSAFE_STALE,
        fixes: &[FENCING],
    },
    Lesson {
        id: "idempotent-job",
        chapter: CHAPTER_EXCLUSIVITY,
        sources: &[KLEPPMANN, CHUBBY, ASSUMPTIONS],
        json: include_str!("library/idempotent-job.json"),
        expect: SAFE,
        fixes: &[Fix {
            name: "not-idempotent",
            title: "The same overlap with a job that is not idempotent",
            summary: "the service no longer ignores a repeat: the same two holders now do the work twice, as a payment would",
            apply: |sc| sc.storage.idempotency = false,
            expect: Expect { safe: false, must: &[DuplicateEffect], must_not: &[], rejected: false, narrows: None },
        }],
    },
    Lesson {
        id: "silent-renewal-failure",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS, DANGEROUS],
        json: include_str!("library/silent-renewal-failure.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            Fix {
                name: "stop-on-failed-renewal",
                title: "Stop when the renewals stop",
                summary: "the watchdog's failure is acted on: once the lease runs out unrenewed, the job stops",
                apply: |sc| clients(sc, |c| c.on_loss = LossPolicy::Abort),
                expect: SAFE.narrowed(holds::SILENT_RENEWAL_FAILURE_STOP_ON_FAILED_RENEWAL),
            },
            FENCING,
        ],
    },
    // A watchdog's renewals say the process lives, not that the job moves: a stuck job
    // keeps its lock for as long as the process runs. Beside the silent renewal failure,
    // its opposite: renewals that go on when they should stop.
    Lesson {
        id: "progress-heartbeat",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS, DANGEROUS],
        json: include_str!("library/progress-heartbeat.json"),
        expect: SAFE,
        fixes: &[
            Fix {
                name: "heartbeat",
                title: "Renew after each part, and fence the writes",
                summary: "no watchdog: the job renews its lease when it finishes a part and goes on to the next, so a part that runs past the 15 s lease lets it lapse and client 2 takes the lock; when the hung call returns, storage refuses client 1's write of part 2 with the old token",
                apply: |sc| {
                    renew_after_each_part(sc);
                    fence(sc);
                },
                expect: FENCED,
            },
            Fix {
                name: "heartbeat-unfenced",
                title: "The same renewals without a fence",
                summary: "client 2 still gets its turn, but the hung call returns after it and client 1's part 2 lands over client 2's export: renewing as the job moves gives the lock back, and only a fence keeps the late write out",
                apply: renew_after_each_part,
                expect: UNSAFE_STALE,
            },
            Fix {
                name: "slow-part",
                title: "The renewals with a part that is slow, not stuck",
                summary: "the fixed run with a part 2 that works for 12 s: each part ends inside the 15 s lease, every renewal lands in time, and client 1 keeps its lock to the end; client 2 takes it after the release",
                apply: |sc| {
                    renew_after_each_part(sc);
                    fence(sc);
                    // Part 2's work: the job's second work step.
                    let part_2 = sc.clients.first_mut().and_then(|c| {
                        c.job
                            .iter_mut()
                            .filter_map(|s| match s {
                                Step::Work { ms } => Some(ms),
                                _ => None,
                            })
                            .nth(1)
                    });
                    if let Some(ms) = part_2 {
                        *ms = 12_000;
                    }
                },
                expect: SAFE,
            },
        ],
    },
    // What a client does once it knows the lease is gone: the three policies the model
    // has (continue, abort, reacquire), on one run. Re-acquiring runs the job again from
    // its acquire step, so the lesson is about what that repeat costs and what makes it
    // harmless, not about resuming mid-job (the model has no step that resumes).
    Lesson {
        id: "reacquire-after-loss",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS, CHUBBY, DANGEROUS],
        json: include_str!("library/reacquire-after-loss.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            Fix {
                name: "give-up",
                title: "Give up once the lock is lost",
                summary: "the job stops when the watchdog sees the loss: no stale write, and the order is left half done — invoiced, never marked so",
                apply: |sc| clients(sc, |c| c.on_loss = LossPolicy::Abort),
                expect: SAFE.narrowed(holds::REACQUIRE_AFTER_LOSS_GIVE_UP),
            },
            Fix {
                name: "reacquire",
                title: "Take the lock again and run the job again",
                summary: "client 1 queues for the lock again, gets token 35 and runs its job from the acquire step: the order is marked, and the invoice goes out a second time",
                apply: |sc| clients(sc, |c| c.on_loss = LossPolicy::Reacquire),
                expect: Expect { safe: false, must: &[DuplicateEffect], must_not: &[StaleWrite], rejected: false, narrows: None },
            },
            Fix {
                name: "reacquire-safely",
                title: "Take the lock again; the invoice has a key, the write a fence",
                summary: "the same second run under token 35, now harmless: the invoice service drops the repeat by its idempotency key, and storage checks every write's token",
                apply: |sc| {
                    clients(sc, |c| c.on_loss = LossPolicy::Reacquire);
                    sc.storage.idempotency = true;
                    fence(sc);
                },
                expect: SAFE,
            },
        ],
    },
    Lesson {
        id: "tail-latency",
        chapter: CHAPTER_TTL,
        sources: &[ASSUMPTIONS, KLEPPMANN],
        json: include_str!("library/tail-latency.json"),
        expect: UNSAFE_STALE,
        fixes: &[FENCING],
    },
    Lesson {
        id: "stop-and-resume",
        chapter: CHAPTER_REACHABLE,
        sources: &[ASSUMPTIONS],
        json: include_str!("library/stop-and-resume.json"),
        expect: SAFE,
        fixes: &[Fix {
            name: "wait-and-resume",
            title: "Wait for the lock service, then resume",
            summary: "keep asking until the lock service answers, then run; the report service ignores a second report for the night",
            apply: |sc| clients(sc, |c| c.retry.max_attempts = 0),
            expect: SAFE,
        }],
    },
    Lesson {
        id: "release-lost",
        chapter: CHAPTER_REACHABLE,
        sources: &[ASSUMPTIONS, REDIS],
        json: include_str!("library/release-lost.json"),
        expect: SAFE,
        fixes: &[Fix {
            name: "shorter-lease",
            title: "A shorter lease: less waiting, more risk",
            summary: "a 10 s lease frees the lock 20 s sooner, and would expire 20 s sooner under a holder that is only slow",
            apply: |sc| clients(sc, |c| c.ttl_ms = 10_000),
            expect: SAFE.narrowed(holds::RELEASE_LOST_SHORTER_LEASE),
        }],
    },
    Lesson {
        id: "random-value-release",
        chapter: CHAPTER_FENCE,
        sources: &[REDIS, ANTIREZ, KLEPPMANN],
        json: include_str!("library/random-value-release.json"),
        expect: UNSAFE_STALE,
        fixes: &[Fix {
            name: "token-service",
            title: "Take the lock from a service that issues tokens",
            summary: "a lock service that hands out a token that only goes up, and storage that rejects a lower one",
            apply: |sc| {
                sc.coordinator.flavor = Flavor::Generic;
                fence(sc);
            },
            expect: FENCED,
        }],
    },
    Lesson {
        id: "restore-from-backup",
        chapter: CHAPTER_FENCE,
        sources: &[DANGEROUS],
        json: include_str!("library/restore-from-backup.json"),
        expect: Expect { safe: false, must: &[TokenRegression], must_not: &[StaleWrite], rejected: true, narrows: None },
        fixes: &[Fix {
            name: "counter-outside-backup",
            title: "Never restore the counter below an issued token",
            summary: "the token counter survives the restore, so client 3 is granted 35 and its write lands",
            apply: |sc| sc.coordinator.counter = Durability::Durable,
            expect: SAFE,
        }],
    },
    Lesson {
        id: "exact-fence",
        chapter: CHAPTER_FENCE,
        sources: &[ETCD, DANGEROUS],
        json: include_str!("library/exact-fence.json"),
        expect: UNSAFE_STALE,
        fixes: &[Fix {
            name: "transaction",
            title: "Ask etcd who owns the lock, in the write's transaction",
            summary: "one etcd transaction: write only if the writer's own key under the lock prefix still exists with the create revision it was granted, so it is still the owner",
            apply: |sc| sc.storage.fence = FenceMode::Exact,
            expect: FENCED,
        }],
    },
    Lesson {
        id: "unique-constraint",
        chapter: CHAPTER_UNFENCEABLE,
        sources: &[DANGEROUS],
        json: include_str!("library/unique-constraint.json"),
        expect: Expect { safe: false, must: &[DuplicateEffect], must_not: &[], rejected: false, narrows: None },
        fixes: &[Fix {
            name: "unique-index",
            title: "A unique index on the order id",
            summary: "the database refuses a second shipment row for the same order, whoever inserts it",
            apply: |sc| sc.storage.idempotency = true,
            expect: SAFE,
        }],
    },
    Lesson {
        id: "conditional-write",
        chapter: CHAPTER_UNFENCEABLE,
        sources: &[KLEPPMANN, DANGEROUS, ASSUMPTIONS],
        json: include_str!("library/conditional-write.json"),
        expect: UNSAFE_STALE,
        fixes: &[
            Fix {
                name: "conditional",
                title: "No lock: write only if the version is unchanged",
                summary: "each client reads the ledger with its version and writes back only if it is still at that version; storage refuses the stale writer, which reads again and retries. As with the unique index and the idempotent job, the resource itself carries correctness, and there is no lock left to outlive",
                apply: |sc| without_lock(sc, true),
                expect: Expect { safe: true, must: &[], must_not: &[], rejected: true, narrows: None },
            },
            Fix {
                name: "blind",
                title: "No lock and no condition",
                summary: "the same read-modify-write with neither a lock nor a version check: nothing refuses the writer that read an older version",
                apply: |sc| without_lock(sc, false),
                expect: Expect { safe: false, must: &[LostUpdate], must_not: &[StaleWrite], rejected: false, narrows: None },
            },
        ],
    },
];

/// Every client drops its acquire and release steps; each update becomes conditional
/// (`if_unchanged`) or stays blind.
fn without_lock(sc: &mut Scenario, conditional: bool) {
    clients(sc, |c| {
        c.job
            .retain(|s| !matches!(s, Step::Acquire | Step::Release));
        for s in &mut c.job {
            if let Step::Update { if_unchanged, .. } = s {
                *if_unchanged = conditional;
            }
        }
    });
}

/// A lesson by id, or one of its fixes as `id/fix`.
pub fn find(name: &str) -> Option<Scenario> {
    open_in(LESSONS, name)
}

/// The scenario `name` opens among `lessons`: a lesson by id, or one of its fixes as
/// `id/fix`.
pub fn open_in<'a>(lessons: impl IntoIterator<Item = &'a Lesson>, name: &str) -> Option<Scenario> {
    let (id, fix) = match name.split_once('/') {
        Some((id, fix)) => (id, Some(fix)),
        None => (name, None),
    };
    let lesson = lessons.into_iter().find(|l| l.id == id)?;
    match fix {
        None => Some(lesson.scenario()),
        Some(f) => lesson.variant(f),
    }
}
