//! Which lock-service models a run's clients and service read, as a type: the client and
//! the generic service are generic over it, so that a build whose runs carry one service
//! ([`super::Pauses`]) compiles every other service's branches out of them.

use crate::model::flavors::Model;
use std::fmt::Debug;

/// How a run reads its lock service's model (see the module's text).
pub trait Models: Copy + Debug + Default + PartialEq + 'static {
    /// The model of a service whose model is `model`, as the run reads it: `model` itself,
    /// or, where only one service is carried, that service's model as a constant.
    fn model(model: &'static Model) -> &'static Model;
}
