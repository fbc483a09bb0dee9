//! ZooKeeper with Curator's lock recipe (`InterProcessMutex`).
//!
//! After the ZooKeeper programmer's guide (sessions) and the Curator lock recipe:
//! - acquiring creates an ephemeral sequential node; the lowest node holds the lock and
//!   every other waiter watches its predecessor — which, with one lock, is a queue in
//!   creation order, so the flavor always queues;
//! - the session is the lease: the client pings every third of the session timeout (its
//!   `ttl_ms`), and the ensemble expires a silent session on its monotonic clock, deleting
//!   its nodes (the next waiter's watch fires);
//! - a partitioned client sees **Disconnected** (Curator: SUSPENDED) once it has heard
//!   nothing for two thirds of the timeout (the ZooKeeper client's read timeout), and keeps
//!   believing; once SUSPENDED has lasted the session timeout, Curator reports **LOST** (its
//!   simulated session expiration, `ConnectionStateManager`), which ends the belief and
//!   does what the job's loss policy says — Curator's lock recipe interrupts nothing. If the
//!   link heals first, the next ping is refused and the client learns **Expired**. With
//!   `coordinator.stop_on_disconnect` its connection listener stops the work on
//!   Disconnected instead (the Curator docs' advice for SUSPENDED). The model is Curator on
//!   a ZooKeeper client before 3.9.3: from 3.9.3 (ZOOKEEPER-4508) the client itself closes
//!   a session it has not heard from for 4/3 of the timeout, which is not modelled;
//! - the fence is the creation zxid of the lock node: every create and delete takes the
//!   next zxid, so tokens go up but skip (a waiter's token is fixed when its node is
//!   created, not when it is granted);
//! - a leader change restarts every session deadline at a full timeout.
//!
//! The ensemble is modelled as one node: its internal replication is not what the lesson
//! is about, and its zxids survive restarts (`counter` is ignored: always durable).

use super::Waiters;
use super::{Expiry, Failover, Model, OnExpiry, Tokens};

/// One paragraph for the inspector, in our words, naming the source.
pub const EXPLAINER: &str = "ZooKeeper with the lock recipe of Apache Curator (InterProcessMutex): each \
contender creates an ephemeral sequential node, the lowest one holds the lock, and every other \
waiter watches the node just before its own. The node lives as long as the client's session, \
which the ensemble expires when it has not heard from the client for the session timeout. A \
client cut off from the ensemble first sees \"Disconnected\" (Curator calls it SUSPENDED); once \
SUSPENDED has lasted the session timeout, Curator reports LOST. Neither interrupts the code \
holding the lock: only a connection listener that stops the work does. The model is Curator on \
a ZooKeeper client before 3.9.3 (from 3.9.3 the client itself gives a silent session up after \
4/3 of the timeout). The zxid at which the lock node was created: zxids increase with every change to \
the store (skipping the numbers other changes took), so it serves as the fencing token (Kleppmann 2016 suggests exactly this); storage has \
to check it.";

pub const MODEL: Model = Model {
    name: "zookeeper",
    fence: "the lock node's creation zxid (czxid): ordered, survives restarts",
    tokens: Tokens::Revision,
    waiters: Some(Waiters::Queue),
    wall_expiry: false,
    lazy_expiry: false,
    lock_delay_ms: 0,
    failover: Failover::Extend { extra_ms: 0 },
    keepalive_div: 3,
    on_expiry: OnExpiry::Disconnect,
    // The server negotiates a session timeout up to 2 × tickTime: 4 s with the sample
    // zoo.cfg's tickTime of 2 s, which the model assumes (6 s with the code's default of
    // 3 s). A scenario must state at least that, so the file says what runs.
    min_ttl_ms: 4_000,
    expiry: Expiry::NextTick,
    nodes: 1,
};
