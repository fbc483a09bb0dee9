//! Built-in scenarios. Each is a JSON file beside this module (so it doubles as an example
//! of the format) plus, for a variant, the fence mode it switches to.
//!
//! The scenario library (`library`) and the lock services' presets (`flavor_presets`) hold
//! the lessons; these are the playground scenarios of the picker.

use crate::model::scenario::{FenceMode, Scenario};
use crate::teach::library::{ASSUMPTIONS, DANGEROUS, KLEPPMANN};

/// A built-in scenario.
pub struct Preset {
    pub name: &'static str,
    pub summary: &'static str,
    /// Listed in the scenario picker. A fence variant is not: the Fence switch reaches it.
    pub in_picker: bool,
    /// Where its argument comes from (see the library's sources).
    pub sources: &'static [&'static str],
    json: &'static str,
    fence: Option<FenceMode>,
}

impl Preset {
    pub fn scenario(&self) -> Scenario {
        // The embedded files are checked by a test; a broken one would fail it, not a user.
        let mut sc =
            Scenario::from_json(self.json).unwrap_or_else(|e| panic!("preset {}: {e}", self.name));
        if let Some(f) = self.fence {
            sc.storage.fence = f;
        }
        sc
    }
}

const GC_PAUSE: &str = include_str!("presets/gc-pause.json");

/// A preset file the first-load build leaves out: it opens the default page's run only
/// (`course::open`), and the whole app the rest.
#[cfg(not(feature = "lite"))]
macro_rules! elsewhere {
    ($file:expr) => {
        include_str!($file)
    };
}
#[cfg(feature = "lite")]
macro_rules! elsewhere {
    ($file:expr) => {
        ""
    };
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "clean",
        summary: "Clean run: two clients take turns, no fault",
        in_picker: true,
        sources: &[KLEPPMANN],
        json: elsewhere!("presets/clean.json"),
        fence: None,
    },
    Preset {
        name: "gc-pause",
        summary: "GC pause: client 1 freezes past its lease and writes late (token 33 vs 34)",
        in_picker: true,
        sources: &[KLEPPMANN, ASSUMPTIONS],
        json: GC_PAUSE,
        fence: None,
    },
    Preset {
        name: "gc-pause-fenced",
        summary: "GC pause with fencing (reject lower tokens): storage rejects token 33 < 34",
        in_picker: false,
        sources: &[KLEPPMANN, ASSUMPTIONS],
        json: GC_PAUSE,
        fence: Some(FenceMode::Monotone),
    },
    Preset {
        name: "eight-clients",
        summary: "Eight clients renewing leases; one freezes mid-lease and is fenced",
        in_picker: true,
        sources: &[KLEPPMANN, DANGEROUS],
        json: elsewhere!("presets/eight-clients.json"),
        fence: None,
    },
];

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}
