//! Built-in scenarios. Each is a JSON file beside this module (so it doubles as an example
//! of the format) plus, for a variant, the fence mode it switches to.
//!
//! The scenario library (`library`) and the lock services' presets (`flavor_presets`) hold
//! the lessons; these are the playground scenarios of the picker.

use crate::model::scenario::{
    ClientSpec, ClockSpec, CoordinatorSpec, CountFrom, FailMode, Fault, FaultKind, FenceWith,
    LinkSpec, LossPolicy, NetworkSpec, RetrySpec, Step, StorageSpec,
};
use crate::model::scenario::{FenceMode, Scenario};
use crate::teach::library::{ASSUMPTIONS, DANGEROUS, KLEPPMANN};

/// A built-in scenario.
pub struct Preset {
    pub name: &'static str,
    pub summary: &'static str,
    /// Where its argument comes from (see the library's sources).
    pub sources: &'static [&'static str],
    /// Builds the scenario: read from its file, or (the first load's) built in code. A
    /// function per preset, so a build links the reading of the files it carries only.
    build: fn() -> Scenario,
    fence: Option<FenceMode>,
}

impl Preset {
    pub fn scenario(&self) -> Scenario {
        let mut sc = (self.build)();
        if let Some(f) = self.fence {
            sc.storage.fence = f;
        }
        sc
    }
}

/// Reads a preset's file. The embedded files are checked by a test; a broken one would
/// fail it, not a user.
fn read(name: &str, json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("preset {name}: {e}"))
}

/// The default page's scenario file.
const GC_PAUSE: &str = include_str!("presets/gc-pause.json");

/// The default page's run, and what its two presets say of it.
const GC_PAUSE_PRESET: Preset = Preset {
    name: "gc-pause",
    summary: "GC pause: client 1 freezes past its lease and writes late (token 33 vs 34)",
    sources: &[KLEPPMANN, ASSUMPTIONS],
    build: || read("gc-pause", GC_PAUSE),
    fence: None,
};
const GC_PAUSE_FENCED_PRESET: Preset = Preset {
    name: "gc-pause-fenced",
    summary: "GC pause with fencing (reject lower tokens): storage rejects token 33 < 34",
    fence: Some(FenceMode::Monotone),
    ..GC_PAUSE_PRESET
};

const CLEAN: Preset = Preset {
    name: "clean",
    summary: "Clean run: two clients take turns, no fault",
    sources: &[KLEPPMANN],
    build: || read("clean", include_str!("presets/clean.json")),
    fence: None,
};
const EIGHT_CLIENTS: Preset = Preset {
    name: "eight-clients",
    summary: "Eight clients renewing leases; one freezes mid-lease and is fenced",
    sources: &[KLEPPMANN, DANGEROUS],
    build: || read("eight-clients", include_str!("presets/eight-clients.json")),
    fence: None,
};

pub const PRESETS: &[Preset] = &[
    CLEAN,
    GC_PAUSE_PRESET,
    GC_PAUSE_FENCED_PRESET,
    EIGHT_CLIENTS,
];

/// What the scenario picker lists, by name and summary, in every build: a page that does
/// not carry the one picked hands it to the whole app. A fence variant is not listed: the
/// Fence switch reaches it. Names and words only, so the first load lists them all without
/// linking their files.
pub const PICKER: &[(&str, &str)] = &[
    (CLEAN.name, CLEAN.summary),
    (GC_PAUSE_PRESET.name, GC_PAUSE_PRESET.summary),
    (EIGHT_CLIENTS.name, EIGHT_CLIENTS.summary),
];

/// The first load's presets (`course::FirstLoad`): the default page's run and its fix,
/// the same scenario built in code (`gc_pause`), so the first load carries no JSON
/// reader.
pub const FIRST_LOAD: &[Preset] = &[
    Preset {
        build: gc_pause,
        ..GC_PAUSE_PRESET
    },
    Preset {
        build: gc_pause,
        ..GC_PAUSE_FENCED_PRESET
    },
];

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// `presets/gc-pause.json`, built in code for the first load ([`FIRST_LOAD`]); the test
/// below holds the two equal, so the file stays the one source of the story.
fn gc_pause() -> Scenario {
    let client = |start_ms: i64, job: Vec<Step>| ClientSpec {
        start_ms,
        clock: ClockSpec::default(),
        ttl_ms: 30_000,
        margin_ms: 0,
        count_from: CountFrom::Grant,
        renew_every_ms: None,
        on_loss: LossPolicy::Abort,
        check_before_write: false,
        fence_with: FenceWith::Token,
        retry: RetrySpec::default(),
        timeout_ms: 1_000,
        unreachable: FailMode::Closed,
        job,
    };
    let write = |value: &str| Step::Write {
        key: "account:42".to_string(),
        value: value.to_string(),
    };
    Scenario {
        version: 1,
        name: "GC pause longer than the TTL".to_string(),
        description: "Kleppmann 2016's case. Client 1 takes the lock (token 33) with a 30 s lease and starts a 10 s job. At t = 10 s a stop-the-world GC freezes it for 40 s. At t = 30 s the lease expires on the lock service, which hands the lock to client 2 (token 34); client 2 writes. At t = 50 s client 1 wakes, never checks, and writes with token 33. Without fencing, storage accepts it and client 2's update is lost; with fencing, storage rejects it: token 33 < 34.".to_string(),
        seed: 4,
        horizon_ms: 90_000,
        max_events: 100_000,
        coordinator: CoordinatorSpec {
            first_token: 33,
            ..CoordinatorSpec::default()
        },
        storage: StorageSpec::default(),
        network: NetworkSpec {
            default: LinkSpec::default(),
            links: Vec::new(),
        },
        clients: vec![
            client(
                0,
                vec![
                    Step::Acquire,
                    Step::Work { ms: 10_000 },
                    write("balance=100 (c1)"),
                    Step::Release,
                ],
            ),
            client(
                1_000,
                vec![
                    Step::Acquire,
                    Step::Work { ms: 1_000 },
                    write("balance=250 (c2)"),
                    Step::Work { ms: 20_000 },
                    Step::Release,
                ],
            ),
        ],
        faults: vec![Fault {
            after: None,
            at_ms: 10_000,
            kind: FaultKind::Pause {
                node: crate::vocab::ids::NodeId::Client(0),
                for_ms: 40_000,
                cause: crate::vocab::names::PauseCause::Gc,
            },
        }],
        walkthrough: Vec::new(),
        questions: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_picker_lists_every_preset_but_the_fence_variant() {
        let listed: Vec<(&str, &str)> = super::PRESETS
            .iter()
            .filter(|p| p.fence.is_none())
            .map(|p| (p.name, p.summary))
            .collect();
        assert_eq!(super::PICKER, listed.as_slice());
    }

    #[test]
    fn the_default_page_built_in_code_is_its_json_file() {
        let file = crate::model::scenario::Scenario::from_json(super::GC_PAUSE).unwrap();
        assert_eq!(super::gc_pause(), file);
    }

    /// The first load simulates this scenario alone, fenced or not, with the kit that
    /// carries the generic service and pauses (`model::sim::Pauses`), which tells none of
    /// the events only other services and faults make
    /// (`model::trace::events_beyond_pauses`). A default page that used more would not be
    /// carried there, so it fails here first.
    #[test]
    fn the_first_load_simulates_all_the_default_page_uses() {
        let sc = super::gc_pause();
        assert_eq!(
            sc.coordinator.flavor,
            crate::model::flavors::Flavor::Generic
        );
        for f in &sc.faults {
            assert!(
                matches!(f.kind, crate::model::scenario::FaultKind::Pause { .. }),
                "{f:?}"
            );
        }
        for fenced in [false, true] {
            let mut sc = super::gc_pause();
            if fenced {
                sc.storage.fence = sc.storage.fence.flipped();
            }
            let trace = crate::model::sim::run(&sc);
            assert!(trace.entries.len() > 10);
            for e in &trace.entries {
                assert!(!e.event.is_beyond_pauses(), "{e:?}");
            }
        }
    }
}
