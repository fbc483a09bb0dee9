//! Redlock's client-facing side: five [`GenericCoordinator`]s behind one lock service.
//!
//! The algorithm's numbers (five masters, the majority, the drift allowance, the validity
//! formula) and its service table are facts about Redlock and live in
//! [`crate::model::flavors::redlock`]; this module is the engine that routes a client's
//! requests to the right master.

use crate::model::flavors::redlock::MASTERS;
use crate::model::msg::Msg;
use crate::model::scenario::CoordinatorSpec;
use crate::model::sim::coordinator::{GenericCoordinator, LockService};
use crate::model::sim::models::Models;
use crate::model::sim::node::{Ctx, TimerKind};
use crate::vocab::ids::NodeId;

/// The five masters. Each is a [`GenericCoordinator`] with Redis's model; this type only
/// routes to the right one and shares the grant counter, so that epochs (simulator
/// bookkeeping that orders grants for the checker) stay unique and increasing across
/// masters.
#[derive(Clone)]
pub struct Redlock<K: Models> {
    masters: Vec<GenericCoordinator<K>>,
    grants: u32,
}

impl<K: Models> Redlock<K> {
    pub fn new(spec: &CoordinatorSpec) -> Redlock<K> {
        Redlock {
            masters: (0..MASTERS)
                .map(|_| GenericCoordinator::new(spec))
                .collect(),
            grants: 0,
        }
    }

    fn on(&mut self, node: NodeId, f: impl FnOnce(&mut GenericCoordinator<K>)) {
        let i = match node {
            NodeId::Coord(i) => usize::from(i).min(self.masters.len() - 1),
            _ => return,
        };
        let m = &mut self.masters[i];
        m.grants = self.grants;
        f(m);
        self.grants = m.grants;
    }
}

impl<K: Models> LockService for Redlock<K> {
    fn on_message(&mut self, ctx: &mut Ctx, node: NodeId, from: NodeId, msg: &Msg) {
        self.on(node, |m| m.on_message(ctx, node, from, msg));
    }
    fn on_timer(&mut self, ctx: &mut Ctx, node: NodeId, timer: &TimerKind) {
        self.on(node, |m| m.on_timer(ctx, node, timer));
    }
    fn on_restart(&mut self, ctx: &mut Ctx, node: NodeId) {
        self.on(node, |m| m.on_restart(ctx, node));
    }
    fn on_failover(&mut self, ctx: &mut Ctx, node: NodeId, down_ms: i64) {
        self.on(node, |m| m.on_failover(ctx, node, down_ms));
    }
    fn invalidate(&mut self, ctx: &mut Ctx, node: NodeId, client: NodeId) {
        self.on(node, |m| m.invalidate(ctx, node, client));
    }
    fn current_token(&self) -> Option<u64> {
        None
    }
    fn set_renewals_failing(&mut self, failing: bool) {
        for m in &mut self.masters {
            m.set_renewals_failing(failing);
        }
    }

    fn boxed_clone(&self) -> Box<dyn LockService> {
        Box::new(self.clone())
    }
}
