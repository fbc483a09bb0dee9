//! ZooKeeper with Curator's lock recipe (`InterProcessMutex`).
//!
//! After the ZooKeeper programmer's guide (sessions) and the Curator lock recipe:
//! - acquiring creates an ephemeral sequential node; the lowest node holds the lock and
//!   every other waiter watches its predecessor — which, with one lock, is a queue in
//!   creation order, so the flavor always queues;
//! - the session is the lease: the client pings every third of the session timeout (its
//!   `ttl_ms`), and the ensemble expires a silent session on its monotonic clock, deleting
//!   its nodes (the next waiter's watch fires);
//! - a partitioned client sees **Disconnected** once it has heard nothing for two thirds of
//!   the timeout, keeps believing, and learns **Expired** only when, reconnected, its next
//!   ping is refused — until then its lock may already be someone else's; with
//!   `coordinator.stop_on_disconnect` its connection listener stops the work on
//!   Disconnected instead (the Curator docs' advice for SUSPENDED);
//! - the fence is the creation zxid of the lock node: every create and delete takes the
//!   next zxid, so tokens go up but skip (a waiter's token is fixed when its node is
//!   created, not when it is granted);
//! - a leader change restarts every session deadline at a full timeout.
//!
//! The ensemble is modelled as one node: its internal replication is not what the lesson
//! is about, and its zxids survive restarts (`counter` is ignored: always durable).

use super::Waiters;
use super::{Failover, Model, OnExpiry, Tokens};

pub const MODEL: Model = Model {
    name: "zookeeper",
    explainer: "ZooKeeper with the lock recipe of Apache Curator: each contender creates an \
ephemeral sequential node, the lowest one holds the lock, and every other waiter watches the \
node just before its own. The node lives as long as the client's session, which the ensemble \
expires when it has not heard from the client for the session timeout. A client cut off from \
the ensemble only sees \"Disconnected\"; it learns that its session expired, and with it the \
lock, after it reconnects — possibly long after another client took over. The zxid at which \
the lock node was created increases with every change to the store, so it serves as the \
fencing token (Kleppmann 2016 suggests exactly this); storage has to check it.",
    fence: "the lock node's creation zxid (czxid): ordered, survives restarts",
    tokens: Tokens::Revision,
    waiters: Some(Waiters::Queue),
    wall_expiry: false,
    lazy_expiry: false,
    lock_delay_ms: 0,
    failover: Failover::Extend { extra_ms: 0 },
    keepalive_div: 3,
    on_expiry: OnExpiry::Disconnect,
    min_ttl_ms: 4_000,
    nodes: 1,
};
