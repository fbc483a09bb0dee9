//! Flavor presets: each real lock service's characteristic failure, and its remedy.
//!
//! The list follows §9.3 of the lock-services reference: a Redis failover that loses the
//! key, Redlock's clock jump, pause and restart cases, ZooKeeper's partitioned holder,
//! etcd's lease extended by a leader change, Consul's false positive cushioned by
//! lock-delay, Chubby's fail-over inside the grace period and its lock-delay. A preset's
//! base is a JSON file in `flavors/`; a remedy is a small named change to it, as in the
//! scenario library. Every expected verdict is checked natively (`tests/it/flavors.rs`).
//!
//! Names: `redlock-restart` for the base, `redlock-restart/delayed-restart` for a remedy.

use super::holds;
use super::library::{Expect, Fix, Lesson, FENCED, SAFE, UNSAFE_STALE as UNSAFE};
use super::library::{ANTIREZ, CHUBBY, CONSUL, CURATOR, ETCD, KLEPPMANN, REDIS, ZOOKEEPER};
use crate::model::scenario::{FenceMode, Flavor, LossPolicy, Scenario};

/// A flavor preset is a lesson (base JSON, remedies, verdicts) tied to its service.
pub struct FlavorPreset {
    pub flavor: Flavor,
    pub summary: &'static str,
    pub lesson: Lesson,
}

impl FlavorPreset {
    pub fn name(&self) -> &'static str {
        self.lesson.id
    }

    pub fn scenario(&self) -> Scenario {
        self.lesson.scenario()
    }
}

// Sources only these presets cite.
const JEPSEN_REDIS: &str = "Jepsen 2013, Redis and Sentinel";
const ETCD_ISSUES: &str = "etcd issues 9395 and 9888, leases refreshed by a new leader";

/// The chapter every flavor preset belongs to.
pub const CHAPTER_SERVICES: &str = "Real lock services side by side";

fn fence(sc: &mut Scenario) {
    sc.storage.fence = FenceMode::Monotone;
}

/// Turning on a fence where the service issues no token: every write is refused.
const NO_TOKEN: Fix = Fix {
    name: "fenced",
    title: "Turn on fencing (with no tokens to check)",
    summary:
        "storage checks tokens — but there are none, so it refuses every write: safe and useless",
    apply: fence,
    expect: FENCED,
};

pub const FLAVOR_PRESETS: &[FlavorPreset] = &[
    FlavorPreset {
        flavor: Flavor::Redis,
        summary: "Redis master fails over before the key reached the replica: two holders, no token",
        lesson: Lesson {
            id: "redis-failover",
            chapter: CHAPTER_SERVICES,
            sources: &[REDIS, JEPSEN_REDIS],
            json: include_str!("flavors/redis-failover.json"),
            expect: UNSAFE,
            fixes: &[NO_TOKEN],
        },
    },
    FlavorPreset {
        flavor: Flavor::Redis,
        summary: "the Redis server's wall clock steps 25 s forward: the key expires early",
        lesson: Lesson {
            id: "redis-clock-jump",
            chapter: CHAPTER_SERVICES,
            sources: &[REDIS, KLEPPMANN],
            json: include_str!("flavors/redis-clock-jump.json"),
            expect: UNSAFE,
            // No remedy the service offers: a monotonic clock setting does not move Redis's
            // key expiry, and a fence has no token to check.
            fixes: &[NO_TOKEN],
        },
    },
    FlavorPreset {
        flavor: Flavor::Redlock,
        summary: "Kleppmann's A–E case: master C's clock jumps, client 2 wins C, D, E while client 1 holds A, B, C",
        lesson: Lesson {
            id: "redlock-clock-jump",
            chapter: CHAPTER_SERVICES,
            sources: &[KLEPPMANN, REDIS],
            json: include_str!("flavors/redlock-clock-jump.json"),
            expect: UNSAFE,
            fixes: &[NO_TOKEN],
        },
    },
    FlavorPreset {
        flavor: Flavor::Redlock,
        summary: "client 1 pauses while the five grants are in flight; its validity check, run after the pause, refuses the lock (antirez's reply, 2016)",
        lesson: Lesson {
            id: "redlock-pause-in-flight",
            chapter: CHAPTER_SERVICES,
            sources: &[KLEPPMANN, ANTIREZ],
            json: include_str!("flavors/redlock-pause-in-flight.json"),
            expect: SAFE,
            fixes: &[
                Fix {
                    name: "after-check",
                    title: "Pause after the validity check instead",
                    summary: "the same pause a moment later, after the validity check: client 1 writes late",
                    apply: |sc| sc.faults[0].at_ms = 100,
                    expect: UNSAFE,
                },
            ],
        },
    },
    FlavorPreset {
        flavor: Flavor::Redlock,
        summary: "master C restarts without persistence and forgets client 1's key: client 2 wins C, D, E",
        lesson: Lesson {
            id: "redlock-restart",
            chapter: CHAPTER_SERVICES,
            sources: &[REDIS, KLEPPMANN],
            json: include_str!("flavors/redlock-restart.json"),
            expect: UNSAFE,
            fixes: &[
                Fix {
                    name: "delayed-restart",
                    title: "Keep a restarted master down longer than the TTL",
                    summary: "a restarted master stays down a little longer than the longest TTL (11 s against 10 s), so it joins no live lock",
                    apply: |sc| sc.coordinator.restart_delay_ms = 11_000,
                    expect: SAFE.narrowed(holds::REDLOCK_RESTART_DELAYED_RESTART),
                },
            ],
        },
    },
    FlavorPreset {
        flavor: Flavor::Zookeeper,
        summary: "client 1 is cut off from ZooKeeper, not from storage: Disconnected, its session expires, Curator reports LOST, its code logs it and writes anyway",
        lesson: Lesson {
            id: "zookeeper-partition",
            chapter: CHAPTER_SERVICES,
            sources: &[ZOOKEEPER, CURATOR],
            json: include_str!("flavors/zookeeper-partition.json"),
            expect: UNSAFE,
            fixes: &[
                Fix {
                    name: "zxid-fence",
                    title: "Storage checks ZooKeeper's zxid",
                    summary: "storage checks the lock node's creation zxid: 1 < 2",
                    apply: fence,
                    expect: FENCED,
                },
                Fix {
                    name: "suspended-listener",
                    title: "Stop the work on Disconnected",
                    summary: "a connection listener stops the work on Disconnected (SUSPENDED), before the session can expire",
                    // The listener is the code acting on the loss: it stops the job, where
                    // the base only logged LOST.
                    apply: |sc| {
                        sc.coordinator.stop_on_disconnect = true;
                        sc.clients.iter_mut().for_each(|c| c.on_loss = LossPolicy::Abort);
                    },
                    expect: SAFE,
                },
            ],
        },
    },
    FlavorPreset {
        flavor: Flavor::Etcd,
        summary: "the holder dies; a leader change refreshes its lease, so the lock stays blocked longer than the TTL (liveness, not safety)",
        lesson: Lesson {
            id: "etcd-leader-change",
            chapter: CHAPTER_SERVICES,
            sources: &[ETCD, ETCD_ISSUES],
            json: include_str!("flavors/etcd-leader-change.json"),
            expect: SAFE,
            fixes: &[],
        },
    },
    FlavorPreset {
        flavor: Flavor::Consul,
        summary: "a health-check false positive releases a live holder's lock; with no lock-delay, client 2 writes first",
        lesson: Lesson {
            id: "consul-false-positive",
            chapter: CHAPTER_SERVICES,
            sources: &[CONSUL],
            json: include_str!("flavors/consul-false-positive.json"),
            expect: UNSAFE,
            fixes: &[
                Fix {
                    name: "lock-delay",
                    title: "Keep Consul's 15 s lock delay",
                    summary: "Consul's default 15 s lock-delay: the old holder's write lands before anyone else gets the lock",
                    apply: |sc| sc.coordinator.lock_delay_ms = None,
                    expect: SAFE.narrowed(holds::CONSUL_FALSE_POSITIVE_LOCK_DELAY),
                },
                Fix {
                    name: "sequencer",
                    title: "Storage checks Consul's LockIndex",
                    summary: "storage checks the sequencer's LockIndex: 1 < 2",
                    apply: fence,
                    expect: FENCED,
                },
            ],
        },
    },
    FlavorPreset {
        flavor: Flavor::Chubby,
        summary: "a 20 s master fail-over, longer than the 12 s lease: jeopardy, then safe — the holder keeps its lock",
        lesson: Lesson {
            id: "chubby-failover",
            chapter: CHAPTER_SERVICES,
            sources: &[CHUBBY],
            json: include_str!("flavors/chubby-failover.json"),
            expect: SAFE,
            fixes: &[],
        },
    },
    FlavorPreset {
        flavor: Flavor::Chubby,
        summary: "the holder freezes past its lease; with no lock-delay its late write lands after client 2's",
        lesson: Lesson {
            id: "chubby-lock-delay",
            chapter: CHAPTER_SERVICES,
            sources: &[CHUBBY],
            json: include_str!("flavors/chubby-lock-delay.json"),
            expect: UNSAFE,
            fixes: &[
                Fix {
                    name: "lock-delay",
                    title: "Use Chubby's longest lock delay (60 s)",
                    summary: "a lock-delay of one minute, the longest a Chubby client may choose: the lock stays free until the failed holder's write is long done",
                    apply: |sc| sc.coordinator.lock_delay_ms = None,
                    expect: SAFE.narrowed(holds::CHUBBY_LOCK_DELAY_LOCK_DELAY),
                },
                Fix {
                    name: "sequencer",
                    title: "Storage checks Chubby's sequencer",
                    summary: "storage checks the sequencer's generation number: 1 < 2",
                    apply: fence,
                    expect: FENCED,
                },
            ],
        },
    },
];

/// A flavor preset by name, or one of its remedies as `name/fix`.
pub fn find(name: &str) -> Option<Scenario> {
    super::library::open_in(FLAVOR_PRESETS.iter().map(|p| &p.lesson), name)
}

/// Every runnable name with the verdict it must reach: bases, then `base/fix`.
pub fn all() -> Vec<(String, Expect)> {
    let mut v = Vec::new();
    for l in FLAVOR_PRESETS.iter().map(|p| &p.lesson) {
        v.push((l.id.to_string(), l.expect));
        v.extend(
            l.fixes
                .iter()
                .map(|f| (format!("{}/{}", l.id, f.name), f.expect)),
        );
    }
    v
}
