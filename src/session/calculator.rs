//! The safety calculator's form: the five numbers a reader types, read into a bound or into
//! a message at the field at fault. The bound is `analysis::bound`'s; this is only what the
//! page's panel would otherwise decide in a component — the starting values (client 1 and
//! the scenario's own bounds), the rules a value must keep, and which field a refusal of
//! the bound belongs to — so it is tested here, with no browser. The reader may also ask
//! about another lock service than the scenario's: the scenario is then switched to it the
//! way the editor switches it (`edit::set_flavor`), and the bound read from that.

use crate::analysis::bound::{bound, holder_of, Bound, Env, Holder, Refusal};
use crate::model::flavors::Flavor;
use crate::model::scenario::{FaultKind, Scenario};
use crate::session::edit::set_flavor;

/// The fields, in order: (key, label, what a refusal of `analysis::bound` calls it).
pub const FIELDS: [(&str, &str, &str); 5] = [
    ("ttl", "TTL (ms)", "--ttl"),
    ("margin", "Safety margin (ms)", "--margin"),
    ("pause", "Longest pause P (ms)", "--max-pause-ms"),
    ("delay", "Longest one-way delay D (ms)", "--max-delay-ms"),
    ("drift", "Largest clock drift ρ (ppm)", "--max-drift-ppm"),
];

/// The index of the pause field, which "Pauses have no bound" switches off.
pub const PAUSE: usize = 2;

/// What the reader has typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form {
    pub values: [String; 5],
    /// "Pauses have no bound": the pause field is not read.
    pub unbounded: bool,
    /// The lock service asked about, when the reader picked another than the scenario's.
    pub flavor: Option<Flavor>,
}

/// The form read: a message per field (none where the value is fine) and, when every
/// field is fine, the bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub holder: Holder,
    pub errors: [Option<String>; 5],
    pub bound: Option<Bound>,
}

impl Form {
    /// The form as it starts for `sc`: its client 1 and its own bounds (also when the
    /// calculator refuses that client: the reader may pick another lock service).
    pub fn of(sc: &Scenario) -> Form {
        let env = Env::of_scenario(sc);
        let (ttl, margin) = sc
            .clients
            .first()
            .map_or((0, 0), |c| (c.ttl_ms, c.margin_ms));
        Form {
            values: [
                ttl.to_string(),
                margin.to_string(),
                env.max_pause_ms.map_or(String::new(), |p| p.to_string()),
                env.max_delay_ms.to_string(),
                env.max_drift_ppm.to_string(),
            ],
            unbounded: false,
            flavor: None,
        }
    }

    /// The lock service the form asks about: the one picked, or the scenario's.
    pub fn flavor_of(&self, sc: &Scenario) -> Flavor {
        self.flavor.unwrap_or(sc.coordinator.flavor)
    }

    /// `sc`, switched to the lock service picked (as the editor switches it).
    pub fn scenario(&self, sc: &Scenario) -> Scenario {
        let mut sc = sc.clone();
        match self.flavor {
            Some(f) if f != sc.coordinator.flavor => set_flavor(&mut sc, f),
            _ => {}
        }
        sc
    }

    /// Reads every field; a bad one gets its message, and nothing is computed from it. A
    /// client the calculator does not take (its lock service, its settings) is refused
    /// whole, with the reason.
    pub fn read(&self, sc: &Scenario) -> Result<Reading, Refusal> {
        let sc = &self.scenario(sc);
        let holder = holder_of(sc, 0)?;
        let mut errors: [Option<String>; 5] = Default::default();
        let mut nums = [0i64; 5];
        for (i, v) in self.values.iter().enumerate() {
            if i == PAUSE && self.unbounded {
                continue;
            }
            match parse(v) {
                Ok(n) => nums[i] = n,
                Err(e) => errors[i] = Some(e),
            }
        }
        if errors[0].is_none() && nums[0] == 0 {
            errors[0] = Some("a lease of 0 ms is no lease".into());
        }
        if errors[0].is_none() && errors[1].is_none() && nums[1] >= nums[0] {
            errors[1] = Some("the margin must be shorter than the TTL".into());
        }
        let mut h = holder;
        h.ttl_ms = nums[0];
        h.margin_ms = nums[1];
        let env = Env {
            max_pause_ms: (!self.unbounded).then_some(nums[PAUSE]),
            max_delay_ms: nums[3],
            max_drift_ppm: nums[4],
        };
        let bound = if errors.iter().any(Option::is_some) {
            None
        } else {
            match bound(sc, &h, &env) {
                Ok(b) => Some(b),
                Err(r) => {
                    match FIELDS.iter().position(|f| f.2 == r.option) {
                        Some(i) => errors[i] = Some(r.reason),
                        None => errors[0] = Some(format!("{}: {}", r.option, r.reason)),
                    }
                    None
                }
            }
        };
        Ok(Reading {
            holder,
            errors,
            bound,
        })
    }
}

/// The faults of `sc` the calculator's bounds leave out (a partition, a clock jump, a
/// restart, …), each named once in the order they come. The figure is for pauses, delays
/// and drift only, so the panel says so when the run on screen breaks some other way —
/// `zookeeper-partition` is "safe" by the calculator and unsafe by its partition.
pub fn uncovered(sc: &Scenario) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in &sc.faults {
        let name = match f.kind {
            FaultKind::Pause { .. } | FaultKind::Heal { .. } => continue,
            FaultKind::Delay { .. } => "a held-up message",
            FaultKind::Partition { .. } => "a partition",
            FaultKind::ClockJump { .. } => "a clock jump",
            FaultKind::Restart { .. } => "a restart",
            FaultKind::FailRenewals { .. } => "failing renewals",
            FaultKind::Failover { .. } => "a failover",
            FaultKind::FalsePositive { .. } => "a false positive",
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A whole number of ms (or ppm) at least 0, or the message for its field.
fn parse(text: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(v) if v >= 0 => Ok(v),
        Ok(_) => Err("must be 0 or more".into()),
        Err(_) if text.trim().is_empty() => Err("a number is needed".into()),
        Err(_) => Err("not a whole number".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::course::open;

    #[test]
    fn the_default_page_starts_from_its_own_client_and_bounds() {
        let sc = open("gc-pause").unwrap();
        let form = Form::of(&sc);
        assert_eq!(
            form.values,
            ["30000", "0", "40000", "5", "0"].map(String::from)
        );
        let r = form.read(&sc).unwrap();
        assert!(r.errors.iter().all(Option::is_none), "{:?}", r.errors);
        assert_eq!(r.bound.unwrap().worst_overlap_ms, Some(20_015));
    }

    #[test]
    fn a_bad_value_is_named_at_its_field_and_nothing_is_computed() {
        let sc = open("gc-pause").unwrap();
        let good = Form::of(&sc);
        for (i, v, want) in [
            (1, "40000", "the margin must be shorter than the TTL"),
            (0, "0", "a lease of 0 ms is no lease"),
            (3, "-1", "must be 0 or more"),
            (4, "", "a number is needed"),
            (2, "1.5", "not a whole number"),
            (4, "600000", "a drift bound is 0 … 500000 ppm (±50 %)"),
        ] {
            let mut f = good.clone();
            f.values[i] = v.to_string();
            let r = f.read(&sc).unwrap();
            assert_eq!(r.errors[i].as_deref(), Some(want), "{v}");
            assert!(r.bound.is_none());
        }
        // A refusal of the bound lands at the field it names.
        let mut f = good.clone();
        f.values[3] = "600".into();
        let r = f.read(&sc).unwrap();
        assert!(r.errors[3].is_some(), "{:?}", r.errors);
        // With no bound on pauses the pause field is not read at all.
        let mut f = good;
        f.values[PAUSE] = "nonsense".into();
        f.unbounded = true;
        let r = f.read(&sc).unwrap();
        assert!(r.errors.iter().all(Option::is_none), "{:?}", r.errors);
        assert_eq!(r.bound.unwrap().worst_overlap_ms, None);
    }

    #[test]
    fn another_lock_service_is_asked_about_as_the_editor_would_switch_to_it() {
        let sc = open("gc-pause").unwrap();
        let mut f = Form::of(&sc);
        assert_eq!(f.flavor_of(&sc), Flavor::Generic);
        // Redlock: the same client, the validity rule of five masters.
        f.flavor = Some(Flavor::Redlock);
        let r = f.read(&sc).unwrap();
        assert_eq!(r.holder.flavor, Flavor::Redlock);
        let b = r.bound.expect("redlock is bounded");
        assert_eq!(
            b.worst_case.as_ref().map(|w| w.coordinator.flavor),
            Some(Flavor::Redlock)
        );
        // Every lock service is either bounded or refused with a reason, never a panic.
        for fl in Flavor::ALL {
            f.flavor = Some(fl);
            match f.read(&sc) {
                Ok(r) => assert_eq!(r.holder.flavor, fl),
                Err(refusal) => assert!(!refusal.reason.is_empty(), "{}", fl.name()),
            }
        }
        // The scenario itself is not changed.
        assert_eq!(sc.coordinator.flavor, Flavor::Generic);
    }

    #[test]
    fn faults_outside_the_bounds_are_named() {
        assert!(uncovered(&open("gc-pause").unwrap()).is_empty());
        assert_eq!(
            uncovered(&open("zookeeper-partition").unwrap()),
            ["a partition"]
        );
    }
}
