//! What a simulation is built with: the lock services it can construct and the faults it
//! can apply beyond a pause.
//!
//! A run's rules are the same in every build; what a build can leave out is the code of
//! services and faults it never constructs. The page's first load plays the default page's
//! run alone (the generic service, pauses only), so it builds its runs with [`Pauses`] and
//! the linker leaves every other service and fault out of its wasm; everything else builds
//! with [`Whole`]. A kit never runs a scenario differently: it either carries it
//! ([`Kit::carries`]), and then gives the trace [`Whole`] gives entry for entry (the tests
//! below compare them on every built-in scenario a smaller kit carries), or it is not the
//! kit to run it.

use super::coordinator::{GenericCoordinator, LockService};
use super::models::Models;
use super::redlock::Redlock;
use super::{Ev, Sim};
use crate::model::flavors::{generic, Flavor, Model};
use crate::model::scenario::{CoordinatorSpec, FaultKind, Scenario};

/// The services and faults a simulation is built with (see the module's text), and the
/// models its clients read ([`Models`]).
pub trait Kit: Models {
    /// The lock service a run holds.
    type Service: LockService + Clone;

    /// Whether a run of `sc` built with this kit is the run [`Whole`] gives.
    fn carries(sc: &Scenario) -> bool;

    /// The lock service `spec` asks for.
    fn service(spec: &CoordinatorSpec) -> Self::Service;

    /// Applies a fault other than a pause (the run loop applies pauses itself).
    #[allow(private_interfaces)]
    fn fault(sim: &mut Sim<'_, Self>, kind: &FaultKind);

    /// Handles an event only those faults queue (a recovery, an election, renewals back).
    #[allow(private_interfaces)]
    fn after_fault(sim: &mut Sim<'_, Self>, ev: Ev);
}

/// Every lock service and every fault: what the whole app, the command-line tool and the
/// tests build runs with.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Whole;

impl Models for Whole {
    fn model(model: &'static Model) -> &'static Model {
        model
    }
}

impl Kit for Whole {
    type Service = Box<dyn LockService>;

    fn carries(_: &Scenario) -> bool {
        true
    }

    fn service(spec: &CoordinatorSpec) -> Self::Service {
        match spec.flavor {
            Flavor::Redlock => Box::new(Redlock::<Whole>::new(spec)),
            _ => Box::new(GenericCoordinator::<Whole>::new(spec)),
        }
    }

    #[allow(private_interfaces)]
    fn fault(sim: &mut Sim<'_, Self>, kind: &FaultKind) {
        sim.other_fault(kind)
    }

    #[allow(private_interfaces)]
    fn after_fault(sim: &mut Sim<'_, Self>, ev: Ev) {
        sim.after_fault(ev)
    }
}

/// The generic lock service, and pauses: the default page's run and its fenced fix, all
/// the first load plays (its page hands anything else to the whole app).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pauses;

/// The generic service's model, whatever the scenario names: a constant, so the clients'
/// and the service's branches for the others are compiled out (a scenario of another
/// service is not [carried](Kit::carries)).
impl Models for Pauses {
    fn model(_: &'static Model) -> &'static Model {
        &generic::MODEL
    }
}

impl Kit for Pauses {
    type Service = GenericCoordinator<Pauses>;

    fn carries(sc: &Scenario) -> bool {
        sc.coordinator.flavor == Flavor::Generic
            && sc
                .faults
                .iter()
                .all(|f| matches!(f.kind, FaultKind::Pause { .. }))
    }

    fn service(spec: &CoordinatorSpec) -> Self::Service {
        GenericCoordinator::new(spec)
    }

    /// Never called: a scenario with another fault is not [carried](Kit::carries).
    #[allow(private_interfaces)]
    fn fault(_: &mut Sim<'_, Self>, _: &FaultKind) {}

    /// Never called: only the faults this kit does not carry queue these events.
    #[allow(private_interfaces)]
    fn after_fault(_: &mut Sim<'_, Self>, _: Ev) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::run_with;
    use crate::teach::{course, presets::PRESETS};

    /// Every built-in scenario by name: the presets, each lesson of the menu and each fix.
    fn every_scenario() -> Vec<(String, Scenario)> {
        let mut names: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
        for chapter in course::menu() {
            for l in chapter.lessons {
                names.push(l.id.to_string());
                names.extend(l.fixes.into_iter().map(|f| f.scenario));
            }
        }
        names
            .into_iter()
            .map(|n| {
                let sc = course::open(&n).unwrap_or_else(|| panic!("{n} opens"));
                (n, sc)
            })
            .collect()
    }

    /// Every built-in scenario the small kit carries runs as the whole model runs it;
    /// the default page's run and its fix are among them.
    #[test]
    fn a_smaller_kit_runs_what_it_carries_exactly_as_the_whole_model() {
        let mut carried = Vec::new();
        for (name, sc) in every_scenario() {
            if Pauses::carries(&sc) {
                let whole = run_with::<Whole>(&sc);
                let small = run_with::<Pauses>(&sc);
                assert_eq!(small.entries, whole.entries, "{name}");
                // (So what tells a run of this kit needs no words for those events.)
                assert!(
                    small.entries.iter().all(|e| !e.event.is_beyond_pauses()),
                    "{name}"
                );
                assert_eq!(small.digest(), whole.digest(), "{name}");
                carried.push(name);
            }
        }
        for name in ["gc-pause", "gc-pause-fenced"] {
            assert!(carried.contains(&name.to_string()), "{name} in {carried:?}");
        }
        assert!(carried.len() > 2, "{carried:?}");
    }

    #[test]
    fn a_smaller_kit_does_not_carry_other_services_or_faults() {
        for (name, sc) in every_scenario() {
            let other_service = sc.coordinator.flavor != Flavor::Generic;
            let other_fault = sc
                .faults
                .iter()
                .any(|f| !matches!(f.kind, FaultKind::Pause { .. }));
            assert_eq!(
                Pauses::carries(&sc),
                !(other_service || other_fault),
                "{name}"
            );
        }
    }
}
